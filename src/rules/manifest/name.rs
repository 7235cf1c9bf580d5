//! The plugin name (§5.5), constraint by constraint, so a message says which
//! one failed, with a conforming name suggested when one can be made.

use crate::diag::{Diagnostic, Severity};
use crate::fix::{Applicability, Fix, json_edits};
use crate::rule::{Example, Rule};
use crate::source::json::JsonSource;

use super::texts::{REJECTED, VALID};

pub static MANIFEST_NAME_INVALID: Rule = Rule {
    code: "AP209",
    name: "manifest-name-invalid",
    severity: Severity::Error,
    spec: "Agent Plugins §5.5",
    summary: "The plugin name breaks a §5.5 constraint",
    fix_hint: None,
    doc: rule_doc! {
        what: "Checks `name` against each §5.5 constraint and names the ones that fail: length (1-64), \
               character set (a-z, 0-9, `-`, `.`), start and end (alphanumeric), repetition (no `--`, `..`).",
        why: "An invalid required field rejects the plugin (§5.3): nothing in it is discovered.",
        failing: Example::Package(&[(
            "plugin.json",
            "{\"$schema\": \"https://agent-plugins.org/schemas/1.0.0/plugin.schema.json\", \"name\": \"Invoice-Ops\"}",
        )]),
        fixed: Example::Package(&[("plugin.json", VALID)]),
    },
};

/// §5.5, constraint by constraint, so the message says which failed.
pub(super) fn check_name(file: &JsonSource, name: &str, diagnostics: &mut Vec<Diagnostic>) {
    let failures = name_violations(name);
    if failures.is_empty() {
        return;
    }
    let mut diagnostic = file.at_value(
        &MANIFEST_NAME_INVALID,
        "/name",
        format!(
            "Plugin name \"{name}\" breaks §5.5: {}; {REJECTED}",
            failures.join("; ")
        ),
    );
    if let Some(fixed) = suggest_name(name) {
        diagnostic = diagnostic.with_hint(format!("Use \"{fixed}\""));
        // Lowercasing and tidying separators keeps the name the author chose; a
        // name whose other characters had to be replaced or that was cut is a guess.
        let applicability = if fixed == case_and_separators_normalised(name) {
            Applicability::Safe
        } else {
            Applicability::Unsafe
        };
        if let Some(edit) = json_edits::replace_value(file, "/name", json_edits::string_literal(&fixed)) {
            diagnostic = diagnostic.with_fix(Fix {
                message: format!("Rename the plugin to \"{fixed}\""),
                applicability,
                edits: vec![edit],
            });
        }
    }
    diagnostics.push(diagnostic);
}

/// Each §5.5 constraint `name` fails, in words.
fn name_violations(name: &str) -> Vec<String> {
    let mut failures = Vec::new();
    let length = name.chars().count();
    if !(1..=64).contains(&length) {
        failures.push(format!("length is {length}, not 1-64"));
    }
    let mut bad: Vec<char> = name
        .chars()
        .filter(|c| !matches!(c, 'a'..='z' | '0'..='9' | '-' | '.'))
        .collect();
    bad.dedup();
    if !bad.is_empty() {
        let shown: String = bad.iter().take(8).collect();
        failures.push(format!(
            "character set: `{shown}` not allowed (only lowercase a-z, 0-9, `-` and `.`)"
        ));
    }
    let alphanumeric = |c: Option<char>| c.is_some_and(|c| c.is_ascii_lowercase() || c.is_ascii_digit());
    if length > 0 && !(alphanumeric(name.chars().next()) && alphanumeric(name.chars().last())) {
        failures.push("start and end: the first and last characters must be a-z or 0-9".to_string());
    }
    if name.contains("--") || name.contains("..") {
        failures.push("repetition: `--` and `..` are not allowed".to_string());
    }
    failures
}

/// A conforming name close to `name`, if one can be made.
fn suggest_name(name: &str) -> Option<String> {
    let mut fixed = String::new();
    for c in name.chars().flat_map(char::to_lowercase) {
        let c = if c.is_ascii_lowercase() || c.is_ascii_digit() || c == '.' {
            c
        } else {
            '-'
        };
        if (c == '-' || c == '.') && fixed.ends_with(['-', '.']) {
            continue;
        }
        fixed.push(c);
    }
    let fixed: String = fixed.trim_matches(['-', '.']).chars().take(64).collect();
    let fixed = fixed.trim_end_matches(['-', '.']).to_string();
    (!fixed.is_empty() && name_violations(&fixed).is_empty()).then_some(fixed)
}

/// `name` lowercased, each run of `-` and `.` folded to its first, and
/// separators trimmed from both ends: the fixes that cannot change which name is meant.
fn case_and_separators_normalised(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars().flat_map(char::to_lowercase) {
        if matches!(c, '-' | '.') && (out.is_empty() || out.ends_with(['-', '.'])) {
            continue;
        }
        out.push(c);
    }
    out.trim_end_matches(['-', '.']).to_string()
}

#[cfg(test)]
mod tests {
    use super::super::testing::{SCHEMA, codes, load};
    use super::*;
    use crate::report::PluginState;

    #[test]
    fn name_messages_say_which_constraint_failed() {
        // §5.5 valid and invalid examples.
        for valid in ["my-plugin", "acme.tools", "lint3r", "a"] {
            assert!(name_violations(valid).is_empty(), "{valid}");
        }
        for (invalid, constraint) in [
            ("My-Plugin", "character set"),
            ("-start", "start and end"),
            ("has--double", "repetition"),
            ("too.many..dots", "repetition"),
            ("", "length"),
        ] {
            let failures = name_violations(invalid).join("; ");
            assert!(failures.contains(constraint), "{invalid}: {failures}");
        }
        assert!(name_violations(&"a".repeat(65))[0].contains("length is 65"));
        assert_eq!(suggest_name("Invoice-Ops").as_deref(), Some("invoice-ops"));
        assert_eq!(suggest_name("Bad--Plugin").as_deref(), Some("bad-plugin"));
    }

    #[test]
    fn invoice_ops_uppercase_rejects_with_a_suggestion() {
        let (section, diagnostics) = load(&format!("{{{SCHEMA}, \"name\": \"Invoice-Ops\"}}"));
        assert_eq!(section.state, PluginState::Rejected);
        assert_eq!(codes(&diagnostics), ["AP209"]);
        assert_eq!(diagnostics[0].hint.as_deref(), Some("Use \"invoice-ops\""));
    }

    #[test]
    fn case_and_separator_fixes_are_safe_and_other_renames_are_not() {
        let fix_of = |name: &str| {
            let (_, diagnostics) = load(&format!("{{{SCHEMA}, \"name\": \"{name}\"}}"));
            diagnostics[0].fix.clone().expect("a fix")
        };
        for name in ["Invoice-Ops", "-invoice--ops.", "INVOICE..OPS"] {
            assert_eq!(fix_of(name).applicability, Applicability::Safe, "{name}");
        }
        for name in ["Invoice Ops", "invoice_ops"] {
            let fix = fix_of(name);
            assert_eq!(fix.applicability, Applicability::Unsafe, "{name}");
            assert_eq!(fix.edits[0].replacement, "\"invoice-ops\"");
        }
    }
}
