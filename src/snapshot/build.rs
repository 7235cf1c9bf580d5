//! `apcheck snapshot`: the snapshot a conformant client would hold after
//! loading a package, from the package report alone (servers `not-connected`,
//! no tools), plus the `tools/list` results given per server, which make that
//! server `connected`. Skipped skills are not held by a client, so they are
//! not in the snapshot; invalid server entries are, as `skipped`, with why.

use super::model::{ConnectionStatus, Loaded, PluginIdentity, ServerStatus, SkillMetadata, Snapshot, Tool};
use serde_json::{Map, Value};

use super::tools_list::ToolsList;
use crate::report::{PackageReport, PluginState, ServerState, SkillState};

/// Why no snapshot can be built.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BuildError {
    /// §5.2: the plugin is rejected, so a client holds nothing of it.
    Rejected,
    /// The check could not read these package paths (`PackageReport::unread`),
    /// so what a client holds is unknown: a snapshot would be a guess (a
    /// `skills/` that could not be listed is not "no skills").
    Incomplete { unread: Vec<String> },
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
            BuildError::Incomplete { unread } => write!(
                f,
                "{} could not be read, so what a client holds is unknown and no snapshot is written",
                unread
                    .iter()
                    .map(|path| format!("`{path}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
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
    if report.is_incomplete() {
        return Err(BuildError::Incomplete {
            unread: report.unread.clone(),
        });
    }
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
                transport: report
                    .package
                    .server(&entry.id)
                    .and_then(|server| server.transport)
                    .map(|transport| transport.name().to_string()),
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

/// The namespace of apcheck's own data in a snapshot's `extensions` (§8's
/// reverse-domain form): the `serverInfo` a connected server sent.
pub const APCHECK_EXTENSION: &str = "dev.apcheck";

/// What a client got from trying one server: the edge that connects
/// (`apcheck snapshot --connect`) hands these over as data.
#[derive(Debug, Clone, PartialEq)]
pub enum Connection {
    /// The handshake completed and `tools/list` was read to its last page.
    Connected {
        protocol_version: String,
        /// The handshake's `serverInfo`, as sent.
        server_info: Option<Value>,
        /// Every Tool object, with every member the server sent.
        tools: Vec<Map<String, Value>>,
    },
    /// §7.2.2 rule 5, with the reason.
    Failed { reason: String },
}

/// The snapshot a client holds after trying `connections` (server id → what
/// came of it); servers not tried stay `not-connected`.
pub fn build_connected(report: &PackageReport, connections: &[(String, Connection)]) -> Result<Snapshot, BuildError> {
    let lists: Vec<(String, ToolsList)> = connections
        .iter()
        .filter_map(|(server, connection)| match connection {
            Connection::Connected {
                protocol_version,
                tools,
                ..
            } => Some((
                server.clone(),
                ToolsList {
                    tools: tools.clone(),
                    protocol_version: Some(protocol_version.clone()),
                    incomplete: false,
                },
            )),
            Connection::Failed { .. } => None,
        })
        .collect();
    let mut snapshot = build_snapshot(report, &lists)?;
    for (server, connection) in connections {
        match connection {
            Connection::Failed { reason } => mark_failed(&mut snapshot, server, reason)?,
            Connection::Connected {
                server_info: Some(info),
                ..
            } => {
                if let Some(entry) = snapshot.servers.iter_mut().find(|s| s.id == *server) {
                    let mut ours = Map::new();
                    ours.insert("serverInfo".into(), info.clone());
                    entry
                        .extensions
                        .get_or_insert_with(Map::new)
                        .insert(APCHECK_EXTENSION.into(), Value::Object(ours));
                }
            }
            Connection::Connected { server_info: None, .. } => {}
        }
    }
    Ok(snapshot)
}

#[cfg(test)]
mod connected_tests {
    use super::*;
    use crate::tree::Tree;
    use serde_json::json;

    const MCP_JSON: &str = r#"{"$schema": "https://agent-plugins.org/schemas/1.0.0/mcp.schema.json", "mcpServers": {
        "up": {"type": "stdio", "command": "up"},
        "down": {"type": "streamable-http", "url": "https://down.example.com/mcp"},
        "untried": {"type": "stdio", "command": "x"},
        "bad": {"type": "http", "url": "https://x.example.com"}}}"#;

    #[test]
    fn connections_become_statuses_tools_and_server_info() {
        // §7.2.2 rule 5: a failed server is recorded with its reason and the others go on.
        let tree = Tree::from_files([
            (
                "plugin.json",
                r#"{"$schema": "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json", "name": "demo"}"#,
            ),
            ("mcp.json", MCP_JSON),
        ]);
        let report = crate::check_package("demo", &tree);
        let tool = json!({"name": "echo", "inputSchema": {"type": "object"}, "execution": {"taskSupport": "optional"}, "x-vendor": 1});
        let connections = [
            (
                "up".to_string(),
                Connection::Connected {
                    protocol_version: "2025-11-25".into(),
                    server_info: Some(json!({"name": "up-server", "version": "1.0.0"})),
                    tools: vec![tool.as_object().unwrap().clone()],
                },
            ),
            (
                "down".to_string(),
                Connection::Failed {
                    reason: "cannot connect".into(),
                },
            ),
        ];
        let snapshot = build_connected(&report, &connections).unwrap();
        let status = |id: &str| snapshot.server(id).unwrap();
        assert_eq!(status("up").status, ConnectionStatus::Connected);
        assert_eq!(status("up").protocol_version.as_deref(), Some("2025-11-25"));
        assert_eq!(
            status("up").extensions.as_ref().unwrap()[APCHECK_EXTENSION]["serverInfo"]["name"],
            "up-server"
        );
        assert_eq!(status("down").status, ConnectionStatus::Failed);
        assert_eq!(status("down").reason.as_deref(), Some("cannot connect"));
        assert_eq!(status("untried").status, ConnectionStatus::NotConnected);
        assert_eq!(status("bad").status, ConnectionStatus::Skipped);
        assert_eq!(snapshot.tools[0].fields["x-vendor"], 1);
        assert_eq!(snapshot.tools[0].fields["execution"]["taskSupport"], "optional");
        let lint = crate::snapshot::check_snapshot("s.json", &snapshot.to_pretty_json(), None);
        assert!(
            lint.diagnostics
                .iter()
                .all(|d| d.severity != crate::diag::Severity::Error),
            "{:?}",
            lint.diagnostics
        );
    }
}
