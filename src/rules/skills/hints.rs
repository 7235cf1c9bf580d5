//! Discovery-surface hints (info): whether the description helps an agent
//! pick the skill, and whether the body is small enough to load whole.

use crate::diag::{Diagnostic, Severity};
use crate::rule::{Example, Rule};
use crate::rules::files::TextFile;
use crate::source::Span;

use super::texts::{GOOD_SKILL, PLUGIN};

const BODY_TOKEN_BUDGET: usize = 5000;
const BODY_LINE_BUDGET: usize = 500;

pub static SKILL_DESCRIPTION_HINT: Rule = Rule {
    code: "AP314",
    name: "skill-description-hint",
    severity: Severity::Info,
    spec: "Agent Skills (description)",
    summary: "The description may not help an agent pick the skill",
    fix_hint: Some("Say what the skill does and when to use it: \"Extracts … Use when …\""),
    doc: rule_doc! {
        what: "Reads the description as an agent would and flags three patterns: it says what but never when \
               (no \"when\" or \"use for\" trigger), it reads like an identifier (`invoice-ops-skill-v2`), or \
               it is a first-person slogan (\"I help you …\").",
        why: "Agents see only name and description before choosing a skill; the spec asks that it describe \
              what the skill does and when to use it, with keywords for the tasks it fits.",
        failing: Example::Package(&[
            ("plugin.json", PLUGIN),
            (
                "skills/pdf-tools/SKILL.md",
                "---\nname: pdf-tools\ndescription: Helps with PDFs.\n---\n",
            ),
        ]),
        fixed: Example::Package(&[("plugin.json", PLUGIN), ("skills/pdf-tools/SKILL.md", GOOD_SKILL)]),
    },
};

pub static SKILL_BODY_LARGE: Rule = Rule {
    code: "AP315",
    name: "skill-body-large",
    severity: Severity::Info,
    spec: "Agent Skills (progressive disclosure)",
    summary: "The SKILL.md body is over about 5000 tokens or 500 lines",
    fix_hint: Some("Move reference material to files under references/ and link them from SKILL.md"),
    doc: rule_doc! {
        what: "Estimates the body at bytes / 4 tokens and counts its lines.",
        why: "The whole body is loaded when the skill is used; the spec recommends under 5000 tokens and 500 \
              lines, with details in separate files loaded on demand.",
        failing: Example::Described("a SKILL.md whose body is 30 KB of API reference in one file"),
        fixed: Example::Package(&[("plugin.json", PLUGIN), ("skills/pdf-tools/SKILL.md", GOOD_SKILL)]),
    },
};

/// Discovery-surface advice for a valid description, if any applies.
pub(super) fn description_advice(description: &str, name: Option<&str>) -> Option<String> {
    let trimmed = description.trim();
    let lower = trimmed.to_lowercase();
    let words: Vec<&str> = lower.split_whitespace().collect();
    if words.len() == 1 && (trimmed.contains(['-', '_']) || Some(trimmed) == name) {
        return Some(format!(
            "the description \"{trimmed}\" reads like an identifier; agents choose skills by what the description says the skill does and when to use it"
        ));
    }
    let first = words.first().copied().unwrap_or_default();
    if matches!(first, "i" | "i'm" | "we" | "we're" | "my" | "our" | "let")
        || lower.starts_with("your ")
        || lower.starts_with("the best")
        || lower.starts_with("the ultimate")
    {
        return Some(
            "the description reads like a slogan; say in the third person what the skill does and when to use it"
                .to_string(),
        );
    }
    const TRIGGERS: &[&str] = &[
        "when",
        "whenever",
        "use for",
        "use to",
        "use this",
        "use it",
        "use if",
        "if the user",
        "trigger",
    ];
    // The trigger words are English; a description written in another language is not judged by them.
    let letters = trimmed.chars().filter(|c| c.is_alphabetic()).count();
    let ascii_letters = trimmed.chars().filter(char::is_ascii_alphabetic).count();
    if ascii_letters * 2 > letters && !TRIGGERS.iter().any(|trigger| lower.contains(trigger)) {
        return Some(
            "the description says what the skill does but not when to use it; add a trigger such as \"Use when …\""
                .to_string(),
        );
    }
    None
}

/// Progressive disclosure: the whole body is loaded when the skill is used.
pub(super) fn check_body(file: &TextFile, body: Span, tokens: usize, diagnostics: &mut Vec<Diagnostic>) {
    let text = file.text.as_str();
    let body_text = &text[body.start..body.end];
    let lines = body_text.lines().count();
    if tokens > BODY_TOKEN_BUDGET || lines > BODY_LINE_BUDGET {
        diagnostics.push(
            Diagnostic::new(
                &SKILL_BODY_LARGE,
                format!(
                    "the body is about {tokens} tokens in {lines} lines; the whole of it is loaded when the skill is used (recommended: under {BODY_TOKEN_BUDGET} tokens and {BODY_LINE_BUDGET} lines)"
                ),
            )
            .in_file(&file.path)
            .at_span(text, &file.index, Span::new(body.start, body.start)),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{codes, discover, skill};
    use super::*;
    use crate::report::SkillState;

    #[test]
    fn discovery_hints() {
        assert!(
            description_advice("Helps with PDFs.", Some("pdf"))
                .unwrap()
                .contains("when")
        );
        assert!(
            description_advice("invoice-ops-skill-v2", Some("x"))
                .unwrap()
                .contains("identifier")
        );
        assert!(
            description_advice("I help you ship faster when you code.", None)
                .unwrap()
                .contains("slogan")
        );
        assert!(description_advice("Extracts PDF text. Use when the user has PDFs.", None).is_none());
        assert!(description_advice("知识结晶：将已解决问题的经验沉淀为结构化知识文档", None).is_none());
    }

    #[test]
    fn large_body_gets_a_progressive_disclosure_hint() {
        let text = format!(
            "{}{}",
            skill("name: a\ndescription: Does x. Use when y."),
            "line\n".repeat(600)
        );
        let (section, diagnostics) = discover(&[("skills/a/SKILL.md", text.as_str())]);
        assert_eq!(codes(&diagnostics), ["AP315"]);
        assert_eq!(section.entries[0].state, SkillState::Discovered);
    }
}
