//! Tools in a snapshot: from a listed, connected server (AP604, AP605), named
//! as MCP advises (AP609), with object schemas that compile (AP611, AP612),
//! and of the MCP `Tool` shape otherwise (AP615).

use serde_json::Value;

use super::examples::VALID;
use crate::diag::{Diagnostic, Severity};
use crate::json::parse::push_token;
use crate::rule::{Example, Rule};
use crate::snapshot::model::{ConnectionStatus, ServerStatus, Tool};
use crate::snapshot::schema::{SchemaVerdicts, tool_errors};
use crate::source::json::JsonSource;

pub static TOOL_SERVER_UNKNOWN: Rule = Rule {
    code: "AP604",
    name: "tool-server-unknown",
    severity: Severity::Error,
    spec: "Agent Plugins §7.2.1",
    summary: "A tool names a server the snapshot does not list",
    fix_hint: Some("Set `server` to the id of the mcp.json entry that offers the tool."),
    doc: rule_doc! {
        what: "That every `tools[].server` is the id of an entry of `mcpServers`.",
        why: "Tools come only from servers configured in mcp.json; a tool without its server cannot be called or traced to a package.",
        failing: Example::Snapshot(
            r#"{"plugin": {"name": "invoice-ops", "spec": "1.0.0"}, "skills": [],
  "mcpServers": [{"id": "invoice-tools", "type": "streamable-http", "status": "connected"}],
  "tools": [{"name": "query_invoices", "server": "billing", "inputSchema": {"type": "object"}}]}"#,
        ),
        fixed: Example::Snapshot(VALID),
    },
};

pub static TOOLS_FROM_UNCONNECTED_SERVER: Rule = Rule {
    code: "AP605",
    name: "tools-from-unconnected-server",
    severity: Severity::Error,
    spec: "Agent Plugins §7.2.2",
    summary: "Tools are listed for a server that is not connected",
    fix_hint: Some("Either the server connected (set `status` to `connected`) or it offers no tools: remove them."),
    doc: rule_doc! {
        what: "That tools appear only under servers whose `status` is `connected`.",
        why: "A client learns tools from `tools/list` after the MCP handshake; a failed, skipped or unattempted server has offered nothing, so such tools are stale or invented.",
        failing: Example::Snapshot(
            r#"{"plugin": {"name": "invoice-ops", "spec": "1.0.0"}, "skills": [],
  "mcpServers": [{"id": "invoice-tools", "type": "streamable-http", "status": "failed", "reason": "401 Unauthorized"}],
  "tools": [{"name": "query_invoices", "server": "invoice-tools", "inputSchema": {"type": "object"}}]}"#,
        ),
        fixed: Example::Snapshot(VALID),
    },
};

pub static TOOL_NAME_INVALID: Rule = Rule {
    code: "AP609",
    name: "tool-name-invalid",
    severity: Severity::Warning,
    spec: "MCP server/tools (tool names)",
    summary: "A tool name is not 1-128 characters of A-Z a-z 0-9 _ - .",
    fix_hint: Some("Rename the tool on the server to 1-128 characters of A-Z, a-z, 0-9, `_`, `-` and `.`."),
    doc: rule_doc! {
        what: "Tool names against MCP's naming guidance: 1 to 128 characters, only ASCII letters, digits, underscore, hyphen and dot.",
        why: "Clients and models quote tool names in many places; names with spaces or other characters are renamed, rejected or mangled by some of them.",
        failing: Example::Snapshot(
            r#"{"plugin": {"name": "invoice-ops", "spec": "1.0.0"}, "skills": [],
  "mcpServers": [{"id": "invoice-tools", "type": "streamable-http", "status": "connected"}],
  "tools": [{"name": "query invoices", "server": "invoice-tools", "inputSchema": {"type": "object"}}]}"#,
        ),
        fixed: Example::Snapshot(VALID),
    },
};

pub static INPUT_SCHEMA_NOT_OBJECT: Rule = Rule {
    code: "AP611",
    name: "tool-schema-not-object",
    severity: Severity::Error,
    spec: "MCP server/tools (Tool.inputSchema)",
    summary: "A tool's inputSchema (or pre-2026 outputSchema) is not an object schema",
    fix_hint: Some("Declare `\"type\": \"object\"` at the top of the schema; arguments are always a JSON object."),
    doc: rule_doc! {
        what: "That `inputSchema` is a JSON object whose `type` is `\"object\"`; so is `outputSchema` when the server's `protocolVersion` is 2025-11-25 or older (from 2026-07-28 it may be any JSON Schema).",
        why: "`tools/call` arguments and structured results are JSON objects; MCP requires their schemas to say so, and clients that build forms or validate calls rely on it.",
        failing: Example::Snapshot(
            r#"{"plugin": {"name": "invoice-ops", "spec": "1.0.0"}, "skills": [],
  "mcpServers": [{"id": "invoice-tools", "type": "streamable-http", "status": "connected"}],
  "tools": [{"name": "query_invoices", "server": "invoice-tools", "inputSchema": {"type": "string"}}]}"#,
        ),
        fixed: Example::Snapshot(VALID),
    },
};

pub static TOOL_SCHEMA_INVALID: Rule = Rule {
    code: "AP612",
    name: "tool-schema-invalid",
    severity: Severity::Error,
    spec: "MCP basic (JSON Schema usage)",
    summary: "A tool's schema is not a valid JSON Schema under its dialect",
    fix_hint: Some("Fix the schema for its `$schema` dialect (2020-12 when absent; draft-07 is accepted)."),
    doc: rule_doc! {
        what: "That `inputSchema` and `outputSchema` compile under the dialect their `$schema` names, 2020-12 by default. Draft-07, as many servers send, is accepted; remote `$ref`s are not fetched.",
        why: "A schema that does not compile cannot validate anything: a client either rejects the tool or lets every argument through.",
        failing: Example::Snapshot(
            r#"{"plugin": {"name": "invoice-ops", "spec": "1.0.0"}, "skills": [],
  "mcpServers": [{"id": "invoice-tools", "type": "streamable-http", "status": "connected"}],
  "tools": [{"name": "query_invoices", "server": "invoice-tools", "inputSchema": {"type": "object", "properties": {"week": {"type": "week"}}}}]}"#,
        ),
        fixed: Example::Snapshot(VALID),
    },
};

pub static TOOL_NOT_MCP_TOOL: Rule = Rule {
    code: "AP615",
    name: "tool-not-mcp-tool",
    severity: Severity::Error,
    spec: "MCP server/tools (Tool)",
    summary: "A tool's members do not match the MCP Tool definition of its server's protocol",
    fix_hint: Some(
        "Send each member as the MCP schema defines it (`validate --builtin mcp-tool` shows the definition).",
    ),
    doc: rule_doc! {
        what: "Every member of a tool but its name and schemas (AP609, AP611 and AP612 judge those): `title`, \
               `description`, `annotations` (booleans for the hints), `execution`, `icons` (each with a `src`) \
               and `_meta`, against the `Tool` definition of the server's `protocolVersion` (2025-11-25 or \
               older, or 2026-07-28 and newer when unknown).",
        why: "A client reads `readOnlyHint` or `destructiveHint` to decide whether to ask before a call; a \
              string `\"yes\"` there is not `true`, and a client may drop the tool or ignore the hint.",
        failing: Example::Snapshot(
            r#"{"plugin": {"name": "invoice-ops", "spec": "1.0.0"}, "skills": [],
  "mcpServers": [{"id": "invoice-tools", "type": "streamable-http", "status": "connected"}],
  "tools": [{"name": "query_invoices", "server": "invoice-tools", "inputSchema": {"type": "object"},
             "annotations": {"readOnlyHint": "yes"}}]}"#,
        ),
        fixed: Example::Snapshot(VALID),
    },
};

/// AP604, AP605: the server of `tool`, at `pointer`, is listed and connected.
pub(super) fn check_server_of(
    located: &JsonSource<'_>,
    tool: &Tool,
    server: Option<&ServerStatus>,
    pointer: &str,
    out: &mut Vec<Diagnostic>,
) {
    match server {
        None => out.push(located.at_value(
            &TOOL_SERVER_UNKNOWN,
            &format!("{pointer}/server"),
            format!(
                "tool `{}` names server `{}`, which mcpServers does not list",
                tool.name, tool.server
            ),
        )),
        Some(server) if server.status != ConnectionStatus::Connected => out.push(located.at_value(
            &TOOLS_FROM_UNCONNECTED_SERVER,
            &format!("{pointer}/server"),
            format!(
                "tool `{}` is listed for server `{}`, whose status is `{}`",
                tool.name,
                tool.server,
                server.status.as_str()
            ),
        )),
        Some(_) => {}
    }
}

/// AP609: the name of `tool`, at `pointer`.
pub(super) fn check_tool_name(located: &JsonSource<'_>, tool: &Tool, pointer: &str, out: &mut Vec<Diagnostic>) {
    if !is_valid_tool_name(&tool.name) {
        out.push(located.at_value(
            &TOOL_NAME_INVALID,
            &format!("{pointer}/name"),
            format!("tool name `{}` is not 1-128 characters of A-Z a-z 0-9 _ - .", tool.name),
        ));
    }
}

/// MCP: tool names SHOULD be 1-128 characters of A-Z a-z 0-9 `_` `-` `.`.
pub fn is_valid_tool_name(name: &str) -> bool {
    (1..=128).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'))
}

/// MCP up to 2025-11-25 requires `"type": "object"` on `outputSchema`; from
/// 2026-07-28 it may be any 2020-12 schema. Unknown protocol: not judged.
/// (Protocol versions are dates, so they order as strings.)
pub(super) fn output_schema_must_be_object(protocol_version: Option<&str>) -> bool {
    protocol_version.is_some_and(|version| version <= "2025-11-25")
}

pub(super) fn check_tool_schema(
    located: &JsonSource<'_>,
    tool: &str,
    schema: &Value,
    pointer: &str,
    must_be_object: bool,
    verdicts: &mut SchemaVerdicts,
    out: &mut Vec<Diagnostic>,
) {
    let member = pointer.rsplit('/').next().unwrap_or(pointer);
    if must_be_object && schema.get("type").and_then(Value::as_str) != Some("object") {
        out.push(located.at_value(
            &INPUT_SCHEMA_NOT_OBJECT,
            pointer,
            format!("the {member} of tool `{tool}` does not declare `\"type\": \"object\"`"),
        ));
    }
    if let Err(reason) = verdicts.verdict(schema) {
        out.push(located.at_value(
            &TOOL_SCHEMA_INVALID,
            pointer,
            format!("the {member} of tool `{tool}` is not a valid JSON Schema: {reason}"),
        ));
    }
}

/// AP615: the members of `tool`, at `pointer`, that no other check judges,
/// against the MCP `Tool` definition (its name: AP609; its schemas: AP611, AP612).
pub(super) fn check_tool_members(
    located: &JsonSource<'_>,
    name: &str,
    tool: &Value,
    pointer: &str,
    protocol: Option<&str>,
    out: &mut Vec<Diagnostic>,
) {
    let judged_elsewhere = ["name", "server", "inputSchema", "outputSchema"].map(|member| {
        let mut at = pointer.to_string();
        push_token(&mut at, member);
        at
    });
    for error in tool_errors(&located.text, &located.doc, tool, pointer, protocol) {
        let elsewhere = error.pointer == pointer
            || judged_elsewhere
                .iter()
                .any(|at| error.pointer == *at || error.pointer.starts_with(&format!("{at}/")));
        if !elsewhere {
            let message = format!("tool `{name}`: {} (at {})", error.message, error.pointer);
            out.push(located.at_schema_error(&TOOL_NOT_MCP_TOOL, error.span, &error.pointer, message));
        }
    }
}
