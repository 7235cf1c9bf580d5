//! Remote `headers`: valid HTTP fields (RFC 9110 §5), each name once ignoring
//! case, sent verbatim (§7.2.1), and never a secret (checked in `rules::secrets`).
//! Messages name headers but never repeat a value.

use std::collections::HashMap;

use serde_json::Value;

use super::entry::ServerCheck;
use super::text::{child_pointer, quoted};
use crate::diag::Severity;
use crate::rule::{Example, Rule};
use crate::rules::secrets::detect::{Field, detect};

const PLUGIN_JSON: &str = super::text::EXAMPLE_PLUGIN_JSON;

pub static MCP_HEADER_NAME_INVALID: Rule = Rule {
    code: "AP434",
    name: "mcp-header-name-invalid",
    severity: Severity::Error,
    spec: "Agent Plugins §7.2.1; RFC 9110 §5.1",
    summary: "A header name is not a valid HTTP field name; that server is skipped",
    fix_hint: Some("use letters, digits and `-` (an RFC 9110 token), e.g. `X-Tenant`"),
    doc: rule_doc! {
        what: "Whether each `headers` name is a non-empty RFC 9110 token: letters, digits and \
               ``!#$%&'*+-.^_`|~``, no spaces, colons or non-ASCII.",
        why: "§7.2.1: \"Header names and values MUST be valid HTTP header fields\"; an invalid one makes the \
              entry invalid, and the client skips it (§7.2.2 rule 3).",
        failing: Example::Package(&[
            ("plugin.json", PLUGIN_JSON),
            (
                "mcp.json",
                example_mcp_json!(
                    "    \"billing\": {\"type\": \"streamable-http\", \"url\": \"https://billing.example.com/mcp\", \"headers\": {\"X Tenant\": \"acme\"}}"
                ),
            ),
        ]),
        fixed: Example::Package(&[
            ("plugin.json", PLUGIN_JSON),
            (
                "mcp.json",
                example_mcp_json!(
                    "    \"billing\": {\"type\": \"streamable-http\", \"url\": \"https://billing.example.com/mcp\", \"headers\": {\"X-Tenant\": \"acme\"}}"
                ),
            ),
        ]),
    },
};

pub static MCP_HEADER_VALUE_INVALID: Rule = Rule {
    code: "AP435",
    name: "mcp-header-value-invalid",
    severity: Severity::Error,
    spec: "Agent Plugins §7.2.1; RFC 9110 §5.5",
    summary: "A header value is not a valid HTTP field value; that server is skipped",
    fix_hint: Some("remove line breaks, control characters and leading or trailing spaces from the value"),
    doc: rule_doc! {
        what: "Whether each `headers` value is a valid RFC 9110 field value: no CR, LF, NUL or other control \
               characters (tab excepted), and no leading or trailing space or tab.",
        why: "§7.2.1: \"Header names and values MUST be valid HTTP header fields\"; a line break in a value is \
              also how headers get smuggled. The client skips the entry (§7.2.2 rule 3).",
        failing: Example::Package(&[
            ("plugin.json", PLUGIN_JSON),
            (
                "mcp.json",
                example_mcp_json!(
                    "    \"billing\": {\"type\": \"streamable-http\", \"url\": \"https://billing.example.com/mcp\", \"headers\": {\"X-Tenant\": \"acme\\r\\nX-Admin: 1\"}}"
                ),
            ),
        ]),
        fixed: Example::Package(&[
            ("plugin.json", PLUGIN_JSON),
            (
                "mcp.json",
                example_mcp_json!(
                    "    \"billing\": {\"type\": \"streamable-http\", \"url\": \"https://billing.example.com/mcp\", \"headers\": {\"X-Tenant\": \"acme\"}}"
                ),
            ),
        ]),
    },
};

pub static MCP_HEADER_DUPLICATE: Rule = Rule {
    code: "AP436",
    name: "mcp-header-duplicate",
    severity: Severity::Error,
    spec: "Agent Plugins §7.2.1",
    summary: "A header name appears more than once, ignoring case; that server is skipped",
    fix_hint: Some("keep one entry per header name"),
    doc: rule_doc! {
        what: "Header names repeated in one `headers` object, compared case-insensitively (`X-Tenant` and \
               `x-tenant` are the same header), including an exact repeat of the JSON key.",
        why: "§7.2.1: \"an entry containing the same header name more than once under different casing is \
              invalid\"; which value wins would differ between clients. The client skips the entry (§7.2.2 \
              rule 3).",
        failing: Example::Package(&[
            ("plugin.json", PLUGIN_JSON),
            (
                "mcp.json",
                example_mcp_json!(
                    "    \"billing\": {\"type\": \"streamable-http\", \"url\": \"https://billing.example.com/mcp\", \"headers\": {\"X-Tenant\": \"one\", \"x-tenant\": \"two\"}}"
                ),
            ),
        ]),
        fixed: Example::Package(&[
            ("plugin.json", PLUGIN_JSON),
            (
                "mcp.json",
                example_mcp_json!(
                    "    \"billing\": {\"type\": \"streamable-http\", \"url\": \"https://billing.example.com/mcp\", \"headers\": {\"X-Tenant\": \"one\"}}"
                ),
            ),
        ]),
    },
};

pub static MCP_HEADER_CLIENT_MANAGED: Rule = Rule {
    code: "AP437",
    name: "mcp-header-client-managed",
    severity: Severity::Info,
    spec: "Agent Plugins §7.2.1",
    summary: "A configured header is one the client generates for HTTP or MCP, so the configured value is overridden",
    fix_hint: Some("remove the header; the client sets it"),
    doc: rule_doc! {
        what: "Header names the client itself generates to speak HTTP or MCP: `Host`, `Content-Length`, \
               `Content-Type`, `Accept`, `Connection`, `Transfer-Encoding`, `Upgrade`, `TE`, `Trailer`, \
               `Keep-Alive`, `Mcp-Session-Id`, `MCP-Protocol-Version`, `Last-Event-ID`. The entry stays valid.",
        why: "§7.2.1: \"Headers generated by the client to implement HTTP, MCP, or authorization take precedence \
              over configured headers with the same case-insensitive name\"; the configured value never reaches \
              the server, which surprises whoever wrote it.",
        failing: Example::Package(&[
            ("plugin.json", PLUGIN_JSON),
            (
                "mcp.json",
                example_mcp_json!(
                    "    \"billing\": {\"type\": \"streamable-http\", \"url\": \"https://billing.example.com/mcp\", \"headers\": {\"MCP-Protocol-Version\": \"2025-06-18\"}}"
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

/// Headers a client generates to speak HTTP (RFC 9110, RFC 9112) or MCP (Streamable HTTP, HTTP+SSE), lowercase.
const CLIENT_MANAGED_HEADERS: &[&str] = &[
    "host",
    "content-length",
    "content-type",
    "accept",
    "connection",
    "transfer-encoding",
    "upgrade",
    "te",
    "trailer",
    "keep-alive",
    "mcp-session-id",
    "mcp-protocol-version",
    "last-event-id",
];

pub(super) fn check_headers(check: &mut ServerCheck<'_>, headers: &Value) {
    let pointer = check.field("headers");
    let Value::Object(entries) = headers else {
        check.reject_type(&pointer, "`headers`", "an object of strings", headers);
        return;
    };
    let file = check.file;
    // An exact repeat of a JSON key never reaches the map (the last one wins), so it comes from the parser.
    let prefix = format!("{pointer}/");
    for duplicate in &file.doc.duplicate_keys {
        if let Some(name) = duplicate
            .pointer
            .strip_prefix(&prefix)
            .filter(|rest| !rest.contains('/'))
        {
            let message = format!(
                "header {} appears more than once",
                super::text::excerpt(&unescape(name))
            );
            check.reject(file.at_key(&MCP_HEADER_DUPLICATE, &duplicate.pointer, message));
        }
    }
    let mut first_by_folded: HashMap<String, &str> = HashMap::new();
    for (name, value) in entries {
        let entry_pointer = child_pointer(&pointer, name);
        if let Some(first) = first_by_folded.insert(name.to_ascii_lowercase(), name) {
            let message = format!(
                "header {} repeats {} (header names ignore case)",
                quoted(name),
                quoted(first)
            );
            check.reject(file.at_key(&MCP_HEADER_DUPLICATE, &entry_pointer, message));
        }
        if CLIENT_MANAGED_HEADERS.contains(&name.to_ascii_lowercase().as_str()) {
            let message = format!(
                "header {} is generated by the client, whose value takes precedence over this one (§7.2.1)",
                quoted(name)
            );
            check.report(file.at_key(&MCP_HEADER_CLIENT_MANAGED, &entry_pointer, message));
        }
        if let Some(problem) = name_problem(name) {
            let message = format!(
                "header name {} is not a valid HTTP field name: {problem}",
                super::text::excerpt(name)
            );
            check.reject(file.at_key(&MCP_HEADER_NAME_INVALID, &entry_pointer, message));
        }
        let Value::String(text) = value else {
            check.reject_type(&entry_pointer, &format!("header {}", quoted(name)), "a string", value);
            continue;
        };
        if let Some(problem) = value_problem(text) {
            let message = format!(
                "the value of header {} is not a valid HTTP field value: {problem}",
                quoted(name)
            );
            check.reject(file.at_value(&MCP_HEADER_VALUE_INVALID, &entry_pointer, message));
        }
        super::placeholders::check_verbatim(check, &entry_pointer, &format!("header {}", quoted(name)), text);
        if let Some(secret) = detect(Field::Header, name, text) {
            check.report(file.at_value(secret.rule, &entry_pointer, secret.message));
        }
    }
}

/// RFC 9110 §5.6.2: `token = 1*tchar`.
fn name_problem(name: &str) -> Option<&'static str> {
    const TCHAR_SYMBOLS: &str = "!#$%&'*+-.^_`|~";
    if name.is_empty() {
        return Some("it is empty");
    }
    name.chars()
        .find(|&c| !(c.is_ascii_alphanumeric() || TCHAR_SYMBOLS.contains(c)))
        .map(|c| match c {
            ' ' | '\t' => "it contains whitespace",
            ':' => "it contains a colon",
            c if c.is_control() => "it contains a control character",
            c if !c.is_ascii() => "it contains a non-ASCII character",
            _ => "it contains a delimiter such as ( ) , / ; < = > ? @ [ \\ ] { } or \"",
        })
}

/// RFC 9110 §5.5: `field-value = *field-content`, which excludes CR, LF, NUL and
/// other controls except HTAB, and never starts or ends with whitespace.
fn value_problem(value: &str) -> Option<&'static str> {
    if value.contains(['\r', '\n']) {
        return Some("it contains a line break");
    }
    if value.contains('\0') {
        return Some("it contains a NUL character");
    }
    if value.chars().any(|c| c.is_control() && c != '\t') {
        return Some("it contains a control character");
    }
    if value.starts_with([' ', '\t']) || value.ends_with([' ', '\t']) {
        return Some("it starts or ends with whitespace");
    }
    None
}

/// The header name in a pointer token (RFC 6901 unescaping).
fn unescape(token: &str) -> String {
    token.replace("~1", "/").replace("~0", "~")
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{codes, load, one_server};
    use crate::report::ServerState;

    fn header_findings(headers: &str) -> (Vec<&'static str>, ServerState) {
        let server =
            format!(r#"{{"type": "streamable-http", "url": "https://mcp.example.com/service", "headers": {headers}}}"#);
        let (section, diagnostics) = load(&one_server(&server), &[]);
        (codes(&diagnostics), section.servers[0].state)
    }

    #[test]
    fn plain_headers_are_valid() {
        assert_eq!(
            header_findings(r#"{"X-Tenant": "public-release", "x-exa-source": "agent-plugin"}"#),
            (vec![], ServerState::Valid)
        );
    }

    #[test]
    fn duplicates_ignoring_case_are_invalid() {
        // §7.2.1: "the same header name more than once under different casing is invalid".
        assert_eq!(
            header_findings(r#"{"X-Tenant": "one", "x-tenant": "two"}"#),
            (vec!["AP436"], ServerState::Invalid)
        );
        assert_eq!(
            header_findings(r#"{"X-Tenant": "one", "X-Tenant": "two"}"#),
            (vec!["AP009", "AP436"], ServerState::Invalid)
        );
    }

    #[test]
    fn invalid_names_and_values_are_invalid() {
        // §7.2.1: "Header names and values MUST be valid HTTP header fields" (RFC 9110 §5).
        assert_eq!(
            header_findings(r#"{"Bad Header": "contains a control\u0001character"}"#),
            (vec!["AP434", "AP435"], ServerState::Invalid)
        );
        for value in [r#""a\r\nX-Admin: 1""#, r#"" padded""#, r#""nul\u0000""#] {
            assert_eq!(
                header_findings(&format!(r#"{{"X-A": {value}}}"#)).0,
                ["AP435"],
                "{value}"
            );
        }
        for name in ["", "X:A", "Ünïcode", "a(b)"] {
            assert_eq!(header_findings(&format!(r#"{{"{name}": "v"}}"#)).0, ["AP434"], "{name}");
        }
        assert_eq!(
            header_findings(r#"["X-Tenant: one"]"#),
            (vec!["AP416"], ServerState::Invalid)
        );
        assert_eq!(
            header_findings(r#"{"X-Retries": 3}"#),
            (vec!["AP416"], ServerState::Invalid)
        );
    }

    #[test]
    fn client_managed_headers_are_noted() {
        // §7.2.1: client-generated headers take precedence over configured ones.
        assert_eq!(
            header_findings(r#"{"content-type": "text/plain", "Mcp-Session-Id": "abc"}"#),
            (vec!["AP437", "AP437"], ServerState::Valid)
        );
    }

    #[test]
    fn placeholders_in_headers_stay_literal() {
        // §7.2.1: "Clients MUST NOT perform placeholder or environment-variable expansion in … header values."
        assert_eq!(
            header_findings(r#"{"Authorization": "Bearer ${API_TOKEN}"}"#),
            (vec!["AP440"], ServerState::Valid)
        );
    }
}
