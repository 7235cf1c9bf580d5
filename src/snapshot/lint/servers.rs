//! Servers in a snapshot: a connected one offers tools (AP606).

use std::collections::BTreeMap;

use super::examples::VALID;
use crate::diag::{Diagnostic, Severity};
use crate::rule::{Example, Rule};
use crate::snapshot::model::{ConnectionStatus, Snapshot};
use crate::source::json::JsonSource;

pub static CONNECTED_SERVER_WITHOUT_TOOLS: Rule = Rule {
    code: "AP606",
    name: "connected-server-without-tools",
    severity: Severity::Info,
    spec: "MCP server/tools",
    summary: "A connected server offers no tools",
    fix_hint: Some("The handshake worked and the server offers nothing: look at the server, not the manifest."),
    doc: rule_doc! {
        what: "Servers whose `status` is `connected` but that have no entry in `tools`.",
        why: "An empty `tools/list` is legal, but in a plugin it usually means the server started without its configuration or credentials, which no packaging change fixes.",
        failing: Example::Snapshot(CONNECTED_WITHOUT_TOOLS),
        fixed: Example::Snapshot(VALID),
    },
};

/// AP606's failing example. Outside the `rule_doc!` call, where rustfmt would
/// indent its second line as code.
const CONNECTED_WITHOUT_TOOLS: &str = r#"{"plugin": {"name": "invoice-ops", "spec": "1.0.0"}, "skills": [],
  "mcpServers": [{"id": "invoice-tools", "type": "streamable-http", "status": "connected"}], "tools": []}"#;

/// AP606: connected servers that no tool of the snapshot comes from.
pub(super) fn check_servers_without_tools(
    located: &JsonSource<'_>,
    snapshot: &Snapshot,
    tools_per_server: &BTreeMap<&str, usize>,
    out: &mut Vec<Diagnostic>,
) {
    for (i, server) in snapshot.servers.iter().enumerate() {
        if server.status == ConnectionStatus::Connected && !tools_per_server.contains_key(server.id.as_str()) {
            out.push(located.at_value(
                &CONNECTED_SERVER_WITHOUT_TOOLS,
                &format!("/mcpServers/{i}"),
                format!("server `{}` is connected and offers no tools", server.id),
            ));
        }
    }
}
