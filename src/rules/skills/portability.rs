//! AP316: frontmatter that YAML parsers of different versions read as
//! different types. apcheck reads frontmatter with YAML 1.2 core typing
//! (`yes` is a string, `1_000` is a string), as js-yaml and most current
//! parsers do; PyYAML, which Python clients use, and go-yaml v2 still apply
//! YAML 1.1 types. The same `SKILL.md` then loads differently in different
//! clients, so every plain value the two typings disagree on is pointed out.
//! Both readings come from `super::yaml`, one for each typing.

use serde_json::Value;

use crate::diag::{Diagnostic, Severity};
use crate::rule::{Example, Rule};
use crate::source::Span;

use super::fields::Place;
use super::frontmatter::{Fields, Typing, parse_fields_with, quote_fix, scalar_span};
use super::texts::PLUGIN;

pub static YAML_1_1_TYPING: Rule = Rule {
    code: "AP316",
    name: "frontmatter-yaml-1-1-typing",
    severity: Severity::Warning,
    spec: "YAML 1.2 §10.3; YAML 1.1 types; Agent Skills (frontmatter)",
    summary: "A plain frontmatter value is a string in YAML 1.2 but another type for YAML 1.1 parsers",
    fix_hint: Some("Quote the value, so that every YAML parser reads the same string"),
    doc: rule_doc! {
        what: "Reads the frontmatter twice, with YAML 1.2 core typing (what apcheck checks) and with YAML 1.1 \
               typing, and reports each plain value the two read differently: `yes`, `no`, `on`, `off`, `y`, \
               `n` (booleans in YAML 1.1), `1_000` (a number), `017` (octal 15).",
        why: "The Agent Skills spec names no YAML version. js-yaml and most current parsers follow YAML 1.2, \
              where these are strings; PyYAML, which Python clients use, reads `description: yes` as the \
              boolean true and skips the skill, or reads `version: 1_000` as 1000. Quoting makes every client \
              read the same text.",
        failing: Example::Package(&[
            ("plugin.json", PLUGIN),
            (
                "skills/pdf-tools/SKILL.md",
                "---\nname: pdf-tools\ndescription: Extracts text from PDF files. Use when the user works with PDFs.\nmetadata:\n  beta: yes\n---\n",
            ),
        ]),
        fixed: Example::Package(&[
            ("plugin.json", PLUGIN),
            (
                "skills/pdf-tools/SKILL.md",
                "---\nname: pdf-tools\ndescription: Extracts text from PDF files. Use when the user works with PDFs.\nmetadata:\n  beta: \"yes\"\n---\n",
            ),
        ]),
    },
};

/// Warns on every value of `fields` (read with YAML 1.2 core typing from
/// `yaml`) that YAML 1.1 typing reads as something else.
pub(super) fn check_yaml11_typing(yaml: &str, fields: &Fields, place: &Place, diagnostics: &mut Vec<Diagnostic>) {
    // Same text, same structure: only the typing of plain scalars differs.
    let Ok(yaml11) = parse_fields_with(yaml, Typing::Yaml11) else {
        return;
    };
    for (core, other) in fields.0.iter().zip(&yaml11.0) {
        let mut pointer = format!("/{}", escape_token(&core.key));
        let Some((as_core, as_yaml11)) = first_difference(&core.value, &other.value, &mut pointer) else {
            continue;
        };
        let written = match as_core {
            Value::String(text) => text.clone(),
            other => other.to_string(),
        };
        let top_level = pointer.matches('/').count() == 1;
        let shown = if top_level {
            format!("`{}: {written}`", core.key)
        } else {
            format!("`{written}` at `{pointer}`")
        };
        let span = span_or_key(core.value_span, core.key_span);
        // The hint shows this value quoted where it is, not a stock example.
        let quoted = serde_json::to_string(&written).unwrap_or_default();
        let hint = if top_level {
            format!("Quote the value: {}: {quoted}", core.key)
        } else {
            format!("Quote the value at `{pointer}`: {quoted}")
        };
        let diagnostic = place(
            &YAML_1_1_TYPING,
            &pointer,
            span,
            format!(
                "{shown} is {} in YAML 1.2, but {} for YAML 1.1 parsers (PyYAML, which Python clients use); quote it: some clients read `{written}` as {}",
                describe(as_core),
                describe(as_yaml11),
                kind(as_yaml11)
            ),
        )
        .with_hint(hint);
        let scalar = if top_level {
            Some(core.value_span)
        } else {
            scalar_span(yaml, &pointer)
        };
        diagnostics.push(
            match scalar.and_then(|scalar| quote_fix(yaml, scalar, span, &written, &diagnostic)) {
                Some(fix) => diagnostic.with_fix(fix),
                None => diagnostic,
            },
        );
    }
}

/// The first pair of values that differ, depth first, extending `pointer` to it.
fn first_difference<'v>(core: &'v Value, other: &'v Value, pointer: &mut String) -> Option<(&'v Value, &'v Value)> {
    match (core, other) {
        (Value::Object(a), Value::Object(b)) => {
            for ((key, a), (_, b)) in a.iter().zip(b) {
                let len = pointer.len();
                pointer.push('/');
                pointer.push_str(&escape_token(key));
                if let Some(found) = first_difference(a, b, pointer) {
                    return Some(found);
                }
                pointer.truncate(len);
            }
            None
        }
        (Value::Array(a), Value::Array(b)) => {
            for (i, (a, b)) in a.iter().zip(b).enumerate() {
                let len = pointer.len();
                pointer.push_str(&format!("/{i}"));
                if let Some(found) = first_difference(a, b, pointer) {
                    return Some(found);
                }
                pointer.truncate(len);
            }
            None
        }
        // The same number written two ways (17 and 17.0) is no difference.
        (Value::Number(a), Value::Number(b)) if a.as_f64() == b.as_f64() => None,
        (a, b) if a == b => None,
        (a, b) => Some((a, b)),
    }
}

fn escape_token(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

fn span_or_key(value: Span, key: Span) -> Span {
    if value.end > value.start { value } else { key }
}

/// `the string "yes"`, `the boolean true`, `the number 1000`.
fn describe(value: &Value) -> String {
    match value {
        Value::Bool(_) => format!("the boolean {value}"),
        Value::Number(_) => format!("the number {value}"),
        Value::String(_) => format!("the string {value}"),
        other => kind(other).to_string(),
    }
}

/// `a boolean`, `a number`, `a string`.
fn kind(value: &Value) -> &'static str {
    match value {
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Null => "null",
        Value::Array(_) => "a list",
        Value::Object(_) => "a mapping",
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{codes, discover, skill};
    use crate::fix::Edit;
    use crate::report::SkillState;

    #[test]
    fn yes_is_a_string_that_yaml_1_1_reads_as_a_boolean() {
        // `description: yes` used to skip the skill ("found a boolean").
        let text = skill("name: a\ndescription: yes");
        let (section, diagnostics) = discover(&[("skills/a/SKILL.md", text.as_str())]);
        assert_eq!(section.entries[0].state, SkillState::Discovered, "{diagnostics:#?}");
        assert_eq!(section.entries[0].description.as_deref(), Some("yes"));
        let portability: Vec<_> = diagnostics.iter().filter(|d| d.code == "AP316").collect();
        assert_eq!(portability.len(), 1, "{diagnostics:#?}");
        let message = &portability[0].message;
        assert!(
            message.starts_with("`description: yes` is the string \"yes\" in YAML 1.2, but the boolean true"),
            "{message}"
        );
        assert!(message.ends_with("some clients read `yes` as a boolean"), "{message}");
        assert_eq!(portability[0].pointer.as_deref(), Some("/description"));
        assert_eq!(
            portability[0].hint.as_deref(),
            Some("Quote the value: description: \"yes\"")
        );
        assert_eq!((portability[0].line, portability[0].column), (Some(3), Some(14)));
    }

    #[test]
    fn nested_and_numeric_differences_are_found_and_quoted_values_are_not() {
        let text = skill("name: a\ndescription: Does x. Use when y.\nmetadata:\n  count: 1_000\n  beta: \"on\"");
        let (_, diagnostics) = discover(&[("skills/a/SKILL.md", text.as_str())]);
        assert_eq!(codes(&diagnostics), ["AP316"], "{diagnostics:#?}");
        assert!(
            diagnostics[0]
                .message
                .contains("`1_000` at `/metadata/count` is the string \"1_000\"")
        );
        assert!(diagnostics[0].message.contains("the number 1000"));
        // The hint names this key and value, not `description: "yes"`.
        assert_eq!(
            diagnostics[0].hint.as_deref(),
            Some("Quote the value at `/metadata/count`: \"1_000\"")
        );
        let octal = skill("name: a\ndescription: Does x. Use when y.\nmetadata:\n  mode: \"x\"\nlicense: 017");
        let (_, diagnostics) = discover(&[("skills/a/SKILL.md", octal.as_str())]);
        assert!(
            diagnostics
                .iter()
                .any(|d| d.code == "AP316" && d.message.contains("the number 15")),
            "{diagnostics:#?}"
        );
    }

    #[test]
    fn the_fix_quotes_exactly_the_plain_scalar_at_any_depth() {
        let text =
            skill("name: a\ndescription: Does x. Use when y.\nmetadata:\n  beta: yes\n  count: 1_000\nlicense: no");
        let (_, diagnostics) = discover(&[("skills/a/SKILL.md", text.as_str())]);
        assert_eq!(codes(&diagnostics), ["AP316", "AP316"], "{diagnostics:#?}");
        let edits: Vec<Edit> = diagnostics
            .iter()
            .flat_map(|d| {
                let fix = d.fix.clone().expect("a fix");
                assert_eq!(fix.applicability, crate::fix::Applicability::Safe);
                fix.edits
            })
            .collect();
        // One finding per top-level field: `count` waits for the re-check.
        let fixed = crate::fix::apply_edits(&text, &edits).unwrap();
        assert!(
            fixed.contains("  beta: \"yes\"\n  count: 1_000\nlicense: \"no\"\n"),
            "{fixed}"
        );
        assert!(edits.iter().all(|edit| edit.file == "skills/a/SKILL.md"));
    }

    #[test]
    fn values_both_typings_agree_on_are_quiet() {
        let text = skill("name: a\ndescription: Does x. Use when y.\nmetadata:\n  version: \"1.0\"\n  flag: \"yes\"");
        let (_, diagnostics) = discover(&[("skills/a/SKILL.md", text.as_str())]);
        assert!(diagnostics.is_empty(), "{diagnostics:#?}");
    }
}
