//! A stdio server's `args`: each a string, and no literal credential in
//! them (AP502 and AP504 through the shared detection, AP506 for a
//! secret-named flag's value).

use serde_json::Value;

use super::entry::ServerCheck;
use super::text::EXAMPLE_PLUGIN_JSON;
use crate::diag::Severity;
use crate::redact::{masked, named_secret};
use crate::rule::{Example, Rule};
use crate::rules::secrets::detect::{Secret, detect_elsewhere};

pub static SECRET_IN_ARGUMENT: Rule = Rule {
    code: "AP506",
    name: "secret-in-argument",
    severity: Severity::Warning,
    spec: "Agent Plugins §7.2.1, §9.2",
    summary: "A secret-named command-line flag in `args` holds a literal credential",
    fix_hint: Some(
        "remove it (and revoke it if it was published); have the server read the credential from a variable the user sets",
    ),
    doc: rule_doc! {
        what: "Flags in `args` whose name says they take a credential (`--api-key=…`, `--token …`, \
               `--password …`) with a literal value that looks like one, given after `=` or as the next item. \
               Well-known token shapes are AP502's; `${…}` placeholders and stand-ins pass.",
        why: "`args` are as visible as `env` (§9.2) to everyone who installs the package, and a credential on a \
              command line also shows in every process list on the user's machine.",
        failing: Example::Package(&[
            ("plugin.json", EXAMPLE_PLUGIN_JSON),
            (
                "mcp.json",
                "{\n  \"$schema\": \"https://agent-plugins.org/schemas/1.0.0/mcp.schema.json\",\n  \"mcpServers\": {\n    \"issues\": {\n      \"type\": \"stdio\",\n      \"command\": \"npx\",\n      \"args\": [\"-y\", \"issues-server\", \"--api-key=8f14e45fceea167a5a36dedd4bea2543a1b2c3d4\"]\n    }\n  }\n}\n",
            ),
        ]),
        fixed: Example::Package(&[
            ("plugin.json", EXAMPLE_PLUGIN_JSON),
            (
                "mcp.json",
                "{\n  \"$schema\": \"https://agent-plugins.org/schemas/1.0.0/mcp.schema.json\",\n  \"mcpServers\": {\n    \"issues\": {\n      \"type\": \"stdio\",\n      \"command\": \"npx\",\n      \"args\": [\"-y\", \"issues-server\"]\n    }\n  }\n}\n",
            ),
        ]),
    },
};

pub(super) fn check_args(check: &mut ServerCheck<'_>, args: &Value) {
    let pointer = check.field("args");
    let Value::Array(items) = args else {
        check.reject_type(&pointer, "`args`", "an array of strings", args);
        return;
    };
    let mut shaped = vec![false; items.len()];
    for (i, item) in items.iter().enumerate() {
        let item_pointer = format!("{pointer}/{i}");
        match item {
            Value::String(arg) => {
                super::placeholders::check_expanded(check, &item_pointer, "args", arg);
                if let Some(secret) = detect_elsewhere(&format!("`args[{i}]`"), arg) {
                    shaped[i] = true;
                    check.report(check.file.at_value(secret.rule, &item_pointer, secret.message));
                }
            }
            other => check.reject_type(&item_pointer, &format!("`args[{i}]`"), "a string", other),
        }
    }
    // Flags that name a credential (`--token …`): one finding per value, unless AP502 or AP504 has it.
    let strings: Vec<Option<&str>> = items.iter().map(Value::as_str).collect();
    for (i, secret) in detect_in_args(&strings) {
        if !shaped[i] {
            check.report(
                check
                    .file
                    .at_value(secret.rule, &format!("{pointer}/{i}"), secret.message),
            );
        }
    }
}

/// Secret-named flags in `args` with a literal credential, as `--name=value`
/// or `--name` then `value`: the index of the item holding the value, and the finding.
pub(super) fn detect_in_args(args: &[Option<&str>]) -> Vec<(usize, Secret)> {
    let mut found = Vec::new();
    for (i, arg) in args.iter().enumerate() {
        let Some(flag) = arg.and_then(|arg| arg.strip_prefix('-')) else {
            continue;
        };
        let flag = flag.trim_start_matches('-');
        let (name, value, at) = match flag.split_once('=') {
            Some((name, value)) => (name, value, i),
            None => match args.get(i + 1).copied().flatten() {
                Some(next) if !next.starts_with('-') => (flag, next, i + 1),
                _ => continue,
            },
        };
        if named_secret(name, value) {
            found.push((
                at,
                Secret {
                    rule: &SECRET_IN_ARGUMENT,
                    message: format!(
                        "`args[{at}]` gives the flag {:?} a literal credential ({}); everything in mcp.json is visible package data",
                        format!("--{name}"),
                        masked("", value)
                    ),
                },
            ));
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::detect_in_args;

    #[test]
    fn secret_named_flags_are_found() {
        let hex = "8f14e45fceea167a5a36dedd4bea2543a1b2c3d4";
        let equals = format!("--api-key={hex}");
        let found = detect_in_args(&[Some("-y"), Some(&equals)]);
        assert_eq!(
            found.iter().map(|(i, s)| (*i, s.rule.code)).collect::<Vec<_>>(),
            [(1, "AP506")]
        );
        let found = detect_in_args(&[Some("--token"), Some(hex), Some("--password"), Some("hunter22")]);
        assert_eq!(found.iter().map(|(i, _)| *i).collect::<Vec<_>>(), [1, 3]);
        assert!(
            found
                .iter()
                .all(|(_, s)| !s.message.contains(hex) && !s.message.contains("hunter22"))
        );
        assert!(detect_in_args(&[Some("--token"), Some("${TOKEN}"), Some("--verbose")]).is_empty());
    }
}
