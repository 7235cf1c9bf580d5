//! Runtime state typed into the packaging files (AP710).

use super::examples::{DriftRule, MCP_JSON, SKILL_MD, SNAPSHOT, drift_rule};
use super::report::{Drift, DriftRow, FixSide};
use crate::package::{Member, Package};
use crate::rule::Rule;
use crate::tree::path_from_root;

/// Members only a running client knows; in packaging files they are drift.
const RUNTIME_MEMBERS: &[&str] = &[
    "status",
    "connected",
    "loaded",
    "tools",
    "inputSchema",
    "outputSchema",
    "protocolVersion",
];

pub static RUNTIME_STATE_IN_PACKAGING: Rule = drift_rule(DriftRule {
    code: "AP710",
    name: "runtime-state-in-packaging",
    spec: "Agent Plugins §5.2, §7.2.1",
    summary: "plugin.json or mcp.json holds runtime state (status, tools, schemas)",
    fix_hint: "Remove it from the packaging: clients learn status and tools at runtime; keep them in the snapshot.",
    what: "Members that only a running client knows (`status`, `connected`, `loaded`, `tools`, `inputSchema`, `outputSchema`, `protocolVersion`) at the top of plugin.json or mcp.json or in an mcp.json server entry.",
    why: "The manifest is closed (§5.2) and server entries are closed variants (§7.2.1): such members are ignored at best and invalidate the server at worst, and a tool list typed into the manifest is never what the server offers.",
    failing_snapshot: SNAPSHOT,
    failing_files: &[
        (
            "plugin.json",
            r#"{"$schema": "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json", "name": "invoice-ops", "version": "1.2.0", "tools": [{"name": "query_invoices"}]}"#,
        ),
        ("mcp.json", MCP_JSON),
        ("skills/write-weekly-summary/SKILL.md", SKILL_MD),
    ],
});

impl Drift<'_, '_> {
    /// Runtime state typed into plugin.json or mcp.json (the classic drift),
    /// from the members the check placed.
    pub(super) fn runtime_state(&mut self, package: &Package) {
        let documents = package
            .manifest
            .iter()
            .chain(package.mcp.as_ref().map(|mcp| &mcp.document));
        for document in documents {
            self.runtime_members(&document.file, "", &document.members);
        }
        for server in package.servers() {
            self.runtime_members(&server.location.file, &server.location.pointer, &server.members);
        }
    }

    fn runtime_members(&mut self, file: &str, place: &str, members: &[Member]) {
        for member in members.iter().filter(|m| RUNTIME_MEMBERS.contains(&m.name.as_str())) {
            let key = &member.name;
            let pointer = &member.location.pointer;
            let message = if key == "tools" {
                format!("{file} has a `tools` list typed in: tools come from the server's tools/list at runtime")
            } else {
                format!(
                    "{file} holds runtime state `{key}` at {}",
                    if place.is_empty() { "the top" } else { place }
                )
            };
            self.report.rows.push(DriftRow {
                code: RUNTIME_STATE_IN_PACKAGING.code,
                subject: format!("{file} {pointer}"),
                snapshot: None,
                package: Some(key.clone()),
                fix: FixSide::Package,
            });
            let mut diagnostic = member.location.diagnostic(&RUNTIME_STATE_IN_PACKAGING, message);
            diagnostic.file = Some(path_from_root(self.root, file));
            self.report.diagnostics.push(diagnostic);
        }
    }
}
