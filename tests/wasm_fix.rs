//! The fix exports of the npm package's wasm, run in a real browser: the
//! check's report carries each fix, `applyEdits` applies one to a text, and
//! `fixAll` fixes a tree the way `apcheck check --fix` does. The page's wasm
//! has neither (the page applies a fix's edits in its editor), so these run
//! with the `node` feature (scripts/test.sh).
#![cfg(all(target_arch = "wasm32", feature = "node"))]

use apcheck::wasm::{PackageTree, apply_edits};
use serde_json::Value;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const BAD_NAME: &str = "{\n  \"$schema\": \"https://agent-plugins.org/schemas/1.0.0/plugin.schema.json\",\n  \"name\": \"Invoice-Ops\"\n}\n";

/// A file's bytes as the page passes them.
fn bytes(text: &str) -> wasm_bindgen::JsValue {
    js_sys::Uint8Array::from(text.as_bytes()).into()
}

fn parsed(text: String) -> Value {
    serde_json::from_str(&text).expect("exports return JSON")
}

fn tree() -> PackageTree {
    let mut tree = PackageTree::new();
    tree.add_file("plugin.json".into(), bytes(BAD_NAME)).unwrap();
    tree
}

#[wasm_bindgen_test]
fn a_reported_fix_applies_to_the_text_and_the_recheck_is_clean() {
    let report = parsed(tree().check("demo".into()));
    let fix = &report["diagnostics"][0]["fix"];
    assert_eq!(fix["applicability"], "safe");
    let applied = parsed(apply_edits(BAD_NAME.into(), fix["edits"].to_string().into()));
    let fixed = applied["text"].as_str().expect("the fixed text");
    assert!(fixed.contains("\"name\": \"invoice-ops\""), "{fixed}");
    let mut again = PackageTree::new();
    again.add_file("plugin.json".into(), bytes(fixed)).unwrap();
    assert_eq!(parsed(again.check("demo".into()))["diagnostics"], serde_json::json!([]));
}

#[wasm_bindgen_test]
fn edits_that_do_not_fit_are_an_answer_not_an_exception() {
    let edits = r#"[{"file": "plugin.json", "span": {"start": 5, "end": 500}, "replacement": ""}]"#;
    let answer = parsed(apply_edits("{}".into(), edits.into()));
    assert_eq!(answer["ok"], false);
    assert_eq!(parsed(apply_edits("{}".into(), "{}".into()))["ok"], false);
}

#[wasm_bindgen_test]
fn fix_all_fixes_the_tree_in_place() {
    let mut tree = tree();
    let outcome = parsed(tree.fix_all("demo".into(), false));
    assert_eq!(outcome["applied"], 1);
    assert_eq!(outcome["changed"][0]["file"], "plugin.json");
    assert_eq!(parsed(tree.check("demo".into()))["summary"]["errors"], 0);
}
