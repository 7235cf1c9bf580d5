//! Strict JSON parsing that remembers where every value came from.
//!
//! Values come from serde_json (strict RFC 8259, `preserve_order`, a recursion
//! limit that turns 10^5-deep nesting into an error instead of a stack
//! overflow). Spans come from a second, strict-mode parse by `jsonc-parser`,
//! whose AST keeps byte ranges and every duplicate member; we keep only a small
//! tree of spans mirroring the value, so a JSON Pointer maps to `line:col`.

use serde_json::Value;

use crate::source::{ColumnUnit, LineIndex, Span, offset_at};

/// A parsed document: the value, the span of every node, and the duplicate keys.
#[derive(Debug, Clone)]
pub struct JsonDoc {
    pub value: Value,
    spans: SpanNode,
    /// Object members whose key appeared earlier in the same object. serde_json
    /// keeps the last value; other parsers keep the first, so this is reported.
    pub duplicate_keys: Vec<DuplicateKey>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DuplicateKey {
    /// Pointer of the member (the one whose value is kept).
    pub pointer: String,
    /// Span of the later, repeated key.
    pub key_span: Span,
    /// Span of the first occurrence's key.
    pub first_key_span: Span,
}

/// Why a text is not JSON, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JsonParseError {
    /// What was expected or found, without the position.
    pub message: String,
    /// 1-based line and column of the error.
    pub line: usize,
    pub column: usize,
    /// Byte offset of the error.
    pub offset: usize,
}

impl std::fmt::Display for JsonParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} at line {} column {}", self.message, self.line, self.column)
    }
}

#[derive(Debug, Clone)]
struct SpanNode {
    span: Span,
    children: Children,
}

#[derive(Debug, Clone)]
enum Children {
    Leaf,
    /// Members in document order, duplicates included; lookups take the last.
    Object(Vec<(String, Span, SpanNode)>),
    Array(Vec<SpanNode>),
}

/// Parses `text` as strict JSON (no comments, no trailing commas) with spans.
pub fn parse_document(text: &str) -> Result<JsonDoc, JsonParseError> {
    let value: Value = serde_json::from_str(text).map_err(|e| serde_error(text, &e))?;
    let options = jsonc_parser::ParseOptions {
        allow_comments: false,
        allow_loose_object_property_names: false,
        allow_trailing_commas: false,
        allow_missing_commas: false,
        allow_single_quoted_strings: false,
        allow_hexadecimal_numbers: false,
        allow_unary_plus_numbers: false,
        allow_bare_decimal_point_numbers: false,
        allow_non_finite_numbers: false,
        allow_extended_string_escapes: false,
    };
    let ast = jsonc_parser::parse_to_ast(text, &Default::default(), &options).map_err(|e| {
        // serde_json accepted the text, so this is a disagreement between two
        // strict parsers; report it rather than trusting either silently.
        let index = LineIndex::new(text);
        let at = index.line_col(text, e.range().start);
        JsonParseError {
            message: e.kind().to_string(),
            line: at.line,
            column: at.column,
            offset: e.range().start,
        }
    })?;
    let root = ast
        .value
        .as_ref()
        .expect("serde_json accepted a document, so it has a value");
    let mut duplicate_keys = Vec::new();
    let spans = span_tree(root, &mut String::new(), &mut duplicate_keys);
    Ok(JsonDoc {
        value,
        spans,
        duplicate_keys,
    })
}

fn serde_error(text: &str, error: &serde_json::Error) -> JsonParseError {
    let full = error.to_string();
    // serde_json appends " at line L column C"; keep the message without it.
    let message = full
        .rsplit_once(" at line ")
        .map_or(full.as_str(), |(m, _)| m)
        .to_string();
    let (line, column) = (error.line().max(1), error.column().max(1));
    // serde_json counts columns in bytes.
    let offset = offset_at(text, line, column, ColumnUnit::Bytes);
    JsonParseError {
        message,
        line,
        column,
        offset,
    }
}

fn span_of(range: jsonc_parser::common::Range) -> Span {
    Span::new(range.start, range.end)
}

fn span_tree(
    value: &jsonc_parser::ast::Value<'_>,
    pointer: &mut String,
    duplicates: &mut Vec<DuplicateKey>,
) -> SpanNode {
    use jsonc_parser::ast::Value as Ast;
    use jsonc_parser::common::Ranged;
    let span = span_of(value.range());
    let children = match value {
        Ast::Object(object) => {
            let mut members: Vec<(String, Span, SpanNode)> = Vec::with_capacity(object.properties.len());
            for property in &object.properties {
                let key = property.name.as_str().to_string();
                let key_span = span_of(property.name.range());
                let len = pointer.len();
                push_token(pointer, &key);
                if let Some((_, first, _)) = members.iter().find(|(k, _, _)| *k == key) {
                    duplicates.push(DuplicateKey {
                        pointer: pointer.clone(),
                        key_span,
                        first_key_span: *first,
                    });
                }
                let child = span_tree(&property.value, pointer, duplicates);
                pointer.truncate(len);
                members.push((key, key_span, child));
            }
            Children::Object(members)
        }
        Ast::Array(array) => Children::Array(
            array
                .elements
                .iter()
                .enumerate()
                .map(|(i, element)| {
                    let len = pointer.len();
                    pointer.push('/');
                    pointer.push_str(&i.to_string());
                    let child = span_tree(element, pointer, duplicates);
                    pointer.truncate(len);
                    child
                })
                .collect(),
        ),
        _ => Children::Leaf,
    };
    SpanNode { span, children }
}

/// Appends `/token` to `pointer`, escaped per RFC 6901.
pub fn push_token(pointer: &mut String, token: &str) {
    pointer.push('/');
    for c in token.chars() {
        match c {
            '~' => pointer.push_str("~0"),
            '/' => pointer.push_str("~1"),
            c => pointer.push(c),
        }
    }
}

/// `pointer` split into unescaped tokens; `None` if it is not a valid RFC 6901 pointer.
pub fn pointer_tokens(pointer: &str) -> Option<Vec<String>> {
    if pointer.is_empty() {
        return Some(Vec::new());
    }
    pointer
        .strip_prefix('/')?
        .split('/')
        .map(|t| Some(t.replace("~1", "/").replace("~0", "~")))
        .collect()
}

impl JsonDoc {
    fn node(&self, pointer: &str) -> Option<(&SpanNode, Option<Span>)> {
        let mut node = &self.spans;
        let mut key_span = None;
        for token in pointer_tokens(pointer)? {
            match &node.children {
                Children::Object(members) => {
                    let (_, key, child) = members.iter().rev().find(|(k, _, _)| *k == token)?;
                    key_span = Some(*key);
                    node = child;
                }
                Children::Array(elements) => {
                    node = elements.get(token.parse::<usize>().ok()?)?;
                    key_span = None;
                }
                Children::Leaf => return None,
            }
        }
        Some((node, key_span))
    }

    /// The span of the value at `pointer`.
    pub fn value_span(&self, pointer: &str) -> Option<Span> {
        self.node(pointer).map(|(node, _)| node.span)
    }

    /// The span of the member name at `pointer` (for object members), else of the value.
    pub fn key_span(&self, pointer: &str) -> Option<Span> {
        self.node(pointer).map(|(node, key)| key.unwrap_or(node.span))
    }

    /// The span of the value at `pointer`, or of its nearest existing ancestor
    /// (for "missing member" findings, which point at the object that lacks it).
    pub fn nearest_span(&self, pointer: &str) -> Span {
        let mut pointer = pointer;
        loop {
            if let Some(span) = self.value_span(pointer) {
                return span;
            }
            match pointer.rfind('/') {
                Some(i) => pointer = &pointer[..i],
                None => return self.spans.span,
            }
        }
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
        let error = parse_document("{\n  \"a\": 1,\n}").unwrap_err();
        assert_eq!((error.line, error.column), (3, 1));
        assert!(error.message.contains("trailing comma"), "{}", error.message);
        let comment = parse_document("{\"a\": 1 // no\n}").unwrap_err();
        assert_eq!(comment.line, 1);
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        let text = "[".repeat(100_000) + &"]".repeat(100_000);
        let error = parse_document(&text).unwrap_err();
        assert!(error.message.contains("recursion limit"), "{}", error.message);
    }
}
