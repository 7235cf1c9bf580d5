//! One `SKILL.md`: a byte order mark, the `---` frontmatter block and its
//! YAML, then the fields and the hints. Every diagnostic is placed in the
//! whole file (the frontmatter's offset added to YAML positions).

use crate::diag::{Diagnostic, Severity};
use crate::report::SkillEntry;
use crate::rule::{Example, Rule};
use crate::rules::files::{self, TextFile};
use crate::source::Span;

use super::frontmatter::{self, SplitError, YamlCause, YamlError};
use super::texts::{GOOD_SKILL, PLUGIN, SKIPPED};
use super::{fields, hidden, hints, portability};

pub static SKILL_BYTE_ORDER_MARK: Rule = Rule {
    code: "AP305",
    name: "skill-byte-order-mark",
    severity: Severity::Warning,
    spec: "Agent Skills (SKILL.md format); YAML 1.2 §5.2",
    summary: "SKILL.md starts with a byte order mark",
    fix_hint: Some("Save SKILL.md as UTF-8 without a BOM"),
    doc: rule_doc! {
        what: "Reports a SKILL.md starting with U+FEFF. apcheck skips the mark and reads the frontmatter.",
        why: "YAML allows a BOM at the start of a stream, but a client that tests whether the file starts with \
              `---` before parsing finds no frontmatter and skips the skill.",
        failing: Example::Package(&[
            ("plugin.json", PLUGIN),
            (
                "skills/pdf-tools/SKILL.md",
                "\u{FEFF}---\nname: pdf-tools\ndescription: Extracts text from PDF files. Use when the user works with PDFs.\n---\n",
            ),
        ]),
        fixed: Example::Package(&[("plugin.json", PLUGIN), ("skills/pdf-tools/SKILL.md", GOOD_SKILL)]),
    },
};

pub static FRONTMATTER_MISSING: Rule = Rule {
    code: "AP306",
    name: "frontmatter-missing",
    severity: Severity::Error,
    spec: "Agent Skills (SKILL.md format); Agent Plugins §7.1",
    summary: "SKILL.md does not start with a `---` frontmatter block, or the block is not closed",
    fix_hint: Some("Start the file with `---`, the name and description lines, then `---`"),
    doc: rule_doc! {
        what: "Checks that the first line of SKILL.md is `---` and that a later line `---` closes the block \
               (CRLF line ends are accepted).",
        why: "SKILL.md MUST contain YAML frontmatter followed by Markdown; without it there is no name or \
              description, so the skill does not conform and is skipped (§7.1).",
        failing: Example::Package(&[
            ("plugin.json", PLUGIN),
            ("skills/pdf-tools/SKILL.md", "# PDF tools\n\nname: pdf-tools\n"),
        ]),
        fixed: Example::Package(&[("plugin.json", PLUGIN), ("skills/pdf-tools/SKILL.md", GOOD_SKILL)]),
    },
};

pub static FRONTMATTER_YAML: Rule = Rule {
    code: "AP307",
    name: "frontmatter-yaml",
    severity: Severity::Error,
    spec: "Agent Skills (SKILL.md format); Agent Plugins §7.1",
    summary: "The frontmatter is not a YAML mapping",
    fix_hint: Some("Quote values that contain `: ` or start with a special character"),
    doc: rule_doc! {
        what: "Parses the frontmatter as YAML (duplicate keys rejected, aliases and depth bounded) and \
               requires a mapping of fields; reports the error at its line and column. The hint to quote a value \
               comes with syntax errors only; a frontmatter that is YAML but not usable fields (a key given \
               twice, a root list, an alias inside its own anchor) gets the reader's message alone.",
        why: "A client that cannot read the frontmatter cannot know the skill's name or description, so the \
              skill is skipped (§7.1). The usual cause is an unquoted value containing `: `.",
        failing: Example::Package(&[
            ("plugin.json", PLUGIN),
            (
                "skills/pdf-tools/SKILL.md",
                "---\nname: pdf-tools\ndescription: Extracts PDF text. Use when: the user has PDFs.\n---\n",
            ),
        ]),
        fixed: Example::Package(&[
            ("plugin.json", PLUGIN),
            (
                "skills/pdf-tools/SKILL.md",
                "---\nname: pdf-tools\ndescription: \"Extracts PDF text. Use when: the user has PDFs.\"\n---\n",
            ),
        ]),
    },
};

/// Frontmatter and body of one SKILL.md; fills the entry, pushes diagnostics.
pub(super) fn check_skill_file(file: &TextFile, dir: &str, entry: &mut SkillEntry, diagnostics: &mut Vec<Diagnostic>) {
    let text = file.text.as_str();
    let start = if text.starts_with('\u{FEFF}') {
        diagnostics.push(
            Diagnostic::new(
                &SKILL_BYTE_ORDER_MARK,
                "SKILL.md starts with a byte order mark; clients that look for `---` at the first byte find no frontmatter",
            )
            .in_file(&file.path)
            .at_span(text, &file.index, Span::new(0, 3)),
        );
        3
    } else {
        0
    };
    hidden::check_hidden_text(file, start, diagnostics);
    let split = frontmatter::split(text, start);
    // YAML reads the frontmatter, where NUL is not printable; the Markdown body
    // has no format restrictions, so a NUL there skips nothing. Without a
    // frontmatter the whole file is in question, and NUL bytes all through it
    // say "UTF-16" better than "no `---` line" does.
    let read_as_yaml = split.map_or(text.len(), |parts| parts.body.start);
    if files::report_nul(file, read_as_yaml, SKIPPED, diagnostics) {
        return;
    }
    let parts = match split {
        Ok(parts) => parts,
        Err(error) => {
            let what = match error {
                SplitError::NoOpening => "SKILL.md does not start with a `---` line, so it has no frontmatter",
                SplitError::Unclosed => {
                    "the frontmatter opened by `---` on line 1 is never closed by another `---` line"
                }
            };
            diagnostics.push(
                Diagnostic::new(&FRONTMATTER_MISSING, format!("{what}; {SKIPPED}"))
                    .in_file(&file.path)
                    .at_span(text, &file.index, Span::new(start, start)),
            );
            return;
        }
    };
    let body = &text[parts.body.start..parts.body.end];
    entry.tokens.body = estimate_tokens(body);
    let yaml = &text[parts.yaml.start..parts.yaml.end];
    let shift = |span: Span| Span::new(span.start + parts.yaml.start, span.end + parts.yaml.start);
    let (fields, yaml11_differs) = match frontmatter::parse_fields_noting_yaml11(yaml) {
        Ok(read) => read,
        Err(error) => {
            diagnostics.push(frontmatter_yaml_error(&error).in_file(&file.path).at_span(
                text,
                &file.index,
                shift(error.span),
            ));
            return;
        }
    };
    let place = |rule: &Rule, pointer: &str, span: Span, message: String| {
        Diagnostic::new(rule, message)
            .in_file(&file.path)
            .at_pointer(pointer)
            .at_span(text, &file.index, shift(span))
    };
    fields::check_fields(&fields, yaml, dir, entry, &place, diagnostics);
    hidden::check_escaped_fields(&fields, yaml, &place, diagnostics);
    // Reading the YAML again as 1.1 finds nothing when no scalar is typed otherwise there.
    if yaml11_differs {
        portability::check_yaml11_typing(yaml, &fields, &place, diagnostics);
    }
    entry.tokens.metadata = estimate_tokens(entry.name.as_deref().unwrap_or_default())
        + estimate_tokens(entry.description.as_deref().unwrap_or_default());
    hints::check_body(file, parts.body, entry.tokens.body, diagnostics);
}

/// The AP307 finding for `error`, worded by its cause: quoting is the advice
/// for a syntax error only, and a refused budget says what a client reads.
fn frontmatter_yaml_error(error: &YamlError) -> Diagnostic {
    let (what, hint) = match error.cause {
        YamlCause::Syntax => ("the frontmatter is not valid YAML", FRONTMATTER_YAML.fix_hint),
        YamlCause::Shape => ("the frontmatter cannot be read as fields", None),
        YamlCause::Limit => (
            "the frontmatter is refused",
            Some("Keep the frontmatter to plain `key: value` fields: a client reads only the skill's metadata from it"),
        ),
    };
    let mut diagnostic = Diagnostic::new(&FRONTMATTER_YAML, format!("{what}: {}; {SKIPPED}", error.message));
    diagnostic.hint = hint.map(str::to_string);
    diagnostic
}

/// Bytes / 4, rounded up (the estimate `skills.rs` documents).
fn estimate_tokens(text: &str) -> usize {
    text.len().div_ceil(4)
}

#[cfg(test)]
mod tests {
    use super::super::testing::{codes, discover, skill};
    use crate::report::SkillState;

    #[test]
    fn frontmatter_must_open_and_close() {
        let (section, diagnostics) =
            discover(&[("skills/a/SKILL.md", "# A\n"), ("skills/b/SKILL.md", "---\nname: b\n")]);
        assert_eq!(codes(&diagnostics), ["AP306", "AP306"]);
        assert!(section.entries.iter().all(|e| e.state == SkillState::Skipped));
        assert!(diagnostics[1].message.contains("never closed"));
    }

    #[test]
    fn crlf_and_bom_are_handled_deliberately() {
        let crlf = "---\r\nname: a\r\ndescription: Does x. Use when y.\r\n---\r\nBody\r\n";
        let (section, diagnostics) = discover(&[("skills/a/SKILL.md", crlf)]);
        assert!(diagnostics.is_empty(), "{diagnostics:?}");
        assert_eq!(section.entries[0].state, SkillState::Discovered);
        let bom = format!("\u{FEFF}{}", skill("name: a\ndescription: Does x. Use when y."));
        let (section, diagnostics) = discover(&[("skills/a/SKILL.md", bom.as_str())]);
        assert_eq!(codes(&diagnostics), ["AP305"]);
        assert_eq!(section.entries[0].state, SkillState::Discovered);
    }

    #[test]
    fn nul_skips_a_skill_only_where_yaml_reads_it() {
        // The Agent Skills specification puts no format restriction on the body.
        let in_body = format!(
            "{}some text \0 here\n",
            skill("name: a\ndescription: Does x. Use when y.")
        );
        let (section, diagnostics) = discover(&[("skills/a/SKILL.md", in_body.as_str())]);
        assert!(diagnostics.is_empty(), "{diagnostics:?}");
        assert_eq!(section.entries[0].state, SkillState::Discovered);
        let in_frontmatter = skill("name: a\ndescription: Does x.\0 Use when y.");
        let (section, diagnostics) = discover(&[("skills/a/SKILL.md", in_frontmatter.as_str())]);
        assert_eq!(codes(&diagnostics), ["AP003"]);
        assert_eq!(section.entries[0].state, SkillState::Skipped);
        // UTF-16 read as UTF-8: no `---` line is found, and the NUL says why.
        let utf16: String = "---\nname: a\n---\n".chars().flat_map(|c| [c, '\0']).collect();
        let (section, diagnostics) = discover(&[("skills/a/SKILL.md", utf16.as_str())]);
        assert_eq!(codes(&diagnostics), ["AP003"]);
        assert_eq!(section.entries[0].state, SkillState::Skipped);
    }

    /// An AP307 finding's message opens with `lead`, and its hint holds
    /// `hint` (or there is none).
    fn assert_advice(diagnostic: &crate::diag::Diagnostic, lead: &str, hint: Option<&str>) {
        assert!(diagnostic.message.starts_with(lead), "{}", diagnostic.message);
        match hint {
            Some(words) => assert!(
                diagnostic.hint.as_deref().is_some_and(|hint| hint.contains(words)),
                "{:?}",
                diagnostic.hint
            ),
            None => assert_eq!(diagnostic.hint, None, "{}", diagnostic.message),
        }
    }

    #[test]
    fn yaml_error_points_into_the_file() {
        let text = skill("name: a\ndescription: Does x. Use when: y happens");
        let (section, diagnostics) = discover(&[("skills/a/SKILL.md", text.as_str())]);
        assert_eq!(codes(&diagnostics), ["AP307"]);
        assert_eq!(diagnostics[0].line, Some(3));
        assert_advice(&diagnostics[0], "the frontmatter is not valid YAML: ", Some("Quote"));
        assert_eq!(section.entries[0].state, SkillState::Skipped);
    }

    #[test]
    fn yaml_error_advice_follows_its_cause() {
        // Valid YAML that is not usable fields: the reader's message stands, and
        // quoting (the syntax error's advice) would not help, so there is no hint.
        for yaml in [
            "name: a\nname: b\ndescription: x",
            "- name: a\n- description: x",
            "name: &a [*a]\ndescription: x",
        ] {
            let text = skill(yaml);
            let (_, diagnostics) = discover(&[("skills/a/SKILL.md", text.as_str())]);
            assert_eq!(codes(&diagnostics), ["AP307"], "{yaml}");
            assert_advice(&diagnostics[0], "the frontmatter cannot be read as fields: ", None);
        }
    }

    #[test]
    fn alias_bomb_in_frontmatter_is_a_yaml_error() {
        let mut yaml = String::from("name: a\ndescription: x\nl0: &l0 [x, x, x, x, x, x, x, x, x]\n");
        for i in 1..10 {
            let p = i - 1;
            yaml.push_str(&format!(
                "l{i}: &l{i} [*l{p}, *l{p}, *l{p}, *l{p}, *l{p}, *l{p}, *l{p}, *l{p}, *l{p}]\n"
            ));
        }
        let (section, diagnostics) = discover(&[("skills/a/SKILL.md", skill(&yaml).as_str())]);
        assert_eq!(codes(&diagnostics), ["AP307"]);
        assert_advice(
            &diagnostics[0],
            "the frontmatter is refused: ",
            Some("plain `key: value`"),
        );
        assert_eq!(section.entries[0].state, SkillState::Skipped);
    }
}
