//! Any text through the span-keeping JSON parser: it must not panic or hang,
//! and every span it hands out must lie inside the text on character
//! boundaries, because diagnostics slice the source with them.

#![no_main]

use apcheck::json::parse::{JsonDoc, push_token};
use apcheck::json::parse_document;
use apcheck::source::Span;
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(doc) = parse_document(text) else { return };
    for duplicate in &doc.duplicate_keys {
        assert_fits(text, duplicate.key_span);
        assert_fits(text, duplicate.first_key_span);
    }
    check_spans(text, &doc, &doc.value, &mut String::new());
});

fn check_spans(text: &str, doc: &JsonDoc, value: &Value, pointer: &mut String) {
    if let Some(span) = doc.value_span(pointer) {
        assert_fits(text, span);
    }
    if let Some(span) = doc.key_span(pointer) {
        assert_fits(text, span);
    }
    assert_fits(text, doc.nearest_span(pointer));
    let length = pointer.len();
    match value {
        Value::Object(map) => {
            for (key, child) in map {
                push_token(pointer, key);
                check_spans(text, doc, child, pointer);
                pointer.truncate(length);
            }
        }
        Value::Array(items) => {
            for (index, child) in items.iter().enumerate() {
                push_token(pointer, &index.to_string());
                check_spans(text, doc, child, pointer);
                pointer.truncate(length);
            }
        }
        _ => {}
    }
}

fn assert_fits(text: &str, span: Span) {
    assert!(
        span.start <= span.end && span.end <= text.len(),
        "{span:?} outside {} bytes",
        text.len()
    );
    assert!(
        text.is_char_boundary(span.start) && text.is_char_boundary(span.end),
        "{span:?} splits a character"
    );
}
