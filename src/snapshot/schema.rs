//! The one place the snapshot checks call
//! the JSON toolkit's validator (`crate::json::validate`).

use foldhash::HashMap;
use serde_json::Value;

use crate::json::JsonDoc;
use crate::json::builtin::builtin;
#[cfg(not(target_arch = "wasm32"))]
use crate::json::lean::{LeanDoc, LeanNode};
use crate::json::validate::{self, CompileOptions, SchemaFile, Unchecked};
use crate::source::Span;

/// One schema violation: where in the instance, and what.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaError {
    /// RFC 6901 pointer into the instance.
    pub pointer: String,
    pub message: String,
    /// For a missing required member: its name (`pointer` is the object lacking it).
    pub missing: Option<String>,
    /// Where the validator marks it in the text: an unexpected member's key, a
    /// missing member's opening brace, otherwise the value. `None` when the
    /// document got no verdict; the caller marks `pointer`'s value then.
    pub span: Option<Span>,
}

/// A compiled schema: the snapshot schema, or a tool's `inputSchema`/`outputSchema`.
pub struct CompiledSchema(validate::CompiledSchema);

impl CompiledSchema {
    /// Compiles `schema` with its own `$schema` dialect (2020-12 when absent);
    /// the error says why it is unusable (not a schema, a remote `$ref`).
    pub fn compile(schema: &Value) -> Result<Self, String> {
        Self::compile_text(&schema.to_string())
    }

    fn compile_text(text: &str) -> Result<Self, String> {
        let file = SchemaFile { name: "schema", text };
        validate::compile(file, &[], &CompileOptions::default())
            .map(CompiledSchema)
            .map_err(|error| match error.issues.first() {
                Some(issue) => format!("{} (at {})", issue.message, shown_pointer(&issue.instance_pointer)),
                None => error.message,
            })
    }

    /// Every violation of `instance` (parsed from `text`), in the validator's
    /// order; `Err` when the document gets no verdict.
    pub fn errors(&self, text: &str, instance: &JsonDoc) -> Result<Vec<SchemaError>, Unchecked> {
        errors_of(&self.0, text, instance)
    }
}

/// Whether each tool schema compiles, by its text: a snapshot's tools often
/// share one schema (10,000 tools, a handful of shapes), and compiling one
/// builds its dialect's meta-validator and two validators, so each distinct
/// text is compiled once. The text is the whole key: compiling reads nothing else.
#[derive(Default)]
pub struct SchemaVerdicts {
    seen: HashMap<String, Result<(), String>>,
}

impl SchemaVerdicts {
    /// [`CompiledSchema::compile`]'s verdict on `schema`, without the validator.
    pub fn verdict(&mut self, schema: &Value) -> Result<(), String> {
        self.verdict_of_text(&schema.to_string())
    }

    /// The verdict on the schema written as `text`, JSON without duplicate
    /// keys. Spelled otherwise than `Value`'s text (a pretty snapshot) it is
    /// the same schema, and the same verdict, under one more key.
    pub fn verdict_of_text(&mut self, text: &str) -> Result<(), String> {
        if let Some(verdict) = self.seen.get(text) {
            return verdict.clone();
        }
        let verdict = CompiledSchema::compile_text(text).map(drop);
        self.seen.insert(text.to_string(), verdict.clone());
        verdict
    }
}

fn shown_pointer(pointer: &str) -> &str {
    if pointer.is_empty() { "the top" } else { pointer }
}

fn errors_of(schema: &validate::CompiledSchema, text: &str, instance: &JsonDoc) -> Result<Vec<SchemaError>, Unchecked> {
    validate::validate(text, instance, schema).map(schema_errors)
}

fn schema_errors(issues: Vec<validate::ValidationIssue>) -> Vec<SchemaError> {
    issues
        .into_iter()
        .map(|issue| SchemaError {
            pointer: issue.instance_pointer,
            message: issue.message,
            missing: issue.missing,
            span: Some(issue.span),
        })
        .collect()
}

/// The snapshot checks' built-in schemas report a document that gets no
/// verdict as one error that says so, at the value the check stopped at.
fn or_unchecked(result: Result<Vec<SchemaError>, Unchecked>) -> Vec<SchemaError> {
    result.unwrap_or_else(|unchecked| {
        vec![SchemaError {
            pointer: unchecked.instance_pointer,
            message: unchecked.message,
            missing: None,
            span: None,
        }]
    })
}

/// Every violation of the MCP `Tool` definition by `tool`, the value at
/// `pointer` of `instance` (parsed from `text`), for its server's `protocol`
/// version: the 2025-11-25 definition up to that version, the newest
/// otherwise. Pointers are into the whole instance.
pub fn tool_errors(
    text: &str,
    instance: &JsonDoc,
    tool: &Value,
    pointer: &str,
    protocol: Option<&str>,
) -> Vec<SchemaError> {
    let schema = tool_schema(protocol);
    or_unchecked(validate::validate_value(text, instance, tool, pointer, schema).map(schema_errors))
}

/// Whether `tool`, a value scanned from `text`, has no [`tool_errors`] at
/// all, without a `Value` of it.
#[cfg(not(target_arch = "wasm32"))]
pub fn is_mcp_tool(text: &str, tool: LeanNode<'_>, protocol: Option<&str>) -> bool {
    validate::is_valid_lean(tool, text.len(), tool_schema(protocol))
}

fn tool_schema(protocol: Option<&str>) -> &'static validate::CompiledSchema {
    let name = match protocol {
        Some(version) if version <= "2025-11-25" => "mcp-tool@2025-11-25",
        _ => "mcp-tool@2026-07-28",
    };
    builtin(name)
        .and_then(|entry| entry.schema().ok())
        .expect("the embedded MCP Tool definitions are built-ins and compile")
}

/// Every violation of the snapshot schema by `instance` (parsed from `text`).
pub fn snapshot_schema_errors(text: &str, instance: &JsonDoc) -> Vec<SchemaError> {
    or_unchecked(errors_of(snapshot_schema(), text, instance))
}

/// Whether the snapshot scanned as `document` from `text` has no
/// [`snapshot_schema_errors`], without a `Value` of it.
#[cfg(not(target_arch = "wasm32"))]
pub fn is_valid_snapshot(text: &str, document: &LeanDoc<'_>) -> bool {
    validate::is_valid_lean(document.root(), text.len(), snapshot_schema())
}

fn snapshot_schema() -> &'static validate::CompiledSchema {
    builtin("snapshot")
        .and_then(|entry| entry.schema().ok())
        .expect("the embedded snapshot schema is a built-in and compiles")
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::schemas::{SNAPSHOT_SCHEMA, SNAPSHOT_SCHEMA_ID};

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
}
