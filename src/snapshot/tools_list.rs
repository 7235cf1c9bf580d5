//! Reading `tools/list` results as people capture them: a JSON-RPC response,
//! a bare result, an array of pages (either kind), or a capture holding
//! `initialize_response` and `tools_list_response`. MCP 2025-11-25 and
//! 2026-07-28 shapes; page members other than `tools` (`nextCursor`,
//! `resultType`, `ttlMs`, `cacheScope`, `_meta`) do not change the tools.

use serde_json::{Map, Value};

use crate::json::parse_document;

/// The tools one server listed, across all pages, in the order received.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ToolsList {
    pub tools: Vec<Map<String, Value>>,
    /// From a capture's `initialize` result, when present.
    pub protocol_version: Option<String>,
    /// The last page still had a `nextCursor`: the list is incomplete.
    pub incomplete: bool,
}

/// Why a file is not a `tools/list` result, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolsListError {
    pub message: String,
    pub line: Option<usize>,
    pub column: Option<usize>,
}

impl std::fmt::Display for ToolsListError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (self.line, self.column) {
            (Some(line), Some(column)) => write!(f, "{}:{}: {}", line, column, self.message),
            _ => f.write_str(&self.message),
        }
    }
}

/// Reads a `tools/list` capture from `text`.
pub fn read_tools_list(text: &str) -> Result<ToolsList, ToolsListError> {
    let doc = parse_document(text).map_err(|e| ToolsListError {
        message: format!("not JSON: {}", e.message),
        line: Some(e.line),
        column: Some(e.column),
    })?;
    let mut list = ToolsList::default();
    let located_error = |pointer: &str, message: String| {
        let index = crate::source::LineIndex::new(text);
        let at = index.line_col(text, doc.nearest_span(pointer).start);
        ToolsListError {
            message,
            line: Some(at.line),
            column: Some(at.column),
        }
    };
    let pages = pages(&doc.value, "", &mut list).map_err(|(pointer, message)| located_error(&pointer, message))?;
    for page in pages {
        for (i, tool) in page.tools.iter().enumerate() {
            let at = format!("{}/{i}", page.pointer);
            let Some(members) = tool.as_object() else {
                return Err(located_error(&at, "a tool is a JSON object".into()));
            };
            if !members.get("name").is_some_and(Value::is_string) {
                return Err(located_error(&at, "a tool has a string `name`".into()));
            }
            list.tools.push(members.clone());
        }
        list.incomplete = page.more;
    }
    Ok(list)
}

/// One page of tools: the `tools` array, where it is, and whether a `nextCursor` follows.
struct Page<'v> {
    pointer: String,
    tools: &'v [Value],
    more: bool,
}

/// The pages in `value`, in order.
fn pages<'v>(value: &'v Value, pointer: &str, list: &mut ToolsList) -> Result<Vec<Page<'v>>, (String, String)> {
    match value {
        // `result.tools` pasted on its own: an array of Tool objects is one page.
        Value::Array(items) if !items.is_empty() && items.iter().all(is_bare_tool) => Ok(vec![Page {
            pointer: pointer.to_string(),
            tools: items,
            more: false,
        }]),
        Value::Array(items) => {
            let mut all = Vec::new();
            for (i, item) in items.iter().enumerate() {
                all.extend(pages(item, &format!("{pointer}/{i}"), list)?);
            }
            Ok(all)
        }
        Value::Object(members) => {
            if let Some(response) = members.get("tools_list_response") {
                list.protocol_version = value
                    .pointer("/initialize_response/result/protocolVersion")
                    .and_then(Value::as_str)
                    .map(str::to_string);
                return pages(response, &format!("{pointer}/tools_list_response"), list);
            }
            if let Some(error) = members.get("error") {
                let message = error.get("message").and_then(Value::as_str).unwrap_or("no message");
                return Err((
                    format!("{pointer}/error"),
                    format!("the server answered with an error: {message}"),
                ));
            }
            if let Some(result) = members.get("result") {
                return pages(result, &format!("{pointer}/result"), list);
            }
            match members.get("tools") {
                Some(Value::Array(tools)) => Ok(vec![Page {
                    pointer: format!("{pointer}/tools"),
                    tools,
                    more: members.get("nextCursor").is_some_and(|c| !c.is_null()),
                }]),
                Some(_) => Err((format!("{pointer}/tools"), "`tools` is an array of Tool objects".into())),
                None => Err((
                    pointer.to_string(),
                    "expected a tools/list response, its result (`{\"tools\": [...]}`) or an array of pages".into(),
                )),
            }
        }
        _ => Err((
            pointer.to_string(),
            "expected a tools/list response, its result or an array of pages".into(),
        )),
    }
}

/// A Tool object rather than a page or a response: it has a `name` and no `tools` or `result`.
fn is_bare_tool(item: &Value) -> bool {
    item.get("name").is_some() && item.get("tools").is_none() && item.get("result").is_none()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bare_results_responses_and_pages_are_read() {
        let bare = read_tools_list(r#"{"tools": [{"name": "a", "inputSchema": {"type": "object"}}]}"#).unwrap();
        assert_eq!(bare.tools.len(), 1);
        let response =
            read_tools_list(r#"{"jsonrpc": "2.0", "id": 1, "result": {"tools": [{"name": "a"}], "nextCursor": "x"}}"#)
                .unwrap();
        assert!(response.incomplete);
        let pages = read_tools_list(
            r#"[{"jsonrpc": "2.0", "id": 1, "result": {"tools": [{"name": "a"}], "nextCursor": "p2"}},
                {"resultType": "complete", "tools": [{"name": "b"}], "ttlMs": 300000, "cacheScope": "public"}]"#,
        )
        .unwrap();
        let names: Vec<_> = pages.tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
        assert_eq!(names, ["a", "b"]);
        assert!(!pages.incomplete);
    }

    #[test]
    fn a_bare_array_of_tools_is_one_page() {
        let list = read_tools_list(r#"[{"name": "a", "inputSchema": {"type": "object"}}, {"name": "b"}]"#).unwrap();
        assert_eq!(list.tools.len(), 2);
        let empty_pages = read_tools_list("[]").unwrap();
        assert!(empty_pages.tools.is_empty());
    }

    #[test]
    fn errors_say_where() {
        let error = read_tools_list("{\"tools\": [\n  {\"title\": \"no name\"}]}").unwrap_err();
        assert_eq!((error.line, error.column), (Some(2), Some(3)));
        let rpc =
            read_tools_list(r#"{"jsonrpc": "2.0", "id": 1, "error": {"code": -32601, "message": "Method not found"}}"#)
                .unwrap_err();
        assert!(rpc.message.contains("Method not found"));
    }
}
