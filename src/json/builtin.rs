//! The schemas apcheck knows by name, embedded at build time (nothing is ever
//! fetched) and compiled once, on first use.
//!
//! Adding one is one entry in [`BUILTINS`]. Versioned names (`mcp-tool@2025-11-25`)
//! pin a protocol revision; the unversioned name means the newest we embed.

use std::sync::{LazyLock, OnceLock};

use crate::json::validate::{CompileOptions, CompiledSchema, SchemaError, SchemaFile, compile, compile_definition};

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
    line: 0,
    column: 0,
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
        BuiltinSource::Document(crate::snapshot::schema::SNAPSHOT_SCHEMA),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::validate::validate_text;

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
            assert!(validate_text(tool, schema).unwrap().is_empty(), "{name}");
            let issues = validate_text(missing_schema, schema).unwrap();
            assert!(issues.iter().any(|i| i.keyword == "required"), "{name}: {issues:?}");
        }
    }

    #[test]
    fn plugin_schema_rejects_a_bad_name() {
        let schema = builtin("plugin").unwrap().schema().unwrap();
        let manifest = r#"{"$schema": "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json", "name": "Invoice-Ops", "version": "1.0.0", "description": "x"}"#;
        let issues = validate_text(manifest, schema).unwrap();
        assert!(issues.iter().any(|i| i.instance_pointer == "/name"), "{issues:?}");
    }
}
