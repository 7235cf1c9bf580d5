//! The JSON toolkit's wasm exports, run once each in a real browser
//! (`wasm-pack test --headless --chrome`, wired into CI by the lead).
#![cfg(target_arch = "wasm32")]

use apcheck::wasm::json::{builtin_schemas, diff_json, format_json, validate_json};
use serde_json::Value;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn parsed(text: String) -> Value {
    serde_json::from_str(&text).expect("exports return JSON")
}

#[wasm_bindgen_test]
fn format_keeps_numbers_and_reports_errors_as_data() {
    let out = parsed(format_json(r#"{"a":1.0}"#.into(), r#"{"indent": 4}"#.into()));
    assert_eq!(out["text"], "{\n    \"a\": 1.0\n}\n");
    let error = parsed(format_json("{\n\"a\" 1}".into(), "".into()));
    assert_eq!(error["ok"], false);
    assert_eq!(error["error"]["line"], 2);
}

#[wasm_bindgen_test]
fn validate_against_a_builtin_and_a_given_schema() {
    let out = parsed(validate_json(
        r#"{"name": "x"}"#.into(),
        "".into(),
        r#"{"builtin": "mcp-tool"}"#.into(),
    ));
    assert_eq!(out["valid"], false);
    let schema = r#"{"type": "object"}"#;
    assert_eq!(
        parsed(validate_json("{}".into(), schema.into(), "".into()))["valid"],
        true
    );
    assert_eq!(
        parsed(validate_json("{}".into(), r#"{"type": 3}"#.into(), "".into()))["ok"],
        false
    );
}

#[wasm_bindgen_test]
fn diff_returns_every_form() {
    let out = parsed(diff_json(
        r#"{"tools": [{"name": "a"}]}"#.into(),
        r#"{"tools": []}"#.into(),
        "".into(),
    ));
    assert_eq!(out["equal"], false);
    assert_eq!(out["changes"][0]["label"], "/tools[name=a]");
    assert!(out["patch"].is_array() && out["merge"]["patch"].is_object() && out["unified"]["text"].is_string());
}

#[wasm_bindgen_test]
fn builtins_are_listed() {
    let out = parsed(builtin_schemas());
    assert!(out["schemas"].as_array().unwrap().iter().any(|s| s["name"] == "plugin"));
}
