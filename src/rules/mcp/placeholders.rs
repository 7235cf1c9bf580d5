//! Placeholder-like text that a client leaves literal (§9.2, §7.2.1): only
//! `${PLUGIN_ROOT}` and `${PLUGIN_DATA}` expand, and only in `args`, `env`
//! values and `cwd`. Only identifier-like names are ever quoted back, so a
//! value's other text (possibly a secret) never reaches a message.

use super::entry::ServerCheck;
use crate::diag::Severity;
use crate::rule::{Example, Rule};

const PLUGIN_JSON: &str = super::text::EXAMPLE_PLUGIN_JSON;

pub static MCP_PLACEHOLDER_LITERAL: Rule = Rule {
    code: "AP440",
    name: "mcp-placeholder-literal",
    severity: Severity::Info,
    spec: "Agent Plugins §9.2, §7.2.1",
    summary: "A `${NAME}` in the configuration is not expanded and reaches the server as literal text",
    fix_hint: Some(
        "Agent Plugins has no user-variable substitution: let the server read its own environment or settings, \
         and use ${PLUGIN_ROOT} / ${PLUGIN_DATA} only where they expand",
    ),
    doc: rule_doc! {
        what: "`${NAME}` text other than `${PLUGIN_ROOT}` and `${PLUGIN_DATA}` in `args`, `env` values and \
               `cwd`, and any `${NAME}` in `command`, `env` names or header values.",
        why: "§9.2: \"Unrecognized placeholder-like text MUST remain literal\" and expansion never applies to \
              `command`; §7.2.1: nothing expands in headers. Vendor formats expand `${API_KEY}`, so a config \
              copied from one silently sends the literal text.",
        failing: Example::Package(&[
            ("plugin.json", PLUGIN_JSON),
            (
                "mcp.json",
                example_mcp_json!(
                    "    \"tools\": {\"type\": \"stdio\", \"command\": \"uvx\", \"args\": [\"tools-server\", \"--cache\", \"${HOME}/.cache\"]}"
                ),
            ),
        ]),
        fixed: Example::Package(&[
            ("plugin.json", PLUGIN_JSON),
            (
                "mcp.json",
                example_mcp_json!(
                    "    \"tools\": {\"type\": \"stdio\", \"command\": \"uvx\", \"args\": [\"tools-server\", \"--cache\", \"${PLUGIN_DATA}/cache\"]}"
                ),
            ),
        ]),
    },
};

/// The name of the variable a client expands to the plugin root (§9.2).
pub const ROOT_NAME: &str = "PLUGIN_ROOT";
/// The name of the variable a client expands to the plugin's data directory (§9.2).
pub const DATA_NAME: &str = "PLUGIN_DATA";
/// The two variables of §9.2, the only ones a client expands.
const EXPANDED: [&str; 2] = [ROOT_NAME, DATA_NAME];
/// [`ROOT_NAME`] as it is written in a value.
pub const PLUGIN_ROOT: &str = "${PLUGIN_ROOT}";
/// [`DATA_NAME`] as it is written in a value.
pub const PLUGIN_DATA: &str = "${PLUGIN_DATA}";

/// Notes placeholders that stay literal in a field where the two plugin variables expand.
pub(super) fn check_expanded(check: &mut ServerCheck<'_>, pointer: &str, field: &str, value: &str) {
    let literal: Vec<String> = placeholder_names(value)
        .into_iter()
        .filter(|p| !EXPANDED.iter().any(|name| p[2..p.len() - 1] == **name))
        .collect();
    if !literal.is_empty() {
        let message = format!(
            "{} in {field} stays literal: only ${{PLUGIN_ROOT}} and ${{PLUGIN_DATA}} are expanded (§9.2)",
            literal.join(", ")
        );
        check.report(check.file.at_value(&MCP_PLACEHOLDER_LITERAL, pointer, message));
    }
}

/// Notes placeholders in a field where nothing expands (`command`, `env` names, header values).
pub(super) fn check_verbatim(check: &mut ServerCheck<'_>, pointer: &str, field: &str, value: &str) {
    let names = placeholder_names(value);
    if !names.is_empty() {
        let message = format!(
            "{} in {field} is sent as written: nothing is expanded here",
            names.join(", ")
        );
        check.report(check.file.at_value(&MCP_PLACEHOLDER_LITERAL, pointer, message));
    }
}

/// Every `${NAME}` in `text` whose name is an identifier, as written.
pub(super) fn placeholder_names(text: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find("${") {
        let after = &rest[start + 2..];
        let Some(end) = after.find('}') else { break };
        let name = &after[..end];
        let is_identifier = name.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        if is_identifier {
            let placeholder = format!("${{{name}}}");
            if !names.contains(&placeholder) {
                names.push(placeholder);
            }
        }
        rest = &after[end + 1..];
    }
    names
}

/// Whether `text` holds one of the two placeholders that expand to absolute paths.
pub(super) fn has_plugin_placeholder(text: &str) -> bool {
    text.contains(PLUGIN_ROOT) || text.contains(PLUGIN_DATA)
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{codes, load, one_server};
    use super::{DATA_NAME, PLUGIN_DATA, PLUGIN_ROOT, ROOT_NAME, placeholder_names};

    #[test]
    fn the_written_placeholders_are_the_names() {
        assert_eq!(PLUGIN_ROOT, format!("${{{ROOT_NAME}}}"));
        assert_eq!(PLUGIN_DATA, format!("${{{DATA_NAME}}}"));
    }

    #[test]
    fn only_identifier_names_are_found() {
        assert_eq!(
            placeholder_names("a ${X} ${PLUGIN_ROOT}/b ${X} ${not valid} ${"),
            ["${X}", "${PLUGIN_ROOT}"]
        );
    }

    #[test]
    fn unknown_placeholders_in_args_and_env_are_noted() {
        // §9.2: "Unrecognized placeholder-like text MUST remain literal."
        let server = r#"{"type": "stdio", "command": "uvx", "args": ["${PLUGIN_ROOT}/a", "${WORKSPACE}"], "env": {"K": "${HOME}/x"}}"#;
        let (section, diagnostics) = load(&one_server(server), &[]);
        assert_eq!(codes(&diagnostics), ["AP440", "AP440"]);
        assert_eq!(diagnostics[0].pointer.as_deref(), Some("/mcpServers/s/args/1"));
        assert!(diagnostics[1].message.contains("${HOME}"));
        assert_eq!(section.servers[0].state, crate::report::ServerState::Valid);
    }

    #[test]
    fn plugin_placeholders_are_quiet() {
        let server = r#"{"type": "stdio", "command": "uvx", "args": ["--data", "${PLUGIN_DATA}/v"], "env": {"C": "${PLUGIN_ROOT}/c"}}"#;
        let (_, diagnostics) = load(&one_server(server), &[]);
        assert!(diagnostics.is_empty(), "{diagnostics:?}");
    }
}
