//! The schemas apcheck knows by name, embedded at build time (nothing is ever
//! fetched) and compiled once, on first use.
//!
//! Adding one is one entry in [`BUILTINS`]. Versioned names (`mcp-tool@2025-11-25`)
//! pin a protocol revision; the unversioned name means the newest we embed.

use std::sync::{LazyLock, OnceLock};

use serde_json::Value;

use crate::json::validate::{CompileOptions, CompiledSchema, SchemaError, SchemaFile, compile, compile_definition};
use crate::schemas::{MCP_SCHEMA_ID, PLUGIN_SCHEMA_ID, SNAPSHOT_SCHEMA_ID};

// Only the tool definitions of the MCP schemas are embedded (`build.rs` extracts them).
use crate::schemas::{MCP_2025_11_25_TOOLS as MCP_2025_11_25, MCP_2026_07_28_TOOLS as MCP_2026_07_28};

/// Where a built-in schema comes from.
#[derive(Debug, Clone, Copy)]
pub enum BuiltinSource {
    /// A whole schema document.
    Document(&'static str),
    /// One definition inside a bigger document, e.g. `/$defs/Tool` of the MCP schema.
    Definition {
        document: &'static str,
        pointer: &'static str,
    },
}

/// A schema known by name; entries live only in [`BUILTINS`].
#[derive(Debug)]
#[non_exhaustive]
pub struct Builtin {
    pub name: &'static str,
    /// One line for `apcheck validate --builtin list` and the page's picker.
    pub description: &'static str,
    pub source: BuiltinSource,
}

type Compiled = Result<CompiledSchema, SchemaError>;

/// One compile-once slot per entry of [`BUILTINS`], by position. Kept apart from
/// the table so the table is plain data and an entry is one line.
static COMPILED: LazyLock<Vec<OnceLock<Compiled>>> =
    LazyLock::new(|| BUILTINS.iter().map(|_| OnceLock::new()).collect());

impl Builtin {
    const fn new(name: &'static str, description: &'static str, source: BuiltinSource) -> Self {
        Builtin {
            name,
            description,
            source,
        }
    }

    /// The compiled schema; built on first use, then shared. Formats are not asserted.
    pub fn schema(&self) -> Result<&'static CompiledSchema, &'static SchemaError> {
        // Names are unique (tested), so the name finds this entry's slot.
        let slot = BUILTINS
            .iter()
            .position(|entry| entry.name == self.name)
            .and_then(|index| COMPILED.get(index));
        match slot {
            Some(slot) => slot.get_or_init(|| self.compile(&CompileOptions::default())).as_ref(),
            None => Err(&NOT_REGISTERED),
        }
    }

    /// A fresh compilation with other options (e.g. `formats`).
    pub fn compile(&self, options: &CompileOptions) -> Result<CompiledSchema, SchemaError> {
        let name = format!("<builtin {}>", self.name);
        match self.source {
            BuiltinSource::Document(text) => compile(SchemaFile { name: &name, text }, &[], options),
            BuiltinSource::Definition { document, pointer } => compile_definition(
                SchemaFile {
                    name: &name,
                    text: document,
                },
                pointer,
                options,
            ),
        }
    }

    /// The schema text (the whole document for a definition).
    pub fn text(&self) -> &'static str {
        match self.source {
            BuiltinSource::Document(text) | BuiltinSource::Definition { document: text, .. } => text,
        }
    }
}

/// The error for a `Builtin` made outside [`BUILTINS`] (the constructor is private, so none is).
static NOT_REGISTERED: LazyLock<SchemaError> = LazyLock::new(|| SchemaError {
    file: String::new(),
    kind: crate::json::validate::SchemaErrorKind::Invalid,
    message: "not a registered built-in schema".to_string(),
    at: None,
    issues: Vec::new(),
});

/// Every built-in schema, in the order `--builtin list` shows them.
pub static BUILTINS: &[Builtin] = &[
    Builtin::new(
        "plugin",
        "Agent Plugins 1.0.0 plugin.json (official plugin.schema.json)",
        BuiltinSource::Document(crate::schemas::PLUGIN_SCHEMA),
    ),
    Builtin::new(
        "mcp",
        "Agent Plugins 1.0.0 mcp.json (official mcp.schema.json)",
        BuiltinSource::Document(crate::schemas::MCP_SCHEMA),
    ),
    Builtin::new(
        "snapshot",
        "apcheck capability snapshot, version 1 (urn:apcheck:schema:snapshot:1)",
        BuiltinSource::Document(crate::schemas::SNAPSHOT_SCHEMA),
    ),
    Builtin::new(
        "mcp-tool",
        "one MCP Tool, newest protocol (same as mcp-tool@2026-07-28)",
        BuiltinSource::Definition {
            document: MCP_2026_07_28,
            pointer: "/$defs/Tool",
        },
    ),
    Builtin::new(
        "mcp-tool@2026-07-28",
        "one MCP Tool, protocol 2026-07-28",
        BuiltinSource::Definition {
            document: MCP_2026_07_28,
            pointer: "/$defs/Tool",
        },
    ),
    Builtin::new(
        "mcp-tool@2025-11-25",
        "one MCP Tool, protocol 2025-11-25",
        BuiltinSource::Definition {
            document: MCP_2025_11_25,
            pointer: "/$defs/Tool",
        },
    ),
    Builtin::new(
        "mcp-tools-list",
        "a tools/list result {tools, nextCursor}, newest protocol (same as mcp-tools-list@2026-07-28)",
        BuiltinSource::Definition {
            document: MCP_2026_07_28,
            pointer: "/$defs/ListToolsResult",
        },
    ),
    Builtin::new(
        "mcp-tools-list@2026-07-28",
        "a tools/list result, protocol 2026-07-28",
        BuiltinSource::Definition {
            document: MCP_2026_07_28,
            pointer: "/$defs/ListToolsResult",
        },
    ),
    Builtin::new(
        "mcp-tools-list@2025-11-25",
        "a tools/list result, protocol 2025-11-25",
        BuiltinSource::Definition {
            document: MCP_2025_11_25,
            pointer: "/$defs/ListToolsResult",
        },
    ),
];

/// The built-in schema called `name`.
pub fn builtin(name: &str) -> Option<&'static Builtin> {
    BUILTINS.iter().find(|builtin| builtin.name == name)
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
    use crate::json::validate::validate_text;
    use crate::schemas::{MCP_SCHEMA_ID, PLUGIN_SCHEMA_ID, SNAPSHOT_SCHEMA_ID};

    #[test]
    fn every_builtin_compiles_and_names_are_unique() {
        for entry in BUILTINS {
            assert!(entry.schema().is_ok(), "{}: {:?}", entry.name, entry.schema().err());
            assert_eq!(BUILTINS.iter().filter(|other| other.name == entry.name).count(), 1);
        }
        assert!(builtin("nope").is_none());
    }

    #[test]
    fn mcp_tool_schemas_check_real_tools() {
        let tool = r#"{"name": "echo", "inputSchema": {"type": "object"}}"#;
        let missing_schema = r#"{"name": "echo"}"#;
        for name in ["mcp-tool", "mcp-tool@2025-11-25"] {
            let schema = builtin(name).unwrap().schema().unwrap();
            assert!(validate_text(tool, schema).unwrap().unwrap().is_empty(), "{name}");
            let issues = validate_text(missing_schema, schema).unwrap().unwrap();
            assert!(issues.iter().any(|i| i.keyword == "required"), "{name}: {issues:?}");
        }
    }

    #[test]
    fn plugin_schema_rejects_a_bad_name() {
        let schema = builtin("plugin").unwrap().schema().unwrap();
        let manifest = r#"{"$schema": "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json", "name": "Invoice-Ops", "version": "1.0.0", "description": "x"}"#;
        let issues = validate_text(manifest, schema).unwrap().unwrap();
        assert!(issues.iter().any(|i| i.instance_pointer == "/name"), "{issues:?}");
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
