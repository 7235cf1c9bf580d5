//! The `tools/list` results exactly as the server sent them. rmcp's typed
//! `Tool` keeps only the members it knows, and a snapshot keeps every one
//! (`execution`, `icons`, `x-…`), so each transport hands every message it
//! decodes to [`RawPages::observe`] before rmcp sees the typed form.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use rmcp::model::RequestId;
use serde_json::Value;

/// Results that carry a `tools` array, by the JSON-RPC id of their response.
#[derive(Clone, Default)]
pub struct RawPages(Arc<Mutex<HashMap<String, Value>>>);

impl RawPages {
    /// Keeps `message` (or each member of a batch) when it is a response with `result.tools`.
    pub fn observe(&self, message: &Value) {
        if let Value::Array(batch) = message {
            batch.iter().for_each(|member| self.observe(member));
            return;
        }
        let Some(result) = message
            .get("result")
            .filter(|r| r.get("tools").is_some_and(Value::is_array))
        else {
            return;
        };
        if let Some(id) = message.get("id") {
            self.lock().insert(id.to_string(), result.clone());
        }
    }

    /// Parses `bytes` as one JSON message and keeps it if it is a tools page.
    pub fn observe_bytes(&self, bytes: &[u8]) {
        if let Ok(message) = serde_json::from_slice::<Value>(bytes) {
            self.observe(&message);
        }
    }

    /// The page answering request `id`, once.
    pub fn take(&self, id: &RequestId) -> Option<Value> {
        let key = serde_json::to_value(id).ok()?.to_string();
        self.lock().remove(&key)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Value>> {
        // A panic elsewhere cannot leave the map half-written: inserts are single calls.
        self.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn keeps_unknown_tool_members_by_response_id() {
        let pages = RawPages::default();
        pages.observe(&json!({"jsonrpc": "2.0", "id": 3, "result": {"tools": [{"name": "a", "x-vendor": 1, "execution": {"taskSupport": "optional"}}]}}));
        pages.observe(&json!({"jsonrpc": "2.0", "id": 4, "result": {"content": []}}));
        pages.observe_bytes(br#"[{"jsonrpc":"2.0","id":"s","result":{"tools":[]}}]"#);
        let page = pages.take(&RequestId::Number(3)).unwrap();
        assert_eq!(page["tools"][0]["x-vendor"], 1);
        assert_eq!(page["tools"][0]["execution"]["taskSupport"], "optional");
        assert!(pages.take(&RequestId::Number(3)).is_none(), "taken once");
        assert!(pages.take(&RequestId::Number(4)).is_none(), "not a tools page");
        assert!(pages.take(&RequestId::String("s".into())).is_some());
    }
}
