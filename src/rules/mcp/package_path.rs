//! A `command` or `cwd` that names a place in the package or the plugin data
//! directory, resolved the way the client's filesystem would (§4.1, §7.2.1).

use super::entry::ServerCheck;
use crate::diag::{Diagnostic, Severity};
use crate::rule::{Example, Rule};
use crate::rules::containment::{PATH_ESCAPES_ROOT, unresolved_diagnostic};
use crate::tree::{Entry, Resolved, Unresolved};

const PLUGIN_JSON: &str = super::text::EXAMPLE_PLUGIN_JSON;

pub static MCP_PATH_MISSING: Rule = Rule {
    code: "AP422",
    name: "mcp-path-missing",
    severity: Severity::Warning,
    spec: "Agent Plugins §7.2.1, §7.2.2",
    summary: "A server's `./` command or package working directory does not exist in the package",
    fix_hint: Some("ship the file or directory in the package, or fix the path"),
    doc: rule_doc! {
        what: "Whether a `./` command or a `./` / `${PLUGIN_ROOT}` working directory exists in the package. The \
               entry stays valid: a path inside the root is a valid configuration even if nothing is there.",
        why: "The client resolves the path against the plugin root (§7.2.1) and the server then fails to start, \
              which the client reports as a start failure (§7.2.2 rule 5). Usually a build step forgot to \
              bundle the executable.",
        failing: Example::Package(&[
            ("plugin.json", PLUGIN_JSON),
            (
                "mcp.json",
                example_mcp_json!("    \"tools\": {\"type\": \"stdio\", \"command\": \"./bin/tools\"}"),
            ),
        ]),
        fixed: Example::Package(&[
            ("plugin.json", PLUGIN_JSON),
            ("bin/tools", "#!/bin/sh\n"),
            (
                "mcp.json",
                example_mcp_json!("    \"tools\": {\"type\": \"stdio\", \"command\": \"./bin/tools\"}"),
            ),
        ]),
    },
};

pub static MCP_PATH_WRONG_KIND: Rule = Rule {
    code: "AP423",
    name: "mcp-path-wrong-kind",
    severity: Severity::Error,
    spec: "Agent Plugins §7.2.1, §7.2.2",
    summary: "A server's `./` command is not a file, or its package working directory is not a directory",
    fix_hint: Some("point `command` at the executable file and `cwd` at a directory"),
    doc: rule_doc! {
        what: "The kind of what a `./` command or a package working directory resolves to: a command must be a \
               regular file, a working directory a directory.",
        why: "The configuration is valid, so the client loads the entry, but launching it always fails: a \
              directory cannot be executed and a file cannot be a working directory (§7.2.2 rule 5).",
        failing: Example::Package(&[
            ("plugin.json", PLUGIN_JSON),
            ("bin/tools/run", "#!/bin/sh\n"),
            (
                "mcp.json",
                example_mcp_json!("    \"tools\": {\"type\": \"stdio\", \"command\": \"./bin/tools\"}"),
            ),
        ]),
        fixed: Example::Package(&[
            ("plugin.json", PLUGIN_JSON),
            ("bin/tools/run", "#!/bin/sh\n"),
            (
                "mcp.json",
                example_mcp_json!("    \"tools\": {\"type\": \"stdio\", \"command\": \"./bin/tools/run\"}"),
            ),
        ]),
    },
};

/// What a path must resolve to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Wanted {
    /// An executable: a regular file.
    File,
    /// A working directory.
    Dir,
}

/// Checks `relative` (the part after `./` or `${PLUGIN_ROOT}/`) against the
/// package; `shown` is the configured text, `what` names the field.
pub(super) fn check_in_root(
    check: &mut ServerCheck<'_>,
    pointer: &str,
    what: &str,
    shown: &str,
    relative: &str,
    wanted: Wanted,
) {
    let file = check.file;
    let resolved = if super::placeholders::has_plugin_placeholder(relative) {
        // A placeholder inside the path expands to an absolute path the
        // package cannot show; only the `..` steps can still be judged.
        if !climbs_out(relative) {
            return;
        }
        Err(Unresolved::Escapes {
            link: relative.to_string(),
        })
    } else {
        check.tree.resolve(relative)
    };
    let unresolved = match resolved {
        Ok(Resolved { entry, path, via_link }) => {
            let found = match (check.tree.settled(path, entry), wanted) {
                (Entry::File(_), Wanted::File) | (Entry::Dir, Wanted::Dir) => return,
                (Entry::Dir, Wanted::File) => "a directory, not an executable file",
                (Entry::File(_), Wanted::Dir) => "a file, not a directory",
                (Entry::Other(_) | Entry::Unreadable(_) | Entry::Symlink(_), _) => "not a regular file or directory",
            };
            let target = if via_link {
                format!(" (through links, `{}`)", if path.is_empty() { "." } else { path })
            } else {
                String::new()
            };
            let message = format!("{what} {} is {found}{target}", super::text::excerpt(shown));
            check.report(file.at_value(&MCP_PATH_WRONG_KIND, pointer, message));
            return;
        }
        // The first missing component stops resolution; `..` steps after it may still climb out.
        Err(Unresolved::Missing) if climbs_out(relative) => Unresolved::Escapes {
            link: relative.to_string(),
        },
        Err(Unresolved::Missing) => {
            let message = format!(
                "{what} {} does not exist in the package; the client will fail to start this server",
                super::text::excerpt(shown)
            );
            check.report(file.at_value(&MCP_PATH_MISSING, pointer, message));
            return;
        }
        Err(unresolved) => unresolved,
    };
    // §4.1 boundary 4: a `command` or `cwd` failing containment invalidates the server.
    let consequence = "this server is skipped (§4.1, §7.2.2)";
    let diagnostic = match &unresolved {
        Unresolved::Escapes { link } if check.tree.entry(link).is_none_or(|e| !matches!(e, Entry::Symlink(_))) => {
            let message = format!(
                "{what} {} climbs above the plugin root with `..`; {consequence}",
                super::text::excerpt(shown)
            );
            Some(
                Diagnostic::new(&PATH_ESCAPES_ROOT, message)
                    .with_hint("keep the path inside the package: remove the `..` steps that climb out"),
            )
        }
        _ => unresolved_diagnostic(check.tree, shown, &unresolved, consequence),
    };
    if let Some(diagnostic) = diagnostic {
        check.reject(check.place(diagnostic, pointer));
    }
}

/// Whether the `..` steps of `relative` climb above its base, judged on the
/// text alone (for the data directory, which is not in the package).
pub(super) fn climbs_out(relative: &str) -> bool {
    let mut depth: usize = 0;
    for component in relative.split(['/', '\\']) {
        match component {
            "" | "." => {}
            ".." => match depth.checked_sub(1) {
                Some(up) => depth = up,
                None => return true,
            },
            _ => depth += 1,
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{codes, load, load_tree, one_server};
    use super::climbs_out;
    use crate::report::ServerState;
    use crate::tree::{Entry, Tree};

    #[test]
    fn lexical_climbing() {
        assert!(climbs_out(".."));
        assert!(climbs_out("a/../../b"));
        assert!(climbs_out("a\\..\\..\\b"));
        assert!(!climbs_out("a/../b"));
        assert!(!climbs_out(""));
    }

    #[test]
    fn escape_link_cwd_is_invalid() {
        // §4.1: `cwd: ./escape-link` with `escape-link -> ..` fails containment (boundary 4).
        let mut tree = Tree::from_files([(
            "mcp.json",
            one_server(r#"{"type": "stdio", "command": "uvx", "cwd": "./escape-link"}"#),
        )]);
        tree.insert("escape-link", Entry::Symlink("..".into()));
        let (section, diagnostics) = load_tree(&tree);
        assert_eq!(codes(&diagnostics), ["AP101"]);
        assert!(diagnostics[0].message.contains("escape-link"));
        assert_eq!(section.servers[0].state, ServerState::Invalid);
    }

    #[test]
    fn command_escaping_through_dot_dot_is_invalid() {
        // §4.1 boundary 4: `./../outside/example` escapes.
        let (section, diagnostics) = load(
            &one_server(r#"{"type": "stdio", "command": "./../outside/example"}"#),
            &[],
        );
        assert_eq!(codes(&diagnostics), ["AP101"]);
        assert_eq!(section.servers[0].state, ServerState::Invalid);
        let (_, diagnostics) = load(&one_server(r#"{"type": "stdio", "command": "./gone/../../x"}"#), &[]);
        assert_eq!(codes(&diagnostics), ["AP101"]);
    }

    #[test]
    fn missing_command_is_a_warning_and_stays_valid() {
        let (section, diagnostics) = load(&one_server(r#"{"type": "stdio", "command": "./bin/server"}"#), &[]);
        assert_eq!(codes(&diagnostics), ["AP422"]);
        assert_eq!(section.servers[0].state, ServerState::Valid);
    }

    #[test]
    fn command_path_with_spaces_and_dot_dot_inside_is_fine() {
        // §7.2.1: a `./` path is one token even with spaces; `bin/../bin` stays inside.
        let server = r#"{"type": "stdio", "command": "./bin/../bin/probe token.sh"}"#;
        let (section, diagnostics) = load(&one_server(server), &[("bin/probe token.sh", "#!/bin/sh")]);
        assert!(diagnostics.is_empty(), "{diagnostics:?}");
        assert_eq!(
            section.servers[0].command.as_deref(),
            Some("./bin/../bin/probe token.sh")
        );
    }

    #[test]
    fn wrong_kinds_are_errors_but_the_entry_loads() {
        let (section, diagnostics) = load(
            &one_server(r#"{"type": "stdio", "command": "./bin", "cwd": "./bin/run"}"#),
            &[("bin/run", "x")],
        );
        assert_eq!(codes(&diagnostics), ["AP423", "AP423"]);
        assert_eq!(section.servers[0].state, ServerState::Valid);
    }
}
