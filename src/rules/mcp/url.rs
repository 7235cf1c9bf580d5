//! The remote `url`: an absolute http(s) URL, no user information, no
//! fragment, HTTPS unless the host is loopback (§7.2.1). Parsed with
//! `fluent-uri` (RFC 3986/3987), already in the build through `jsonschema`.
//! Messages never repeat the URL: its user information or query may hold a credential.

use std::net::{Ipv4Addr, Ipv6Addr};

use fluent_uri::component::Host;
use fluent_uri::{Iri, IriRef};
use serde_json::Value;

use super::entry::{MCP_SERVER_FIELD_MISSING, ServerCheck};
use super::text::EXAMPLE_PLUGIN_JSON;
use crate::diag::Severity;
use crate::redact::{masked, named_secret};
use crate::rule::{Example, Rule};
use crate::rules::secrets::detect::{Secret, detect_elsewhere, detect_url_password};

const PLUGIN_JSON: &str = super::text::EXAMPLE_PLUGIN_JSON;

pub static MCP_URL_INVALID: Rule = Rule {
    code: "AP430",
    name: "mcp-url-invalid",
    severity: Severity::Error,
    spec: "Agent Plugins §7.2.1",
    summary: "A remote server's `url` is not an absolute http or https URL; that server is skipped",
    fix_hint: Some("write the full endpoint, e.g. \"https://mcp.example.com/mcp\""),
    doc: rule_doc! {
        what: "Whether `url` parses as an absolute URL (RFC 3986, with RFC 3987 characters) whose scheme is \
               `http` or `https` and which names a host. A `${VAR}` in the URL is reported here too: nothing \
               expands in `url`.",
        why: "§7.2.1: \"The `url` value MUST be an absolute HTTP or HTTPS URL\" and \"Clients MUST NOT perform \
              placeholder or environment-variable expansion in `url`\". The client skips the server (§7.2.2 \
              rule 3).",
        failing: Example::Package(&[
            ("plugin.json", PLUGIN_JSON),
            (
                "mcp.json",
                example_mcp_json!(
                    "    \"events\": {\"type\": \"streamable-http\", \"url\": \"wss://events.example.com/mcp\"}"
                ),
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

pub static MCP_URL_USERINFO: Rule = Rule {
    code: "AP431",
    name: "mcp-url-userinfo",
    severity: Severity::Error,
    spec: "Agent Plugins §7.2.1",
    summary: "A remote server's `url` contains user information (`user:password@`); that server is skipped",
    fix_hint: Some("remove `user:password@`; authorization is client-managed (§7.2.1)"),
    doc: rule_doc! {
        what: "Whether `url` has a user-information part before the host.",
        why: "§7.2.1: the URL \"MUST NOT contain user information\"; it is usually a credential in plain sight. \
              The client skips the server (§7.2.2 rule 3).",
        failing: Example::Package(&[
            ("plugin.json", PLUGIN_JSON),
            (
                "mcp.json",
                example_mcp_json!(
                    "    \"billing\": {\"type\": \"streamable-http\", \"url\": \"https://bot:hunter2@billing.example.com/mcp\"}"
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

pub static MCP_URL_FRAGMENT: Rule = Rule {
    code: "AP432",
    name: "mcp-url-fragment",
    severity: Severity::Error,
    spec: "Agent Plugins §7.2.1",
    summary: "A remote server's `url` has a fragment (`#…`); that server is skipped",
    fix_hint: Some("remove the `#…` part"),
    doc: rule_doc! {
        what: "Whether `url` has a fragment.",
        why: "§7.2.1: the URL \"MUST NOT contain … a fragment\"; a fragment is never sent to the server. The \
              client skips the server (§7.2.2 rule 3).",
        failing: Example::Package(&[
            ("plugin.json", PLUGIN_JSON),
            (
                "mcp.json",
                example_mcp_json!(
                    "    \"events\": {\"type\": \"streamable-http\", \"url\": \"https://events.example.com/mcp#stream\"}"
                ),
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

pub static MCP_URL_INSECURE: Rule = Rule {
    code: "AP433",
    name: "mcp-url-insecure",
    severity: Severity::Error,
    spec: "Agent Plugins §7.2.1",
    summary: "A remote server's `url` uses plain HTTP for a non-loopback host; that server is skipped",
    fix_hint: Some("use https://, or http:// only with localhost, 127.0.0.0/8 or [::1]"),
    doc: rule_doc! {
        what: "Whether an `http://` URL's host is exactly `localhost` or a loopback IP literal (127.0.0.0/8, \
               `[::1]`). Names that merely resolve to loopback, such as `foo.localhost`, do not count.",
        why: "§7.2.1: \"Non-loopback endpoints MUST use HTTPS. HTTP MAY be used when the URL host is exactly \
              `localhost` or an IP literal in a loopback range.\" The client skips the server (§7.2.2 rule 3).",
        failing: Example::Package(&[
            ("plugin.json", PLUGIN_JSON),
            (
                "mcp.json",
                example_mcp_json!(
                    "    \"billing\": {\"type\": \"streamable-http\", \"url\": \"http://billing.example.com/mcp\"}"
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

pub static SECRET_IN_URL_QUERY: Rule = Rule {
    code: "AP505",
    name: "secret-in-url-query",
    severity: Severity::Warning,
    spec: "Agent Plugins §7.2.1",
    summary: "A secret-named URL query parameter holds a literal credential",
    fix_hint: Some(
        "remove it (and revoke it if it was published); send the credential in a header the user configures, not in the URL",
    ),
    doc: rule_doc! {
        what: "Query parameters of `url` whose name says they hold a credential (`api_key`, `access_token`, \
               `password`, …) with a literal value that looks like one: random-looking for key and token names, \
               any literal for password and secret names. `${…}` placeholders and stand-ins like `<token>` pass.",
        why: "§7.2.1: plugins must not embed credentials in `mcp.json`, and everyone who installs the package \
              reads its `url`; a key in the query is also written to every proxy and server log on the way.",
        failing: Example::Package(&[
            ("plugin.json", EXAMPLE_PLUGIN_JSON),
            (
                "mcp.json",
                "{\n  \"$schema\": \"https://agent-plugins.org/schemas/1.0.0/mcp.schema.json\",\n  \"mcpServers\": {\n    \"issues\": {\n      \"type\": \"streamable-http\",\n      \"url\": \"https://issues.acme.dev/mcp?api_key=8f14e45fceea167a5a36dedd4bea2543a1b2c3d4\"\n    }\n  }\n}\n",
            ),
        ]),
        fixed: Example::Package(&[
            ("plugin.json", EXAMPLE_PLUGIN_JSON),
            (
                "mcp.json",
                "{\n  \"$schema\": \"https://agent-plugins.org/schemas/1.0.0/mcp.schema.json\",\n  \"mcpServers\": {\n    \"issues\": {\n      \"type\": \"streamable-http\",\n      \"url\": \"https://issues.acme.dev/mcp\"\n    }\n  }\n}\n",
            ),
        ]),
    },
};

/// Checks `url`; returns a display form without user information or query values.
pub(super) fn check_url(check: &mut ServerCheck<'_>, url: Option<&Value>) -> Option<String> {
    let pointer = check.field("url");
    let url = match url {
        Some(Value::String(url)) => url,
        Some(other) => {
            check.reject_type(&pointer, "`url`", "a string", other);
            return None;
        }
        None => {
            let server = check.pointer.clone();
            let message = "a streamable-http or sse server needs `url`, its MCP endpoint";
            check.reject(check.file.at_value(&MCP_SERVER_FIELD_MISSING, &server, message));
            return None;
        }
    };
    let file = check.file;
    if url.is_empty() {
        check.reject(file.at_value(&MCP_URL_INVALID, &pointer, "`url` is empty"));
        return None;
    }
    let secret = detect_elsewhere("`url`", url).or_else(|| detect_in_url_query(url));
    if let Some(secret) = secret {
        check.report(file.at_value(secret.rule, &pointer, secret.message));
    }
    let names = super::placeholders::placeholder_names(url);
    if !names.is_empty() {
        let message = format!(
            "`url` contains {}, but nothing is expanded in `url` (§7.2.1), so it is not a URL",
            names.join(", ")
        );
        check.reject(file.at_value(&MCP_URL_INVALID, &pointer, message));
        return None;
    }
    let iri = match Iri::parse(url.as_str()) {
        Ok(iri) => iri,
        Err(error) => {
            let message = match IriRef::parse(url.as_str()) {
                Ok(reference) if reference.scheme().is_none() => {
                    "`url` is a relative reference; it must be an absolute http or https URL".to_string()
                }
                _ => parse_problem(url, error.index()),
            };
            check.reject(file.at_value(&MCP_URL_INVALID, &pointer, message));
            return None;
        }
    };
    let scheme = iri.scheme().as_str().to_ascii_lowercase();
    if scheme != "http" && scheme != "https" {
        let message = format!("`url` scheme {scheme:?} is not http or https");
        check.reject(file.at_value(&MCP_URL_INVALID, &pointer, message));
        return None;
    }
    let Some(authority) = iri.authority().filter(|a| !a.host().is_empty()) else {
        check.reject(file.at_value(&MCP_URL_INVALID, &pointer, "`url` names no host"));
        return None;
    };
    if authority.port_to_u16().is_err() {
        check.reject(file.at_value(&MCP_URL_INVALID, &pointer, "`url` has a port above 65535"));
        return None;
    }
    if let Some(userinfo) = authority.userinfo() {
        // Reported as a secret too, so every face that quotes mcp.json masks it.
        if let Some(secret) = detect_url_password(userinfo.as_str()) {
            check.report(file.at_value(secret.rule, &pointer, secret.message));
        }
        let message = "`url` contains user information before the host; credentials must not be in the URL";
        check.reject(file.at_value(&MCP_URL_USERINFO, &pointer, message));
    }
    if iri.fragment().is_some() {
        check.reject(file.at_value(&MCP_URL_FRAGMENT, &pointer, "`url` has a fragment (`#…`)"));
    }
    let host = authority.host();
    if scheme == "http" && !is_loopback(&authority.host_parsed(), host) {
        let message =
            format!("`url` uses plain http for {host:?}; only localhost and loopback IP literals may skip HTTPS");
        check.reject(file.at_value(&MCP_URL_INSECURE, &pointer, message));
    }
    let port = authority.port().map(|p| format!(":{}", p.as_str())).unwrap_or_default();
    let query = if iri.query().is_some() { "?…" } else { "" };
    Some(format!("{scheme}://{host}{port}{}{query}", iri.path().as_str()))
}

/// A secret-named query parameter of `url` with a literal credential
/// (`?api_key=…`, `&access_token=…`).
fn detect_in_url_query(url: &str) -> Option<Secret> {
    let query = url.split_once('?')?.1;
    let query = query.split('#').next().unwrap_or("");
    let (name, value) = query
        .split(['&', ';'])
        .filter_map(|pair| pair.split_once('='))
        .find(|(name, value)| named_secret(name, value))?;
    Some(Secret {
        rule: &SECRET_IN_URL_QUERY,
        message: format!(
            "`url` query parameter {name:?} holds a literal credential ({}); everything in mcp.json is visible package data",
            masked("", value)
        ),
    })
}

/// §7.2.1: "exactly `localhost` or an IP literal in a loopback range". Host
/// names are case-insensitive (RFC 3986 §3.2.2), so `LOCALHOST` counts.
fn is_loopback<E: fluent_uri::pct_enc::Encoder>(parsed: &Host<'_, E>, host: &str) -> bool {
    match parsed {
        Host::RegName(_) => host.eq_ignore_ascii_case("localhost"),
        Host::Ipv4 { .. } => host.parse::<Ipv4Addr>().is_ok_and(|ip| ip.is_loopback()),
        Host::Ipv6 { .. } => host
            .strip_prefix('[')
            .and_then(|h| h.strip_suffix(']'))
            .and_then(|h| h.parse::<Ipv6Addr>().ok())
            .is_some_and(|ip| ip.is_loopback()),
        _ => false,
    }
}

/// Where and why `url` does not parse, naming only the offending character.
fn parse_problem(url: &str, index: usize) -> String {
    let found = url.get(index..).and_then(|rest| rest.chars().next());
    match found {
        Some(c) if c.is_whitespace() || c.is_control() => {
            format!("`url` is not a valid URL: whitespace or a control character at byte {index}")
        }
        Some(c) => format!("`url` is not a valid URL: unexpected {c:?} at byte {index}"),
        None => "`url` is not a valid URL: it ends too early".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{codes, load, one_server};
    use super::detect_in_url_query;
    use crate::report::ServerState;

    fn url_findings(kind: &str, url: &str) -> (Vec<&'static str>, ServerState, Option<String>) {
        let server = format!(
            r#"{{"type": "{kind}", "url": {}}}"#,
            serde_json::to_string(url).unwrap()
        );
        let (section, diagnostics) = load(&one_server(&server), &[]);
        let codes = codes(&diagnostics).into_iter().filter(|c| *c != "AP417").collect();
        (codes, section.servers[0].state, section.servers[0].url.clone())
    }

    #[test]
    fn https_and_loopback_http_are_valid() {
        // §7.2.1: HTTPS, or HTTP to exactly `localhost` or a loopback IP literal.
        for url in [
            "https://billing.example.com/mcp",
            "https://mcp.exa.ai/mcp?client=agent-plugin",
            "http://127.0.0.1:8080/mcp",
            "http://127.9.9.9/mcp",
            "http://localhost:8081/mcp",
            "http://[::1]:8082/mcp",
            "HTTPS://Example.COM/mcp",
        ] {
            let (codes, state, _) = url_findings("streamable-http", url);
            assert!(codes.is_empty(), "{url}: {codes:?}");
            assert_eq!(state, ServerState::Valid, "{url}");
        }
    }

    #[test]
    fn display_form_drops_query_values() {
        let (_, _, shown) = url_findings("streamable-http", "https://x.example.com:8443/mcp?key=abc");
        assert_eq!(shown.as_deref(), Some("https://x.example.com:8443/mcp?…"));
    }

    #[test]
    fn insecure_userinfo_fragment_are_each_reported() {
        // §7.2.1: no user information, no fragment, HTTPS for non-loopback hosts.
        let (codes, state, _) = url_findings("sse", "http://user:pw@mcp.example.com/events#x");
        assert_eq!(codes, ["AP504", "AP431", "AP432", "AP433"]);
        assert_eq!(state, ServerState::Invalid);
        for url in [
            "http://mcp.example.com/service",
            "http://foo.localhost/x",
            "http://10.0.0.1/x",
            "http://[::2]/x",
        ] {
            assert_eq!(url_findings("streamable-http", url).0, ["AP433"], "{url}");
        }
    }

    #[test]
    fn not_absolute_http_urls_are_invalid() {
        for url in [
            "wss://mcp.example.com/service",
            "/mcp",
            "mcp.example.com/mcp",
            "https:///mcp",
            "https://exa mple.com/mcp",
            "${MCP_URL}",
            "https://${HOST}/mcp",
            "https://mcp.example.com:70000/mcp",
            "",
        ] {
            let (codes, state, _) = url_findings("streamable-http", url);
            assert_eq!(codes, ["AP430"], "{url}");
            assert_eq!(state, ServerState::Invalid);
        }
    }

    #[test]
    fn userinfo_is_never_repeated() {
        let server = r#"{"type": "streamable-http", "url": "https://bot:s3cr3t-pass@x.example.com/mcp"}"#;
        let (section, diagnostics) = load(&one_server(server), &[]);
        let json = serde_json::to_string(&(&section, &diagnostics)).unwrap();
        assert!(!json.contains("s3cr3t-pass"), "{json}");
    }

    #[test]
    fn secret_named_query_parameters_are_found() {
        // These used to raise nothing, and another finding's snippet then quoted the key.
        let hex = "8f14e45fceea167a5a36dedd4bea2543a1b2c3d4";
        for url in [
            format!("https://api.acme.dev/mcp?api_key={hex}"),
            format!("https://api.acme.dev/mcp?x=1&access_token={hex}#top"),
        ] {
            let secret = detect_in_url_query(&url).unwrap();
            assert_eq!(secret.rule.code, "AP505");
            assert!(!secret.message.contains(hex), "{}", secret.message);
        }
        for harmless in [
            "https://api.acme.dev/mcp?api_key=${API_KEY}",
            "https://api.acme.dev/mcp?token=<token>",
            "https://api.acme.dev/mcp?page=8f14e45fceea167a5a36dedd4bea2543a1b2c3d4",
        ] {
            assert!(detect_in_url_query(harmless).is_none(), "{harmless}");
        }
    }
}
