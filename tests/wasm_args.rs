//! Every wasm export given a number, `{}` or a BigInt where a string (or a
//! Uint8Array) belongs answers with its usual error value, or throws a JS
//! error for the methods that return nothing, instead of trapping with
//! "memory access out of bounds". Run in Chromium.
#![cfg(target_arch = "wasm32")]

#[cfg(feature = "node")]
use apcheck::wasm::apply_edits;
use apcheck::wasm::json::{diff_json, format_json, locate_json, validate_json, validate_json_batch};
use apcheck::wasm::snapshot::{snapshot_call, snapshot_changes, snapshot_lint};
use apcheck::wasm::{PackageTree, explain};
use serde_json::Value;
use wasm_bindgen::JsValue;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

/// What the page might pass by mistake, and how the message names it.
fn wrong_values() -> Vec<(JsValue, &'static str)> {
    vec![
        (JsValue::from_f64(42.0), "a number"),
        (js_sys::Object::new().into(), "an object"),
        (js_sys::BigInt::from(7u64).into(), "a bigint"),
        (JsValue::UNDEFINED, "undefined"),
        (JsValue::NULL, "null"),
    ]
}

fn text(s: &str) -> JsValue {
    JsValue::from_str(s)
}

fn utf8(s: &str) -> JsValue {
    js_sys::Uint8Array::from(s.as_bytes()).into()
}

fn uint32s(numbers: &[u32]) -> JsValue {
    js_sys::Uint32Array::from(numbers).into()
}

/// `{"ok": false, "error": {"message": ..}}` naming the parameter and what it got.
fn assert_error(answer: String, parameter: &str, got: &str) {
    let value: Value = serde_json::from_str(&answer).expect("the answer is JSON");
    assert_eq!(value["ok"], false, "{value}");
    let message = value["error"]["message"].as_str().unwrap_or_default();
    assert_eq!(message, format!("`{parameter}` must be a string, not {got}"), "{value}");
}

#[wasm_bindgen_test]
fn text_exports_answer_a_wrong_argument_with_their_error_value() {
    for (wrong, got) in wrong_values() {
        assert_error(format_json(wrong.clone(), text("")), "text", got);
        assert_error(
            validate_json(text("{}"), text("{}"), wrong.clone()),
            "options_json",
            got,
        );
        assert_error(diff_json(text("1"), wrong.clone(), text("")), "b", got);
        assert_error(locate_json(wrong.clone(), text("[]")), "text", got);
        assert_error(
            validate_json_batch(text(""), uint32s(&[]), wrong.clone(), text("{}")),
            "schema_text",
            got,
        );
        assert_error(snapshot_lint(wrong.clone(), text("{}")), "snapshot_name", got);
        assert_error(
            snapshot_changes(text("a"), text("{}"), text("b"), wrong.clone()),
            "new_text",
            got,
        );
        assert_error(
            snapshot_call(text("s"), text("{}"), wrong.clone(), text("a"), text("{}")),
            "tool",
            got,
        );
        #[cfg(feature = "node")]
        assert_error(apply_edits(text("{}"), wrong.clone()), "edits", got);
        assert_error(explain(wrong.clone()), "code_or_name", got);
        let mut tree = PackageTree::new();
        assert_error(tree.check(wrong.clone()), "root_name", got);
        assert_error(tree.render(wrong.clone()), "format", got);
        assert_error(tree.build_snapshot(text("p"), wrong.clone()), "tools_json", got);
        assert_error(tree.check_snapshot(wrong.clone(), text("{}")), "snapshot_name", got);
        assert_error(
            tree.drift_snapshot(text("p"), text("s"), wrong.clone()),
            "snapshot_text",
            got,
        );
        #[cfg(feature = "node")]
        assert_error(PackageTree::new().fix_all(wrong.clone(), false), "root_name", got);
    }
}

#[wasm_bindgen_test]
fn a_batch_is_one_string_and_the_utf16_lengths_of_its_texts() {
    let answer = |documents: JsValue, lengths: JsValue| -> String {
        let value: Value =
            serde_json::from_str(&validate_json_batch(documents, lengths, text("{}"), text("{}"))).unwrap();
        assert_eq!(value["ok"], false, "{value}");
        value["error"]["message"].as_str().unwrap_or_default().to_string()
    };
    assert_eq!(
        answer(utf8("{}"), uint32s(&[2])),
        "`documents` must be a string, not an object"
    );
    assert_eq!(
        answer(text("{}"), js_sys::Array::of1(&JsValue::from_f64(2.0)).into()),
        "`lengths` must be a Uint32Array, not an array"
    );
    assert_eq!(
        answer(text("{}[]"), uint32s(&[2])),
        "documents: the lengths add up to less than the joined texts (2 UTF-16 units are left over)"
    );
    // "😀" is two UTF-16 units (four bytes): the lengths count units, as JavaScript does.
    let fine: Value = serde_json::from_str(&validate_json_batch(
        text("{}[]\"😀\""),
        uint32s(&[2, 2, 4]),
        text("{}"),
        text("{}"),
    ))
    .unwrap();
    assert_eq!(fine["valid"], 3, "{fine}");
}

#[wasm_bindgen_test]
fn tree_building_methods_throw_a_catchable_error_and_keep_working() {
    let mut tree = PackageTree::new();
    for (wrong, _) in wrong_values() {
        assert!(
            tree.add_file(wrong.clone(), js_sys::Uint8Array::new_with_length(0).into())
                .is_err()
        );
        assert!(tree.add_file(text("plugin.json"), wrong.clone()).is_err());
        assert!(tree.add_dir(wrong.clone()).is_err());
        assert!(tree.add_symlink(text("a"), wrong.clone()).is_err());
        assert!(tree.mark_truncated(wrong.clone(), 1.0).is_err());
        assert!(tree.mark_omitted(text("a"), wrong.clone()).is_err());
    }
    // A plain array of numbers is not a Uint8Array either.
    let array: JsValue = js_sys::Array::of1(&JsValue::from_f64(1.0)).into();
    assert!(tree.add_file(text("plugin.json"), array).is_err());
    // Nothing was added, and the tree still answers.
    let report: Value = serde_json::from_str(&tree.check(text("p"))).unwrap();
    assert_eq!(report["diagnostics"][0]["code"], "AP201");
}
