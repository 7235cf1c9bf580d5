//! Our snapshot schema, embedded, and the one place that validates a JSON
//! value against a schema (switch to `crate::json::validate` here alone).

use std::sync::OnceLock;

use serde_json::Value;

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

/// A compiled schema; `None` with the reason when the schema itself is unusable
/// (not a schema under its dialect, an unknown `$schema`, a remote `$ref`).
pub struct CompiledSchema(jsonschema::Validator);

impl CompiledSchema {
    /// Compiles `schema` with its own `$schema` dialect (2020-12 when absent).
    pub fn compile(schema: &Value) -> Result<Self, String> {
        jsonschema::validator_for(schema)
            .map(CompiledSchema)
            .map_err(|e| e.to_string())
    }

    /// Every violation of `instance`, in the validator's order.
    pub fn errors(&self, instance: &Value) -> Vec<SchemaError> {
        self.0
            .iter_errors(instance)
            .map(|e| SchemaError {
                pointer: e.instance_path().as_str().to_string(),
                message: e.to_string(),
            })
            .collect()
    }
}

/// The snapshot schema, compiled once.
pub fn snapshot_schema() -> &'static CompiledSchema {
    static COMPILED: OnceLock<CompiledSchema> = OnceLock::new();
    COMPILED.get_or_init(|| {
        let schema: Value = serde_json::from_str(SNAPSHOT_SCHEMA).expect("the embedded snapshot schema is JSON");
        CompiledSchema::compile(&schema).expect("the embedded snapshot schema compiles")
    })
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

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn the_embedded_schema_is_a_2020_12_schema_with_our_id() {
        let schema: Value = serde_json::from_str(SNAPSHOT_SCHEMA).unwrap();
        assert!(jsonschema::meta::is_valid(&schema));
        assert_eq!(schema["$id"], SNAPSHOT_SCHEMA_ID);
        assert!(snapshot_schema().errors(&json!({})).len() >= 4);
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
