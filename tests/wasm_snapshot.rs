//! The snapshot wasm exports, run once each in a real browser
//! (`wasm-pack test --headless --chrome`), on the invoice-ops reference fixtures.
#![cfg(target_arch = "wasm32")]

use apcheck::wasm::PackageTree;
use apcheck::wasm::snapshot::{snapshot_call, snapshot_changes, snapshot_lint};
use serde_json::Value;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const PLUGIN: &str = include_str!("fixtures/invoice-ops/plugin.json");
const MCP: &str = include_str!("fixtures/invoice-ops/mcp.json");
const SKILL: &str = include_str!("fixtures/invoice-ops/skills/write-weekly-summary/SKILL.md");
const TOOLS: &str = include_str!("fixtures/invoice-ops/tools-list.json");
const SNAPSHOT: &str = include_str!("fixtures/invoice-ops/snapshot.json");
const ARGUMENTS: &str = include_str!("fixtures/invoice-ops/arguments.json");

/// A file's bytes as the page passes them.
fn bytes(text: &str) -> wasm_bindgen::JsValue {
    js_sys::Uint8Array::from(text.as_bytes()).into()
}

fn parsed(text: String) -> Value {
    serde_json::from_str(&text).expect("exports return JSON")
}

fn package() -> PackageTree {
    let mut tree = PackageTree::new();
    tree.add_file("plugin.json".into(), bytes(PLUGIN)).unwrap();
    tree.add_file("mcp.json".into(), bytes(MCP)).unwrap();
    tree.add_file("skills/write-weekly-summary/SKILL.md".into(), bytes(SKILL))
        .unwrap();
    tree
}

#[wasm_bindgen_test]
fn the_page_builds_the_reference_snapshot_and_finds_no_drift() {
    let tools = serde_json::json!({ "invoice-tools": TOOLS }).to_string();
    let built = parsed(package().build_snapshot("invoice-ops".into(), tools.into()));
    assert_eq!(built["text"], SNAPSHOT);
    assert_eq!(
        parsed(package().check_snapshot("snapshot.json".into(), SNAPSHOT.into()))["valid"],
        true
    );
    let drift = parsed(package().drift_snapshot("invoice-ops".into(), "snapshot.json".into(), SNAPSHOT.into()));
    assert_eq!(drift["report"]["rows"], serde_json::json!([]));
}

#[wasm_bindgen_test]
fn a_checked_report_renders_on_request() {
    let mut tree = package();
    assert_eq!(parsed(tree.render("sarif".into()))["ok"], false);
    let report = parsed(tree.check("invoice-ops".into()));
    let sarif = parsed(tree.render("sarif".into()));
    let log: Value = serde_json::from_str(sarif["text"].as_str().unwrap()).unwrap();
    assert_eq!(log["version"], "2.1.0");
    assert_eq!(
        log["runs"][0]["results"].as_array().unwrap().len(),
        report["diagnostics"].as_array().unwrap().len()
    );
    let markdown = parsed(tree.render("markdown".into()));
    assert!(markdown["text"].as_str().unwrap().contains("invoice-ops"));
    assert_eq!(parsed(tree.render("html".into()))["ok"], false);
}

#[wasm_bindgen_test]
fn lint_changes_and_call_answer_in_json() {
    assert_eq!(
        parsed(snapshot_lint("snapshot.json".into(), "{".into()))["diagnostics"][0]["code"],
        "AP601"
    );
    let changes = parsed(snapshot_changes(
        "old.json".into(),
        SNAPSHOT.into(),
        "new.json".into(),
        SNAPSHOT.into(),
    ));
    assert_eq!(changes["report"]["changes"], serde_json::json!([]));
    let call = parsed(snapshot_call(
        "snapshot.json".into(),
        SNAPSHOT.into(),
        "query_invoices".into(),
        "arguments.json".into(),
        ARGUMENTS.into(),
    ));
    assert_eq!(call["report"]["valid"], true);
}
