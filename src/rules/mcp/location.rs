//! Where `mcp.json` is and what kind of thing it is (§6.2, §4.1 boundary 2).

use super::MCP_PATH;
use crate::diag::Diagnostic;
use crate::rules::{Example, Rule, RuleDoc};
use crate::tree::{Entry, Resolved, Tree, Unresolved};

pub static MCP_CONFIG_WRONG_KIND: Rule = Rule {
    code: "AP401",
    name: "mcp-config-wrong-kind",
    severity: crate::diag::Severity::Error,
    spec: "Agent Plugins §6.2, §4.1",
    summary: "`mcp.json` is present but is not a regular file inside the plugin root; MCP is disabled",
    fix_hint: Some("make `mcp.json` a regular JSON file at the plugin root (a link may point only inside the root)"),
    doc: RuleDoc {
        what: "Whether the path `mcp.json` at the plugin root resolves to a regular file inside the root. A \
               directory, a device, a dangling link, a link cycle or a link leading outside the root all fail.",
        why: "§6.2: a fixed component location that does not resolve to the expected kind makes that component \
              type invalid; §4.1 boundary 2 does the same for a location resolving outside the root. A client \
              disables MCP for the plugin and loads its skills without it.",
        failing: Example::Package(&[
            (
                "plugin.json",
                r#"{"$schema": "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json", "name": "demo"}"#,
            ),
            ("mcp.json/servers.json", "{}"),
        ]),
        fixed: Example::Package(&[
            (
                "plugin.json",
                r#"{"$schema": "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json", "name": "demo"}"#,
            ),
            (
                "mcp.json",
                r#"{"$schema": "https://agent-plugins.org/schemas/1.0.0/mcp.schema.json", "mcpServers": {}}"#,
            ),
        ]),
    },
};

pub(super) enum Config<'t> {
    /// No `mcp.json` at all: not an error (§6.2).
    Absent,
    /// Present but unusable; already reported.
    Unusable,
    Text(&'t str),
}

/// Finds `mcp.json` and returns its text, or why MCP is off.
pub(super) fn read_config<'t>(tree: &'t Tree, diagnostics: &mut Vec<Diagnostic>) -> Config<'t> {
    if tree.entry(MCP_PATH).is_none() {
        return Config::Absent;
    }
    let problem = match tree.resolve(MCP_PATH) {
        Ok(Resolved {
            entry: Entry::File(bytes),
            ..
        }) => match std::str::from_utf8(bytes) {
            Ok(text) => return Config::Text(text),
            Err(error) => {
                diagnostics.push(
                    Diagnostic::new(
                        &super::document::MCP_CONFIG_INVALID_JSON,
                        format!(
                            "mcp.json is not UTF-8 (invalid byte at offset {}); JSON text must be UTF-8 (RFC 8259 §8.1)",
                            error.valid_up_to()
                        ),
                    )
                    .in_file(MCP_PATH),
                );
                return Config::Unusable;
            }
        },
        Ok(Resolved {
            entry: Entry::Dir,
            path,
            ..
        }) => format!("mcp.json resolves to a directory ({})", shown(path)),
        Ok(Resolved {
            entry: Entry::Unreadable(why),
            ..
        }) => format!("mcp.json could not be read: {why}"),
        Ok(Resolved {
            entry: Entry::Other(what),
            ..
        }) => format!("mcp.json is a {what}, not a regular file"),
        Ok(_) => "mcp.json does not resolve to a regular file".to_string(),
        Err(Unresolved::Missing) => "mcp.json is a link whose target does not exist".to_string(),
        Err(Unresolved::Escapes { link }) => {
            format!("mcp.json resolves outside the plugin root through the link `{link}` (§4.1)")
        }
        Err(Unresolved::Loop { link }) => format!("mcp.json does not resolve: the link `{link}` loops"),
    };
    diagnostics.push(
        Diagnostic::new(
            &MCP_CONFIG_WRONG_KIND,
            format!("{problem}; MCP is disabled for this plugin"),
        )
        .in_file(MCP_PATH),
    );
    Config::Unusable
}

fn shown(path: &str) -> &str {
    if path.is_empty() { "the plugin root" } else { path }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{codes, load_tree};
    use crate::report::McpState;
    use crate::tree::{Entry, Tree};

    #[test]
    fn absent_mcp_json_is_not_an_error() {
        // §6.2: "If a fixed component location is absent, the client MUST NOT treat that as an error."
        let (section, diagnostics) = load_tree(&Tree::from_files([("plugin.json", "{}")]));
        assert_eq!(section.state, McpState::Absent);
        assert!(diagnostics.is_empty());
    }

    #[test]
    fn directory_disables_mcp() {
        // §6.2: present but not a regular file → component type invalid.
        let mut tree = Tree::new();
        tree.insert("mcp.json", Entry::Dir);
        let (section, diagnostics) = load_tree(&tree);
        assert_eq!(section.state, McpState::Disabled);
        assert_eq!(codes(&diagnostics), ["AP401"]);
    }

    #[test]
    fn escaping_or_looping_link_disables_mcp() {
        // §4.1 boundary 2: a fixed location resolving outside the root is invalid.
        for target in ["../outside/mcp.json", "mcp.json"] {
            let mut tree = Tree::new();
            tree.insert("mcp.json", Entry::Symlink(target.into()));
            let (section, diagnostics) = load_tree(&tree);
            assert_eq!(section.state, McpState::Disabled, "{target}");
            assert_eq!(codes(&diagnostics), ["AP401"], "{target}");
        }
    }

    #[test]
    fn link_to_a_file_inside_the_root_is_followed() {
        let mut tree = Tree::from_files([(
            "config/mcp.json",
            r#"{"$schema": "https://agent-plugins.org/schemas/1.0.0/mcp.schema.json", "mcpServers": {}}"#,
        )]);
        tree.insert("mcp.json", Entry::Symlink("config/mcp.json".into()));
        let (section, diagnostics) = load_tree(&tree);
        assert_eq!(section.state, McpState::Loaded);
        assert!(diagnostics.is_empty(), "{diagnostics:?}");
    }

    #[test]
    fn invalid_utf8_disables_mcp() {
        let mut tree = Tree::new();
        tree.insert("mcp.json", Entry::File(vec![b'{', 0xff, b'}']));
        let (section, diagnostics) = load_tree(&tree);
        assert_eq!(section.state, McpState::Disabled);
        assert_eq!(codes(&diagnostics), ["AP402"]);
    }
}
