//! Completion and key docs for `plugin.json` and `mcp.json`, read from the
//! closed official schemas (`schemas/agent-plugins/1.0.0/`): the keys an
//! object may hold, the values a key may take, what the schema says about a
//! key, and, in the native build, what the spec text says (`spec_text`).

use std::sync::OnceLock;

use serde_json::Value;

use super::cursor::{Cursor, Slot, cursor_at};
use super::spec_note::{Place, SpecNote};
use crate::schemas::{MCP_SCHEMA, PLUGIN_SCHEMA};
use crate::source::Span;

/// A JSON document with a closed Agent Plugins schema.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JsonDocument {
    /// `plugin.json` at the root (§5).
    Manifest,
    /// `mcp.json` at the root (§7.2.1).
    McpConfig,
}

impl JsonDocument {
    /// The document a package-relative path is, if any.
    pub fn of(path: &str) -> Option<Self> {
        match path {
            "plugin.json" => Some(JsonDocument::Manifest),
            "mcp.json" => Some(JsonDocument::McpConfig),
            _ => None,
        }
    }

    fn schema(self) -> &'static Value {
        static PLUGIN: OnceLock<Value> = OnceLock::new();
        static MCP: OnceLock<Value> = OnceLock::new();
        let (cell, text) = match self {
            JsonDocument::Manifest => (&PLUGIN, PLUGIN_SCHEMA),
            JsonDocument::McpConfig => (&MCP, MCP_SCHEMA),
        };
        cell.get_or_init(|| apcheck_hot::parse_value(text).expect("the embedded schemas are JSON"))
    }
}

/// The object of `document` at `path` whose keys the spec describes, if any.
fn place_of(document: JsonDocument, path: &[String]) -> Option<Place> {
    match (document, path) {
        (JsonDocument::Manifest, []) => Some(Place::ManifestRoot),
        (JsonDocument::Manifest, [author]) if author == "author" => Some(Place::Author),
        (JsonDocument::McpConfig, []) => Some(Place::McpRoot),
        (JsonDocument::McpConfig, [servers, _]) if servers == "mcpServers" => Some(Place::Server),
        _ => None,
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn spec_notes(place: Place, key: &str) -> Vec<SpecNote> {
    super::spec_text::notes(place, key)
}

/// The wasm build carries no spec text (size): hovers there show the schema only.
#[cfg(target_arch = "wasm32")]
fn spec_notes(_place: Place, _key: &str) -> Vec<SpecNote> {
    Vec::new()
}

/// What may be typed at a cursor.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Completions {
    /// The bytes a chosen item replaces: the token under the cursor, or an empty span at it.
    pub replace: Span,
    pub items: Vec<CompletionItem>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompletionItem {
    /// What the list shows: a key name, or a value's JSON text.
    pub label: String,
    pub kind: CompletionKind,
    /// The JSON text inserted over [`Completions::replace`].
    pub insert: String,
    /// One line: the type and constraints.
    pub detail: String,
    /// Markdown: what the schema (and the spec) say.
    pub documentation: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CompletionKind {
    Key,
    Value,
}

/// The completions at byte `offset` of `text`, a `document` being edited.
pub fn complete(document: JsonDocument, text: &str, offset: usize) -> Completions {
    let cursor = cursor_at(text, offset);
    let empty_at = Span::new(offset, offset);
    match &cursor.slot {
        Slot::Key { token } => {
            let replace = token.as_ref().map_or(empty_at, |t| t.span);
            // After `"ke|": …` only the name is replaced; elsewhere the colon comes along.
            let colon_follows = text[replace.end.min(text.len())..].trim_start().starts_with(':');
            let present: Vec<&str> = cursor.siblings.iter().map(|(k, _)| k.as_str()).collect();
            let typed = token.as_ref().map(|t| t.text.as_str());
            let items = key_docs(document, &cursor)
                .into_iter()
                .filter(|doc| Some(doc.key.as_str()) == typed || !present.contains(&doc.key.as_str()))
                .map(|doc| {
                    let name = Value::String(doc.key.clone()).to_string();
                    CompletionItem {
                        insert: if colon_follows { name } else { format!("{name}: ") },
                        label: doc.key.clone(),
                        kind: CompletionKind::Key,
                        detail: doc.detail.clone(),
                        documentation: doc.markdown(),
                    }
                })
                .collect();
            Completions { replace, items }
        }
        Slot::Value { key, token } => {
            let replace = token.as_ref().map_or(empty_at, |t| t.span);
            let parents = object_schemas(document, &cursor.path, None);
            let mut items: Vec<CompletionItem> = Vec::new();
            for parent in parents {
                let Some(property) = parent.get("properties").and_then(|p| p.get(key)) else {
                    continue;
                };
                for value in allowed_values(document, property) {
                    let insert = value.to_string();
                    if items.iter().any(|item| item.insert == insert) {
                        continue;
                    }
                    items.push(CompletionItem {
                        label: insert.clone(),
                        kind: CompletionKind::Value,
                        insert,
                        detail: title_of(document, parent).unwrap_or_default(),
                        documentation: describe(document, property),
                    });
                }
            }
            Completions { replace, items }
        }
        Slot::Other => Completions {
            replace: empty_at,
            items: Vec::new(),
        },
    }
}

/// What the schema (and, natively, the spec) say about one key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyDoc {
    /// The key's JSON Pointer in the document.
    pub pointer: String,
    pub key: String,
    pub required: bool,
    /// The type and constraints, in one line.
    pub detail: String,
    /// The schema's `description`, when it has one.
    pub description: Option<String>,
    /// What the spec text says, section by section (empty in the wasm build).
    pub spec: Vec<SpecNote>,
}

impl KeyDoc {
    /// The doc as Markdown, for a hover or a completion item.
    pub fn markdown(&self) -> String {
        let mut text = format!("`{}`: {}", self.pointer, self.detail);
        if self.required {
            text.push_str(", required");
        }
        if let Some(description) = &self.description {
            text.push_str("\n\n");
            text.push_str(description);
        }
        for note in &self.spec {
            text.push_str(&format!("\n\n**Agent Plugins {}**: {}", note.section, note.text));
        }
        text
    }
}

/// The doc of the key under the cursor at `offset`, and the key's span.
pub fn key_doc_at(document: JsonDocument, text: &str, offset: usize) -> Option<(Span, KeyDoc)> {
    let cursor = cursor_at(text, offset);
    let Slot::Key { token: Some(token) } = &cursor.slot else {
        return None;
    };
    key_docs(document, &cursor)
        .into_iter()
        .find(|doc| doc.key == token.text)
        .map(|doc| (token.span, doc))
}

/// The doc of every key the object at the cursor may hold, in schema order.
fn key_docs(document: JsonDocument, cursor: &Cursor) -> Vec<KeyDoc> {
    let declared_type = cursor
        .siblings
        .iter()
        .find(|(key, _)| key == "type")
        .and_then(|(_, value)| value.as_deref());
    let mut docs: Vec<KeyDoc> = Vec::new();
    for parent in object_schemas(document, &cursor.path, declared_type) {
        let Some(properties) = parent.get("properties").and_then(Value::as_object) else {
            continue;
        };
        let required: Vec<&str> = parent
            .get("required")
            .and_then(Value::as_array)
            .map(|keys| keys.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        for (key, property) in properties {
            if docs.iter().any(|doc| &doc.key == key) {
                continue;
            }
            let mut pointer = String::new();
            for segment in cursor.path.iter().chain([key]) {
                pointer.push('/');
                pointer.push_str(&segment.replace('~', "~0").replace('/', "~1"));
            }
            docs.push(KeyDoc {
                pointer,
                key: key.clone(),
                required: required.contains(&key.as_str()),
                detail: type_summary(document, property),
                description: property.get("description").and_then(Value::as_str).map(str::to_string),
                spec: place_of(document, &cursor.path)
                    .map(|place| spec_notes(place, key))
                    .unwrap_or_default(),
            });
        }
    }
    docs
}

/// The object schemas the object at `path` may match: `$ref`s followed and
/// `oneOf` variants spread out. With a `declared_type`, only the variants
/// whose `type` allows it (when any does), as a client picks the variant.
fn object_schemas(document: JsonDocument, path: &[String], declared_type: Option<&str>) -> Vec<&'static Value> {
    let root = document.schema();
    let mut current = variants(root, root);
    for segment in path {
        let mut next = Vec::new();
        for schema in current {
            let child = schema
                .get("properties")
                .and_then(|p| p.get(segment))
                .or_else(|| schema.get("additionalProperties").filter(|a| a.is_object()));
            if let Some(child) = child {
                next.extend(variants(root, child));
            }
        }
        current = next;
    }
    if let Some(declared) = declared_type {
        let matching: Vec<&Value> = current
            .iter()
            .copied()
            .filter(|schema| schema.pointer("/properties/type/const").and_then(Value::as_str) == Some(declared))
            .collect();
        if !matching.is_empty() {
            return matching;
        }
    }
    current
}

/// `schema` with its `$ref` followed and its `oneOf`/`anyOf` alternatives listed.
fn variants(root: &'static Value, schema: &'static Value) -> Vec<&'static Value> {
    let schema = resolve(root, schema);
    match schema
        .get("oneOf")
        .or_else(|| schema.get("anyOf"))
        .and_then(Value::as_array)
    {
        Some(alternatives) => alternatives.iter().flat_map(|alt| variants(root, alt)).collect(),
        None => vec![schema],
    }
}

/// Follows a local `$ref` (`#/$defs/...`), the only kind the official schemas use.
fn resolve(root: &'static Value, schema: &'static Value) -> &'static Value {
    match schema
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(|r| r.strip_prefix('#'))
    {
        Some(pointer) => root.pointer(pointer).map_or(schema, |target| resolve(root, target)),
        None => schema,
    }
}

/// The values a property allows outright: its `const`, its `enum`, or booleans.
fn allowed_values(document: JsonDocument, property: &'static Value) -> Vec<Value> {
    let property = resolve(document.schema(), property);
    if let Some(constant) = property.get("const") {
        return vec![constant.clone()];
    }
    if let Some(values) = property.get("enum").and_then(Value::as_array) {
        return values.clone();
    }
    if property.get("type").and_then(Value::as_str) == Some("boolean") {
        return vec![Value::Bool(true), Value::Bool(false)];
    }
    Vec::new()
}

fn title_of(document: JsonDocument, schema: &'static Value) -> Option<String> {
    resolve(document.schema(), schema)
        .get("title")
        .and_then(Value::as_str)
        .map(str::to_string)
}

/// A property's type and constraints in one line, e.g. `string, 1-64 characters, pattern …`.
fn type_summary(document: JsonDocument, property: &'static Value) -> String {
    let property = resolve(document.schema(), property);
    let mut parts: Vec<String> = Vec::new();
    if let Some(constant) = property.get("const") {
        parts.push(format!("exactly {constant}"));
    } else if let Some(kind) = property.get("type").and_then(Value::as_str) {
        let items = property
            .get("items")
            .and_then(|i| i.get("type"))
            .and_then(Value::as_str);
        let values = property
            .get("additionalProperties")
            .and_then(|a| resolve(document.schema(), a).get("type"))
            .and_then(Value::as_str);
        parts.push(match (kind, items, values) {
            ("array", Some(item), _) => format!("array of {item}s"),
            ("object", _, Some(value)) => format!("object of {value}s"),
            _ => kind.to_string(),
        });
    } else if let Some(title) = property.get("title").and_then(Value::as_str) {
        parts.push(title.to_string());
    }
    match (
        property.get("minLength").and_then(Value::as_u64),
        property.get("maxLength").and_then(Value::as_u64),
    ) {
        (Some(min), Some(max)) => parts.push(format!("{min}-{max} characters")),
        (Some(1), None) => parts.push("not empty".into()),
        (Some(min), None) => parts.push(format!("at least {min} characters")),
        (None, Some(max)) => parts.push(format!("at most {max} characters")),
        (None, None) => {}
    }
    if let Some(pattern) = property.get("pattern").and_then(Value::as_str) {
        parts.push(format!("pattern `{pattern}`"));
    }
    parts.join(", ")
}

/// A property's summary and description as Markdown (for value completions).
fn describe(document: JsonDocument, property: &'static Value) -> String {
    let mut text = type_summary(document, property);
    if let Some(description) = resolve(document.schema(), property)
        .get("description")
        .and_then(Value::as_str)
    {
        text.push_str("\n\n");
        text.push_str(description);
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn complete_at(document: JsonDocument, marked: &str) -> Completions {
        let offset = marked.find('|').unwrap();
        complete(document, &marked.replacen('|', "", 1), offset)
    }

    fn labels(completions: &Completions) -> Vec<&str> {
        completions.items.iter().map(|i| i.label.as_str()).collect()
    }

    #[test]
    fn manifest_keys_are_the_closed_set_minus_the_present_ones() {
        // §5.2: the only permitted top-level fields.
        let completions = complete_at(JsonDocument::Manifest, r#"{"name": "x", |}"#);
        assert_eq!(
            labels(&completions),
            [
                "$schema",
                "version",
                "description",
                "author",
                "homepage",
                "repository",
                "license",
                "keywords",
                "extensions"
            ]
        );
        assert_eq!(completions.items[0].insert, r#""$schema": "#);
        assert!(completions.items[0].detail.starts_with("exactly"));
    }

    #[test]
    fn schema_value_is_the_canonical_identifier() {
        // §5.2: "its value MUST be the canonical identifier".
        let completions = complete_at(JsonDocument::Manifest, r#"{"$schema": |}"#);
        assert_eq!(
            labels(&completions),
            [r#""https://agent-plugins.org/schemas/1.0.0/plugin.schema.json""#]
        );
        let completions = complete_at(JsonDocument::McpConfig, r#"{"$schema": "ht|"}"#);
        assert_eq!(completions.replace, Span::new(12, 16));
        assert!(completions.items[0].insert.contains("mcp.schema.json"));
    }

    #[test]
    fn server_type_values_and_fields_follow_the_declared_transport() {
        // §7.2.1: each server matches exactly one closed variant.
        let types = complete_at(JsonDocument::McpConfig, r#"{"mcpServers": {"a": {"type": |}}}"#);
        assert_eq!(labels(&types), [r#""stdio""#, r#""streamable-http""#, r#""sse""#]);
        let stdio = complete_at(
            JsonDocument::McpConfig,
            r#"{"mcpServers": {"a": {"type": "stdio", |}}}"#,
        );
        assert_eq!(labels(&stdio), ["command", "args", "env", "cwd"]);
        let remote = complete_at(JsonDocument::McpConfig, r#"{"mcpServers": {"a": {|"type": "sse"}}}"#);
        assert_eq!(labels(&remote), ["url", "headers"]);
        let unknown = complete_at(JsonDocument::McpConfig, r#"{"mcpServers": {"a": {|}}}"#);
        assert_eq!(
            labels(&unknown),
            ["type", "command", "args", "env", "cwd", "url", "headers"]
        );
    }

    #[test]
    fn a_key_being_typed_is_replaced_and_keeps_its_colon() {
        let completions = complete_at(JsonDocument::Manifest, r#"{"ver|": "1.0.0"}"#);
        assert_eq!(completions.replace, Span::new(1, 6));
        let version = completions.items.iter().find(|i| i.label == "version").unwrap();
        assert_eq!(version.insert, r#""version""#);
    }

    #[test]
    fn key_doc_names_the_pointer_constraints_and_requirement() {
        let text = r#"{"name": "x", "author": {"email": "a@b"}}"#;
        let (span, doc) = key_doc_at(JsonDocument::Manifest, text, 3).unwrap();
        assert_eq!(span, Span::new(1, 7));
        assert_eq!(doc.pointer, "/name");
        assert!(doc.required);
        assert!(doc.detail.contains("1-64 characters"), "{}", doc.detail);
        let (_, email) = key_doc_at(JsonDocument::Manifest, text, 28).unwrap();
        assert_eq!(email.pointer, "/author/email");
        assert!(!email.required);
        assert!(
            key_doc_at(JsonDocument::Manifest, text, 10).is_none(),
            "a value is not a key"
        );
    }
}
