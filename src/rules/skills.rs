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
mod suppression;
mod texts;
mod yaml;

use crate::diag::Diagnostic;
use crate::report::SkillsSection;
use crate::rule::Rule;
use crate::rules::{containment, documents, files, layout, manifest, mcp, secrets, unread};
use crate::tree::Tree;

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
    &suppression::UNUSED_SUPPRESSION,
];

/// Discovers the skills of a loaded plugin (§6.1, §7.1) and checks each one.
pub fn discover_skills(tree: &Tree, diagnostics: &mut Vec<Diagnostic>) -> SkillsSection {
    discovery::discover_skills(tree, package_rule_code, diagnostics)
}

/// The code of the rule `code` names (in any case) among the rules that check
/// a package's files: what an `apcheck-ignore` comment may list. The families
/// are read here, not through the registry, which sits above them (it gathers
/// the snapshot rules too, and drift's check of a plugin root runs this one).
/// The snapshot rules and what `--connect` finds (AP45x, added after the
/// check) never report on a SKILL.md, so they are not among them.
fn package_rule_code(code: &str) -> Option<&'static str> {
    [
        files::RULES,
        containment::RULES,
        manifest::RULES,
        RULES,
        mcp::RULES,
        secrets::RULES,
        layout::RULES,
        unread::RULES,
        documents::RULES,
    ]
    .into_iter()
    .flatten()
    .find(|rule| rule.code.eq_ignore_ascii_case(code))
    .map(|rule| rule.code)
}

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
    fn a_comment_may_name_every_rule_that_checks_a_package_and_no_other() {
        use crate::rule::Family;
        for rule in crate::registry::all() {
            let checks_a_package = matches!(
                rule.family(),
                Family::Files | Family::Containment | Family::Manifest | Family::Skills | Family::Mcp | Family::Secrets
            ) && !crate::rules::live::RULES.iter().any(|live| live.code == rule.code);
            assert_eq!(
                super::package_rule_code(&rule.code.to_ascii_lowercase()),
                checks_a_package.then_some(rule.code),
                "{}",
                rule.code
            );
        }
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
