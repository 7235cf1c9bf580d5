//! AP45x: what `--connect` found, as findings of the package report, so every
//! output format shows them. The face (`crate::live`) connects and hands back
//! one [`Attempt`] per server; the rules, and the data they read, sit here in
//! the core, below the registry. Their examples are in words: they need a server
//! that starts, or one that does not, and the offline example runner starts
//! nothing. The unit tests below build each from attempts.

use std::time::Duration;

use serde_json::{Map, Value};

use crate::diag::{Diagnostic, Severity};
use crate::package::Package;
use crate::rule::{Example, Rule};
use crate::rules::mcp::MCP_PATH;
use crate::snapshot::build::Connection;

/// What a completed connection established.
#[derive(Debug, Clone, PartialEq)]
pub struct Listed {
    pub protocol_version: String,
    pub server_info: Option<Value>,
    pub tools: Vec<Map<String, Value>>,
}

/// One server tried, and what came of it.
#[derive(Debug, Clone)]
pub struct Attempt {
    pub id: String,
    pub transport: String,
    pub outcome: Result<Listed, String>,
    pub elapsed: Duration,
    /// The tail of a stdio server's stderr, secrets masked (the configured
    /// ones and every credential shape).
    pub stderr: String,
}

impl Attempt {
    /// The attempt as the data the snapshot build takes.
    pub fn connection(&self) -> (String, Connection) {
        let connection = match &self.outcome {
            Ok(listed) => Connection::Connected {
                protocol_version: listed.protocol_version.clone(),
                server_info: listed.server_info.clone(),
                tools: listed.tools.clone(),
            },
            Err(reason) => Connection::Failed { reason: reason.clone() },
        };
        (self.id.clone(), connection)
    }
}

pub static LIVE_SERVER_FAILED: Rule = Rule {
    code: "AP450",
    name: "live-server-failed",
    severity: Severity::Error,
    spec: "Agent Plugins §7.2.2 rule 5",
    summary: "A server did not start, connect, authenticate or finish the MCP handshake and tool listing",
    fix_hint: Some("run the server's command or open its URL by hand, fix what the reason names, and connect again"),
    doc: rule_doc! {
        what: "With `--connect`: each valid server of `mcp.json` is launched (stdio) or contacted \
               (streamable-http, sse) as a conformant client would, handshaken (MCP 2025-11-25 `initialize`, \
               or 2026-07-28 `server/discover`) and asked for every page of `tools/list`, within the timeout \
               (10 s by default). A server for which any step fails is reported with the reason: a command not \
               on the search path, a process that exits, a refused port, an HTTP error, a redirect or SSE \
               endpoint on another origin (refused, so that configured headers stay with their origin, \
               §7.2.1), silence until the timeout. A stdio server's last stderr line is part of the reason. \
               Whatever a server says (stderr, a 401 body, a JSON-RPC error, its serverInfo and tools) is shown \
               with every credential its configuration holds (`env` and header values, a URL's password or \
               secret-named query) masked, and every well-known token shape.",
        why: "§7.2.2 rule 5: a client loads the other servers and components and SHOULD report the failure, \
              so users of the plugin silently lose every tool of that server.",
        failing: Example::Described(
            "mcp.json with \"tools\": {\"type\": \"stdio\", \"command\": \"tools-server\"} on a machine where \
             no `tools-server` is on the PATH: `apcheck check . --connect` reports that the command was not found",
        ),
        fixed: Example::Described(
            "the same server with \"command\": \"./bin/tools-server\", an executable shipped in the package \
             (§7.2.1: a bundled executable uses a plugin-relative command): it starts and lists its tools",
        ),
    },
};

pub static LIVE_SERVER_CONNECTED: Rule = Rule {
    code: "AP451",
    name: "live-server-connected",
    severity: Severity::Info,
    spec: "Agent Plugins §7.2.2; MCP 2025-11-25 lifecycle",
    summary: "A server connected: its protocol version, tool count and time to list them",
    fix_hint: None,
    doc: rule_doc! {
        what: "With `--connect`: a server that completed the handshake and listed its tools, with the \
               protocol version it negotiated, the number of tools and how long start, handshake and listing \
               took.",
        why: "It shows in one run that the server starts at all, and what a client gets from it (§7.2.2): \
              an older negotiated protocol version or a slow start is visible before users meet it.",
        failing: Example::Described(
            "a stdio server that answers `initialize` with protocolVersion 2025-06-18 and lists 3 tools in 180 ms",
        ),
        fixed: Example::Described(
            "the same plugin checked without `--connect`: nothing is launched, so nothing is said",
        ),
    },
};

pub static LIVE_TOOL_HIDDEN_TEXT: Rule = Rule {
    code: "AP452",
    name: "live-tool-hidden-text",
    severity: Severity::Warning,
    spec: "MCP server/tools (tool descriptions); Unicode UAX #9",
    summary: "A connected server lists a tool whose text holds characters that show as nothing or reorder text",
    fix_hint: Some(
        "remove them from the server's tool definitions: what the model reads should be what a reviewer reads",
    ),
    doc: rule_doc! {
        what: "With `--connect`: every string and member name of each tool a server lists (name, title, \
               description, the descriptions inside `inputSchema`), as AP614 reads a snapshot's tools: Unicode \
               tag characters, zero width spaces, word joiners, a byte order mark, bidi embeddings, overrides \
               and isolates. One finding per tool, at the server's entry; tag characters are spelled out.",
        why: "A client hands the listed tools to the model as they are. These characters render as nothing or \
              reorder what is around them, so a reviewer reading the server's tools reads other text than the \
              model: this is how tool poisoning hides its instructions.",
        failing: Example::Described(
            "a stdio server whose `search` tool's description ends in Unicode tag characters spelling \
             \"ignore previous instructions\"",
        ),
        fixed: Example::Described("the same server with the tag characters removed from the description"),
    },
};

pub static LIVE_TOOL_DUPLICATE_NAME: Rule = Rule {
    code: "AP453",
    name: "live-tool-duplicate-name",
    severity: Severity::Error,
    spec: "MCP server/tools (tool names)",
    summary: "A connected server lists two tools with one name",
    fix_hint: Some("give each tool of the server its own name"),
    doc: rule_doc! {
        what: "With `--connect`: the names of the tools each connected server lists, over all its pages. One \
               finding per repeated name, at the server's entry; the snapshot of the same listing fails AP608.",
        why: "`tools/call` names the tool to run, so of two tools with one name a client can call only one, \
              and which one it keeps is up to the client: tool names SHOULD be unique within a server.",
        failing: Example::Described("a stdio server whose tools/list returns two tools named `search`"),
        fixed: Example::Described("the same server with the second tool renamed `search_archive`"),
    },
};

pub static RULES: &[&Rule] = &[
    &LIVE_SERVER_FAILED,
    &LIVE_SERVER_CONNECTED,
    &LIVE_TOOL_HIDDEN_TEXT,
    &LIVE_TOOL_DUPLICATE_NAME,
];

/// AP453: each name a server lists more than once, once.
fn duplicate_tool_names(attempt: &Attempt, place: &dyn Fn(&Rule, String) -> Diagnostic) -> Vec<Diagnostic> {
    let Ok(listed) = &attempt.outcome else {
        return Vec::new();
    };
    let mut seen = std::collections::BTreeSet::new();
    let mut repeated = std::collections::BTreeSet::new();
    for name in listed
        .tools
        .iter()
        .filter_map(|tool| tool.get("name").and_then(Value::as_str))
    {
        if !seen.insert(name) {
            repeated.insert(name);
        }
    }
    repeated
        .into_iter()
        .map(|name| {
            let count = listed
                .tools
                .iter()
                .filter(|tool| tool.get("name").and_then(Value::as_str) == Some(name))
                .count();
            place(
                &LIVE_TOOL_DUPLICATE_NAME,
                format!(
                    "server `{}` lists {count} tools named `{name}`; a client can call only one of them",
                    attempt.id
                ),
            )
        })
        .collect()
}

/// AP452: per listed tool, the first string that hides text, at the server's entry.
fn hidden_tool_text(attempt: &Attempt, place: &dyn Fn(&Rule, String) -> Diagnostic) -> Vec<Diagnostic> {
    let Ok(listed) = &attempt.outcome else {
        return Vec::new();
    };
    let mut found_per_tool = Vec::new();
    for tool in &listed.tools {
        let mut found = Vec::new();
        for (key, member) in tool {
            let mut pointer = String::new();
            crate::json::parse::push_token(&mut pointer, key);
            crate::source::invisible::hidden_strings(member, &mut pointer, &mut found);
        }
        let Some((pointer, _, hidden)) = found.first() else {
            continue;
        };
        let name = tool.get("name").and_then(Value::as_str).unwrap_or("?");
        found_per_tool.push(place(
            &LIVE_TOOL_HIDDEN_TEXT,
            format!(
                "server `{}` lists tool `{name}`, whose `{pointer}` holds characters a reviewer cannot read but the model does: {}",
                attempt.id,
                hidden.describe()
            ),
        ));
    }
    found_per_tool
}

/// One finding per attempt, and one per listed tool that hides text, at the
/// server's entry in `mcp.json` (where the check placed it).
pub fn diagnostics(package: &Package, attempts: &[Attempt]) -> Vec<Diagnostic> {
    let mut found = Vec::new();
    for attempt in attempts {
        let entry = package.server(&attempt.id).map(|server| &server.location);
        let place = |rule: &Rule, message: String| match entry {
            Some(location) => location.diagnostic(rule, message),
            // Attempts are made for entries of the package only; this keeps a
            // finding about a stray one in the file, not lost.
            None => {
                let mut pointer = String::from("/mcpServers");
                crate::json::parse::push_token(&mut pointer, &attempt.id);
                Diagnostic::new(rule, message).in_file(MCP_PATH).at_pointer(pointer)
            }
        };
        let (rule, message) = match &attempt.outcome {
            Ok(listed) => (
                &LIVE_SERVER_CONNECTED,
                format!(
                    "server `{}` connected over {}: protocol {}, {}, {}",
                    attempt.id,
                    attempt.transport,
                    listed.protocol_version,
                    // Not `render::count`: rules sit below the renderers, which read the registry.
                    match listed.tools.len() {
                        1 => "1 tool".to_string(),
                        n => format!("{n} tools"),
                    },
                    milliseconds(attempt.elapsed)
                ),
            ),
            Err(reason) => (
                &LIVE_SERVER_FAILED,
                format!(
                    "server `{}` failed over {} after {}: {reason}",
                    attempt.id,
                    attempt.transport,
                    milliseconds(attempt.elapsed)
                ),
            ),
        };
        found.push(place(rule, message));
        found.extend(hidden_tool_text(attempt, &place));
        found.extend(duplicate_tool_names(attempt, &place));
    }
    found
}

/// `412 ms`, the precision a person reads.
pub fn milliseconds(elapsed: Duration) -> String {
    format!("{} ms", elapsed.as_millis())
}

#[cfg(test)]
mod tests {
    use super::*;

    const PLUGIN_JSON: &str =
        r#"{"$schema": "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json", "name": "demo"}"#;
    const MCP_JSON: &str = "{\n  \"$schema\": \"https://agent-plugins.org/schemas/1.0.0/mcp.schema.json\",\n  \"mcpServers\": {\n    \"tools\": {\"type\": \"stdio\", \"command\": \"tools-server\"},\n    \"api\": {\"type\": \"streamable-http\", \"url\": \"http://127.0.0.1:9/mcp\"}\n  }\n}\n";

    /// The package the attempts were made for, as the check typed it.
    fn checked() -> Package {
        let tree = crate::tree::Tree::from_files([("plugin.json", PLUGIN_JSON), ("mcp.json", MCP_JSON)]);
        crate::check_package("p", &tree).package
    }

    #[test]
    fn a_name_listed_twice_is_one_finding() {
        let package = checked();
        let tool = |name: &str| serde_json::json!({"name": name}).as_object().unwrap().clone();
        let attempts = [Attempt {
            id: "tools".into(),
            transport: "stdio".into(),
            outcome: Ok(Listed {
                protocol_version: "2025-11-25".into(),
                server_info: None,
                tools: vec![tool("search"), tool("read"), tool("search"), tool("search")],
            }),
            elapsed: Duration::from_millis(5),
            stderr: String::new(),
        }];
        let found = diagnostics(&package, &attempts);
        let codes: Vec<_> = found.iter().map(|d| d.code).collect();
        assert_eq!(codes, ["AP451", "AP453"]);
        assert!(
            found[1].message.contains("3 tools named `search`"),
            "{}",
            found[1].message
        );
    }

    #[test]
    fn each_attempt_is_one_finding_at_its_entry() {
        // §7.2.2 rule 5: the failure is reported for that server; the connected one is reported too.
        let package = checked();
        let attempts = [
            Attempt {
                id: "tools".into(),
                transport: "stdio".into(),
                outcome: Err("command `tools-server` was not found on the executable search path".into()),
                elapsed: Duration::from_millis(2),
                stderr: String::new(),
            },
            Attempt {
                id: "api".into(),
                transport: "streamable-http".into(),
                outcome: Ok(Listed {
                    protocol_version: "2025-06-18".into(),
                    server_info: None,
                    tools: vec![serde_json::Map::new(); 3],
                }),
                elapsed: Duration::from_millis(180),
                stderr: String::new(),
            },
        ];
        let found = diagnostics(&package, &attempts);
        assert_eq!(found[0].code, "AP450");
        assert_eq!(found[0].severity, Severity::Error);
        assert_eq!(found[0].line, Some(4));
        assert!(found[0].message.contains("was not found"), "{}", found[0].message);
        assert_eq!(found[1].code, "AP451");
        assert_eq!(
            found[1].message,
            "server `api` connected over streamable-http: protocol 2025-06-18, 3 tools, 180 ms"
        );
        assert_eq!(found[1].pointer.as_deref(), Some("/mcpServers/api"));
    }

    #[test]
    fn a_listed_tool_that_hides_text_is_one_warning_at_its_server() {
        let package = checked();
        let tool = |value: serde_json::Value| value.as_object().unwrap().clone();
        let attempts = [Attempt {
            id: "api".into(),
            transport: "streamable-http".into(),
            outcome: Ok(Listed {
                protocol_version: "2025-11-25".into(),
                server_info: None,
                tools: vec![
                    tool(
                        serde_json::json!({"name": "plain", "description": "Searches.", "inputSchema": {"type": "object"}}),
                    ),
                    tool(
                        serde_json::json!({"name": "search", "description": "Searches.\u{E0068}\u{E0069}",
                        "inputSchema": {"type": "object", "properties": {"q": {"description": "\u{200B}"}}}}),
                    ),
                ],
            }),
            elapsed: Duration::from_millis(5),
            stderr: String::new(),
        }];
        let found = diagnostics(&package, &attempts);
        assert_eq!(found.iter().map(|d| d.code).collect::<Vec<_>>(), ["AP451", "AP452"]);
        assert_eq!(found[1].severity, Severity::Warning);
        assert_eq!(found[1].pointer.as_deref(), Some("/mcpServers/api"));
        assert_eq!(found[1].line, Some(5));
        assert!(
            found[1]
                .message
                .starts_with("server `api` lists tool `search`, whose `/description` holds")
                && found[1].message.ends_with("spell \"hi\""),
            "{}",
            found[1].message
        );
    }
}
