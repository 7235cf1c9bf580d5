//! Strict JSON parsing that remembers where every value came from.
//!
//! Values come from serde_json (strict RFC 8259, `preserve_order`, a recursion
//! limit that turns 10^5-deep nesting into an error instead of a stack
//! overflow). Spans come from the exact scanner's span tree
//! ([`crate::locate`]), which keeps every duplicate member, so a JSON
//! Pointer maps to `line:col`.
//!
//! The tree is built at parsing, for the duplicate members, and kept only when
//! there are some (they are findings, which need spans); otherwise it is built
//! again at the first lookup. A clean document, such as a 10,000-tool
//! snapshot that passes, never holds its tree beside its value and model.

use std::sync::OnceLock;

use serde_json::Value;

pub use crate::locate::DuplicateKey;
use crate::locate::SpanTree;
pub use crate::pointer::{pointer_tokens, push_token};
pub use crate::scan::JsonParseError;
use crate::text::{ColumnUnit, Span, offset_at};

/// A parsed document: the value, the span of every node, and the duplicate keys.
#[derive(Debug, Clone)]
pub struct JsonDoc {
    pub value: Value,
    /// The parsed text, which the spans index and are built from.
    text: Box<str>,
    spans: OnceLock<SpanTree>,
    /// Object members whose key appeared earlier in the same object. serde_json
    /// keeps the last value; other parsers keep the first, so this is reported.
    pub duplicate_keys: Vec<DuplicateKey>,
}

/// Parses `text` as strict JSON (no comments, no trailing commas) with spans.
pub fn parse_document(text: &str) -> Result<JsonDoc, JsonParseError> {
    let value = apcheck_hot::parse_value(text).map_err(|e| serde_error(text, &e))?;
    // serde_json accepted the text, so the scanner does too (both are strict
    // RFC 8259); should they ever disagree, its error is reported, not hidden.
    let mut spans = SpanTree::parse(text)?;
    let duplicate_keys = spans.take_duplicate_keys();
    let spans = if duplicate_keys.is_empty() {
        OnceLock::new()
    } else {
        OnceLock::from(spans)
    };
    Ok(JsonDoc {
        value,
        text: text.into(),
        spans,
        duplicate_keys,
    })
}

/// serde_json's recursion limit: RFC 8259 §9 lets a parser limit nesting.
const DEPTH_LIMIT: &str = "it nests arrays and objects more than 128 deep, the limit of apcheck's parser (RFC 8259 §9)";
/// RFC 8259 §8.2: grammatical, but no Unicode text; parsers differ on it.
const LONE_SURROGATE: &str = "a `\\u` escape is an unpaired UTF-16 surrogate, no Unicode character: RFC 8259 §8.2 \
     leaves it to each parser, and apcheck's refuses it, as serde_json's does";

impl JsonParseError {
    /// When the text is RFC 8259 JSON that apcheck's parser does not take
    /// (nesting past its limit, an unpaired surrogate escape), what to do
    /// about it: not the author's syntax error, and not a verdict on what
    /// every client does. `None` for a syntax error.
    pub fn parser_limit_hint(&self) -> Option<&'static str> {
        match self.message.as_str() {
            DEPTH_LIMIT => Some("Nest at most 128 arrays and objects deep"),
            LONE_SURROGATE => Some("Write the character itself, or a surrogate pair (`\\ud83d\\ude00`)"),
            _ => None,
        }
    }
}

fn serde_error(text: &str, error: &serde_json::Error) -> JsonParseError {
    let full = error.to_string();
    // serde_json appends " at line L column C"; keep the message without it.
    let message = full
        .rsplit_once(" at line ")
        .map_or(full.as_str(), |(m, _)| m)
        .to_string();
    // RFC 8259 JSON that only this parser refuses: say so, not "not JSON".
    let message = match message.as_str() {
        "recursion limit exceeded" => DEPTH_LIMIT.to_string(),
        "lone leading surrogate in hex escape" | "unexpected end of hex escape" => LONE_SURROGATE.to_string(),
        _ => message,
    };
    let (line, column) = (error.line().max(1), error.column().max(1));
    // serde_json counts columns in bytes.
    let offset = offset_at(text, line, column, ColumnUnit::Bytes);
    // serde_json finds a trailing comma at the bracket after it; the comma is
    // what to delete, and where `fmt` and the page's Format point too.
    if message == "trailing comma" {
        let comma = text[..offset].trim_end_matches([' ', '\t', '\n', '\r']);
        if let Some(at) = comma.strip_suffix(',').map(str::len) {
            let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
            return JsonParseError {
                message,
                line: line - text[at..offset].matches('\n').count(),
                column: text[line_start..at].chars().count() + 1,
                offset: at,
            };
        }
    }
    JsonParseError {
        message,
        line,
        column,
        offset,
    }
}

impl JsonDoc {
    /// A document whose `text` a [`crate::lean::LeanDoc`] has read (so
    /// it is JSON serde_json reads alike, with no duplicate key), holding only
    /// the part of its value that `value` is: the spans are of the whole text.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn scanned(text: &str, value: Value) -> JsonDoc {
        JsonDoc {
            value,
            text: text.into(),
            spans: OnceLock::new(),
            duplicate_keys: Vec::new(),
        }
    }

    fn spans(&self) -> &SpanTree {
        self.spans
            .get_or_init(|| SpanTree::parse(&self.text).expect("the scanner accepted this text when it was parsed"))
    }

    /// The span of the value at `pointer`.
    pub fn value_span(&self, pointer: &str) -> Option<Span> {
        self.spans().value_span(&self.text, pointer)
    }

    /// The span of the member name at `pointer` (for object members), else of the value.
    pub fn key_span(&self, pointer: &str) -> Option<Span> {
        self.spans().key_span(&self.text, pointer)
    }

    /// The span of the value at `pointer`, or of its nearest existing ancestor
    /// (for "missing member" findings, which point at the object that lacks it).
    pub fn nearest_span(&self, pointer: &str) -> Span {
        self.spans().nearest_span(&self.text, pointer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pointers_map_to_value_and_key_spans() {
        let text = r#"{"name": "x", "a/b": {"~k": [1, {"deep": true}]}}"#;
        let doc = parse_document(text).unwrap();
        let span = doc.value_span("/name").unwrap();
        assert_eq!(&text[span.start..span.end], "\"x\"");
        let key = doc.key_span("/a~1b/~0k").unwrap();
        assert_eq!(&text[key.start..key.end], "\"~k\"");
        let deep = doc.value_span("/a~1b/~0k/1/deep").unwrap();
        assert_eq!(&text[deep.start..deep.end], "true");
        assert_eq!(doc.value_span("/missing"), None);
        let nearest = doc.nearest_span("/a~1b/~0k/1/missing");
        assert_eq!(&text[nearest.start..nearest.end], "{\"deep\": true}");
    }

    #[test]
    fn duplicate_keys_are_found_and_last_wins() {
        let text = "{\"name\": \"a\",\n \"name\": \"b\"}";
        let doc = parse_document(text).unwrap();
        assert_eq!(doc.value["name"], "b");
        assert_eq!(doc.duplicate_keys.len(), 1);
        assert_eq!(doc.duplicate_keys[0].pointer, "/name");
        let span = doc.value_span("/name").unwrap();
        assert_eq!(&text[span.start..span.end], "\"b\"");
    }

    #[test]
    fn errors_name_line_and_column() {
        // A trailing comma is placed at the comma, not at the bracket after it.
        let error = parse_document("{\n  \"a\": 1,\n}").unwrap_err();
        assert_eq!((error.line, error.column, error.offset), (2, 9, 10));
        assert!(error.message.contains("trailing comma"), "{}", error.message);
        let comment = parse_document("{\"a\": 1 // no\n}").unwrap_err();
        assert_eq!(comment.line, 1);
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        let text = "[".repeat(100_000) + &"]".repeat(100_000);
        let error = parse_document(&text).unwrap_err();
        assert!(error.message.contains("more than 128 deep"), "{}", error.message);
        assert!(error.parser_limit_hint().is_some());
    }

    #[test]
    fn unpaired_surrogate_escapes_are_named_as_such() {
        // RFC 8259 §8.2: grammatical JSON whose handling each parser decides.
        for text in [
            r#""\ud800""#,
            r#""\udc00""#,
            r#"{"a": "\ud800\u0041"}"#,
            r#"["\ud800\n"]"#,
        ] {
            let error = parse_document(text).unwrap_err();
            assert!(error.parser_limit_hint().is_some(), "{text}: {}", error.message);
            assert!(error.message.contains("unpaired UTF-16 surrogate"), "{text}");
        }
        for text in [r#""\u12""#, "[1,]", "[[[1]]"] {
            assert!(
                parse_document(text).unwrap_err().parser_limit_hint().is_none(),
                "{text}"
            );
        }
    }
}
