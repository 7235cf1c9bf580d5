//! The Agent Skills frontmatter fields: `name` (and its directory),
//! `description`, `license`, `compatibility`, `metadata`, `allowed-tools`, and
//! keys the spec does not define. A violation skips the skill (§7.1); the two
//! loose types clients in use accept are warnings.

use serde_json::Value;

use crate::diag::{Diagnostic, Severity};
use crate::fix::{Edit, Fix};
use crate::json::parse::push_token;
use crate::report::SkillEntry;
use crate::rule::{Example, Rule};
use crate::source::Span;

use super::frontmatter::{Field, Fields, quote_fix};
use super::hints;
use super::texts::{GOOD_SKILL, PLUGIN, SKIPPED};

pub static SKILL_NAME_INVALID: Rule = Rule {
    code: "AP308",
    name: "skill-name-invalid",
    severity: Severity::Error,
    spec: "Agent Skills (name); Agent Plugins §7.1",
    summary: "The skill's `name` is missing or breaks the Agent Skills name rules",
    fix_hint: None,
    doc: rule_doc! {
        what: "Checks `name`: present, a string, 1-64 characters, only a-z, 0-9 and `-`, no leading, trailing \
               or doubled hyphen; the message names each rule that fails.",
        why: "A skill whose name does not conform is skipped (§7.1).",
        failing: Example::Package(&[
            ("plugin.json", PLUGIN),
            (
                "skills/pdf-tools/SKILL.md",
                "---\nname: PDF_Tools\ndescription: Extracts text from PDF files. Use when the user works with PDFs.\n---\n",
            ),
        ]),
        fixed: Example::Package(&[("plugin.json", PLUGIN), ("skills/pdf-tools/SKILL.md", GOOD_SKILL)]),
    },
};

pub static SKILL_NAME_MISMATCH: Rule = Rule {
    code: "AP309",
    name: "skill-name-mismatch",
    severity: Severity::Error,
    spec: "Agent Skills (name); Agent Plugins §7.1",
    summary: "The skill's `name` differs from its directory name",
    fix_hint: None,
    doc: rule_doc! {
        what: "Compares `name` with the name of the folder under skills/.",
        why: "The name MUST match the parent directory name; a skill that does not conform is skipped (§7.1).",
        failing: Example::Package(&[("plugin.json", PLUGIN), ("skills/pdf/SKILL.md", GOOD_SKILL)]),
        fixed: Example::Package(&[("plugin.json", PLUGIN), ("skills/pdf-tools/SKILL.md", GOOD_SKILL)]),
    },
};

pub static SKILL_DESCRIPTION_INVALID: Rule = Rule {
    code: "AP310",
    name: "skill-description-invalid",
    severity: Severity::Error,
    spec: "Agent Skills (description); Agent Plugins §7.1",
    summary: "The skill's `description` is missing, not a string, empty or longer than 1024 characters",
    fix_hint: Some("Say what the skill does and when to use it, in at most 1024 characters"),
    doc: rule_doc! {
        what: "Checks `description`: present, a string, 1-1024 characters, not blank.",
        why: "The description is how an agent decides to use the skill; one that does not conform makes the \
              skill skipped (§7.1).",
        failing: Example::Package(&[
            ("plugin.json", PLUGIN),
            ("skills/pdf-tools/SKILL.md", "---\nname: pdf-tools\n---\n# PDF tools\n"),
        ]),
        fixed: Example::Package(&[("plugin.json", PLUGIN), ("skills/pdf-tools/SKILL.md", GOOD_SKILL)]),
    },
};

pub static SKILL_FIELD_INVALID: Rule = Rule {
    code: "AP311",
    name: "skill-field-invalid",
    severity: Severity::Error,
    spec: "Agent Skills (frontmatter); Agent Plugins §7.1",
    summary: "An optional frontmatter field has the wrong type or length",
    fix_hint: None,
    doc: rule_doc! {
        what: "Checks `license` (a string), `compatibility` (a string of 1-500 characters), `metadata` (a \
               mapping) and `allowed-tools` (a string, or a list as some clients accept).",
        why: "A skill whose frontmatter does not conform is skipped (§7.1).",
        failing: Example::Package(&[
            ("plugin.json", PLUGIN),
            (
                "skills/pdf-tools/SKILL.md",
                "---\nname: pdf-tools\ndescription: Extracts text from PDF files. Use when the user works with PDFs.\ncompatibility: \"\"\n---\n",
            ),
        ]),
        fixed: Example::Package(&[
            ("plugin.json", PLUGIN),
            (
                "skills/pdf-tools/SKILL.md",
                "---\nname: pdf-tools\ndescription: Extracts text from PDF files. Use when the user works with PDFs.\ncompatibility: Requires poppler-utils\n---\n",
            ),
        ]),
    },
};

pub static SKILL_FIELD_LOOSE_TYPE: Rule = Rule {
    code: "AP312",
    name: "skill-field-loose-type",
    severity: Severity::Warning,
    spec: "Agent Skills (metadata, allowed-tools)",
    summary: "A `metadata` key or value, or `allowed-tools`, is not the string the spec asks for",
    fix_hint: Some("Quote the value, e.g. version: \"1.0\"; write allowed-tools as one space-separated string"),
    doc: rule_doc! {
        what: "Reports `metadata` keys and values that YAML types as numbers, booleans or null instead of \
               strings (`1: a`, `version: 1.10`), and an `allowed-tools` list instead of a space-separated \
               string.",
        why: "The spec asks for strings; clients in use read these leniently and do not skip the skill, but \
              YAML turns `version: 1.10` into the number 1.1, so the value a client sees may not be the one \
              written. apcheck warns rather than skip, as lenient clients do (the book's decisions, \
              \"Lenient skill fields\").",
        failing: Example::Package(&[
            ("plugin.json", PLUGIN),
            (
                "skills/pdf-tools/SKILL.md",
                "---\nname: pdf-tools\ndescription: Extracts text from PDF files. Use when the user works with PDFs.\nmetadata:\n  version: 1.10\n---\n",
            ),
        ]),
        fixed: Example::Package(&[
            ("plugin.json", PLUGIN),
            (
                "skills/pdf-tools/SKILL.md",
                "---\nname: pdf-tools\ndescription: Extracts text from PDF files. Use when the user works with PDFs.\nmetadata:\n  version: \"1.10\"\n---\n",
            ),
        ]),
    },
};

pub static SKILL_UNKNOWN_FIELD: Rule = Rule {
    code: "AP313",
    name: "skill-unknown-field",
    severity: Severity::Warning,
    spec: "Agent Skills (frontmatter)",
    summary: "The frontmatter has a field Agent Skills does not define",
    fix_hint: Some("Move it under `metadata`, which holds client-specific properties"),
    doc: rule_doc! {
        what: "Reports each frontmatter key other than name, description, license, compatibility, metadata \
               and allowed-tools.",
        why: "Unknown keys mean something to one client at most; the reference validator rejects them, others \
              ignore them. `metadata` is the place for additional properties: \"a map from string keys to string \
              values\" (Agent Skills, `metadata` field). The fix moves a key written on one line to the end of \
              `metadata` (adding `metadata` when there is none), quoting a number or boolean as written so that \
              it stays the text it was. It is unsafe: a client that reads the key at the top level no longer \
              sees it there. No fix is offered for a list, a mapping, null or a value over several lines (not \
              a string `metadata` may hold), a key `metadata` already has, a flow-style `metadata`, or a line \
              with a comment after the value.",
        failing: Example::Package(&[
            ("plugin.json", PLUGIN),
            (
                "skills/pdf-tools/SKILL.md",
                "---\nname: pdf-tools\ndescription: Extracts text from PDF files. Use when the user works with PDFs.\nversion: \"1.0\"\n---\n",
            ),
        ]),
        fixed: Example::Package(&[
            ("plugin.json", PLUGIN),
            (
                "skills/pdf-tools/SKILL.md",
                "---\nname: pdf-tools\ndescription: Extracts text from PDF files. Use when the user works with PDFs.\nmetadata:\n  version: \"1.0\"\n---\n",
            ),
        ]),
    },
};

/// `name` as a YAML scalar that reads back as that string: plain when no
/// YAML 1.1 or 1.2 parser could take it for a number, boolean or null.
fn yaml_plain_or_quoted(name: &str) -> String {
    let keyword = matches!(
        name,
        "true" | "false" | "yes" | "no" | "on" | "off" | "y" | "n" | "null"
    );
    if name.starts_with(|c: char| c.is_ascii_alphabetic()) && !keyword {
        name.to_string()
    } else {
        format!("\"{name}\"")
    }
}

pub(super) type Place<'a> = dyn Fn(&Rule, &str, Span, String) -> Diagnostic + 'a;

/// Checks each frontmatter field in turn; `name` and `description` are
/// required, so they are looked up first, and every other key is read in the
/// order written.
pub(super) fn check_fields(
    fields: &Fields,
    yaml: &str,
    dir: &str,
    entry: &mut SkillEntry,
    place: &Place,
    diagnostics: &mut Vec<Diagnostic>,
) {
    check_name(fields.get("name"), dir, entry, place, diagnostics);
    check_description(fields.get("description"), entry, place, diagnostics);
    for field in &fields.0 {
        let mut pointer = String::new();
        push_token(&mut pointer, &field.key);
        match field.key.as_str() {
            "name" | "description" => {}
            "license" => diagnostics.extend(check_license(field, &pointer, place)),
            "compatibility" => diagnostics.extend(check_compatibility(field, &pointer, place)),
            "metadata" => check_metadata(field, &pointer, yaml, place, diagnostics),
            "allowed-tools" => diagnostics.extend(check_allowed_tools(field, &pointer, place)),
            _ => diagnostics.push(unknown_field(fields, field, &pointer, yaml, place)),
        }
    }
}

/// `name`: required, an Agent Skills name, and its directory's (AP308, AP309).
fn check_name(
    field: Option<&Field>,
    dir: &str,
    entry: &mut SkillEntry,
    place: &Place,
    diagnostics: &mut Vec<Diagnostic>,
) {
    let Some(field) = field else {
        diagnostics.push(place(
            &SKILL_NAME_INVALID,
            "",
            Span::new(0, 0),
            format!("`name` is missing; {SKIPPED}"),
        ));
        return;
    };
    let Some(name) = field.value.as_str() else {
        diagnostics.push(place(
            &SKILL_NAME_INVALID,
            "/name",
            field.value_span,
            format!("`name` must be a string, found {}; {SKIPPED}", kind(&field.value)),
        ));
        return;
    };
    entry.name = Some(name.to_string());
    let failures = skill_name_violations(name);
    if !failures.is_empty() {
        diagnostics.push(place(
            &SKILL_NAME_INVALID,
            "/name",
            field.value_span,
            format!(
                "skill name \"{name}\" breaks the Agent Skills rules: {}; {SKIPPED}",
                failures.join("; ")
            ),
        ));
    } else if name != dir {
        let mut diagnostic = place(
            &SKILL_NAME_MISMATCH,
            "/name",
            field.value_span,
            format!("skill name \"{name}\" differs from its directory `skills/{dir}`; {SKIPPED}"),
        )
        .with_hint(if skill_name_violations(dir).is_empty() {
            format!("Rename the directory to `skills/{name}`, or set `name: {dir}`")
        } else {
            // `name: {dir}` would break the name rules (AP308): only the directory can change.
            format!("Rename the directory to `skills/{name}`: `{dir}` is not a valid skill name")
        });
        // Unsafe: either side may be the one that is wrong, and only the
        // name is an edit; renaming a directory is left to the author.
        if let (Some(file), Some(span)) = (diagnostic.file.clone(), diagnostic.span)
            && skill_name_violations(dir).is_empty()
        {
            diagnostic = diagnostic.with_fix(Fix::unsafe_(
                format!("Set `name: {dir}`, the directory's name"),
                vec![Edit::replace(file, span, yaml_plain_or_quoted(dir))],
            ));
        }
        diagnostics.push(diagnostic);
    }
}

/// `description`: required, 1-1024 characters (AP310), and advice on a
/// conforming one.
fn check_description(field: Option<&Field>, entry: &mut SkillEntry, place: &Place, diagnostics: &mut Vec<Diagnostic>) {
    let Some(field) = field else {
        diagnostics.push(place(
            &SKILL_DESCRIPTION_INVALID,
            "",
            Span::new(0, 0),
            format!("`description` is missing; {SKIPPED}"),
        ));
        return;
    };
    let Some(description) = field.value.as_str() else {
        diagnostics.push(place(
            &SKILL_DESCRIPTION_INVALID,
            "/description",
            field.value_span,
            format!(
                "`description` must be a string, found {}; {SKIPPED}",
                kind(&field.value)
            ),
        ));
        return;
    };
    entry.description = Some(description.to_string());
    let length = description.chars().count();
    if description.trim().is_empty() {
        diagnostics.push(place(
            &SKILL_DESCRIPTION_INVALID,
            "/description",
            field.value_span,
            format!("`description` is empty; {SKIPPED}"),
        ));
    } else if length > 1024 {
        diagnostics.push(place(
            &SKILL_DESCRIPTION_INVALID,
            "/description",
            field.value_span,
            format!("`description` is {length} characters, more than 1024; {SKIPPED}"),
        ));
    } else if let Some(advice) = hints::description_advice(description, entry.name.as_deref()) {
        diagnostics.push(place(
            &hints::SKILL_DESCRIPTION_HINT,
            "/description",
            field.value_span,
            advice,
        ));
    }
}

fn field_invalid(field: &Field, pointer: &str, place: &Place, message: String) -> Diagnostic {
    place(&SKILL_FIELD_INVALID, pointer, field.value_span, message)
}

/// `license`: a string when present (AP311).
fn check_license(field: &Field, pointer: &str, place: &Place) -> Option<Diagnostic> {
    if field.value.is_string() {
        return None;
    }
    Some(field_invalid(
        field,
        pointer,
        place,
        format!("`license` must be a string, found {}; {SKIPPED}", kind(&field.value)),
    ))
}

/// `compatibility`: a string of 1-500 characters when present (AP311).
fn check_compatibility(field: &Field, pointer: &str, place: &Place) -> Option<Diagnostic> {
    let message = match &field.value {
        Value::String(text) => {
            let length = text.chars().count();
            if (1..=500).contains(&length) {
                return None;
            }
            format!("`compatibility` is {length} characters; it must be 1-500 when present; {SKIPPED}")
        }
        other => format!("`compatibility` must be a string, found {}; {SKIPPED}", kind(other)),
    };
    Some(field_invalid(field, pointer, place, message))
}

/// `metadata`: a mapping (AP311) of strings, keys and values alike; a key or
/// value of another YAML type is a loose type clients read apart (AP312).
fn check_metadata(field: &Field, pointer: &str, yaml: &str, place: &Place, diagnostics: &mut Vec<Diagnostic>) {
    let Value::Object(members) = &field.value else {
        diagnostics.push(field_invalid(
            field,
            pointer,
            place,
            format!(
                "`metadata` must be a mapping of strings, found {}; {SKIPPED}",
                kind(&field.value)
            ),
        ));
        return;
    };
    for (key, key_span, typed_as) in &field.typed_keys {
        let mut member = pointer.to_string();
        push_token(&mut member, key);
        let diagnostic = place(
            &SKILL_FIELD_LOOSE_TYPE,
            &member,
            *key_span,
            format!(
                "the `metadata` key `{key}` is {typed_as} in YAML, not a string; clients may read it \
                 as the text `{key}` or as {typed_as}"
            ),
        )
        .with_hint(format!("Quote the key: \"{key}\": ..."));
        diagnostics.push(match quote_fix(yaml, *key_span, *key_span, key, &diagnostic) {
            Some(fix) => diagnostic.with_fix(fix),
            None => diagnostic,
        });
    }
    for (key, value) in members.iter().filter(|(_, value)| !value.is_string()) {
        let mut member = pointer.to_string();
        push_token(&mut member, key);
        diagnostics.push(place(
            &SKILL_FIELD_LOOSE_TYPE,
            &member,
            field.value_span,
            format!(
                "`metadata.{key}` is {}, not a string; clients may see a different value than written",
                kind(value)
            ),
        ));
    }
}

/// `allowed-tools`: one space-separated string (AP311); a list of strings is
/// a loose type (AP312).
fn check_allowed_tools(field: &Field, pointer: &str, place: &Place) -> Option<Diagnostic> {
    match &field.value {
        Value::String(_) => None,
        Value::Array(items) if items.iter().all(Value::is_string) => Some(place(
            &SKILL_FIELD_LOOSE_TYPE,
            pointer,
            field.value_span,
            "`allowed-tools` is a list; the spec asks for one space-separated string".to_string(),
        )),
        other => Some(field_invalid(
            field,
            pointer,
            place,
            format!(
                "`allowed-tools` must be a space-separated string, found {}; {SKIPPED}",
                kind(other)
            ),
        )),
    }
}

/// A key the spec does not define (AP313), with the fix that moves it under `metadata`.
fn unknown_field(fields: &Fields, field: &Field, pointer: &str, yaml: &str, place: &Place) -> Diagnostic {
    let diagnostic = place(
        &SKILL_UNKNOWN_FIELD,
        pointer,
        field.key_span,
        format!("`{}` is not an Agent Skills field; move it under `metadata`", field.key),
    );
    match move_under_metadata(yaml, fields, field, &diagnostic) {
        Some(fix) => diagnostic.with_fix(fix),
        None => diagnostic,
    }
}

/// The fix that moves the unknown top-level `field`, written on one line, to
/// the end of `metadata` (made when there is none). Only where the result is
/// exactly what `metadata` holds, a string under a key not there yet: a
/// string value keeps its text, a number or boolean is quoted as written (so
/// that `version: 1.10` stays "1.10"), and anything else (a list, a mapping,
/// null, a value over several lines, a comment after it) is left to the author.
fn move_under_metadata(yaml: &str, fields: &Fields, field: &Field, diagnostic: &Diagnostic) -> Option<Fix> {
    if yaml.contains('\r') {
        // The new lines would end in `\n` amid `\r\n`.
        return None;
    }
    let line_start = yaml[..field.key_span.start].rfind('\n').map_or(0, |at| at + 1);
    let line_end = yaml[field.value_span.end..].find('\n')? + field.value_span.end;
    let written = &yaml[field.value_span.start..field.value_span.end];
    let plain_key = yaml[field.key_span.start..field.key_span.end] == field.key;
    if line_start != field.key_span.start
        || !plain_key
        || yaml[field.key_span.end..line_end].contains('\n')
        || !yaml[field.value_span.end..line_end].trim().is_empty()
    {
        return None;
    }
    // The fix writes the value out again, and fixes are printed unmasked.
    if crate::redact::fix_would_echo_secret(&field.key, written) {
        return None;
    }
    let value = match &field.value {
        Value::String(_) => written.to_string(),
        Value::Bool(_) | Value::Number(_) => serde_json::to_string(written).ok()?,
        _ => return None,
    };
    let (insert_at, member) = match fields.get("metadata") {
        None if yaml.ends_with('\n') => (yaml.len(), format!("metadata:\n  {}: {value}\n", field.key)),
        None => return None,
        Some(metadata) => {
            let Value::Object(members) = &metadata.value else {
                return None;
            };
            if members.is_empty() || members.contains_key(&field.key) {
                return None;
            }
            // A block mapping only: its first member starts a line of its own, after the `metadata:` line.
            let first_line = yaml[..metadata.value_span.start].rfind('\n')? + 1;
            let indent = &yaml[first_line..metadata.value_span.start];
            if first_line <= metadata.key_span.start || !indent.chars().all(|c| c == ' ') {
                return None;
            }
            let end = metadata.value_span.end;
            let after_last = if yaml[..end].ends_with('\n') {
                end
            } else {
                yaml[end..].find('\n')? + end + 1
            };
            (after_last, format!("{indent}{}: {value}\n", field.key))
        }
    };
    // `place` shifted the key's span from the YAML into the file; shift the edits alike.
    let shift = diagnostic.span?.start.checked_sub(field.key_span.start)?;
    let file = diagnostic.file.clone()?;
    Some(Fix::unsafe_(
        format!("Move `{}` under `metadata`", field.key),
        vec![
            Edit::delete(file.clone(), Span::new(line_start + shift, line_end + 1 + shift)),
            Edit::insert(file, insert_at + shift, member),
        ],
    ))
}

/// The Agent Skills name rules `name` breaks, in words.
fn skill_name_violations(name: &str) -> Vec<String> {
    let mut failures = Vec::new();
    let length = name.chars().count();
    if !(1..=64).contains(&length) {
        failures.push(format!("length is {length}, not 1-64"));
    }
    let mut bad: Vec<char> = name
        .chars()
        .filter(|c| !matches!(c, 'a'..='z' | '0'..='9' | '-'))
        .collect();
    bad.dedup();
    if !bad.is_empty() {
        let shown: String = bad.iter().take(8).collect();
        failures.push(format!("`{shown}` not allowed (only lowercase a-z, 0-9 and `-`)"));
    }
    if name.starts_with('-') || name.ends_with('-') {
        failures.push("must not start or end with `-`".to_string());
    }
    if name.contains("--") {
        failures.push("must not contain `--`".to_string());
    }
    failures
}

fn kind(value: &Value) -> &'static str {
    crate::json::json_type(value)
}

#[cfg(test)]
mod tests {
    use super::super::testing::{codes, discover, skill};
    use super::*;
    use crate::report::SkillState;

    #[test]
    fn name_rules_and_directory_match() {
        // Agent Skills `name`: invalid examples from the spec.
        for (name, expect) in [
            ("PDF-Processing", "not allowed"),
            ("-pdf", "start or end"),
            ("pdf--processing", "--"),
        ] {
            let text = skill(&format!("name: {name}\ndescription: Does x. Use when y."));
            let (_, diagnostics) = discover(&[(format!("skills/{name}/SKILL.md").as_str(), text.as_str())]);
            assert_eq!(codes(&diagnostics), ["AP308"], "{name}");
            assert!(diagnostics[0].message.contains(expect), "{}", diagnostics[0].message);
            assert_eq!(diagnostics[0].line, Some(2));
        }
        let mismatch = skill("name: jira-sprint-dashboard\ndescription: Does x. Use when y.");
        let (section, diagnostics) = discover(&[("skills/jira-sprint-dashboard-canvas/SKILL.md", mismatch.as_str())]);
        assert_eq!(codes(&diagnostics), ["AP309"]);
        assert!(section.entries[0].reason.as_deref().unwrap().contains("differs"));
        let hint = diagnostics[0].hint.as_deref().unwrap();
        assert!(hint.contains("or set `name: jira-sprint-dashboard-canvas`"), "{hint}");
        // A directory that is no valid name is never offered as the name (AP308 would reject it).
        let (_, diagnostics) = discover(&[(
            "skills/PDF-Tools/SKILL.md",
            skill("name: pdf-tools\ndescription: Does x. Use when y.").as_str(),
        )]);
        assert_eq!(codes(&diagnostics), ["AP309"]);
        let hint = diagnostics[0].hint.as_deref().unwrap();
        assert!(!hint.contains("name: PDF-Tools"), "{hint}");
        assert!(hint.contains("skills/pdf-tools"), "{hint}");
        assert!(diagnostics[0].fix.is_none());
        let (_, missing) = discover(&[("skills/a/SKILL.md", skill("description: Does x. Use when y.").as_str())]);
        assert_eq!(codes(&missing), ["AP308"]);
        assert_eq!(skill_name_violations(&"a".repeat(65)).len(), 1);
    }

    #[test]
    fn description_rules() {
        let long = format!("name: a\ndescription: {}", "x ".repeat(600));
        for (frontmatter, expect) in [
            ("name: a", "missing"),
            ("name: a\ndescription: \"\"", "empty"),
            ("name: a\ndescription: [x]", "must be a string"),
            (long.as_str(), "more than 1024"),
        ] {
            let (section, diagnostics) = discover(&[("skills/a/SKILL.md", skill(frontmatter).as_str())]);
            assert_eq!(codes(&diagnostics), ["AP310"], "{frontmatter}");
            assert!(diagnostics[0].message.contains(expect));
            assert_eq!(section.entries[0].state, SkillState::Skipped);
        }
    }

    #[test]
    fn optional_fields_are_typed() {
        let base = "name: a\ndescription: Does x. Use when y.";
        for (extra, code, state) in [
            ("license: 3", "AP311", SkillState::Skipped),
            ("compatibility: \"\"", "AP311", SkillState::Skipped),
            ("metadata: [a]", "AP311", SkillState::Skipped),
            ("allowed-tools: {a: b}", "AP311", SkillState::Skipped),
            ("metadata:\n  version: 1.0", "AP312", SkillState::Discovered),
            ("allowed-tools: [Read, Bash]", "AP312", SkillState::Discovered),
            ("user_invocable: true", "AP313", SkillState::Discovered),
        ] {
            let (section, diagnostics) =
                discover(&[("skills/a/SKILL.md", skill(&format!("{base}\n{extra}")).as_str())]);
            assert_eq!(codes(&diagnostics), [code], "{extra}");
            assert_eq!(section.entries[0].state, state, "{extra}");
        }
        let all = "license: MIT\ncompatibility: Needs git\nmetadata:\n  author: x\nallowed-tools: Read Bash(git:*)";
        let (_, clean) = discover(&[("skills/a/SKILL.md", skill(&format!("{base}\n{all}")).as_str())]);
        assert!(clean.is_empty(), "{clean:?}");
    }

    #[test]
    fn metadata_keys_that_yaml_types_otherwise_are_reported() {
        // Agent Skills: `metadata` is "a map from string keys to string values".
        let base = "name: a\ndescription: Does x. Use when y.\nmetadata:\n";
        for (members, expected) in [
            (
                "  1: c\n  true: d\n  0x1F: e",
                vec!["/metadata/1", "/metadata/true", "/metadata/0x1F"],
            ),
            ("  !!int 2: c", vec!["/metadata/2"]),
            ("  \"1\": c\n  'true': d\n  yes: e\n  v1: f\n  !!str 3: g", vec![]),
        ] {
            let (section, diagnostics) =
                discover(&[("skills/a/SKILL.md", skill(&format!("{base}{members}")).as_str())]);
            let pointers: Vec<_> = diagnostics.iter().map(|d| d.pointer.as_deref().unwrap()).collect();
            assert_eq!(pointers, expected, "{members}");
            assert!(diagnostics.iter().all(|d| d.code == "AP312"), "{diagnostics:?}");
            assert_eq!(section.entries[0].state, SkillState::Discovered);
        }
        // A plain key is quoted by a safe fix, which replaces the key alone.
        let text = skill(&format!("{base}  1: c"));
        let (_, diagnostics) = discover(&[("skills/a/SKILL.md", text.as_str())]);
        let fix = diagnostics[0].fix.as_ref().expect("a fix");
        assert_eq!(fix.edits.len(), 1);
        let edit = &fix.edits[0];
        assert_eq!(&text[edit.span.start..edit.span.end], "1");
        assert_eq!(edit.replacement, "\"1\"");
    }

    #[test]
    fn unknown_field_warning_names_the_key_at_its_position() {
        let (_, diagnostics) = discover(&[(
            "skills/a/SKILL.md",
            skill("name: a\ndescription: Does x. Use when y.\nversion: \"1\"").as_str(),
        )]);
        assert_eq!(codes(&diagnostics), ["AP313"]);
        assert!(diagnostics[0].message.contains("`version`"));
        assert_eq!((diagnostics[0].line, diagnostics[0].column), (Some(4), Some(1)));
    }

    /// The SKILL.md of `skill(frontmatter)` with the one AP313 finding's fix
    /// applied, and the codes a re-check finds, or `None` when no fix is offered.
    fn moved_under_metadata(frontmatter: &str) -> Option<(String, Vec<&'static str>)> {
        let text = skill(frontmatter);
        let (_, diagnostics) = discover(&[("skills/a/SKILL.md", text.as_str())]);
        let unknown: Vec<_> = diagnostics.iter().filter(|d| d.code == "AP313").collect();
        assert_eq!(unknown.len(), 1, "{frontmatter}: {diagnostics:?}");
        let fix = unknown[0].fix.clone()?;
        assert_eq!(fix.applicability, crate::fix::Applicability::Unsafe);
        let fixed = crate::fix::apply_edits(&text, &fix.edits).expect("the edits apply");
        let (section, after) = discover(&[("skills/a/SKILL.md", fixed.as_str())]);
        assert_eq!(section.entries[0].state, SkillState::Discovered, "{fixed}");
        Some((fixed, after.iter().map(|d| d.code).collect()))
    }

    #[test]
    fn the_fix_moves_a_one_line_unknown_key_under_metadata() {
        // Agent Skills `metadata`: "a map from string keys to string values".
        let base = "name: a\ndescription: Does x. Use when y.";
        let (fixed, after) = moved_under_metadata(&format!("{base}\nversion: \"1.0\"")).unwrap();
        assert!(after.is_empty(), "{after:?}");
        assert_eq!(fixed, skill(&format!("{base}\nmetadata:\n  version: \"1.0\"")));
        // Into the `metadata` there is, in its indentation; a number is quoted as written.
        let (fixed, after) = moved_under_metadata(&format!(
            "version: 1.10\n{base}\nmetadata:\n    author: x\nlicense: MIT"
        ))
        .unwrap();
        assert!(after.is_empty(), "{after:?}");
        assert_eq!(
            fixed,
            skill(&format!(
                "{base}\nmetadata:\n    author: x\n    version: \"1.10\"\nlicense: MIT"
            ))
        );
        let (fixed, after) = moved_under_metadata(&format!("{base}\nuser_invocable: true")).unwrap();
        assert!(after.is_empty(), "{after:?}");
        assert!(fixed.contains("metadata:\n  user_invocable: \"true\"\n"), "{fixed}");
    }

    #[test]
    fn no_fix_where_metadata_could_not_hold_the_value_as_it_is() {
        let base = "name: a\ndescription: Does x. Use when y.";
        for extra in [
            "tags: [a, b]",
            "extra:\n  a: b",
            "empty:",
            "note: x # why",
            "version: \"1\"\nmetadata:\n  version: \"2\"",
            "version: \"1\"\nmetadata: {author: x}",
            // A fix's edits are printed unmasked, so no value that may be a secret is moved.
            "api_token: hunter2token99",
            "upstream: ghp_Zq8Wm3Kd9Lx2Rv7Tn4Pb6Yc1Hs5Jf0GaE3uQ",
        ] {
            assert_eq!(moved_under_metadata(&format!("{base}\n{extra}")), None, "{extra}");
        }
    }
}
