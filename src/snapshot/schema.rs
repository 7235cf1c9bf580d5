//! Our snapshot schema, embedded, and the one place the snapshot checks call
//! the JSON toolkit's validator (`crate::json::validate`).

use serde_json::Value;

use crate::json::JsonDoc;
use crate::json::builtin::builtin;
use crate::json::validate::{self, CompileOptions, SchemaFile};
use crate::schemas::{MCP_SCHEMA_ID, PLUGIN_SCHEMA_ID};

/// The `$id` of snapshot schema version 1. A URN, because apcheck owns no web
/// address; a snapshot may carry it as `$schema` to say what it is.
pub const SNAPSHOT_SCHEMA_ID: &str = "urn:apcheck:schema:snapshot:1";
/// `schemas/apcheck/snapshot-1.schema.json`, verbatim.
pub const SNAPSHOT_SCHEMA: &str = include_str!("../../schemas/apcheck/snapshot-1.schema.json");

/// One schema violation: where in the instance, and what.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaError {
    /// RFC 6901 pointer into the instance.
    pub pointer: String,
    pub message: String,
}

/// A compiled schema: the snapshot schema, or a tool's `inputSchema`/`outputSchema`.
pub struct CompiledSchema(validate::CompiledSchema);

impl CompiledSchema {
    /// Compiles `schema` with its own `$schema` dialect (2020-12 when absent);
    /// the error says why it is unusable (not a schema, a remote `$ref`).
    pub fn compile(schema: &Value) -> Result<Self, String> {
        let text = schema.to_string();
        let file = SchemaFile {
            name: "schema",
            text: &text,
        };
        validate::compile(file, &[], &CompileOptions::default())
            .map(CompiledSchema)
            .map_err(|error| match error.issues.first() {
                Some(issue) => format!("{} (at {})", issue.message, shown_pointer(&issue.instance_pointer)),
                None => error.message,
            })
    }

    /// Every violation of `instance` (parsed from `text`), in the validator's order.
    pub fn errors(&self, text: &str, instance: &JsonDoc) -> Vec<SchemaError> {
        errors_of(&self.0, text, instance)
    }
}

fn shown_pointer(pointer: &str) -> &str {
    if pointer.is_empty() { "the top" } else { pointer }
}

fn errors_of(schema: &validate::CompiledSchema, text: &str, instance: &JsonDoc) -> Vec<SchemaError> {
    validate::validate(text, instance, schema)
        .into_iter()
        .map(|issue| SchemaError {
            pointer: issue.instance_pointer,
            message: issue.message,
        })
        .collect()
}

/// Every violation of the snapshot schema by `instance` (parsed from `text`).
pub fn snapshot_schema_errors(text: &str, instance: &JsonDoc) -> Vec<SchemaError> {
    let schema = builtin("snapshot")
        .and_then(|entry| entry.schema().ok())
        .expect("the embedded snapshot schema is a built-in and compiles");
    errors_of(schema, text, instance)
}

/// What a JSON document looks like it is, so a mix-up gets a message naming
/// the file instead of a wall of schema errors.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DocumentKind {
    Snapshot,
    PluginManifest,
    McpConfig,
    Other,
}

impl DocumentKind {
    /// What the document is, in words for a message.
    pub fn describe(self) -> &'static str {
        match self {
            DocumentKind::Snapshot => "an apcheck capability snapshot",
            DocumentKind::PluginManifest => "an Agent Plugins plugin.json manifest",
            DocumentKind::McpConfig => "an Agent Plugins mcp.json configuration",
            DocumentKind::Other => "a JSON document of unknown kind",
        }
    }
}

/// Identifies a document by its `$schema`, else by its shape.
pub fn identify(value: &Value) -> DocumentKind {
    let Some(object) = value.as_object() else {
        return DocumentKind::Other;
    };
    match object.get("$schema").and_then(Value::as_str) {
        Some(SNAPSHOT_SCHEMA_ID) => return DocumentKind::Snapshot,
        Some(PLUGIN_SCHEMA_ID) => return DocumentKind::PluginManifest,
        Some(MCP_SCHEMA_ID) => return DocumentKind::McpConfig,
        Some(id) if id.ends_with("/plugin.schema.json") => return DocumentKind::PluginManifest,
        Some(id) if id.ends_with("/mcp.schema.json") => return DocumentKind::McpConfig,
        _ => {}
    }
    if object.get("plugin").is_some_and(Value::is_object) {
        DocumentKind::Snapshot
    } else if object.get("mcpServers").is_some_and(Value::is_object) {
        DocumentKind::McpConfig
    } else if object.get("name").is_some_and(Value::is_string) {
        DocumentKind::PluginManifest
    } else {
        DocumentKind::Other
    }
}

impl DocumentKind {
    /// The kind a built-in schema name of `apcheck validate --builtin` expects.
    pub fn of_builtin(name: &str) -> Option<DocumentKind> {
        match name {
            "plugin" => Some(DocumentKind::PluginManifest),
            "mcp" => Some(DocumentKind::McpConfig),
            "snapshot" => Some(DocumentKind::Snapshot),
            _ => None,
        }
    }

    fn builtin_name(self) -> Option<&'static str> {
        match self {
            DocumentKind::PluginManifest => Some("plugin"),
            DocumentKind::McpConfig => Some("mcp"),
            DocumentKind::Snapshot => Some("snapshot"),
            DocumentKind::Other => None,
        }
    }
}

/// When `value` is plainly another kind of file than the built-in schema
/// `builtin` describes, one sentence saying what it is and what to use
/// instead, to print before (or instead of) the schema errors.
pub fn kind_mismatch(builtin: &str, value: &Value) -> Option<String> {
    let expected = DocumentKind::of_builtin(builtin)?;
    let found = identify(value);
    let instead = found.builtin_name().filter(|_| found != expected)?;
    Some(format!(
        "this is {}, not {}; validate it with `--builtin {instead}`",
        found.describe(),
        expected.describe()
    ))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn the_embedded_schema_is_a_2020_12_schema_with_our_id() {
        let schema: Value = serde_json::from_str(SNAPSHOT_SCHEMA).unwrap();
        assert_eq!(schema["$schema"], "https://json-schema.org/draft/2020-12/schema");
        assert_eq!(schema["$id"], SNAPSHOT_SCHEMA_ID);
        let empty = crate::json::parse_document("{}").unwrap();
        assert_eq!(snapshot_schema_errors("{}", &empty).len(), 4);
    }

    #[test]
    fn a_tool_schema_that_is_not_a_schema_says_why() {
        let reason = CompiledSchema::compile(&json!({"type": "week"})).err().unwrap();
        assert!(reason.contains("/type"), "{reason}");
        assert!(CompiledSchema::compile(&json!({"$schema": "http://json-schema.org/draft-07/schema#"})).is_ok());
    }

    #[test]
    fn a_mix_up_of_snapshot_and_packaging_is_named() {
        let manifest = json!({"$schema": PLUGIN_SCHEMA_ID, "name": "invoice-ops"});
        let message = kind_mismatch("snapshot", &manifest).unwrap();
        assert!(
            message.contains("plugin.json manifest") && message.contains("--builtin plugin"),
            "{message}"
        );
        let snapshot = json!({"$schema": SNAPSHOT_SCHEMA_ID, "plugin": {}});
        assert!(
            kind_mismatch("plugin", &snapshot)
                .unwrap()
                .contains("capability snapshot")
        );
        assert_eq!(kind_mismatch("plugin", &manifest), None);
        assert_eq!(kind_mismatch("mcp-tool", &manifest), None);
    }

    #[test]
    fn documents_are_identified_by_schema_then_shape() {
        assert_eq!(
            identify(&json!({"$schema": PLUGIN_SCHEMA_ID})),
            DocumentKind::PluginManifest
        );
        assert_eq!(identify(&json!({"$schema": MCP_SCHEMA_ID})), DocumentKind::McpConfig);
        assert_eq!(identify(&json!({"plugin": {}, "tools": []})), DocumentKind::Snapshot);
        assert_eq!(
            identify(&json!({"name": "x", "version": "1"})),
            DocumentKind::PluginManifest
        );
        assert_eq!(identify(&json!({"mcpServers": {}})), DocumentKind::McpConfig);
        assert_eq!(identify(&json!([1])), DocumentKind::Other);
    }
}
