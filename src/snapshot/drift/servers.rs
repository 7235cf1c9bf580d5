//! MCP servers: the snapshot's against mcp.json's entries (AP707-AP709).

use super::examples::{DriftRule, PACKAGE, PLUGIN_JSON, SKILL_MD, SNAPSHOT, drift_rule};
use super::report::{Difference, Drift, FixSide};
use crate::diag::Severity;
use crate::json::parse::push_token;
use crate::report::{McpState, PackageReport, ServerState};
use crate::rule::Rule;
use crate::snapshot::model::{ConnectionStatus, Snapshot};

pub static SERVER_SET_DRIFT: Rule = drift_rule(DriftRule {
    code: "AP707",
    name: "drift-server-set",
    spec: "Agent Plugins §7.2.1",
    summary: "The snapshot's servers and mcp.json's servers differ",
    fix_hint: "Rebuild the snapshot with `apcheck snapshot` if mcp.json is right; otherwise fix mcp.json.",
    what: "The ids of `mcpServers` in the snapshot against the server entries of mcp.json.",
    why: "Servers come only from mcp.json (§7.2.1); a server on one side only is untested or imaginary.",
    failing_snapshot: r#"{"plugin": {"name": "invoice-ops", "version": "1.2.0", "spec": "1.0.0"},
  "skills": [{"name": "write-weekly-summary", "description": "Turn invoice query results into the weekly summary.",
              "path": "skills/write-weekly-summary/SKILL.md", "loaded": "metadata"}],
  "mcpServers": [{"id": "billing", "type": "streamable-http", "status": "not-connected"}], "tools": []}"#,
    failing_files: PACKAGE,
});

pub static SERVER_INVALID_IN_PACKAGE: Rule = drift_rule(DriftRule {
    code: "AP708",
    name: "drift-server-invalid",
    spec: "Agent Plugins §7.2.2",
    summary: "The snapshot uses a server that mcp.json makes invalid",
    fix_hint: "Fix the entry in mcp.json (see the package findings): clients skip it.",
    what: "Snapshot servers, other than `skipped` ones, whose mcp.json entry is invalid or whose mcp.json is disabled.",
    why: "§7.2.2: an invalid entry is skipped alone and an invalid mcp.json disables MCP; the snapshot claims a server no client starts.",
    failing_snapshot: SNAPSHOT,
    failing_files: &[
        ("plugin.json", PLUGIN_JSON),
        (
            "mcp.json",
            r#"{"$schema": "https://agent-plugins.org/schemas/1.0.0/mcp.schema.json", "mcpServers": {"invoice-tools": {"url": "https://billing.example.com/mcp"}}}"#,
        ),
        ("skills/write-weekly-summary/SKILL.md", SKILL_MD),
    ],
});

pub static SERVER_TYPE_DRIFT: Rule = drift_rule(DriftRule {
    code: "AP709",
    name: "drift-server-type",
    spec: "Agent Plugins §7.2.1",
    summary: "A server's transport differs between snapshot and mcp.json",
    fix_hint: "Rebuild the snapshot with `apcheck snapshot` if mcp.json is right.",
    what: "Each snapshot server's `type` against its mcp.json entry.",
    why: "A client uses the declared transport for its first connection (§7.2.1); a fixture with another transport tests another connection.",
    failing_snapshot: r#"{"plugin": {"name": "invoice-ops", "version": "1.2.0", "spec": "1.0.0"},
  "skills": [{"name": "write-weekly-summary", "description": "Turn invoice query results into the weekly summary.",
              "path": "skills/write-weekly-summary/SKILL.md", "loaded": "metadata"}],
  "mcpServers": [{"id": "invoice-tools", "type": "sse", "status": "not-connected"}], "tools": []}"#,
    failing_files: PACKAGE,
});

impl Drift<'_, '_> {
    pub(super) fn servers(&mut self, snapshot: &Snapshot, package: &PackageReport) {
        let disabled = package.mcp.state == McpState::Disabled;
        for (i, server) in snapshot.servers.iter().enumerate() {
            let pointer = format!("/mcpServers/{i}");
            let entry = package.mcp.servers.iter().find(|e| e.id == server.id);
            if disabled && server.status != ConnectionStatus::Skipped {
                self.row(Difference {
                    rule: &SERVER_INVALID_IN_PACKAGE,
                    subject: format!("server {}", server.id),
                    snapshot: Some(server.status.as_str().into()),
                    package: Some("mcp.json disabled".into()),
                    fix: FixSide::Package,
                    message: format!(
                        "server `{}` is in the snapshot but mcp.json is invalid, so MCP is disabled",
                        server.id
                    ),
                    pointer: &pointer,
                });
                self.explain(package, |d| {
                    d.file.as_deref() == Some("mcp.json") && d.severity == Severity::Error
                });
                continue;
            }
            match entry {
                None => self.row(Difference {
                    rule: &SERVER_SET_DRIFT,
                    subject: format!("server {}", server.id),
                    snapshot: Some(server.status.as_str().into()),
                    package: None,
                    fix: FixSide::Snapshot,
                    message: format!("server `{}` is in the snapshot but not in mcp.json", server.id),
                    pointer: &format!("{pointer}/id"),
                }),
                Some(entry) if entry.state == ServerState::Invalid && server.status != ConnectionStatus::Skipped => {
                    let reason = entry.reason.clone().unwrap_or_else(|| "invalid entry".into());
                    self.row(Difference {
                        rule: &SERVER_INVALID_IN_PACKAGE,
                        subject: format!("server {}", server.id),
                        snapshot: Some(server.status.as_str().into()),
                        package: Some(format!("invalid: {reason}")),
                        fix: FixSide::Package,
                        message: format!(
                            "server `{}` is {} in the snapshot but its mcp.json entry is invalid: {reason}",
                            server.id,
                            server.status.as_str()
                        ),
                        pointer: &format!("{pointer}/status"),
                    });
                    let mut entry_pointer = "/mcpServers".to_string();
                    push_token(&mut entry_pointer, &server.id);
                    self.explain(package, |d| {
                        d.file.as_deref() == Some("mcp.json")
                            && d.severity == Severity::Error
                            && d.pointer
                                .as_deref()
                                .is_some_and(|p| p == entry_pointer || p.starts_with(&format!("{entry_pointer}/")))
                    });
                }
                Some(entry) if entry.transport != server.transport && entry.state == ServerState::Valid => {
                    self.row(Difference {
                        rule: &SERVER_TYPE_DRIFT,
                        subject: format!("server {} type", server.id),
                        snapshot: server.transport.clone(),
                        package: entry.transport.clone(),
                        fix: FixSide::Snapshot,
                        message: format!(
                            "server `{}` is {} in the snapshot and {} in mcp.json",
                            server.id,
                            server.transport.as_deref().unwrap_or("(no type)"),
                            entry.transport.as_deref().unwrap_or("(no type)")
                        ),
                        pointer: &format!("{pointer}/type"),
                    })
                }
                Some(_) => {}
            }
        }
        for entry in &package.mcp.servers {
            if snapshot.server(&entry.id).is_none() {
                self.row(Difference {
                    rule: &SERVER_SET_DRIFT,
                    subject: format!("server {}", entry.id),
                    snapshot: None,
                    package: entry.transport.clone(),
                    fix: FixSide::Snapshot,
                    message: format!(
                        "mcp.json declares server `{}` but the snapshot does not list it",
                        entry.id
                    ),
                    pointer: "/mcpServers",
                });
            }
        }
    }
}
