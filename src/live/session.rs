//! The MCP side of a connection, the same for every transport: the
//! handshake, then `tools/list` to its last page.
//!
//! Handshake: `server/discover` (MCP 2026-07-28) first, falling back to
//! `initialize` at 2025-11-25 when the server is legacy, which is what a
//! dual-era client does (2026-07-28 versioning); a legacy server may answer
//! with an older version, which is accepted and recorded. rmcp does both and
//! `notifications/initialized`.
//!
//! Client capabilities: none. apcheck only lists tools; declaring `roots`,
//! `sampling` or `elicitation` would promise answers it never gives, and
//! servers offer tools by what the client declares (server-everything lists
//! 13 tools to a client without capabilities, 17 with all of them).

use std::collections::HashSet;
use std::time::Duration;

use rmcp::model::{
    ClientCapabilities, ClientConfig, ClientRequest, Implementation, ListToolsRequest, PaginatedRequestParams,
    ProtocolVersion, ServerResult,
};
use rmcp::service::{PeerRequestOptions, RunningService};
use rmcp::transport::IntoTransport;
use rmcp::{ClientLifecycleMode, RoleClient, serve_client_with_lifecycle};
use serde_json::Value;

use super::raw::RawPages;
use crate::rules::live::Listed;

/// The MCP versions a server may answer with: the two apcheck offers and the
/// older ones a legacy server may fall back to.
const KNOWN_VERSIONS: &[&str] = &["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];

/// A server that sends more pages than this is not going to stop.
const MAX_PAGES: usize = 1000;

/// The most tools one server may list, across all its pages. A server that
/// answers every page with thousands of tools and a new cursor would
/// otherwise fill memory until the timeout; no client holds
/// that many tools of one server in a model's context.
pub const MAX_TOOLS: usize = 10_000;

/// The most bytes of tools (as JSON) one server may list, across all its
/// pages: the 16 MiB `check` reads of one file.
pub const MAX_TOOL_BYTES: usize = 16 * 1024 * 1024;

/// How long ending a session may take once its tools are listed. Closing is
/// a courtesy (a streamable-HTTP DELETE, stdin closed): a server that never
/// answers it neither holds up the run nor undoes what it listed.
pub const CLOSE_GRACE: Duration = Duration::from_millis(500);

/// A session whose tools were listed, to [`close`] once the outcome is recorded.
pub type Session = RunningService<RoleClient, ClientConfig>;

/// What apcheck says about itself in the handshake.
pub fn client_info() -> ClientConfig {
    ClientConfig::new(
        ClientCapabilities::default(),
        Implementation::new("apcheck", env!("CARGO_PKG_VERSION")),
    )
    .with_protocol_version(ProtocolVersion::V_2025_11_25)
}

/// Handshake and full tool listing over `transport`; the session stays open
/// for the caller to [`close`] outside the time the server had to answer.
pub async fn list_tools<T, E, A>(transport: T, pages: &RawPages) -> Result<(Listed, Session), String>
where
    T: IntoTransport<RoleClient, E, A>,
    E: std::error::Error + Send + Sync + 'static,
{
    let lifecycle = ClientLifecycleMode::Auto {
        preferred_versions: vec![ProtocolVersion::V_2026_07_28],
        legacy_version: Some(ProtocolVersion::V_2025_11_25),
    };
    let running = serve_client_with_lifecycle(client_info(), transport, lifecycle)
        .await
        .map_err(|e| format!("the MCP handshake failed: {e}"))?;
    match listing(&running, pages).await {
        Ok(listed) => Ok((listed, running)),
        Err(reason) => {
            close(running).await;
            Err(reason)
        }
    }
}

/// Ends `session`, waiting at most [`CLOSE_GRACE`]; the caller then ends the
/// process or connection. Whatever the server does, the outcome stands.
pub async fn close(session: Session) {
    let _ = tokio::time::timeout(CLOSE_GRACE, session.cancel()).await;
}

async fn listing(running: &RunningService<RoleClient, ClientConfig>, pages: &RawPages) -> Result<Listed, String> {
    let peer = running.peer();
    let info = peer.peer_info().ok_or("the server sent no handshake result")?;
    let version = info.protocol_version.to_string();
    if !KNOWN_VERSIONS.contains(&version.as_str()) {
        // MCP lifecycle, version negotiation: a client that does not support
        // the version the server answers with SHOULD disconnect.
        return Err(format!(
            "the server answered with protocol version {version:?}, which is not an MCP version this client supports ({}); a client disconnects",
            KNOWN_VERSIONS.join(", ")
        ));
    }
    let mut tools = Vec::new();
    let mut tool_bytes = 0;
    let mut cursor: Option<String> = None;
    let mut cursors_seen = HashSet::new();
    for number in 1..=MAX_PAGES {
        let params = PaginatedRequestParams::default().with_cursor(cursor.clone());
        let request = ClientRequest::ListToolsRequest(ListToolsRequest::with_param(params));
        let handle = peer
            .send_request_with_option(request, PeerRequestOptions::no_options())
            .await
            .map_err(|e| format!("tools/list could not be sent: {e}"))?;
        let id = handle.id.clone();
        let accepted = match handle.await_response().await {
            Ok(ServerResult::ListToolsResult(accepted)) => accepted,
            Ok(_) => return Err("tools/list was answered with something that is not a tool list".into()),
            Err(e) => return Err(format!("tools/list failed: {e}")),
        };
        let page = pages
            .take(&id, &accepted)
            .ok_or("the tools/list answer the client accepted was not seen on the wire as sent")?;
        let listed = page
            .get("tools")
            .and_then(Value::as_array)
            .map_or(&[][..], Vec::as_slice);
        if tools.len() + listed.len() > MAX_TOOLS {
            return Err(format!(
                "tools/list passed {MAX_TOOLS} tools (page {number} brings the total to {}); a client does not \
                 hold that many tools of one server, so the listing was stopped",
                tools.len() + listed.len()
            ));
        }
        for tool in listed {
            let Some(tool) = tool.as_object() else {
                return Err("tools/list returned a tool that is not an object".into());
            };
            tool_bytes += json_bytes(tool);
            if tool_bytes > MAX_TOOL_BYTES {
                return Err(format!(
                    "tools/list passed {} MiB of tools by page {number}; a client does not hold that much of one \
                     server, so the listing was stopped",
                    MAX_TOOL_BYTES / (1024 * 1024)
                ));
            }
            tools.push(tool.clone());
        }
        match page.get("nextCursor").and_then(Value::as_str) {
            None => {
                return Ok(Listed {
                    protocol_version: info.protocol_version.to_string(),
                    server_info: info.server_info.as_ref().and_then(|i| serde_json::to_value(i).ok()),
                    tools,
                });
            }
            Some(next) if !cursors_seen.insert(next.to_string()) => {
                return Err(format!(
                    "tools/list repeats the cursor {next:?}; the listing would never end"
                ));
            }
            Some(next) => cursor = Some(next.to_string()),
        }
    }
    Err(format!("tools/list did not end within {MAX_PAGES} pages"))
}

/// The length of `value` written as compact JSON, without writing it out.
fn json_bytes(value: &serde_json::Map<String, Value>) -> usize {
    struct Count(usize);
    impl std::io::Write for Count {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0 += bytes.len();
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut count = Count(0);
    serde_json::to_writer(&mut count, value).expect("a JSON value always serializes");
    count.0
}
