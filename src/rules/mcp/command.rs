//! The stdio `command`: one executable token, a bare name or a `./` path (§7.2.1).

use serde_json::Value;

use super::entry::{MCP_SERVER_FIELD_MISSING, ServerCheck};
use super::package_path::{Wanted, check_in_root};
use super::placeholders::{PLUGIN_DATA, PLUGIN_ROOT};
use crate::diag::{Diagnostic, Severity};
use crate::fix::{Edit, Fix, json_edits};
use crate::rule::{Example, Rule};

const PLUGIN_JSON: &str = super::text::EXAMPLE_PLUGIN_JSON;

pub static MCP_COMMAND_NOT_A_TOKEN: Rule = Rule {
    code: "AP420",
    name: "mcp-command-not-a-token",
    severity: Severity::Error,
    spec: "Agent Plugins §7.2.1, §4.1, §9.2",
    summary: "A stdio `command` is not one executable token (a bare name or a `./` path); that server is skipped",
    fix_hint: None,
    doc: rule_doc! {
        what: "The form of `command`: a non-empty bare executable name (no path separator, no whitespace, no \
               shell syntax), or a plugin-relative path beginning with `./` (which may contain spaces). A shell \
               string such as `npx -y server`, an absolute path, `../x`, `bin/x` and `${PLUGIN_ROOT}/x` all \
               fail, each with its own message.",
        why: "§7.2.1: `command` \"MUST contain a single executable token, not a shell command string\" and \
              \"MUST be either a bare executable name or a plugin-relative path beginning with `./`\"; §4.1 \
              requires plugin-relative paths to start with `./`; §9.2: `command` is never expanded. The entry \
              is invalid and skipped (§7.2.2 rule 3). The fix splits a command line into `command` and \
              `args` as a POSIX shell splits words (quotes group, and are removed), the same splitting as \
              `apcheck new --stdio-server`; words already in `args` follow the new ones. It is offered only when \
              the line has no shell syntax (pipes, redirects, `$` expansions, globs, `;`, `&`), no leading \
              `NAME=value` assignment, and a first word that is itself a valid `command`: a shell would do more \
              with those than split them.",
        failing: Example::Package(&[
            ("plugin.json", PLUGIN_JSON),
            (
                "mcp.json",
                example_mcp_json!("    \"tools\": {\"type\": \"stdio\", \"command\": \"npx -y tools-server\"}"),
            ),
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

/// Characters that make a bare name a shell command line rather than one token.
const SHELL_SYNTAX: &[char] = &[';', '|', '&', '<', '>', '`', '(', ')', '*', '?', '"', '\''];

/// Characters a shell does more with than split words at (operators, globs,
/// expansions, escapes, comments): a line holding one is never split by the fix.
const MORE_THAN_WORDS: &[char] = &[
    ';', '|', '&', '<', '>', '`', '(', ')', '*', '?', '[', '{', '$', '~', '\\', '#',
];

/// Checks `command`; returns it for display when it has a valid form.
pub(super) fn check_command(check: &mut ServerCheck<'_>, command: Option<&Value>) -> Option<String> {
    let pointer = check.field("command");
    let command = match command {
        Some(Value::String(command)) => command,
        Some(other) => {
            check.reject_type(&pointer, "`command`", "a string", other);
            return None;
        }
        None => {
            let message = "a stdio server needs `command`, the executable to launch";
            let server = check.pointer.clone();
            check.reject(check.file.at_value(&MCP_SERVER_FIELD_MISSING, &server, message));
            return None;
        }
    };
    if let Some(relative) = command.strip_prefix("./") {
        check_in_root(check, &pointer, "`command`", command, relative, Wanted::File);
        return Some(command.clone());
    }
    match form_problem(command) {
        Some((message, hint)) => {
            let mut diagnostic = check.file.at_value(&MCP_COMMAND_NOT_A_TOKEN, &pointer, message);
            if let Some(hint) = hint {
                diagnostic = diagnostic.with_hint(hint);
            }
            let diagnostic = with_split_fix(diagnostic, check, command);
            check.reject(diagnostic);
            None
        }
        None => {
            super::placeholders::check_verbatim(check, &pointer, "`command`", command);
            Some(command.clone())
        }
    }
}

/// A command line split into its first word and the rest, as a POSIX shell
/// splits words (quotes group and are removed); `None` for an empty line or an
/// unclosed quote. Both `apcheck new --stdio-server` and the AP420 fix split
/// with this, so a line means the same to both.
pub fn split_command_line(line: &str) -> Option<(String, Vec<String>)> {
    let mut words = shlex::split(line)?.into_iter();
    let command = words.next()?;
    Some((command, words.collect()))
}

/// `diagnostic` with the fix that splits the shell line `command` into
/// `command` and `args`, when splitting is all a shell would do with it.
fn with_split_fix(diagnostic: Diagnostic, check: &ServerCheck<'_>, command: &str) -> Diagnostic {
    if command.contains(MORE_THAN_WORDS) {
        return diagnostic;
    }
    let Some((program, words)) = split_command_line(command) else {
        return diagnostic;
    };
    // `NAME=value npx …` sets a variable in a shell; `env` is the place for it.
    if words.is_empty() || program.contains('=') || (!program.starts_with("./") && form_problem(&program).is_some()) {
        return diagnostic;
    }
    // A fix's edits are printed whole in every format (they must apply exactly,
    // so they cannot be masked): a line that carries a credential gets none.
    if carries_credential(&program, &words) {
        return diagnostic;
    }
    let args_pointer = check.field("args");
    let new_args: Vec<String> = words.iter().map(|word| json_edits::string_literal(word)).collect();
    let command_json = json_edits::string_literal(&program);
    let Some(command_span) = check.file.doc.value_span(&check.field("command")) else {
        return diagnostic;
    };
    let path = &check.file.path;
    let edits = match check.file.doc.value.pointer(&args_pointer) {
        // No `args` yet: it goes right after `command`, where a reader looks for it.
        None => vec![Edit::replace(
            path,
            command_span,
            format!("{command_json}, \"args\": [{}]", new_args.join(", ")),
        )],
        // The new words go in front of those already there, which are left as
        // written: an edit that rewrote them would echo whatever they hold.
        Some(Value::Array(items)) if items.iter().all(Value::is_string) => {
            let Some(args_span) = check.file.doc.value_span(&args_pointer) else {
                return diagnostic;
            };
            let separator = if items.is_empty() { "" } else { ", " };
            vec![
                Edit::replace(path, command_span, command_json),
                Edit::insert(path, args_span.start + 1, format!("{}{separator}", new_args.join(", "))),
            ]
        }
        Some(_) => return diagnostic,
    };
    // The program is echoed only as a plain name: the further words may hold a credential.
    let message = if super::text::echoable(&program) && program.len() <= 64 {
        format!(
            "Split the command line into \"command\": {} and \"args\"",
            json_edits::string_literal(&program)
        )
    } else {
        "Split the command line into \"command\" and \"args\"".to_string()
    };
    diagnostic.with_fix(Fix::safe(message, edits))
}

/// Whether a word of the command line holds a well-known credential shape, a
/// secret-named flag's value, or any value assigned to a secret-named
/// variable (`TOKEN=…`): in doubt, the line is left for a person to split.
fn carries_credential(program: &str, words: &[String]) -> bool {
    let flags: Vec<Option<&str>> = words.iter().map(|word| Some(word.as_str())).collect();
    std::iter::once(program)
        .chain(words.iter().map(String::as_str))
        .any(|word| {
            let (name, value) = word.split_once('=').unwrap_or(("", word));
            crate::redact::fix_would_echo_secret(name, value)
        })
        || !super::args::detect_in_args(&flags).is_empty()
}

/// Why `command` (not starting with `./`) is not a bare executable name, with a fix.
fn form_problem(command: &str) -> Option<(String, Option<String>)> {
    let shown = super::text::excerpt(command);
    if command.is_empty() {
        return Some((
            "`command` is empty".into(),
            Some("name the executable to launch".into()),
        ));
    }
    for placeholder in [PLUGIN_ROOT, PLUGIN_DATA] {
        if let Some(rest) = command.strip_prefix(placeholder) {
            let hint = match rest.strip_prefix('/') {
                Some(inside) if placeholder == PLUGIN_ROOT && super::text::echoable(inside) => {
                    format!("write \"./{inside}\"")
                }
                _ => "bundle the executable in the package and use a `./` path".to_string(),
            };
            return Some((
                format!("`command` {shown} relies on {placeholder}, but `command` is never expanded (§9.2)"),
                Some(hint),
            ));
        }
    }
    if command.starts_with(['/', '\\']) || has_drive_prefix(command) {
        return Some((
            format!("`command` {shown} is an absolute path; only a bare name or a `./` path is portable"),
            Some("bundle the executable and use a `./` path, or use a bare name found on PATH".into()),
        ));
    }
    if command == "." {
        // Not a name a search could find as a file: every directory on PATH has a `.`.
        return Some((
            "`command` \".\" names a directory, not an executable".into(),
            Some("name the executable: a bare name, or a `./` path to the bundled file".into()),
        ));
    }
    if command == ".." || command.starts_with("../") || command.starts_with("..\\") {
        return Some((
            format!("`command` {shown} is not a `./` path and would leave the plugin root (§4.1)"),
            Some("bundle the executable inside the package and use a `./` path".into()),
        ));
    }
    if command.contains(|c: char| c.is_whitespace() || c.is_control()) {
        let first = command.split_whitespace().next().unwrap_or_default();
        // Echo only a plain program name: the rest of a shell line may carry a credential.
        let hint = if !first.is_empty() && !first.contains('=') && !first.contains(SHELL_SYNTAX) && first.len() <= 64 {
            format!("use \"command\": {first:?} and put each further word in \"args\"")
        } else {
            "put the executable in \"command\" and each further word in \"args\"".to_string()
        };
        return Some((
            "`command` is a shell command string, not a single executable token".to_string(),
            Some(hint),
        ));
    }
    if command.contains(SHELL_SYNTAX) {
        return Some((
            "`command` contains shell syntax; it is launched as one executable, never through a shell".to_string(),
            Some("name only the executable in \"command\" and pass arguments in \"args\"".into()),
        ));
    }
    if let Some(windows_relative) = command.strip_prefix(".\\").filter(|rest| super::text::echoable(rest)) {
        return Some((
            format!("`command` {shown} uses a backslash; plugin-relative paths begin with `./`"),
            Some(format!("write \"./{}\"", windows_relative.replace('\\', "/"))),
        ));
    }
    if command.contains(['/', '\\']) {
        return Some((
            format!("`command` {shown} is a path that does not begin with `./` (§4.1)"),
            Some(if super::text::echoable(command) {
                format!("write \"./{command}\" for a file in the package")
            } else {
                "a file in the package is named with a `./` path".to_string()
            }),
        ));
    }
    None
}

fn has_drive_prefix(text: &str) -> bool {
    let bytes = text.as_bytes();
    bytes.len() >= 2 && bytes[0].is_ascii_alphabetic() && bytes[1] == b':'
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{codes, load, one_server};
    use crate::report::ServerState;

    fn command_findings(command: &str) -> (Vec<&'static str>, Option<String>, Option<String>, ServerState) {
        let server = format!(
            r#"{{"type": "stdio", "command": {}}}"#,
            serde_json::to_string(command).unwrap()
        );
        let (section, diagnostics) = load(&one_server(&server), &[]);
        let first = diagnostics.first();
        (
            codes(&diagnostics),
            first.map(|d| d.message.clone()),
            first.and_then(|d| d.hint.clone()),
            section.servers[0].state,
        )
    }

    #[test]
    fn bare_names_are_valid() {
        // §7.2.1: "either a bare executable name or a plugin-relative path beginning with `./`".
        for command in ["npx", "uvx", "node", "python3.12", "my-server.cmd"] {
            let (codes, _, _, state) = command_findings(command);
            assert!(codes.is_empty(), "{command}: {codes:?}");
            assert_eq!(state, ServerState::Valid);
        }
    }

    #[test]
    fn shell_strings_are_invalid_with_a_split_hint() {
        // §7.2.1: "a single executable token, not a shell command string".
        let (codes, _, hint, state) = command_findings("npx -y @scope/server");
        assert_eq!(codes, ["AP420"]);
        assert_eq!(
            hint.as_deref(),
            Some("use \"command\": \"npx\" and put each further word in \"args\"")
        );
        assert_eq!(state, ServerState::Invalid);
        for command in ["server|tee", "a;b", " npx", "API_KEY=x npx"] {
            assert_eq!(command_findings(command).0, ["AP420"], "{command}");
        }
    }

    /// A stdio server whose `command` is `command`, as JSON.
    fn stdio_server(command: &str) -> String {
        format!(
            r#"{{"type": "stdio", "command": {}}}"#,
            serde_json::to_string(command).unwrap()
        )
    }

    /// `server` as the one server of an mcp.json, its AP420 fix applied, and the findings of the result.
    fn split_fixed(server: &str) -> Option<(String, Vec<&'static str>)> {
        let text = one_server(server);
        let (_, diagnostics) = load(&text, &[]);
        let finding = diagnostics
            .iter()
            .find(|d| d.code == "AP420")
            .expect("an AP420 finding");
        let fix = finding.fix.clone()?;
        assert_eq!(fix.applicability, crate::fix::Applicability::Safe);
        let fixed = crate::fix::apply_edits(&text, &fix.edits).expect("the edits apply");
        let (section, after) = load(&fixed, &[]);
        assert_eq!(section.servers[0].state, ServerState::Valid, "{fixed}");
        Some((fixed, codes(&after)))
    }

    #[test]
    fn the_fix_splits_a_plain_command_line_into_command_and_args() {
        // A plain `npx -y @foo/server` is split as `apcheck new --stdio-server` splits it.
        let (fixed, after) = split_fixed(r#"{"type": "stdio", "command": "npx -y @foo/server"}"#).unwrap();
        assert!(after.is_empty(), "{after:?}");
        assert!(
            fixed.contains(r#""command": "npx", "args": ["-y", "@foo/server"]}"#),
            "{fixed}"
        );
        assert_eq!(
            super::split_command_line("npx -y @foo/server"),
            Some(("npx".to_string(), vec!["-y".to_string(), "@foo/server".to_string()]))
        );
        // Quotes group words and are removed; words already in `args` follow the new ones.
        let (fixed, after) = split_fixed(r#"{"type": "stdio", "command": "uvx 'a b' --x", "args": ["--y"]}"#).unwrap();
        assert!(after.is_empty(), "{after:?}");
        assert!(
            fixed.contains(r#""command": "uvx", "args": ["a b", "--x", "--y"]"#),
            "{fixed}"
        );
    }

    #[test]
    fn no_fix_where_a_shell_would_do_more_than_split_words() {
        for command in [
            "server | tee log",
            "a; b",
            "API_KEY=x npx server",
            "npx $SERVER",
            "node ~/server.js",
            "npx 'unclosed",
            "bin/server --x",
            "cat *.json",
        ] {
            assert_eq!(split_fixed(&stdio_server(command)), None, "{command}");
        }
        // `args` that are not all strings are not merged into.
        assert_eq!(
            split_fixed(r#"{"type": "stdio", "command": "npx -y x", "args": [1]}"#),
            None
        );
    }

    /// A fix's edits are printed unmasked in every format, so a
    /// line holding a credential gets none, and words already in `args` are
    /// never part of an edit.
    #[test]
    fn no_fix_echoes_a_credential() {
        for command in [
            "npx server --token ghp_Zq8Wm3Kd9Lx2Rv7Tn4Pb6Yc1Hs5Jf0GaE3uQ",
            "npx server --api-key 9f8e7d6c5b4a39281706abcd",
            "env TOKEN=hunter2token99 npx server",
        ] {
            assert_eq!(split_fixed(&stdio_server(command)), None, "{command}");
        }
        let text = one_server(
            r#"{"type": "stdio", "command": "npx -y x", "args": ["--token", "ghp_Zq8Wm3Kd9Lx2Rv7Tn4Pb6Yc1Hs5Jf0GaE3uQ"]}"#,
        );
        let (_, diagnostics) = load(&text, &[]);
        let fix = diagnostics
            .iter()
            .find(|d| d.code == "AP420")
            .and_then(|d| d.fix.clone())
            .expect("a fix for a plain command line");
        assert!(
            fix.edits.iter().all(|edit| !edit.replacement.contains("ghp_")),
            "{fix:?}"
        );
        let fixed = crate::fix::apply_edits(&text, &fix.edits).unwrap();
        assert!(
            fixed.contains(r#""command": "npx", "args": ["-y", "x", "--token", "ghp_"#),
            "{fixed}"
        );
    }

    #[test]
    fn paths_not_starting_with_dot_slash_are_invalid() {
        // §4.1: plugin-relative paths MUST begin with `./`; §9.2: no expansion in `command`.
        for (command, expected) in [
            ("/usr/bin/example", "absolute path"),
            ("C:\\tools\\server.exe", "absolute path"),
            ("../bin/server", "leave the plugin root"),
            ("bin/example", "does not begin with `./`"),
            (".\\bin\\server", "backslash"),
            ("${PLUGIN_ROOT}/bin/server", "never expanded"),
            ("", "empty"),
            (".", "names a directory"),
            ("..", "leave the plugin root"),
        ] {
            let (codes, message, _, state) = command_findings(command);
            assert_eq!(codes, ["AP420"], "{command}");
            assert!(message.as_deref().unwrap().contains(expected), "{command}: {message:?}");
            assert_eq!(state, ServerState::Invalid);
        }
        let (_, _, hint, _) = command_findings("${PLUGIN_ROOT}/bin/server");
        assert_eq!(hint.as_deref(), Some("write \"./bin/server\""));
    }

    #[test]
    fn placeholder_in_a_bare_name_stays_literal() {
        let (codes, _, _, state) = command_findings("${SERVER_BIN}");
        assert_eq!(codes, ["AP440"]);
        assert_eq!(state, ServerState::Valid);
    }
}
