//! Runtime state typed into the packaging files (AP710).

use serde_json::Value;

use super::examples::{DriftRule, MCP_JSON, SKILL_MD, SNAPSHOT, drift_rule};
use super::report::{Drift, DriftRow, FixSide};
use crate::json::{JsonDoc, parse::push_token, parse_document};
use crate::rule::Rule;
use crate::source::json::JsonSource;
use crate::tree::{Tree, path_from_root};

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
    /// Runtime state typed into plugin.json or mcp.json (the classic drift).
    pub(super) fn runtime_state(&mut self, tree: &Tree) {
        for file in ["plugin.json", "mcp.json"] {
            let Some(text) = tree.read(file).and_then(|bytes| std::str::from_utf8(bytes).ok()) else {
                continue;
            };
            let Ok(doc) = parse_document(text) else { continue };
            let shown = path_from_root(self.root, file);
            let located = JsonSource::new(&shown, text, doc);
            let doc = &located.doc;
            let mut places: Vec<String> = vec![String::new()];
            let servers = doc.value.get("mcpServers").and_then(Value::as_object);
            if let Some(servers) = servers.filter(|_| file == "mcp.json") {
                for id in servers.keys() {
                    let mut pointer = "/mcpServers".to_string();
                    push_token(&mut pointer, id);
                    places.push(pointer);
                }
            }
            for place in places {
                self.runtime_members(&located, doc, file, &place);
            }
        }
    }

    fn runtime_members(&mut self, located: &JsonSource<'_>, doc: &JsonDoc, file: &str, place: &str) {
        let Some(members) = doc.value.pointer(place).and_then(Value::as_object) else {
            return;
        };
        for key in members.keys().filter(|k| RUNTIME_MEMBERS.contains(&k.as_str())) {
            let mut pointer = place.to_string();
            push_token(&mut pointer, key);
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
            self.report
                .diagnostics
                .push(located.at_key(&RUNTIME_STATE_IN_PACKAGING, &pointer, message));
        }
    }
}
