//! `apcheck check-snapshot`: is this a snapshot a conformant client could hold?
//! The schema gives the shape (AP602); the rules here add what a schema cannot
//! say: skill bodies held in every context, tools from servers that never
//! connected, duplicate contracts, tool names MCP advises against, skill
//! scripts mistaken for tools, and input schemas that are not object schemas.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};

use serde::Deserialize;
use serde_json::Value;

#[cfg(not(target_arch = "wasm32"))]
use jsonschema::json::{Array, Node, Object};
#[cfg(not(target_arch = "wasm32"))]
use serde_json::Map;

#[cfg(not(target_arch = "wasm32"))]
use super::model::Tool;
use super::model::{ConnectionStatus, Snapshot};
use super::schema::{SchemaVerdicts, snapshot_schema_errors, tool_errors};
#[cfg(not(target_arch = "wasm32"))]
use super::schema::{is_mcp_tool, is_valid_snapshot};
use crate::diag::Diagnostic;
use crate::json::builtin::{DocumentKind, identify};
#[cfg(not(target_arch = "wasm32"))]
use crate::json::lean::{LeanDoc, LeanNode};
use crate::json::{JsonDoc, parse::push_token, parse_document};
use crate::source::invisible::hidden_strings;
use crate::source::json::JsonSource;
use crate::source::{LineIndex, Span};
use crate::tree::{Entry, Tree};

mod rules;

pub use rules::{
    CONNECTED_SERVER_WITHOUT_TOOLS, DUPLICATE_ENTRY, DUPLICATE_KEY, HIDDEN_TEXT, INPUT_SCHEMA_NOT_OBJECT, NO_SKILLS,
    RULES, SKILL_BODY_IN_SNAPSHOT, SNAPSHOT_NOT_JSON, SNAPSHOT_SCHEMA_VIOLATION, TOOL_IS_SKILL_SCRIPT,
    TOOL_NAME_INVALID, TOOL_NOT_MCP_TOOL, TOOL_SCHEMA_INVALID, TOOL_SERVER_UNKNOWN, TOOLS_FROM_UNCONNECTED_SERVER,
};

/// Members that carry a skill's body when someone puts it into a snapshot.
const BODY_MEMBERS: &[&str] = &["body", "instructions", "content", "markdown", "text", "skillMd", "raw"];

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

/// AP603 on the raw value (before the schema, whose closed objects would only
/// say "unexpected member"). Returns the pointers of the skills it flagged.
fn check_skill_bodies(located: &JsonSource<'_>, diagnostics: &mut Vec<Diagnostic>) -> Vec<String> {
    let mut flagged = Vec::new();
    let Some(skills) = located.doc.value.get("skills").and_then(Value::as_array) else {
        return flagged;
    };
    for (i, skill) in skills.iter().enumerate() {
        let Some(members) = skill.as_object() else { continue };
        let pointer = format!("/skills/{i}");
        let name = members.get("name").and_then(Value::as_str).unwrap_or("?");
        let before = diagnostics.len();
        if let Some(loaded) = members.get("loaded").filter(|l| l.as_str() != Some("metadata")) {
            diagnostics.push(located.at_value(
                &SKILL_BODY_IN_SNAPSHOT,
                &format!("{pointer}/loaded"),
                format!("skill `{name}` is held as `loaded: {loaded}`; a client holds only its metadata"),
            ));
        }
        for (key, value) in members {
            let mut member = pointer.clone();
            push_token(&mut member, key);
            if BODY_MEMBERS.contains(&key.as_str()) {
                diagnostics.push(located.at_key(
                    &SKILL_BODY_IN_SNAPSHOT,
                    &member,
                    format!("skill `{name}` carries its body in `{key}`"),
                ));
            } else if let Some(found) = find_skill_text(value, &mut member) {
                diagnostics.push(located.at_value(
                    &SKILL_BODY_IN_SNAPSHOT,
                    &found,
                    format!("skill `{name}` holds SKILL.md text in `{found}`"),
                ));
            }
        }
        if diagnostics.len() > before {
            flagged.push(pointer);
        }
    }
    flagged
}

/// The pointer of a string under `value` that is SKILL.md text (frontmatter and body).
fn find_skill_text(value: &Value, pointer: &mut String) -> Option<String> {
    match value {
        Value::String(text) => looks_like_skill_md(text).then(|| pointer.clone()),
        Value::Array(items) => items.iter().enumerate().find_map(|(i, item)| {
            let len = pointer.len();
            push_token(pointer, &i.to_string());
            let found = find_skill_text(item, pointer);
            pointer.truncate(len);
            found
        }),
        Value::Object(members) => members.iter().find_map(|(key, item)| {
            let len = pointer.len();
            push_token(pointer, key);
            let found = find_skill_text(item, pointer);
            pointer.truncate(len);
            found
        }),
        _ => None,
    }
}

/// A YAML frontmatter block with a `name:` or `description:` line, as SKILL.md starts.
fn looks_like_skill_md(text: &str) -> bool {
    let Some(rest) = text.trim_start_matches('\u{feff}').strip_prefix("---") else {
        return false;
    };
    let Some(end) = rest.find("\n---") else { return false };
    rest[..end]
        .lines()
        .any(|line| line.starts_with("name:") || line.starts_with("description:"))
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
        let server = servers.get(tool.server.as_str());
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
        if !is_valid_tool_name(&tool.name) {
            out.push(located.at_value(
                &TOOL_NAME_INVALID,
                &format!("{pointer}/name"),
                format!("tool name `{}` is not 1-128 characters of A-Z a-z 0-9 _ - .", tool.name),
            ));
        }
        let Some(value) = value else { continue };
        check_hidden_text(located, "tool", &mut pointer, &value, out);
        let protocol = server.and_then(|s| s.protocol_version.as_deref());
        for member in ["inputSchema", "outputSchema"] {
            if let Some(schema) = value.get(member) {
                let must_be_object = member == "inputSchema" || output_schema_must_be_object(protocol);
                let at = format!("{pointer}/{member}");
                check_tool_schema(located, &tool.name, schema, &at, must_be_object, &mut verdicts, out);
            }
        }
        check_tool_members(located, &tool.name, &value, &pointer, protocol, out);
    }
    let skills = located.doc.value.get("skills").and_then(Value::as_array);
    for (i, skill) in skills.map_or(&[][..], Vec::as_slice).iter().enumerate() {
        check_hidden_text(located, "skill", &mut format!("/skills/{i}"), skill, out);
    }
    for (i, server) in snapshot.servers.iter().enumerate() {
        if server.status == ConnectionStatus::Connected && !tools_per_server.contains_key(server.id.as_str()) {
            out.push(located.at_value(
                &CONNECTED_SERVER_WITHOUT_TOOLS,
                &format!("/mcpServers/{i}"),
                format!("server `{}` is connected and offers no tools", server.id),
            ));
        }
    }
    if snapshot.skills.is_empty() && skills_expected(snapshot, package) {
        out.push(located.at_value(&NO_SKILLS, "/skills", "no skill was discovered"));
    }
    if let Some(tree) = package {
        let scripts = skill_scripts(tree);
        for (i, tool) in snapshot.tools.iter().enumerate() {
            if let Some(path) = scripts.get(tool.name.as_str()) {
                out.push(located.at_value(
                    &TOOL_IS_SKILL_SCRIPT,
                    &format!("/tools/{i}/name"),
                    format!("tool `{}` has the name of the skill script `{path}`", tool.name),
                ));
            }
        }
    }
}

/// AP615: the members of `tool`, at `pointer`, that no other check judges,
/// against the MCP `Tool` definition (its name: AP609; its schemas: AP611, AP612).
fn check_tool_members(
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

/// AP614: the first string or member name of the tool or skill `entry` (a
/// `what`, at `at`, which is as it was after) that hides text.
fn check_hidden_text(located: &JsonSource<'_>, what: &str, at: &mut String, entry: &Value, out: &mut Vec<Diagnostic>) {
    let mut found = Vec::new();
    hidden_strings(entry, at, &mut found);
    let Some((pointer, is_key, hidden)) = found.first() else {
        return;
    };
    let name = entry.get("name").and_then(Value::as_str).unwrap_or("?");
    let more = match found.len() - 1 {
        0 => String::new(),
        1 => " (and 1 more string of it)".to_string(),
        n => format!(" (and {n} more strings of it)"),
    };
    let message = format!(
        "{what} `{name}` holds characters a reviewer cannot read but the model does: {}{more}",
        hidden.describe()
    );
    out.push(if *is_key {
        located.at_key(&HIDDEN_TEXT, pointer, message)
    } else {
        located.at_value(&HIDDEN_TEXT, pointer, message)
    });
}

fn check_duplicates(located: &JsonSource<'_>, snapshot: &Snapshot, out: &mut Vec<Diagnostic>) {
    let mut report = |seen: &mut BTreeSet<String>, key: String, what: String, pointer: String| {
        if !seen.insert(key) {
            out.push(located.at_value(&DUPLICATE_ENTRY, &pointer, what));
        }
    };
    let mut seen = BTreeSet::new();
    for (i, skill) in snapshot.skills.iter().enumerate() {
        let what = format!("skill `{}` is listed twice", skill.name);
        report(&mut seen, skill.name.clone(), what, format!("/skills/{i}/name"));
    }
    let mut seen = BTreeSet::new();
    for (i, server) in snapshot.servers.iter().enumerate() {
        let what = format!("server `{}` is listed twice", server.id);
        report(&mut seen, server.id.clone(), what, format!("/mcpServers/{i}/id"));
    }
    let mut seen = BTreeSet::new();
    for (i, tool) in snapshot.tools.iter().enumerate() {
        let what = format!("server `{}` lists tool `{}` twice", tool.server, tool.name);
        report(&mut seen, tool.qualified_name(), what, format!("/tools/{i}/name"));
    }
}

/// MCP: tool names SHOULD be 1-128 characters of A-Z a-z 0-9 `_` `-` `.`.
pub fn is_valid_tool_name(name: &str) -> bool {
    (1..=128).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'))
}

/// Whether an empty skill list deserves a hint: with the package, when
/// skills/ exists (something was meant to load); without it, when the
/// plugin offers nothing at all.
fn skills_expected(snapshot: &Snapshot, package: Option<&Tree>) -> bool {
    match package {
        Some(tree) => tree.entry("skills").is_some(),
        None => snapshot.servers.is_empty(),
    }
}

/// Files under `skills/*/scripts/`, by file name and by stem, to their path.
fn skill_scripts(tree: &Tree) -> BTreeMap<&str, &str> {
    let mut scripts = BTreeMap::new();
    for (path, entry) in tree.descendants("skills") {
        let parts: Vec<&str> = path.split('/').collect();
        if parts.len() >= 4 && parts[2] == "scripts" && matches!(entry, Entry::File(_) | Entry::Symlink(_)) {
            let file = parts[parts.len() - 1];
            scripts.insert(file, path);
            if let Some((stem, _)) = file.rsplit_once('.').filter(|(stem, _)| !stem.is_empty()) {
                scripts.entry(stem).or_insert(path);
            }
        }
    }
    scripts
}

/// MCP up to 2025-11-25 requires `"type": "object"` on `outputSchema`; from
/// 2026-07-28 it may be any 2020-12 schema. Unknown protocol: not judged.
/// (Protocol versions are dates, so they order as strings.)
fn output_schema_must_be_object(protocol_version: Option<&str>) -> bool {
    protocol_version.is_some_and(|version| version <= "2025-11-25")
}

fn check_tool_schema(
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

#[cfg(test)]
mod tests {
    use super::rules::VALID;
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
