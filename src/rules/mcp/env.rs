//! The stdio `env`: strings only, never the reserved names (§9.1, §9.2),
//! names every platform can carry, and never a secret (§9.2, checked in
//! `rules::secrets`).

use serde_json::Value;

use super::entry::ServerCheck;
use super::placeholders::{DATA_NAME, ROOT_NAME};
use super::text::{child_pointer, quoted};
use crate::diag::Severity;
use crate::rule::{Example, Rule};
use crate::rules::secrets::detect::{Field, detect};

const PLUGIN_JSON: &str = super::text::EXAMPLE_PLUGIN_JSON;

pub static MCP_ENV_RESERVED: Rule = Rule {
    code: "AP425",
    name: "mcp-env-reserved",
    severity: Severity::Error,
    spec: "Agent Plugins §9.2, §9.1",
    summary: "A stdio `env` sets `PLUGIN_ROOT` or `PLUGIN_DATA`; that server is skipped",
    fix_hint: Some("remove the entry: the client sets PLUGIN_ROOT and PLUGIN_DATA itself"),
    doc: rule_doc! {
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

pub static MCP_ENV_NAME_UNPORTABLE: Rule = Rule {
    code: "AP426",
    name: "mcp-env-name-unportable",
    severity: Severity::Warning,
    spec: "Agent Plugins §9.1",
    summary: "An `env` name that some platform cannot set, or reads as another name",
    fix_hint: Some("use a distinct name of letters, digits and `_`"),
    doc: rule_doc! {
        what: "`env` names that are empty or hold `=` or NUL, differ from PLUGIN_ROOT or PLUGIN_DATA only in \
               case, or differ from each other only in case.",
        why: "§9.1 applies platform name rules. No platform sets an empty name or one with `=` or NUL: the \
              launch fails or the server sees another variable. Windows ignores case: the client's value \
              replaces `Plugin_Root`, and one of `Path` and `PATH` is lost. The schema allows them, hence a warning.",
        failing: Example::Package(&[
            ("plugin.json", PLUGIN_JSON),
            (
                "mcp.json",
                example_mcp_json!(
                    "    \"tools\": {\"type\": \"stdio\", \"command\": \"uvx\", \"env\": {\"Plugin_Data\": \"/tmp/tools\"}}"
                ),
            ),
        ]),
        fixed: Example::Package(&[
            ("plugin.json", PLUGIN_JSON),
            (
                "mcp.json",
                example_mcp_json!(
                    "    \"tools\": {\"type\": \"stdio\", \"command\": \"uvx\", \"env\": {\"TOOLS_DATA\": \"/tmp/tools\"}}"
                ),
            ),
        ]),
    },
};

/// Why `name` may not reach the server on some platform, given the names before it.
fn unportable_name(name: &str, earlier: &[&String]) -> Option<String> {
    if name.is_empty() {
        return Some(
            "an empty `env` name cannot be set on any platform: the client refuses to start the server or drops it"
                .into(),
        );
    }
    if let Some(bad) = name.chars().find(|c| matches!(c, '=' | '\0')) {
        let what = if bad == '=' { "`=`" } else { "a NUL character" };
        return Some(format!(
            "`env` name {} contains {what}, which no platform allows in a name: the client refuses to start the server, or the server sees another variable",
            quoted(name)
        ));
    }
    if let Some(reserved) = [ROOT_NAME, DATA_NAME]
        .into_iter()
        .find(|reserved| name != *reserved && name.eq_ignore_ascii_case(reserved))
    {
        return Some(format!(
            "`env` name {} is {reserved} on Windows, where names ignore case; the client's own value replaces it there (§9.1)",
            quoted(name)
        ));
    }
    let twin = earlier.iter().find(|other| other.eq_ignore_ascii_case(name))?;
    Some(format!(
        "`env` names {} and {} are one variable on Windows, where names ignore case; only one value reaches the server there",
        quoted(twin),
        quoted(name)
    ))
}

pub(super) fn check_env(check: &mut ServerCheck<'_>, env: &Value) {
    let pointer = check.field("env");
    let Value::Object(entries) = env else {
        check.reject_type(&pointer, "`env`", "an object of strings", env);
        return;
    };
    let mut earlier: Vec<&String> = Vec::with_capacity(entries.len());
    for (name, value) in entries {
        let entry_pointer = child_pointer(&pointer, name);
        if matches!(name.as_str(), "PLUGIN_ROOT" | "PLUGIN_DATA") {
            let message = format!("`env` must not set {}: the client provides it (§9.2)", quoted(name));
            check.reject(check.file.at_key(&MCP_ENV_RESERVED, &entry_pointer, message));
        } else if let Some(message) = unportable_name(name, &earlier) {
            check.report(check.file.at_key(&MCP_ENV_NAME_UNPORTABLE, &entry_pointer, message));
        }
        earlier.push(name);
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
        if let Some(secret) = detect(Field::Env, name, text) {
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
    fn names_some_platform_cannot_carry_are_warned_and_the_server_stays_valid() {
        // §9.1: env overlays the base environment "according to platform environment-name semantics".
        let server = r#"{"type": "stdio", "command": "uvx", "env": {"": "a", "A=B": "b", "N\u0000UL": "c", "plugin_root": "d", "Plugin_Data": "e", "PATH": "/x", "Path": "/y"}}"#;
        let (section, diagnostics) = load(&one_server(server), &[]);
        assert_eq!(codes(&diagnostics), ["AP426"; 6]);
        let pointers: Vec<_> = diagnostics.iter().filter_map(|d| d.pointer.as_deref()).collect();
        assert_eq!(
            pointers,
            [
                "/mcpServers/s/env/",
                "/mcpServers/s/env/A=B",
                "/mcpServers/s/env/N\u{0}UL",
                "/mcpServers/s/env/plugin_root",
                "/mcpServers/s/env/Plugin_Data",
                "/mcpServers/s/env/Path"
            ]
        );
        for (index, part) in [(3, "PLUGIN_ROOT on Windows"), (5, "\"PATH\" and \"Path\"")] {
            assert!(
                diagnostics[index].message.contains(part),
                "{}",
                diagnostics[index].message
            );
        }
        assert_eq!(section.servers[0].state, ServerState::Valid);
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
