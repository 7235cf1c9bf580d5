//! The stdio `env`: strings only, never the reserved names (§9.1, §9.2), and
//! never a secret (§9.2, checked in `rules::secrets`).

use serde_json::Value;

use super::entry::ServerCheck;
use super::text::{child_pointer, quoted};
use crate::diag::Severity;
use crate::rule::{Example, Rule, RuleDoc};
use crate::rules::secrets::{self, Field};

const PLUGIN_JSON: &str = super::text::EXAMPLE_PLUGIN_JSON;

pub static MCP_ENV_RESERVED: Rule = Rule {
    code: "AP425",
    name: "mcp-env-reserved",
    severity: Severity::Error,
    spec: "Agent Plugins §9.2, §9.1",
    summary: "A stdio `env` sets `PLUGIN_ROOT` or `PLUGIN_DATA`; that server is skipped",
    fix_hint: Some("remove the entry: the client sets PLUGIN_ROOT and PLUGIN_DATA itself"),
    doc: RuleDoc {
        what: "Entries of `env` named exactly `PLUGIN_ROOT` or `PLUGIN_DATA`.",
        why: "§9.2: such an entry \"makes that server configuration invalid under §7.2.2\"; clients supply both \
              variables themselves (§9.1). The client skips the server.",
        failing: Example::Package(&[
            ("plugin.json", PLUGIN_JSON),
            (
                "mcp.json",
                example_mcp_json!(
                    "    \"tools\": {\"type\": \"stdio\", \"command\": \"uvx\", \"env\": {\"PLUGIN_DATA\": \"/tmp/tools\"}}"
                ),
            ),
        ]),
        fixed: Example::Package(&[
            ("plugin.json", PLUGIN_JSON),
            (
                "mcp.json",
                example_mcp_json!(
                    "    \"tools\": {\"type\": \"stdio\", \"command\": \"uvx\", \"env\": {\"TOOLS_CACHE\": \"${PLUGIN_DATA}/cache\"}}"
                ),
            ),
        ]),
    },
};

pub(super) fn check_env(check: &mut ServerCheck<'_>, env: &Value) {
    let pointer = check.field("env");
    let Value::Object(entries) = env else {
        check.reject_type(&pointer, "`env`", "an object of strings", env);
        return;
    };
    for (name, value) in entries {
        let entry_pointer = child_pointer(&pointer, name);
        if matches!(name.as_str(), "PLUGIN_ROOT" | "PLUGIN_DATA") {
            let message = format!("`env` must not set {}: the client provides it (§9.2)", quoted(name));
            check.reject(check.file.at_key(&MCP_ENV_RESERVED, &entry_pointer, message));
        }
        // §9.2: expansion "does not apply to `env` keys".
        super::placeholders::check_verbatim(check, &entry_pointer, "an `env` name", name);
        let Value::String(text) = value else {
            check.reject_type(
                &entry_pointer,
                &format!("`env` value {}", quoted(name)),
                "a string",
                value,
            );
            continue;
        };
        super::placeholders::check_expanded(check, &entry_pointer, "`env`", text);
        if let Some(secret) = secrets::detect(Field::Env, name, text) {
            check.report(check.file.at_value(secret.rule, &entry_pointer, secret.message));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{codes, load, one_server};
    use crate::report::ServerState;

    #[test]
    fn reserved_names_are_invalid() {
        // §9.2: "MUST NOT contain entries named `PLUGIN_ROOT` or `PLUGIN_DATA`".
        let server = r#"{"type": "stdio", "command": "uvx", "env": {"PLUGIN_ROOT": "/a", "PLUGIN_DATA": "/b"}}"#;
        let (section, diagnostics) = load(&one_server(server), &[]);
        assert_eq!(codes(&diagnostics), ["AP425", "AP425"]);
        assert_eq!(diagnostics[0].pointer.as_deref(), Some("/mcpServers/s/env/PLUGIN_ROOT"));
        assert_eq!(section.servers[0].state, ServerState::Invalid);
    }

    #[test]
    fn values_must_be_strings() {
        let server = r#"{"type": "stdio", "command": "uvx", "env": {"RETRIES": 3}}"#;
        let (section, diagnostics) = load(&one_server(server), &[]);
        assert_eq!(codes(&diagnostics), ["AP416"]);
        assert_eq!(section.servers[0].state, ServerState::Invalid);
        let (_, diagnostics) = load(
            &one_server(r#"{"type": "stdio", "command": "uvx", "env": ["A=1"]}"#),
            &[],
        );
        assert_eq!(codes(&diagnostics), ["AP416"]);
    }

    #[test]
    fn placeholders_in_names_are_not_expanded() {
        let server = r#"{"type": "stdio", "command": "uvx", "env": {"${PLUGIN_ROOT}_DIR": "x"}}"#;
        let (_, diagnostics) = load(&one_server(server), &[]);
        assert_eq!(codes(&diagnostics), ["AP440"]);
    }

    #[test]
    fn plain_settings_and_plugin_placeholders_are_fine() {
        let server = r#"{"type": "stdio", "command": "uvx", "env": {"CONFIG": "${PLUGIN_ROOT}/c.json", "MODE": "public", "EMPTY_TOKEN": ""}}"#;
        let (section, diagnostics) = load(&one_server(server), &[]);
        assert!(diagnostics.is_empty(), "{diagnostics:?}");
        assert_eq!(section.servers[0].state, ServerState::Valid);
    }
}
