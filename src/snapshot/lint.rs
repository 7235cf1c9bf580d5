//! `apcheck check-snapshot`: is this a snapshot a conformant client could hold?
//! The schema gives the shape (AP602); the rules here add what a schema cannot
//! say: skill bodies held in every context, tools from servers that never
//! connected, duplicate contracts, tool names MCP advises against, skill
//! scripts mistaken for tools, and input schemas that are not object schemas.
//!
//! The rules of the document as a whole (AP601, AP602, AP613) are here with
//! the check that reads it; every other rule sits with its check, one file per
//! subject (`skills`, `tools`, `servers`, `duplicates`, `hidden`), which
//! `check_semantics` calls in turn.

use std::borrow::Cow;
use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::Value;

#[cfg(not(target_arch = "wasm32"))]
use jsonschema::json::{Array, Node, Object};
#[cfg(not(target_arch = "wasm32"))]
use serde_json::Map;

use super::model::Snapshot;
#[cfg(not(target_arch = "wasm32"))]
use super::model::Tool;
use super::schema::{SchemaVerdicts, snapshot_schema_errors};
#[cfg(not(target_arch = "wasm32"))]
use super::schema::{is_mcp_tool, is_valid_snapshot};
use crate::diag::{Diagnostic, Severity};
use crate::json::builtin::{DocumentKind, identify};
#[cfg(not(target_arch = "wasm32"))]
use crate::json::lean::{LeanDoc, LeanNode};
use crate::json::{JsonDoc, parse_document};
use crate::rule::{Example, Rule};
use crate::source::json::JsonSource;
use crate::source::{LineIndex, Span};
use crate::tree::Tree;

mod duplicates;
mod examples;
mod hidden;
mod servers;
mod skills;
mod tools;

use duplicates::check_duplicates;
use examples::VALID;
use hidden::check_hidden_text;
use skills::check_skill_bodies;
use tools::output_schema_must_be_object;
pub use tools::{TOOL_SCHEMA_INVALID, is_valid_tool_name};

pub static SNAPSHOT_NOT_JSON: Rule = Rule {
    code: "AP601",
    name: "snapshot-not-json",
    severity: Severity::Error,
    spec: "RFC 8259",
    summary: "The snapshot is not strict JSON",
    fix_hint: Some("Fix the JSON at the position shown, or rebuild the file with `apcheck snapshot`."),
    doc: rule_doc! {
        what: "That the snapshot file parses as strict JSON: no comments, no trailing commas.",
        why: "A snapshot is a CI fixture that other tools read; a file only one lenient parser accepts checks nothing.",
        failing: Example::Snapshot("{\"plugin\": {\"name\": \"invoice-ops\", \"spec\": \"1.0.0\"},}"),
        fixed: Example::Snapshot(VALID),
    },
};

pub static SNAPSHOT_SCHEMA_VIOLATION: Rule = Rule {
    code: "AP602",
    name: "snapshot-schema-violation",
    severity: Severity::Error,
    spec: "apcheck snapshot schema 1",
    summary: "The snapshot does not match the snapshot schema (or is another kind of file)",
    fix_hint: Some(
        "Rebuild it with `apcheck snapshot PLUGIN`, or fix the member shown; `apcheck validate --builtin snapshot` shows the schema.",
    ),
    doc: rule_doc! {
        what: "The snapshot against `urn:apcheck:schema:snapshot:1`: required members, closed objects, status and loaded values. A plugin.json or mcp.json given instead is named as such.",
        why: "Drift, change and argument checks read the snapshot's structure; a snapshot of another shape cannot be compared with anything.",
        failing: Example::Snapshot(
            r#"{"plugin": {"name": "invoice-ops", "spec": "1.0.0"}, "skills": [], "mcpServers": [{"id": "invoice-tools", "type": "streamable-http", "status": "online"}], "tools": []}"#,
        ),
        fixed: Example::Snapshot(
            r#"{"plugin": {"name": "invoice-ops", "spec": "1.0.0"}, "skills": [], "mcpServers": [{"id": "invoice-tools", "type": "streamable-http", "status": "not-connected"}], "tools": []}"#,
        ),
    },
};

pub static DUPLICATE_KEY: Rule = Rule {
    code: "AP613",
    name: "snapshot-duplicate-key",
    severity: Severity::Warning,
    spec: "RFC 8259 §4",
    summary: "An object of the snapshot names one member twice",
    fix_hint: Some("Keep one of the two members; rebuild the snapshot with `apcheck snapshot`."),
    doc: rule_doc! {
        what: "Object members whose name appeared earlier in the same object.",
        why: "RFC 8259 leaves duplicate names undefined: some parsers keep the first value, others the last, so two tools reading one fixture can see two different snapshots.",
        failing: Example::Snapshot(
            r#"{"plugin": {"name": "invoice-ops", "version": "1.2.0", "version": "1.3.0", "spec": "1.0.0"}, "skills": [], "mcpServers": [], "tools": []}"#,
        ),
        fixed: Example::Snapshot(VALID),
    },
};

pub static RULES: &[&Rule] = &[
    &SNAPSHOT_NOT_JSON,
    &SNAPSHOT_SCHEMA_VIOLATION,
    &skills::SKILL_BODY_IN_SNAPSHOT,
    &tools::TOOL_SERVER_UNKNOWN,
    &tools::TOOLS_FROM_UNCONNECTED_SERVER,
    &servers::CONNECTED_SERVER_WITHOUT_TOOLS,
    &skills::NO_SKILLS,
    &duplicates::DUPLICATE_ENTRY,
    &tools::TOOL_NAME_INVALID,
    &skills::TOOL_IS_SKILL_SCRIPT,
    &tools::INPUT_SCHEMA_NOT_OBJECT,
    &tools::TOOL_SCHEMA_INVALID,
    &DUPLICATE_KEY,
    &hidden::HIDDEN_TEXT,
    &tools::TOOL_NOT_MCP_TOOL,
];

/// The outcome of linting one snapshot file.
#[derive(Debug, Clone)]
pub struct SnapshotCheck {
    /// The snapshot, when it is JSON of the schema's shape.
    pub snapshot: Option<Snapshot>,
    /// The parsed text, when it is JSON: `drift` and `changes` place their
    /// findings with it instead of parsing the text again.
    pub document: Option<JsonDoc>,
    pub diagnostics: Vec<Diagnostic>,
}

/// Lints the snapshot `text` (named `file` in diagnostics). With `package`,
/// the tree of the plugin it describes, the checks that need files run too.
pub fn check_snapshot(file: &str, text: &str, package: Option<&Tree>) -> SnapshotCheck {
    let doc = match parse_document(text) {
        Ok(doc) => doc,
        Err(error) => {
            let index = LineIndex::new(text);
            let at = Span::new(error.offset, error.offset);
            let diagnostic = Diagnostic::new(&SNAPSHOT_NOT_JSON, format!("{file} is not JSON: {}", error.message))
                .in_file(file)
                .at_span(text, &index, at);
            return SnapshotCheck {
                snapshot: None,
                document: None,
                diagnostics: vec![diagnostic],
            };
        }
    };
    let located = JsonSource::new(file, text, doc);
    let doc = &located.doc;
    let mut diagnostics = Vec::new();
    let kind = identify(&doc.value);
    if matches!(kind, DocumentKind::PluginManifest | DocumentKind::McpConfig) {
        diagnostics.push(located.at_value(
            &SNAPSHOT_SCHEMA_VIOLATION,
            "",
            format!("{file} is {}, not a capability snapshot", kind.describe()),
        ).with_hint("Check a plugin directory with `apcheck check DIR`; build its snapshot with `apcheck snapshot DIR`."));
        return SnapshotCheck {
            snapshot: None,
            document: Some(located.doc),
            diagnostics,
        };
    }
    for duplicate in &doc.duplicate_keys {
        let message = format!(
            "`{}` is given twice in one object; the later value is used",
            duplicate.pointer
        );
        diagnostics.push(located.at_span(&DUPLICATE_KEY, &duplicate.pointer, duplicate.key_span, message));
    }
    let body_pointers = check_skill_bodies(&located, &mut diagnostics);
    let schema_errors: Vec<_> = snapshot_schema_errors(text, doc)
        .into_iter()
        .filter(|e| {
            !body_pointers
                .iter()
                .any(|p| e.pointer == *p || e.pointer.starts_with(&format!("{p}/")))
        })
        .collect();
    let shape_ok = schema_errors.is_empty() && body_pointers.is_empty();
    for error in schema_errors {
        diagnostics.push(located.at_schema_error(
            &SNAPSHOT_SCHEMA_VIOLATION,
            error.span,
            &error.pointer,
            error.message,
        ));
    }
    let snapshot = if shape_ok {
        // From the borrowed value: a clone of the whole document first would
        // hold a third copy of every tool at the peak.
        match Snapshot::deserialize(&doc.value) {
            Ok(snapshot) => Some(snapshot),
            Err(error) => {
                diagnostics.push(located.at_value(&SNAPSHOT_SCHEMA_VIOLATION, "", error.to_string()));
                None
            }
        }
    } else {
        None
    };
    if let Some(snapshot) = &snapshot {
        let tools = doc
            .value
            .get("tools")
            .and_then(Value::as_array)
            .map_or(&[][..], Vec::as_slice);
        let tool_values = tools.iter().map(|tool| Some(Cow::Borrowed(tool)));
        check_semantics(&located, snapshot, tool_values, package, &mut diagnostics);
    }
    crate::report::sort_diagnostics(&mut diagnostics);
    SnapshotCheck {
        snapshot,
        document: Some(located.doc),
        diagnostics,
    }
}

/// What `apcheck check-snapshot` needs of a lint: whether the file is a
/// snapshot of the schema's shape, and the findings.
#[derive(Debug, Clone)]
pub struct SnapshotLint {
    pub valid: bool,
    pub diagnostics: Vec<Diagnostic>,
}

/// [`check_snapshot`]'s verdict and findings, without the model and the
/// value it keeps: natively, a snapshot of the schema's shape is read with a
/// lean document and its tools are checked one at a time (see
/// [`check_scanned`]), so a 10,000-tool snapshot never has a `Value` of its
/// own size.
pub fn lint_snapshot(file: &str, text: &str, package: Option<&Tree>) -> SnapshotLint {
    #[cfg(not(target_arch = "wasm32"))]
    if let Some(check) = LeanDoc::parse(text).and_then(|lean| check_scanned(file, text, &lean, package)) {
        return SnapshotLint {
            valid: true,
            diagnostics: check.diagnostics,
        };
    }
    let check = check_snapshot(file, text, package);
    SnapshotLint {
        valid: check.snapshot.is_some(),
        diagnostics: check.diagnostics,
    }
}

/// [`check_snapshot`] of a text that `lean` has read, for a snapshot of the
/// schema's shape: the same findings, from a `Value` of the snapshot without
/// its tools and of one tool at a time. The model's tools hold their name and
/// server only (their other members are in `lean`), and the document's value
/// has `"tools": []`. `None` when [`check_snapshot`] must decide: the
/// snapshot has schema violations, or is not one.
#[cfg(not(target_arch = "wasm32"))]
pub(crate) fn check_scanned(
    file: &str,
    text: &str,
    lean: &LeanDoc<'_>,
    package: Option<&Tree>,
) -> Option<SnapshotCheck> {
    let root = lean.root().as_object()?;
    let tools = root.member("tools")?.as_array()?;
    if !is_valid_snapshot(text, lean) {
        return None;
    }
    let without_tools = root
        .members()
        .map(|(key, node)| {
            let value = if key == "tools" {
                Value::Array(Vec::new())
            } else {
                node.to_value().into_owned()
            };
            (key.into_owned(), value)
        })
        .collect();
    let located = JsonSource::new(file, text, JsonDoc::scanned(text, Value::Object(without_tools)));
    if matches!(
        identify(&located.doc.value),
        DocumentKind::PluginManifest | DocumentKind::McpConfig
    ) {
        return None;
    }
    let mut diagnostics = Vec::new();
    if !check_skill_bodies(&located, &mut diagnostics).is_empty() {
        return None;
    }
    let mut snapshot = Snapshot::deserialize(&located.doc.value).ok()?;
    for tool in tools.elements() {
        // What `Tool`'s deserializer requires; the schema leaves no other way to fail.
        let tool = tool.as_object()?;
        let string = |member| tool.member(member)?.as_string().map(Cow::into_owned);
        snapshot.tools.push(Tool {
            name: string("name")?,
            server: string("server")?,
            fields: Map::new(),
        });
    }
    let servers = snapshot.servers_by_id();
    let mut verdicts = SchemaVerdicts::default();
    let tool_values = tools.elements().zip(&snapshot.tools).map(|(node, tool)| {
        let server = servers.get(tool.server.as_str());
        let protocol = server.and_then(|server| server.protocol_version.as_deref());
        (!finds_nothing_in(text, node, protocol, &mut verdicts)).then(|| node.to_value())
    });
    check_semantics(&located, &snapshot, tool_values, package, &mut diagnostics);
    crate::report::sort_diagnostics(&mut diagnostics);
    Some(SnapshotCheck {
        snapshot: Some(snapshot),
        document: Some(located.doc),
        diagnostics,
    })
}

/// Whether the checks that read a tool's value (AP611, AP612, AP614, AP615)
/// would find nothing in `tool`, a tool of `text` from a server of
/// `protocol`, as told without a `Value` of it; `false` when it cannot tell.
/// Most tools of a big snapshot are clean, and making each one's value was
/// most of the time a snapshot's check took.
#[cfg(not(target_arch = "wasm32"))]
fn finds_nothing_in(text: &str, tool: LeanNode<'_>, protocol: Option<&str>, verdicts: &mut SchemaVerdicts) -> bool {
    // AP614 looks for non-ASCII characters only, and a `\u` escape may spell one.
    let raw = tool.text().unwrap_or_default();
    if !raw.is_ascii() || raw.contains("\\u") {
        return false;
    }
    let Some(members) = tool.as_object() else {
        return false;
    };
    for member in ["inputSchema", "outputSchema"] {
        let Some(schema) = members.member(member) else {
            continue;
        };
        let must_be_object = member == "inputSchema" || output_schema_must_be_object(protocol);
        let is_object = schema
            .as_object()
            .and_then(|schema| schema.member("type"))
            .and_then(|kind| kind.as_string())
            .is_some_and(|kind| kind == "object");
        let compiles = schema
            .text()
            .is_some_and(|schema| verdicts.verdict_of_text(schema).is_ok());
        if (must_be_object && !is_object) || !compiles {
            return false;
        }
    }
    is_mcp_tool(text, tool, protocol)
}

/// The checks of a snapshot of the schema's shape. `tool_values` are the
/// values of `snapshot.tools`, in order: what the model keeps of a tool is
/// not needed here, so a tool's value may be made just for its turn. `None`
/// for a tool whose value the checks that read it would find nothing in.
fn check_semantics<'v>(
    located: &JsonSource<'_>,
    snapshot: &Snapshot,
    tool_values: impl Iterator<Item = Option<Cow<'v, Value>>>,
    package: Option<&Tree>,
    out: &mut Vec<Diagnostic>,
) {
    check_duplicates(located, snapshot, out);
    let mut tools_per_server: BTreeMap<&str, usize> = BTreeMap::new();
    let mut verdicts = SchemaVerdicts::default();
    let servers = snapshot.servers_by_id();
    for ((i, tool), value) in snapshot.tools.iter().enumerate().zip(tool_values) {
        let mut pointer = format!("/tools/{i}");
        *tools_per_server.entry(tool.server.as_str()).or_default() += 1;
        let server = servers.get(tool.server.as_str()).copied();
        tools::check_server_of(located, tool, server, &pointer, out);
        tools::check_tool_name(located, tool, &pointer, out);
        let Some(value) = value else { continue };
        check_hidden_text(located, "tool", &mut pointer, &value, out);
        let protocol = server.and_then(|s| s.protocol_version.as_deref());
        for member in ["inputSchema", "outputSchema"] {
            if let Some(schema) = value.get(member) {
                let must_be_object = member == "inputSchema" || output_schema_must_be_object(protocol);
                let at = format!("{pointer}/{member}");
                tools::check_tool_schema(located, &tool.name, schema, &at, must_be_object, &mut verdicts, out);
            }
        }
        tools::check_tool_members(located, &tool.name, &value, &pointer, protocol, out);
    }
    let skills = located.doc.value.get("skills").and_then(Value::as_array);
    for (i, skill) in skills.map_or(&[][..], Vec::as_slice).iter().enumerate() {
        check_hidden_text(located, "skill", &mut format!("/skills/{i}"), skill, out);
    }
    servers::check_servers_without_tools(located, snapshot, &tools_per_server, out);
    skills::check_no_skills(located, snapshot, package, out);
    if let Some(tree) = package {
        skills::check_script_tools(located, snapshot, tree, out);
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::examples::VALID;
    use super::*;

    fn codes(text: &str) -> Vec<&'static str> {
        check_snapshot("s.json", text, None)
            .diagnostics
            .iter()
            .map(|d| d.code)
            .collect()
    }

    #[test]
    fn a_valid_snapshot_has_no_findings_and_a_model() {
        let check = check_snapshot("s.json", VALID, None);
        assert!(check.diagnostics.is_empty(), "{:#?}", check.diagnostics);
        assert_eq!(check.snapshot.unwrap().tools[0].name, "query_invoices");
    }

    #[test]
    fn integers_of_any_size_are_numbers_like_any_other() {
        // RFC 8259 §6 sets no range; 2^64 once failed as serde's u128.
        for big in [
            "18446744073709551616",
            "-9223372036854775809",
            "340282366920938463463374607431768211456",
        ] {
            let text = VALID.replacen(
                "\"type\": \"object\"",
                &format!("\"type\": \"object\", \"maximum\": {big}"),
                1,
            );
            assert_ne!(text, VALID);
            let check = check_snapshot("s.json", &text, None);
            assert!(check.diagnostics.is_empty(), "{big}: {:#?}", check.diagnostics);
            let tool = &check.snapshot.unwrap().tools[0];
            assert_eq!(tool.input_schema().unwrap()["maximum"].to_string(), big);
        }
    }

    #[test]
    fn a_plugin_json_is_named_as_such() {
        let check = check_snapshot(
            "plugin.json",
            r#"{"$schema": "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json", "name": "x"}"#,
            None,
        );
        assert_eq!(check.diagnostics.len(), 1);
        assert!(check.diagnostics[0].message.contains("plugin.json manifest"));
    }

    #[test]
    fn schema_errors_carry_line_and_column() {
        let text = "{\"plugin\": {\"name\": \"x\", \"spec\": \"1.0.0\"}, \"skills\": [],\n \"mcpServers\": [{\"id\": \"a\", \"type\": \"stdio\", \"status\": \"up\"}], \"tools\": []}";
        let check = check_snapshot("s.json", text, None);
        let d = &check.diagnostics[0];
        assert_eq!(
            (d.code, d.line, d.pointer.as_deref()),
            ("AP602", Some(2), Some("/mcpServers/0/status"))
        );
    }

    /// A missing member is marked at its object's opening brace, not across the
    /// whole object: in an editor a tool-wide underline hides every other
    /// finding inside that tool.
    #[test]
    fn schema_errors_mark_the_opening_brace_of_an_object_lacking_a_member() {
        let marked = |text: &str, code: &str, pointer: &str| {
            let check = check_snapshot("s.json", text, None);
            let d = check
                .diagnostics
                .iter()
                .find(|d| d.code == code && d.pointer.as_deref() == Some(pointer))
                .unwrap_or_else(|| panic!("no {code} at {pointer}: {:#?}", check.diagnostics));
            let span = d.span.expect("a schema violation is placed");
            text[span.start..span.end].to_string()
        };
        let nameless = "{\"plugin\": {\"spec\": \"1.0.0\"}, \"skills\": [], \"mcpServers\": [], \"tools\": []}";
        assert_eq!(marked(nameless, "AP602", "/plugin"), "{");
        let sourceless_icon = "{\"plugin\": {\"name\": \"p\", \"spec\": \"1.0.0\"}, \"skills\": [],
          \"mcpServers\": [{\"id\": \"s\", \"type\": \"stdio\", \"status\": \"connected\"}],
          \"tools\": [{\"name\": \"t\", \"server\": \"s\", \"inputSchema\": {\"type\": \"object\"},
                     \"icons\": [{\"mimeType\": \"image/png\"}]}]}";
        assert_eq!(marked(sourceless_icon, "AP615", "/tools/0/icons/0"), "{");
    }

    /// Agent Plugins §7.1: a body smuggled under an extension namespace is still a body.
    #[test]
    fn skill_text_under_extensions_is_found_once() {
        let text = r#"{"plugin": {"name": "x", "spec": "1.0.0"}, "mcpServers": [], "tools": [],
          "skills": [{"name": "a", "description": "d", "path": "skills/a/SKILL.md", "loaded": "metadata",
                      "extensions": {"com.example": {"cache": "---\nname: a\ndescription: d\n---\nbody"}}}]}"#;
        assert_eq!(codes(text), vec!["AP603"]);
    }

    #[test]
    fn hidden_text_in_tools_and_skills_is_found_once_per_entry() {
        let text = "{\"plugin\": {\"name\": \"p\", \"spec\": \"1.0.0\"},
          \"skills\": [{\"name\": \"a\", \"description\": \"Does a.\u{202E}\", \"path\": \"skills/a/SKILL.md\", \"loaded\": \"metadata\"}],
          \"mcpServers\": [{\"id\": \"s\", \"type\": \"stdio\", \"status\": \"connected\"}],
          \"tools\": [{\"name\": \"t\", \"server\": \"s\", \"description\": \"Plain.\",
                     \"inputSchema\": {\"type\": \"object\", \"properties\": {\"q\u{200B}\": {\"type\": \"string\", \"description\": \"x\u{E0041}\u{E0042}\"}}}},
                    {\"name\": \"u\", \"server\": \"s\", \"inputSchema\": {\"type\": \"object\"}}]}";
        let check = check_snapshot("s.json", text, None);
        let hidden: Vec<_> = check.diagnostics.iter().filter(|d| d.code == "AP614").collect();
        let pointers: Vec<_> = hidden.iter().filter_map(|d| d.pointer.as_deref()).collect();
        assert_eq!(
            pointers,
            ["/skills/0/description", "/tools/0/inputSchema/properties/q\u{200B}"],
            "{hidden:?}"
        );
        assert!(hidden[1].message.contains("tool `t`") && hidden[1].message.contains("(and 1 more string of it)"));
        assert_eq!(hidden[1].line, Some(5), "the member name, not its value");
        assert!(codes(VALID).is_empty());
    }

    #[test]
    fn tool_names_follow_mcp_guidance() {
        assert!(is_valid_tool_name("admin.tools.list"));
        assert!(is_valid_tool_name("DATA_EXPORT_v2"));
        assert!(!is_valid_tool_name(""));
        assert!(!is_valid_tool_name("a,b"));
        assert!(!is_valid_tool_name(&"a".repeat(129)));
    }

    /// Each distinct schema is compiled once; every tool that carries it gets its verdict.
    #[test]
    fn tools_sharing_a_schema_share_its_verdict() {
        let text = r#"{"plugin": {"name": "x", "spec": "1.0.0"}, "skills": [],
          "mcpServers": [{"id": "s", "type": "stdio", "status": "connected"}],
          "tools": [{"name": "a", "server": "s", "inputSchema": {"type": "object", "minimum": "1"}},
                    {"name": "b", "server": "s", "inputSchema": {"type": "object"}},
                    {"name": "c", "server": "s", "inputSchema": {"type": "object", "minimum": "1"}},
                    {"name": "d", "server": "s", "inputSchema": {"type": "object", "minimum": 1}}]}"#;
        let check = check_snapshot("s.json", text, None);
        let pointers: Vec<_> = check
            .diagnostics
            .iter()
            .map(|d| (d.code, d.pointer.as_deref()))
            .collect();
        assert_eq!(
            pointers,
            [
                ("AP612", Some("/tools/0/inputSchema")),
                ("AP612", Some("/tools/2/inputSchema"))
            ]
        );
        assert_eq!(
            check.diagnostics[0].message.replace("`a`", "`c`"),
            check.diagnostics[1].message
        );
    }

    /// MCP servers send draft-07 schemas; they are accepted.
    #[test]
    fn draft_07_input_schemas_are_accepted() {
        let text = r#"{"plugin": {"name": "x", "spec": "1.0.0"}, "skills": [],
          "mcpServers": [{"id": "s", "type": "stdio", "status": "connected"}],
          "tools": [{"name": "echo", "server": "s", "inputSchema": {"$schema": "http://json-schema.org/draft-07/schema#", "type": "object", "properties": {"m": {"type": "string"}}}}]}"#;
        assert!(codes(text).is_empty(), "{:?}", codes(text));
    }

    /// MCP 2026-07-28 lets `outputSchema` be any JSON Schema; 2025-11-25 requires an object schema.
    #[test]
    fn output_schemas_are_judged_by_the_servers_protocol() {
        let snapshot = |protocol: &str| {
            format!(
                r#"{{"plugin": {{"name": "x", "spec": "1.0.0"}}, "skills": [],
                  "mcpServers": [{{"id": "s", "type": "stdio", "status": "connected", "protocolVersion": "{protocol}"}}],
                  "tools": [{{"name": "t", "server": "s", "inputSchema": {{"type": "object"}}, "outputSchema": {{"type": "array"}}}}]}}"#
            )
        };
        assert_eq!(codes(&snapshot("2025-11-25")), vec!["AP611"]);
        assert!(codes(&snapshot("2026-07-28")).is_empty());
    }

    /// `check-snapshot` checks a snapshot of the schema's shape from a lean
    /// document, one tool's value at a time; the findings, their order and
    /// their places are those of the check of the whole value.
    #[test]
    #[cfg(not(target_arch = "wasm32"))]
    fn the_lint_tool_by_tool_finds_what_the_whole_check_finds() {
        let snapshot = |servers: &str, tools: &str| {
            format!(
                r#"{{"plugin": {{"name": "x", "spec": "1.0.0"}}, "skills": [{{"name": "a", "description": "Does a.\u202e",
                  "path": "skills/a/SKILL.md", "loaded": "metadata"}}], "mcpServers": [{servers}],
                  "tools": [{tools}]}}"#
            )
        };
        let servers = r#"{"id": "s", "type": "stdio", "status": "connected", "protocolVersion": "2025-11-25"},
            {"id": "down", "type": "stdio", "status": "failed"}, {"id": "idle", "type": "stdio", "status": "connected"}"#;
        let tools = r#"{"name": "ok", "server": "s", "inputSchema": {"type": "object"}},
            {"name": "bad name!", "server": "s", "inputSchema": {"type": "array"}, "outputSchema": {"type": "string"}},
            {"name": "wide", "server": "s", "inputSchema": {"type": "object", "minimum": "1"}},
            {"name": "wide", "server": "s", "inputSchema": {"type": "object", "minimum": "1"}},
            {"name": "gone", "server": "down", "inputSchema": {"type": "object", "properties": {"q\u200b": {}}}},
            {"name": "lost", "server": "nowhere", "inputSchema": {"type": "object"}, "icons": [{"mimeType": "image/png"}]},
            {"name": "deploy", "server": "s", "inputSchema": {"type": "object"}, "annotations": {"title": 3}}"#;
        let tree = Tree::from_files([("skills/a/scripts/deploy.sh", "")]);
        let texts = [
            VALID.to_string(),
            snapshot(servers, tools),
            snapshot(servers, ""),
            snapshot("", tools),
        ];
        for text in &texts {
            for package in [None, Some(&tree)] {
                let whole = check_snapshot("s.json", text, package);
                let lean = LeanDoc::parse(text).expect("JSON a lean document reads");
                let scanned = check_scanned("s.json", text, &lean, package).expect("a snapshot of the schema's shape");
                assert_eq!(scanned.diagnostics, whole.diagnostics, "{text}");
                let names = |check: &SnapshotCheck| {
                    let tools = &check.snapshot.as_ref().expect("a model").tools;
                    tools.iter().map(Tool::qualified_name).collect::<Vec<_>>()
                };
                assert_eq!(names(&scanned), names(&whole));
                let lint = lint_snapshot("s.json", text, package);
                assert_eq!((lint.valid, lint.diagnostics), (true, whole.diagnostics));
            }
        }
        let codes: BTreeSet<_> = check_snapshot("s.json", &texts[1], Some(&tree))
            .diagnostics
            .iter()
            .map(|d| d.code)
            .collect();
        let expected = [
            "AP604", "AP605", "AP606", "AP608", "AP609", "AP610", "AP611", "AP612", "AP614", "AP615",
        ];
        assert_eq!(codes, expected.into_iter().collect(), "each per-tool check has its say");
    }

    /// What is not a snapshot of the schema's shape, or not JSON a lean
    /// document reads, gets the whole check, as before.
    #[test]
    #[cfg(not(target_arch = "wasm32"))]
    fn the_lint_of_anything_else_is_the_whole_check() {
        for text in [
            "{",
            r#"{"plugin": {"name": "x"}, "skills": [], "mcpServers": [], "tools": []}"#,
            r#"{"plugin": {"name": "x", "spec": "1.0.0"}, "skills": [], "mcpServers": [], "tools": [], "tools": []}"#,
            r#"{"$schema": "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json", "name": "x"}"#,
        ] {
            let whole = check_snapshot("s.json", text, None);
            assert!(LeanDoc::parse(text).is_none_or(|lean| check_scanned("s.json", text, &lean, None).is_none()));
            let lint = lint_snapshot("s.json", text, None);
            assert_eq!(
                (lint.valid, lint.diagnostics),
                (whole.snapshot.is_some(), whole.diagnostics),
                "{text}"
            );
        }
    }

    /// A tool's value is left unmade only when no check that reads it could
    /// find anything in it.
    #[test]
    #[cfg(not(target_arch = "wasm32"))]
    fn only_a_tool_with_nothing_to_find_is_left_unread() {
        let tool = |rest: &str| format!(r#"{{"name": "t", "server": "s", "description": "Plain.\nText."{rest}}}"#);
        let finds_nothing = |tool: &str, protocol| {
            let lean = LeanDoc::parse(tool).expect("a tool");
            finds_nothing_in(tool, lean.root(), protocol, &mut SchemaVerdicts::default())
        };
        let object = r#", "inputSchema": {"type": "object"}"#;
        assert!(finds_nothing(&tool(object), Some("2025-11-25")));
        let output_array = format!(r#"{object}, "outputSchema": {{"type": "array"}}"#);
        assert!(finds_nothing(&tool(&output_array), Some("2026-07-28")));
        for (rest, finding) in [
            (
                format!(r#"{object}, "title": "Caf\u00e9""#),
                "a `\\u` escape, which AP614 reads",
            ),
            (
                format!(r#"{object}, "title": "Café""#),
                "a non-ASCII character, which AP614 reads",
            ),
            (r#", "inputSchema": {"type": "array"}"#.to_string(), "AP611"),
            (output_array, "AP611 before 2026-07-28"),
            (
                r#", "inputSchema": {"type": "object", "minimum": "1"}"#.to_string(),
                "AP612",
            ),
            (format!(r#"{object}, "icons": [{{"mimeType": "image/png"}}]"#), "AP615"),
        ] {
            assert!(!finds_nothing(&tool(&rest), Some("2025-11-25")), "{finding}");
        }
    }

    #[test]
    fn a_nested_skill_md_in_the_package_gets_the_hint() {
        let tree = Tree::from_files([("skills/tools/deploy/SKILL.md", "---\nname: deploy\n---\n")]);
        let text = r#"{"plugin": {"name": "x", "spec": "1.0.0"}, "skills": [],
          "mcpServers": [{"id": "s", "type": "stdio", "status": "not-connected"}], "tools": []}"#;
        let with_tree: Vec<_> = check_snapshot("s.json", text, Some(&tree))
            .diagnostics
            .iter()
            .map(|d| d.code)
            .collect();
        assert_eq!(with_tree, vec!["AP607"]);
        assert!(codes(text).is_empty());
    }
}
