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
mod frontmatter;
mod hints;
mod portability;
mod skill_md;
mod texts;

use crate::rule::Rule;

pub use discovery::discover_skills;

pub static RULES: &[&Rule] = &[
    &discovery::SKILLS_NOT_DIRECTORY,
    &discovery::SKILL_MD_CASE,
    &discovery::SKILL_MD_TOO_DEEP,
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
];

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
}
