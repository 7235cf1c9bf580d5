//! Schemas embedded at compile time. Clients "MUST NOT retrieve a schema while
//! loading a plugin" (§5.2, §7.2.1), and the page works offline, so every
//! schema apcheck knows is compiled in and selected by its identifier.

/// The canonical `$schema` of an Agent Plugins 1.0.0 `plugin.json` (§5.2).
pub const PLUGIN_SCHEMA_ID: &str = "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json";
/// The canonical `$schema` of an Agent Plugins 1.0.0 `mcp.json` (§7.2.1).
pub const MCP_SCHEMA_ID: &str = "https://agent-plugins.org/schemas/1.0.0/mcp.schema.json";

/// The official `plugin.schema.json` of Agent Plugins 1.0.0
/// (`schemas/agent-plugins/1.0.0/`): the same JSON, whitespace removed by `build.rs`.
pub const PLUGIN_SCHEMA: &str = include_str!(concat!(env!("OUT_DIR"), "/plugin.schema.json"));
/// The official `mcp.schema.json` of Agent Plugins 1.0.0, compacted alike.
pub const MCP_SCHEMA: &str = include_str!(concat!(env!("OUT_DIR"), "/mcp.schema.json"));

/// The Agent Plugins versions this build supports, by manifest `$schema` identifier.
pub const SUPPORTED_SPEC_VERSIONS: &[(&str, &str)] = &[(PLUGIN_SCHEMA_ID, "1.0.0")];

/// The `$id` of snapshot schema version 1. A URN, because apcheck owns no web
/// address; a snapshot may carry it as `$schema` to say what it is.
pub const SNAPSHOT_SCHEMA_ID: &str = "urn:apcheck:schema:snapshot:1";
/// `schemas/apcheck/snapshot-1.schema.json`, compacted alike.
pub const SNAPSHOT_SCHEMA: &str = include_str!(concat!(env!("OUT_DIR"), "/snapshot-1.schema.json"));

/// The `Tool` and `ListToolsResult` definitions of the MCP 2025-11-25 schema and
/// every definition they reference, extracted by `build.rs` from
/// `schemas/mcp/2025-11-25/schema.json` (the whole schema is 170 KB; this is 7, without whitespace).
pub const MCP_2025_11_25_TOOLS: &str = include_str!(concat!(env!("OUT_DIR"), "/mcp-2025-11-25-tools.schema.json"));
/// The same extract of the MCP 2026-07-28 schema.
pub const MCP_2026_07_28_TOOLS: &str = include_str!(concat!(env!("OUT_DIR"), "/mcp-2026-07-28-tools.schema.json"));
