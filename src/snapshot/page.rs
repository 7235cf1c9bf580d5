//! The snapshot features as JSON text in, JSON text out: what the page's
//! worker calls through `wasm::snapshot`. Kept here, outside the wasm-only
//! module, so native tests cover exactly what the page gets. Like the other
//! page exports, every answer is `{"ok": true, ...}`, or `{"ok": false,
//! "error": {"message"}}` for a mistake in the input; findings are not
//! mistakes, they are the answer. Never a panic.

use serde_json::{Value, json};

use super::build::build_snapshot;
use super::tools_list::{ToolsList, read_tools_list};
use super::{call, changes, check_snapshot, drift};
use crate::render;
use crate::tree::Tree;

/// Builds the snapshot of the package in `tree`. `tools_json` is a JSON object
/// mapping a server id to the text of its `tools/list` capture (`{}` for none).
/// Returns `{"ok": true, "summary": {"name", "version", "skills", "mcpServers",
/// "tools"}, "text": …}`: `text` is what `apcheck snapshot` prints, and the
/// counts are what the page says of it. The snapshot is not sent a second time
/// as a JSON value: at 10,000 tools building that value and parsing it in the
/// page cost more than the build itself, and the page's Snapshot tasks must
/// stay within 2× of the CLI's time. Who wants the value parses `text`.
pub fn build(root: &str, tree: &Tree, tools_json: &str) -> String {
    let failed = |message: String| json!({"ok": false, "error": {"message": message}}).to_string();
    let captures = match apcheck_hot::parse_value(tools_json) {
        Ok(Value::Object(captures)) => captures,
        _ => return failed("tools are given as a JSON object of server id to capture text".into()),
    };
    let mut tools: Vec<(String, ToolsList)> = Vec::new();
    for (server, capture) in captures {
        let Some(text) = capture.as_str() else {
            return failed(format!("the tools/list capture for `{server}` is not text"));
        };
        match read_tools_list(text) {
            Ok(list) => tools.push((server, list)),
            Err(error) => return failed(format!("tools/list for `{server}`: {error}")),
        }
    }
    let report = crate::check_package(root, tree);
    match build_snapshot(&report, &tools) {
        Ok(snapshot) => {
            let summary = json!({
                "name": snapshot.plugin.name,
                "version": snapshot.plugin.version,
                "skills": snapshot.skills.len(),
                "mcpServers": snapshot.servers.len(),
                "tools": snapshot.tools.len(),
            });
            json!({"ok": true, "summary": summary, "text": snapshot.to_pretty_json()}).to_string()
        }
        Err(error) => failed(error.to_string()),
    }
}

/// Lints a snapshot; with `package`, the checks that need its files run too.
/// Returns `{"ok": true, "valid": bool, "diagnostics": […]}`.
pub fn lint(name: &str, text: &str, package: Option<&Tree>) -> String {
    let check = check_snapshot(name, text, package);
    json!({"ok": true, "valid": check.snapshot.is_some(), "diagnostics": check.diagnostics}).to_string()
}

/// Compares a snapshot with the package in `tree`. Returns `{"ok": true, "report": DriftReport, "markdown": …}`.
pub fn drift(name: &str, text: &str, root: &str, tree: &Tree) -> String {
    let report = drift::drift(name, text, root, tree);
    json!({"ok": true, "markdown": render::snapshot::drift_markdown(&report), "report": report}).to_string()
}

/// The change report between two snapshots. Returns `{"ok": true, "report": ChangeReport, "markdown": …}`.
pub fn changes(old_name: &str, old_text: &str, new_name: &str, new_text: &str) -> String {
    let report = changes::compare(old_name, old_text, new_name, new_text);
    json!({"ok": true, "markdown": render::snapshot::changes_markdown(&report), "report": report}).to_string()
}

/// Checks `tools/call` arguments. Returns `{"ok": true, "report": CallReport,
/// "inputSchema": …, "issues": [ArgumentIssue]}`: the tool's schema and the
/// violations by argument are what the page's tool-call form is built from.
pub fn call(
    snapshot_name: &str,
    snapshot_text: &str,
    tool: &str,
    arguments_name: &str,
    arguments_text: &str,
) -> String {
    let form = call::check_call_form(snapshot_name, snapshot_text, tool, arguments_name, arguments_text);
    json!({"ok": true, "report": form.report, "inputSchema": form.input_schema, "issues": form.issues}).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    const PLUGIN: &str = r#"{"$schema": "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json", "name": "invoice-ops", "version": "1.2.0"}"#;
    const MCP: &str = r#"{"$schema": "https://agent-plugins.org/schemas/1.0.0/mcp.schema.json", "mcpServers": {"invoice-tools": {"type": "streamable-http", "url": "https://billing.example.com/mcp"}}}"#;
    const TOOLS: &str = r#"{"tools": [{"name": "query_invoices", "inputSchema": {"type": "object", "required": ["week"], "properties": {"week": {"type": "string"}}}}]}"#;

    fn package() -> Tree {
        Tree::from_files([("plugin.json", PLUGIN), ("mcp.json", MCP)])
    }

    fn parse(text: &str) -> Value {
        serde_json::from_str(text).unwrap()
    }

    #[test]
    fn build_lint_drift_changes_and_call_speak_json() {
        let tools = json!({"invoice-tools": TOOLS}).to_string();
        let built = parse(&build("invoice-ops", &package(), &tools));
        assert_eq!(built["ok"], true);
        let text = built["text"].as_str().unwrap();
        assert_eq!(parse(text)["mcpServers"][0]["status"], "connected");
        assert_eq!(
            built["summary"],
            json!({"name": "invoice-ops", "version": parse(text)["plugin"]["version"], "skills": parse(text)["skills"].as_array().unwrap().len(), "mcpServers": 1, "tools": parse(text)["tools"].as_array().unwrap().len()})
        );
        assert_eq!(parse(&lint("s.json", text, Some(&package())))["valid"], true);
        let drifted = parse(&drift("s.json", text, "invoice-ops", &package()));
        assert_eq!(drifted["report"]["rows"], json!([]));
        let changed = parse(&changes("old.json", text, "new.json", text));
        assert!(changed["markdown"].as_str().unwrap().contains("No changes"));
        let called = parse(&call("s.json", text, "query_invoices", "a.json", "{}"));
        assert_eq!(called["report"]["valid"], false);
        assert_eq!(called["report"]["diagnostics"][0]["code"], "AP901");
        assert_eq!(called["inputSchema"]["required"], json!(["week"]));
        assert_eq!(called["issues"][0]["pointer"], "/week");
    }

    #[test]
    fn user_mistakes_come_back_as_data() {
        let not_an_object = parse(&build("p", &package(), "[]"));
        assert_eq!(not_an_object["ok"], false);
        assert!(
            not_an_object["error"]["message"]
                .as_str()
                .unwrap()
                .contains("JSON object")
        );
        let bad_capture = parse(&build("p", &package(), r#"{"invoice-tools": "{"}"#));
        assert!(
            bad_capture["error"]["message"]
                .as_str()
                .unwrap()
                .contains("invoice-tools")
        );
        let rejected = parse(&build("p", &Tree::new(), "{}"));
        assert!(rejected["error"]["message"].as_str().unwrap().contains("rejected"));
        assert_eq!(parse(&lint("s.json", "not json", None))["valid"], false);
        assert_eq!(parse(&call("s.json", "", "t", "a.json", ""))["report"]["valid"], false);
    }
}
