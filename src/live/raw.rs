//! The `tools/list` results exactly as the server sent them. rmcp's typed
//! `Tool` keeps only the members it knows, and a snapshot keeps every one
//! (`execution`, `icons`, `x-…`), so each transport hands every message it
//! decodes to [`RawPages::observe`] before rmcp sees the typed form.
//!
//! A message with a tool list is only a candidate: a server may send one for
//! an id nobody asked yet, or two answers to one request. The page reported is
//! the first candidate for the request's id that agrees with the answer rmcp
//! accepted on every tool's name, description and input schema, so what a
//! snapshot holds is what the client was answered, never another message.

use std::sync::{Arc, Mutex};

use rmcp::model::{ListToolsResult, RequestId};
use serde_json::Value;

/// Results that carry a `tools` array, in arrival order, with their response's id.
#[derive(Clone, Default)]
pub struct RawPages(Arc<Mutex<Vec<(String, Value)>>>);

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
            self.lock().push((id_key(id), result.clone()));
        }
    }

    /// Parses `bytes` as one JSON message and keeps it if it is a tools page.
    pub fn observe_bytes(&self, bytes: &[u8]) {
        if let Ok(message) = serde_json::from_slice::<Value>(bytes) {
            self.observe(&message);
        }
    }

    /// The page answering request `id` that agrees with `accepted`, the answer
    /// rmcp took for it, once.
    pub fn take(&self, id: &RequestId, accepted: &ListToolsResult) -> Option<Value> {
        let key = id_key(&serde_json::to_value(id).ok()?);
        let mut pages = self.lock();
        let at = pages
            .iter()
            .position(|(page_id, page)| *page_id == key && agrees(page, accepted))?;
        Some(pages.remove(at).1)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<(String, Value)>> {
        // A panic elsewhere cannot leave the list half-written: pushes are single calls.
        self.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// An id as JSON-RPC peers match it: `2`, `"2"` and `2.0` alike, as rmcp does.
fn id_key(id: &Value) -> String {
    match id {
        Value::String(text) => text.clone(),
        Value::Number(number) => match number.as_f64() {
            Some(value) if value.fract() == 0.0 && value.abs() < 9.0e15 => format!("{}", value as i64),
            _ => number.to_string(),
        },
        other => other.to_string(),
    }
}

/// Whether the raw `page` is the answer rmcp parsed as `accepted`: the same
/// cursor, and the same tools in order by name, description and input schema.
fn agrees(page: &Value, accepted: &ListToolsResult) -> bool {
    let Some(tools) = page.get("tools").and_then(Value::as_array) else {
        return false;
    };
    page.get("nextCursor").and_then(Value::as_str) == accepted.next_cursor.as_deref()
        && tools.len() == accepted.tools.len()
        && tools.iter().zip(&accepted.tools).all(|(raw, typed)| {
            raw.get("name").and_then(Value::as_str) == Some(&*typed.name)
                && raw.get("description").and_then(Value::as_str) == typed.description.as_deref()
                && raw.get("inputSchema").and_then(Value::as_object) == Some(&*typed.input_schema)
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn accepted(page: Value) -> ListToolsResult {
        serde_json::from_value(page).unwrap()
    }

    #[test]
    fn keeps_unknown_tool_members_by_response_id() {
        let pages = RawPages::default();
        let tools = json!({"tools": [{"name": "a", "inputSchema": {"type": "object"}, "x-vendor": 1, "execution": {"taskSupport": "optional"}}]});
        pages.observe(&json!({"jsonrpc": "2.0", "id": 3, "result": tools}));
        pages.observe(&json!({"jsonrpc": "2.0", "id": 4, "result": {"content": []}}));
        let empty = json!({"tools": []});
        pages.observe_bytes(br#"[{"jsonrpc":"2.0","id":"s","result":{"tools":[]}}]"#);
        let page = pages.take(&RequestId::Number(3), &accepted(tools.clone())).unwrap();
        assert_eq!(page["tools"][0]["x-vendor"], 1);
        assert_eq!(page["tools"][0]["execution"]["taskSupport"], "optional");
        assert!(
            pages.take(&RequestId::Number(3), &accepted(tools)).is_none(),
            "taken once"
        );
        assert!(
            pages.take(&RequestId::Number(4), &accepted(empty.clone())).is_none(),
            "not a tools page"
        );
        assert!(pages.take(&RequestId::String("s".into()), &accepted(empty)).is_some());
    }

    #[test]
    fn only_the_answer_the_client_accepted_is_reported() {
        // An unsolicited page for an id not yet asked, then the real answer
        // with the id as a string, then a second answer to the same request.
        let pages = RawPages::default();
        let forged = json!({"tools": [{"name": "forged", "inputSchema": {"type": "object"}}]});
        let real = json!({"tools": [{"name": "real", "inputSchema": {"type": "object"}}]});
        pages.observe(&json!({"jsonrpc": "2.0", "id": 2, "result": forged}));
        pages.observe(&json!({"jsonrpc": "2.0", "id": "2", "result": real}));
        pages.observe(&json!({"jsonrpc": "2.0", "id": 2.0, "result": forged}));
        let page = pages.take(&RequestId::Number(2), &accepted(real.clone())).unwrap();
        assert_eq!(page["tools"][0]["name"], "real");
        // A page that says something else than the accepted answer is never reported.
        assert!(pages.take(&RequestId::Number(2), &accepted(real)).is_none());
    }
}
