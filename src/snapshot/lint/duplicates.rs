//! Entries listed twice (AP608).

use std::collections::BTreeSet;

use super::examples::VALID;
use crate::diag::{Diagnostic, Severity};
use crate::rule::{Example, Rule};
use crate::snapshot::model::Snapshot;
use crate::source::json::JsonSource;

pub static DUPLICATE_ENTRY: Rule = Rule {
    code: "AP608",
    name: "snapshot-duplicate-entry",
    severity: Severity::Error,
    spec: "MCP server/tools",
    summary: "Two skills, servers or tools of one server share a name",
    fix_hint: Some("Keep one entry per skill name, per server id and per tool name within a server."),
    doc: rule_doc! {
        what: "Unique skill names, unique server ids (as mcp.json member names are) and tool names unique within a server (MCP: tool names SHOULD be unique within a server).",
        why: "A caller names a tool by its name alone; with two contracts under one name, which one the client keeps is anyone's guess.",
        failing: Example::Snapshot(
            r#"{"plugin": {"name": "invoice-ops", "spec": "1.0.0"}, "skills": [],
  "mcpServers": [{"id": "invoice-tools", "type": "streamable-http", "status": "connected"}],
  "tools": [{"name": "query_invoices", "server": "invoice-tools", "inputSchema": {"type": "object"}},
            {"name": "query_invoices", "server": "invoice-tools", "inputSchema": {"type": "object", "required": ["week"]}}]}"#,
        ),
        fixed: Example::Snapshot(VALID),
    },
};

pub(super) fn check_duplicates(located: &JsonSource<'_>, snapshot: &Snapshot, out: &mut Vec<Diagnostic>) {
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
