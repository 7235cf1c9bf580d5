//! AP3xx: the skills hop (§6, §7.1, Agent Skills). Only immediate children of
//! `skills/` holding a path named exactly `SKILL.md` that resolves to a
//! regular file are skills; nothing deeper is searched. Each skill is checked
//! against the Agent Skills frontmatter rules; a non-conforming one is skipped
//! alone with its reason, and the others go on (§7.1, §11.3).
//!
//! Token estimates are bytes / 4, rounded up (a common rule of thumb for
//! English text with BPE tokenizers): `metadata` counts the `name` and
//! `description` values, which every context carries; `body` counts the
//! Markdown after the frontmatter, loaded when the skill is used.

mod discovery;
mod fields;
pub(crate) mod frontmatter;
mod hidden;
mod hints;
mod portability;
mod skill_md;
mod texts;
mod yaml;

use crate::rule::Rule;

pub use discovery::discover_skills;

pub static RULES: &[&Rule] = &[
    &discovery::SKILLS_NOT_DIRECTORY,
    &discovery::SKILL_MD_CASE,
    &discovery::SKILL_MD_TOO_DEEP,
    &discovery::SKILL_MD_NOT_A_FILE,
    &discovery::STRAY_SKILL_MD,
    &skill_md::SKILL_BYTE_ORDER_MARK,
    &skill_md::FRONTMATTER_MISSING,
    &skill_md::FRONTMATTER_YAML,
    &fields::SKILL_NAME_INVALID,
    &fields::SKILL_NAME_MISMATCH,
    &fields::SKILL_DESCRIPTION_INVALID,
    &fields::SKILL_FIELD_INVALID,
    &fields::SKILL_FIELD_LOOSE_TYPE,
    &fields::SKILL_UNKNOWN_FIELD,
    &hints::SKILL_DESCRIPTION_HINT,
    &hints::SKILL_BODY_LARGE,
    &portability::YAML_1_1_TYPING,
    &hidden::SKILL_HIDDEN_TEXT,
];

/// Where a `SKILL.md` given on its own (pasted into the page) sits in a
/// package: `skills/<its frontmatter name>/SKILL.md`, the directory Agent
/// Skills names after the skill. The name is taken as the frontmatter parser
/// reads it, even when it breaks the naming rules, so the check reports that
/// rather than a made-up directory hiding it; a name that cannot be one
/// directory (none, not a string, empty, `.`/`..`, holding `/` or `\`) gives
/// `skills/unnamed-skill/SKILL.md`.
pub fn pasted_skill_path(text: &str) -> String {
    let start = if text.starts_with('\u{feff}') {
        '\u{feff}'.len_utf8()
    } else {
        0
    };
    let name = frontmatter::split(text, start)
        .ok()
        .and_then(|parts| frontmatter::parse_fields(&text[parts.yaml.start..parts.yaml.end]).ok())
        .and_then(|fields| {
            fields
                .get("name")
                .and_then(|field| field.value.as_str().map(str::to_string))
        })
        .filter(|name| !name.is_empty() && name != "." && name != ".." && !name.contains(['/', '\\']));
    format!("skills/{}/SKILL.md", name.as_deref().unwrap_or("unnamed-skill"))
}

/// Helpers shared by the submodules' tests.
#[cfg(test)]
mod testing {
    use super::discover_skills;
    use crate::diag::Diagnostic;
    use crate::report::SkillsSection;
    use crate::tree::Tree;

    pub fn discover(files: &[(&str, &str)]) -> (SkillsSection, Vec<Diagnostic>) {
        discover_tree(&Tree::from_files(files.iter().copied()))
    }

    pub fn discover_tree(tree: &Tree) -> (SkillsSection, Vec<Diagnostic>) {
        let mut diagnostics = Vec::new();
        let section = discover_skills(tree, &mut diagnostics);
        (section, diagnostics)
    }

    pub fn codes(diagnostics: &[Diagnostic]) -> Vec<&str> {
        diagnostics.iter().map(|d| d.code).collect()
    }

    pub fn skill(frontmatter: &str) -> String {
        format!("---\n{frontmatter}\n---\n# Body\n")
    }
}

#[cfg(test)]
mod tests {
    use super::pasted_skill_path;
    use super::testing::{discover, discover_tree, skill};
    use super::texts::GOOD_SKILL;
    use crate::report::{SkillState, SkillsState};
    use crate::tree::Tree;

    #[test]
    fn valid_skill_is_discovered_with_tokens() {
        // §7.1, Agent Skills minimal example.
        let (section, diagnostics) = discover(&[("skills/pdf-tools/SKILL.md", GOOD_SKILL)]);
        assert_eq!(section.state, SkillsState::Valid);
        assert!(diagnostics.is_empty(), "{diagnostics:?}");
        let entry = &section.entries[0];
        assert_eq!(entry.state, SkillState::Discovered);
        assert_eq!(entry.name.as_deref(), Some("pdf-tools"));
        assert_eq!(entry.path, "skills/pdf-tools/SKILL.md");
        assert_eq!(entry.tokens.body, "# PDF tools\n".len().div_ceil(4));
        assert!(entry.tokens.metadata > 10);
    }

    #[test]
    fn five_hundred_skills_are_discovered_without_quadratic_work() {
        let files: Vec<(String, String)> = (0..500)
            .map(|i| {
                (
                    format!("skills/skill-{i}/SKILL.md"),
                    skill(&format!(
                        "name: skill-{i}\ndescription: Does thing {i}. Use when {i} is needed."
                    )),
                )
            })
            .collect();
        let (section, diagnostics) = discover_tree(&Tree::from_files(files));
        assert_eq!(section.entries.len(), 500);
        assert!(diagnostics.is_empty());
    }

    #[test]
    fn a_pasted_skill_goes_under_the_name_its_frontmatter_gives() {
        assert_eq!(
            pasted_skill_path(&skill("name: weekly-report\ndescription: d")),
            "skills/weekly-report/SKILL.md"
        );
        // The whole YAML value, not its first word: the naming rule then reports it (Agent Skills `name`).
        assert_eq!(
            pasted_skill_path(&skill("name: Weekly Summary\ndescription: d")),
            "skills/Weekly Summary/SKILL.md"
        );
        assert_eq!(
            pasted_skill_path(&skill("name: \"quoted-name\" # a comment")),
            "skills/quoted-name/SKILL.md"
        );
        assert_eq!(
            pasted_skill_path(&format!("\u{feff}{}", skill("name: bom-skill"))),
            "skills/bom-skill/SKILL.md"
        );
        for unusable in [
            "description: no name",
            "name: ../up",
            "name: 12",
            "name: ''",
            "name: ..",
            "name: [a]",
        ] {
            assert_eq!(
                pasted_skill_path(&skill(unusable)),
                "skills/unnamed-skill/SKILL.md",
                "{unusable}"
            );
        }
        assert_eq!(pasted_skill_path("# no frontmatter"), "skills/unnamed-skill/SKILL.md");
    }
}
