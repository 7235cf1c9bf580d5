//! Snapshot exports for the page: build, lint, drift, changes, call. Each is
//! a one-line binding to `crate::snapshot::page`, which returns JSON text
//! (`{"ok": true, ...}` or `{"ok": false, "error": {"message"}}`). The free
//! functions are snake_case like the other text exports the worker calls by
//! name; the package methods are camelCase like `fixAll`.

use wasm_bindgen::prelude::*;

use super::PackageTree;
use super::args::{args, error_reply};
use crate::snapshot::page;

#[wasm_bindgen]
impl PackageTree {
    /// The snapshot of this package; `tools_json` maps server ids to `tools/list` capture text.
    #[wasm_bindgen(js_name = buildSnapshot)]
    pub fn build_snapshot(&self, root_name: JsValue, tools_json: JsValue) -> String {
        args!(error_reply; string root_name, string tools_json);
        page::build(&root_name, &self.tree, &tools_json)
    }

    /// Lints a snapshot with this package at hand (skill scripts, nested SKILL.md).
    #[wasm_bindgen(js_name = checkSnapshot)]
    pub fn check_snapshot(&self, snapshot_name: JsValue, snapshot_text: JsValue) -> String {
        args!(error_reply; string snapshot_name, string snapshot_text);
        page::lint(&snapshot_name, &snapshot_text, Some(&self.tree))
    }

    /// The snapshot against this package, side by side.
    #[wasm_bindgen(js_name = driftSnapshot)]
    pub fn drift_snapshot(&self, root_name: JsValue, snapshot_name: JsValue, snapshot_text: JsValue) -> String {
        args!(error_reply; string root_name, string snapshot_name, string snapshot_text);
        page::drift(&snapshot_name, &snapshot_text, &root_name, &self.tree)
    }
}

/// Lints a snapshot on its own.
#[wasm_bindgen]
pub fn snapshot_lint(snapshot_name: JsValue, snapshot_text: JsValue) -> String {
    args!(error_reply; string snapshot_name, string snapshot_text);
    page::lint(&snapshot_name, &snapshot_text, None)
}

/// The change report between two snapshots, with Markdown for a pull request.
#[wasm_bindgen]
pub fn snapshot_changes(old_name: JsValue, old_text: JsValue, new_name: JsValue, new_text: JsValue) -> String {
    args!(error_reply; string old_name, string old_text, string new_name, string new_text);
    page::changes(&old_name, &old_text, &new_name, &new_text)
}

/// `tools/call` arguments against a tool of a snapshot.
#[wasm_bindgen]
pub fn snapshot_call(
    snapshot_name: JsValue,
    snapshot_text: JsValue,
    tool: JsValue,
    arguments_name: JsValue,
    arguments_text: JsValue,
) -> String {
    args!(error_reply; string snapshot_name, string snapshot_text, string tool, string arguments_name, string arguments_text);
    page::call(&snapshot_name, &snapshot_text, &tool, &arguments_name, &arguments_text)
}
