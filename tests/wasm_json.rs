//! The JSON toolkit's wasm exports, run once each in a real browser
//! (`wasm-pack test --headless --chrome`, wired into CI by the lead).
#![cfg(target_arch = "wasm32")]

use apcheck::wasm::json::{builtin_schemas, diff_json, format_json, locate_json, validate_json, validate_json_batch};
use serde_json::Value;
use wasm_bindgen::JsValue;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

/// What the page passes to `validate_json_batch`: the texts joined into one
/// string, and each text's length in UTF-16 units.
fn batch(texts: &[&str]) -> (JsValue, JsValue) {
    let lengths: Vec<u32> = texts.iter().map(|t| t.encode_utf16().count() as u32).collect();
    (
        JsValue::from_str(&texts.concat()),
        js_sys::Uint32Array::from(&lengths[..]).into(),
    )
}

fn validate_batch(texts: &[&str], schema: &str, options: &str) -> Value {
    let (documents, lengths) = batch(texts);
    parsed(validate_json_batch(documents, lengths, schema.into(), options.into()))
}

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
    assert_eq!(error["error"]["jsoncAccepts"], false);
    // A trailing comma: at the comma, and JSONC would accept it (the page names its checkbox).
    let comma = parsed(format_json("{\n  \"a\": 1,\n}".into(), "".into()));
    assert_eq!(
        (&comma["error"]["line"], &comma["error"]["column"]),
        (&2.into(), &9.into())
    );
    assert_eq!(comma["error"]["jsoncAccepts"], true);
    // A repeated member is kept in the output and named at its later key, JSONC too.
    let twice = parsed(format_json(
        "{\"a\": 1, // one\n \"a\": 2}".into(),
        r#"{"jsonc": true}"#.into(),
    ));
    assert_eq!(
        twice["duplicates"],
        serde_json::json!([{ "pointer": "/a", "start": 17, "end": 20 }])
    );
    assert_eq!(
        parsed(format_json(r#"{"a":1}"#.into(), "".into()))["duplicates"],
        serde_json::json!([])
    );
}

/// Strings past a few thousand units reach the wasm through the platform's
/// encoder in place (`wasm::args`): every character arrives, wherever the
/// first non-ASCII one is, and a lone surrogate is U+FFFD as for short strings.
#[wasm_bindgen_test]
fn long_strings_arrive_whole_whatever_their_characters() {
    let padding = "x".repeat(5000);
    let mixed = "é€😀".repeat(3000);
    for content in [
        padding.clone(),
        format!("{padding}é"),
        format!("é{padding}€😀"),
        mixed.clone(),
        format!("{mixed}{padding}"),
    ] {
        let out = parsed(format_json(format!("[\"{content}\"]").into(), "".into()));
        assert_eq!(
            out["text"],
            format!("[\n  \"{content}\"\n]\n"),
            "{} characters",
            content.chars().count()
        );
    }
    let lone = js_sys::JsString::from(format!("[\"{padding}"))
        .concat(&js_sys::JsString::from_char_code1(0xd800))
        .concat(&"\"]".into());
    let out = parsed(format_json(lone.into(), "".into()));
    assert_eq!(out["text"], format!("[\n  \"{padding}\u{fffd}\"\n]\n"));
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
fn validate_names_a_document_of_another_kind_as_the_cli_does() {
    let snapshot = r#"{"snapshotVersion": 1, "plugin": {"name": "x"}, "servers": [], "tools": []}"#;
    let out = parsed(validate_json(
        snapshot.into(),
        "".into(),
        r#"{"builtin": "plugin"}"#.into(),
    ));
    assert_eq!(out["valid"], false);
    assert!(
        out["kind_mismatch"].as_str().unwrap().contains("--builtin snapshot"),
        "{out}"
    );
    let batch = validate_batch(&[snapshot], "", r#"{"builtin": "plugin"}"#);
    assert!(batch["failures"][0]["kind_mismatch"].is_string(), "{batch}");
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
fn a_batch_is_validated_against_one_compilation() {
    let schema = r#"{"type": "object", "required": ["n"], "properties": {"n": {"type": "integer"}}}"#;
    let documents = [r#"{"n": 1}"#, r#"{"n": "x"}"#, "{"];
    for _ in 0..2 {
        let out = validate_batch(&documents, schema, "");
        assert_eq!((out["valid"].as_u64(), out["invalid"].as_u64()), (Some(1), Some(2)));
        // Only the failures are listed, by position: the reply to 10,000 documents stays small.
        let failures = out["failures"].as_array().unwrap();
        assert_eq!(failures.len(), 2);
        assert_eq!(failures[0]["index"], 1);
        assert_eq!(failures[0]["issues"][0]["instance_pointer"], "/n");
        assert_eq!(
            (failures[1]["index"].as_u64(), failures[1]["error"]["line"].as_u64()),
            (Some(2), Some(1))
        );
    }
    // Lengths count bytes: "é" is two, "𝄞" four.
    let wide = validate_batch(&[r#"{"n": "é𝄞"}"#, r#"{"n": 2}"#, r#"{"n": "𝄞"}"#], schema, "");
    let failed: Vec<_> = wide["failures"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["index"].clone())
        .collect();
    assert_eq!(failed, [0, 2], "{wide}");
    let builtin = validate_batch(&[r#"{"name": "x"}"#], "", r#"{"builtin": "mcp-tool", "formats": true}"#);
    assert_eq!(builtin["invalid"], 1);
    assert_eq!(validate_batch(&[], r#"{"type": 3}"#, "")["ok"], false);
}

#[wasm_bindgen_test]
fn diff_computes_only_what_is_wanted_and_says_how_arrays_matched() {
    let a = r#"{"items": [{"id": 1, "v": 1}, {"id": 2, "v": 2}], "rows": [{"v": 1}]}"#;
    let b = r#"{"items": [{"id": 2, "v": 3}, {"id": 1, "v": 1}], "rows": [{"v": 2}]}"#;
    let out = parsed(diff_json(a.into(), b.into(), r#"{"want": ["changes"]}"#.into()));
    assert!(out.get("patch").is_none() && out.get("merge").is_none() && out.get("unified").is_none());
    assert_eq!(out["located"], false);
    let arrays = out["arrays"].as_array().unwrap();
    assert!(
        arrays
            .iter()
            .any(|m| m["path"] == "/items" && m["by"] == "key" && m["key"][0] == "id"),
        "{arrays:?}"
    );
    assert!(
        arrays.iter().any(|m| m["path"] == "/rows" && m["by"] == "sequence"),
        "{arrays:?}"
    );
    let patch = parsed(diff_json(a.into(), b.into(), r#"{"want": ["patch"]}"#.into()));
    assert!(patch["patch"].is_array() && patch.get("changes").is_none());
}

#[wasm_bindgen_test]
fn locate_finds_lines_of_pointers() {
    let text = "{\n  \"a\": [\n    1,\n    2\n  ]\n}";
    let out = parsed(locate_json(text.into(), r#"["/a/1", "/a/9", ""]"#.into()));
    assert_eq!(out["lines"], serde_json::json!([4, 2, 1]));
}

#[wasm_bindgen_test]
fn builtins_are_listed() {
    let out = parsed(builtin_schemas());
    assert!(out["schemas"].as_array().unwrap().iter().any(|s| s["name"] == "plugin"));
}

/// A `pattern` past the regex engine's backtracking limit gets no
/// verdict in the page either: `valid: false`, no issues, and `unchecked` saying why.
#[wasm_bindgen_test]
fn a_regex_past_its_limit_is_unchecked_not_invalid() {
    let long = format!("\"{}\"", "a".repeat(40));
    let out = parsed(validate_json(
        long.as_str().into(),
        r#"{"pattern": "(a*)*\\1x"}"#.into(),
        "".into(),
    ));
    assert_eq!(
        (&out["valid"], &out["unchecked"]["reason"]),
        (&Value::Bool(false), &Value::from("regex"))
    );
    assert_eq!(out["issues"], serde_json::json!([]));
}

/// The answer for a document that gets no verdict, in the page's wasm as in
/// the npm package's, is `valid: false`, no issues, and `unchecked` saying
/// why; a batch counts it apart.
#[wasm_bindgen_test]
fn a_document_that_cannot_be_checked_is_unchecked_not_invalid() {
    let expensive = r##"{"type": "array", "items": {"oneOf": [{"$ref": "#"}, {"$ref": "#"}, {"type": "string"}]}}"##;
    let deep = format!("{}{}", "[".repeat(22), "]".repeat(22));
    let out = parsed(validate_json(deep.as_str().into(), expensive.into(), "".into()));
    assert_eq!(
        (&out["valid"], &out["unchecked"]["reason"]),
        (&Value::Bool(false), &Value::from("too-expensive"))
    );
    assert_eq!(out["issues"], serde_json::json!([]));
    let out = parsed(validate_json(
        "18446744073709551616".into(),
        r#"{"const": 18446744073709551617}"#.into(),
        "".into(),
    ));
    assert_eq!(out["unchecked"]["reason"], "inexact");
    let out = validate_batch(&["1", "1e400"], r#"{"maximum": 2}"#, "");
    assert_eq!(
        (&out["valid"], &out["invalid"], &out["unchecked"]),
        (&Value::from(1), &Value::from(0), &Value::from(1))
    );
    assert_eq!(out["failures"][0]["unchecked"]["reason"], "inexact");
}
