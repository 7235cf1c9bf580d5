//! One server entry against its closed variant (§7.2.1), skipped alone when
//! it breaks a rule (§7.2.2 rule 3). Every problem of an entry is reported,
//! not just the first, each at its own JSON Pointer.

use serde_json::{Map, Value};

use super::config::{REMOTE_FIELDS, STDIO_FIELDS, ServerConfig, Transport};
use super::entry::ServerCheck;
use super::text::{child_pointer, quoted};
use crate::diag::{Diagnostic, Severity};
use crate::fix::{Applicability, Fix, json_edits};
use crate::json::json_type;
use crate::report::{ServerEntry, ServerState};
use crate::rule::{Example, Rule};
use crate::source::json::JsonSource;
use crate::tree::Tree;

const PLUGIN_JSON: &str = super::text::EXAMPLE_PLUGIN_JSON;

pub static MCP_SERVER_NOT_OBJECT: Rule = Rule {
    code: "AP410",
    name: "mcp-server-not-object",
    severity: Severity::Error,
    spec: "Agent Plugins §7.2.1, §7.2.2",
    summary: "A member of `mcpServers` is not a server configuration object; that server is skipped",
    fix_hint: Some("make the server an object with `type` and the fields of its transport"),
    doc: rule_doc! {
        what: "Whether each member value of `mcpServers` is a JSON object.",
        why: "§7.2.1: member values are server configuration objects. A client skips an entry that is not \
              one and loads the others (§7.2.2 rule 3).",
        failing: Example::Package(&[
            ("plugin.json", PLUGIN_JSON),
            ("mcp.json", example_mcp_json!("    \"tools\": \"npx -y tools-server\"")),
        ]),
        fixed: Example::Package(&[
            ("plugin.json", PLUGIN_JSON),
            (
                "mcp.json",
                example_mcp_json!(
                    "    \"tools\": {\"type\": \"stdio\", \"command\": \"npx\", \"args\": [\"-y\", \"tools-server\"]}"
                ),
            ),
        ]),
    },
};

pub static MCP_SERVER_TYPE_MISSING: Rule = Rule {
    code: "AP411",
    name: "mcp-server-type-missing",
    severity: Severity::Error,
    spec: "Agent Plugins §7.2.1, §7.2.2",
    summary: "A server has no `type`; that server is skipped",
    fix_hint: Some("add \"type\": \"stdio\", \"streamable-http\" or \"sse\""),
    doc: rule_doc! {
        what: "Whether each server declares its transport in `type`.",
        why: "§7.2.1: \"Each server configuration MUST contain a `type` field\"; clients never infer a \
              transport from the other fields. The entry is skipped alone (§7.2.2 rule 3).",
        failing: Example::Package(&[
            ("plugin.json", PLUGIN_JSON),
            (
                "mcp.json",
                example_mcp_json!("    \"tools\": {\"command\": \"uvx\", \"args\": [\"tools-server\"]}"),
            ),
        ]),
        fixed: Example::Package(&[
            ("plugin.json", PLUGIN_JSON),
            (
                "mcp.json",
                example_mcp_json!(
                    "    \"tools\": {\"type\": \"stdio\", \"command\": \"uvx\", \"args\": [\"tools-server\"]}"
                ),
            ),
        ]),
    },
};

pub static MCP_SERVER_TYPE_UNKNOWN: Rule = Rule {
    code: "AP412",
    name: "mcp-server-type-unknown",
    severity: Severity::Error,
    spec: "Agent Plugins §7.2.1, §7.2.2",
    summary: "A server's `type` is not `stdio`, `streamable-http` or `sse`; that server is skipped",
    fix_hint: Some("use \"stdio\", \"streamable-http\" or \"sse\""),
    doc: rule_doc! {
        what: "Whether `type` is one of the three transports of Agent Plugins 1.0.0, spelled exactly. Vendor \
               spellings such as `http` or `streamableHttp` fail, with a suggestion.",
        why: "§7.2.1: \"an unknown `type` value … makes that server entry invalid\"; the client skips it \
              (§7.2.2 rule 3).",
        failing: Example::Package(&[
            ("plugin.json", PLUGIN_JSON),
            (
                "mcp.json",
                example_mcp_json!(
                    "    \"billing\": {\"type\": \"http\", \"url\": \"https://billing.example.com/mcp\"}"
                ),
            ),
        ]),
        fixed: Example::Package(&[
            ("plugin.json", PLUGIN_JSON),
            (
                "mcp.json",
                example_mcp_json!(
                    "    \"billing\": {\"type\": \"streamable-http\", \"url\": \"https://billing.example.com/mcp\"}"
                ),
            ),
        ]),
    },
};

pub static MCP_SERVER_UNKNOWN_FIELD: Rule = Rule {
    code: "AP413",
    name: "mcp-server-unknown-field",
    severity: Severity::Error,
    spec: "Agent Plugins §7.2.1, §7.2.2",
    summary: "A server has a member no transport defines; that server is skipped",
    fix_hint: Some("remove the member; vendor settings belong in the client's own configuration"),
    doc: rule_doc! {
        what: "Every member of a server other than the fields of the three variants (`type`, `command`, \
               `args`, `env`, `cwd`, `url`, `headers`), each named. Vendor fields such as `disabled`, \
               `timeout` or `alwaysAllow` fail.",
        why: "§7.2.1: the variants are closed; \"An unknown field … makes that server entry invalid\" and the \
              client skips it (§7.2.2 rule 3).",
        failing: Example::Package(&[
            ("plugin.json", PLUGIN_JSON),
            (
                "mcp.json",
                example_mcp_json!("    \"tools\": {\"type\": \"stdio\", \"command\": \"uvx\", \"timeout\": 30}"),
            ),
        ]),
        fixed: Example::Package(&[
            ("plugin.json", PLUGIN_JSON),
            (
                "mcp.json",
                example_mcp_json!("    \"tools\": {\"type\": \"stdio\", \"command\": \"uvx\"}"),
            ),
        ]),
    },
};

pub static MCP_SERVER_FOREIGN_FIELD: Rule = Rule {
    code: "AP414",
    name: "mcp-server-foreign-field",
    severity: Severity::Error,
    spec: "Agent Plugins §7.2.1, §7.2.2",
    summary: "A server has a field of another transport (`url` on stdio, `command` on HTTP); that server is skipped",
    fix_hint: Some("remove the field, or change `type` to the transport the field belongs to"),
    doc: rule_doc! {
        what: "Members that belong to a different variant than the declared `type`: `url` or `headers` on a \
               `stdio` server, `command`, `args`, `env` or `cwd` on a `streamable-http` or `sse` server.",
        why: "§7.2.1: \"a field belonging to another variant makes that server entry invalid\"; the client \
              skips it (§7.2.2 rule 3).",
        failing: Example::Package(&[
            ("plugin.json", PLUGIN_JSON),
            (
                "mcp.json",
                example_mcp_json!(
                    "    \"tools\": {\"type\": \"stdio\", \"command\": \"uvx\", \"url\": \"https://tools.example.com/mcp\"}"
                ),
            ),
        ]),
        fixed: Example::Package(&[
            ("plugin.json", PLUGIN_JSON),
            (
                "mcp.json",
                example_mcp_json!("    \"tools\": {\"type\": \"stdio\", \"command\": \"uvx\"}"),
            ),
        ]),
    },
};

pub static MCP_SSE_DEPRECATED: Rule = Rule {
    code: "AP417",
    name: "mcp-sse-deprecated",
    severity: Severity::Info,
    spec: "Agent Plugins §7.2.1",
    summary: "A server uses the deprecated legacy HTTP+SSE transport",
    fix_hint: Some("if the server supports it, use \"type\": \"streamable-http\", the current MCP transport"),
    doc: rule_doc! {
        what: "Servers declaring `\"type\": \"sse\"`. The entry is valid.",
        why: "§7.2.1: `sse` selects the HTTP+SSE transport deprecated since MCP 2025-03-26, and client support \
              for it is OPTIONAL (§7.2.1, Transport support): a client without it skips the server (§7.2.2 \
              rule 4). `streamable-http` is what every remote-capable client must speak.",
        failing: Example::Package(&[
            ("plugin.json", PLUGIN_JSON),
            (
                "mcp.json",
                example_mcp_json!("    \"events\": {\"type\": \"sse\", \"url\": \"https://events.example.com/sse\"}"),
            ),
        ]),
        fixed: Example::Package(&[
            ("plugin.json", PLUGIN_JSON),
            (
                "mcp.json",
                example_mcp_json!(
                    "    \"events\": {\"type\": \"streamable-http\", \"url\": \"https://events.example.com/mcp\"}"
                ),
            ),
        ]),
    },
};

/// Checks the server `id` and says whether a client would load it, and with
/// which configuration when it would.
pub(super) fn check_server(
    file: &JsonSource,
    tree: &Tree,
    id: &str,
    value: &Value,
    diagnostics: &mut Vec<Diagnostic>,
) -> (ServerEntry, Option<ServerConfig>) {
    let mut check = ServerCheck::new(file, tree, child_pointer("/mcpServers", id));
    let mut entry = ServerEntry {
        id: id.to_string(),
        transport: None,
        state: ServerState::Valid,
        reason: None,
        command: None,
        url: None,
    };
    match value {
        Value::Object(server) => {
            entry.transport = server.get("type").and_then(Value::as_str).map(str::to_string);
            check_fields(&mut check, id, server, &mut entry);
        }
        other => {
            let message = format!("server {} must be an object, not {}", quoted(id), json_type(other));
            check.reject(file.at_value(&MCP_SERVER_NOT_OBJECT, &check.pointer, message));
        }
    }
    let (mut found, reasons) = check.into_findings();
    if let Some(first) = reasons.first() {
        entry.state = ServerState::Invalid;
        entry.reason = Some(match reasons.len() {
            1 => first.clone(),
            n => format!("{first} (and {} more)", n - 1),
        });
    }
    diagnostics.append(&mut found);
    let config = launchable(value, &entry);
    (entry, config)
}

/// What `--connect` launches or connects to for a valid entry. `--connect`
/// needs processes and sockets, so it is native only; the wasm builds (the
/// page's and the npm package's) keep no configuration, and their size does
/// not pay for code nothing in them would read.
#[cfg(not(target_arch = "wasm32"))]
fn launchable(value: &Value, entry: &ServerEntry) -> Option<ServerConfig> {
    match value {
        Value::Object(server) if entry.state == ServerState::Valid => entry
            .transport
            .as_deref()
            .and_then(Transport::from_type)
            .and_then(|transport| ServerConfig::of_valid(transport, server)),
        _ => None,
    }
}

#[cfg(target_arch = "wasm32")]
fn launchable(_: &Value, _: &ServerEntry) -> Option<ServerConfig> {
    None
}

fn check_fields(check: &mut ServerCheck<'_>, id: &str, server: &Map<String, Value>, entry: &mut ServerEntry) {
    let declared = check_type(check, id, server);
    // Without a usable `type` the entry is already invalid; checking the fields
    // of the variant it most likely meant still tells the author everything else.
    let variant = declared.or_else(|| Transport::guess(server));
    for key in server.keys() {
        if variant.is_some_and(|v| v.fields().contains(&key.as_str())) {
            continue;
        }
        let pointer = check.field(key);
        let owners = owners_of(key);
        match (declared, owners) {
            (_, None) => {
                let allowed = variant.map_or("type, command, args, env, cwd, url, headers".to_string(), |v| {
                    v.fields().join(", ")
                });
                let message = format!(
                    "unknown member {} in server {}: allowed are {allowed}",
                    quoted(key),
                    quoted(id)
                );
                check.reject(check.file.at_key(&MCP_SERVER_UNKNOWN_FIELD, &pointer, message));
            }
            (Some(declared), Some(owners)) => {
                let message = format!(
                    "{} belongs to {owners} servers, not to this {} server",
                    quoted(key),
                    declared.name()
                );
                check.reject(check.file.at_key(&MCP_SERVER_FOREIGN_FIELD, &pointer, message));
            }
            // The type problem is reported already; a field of some variant is not news.
            (None, Some(_)) => {}
        }
    }
    match variant {
        Some(Transport::Stdio) => {
            entry.command = super::command::check_command(check, server.get("command"));
            if let Some(args) = server.get("args") {
                super::args::check_args(check, args);
            }
            if let Some(env) = server.get("env") {
                super::env::check_env(check, env);
            }
            if let Some(cwd) = server.get("cwd") {
                super::cwd::check_cwd(check, cwd);
            }
        }
        Some(remote @ (Transport::StreamableHttp | Transport::Sse)) => {
            entry.url = super::url::check_url(check, server.get("url"));
            if let Some(headers) = server.get("headers") {
                super::headers::check_headers(check, headers);
            }
            if remote == Transport::Sse && declared == Some(Transport::Sse) {
                let message = format!("server {} uses the deprecated legacy HTTP+SSE transport", quoted(id));
                check.report(check.file.at_value(&MCP_SSE_DEPRECATED, &check.field("type"), message));
            }
        }
        None => {}
    }
}

/// Checks `type`; returns the declared variant when it is one.
fn check_type(check: &mut ServerCheck<'_>, id: &str, server: &Map<String, Value>) -> Option<Transport> {
    let guess_hint = |verb: &str| match Transport::guess(server) {
        Some(guess) => format!("{verb} \"type\": \"{}\"", guess.name()),
        None => format!("{verb} \"type\": \"stdio\", \"streamable-http\" or \"sse\""),
    };
    match server.get("type") {
        None => {
            let message = format!("server {} has no `type`", quoted(id));
            let pointer = check.pointer.clone();
            let mut diagnostic = check
                .file
                .at_key(&MCP_SERVER_TYPE_MISSING, &pointer, message)
                .with_hint(guess_hint("add"));
            // `command` can only be stdio; a `url` alone could be either remote transport.
            if let Some(guess) = Transport::guess(server) {
                let applicability = match guess {
                    Transport::Stdio => Applicability::Safe,
                    Transport::StreamableHttp | Transport::Sse => Applicability::Unsafe,
                };
                diagnostic = with_type_fix(diagnostic, check.file, &pointer, guess.name(), applicability);
            }
            check.reject(diagnostic);
            None
        }
        Some(Value::String(name)) => Transport::from_type(name).or_else(|| {
            let message = format!(
                "unknown transport type {} in server {}: Agent Plugins 1.0.0 defines {}",
                super::text::excerpt(name),
                quoted(id),
                "stdio, streamable-http and sse"
            );
            let mut diagnostic = check
                .file
                .at_value(&MCP_SERVER_TYPE_UNKNOWN, &check.field("type"), message);
            if let Some(hint) = type_suggestion(name) {
                diagnostic = diagnostic.with_hint(hint);
            }
            if let Some(meant) = meant_type(name) {
                // Vendor configurations write "http" for streamable HTTP; other near misses are guesses.
                let applicability = if name == "http" {
                    Applicability::Safe
                } else {
                    Applicability::Unsafe
                };
                let pointer = check.pointer.clone();
                diagnostic = with_type_fix(diagnostic, check.file, &pointer, meant, applicability);
            }
            check.reject(diagnostic);
            None
        }),
        Some(other) => {
            let message = format!("`type` must be a string naming the transport, not {}", json_type(other));
            let pointer = check.field("type");
            check.reject(
                check
                    .file
                    .at_value(&MCP_SERVER_TYPE_UNKNOWN, &pointer, message)
                    .with_hint(guess_hint("write")),
            );
            None
        }
    }
}

/// The transport a vendor or misspelled type name most likely meant.
fn meant_type(name: &str) -> Option<&'static str> {
    match folded_type(name).as_str() {
        "http" | "https" | "streamablehttp" | "streamable" | "httpstream" | "remote" => Some("streamable-http"),
        "sse" | "httpsse" | "serversentevents" => Some("sse"),
        "stdio" | "local" | "command" | "process" => Some("stdio"),
        _ => None,
    }
}

/// `name` lowercased with only its letters and digits: `Streamable_HTTP` → `streamablehttp`.
fn folded_type(name: &str) -> String {
    name.chars()
        .filter(char::is_ascii_alphanumeric)
        .collect::<String>()
        .to_ascii_lowercase()
}

/// What a vendor or misspelled transport name most likely meant, in words.
fn type_suggestion(name: &str) -> Option<String> {
    if let Some(meant) = meant_type(name) {
        return Some(format!("did you mean \"type\": \"{meant}\"?"));
    }
    matches!(folded_type(name).as_str(), "websocket" | "ws" | "wss").then(|| {
        "Agent Plugins 1.0.0 has no WebSocket transport; use \"streamable-http\" if the server offers it".into()
    })
}

/// `diagnostic` with the fix that sets the `type` of the server at `pointer` to `variant`.
fn with_type_fix(
    diagnostic: Diagnostic,
    file: &JsonSource,
    pointer: &str,
    variant: &str,
    applicability: Applicability,
) -> Diagnostic {
    match json_edits::set_member(file, pointer, "type", &json_edits::string_literal(variant)) {
        Some(edit) => diagnostic.with_fix(Fix {
            message: format!("Set \"type\" to \"{variant}\""),
            applicability,
            edits: vec![edit],
        }),
        None => diagnostic,
    }
}

/// The variants a server field belongs to, for a foreign-field message.
fn owners_of(field: &str) -> Option<&'static str> {
    if STDIO_FIELDS.contains(&field) {
        Some("stdio")
    } else if REMOTE_FIELDS.contains(&field) {
        Some("streamable-http and sse")
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::super::config::{RemoteConfig, ServerConfig, StdioConfig, Transport};
    use super::super::test_support::{codes, load, one_server, plugin_1_0_0};
    use crate::report::{McpState, ServerState};
    use crate::rules::mcp::CwdForm;

    #[test]
    fn reference_streamable_http_server_is_valid() {
        // §7.2.1: the reference fixture `invoice-tools`.
        let text = r#"{"$schema": "https://agent-plugins.org/schemas/1.0.0/mcp.schema.json",
            "mcpServers": {"invoice-tools": {"type": "streamable-http", "url": "https://billing.example.com/mcp"}}}"#;
        let (section, diagnostics) = load(text, &[]);
        assert_eq!(section.state, McpState::Loaded);
        assert!(diagnostics.is_empty(), "{diagnostics:?}");
        assert_eq!(section.servers[0].state, ServerState::Valid);
        assert_eq!(section.servers[0].transport.as_deref(), Some("streamable-http"));
        assert_eq!(
            section.servers[0].url.as_deref(),
            Some("https://billing.example.com/mcp")
        );
    }

    #[test]
    fn server_without_type_is_skipped_alone() {
        // §7.2.1: `type` is required; §7.2.2 rule 3: the others load.
        let text = r#"{"$schema": "https://agent-plugins.org/schemas/1.0.0/mcp.schema.json",
            "mcpServers": {"a": {"command": "uvx"}, "b": {"type": "stdio", "command": "uvx"}}}"#;
        let (section, diagnostics) = load(text, &[]);
        assert_eq!(section.state, McpState::Loaded);
        assert_eq!(codes(&diagnostics), ["AP411"]);
        assert_eq!(diagnostics[0].hint.as_deref(), Some("add \"type\": \"stdio\""));
        assert_eq!(section.servers[0].state, ServerState::Invalid);
        assert_eq!(section.servers[1].state, ServerState::Valid);
    }

    #[test]
    fn http_type_is_unknown_with_a_suggestion() {
        // §7.2.1: "an unknown `type` value … makes that server entry invalid".
        let (section, diagnostics) = load(
            &one_server(r#"{"type": "http", "url": "https://x.example.com/mcp"}"#),
            &[],
        );
        assert_eq!(codes(&diagnostics), ["AP412"]);
        assert_eq!(diagnostics[0].pointer.as_deref(), Some("/mcpServers/s/type"));
        assert!(diagnostics[0].hint.as_deref().unwrap().contains("streamable-http"));
        assert_eq!(section.servers[0].state, ServerState::Invalid);
    }

    #[test]
    fn non_string_type_and_non_object_server_are_invalid() {
        let (_, diagnostics) = load(&one_server(r#"{"type": ["stdio"], "command": "uvx"}"#), &[]);
        assert_eq!(codes(&diagnostics), ["AP412"]);
        let (section, diagnostics) = load(&one_server(r#""npx -y x""#), &[]);
        assert_eq!(codes(&diagnostics), ["AP410"]);
        assert_eq!(section.servers[0].state, ServerState::Invalid);
    }

    #[test]
    fn foreign_and_unknown_fields_are_each_named() {
        // §7.2.1: "An unknown field … or a field belonging to another variant makes that server entry invalid."
        let (section, diagnostics) = load(
            &one_server(r#"{"type": "stdio", "command": "uvx", "url": "https://x.example.com", "disabled": false}"#),
            &[],
        );
        assert_eq!(codes(&diagnostics), ["AP414", "AP413"]);
        assert!(diagnostics[0].message.contains("streamable-http and sse"));
        assert_eq!(diagnostics[1].pointer.as_deref(), Some("/mcpServers/s/disabled"));
        assert_eq!(
            section.servers[0].reason.as_deref().map(|r| r.contains("(and 1 more)")),
            Some(true)
        );
        let (_, diagnostics) = load(
            &one_server(r#"{"type": "sse", "url": "https://x.example.com", "command": "x"}"#),
            &[],
        );
        assert_eq!(codes(&diagnostics), ["AP414", "AP417"]);
    }

    #[test]
    fn required_fields_and_types() {
        let (_, diagnostics) = load(&one_server(r#"{"type": "stdio"}"#), &[]);
        assert_eq!(codes(&diagnostics), ["AP415"]);
        let (_, diagnostics) = load(&one_server(r#"{"type": "streamable-http"}"#), &[]);
        assert_eq!(codes(&diagnostics), ["AP415"]);
        let (_, diagnostics) = load(
            &one_server(r#"{"type": "stdio", "command": "uvx", "args": ["a", 1, null]}"#),
            &[],
        );
        assert_eq!(codes(&diagnostics), ["AP416", "AP416"]);
        assert_eq!(diagnostics[0].pointer.as_deref(), Some("/mcpServers/s/args/1"));
        let (_, diagnostics) = load(&one_server(r#"{"type": "stdio", "command": "uvx", "args": "a"}"#), &[]);
        assert_eq!(codes(&diagnostics), ["AP416"]);
    }

    /// The typed configuration of the one server `s`, configured as `server`, with `extra` files.
    fn typed(server: &str, extra: &[(&str, &str)]) -> Option<ServerConfig> {
        let mut files = vec![("mcp.json", one_server(server))];
        files.extend(extra.iter().map(|(path, text)| (*path, text.to_string())));
        let tree = crate::tree::Tree::from_files(files);
        let (_, read) = super::super::load_mcp(&tree, &plugin_1_0_0(), &mut Vec::new());
        let read = read.expect("an object");
        assert_eq!(read.servers.len(), 1);
        read.servers[0].config.clone()
    }

    fn pairs(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
    }

    #[test]
    fn a_valid_stdio_server_is_typed_as_written() {
        // §7.2.1: command, args, env and cwd of the stdio variant.
        let config = typed(
            r#"{"type": "stdio", "command": "./bin/server", "args": ["--root", "${PLUGIN_ROOT}", ""],
                "env": {"MODE": "test", "CACHE": "${PLUGIN_DATA}/cache"}, "cwd": "./work"}"#,
            &[("bin/server", ""), ("work/.keep", "")],
        );
        let Some(ServerConfig::Stdio(stdio)) = config else {
            panic!("{config:?}")
        };
        assert_eq!(stdio.command, "./bin/server");
        assert_eq!(stdio.args, ["--root", "${PLUGIN_ROOT}", ""]);
        assert_eq!(stdio.env, pairs(&[("MODE", "test"), ("CACHE", "${PLUGIN_DATA}/cache")]));
        let cwd = stdio.cwd.expect("a cwd");
        assert_eq!((cwd.written(), cwd.form()), ("./work", CwdForm::InPackage("work")));
        let bare = typed(r#"{"type": "stdio", "command": "uvx"}"#, &[]);
        assert_eq!(
            bare,
            Some(ServerConfig::Stdio(StdioConfig {
                command: "uvx".into(),
                args: Vec::new(),
                env: Vec::new(),
                cwd: None,
            }))
        );
    }

    #[test]
    fn each_cwd_form_is_kept_with_its_text() {
        for (cwd, form) in [
            ("./work", CwdForm::InPackage("work")),
            ("${PLUGIN_ROOT}", CwdForm::PluginRoot("")),
            ("${PLUGIN_ROOT}/work", CwdForm::PluginRoot("work")),
            ("${PLUGIN_DATA}", CwdForm::PluginData("")),
            ("${PLUGIN_DATA}/cache", CwdForm::PluginData("cache")),
        ] {
            let server = format!(r#"{{"type": "stdio", "command": "uvx", "cwd": "{cwd}"}}"#);
            let Some(ServerConfig::Stdio(stdio)) = typed(&server, &[("work/.keep", "")]) else {
                panic!("{cwd}")
            };
            let checked = stdio.cwd.expect(cwd);
            assert_eq!((checked.written(), checked.form()), (cwd, form));
        }
    }

    #[test]
    fn valid_remote_servers_are_typed_by_transport() {
        let headers = r#""headers": {"Authorization": "Bearer ${TOKEN}", "X-Trace": "1"}"#;
        let remote = RemoteConfig {
            url: "https://x.example.com/mcp".into(),
            headers: pairs(&[("Authorization", "Bearer ${TOKEN}"), ("X-Trace", "1")]),
        };
        let http = typed(
            &format!(r#"{{"type": "streamable-http", "url": "https://x.example.com/mcp", {headers}}}"#),
            &[],
        );
        assert_eq!(http, Some(ServerConfig::StreamableHttp(remote.clone())));
        let sse = typed(
            &format!(r#"{{"type": "sse", "url": "https://x.example.com/mcp", {headers}}}"#),
            &[],
        );
        assert_eq!(sse.as_ref().map(ServerConfig::transport), Some(Transport::Sse));
        assert_eq!(sse, Some(ServerConfig::Sse(remote)));
    }

    #[test]
    fn an_invalid_server_has_no_configuration_but_keeps_its_place_and_secrets() {
        // §7.2.2 rule 3: skipped, so nothing may launch it; `--failed` still masks what it holds.
        let tree = crate::tree::Tree::from_files([(
            "mcp.json",
            one_server(r#"{"type": "stdio", "command": "uvx", "cwd": "/tmp", "env": {"KEY": "v-123"}}"#),
        )]);
        let (section, read) = super::super::load_mcp(&tree, &plugin_1_0_0(), &mut Vec::new());
        assert_eq!(section.servers[0].state, ServerState::Invalid);
        let server = &read.unwrap().servers[0];
        assert_eq!(server.config, None);
        assert_eq!(server.transport, Some(Transport::Stdio));
        assert_eq!(
            (server.location.pointer.as_str(), server.location.line),
            ("/mcpServers/s", 4)
        );
        assert_eq!(
            server.secrets,
            [crate::package::Secret::Named {
                name: "KEY".into(),
                value: "v-123".into()
            }]
        );
    }

    #[test]
    fn sse_is_valid_but_noted() {
        let (section, diagnostics) = load(
            &one_server(r#"{"type": "sse", "url": "https://x.example.com/sse"}"#),
            &[],
        );
        assert_eq!(codes(&diagnostics), ["AP417"]);
        assert_eq!(section.servers[0].state, ServerState::Valid);
    }
}
