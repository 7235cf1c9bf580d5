//! `apcheck snapshot`: the snapshot a conformant client would hold after
//! loading a package, from the package report alone (servers `not-connected`,
//! no tools), plus the `tools/list` results given per server, which make that
//! server `connected`. Skipped skills are not held by a client, so they are
//! not in the snapshot; invalid server entries are, as `skipped`, with why.

use super::model::{ConnectionStatus, Loaded, PluginIdentity, ServerStatus, SkillMetadata, Snapshot, Tool};
use super::tools_list::ToolsList;
use crate::report::{PackageReport, PluginState, ServerState, SkillState};

/// The transports of Agent Plugins §7.2.1, the values a snapshot's `type` may take.
const TRANSPORTS: &[&str] = &["stdio", "streamable-http", "sse"];

/// Why no snapshot can be built.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BuildError {
    /// §5.2: the plugin is rejected, so a client holds nothing of it.
    Rejected,
    /// Tools were given for a server that is not a valid entry of `mcp.json`.
    UnknownServer { server: String, valid: Vec<String> },
    /// A failure was recorded for a server that is not a valid, unconnected entry.
    CannotFail {
        server: String,
        status: Option<ConnectionStatus>,
    },
}

impl std::fmt::Display for BuildError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BuildError::Rejected => f.write_str("the plugin is rejected, so a client holds no snapshot of it"),
            BuildError::UnknownServer { server, valid } if valid.is_empty() => {
                write!(f, "tools given for server `{server}`, but mcp.json has no valid server")
            }
            BuildError::CannotFail { server, status: None } => {
                write!(f, "server `{server}` is not in mcp.json, so it cannot have failed")
            }
            BuildError::CannotFail {
                server,
                status: Some(status),
            } => write!(
                f,
                "server `{server}` is `{}`; only a valid server without tools can be recorded as failed",
                status.as_str()
            ),
            BuildError::UnknownServer { server, valid } => write!(
                f,
                "tools given for server `{server}`, which is not a valid server of mcp.json (valid: {})",
                valid.join(", ")
            ),
        }
    }
}

/// Builds the snapshot of `report` with `tools` (server id → its `tools/list`).
pub fn build_snapshot(report: &PackageReport, tools: &[(String, ToolsList)]) -> Result<Snapshot, BuildError> {
    if report.plugin.state != PluginState::Loaded {
        return Err(BuildError::Rejected);
    }
    let valid: Vec<String> = report
        .mcp
        .servers
        .iter()
        .filter(|s| s.state == ServerState::Valid)
        .map(|s| s.id.clone())
        .collect();
    if let Some((server, _)) = tools.iter().find(|(server, _)| !valid.contains(server)) {
        return Err(BuildError::UnknownServer {
            server: server.clone(),
            valid,
        });
    }
    let skills = report
        .skills
        .entries
        .iter()
        .filter(|e| e.state == SkillState::Discovered)
        .map(|e| SkillMetadata {
            name: e.name.clone().unwrap_or_else(|| e.dir.clone()),
            description: e.description.clone().unwrap_or_default(),
            path: e.path.clone(),
            loaded: Loaded::Metadata,
            extensions: None,
        })
        .collect();
    let servers = report
        .mcp
        .servers
        .iter()
        .map(|entry| {
            let listed = tools
                .iter()
                .find(|(server, _)| *server == entry.id)
                .map(|(_, list)| list);
            let status = match (entry.state, listed) {
                (ServerState::Invalid, _) => ConnectionStatus::Skipped,
                (ServerState::Valid, Some(_)) => ConnectionStatus::Connected,
                (ServerState::Valid, None) => ConnectionStatus::NotConnected,
            };
            ServerStatus {
                id: entry.id.clone(),
                // An unknown `type` is why an entry is skipped; the snapshot names only real transports.
                transport: entry.transport.clone().filter(|t| TRANSPORTS.contains(&t.as_str())),
                status,
                protocol_version: listed.and_then(|l| l.protocol_version.clone()),
                reason: (entry.state == ServerState::Invalid)
                    .then(|| entry.reason.clone())
                    .flatten(),
                extensions: None,
            }
        })
        .collect();
    let tools = tools
        .iter()
        .flat_map(|(server, list)| {
            list.tools.iter().map(move |members| {
                let mut fields = members.clone();
                // `server` is ours, not an MCP Tool field; a stray one would be written twice.
                fields.remove("server");
                let name = fields
                    .remove("name")
                    .and_then(|n| n.as_str().map(str::to_string))
                    .unwrap_or_default();
                Tool {
                    name,
                    server: server.clone(),
                    fields,
                }
            })
        })
        .collect();
    let mut snapshot = Snapshot {
        schema: None,
        plugin: PluginIdentity {
            name: report.plugin.name.clone().unwrap_or_default(),
            version: report.plugin.version.clone(),
            spec: report.plugin.spec.clone().unwrap_or_default(),
            extensions: None,
        },
        skills,
        servers,
        tools,
        extensions: None,
    };
    snapshot.normalize();
    Ok(snapshot)
}

/// Records that `server` failed to start, connect, authenticate or complete
/// the handshake (§7.2.2 rule 5), with the `reason` a client reported.
pub fn mark_failed(snapshot: &mut Snapshot, server: &str, reason: &str) -> Result<(), BuildError> {
    let entry = snapshot.servers.iter_mut().find(|s| s.id == server);
    match entry {
        Some(entry) if entry.status == ConnectionStatus::NotConnected => {
            entry.status = ConnectionStatus::Failed;
            entry.reason = Some(reason.to_string());
            Ok(())
        }
        other => Err(BuildError::CannotFail {
            server: server.to_string(),
            status: other.map(|entry| entry.status),
        }),
    }
}
