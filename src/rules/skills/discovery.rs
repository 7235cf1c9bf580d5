//! Discovery (§6.1, §6.2, §7.1): `skills/` must be a directory inside the
//! root; each immediate child holding a path named exactly `SKILL.md` that
//! resolves to a regular file is a skill. Near misses (a `skill.md`, a skill
//! one folder too deep, SKILL.md files elsewhere) are explained, never
//! discovered.

use std::collections::BTreeSet;

use crate::diag::{Diagnostic, Severity};
use crate::report::{SkillEntry, SkillState, SkillsSection, SkillsState, TokenEstimate};
use crate::rule::{Example, Rule};
use crate::rules::containment::{Resolution, resolve_within_root};
use crate::rules::files::{Load, dangling_link, describe, read_text_file};
use crate::tree::{Entry, Tree};

use super::skill_md;
use super::suppression::{self, RuleCode};
use super::texts::{GOOD_SKILL, PLUGIN, SKILLS_INVALID, SKIPPED};

/// How many paths the stray summary names before "and N more".
const NAMED_PATHS: usize = 3;

/// How many skill folders are checked together (in parallel, natively)
/// before their findings are merged: the findings of one chunk are held
/// twice at most, not those of every skill.
const SKILL_DIRS_AT_ONCE: usize = 1024;

pub static SKILLS_NOT_DIRECTORY: Rule = Rule {
    code: "AP301",
    name: "skills-not-directory",
    severity: Severity::Error,
    spec: "Agent Plugins §6.2",
    summary: "`skills` exists but is not a directory; no skill of this plugin loads",
    fix_hint: Some("Make `skills/` a directory holding one folder per skill"),
    doc: rule_doc! {
        what: "Reports a `skills` path that resolves to a file, FIFO or other non-directory.",
        why: "A fixed location that does not resolve to the expected kind makes that component type invalid; \
              the client keeps loading the other types (§6.2).",
        failing: Example::Package(&[("plugin.json", PLUGIN), ("skills", "pdf-tools")]),
        fixed: Example::Package(&[("plugin.json", PLUGIN), ("skills/pdf-tools/SKILL.md", GOOD_SKILL)]),
    },
};

pub static SKILL_MD_CASE: Rule = Rule {
    code: "AP302",
    name: "skill-md-case",
    severity: Severity::Warning,
    spec: "Agent Plugins §7.1",
    summary: "A skill folder has `skill.md` (or another casing) but no `SKILL.md`; it is not discovered",
    fix_hint: Some("Rename the file to exactly `SKILL.md`"),
    doc: rule_doc! {
        what: "Reports a folder under skills/ without `SKILL.md` that holds the same name in another case.",
        why: "Discovery looks for a path named exactly `SKILL.md` (§7.1); on a case-sensitive filesystem \
              `skill.md` is another file, so the skill is installed but never shows up.",
        failing: Example::Package(&[("plugin.json", PLUGIN), ("skills/pdf-tools/skill.md", GOOD_SKILL)]),
        fixed: Example::Package(&[("plugin.json", PLUGIN), ("skills/pdf-tools/SKILL.md", GOOD_SKILL)]),
    },
};

pub static SKILL_MD_NOT_A_FILE: Rule = Rule {
    code: "AP317",
    name: "skill-md-not-a-file",
    severity: Severity::Warning,
    spec: "Agent Plugins §7.1",
    summary: "A skill folder's `SKILL.md` is not a regular file; the folder is not discovered",
    fix_hint: Some("Make `SKILL.md` the skill's file (or a symlink to a file inside the plugin root)"),
    doc: rule_doc! {
        what: "Reports a `skills/<name>/SKILL.md` that is a directory, a FIFO or socket, or a symlink to nothing.",
        why: "Only a `SKILL.md` that resolves to a regular file makes a skill (§7.1). The folder is not \
              discovered, so nothing is skipped: as with `skill.md` (AP302), the skill never shows up.",
        failing: Example::Package(&[
            ("plugin.json", PLUGIN),
            ("skills/pdf-tools/SKILL.md/SKILL.md", GOOD_SKILL),
        ]),
        fixed: Example::Package(&[("plugin.json", PLUGIN), ("skills/pdf-tools/SKILL.md", GOOD_SKILL)]),
    },
};

pub static SKILL_MD_TOO_DEEP: Rule = Rule {
    code: "AP303",
    name: "skill-md-too-deep",
    severity: Severity::Warning,
    spec: "Agent Plugins §7.1",
    summary: "A folder under skills/ has no SKILL.md of its own, only deeper ones; nothing in it is discovered",
    fix_hint: Some("Move each skill folder up so that its SKILL.md is at skills/<name>/SKILL.md"),
    doc: rule_doc! {
        what: "Reports an immediate child of skills/ without SKILL.md that has SKILL.md files further down \
               (a category folder, a nested repository layout).",
        why: "Clients MUST NOT search deeper descendants (§7.1): skills grouped in sub-folders are installed \
              but never discovered. This is the first cause of \"installed, but nothing shows up\".",
        failing: Example::Package(&[
            ("plugin.json", PLUGIN),
            ("skills/documents/pdf-tools/SKILL.md", GOOD_SKILL),
        ]),
        fixed: Example::Package(&[("plugin.json", PLUGIN), ("skills/pdf-tools/SKILL.md", GOOD_SKILL)]),
    },
};

pub static STRAY_SKILL_MD: Rule = Rule {
    code: "AP304",
    name: "stray-skill-md",
    severity: Severity::Info,
    spec: "Agent Plugins §6.1, §7.1",
    summary: "SKILL.md files outside skills/<name>/ are never discovered",
    fix_hint: Some("If they are meant as skills of this plugin, move them to skills/<name>/SKILL.md"),
    doc: rule_doc! {
        what: "Counts, once per package, SKILL.md files anywhere other than skills/<name>/SKILL.md (at the \
               root, in vendor folders, nested inside a skill) and names the first few.",
        why: "Skills are discovered only from the fixed location (§6.1), one level deep (§7.1). Copies for \
              other clients are fine; a skill meant for this plugin in the wrong place silently never loads.",
        failing: Example::Package(&[("plugin.json", PLUGIN), ("SKILL.md", GOOD_SKILL)]),
        fixed: Example::Package(&[("plugin.json", PLUGIN), ("skills/pdf-tools/SKILL.md", GOOD_SKILL)]),
    },
};

/// Discovers the skills of a loaded plugin (§6.1, §7.1) and checks each one;
/// `rule_code` reads the codes their `apcheck-ignore` comments list.
pub(super) fn discover_skills(tree: &Tree, rule_code: RuleCode, diagnostics: &mut Vec<Diagnostic>) -> SkillsSection {
    let mut section = SkillsSection {
        state: SkillsState::Absent,
        entries: Vec::new(),
        suppressed: 0,
    };
    let mut accounted = Accounted::default();
    match resolve_within_root(tree, "skills", SKILLS_INVALID, diagnostics) {
        // §6.2: a link that resolves to nothing is present, and not a directory.
        Resolution::Absent => {
            if let Some(target) = dangling_link(tree, "skills") {
                section.state = SkillsState::Invalid;
                let message = format!(
                    "`skills` is a symlink to `{target}`, which does not exist, not a directory; {SKILLS_INVALID}"
                );
                diagnostics.push(Diagnostic::new(&SKILLS_NOT_DIRECTORY, message).in_file("skills"));
            }
        }
        Resolution::Refused => section.state = SkillsState::Invalid,
        Resolution::Found(resolved) => match resolved.entry {
            Entry::Dir => {
                section.state = SkillsState::Valid;
                crate::rules::unread::listing_not_read(tree, resolved.path, "skills", diagnostics);
                let names: Vec<&str> = tree.children(resolved.path).map(|(name, _, _)| name).collect();
                // In listing order, as if checked one after the other.
                for chunk in names.chunks(SKILL_DIRS_AT_ONCE) {
                    for checked in check_skill_dirs(tree, resolved.path, chunk, rule_code) {
                        diagnostics.extend(checked.diagnostics);
                        accounted.reached.extend(checked.reached);
                        accounted.explained_dirs.extend(checked.explained_dir);
                        section.entries.extend(checked.entry);
                        section.suppressed += checked.suppressed;
                    }
                }
            }
            other => {
                section.state = SkillsState::Invalid;
                diagnostics.push(
                    Diagnostic::new(
                        &SKILLS_NOT_DIRECTORY,
                        format!(
                            "`skills` is {}, not a directory; {SKILLS_INVALID}",
                            describe(tree.settled(resolved.path, other))
                        ),
                    )
                    .in_file("skills"),
                );
            }
        },
    }
    report_stray_skill_files(tree, &accounted, diagnostics);
    section
}

/// What discovery already accounted for, so the stray summary does not repeat it.
#[derive(Default)]
struct Accounted {
    /// Real paths of the SKILL.md files reached as `skills/<name>/SKILL.md` (through links too).
    reached: BTreeSet<String>,
    /// Real folders under skills/ already explained one by one (AP302, AP303).
    explained_dirs: BTreeSet<String>,
}

impl Accounted {
    fn covers(&self, path: &str) -> bool {
        self.reached.contains(path)
            || path
                .rmatch_indices('/')
                .any(|(slash, _)| self.explained_dirs.contains(&path[..slash]))
    }
}

/// What checking one folder under `skills/` found, to be merged in listing order.
#[derive(Default)]
struct CheckedDir {
    entry: Option<SkillEntry>,
    diagnostics: Vec<Diagnostic>,
    /// The real path of its SKILL.md, when it resolved to a file ([`Accounted::reached`]).
    reached: Option<String>,
    /// The real folder, when a near miss in it was explained ([`Accounted::explained_dirs`]).
    explained_dir: Option<String>,
    /// Findings its SKILL.md's `apcheck-ignore` comments hid.
    suppressed: usize,
}

/// Checks the folders `names` of `skills_dir`. Each depends on nothing but
/// the tree, so natively they are checked on every core: reading and parsing
/// the SKILL.md files is most of the time a plugin with thousands of skills
/// takes. The results come back in the order of `names`, so the report is
/// the same as checking them one by one, as the wasm (one thread) does.
#[cfg(not(target_arch = "wasm32"))]
fn check_skill_dirs(tree: &Tree, skills_dir: &str, names: &[&str], rule_code: RuleCode) -> Vec<CheckedDir> {
    use rayon::prelude::*;
    names
        .par_iter()
        .map(|name| check_skill_dir(tree, skills_dir, name, rule_code))
        .collect()
}

#[cfg(target_arch = "wasm32")]
fn check_skill_dirs(tree: &Tree, skills_dir: &str, names: &[&str], rule_code: RuleCode) -> Vec<CheckedDir> {
    names
        .iter()
        .map(|name| check_skill_dir(tree, skills_dir, name, rule_code))
        .collect()
}

/// One immediate child of `skills/`: a skill entry when it holds a `SKILL.md`
/// that is (or claims to be) a file; otherwise a hint at most.
fn check_skill_dir(tree: &Tree, skills_dir: &str, name: &str, rule_code: RuleCode) -> CheckedDir {
    let mut checked = CheckedDir::default();
    checked.entry = check_skill(tree, skills_dir, name, rule_code, &mut checked);
    checked
}

/// [`check_skill_dir`]'s entry, recording the rest in `checked`.
fn check_skill(
    tree: &Tree,
    skills_dir: &str,
    name: &str,
    rule_code: RuleCode,
    checked: &mut CheckedDir,
) -> Option<SkillEntry> {
    let diagnostics = &mut checked.diagnostics;
    let path = format!("skills/{name}/SKILL.md");
    let mut entry = SkillEntry {
        dir: name.to_string(),
        name: None,
        description: None,
        path: path.clone(),
        state: SkillState::Skipped,
        reason: None,
        tokens: TokenEstimate::default(),
    };
    match resolve_within_root(tree, &path, SKIPPED, diagnostics) {
        Resolution::Refused => {
            entry.reason = first_error(diagnostics);
            return Some(entry);
        }
        Resolution::Absent => {
            // §7.1: a SKILL.md that resolves to nothing makes no skill, whatever its name.
            if let Some(target) = dangling_link(tree, &path) {
                let message = format!(
                    "`{path}` is a symlink to `{target}`, which does not exist, so `skills/{name}` is not a skill (§7.1)"
                );
                diagnostics.push(Diagnostic::new(&SKILL_MD_NOT_A_FILE, message).in_file(&path));
                return None;
            }
            let real_dir = format!("{skills_dir}/{name}");
            if explain_missing_skill_md(tree, &real_dir, name, diagnostics) {
                checked.explained_dir = Some(real_dir);
            }
            return None;
        }
        Resolution::Found(resolved) if !matches!(resolved.entry, Entry::File(_) | Entry::Unreadable(_)) => {
            // §7.1: only a SKILL.md resolving to a regular file makes a skill.
            diagnostics.push(
                Diagnostic::new(
                    &SKILL_MD_NOT_A_FILE,
                    format!(
                        "`{path}` is {}, so `skills/{name}` is not a skill (§7.1)",
                        describe(resolved.entry)
                    ),
                )
                .in_file(&path),
            );
            return None;
        }
        Resolution::Found(resolved) => {
            checked.reached = Some(resolved.path.to_string());
        }
    }
    let file = match read_text_file(tree, &path, SKIPPED, diagnostics) {
        Load::Loaded(file) => file,
        Load::Absent | Load::Failed => {
            entry.reason = first_error(diagnostics);
            return Some(entry);
        }
    };
    skill_md::check_skill_file(&file, name, &mut entry, diagnostics);
    entry.reason = first_error(diagnostics);
    if entry.reason.is_none() {
        entry.state = SkillState::Discovered;
    }
    // After the state is decided: a comment hides a finding, never its consequence.
    checked.suppressed = suppression::apply(&file, rule_code, diagnostics);
    Some(entry)
}

fn first_error(diagnostics: &[Diagnostic]) -> Option<String> {
    diagnostics
        .iter()
        .find(|d| d.severity == Severity::Error)
        .map(|d| d.message.clone())
}

/// A folder under skills/ without SKILL.md: say why, if a near miss explains
/// it; returns whether it did.
fn explain_missing_skill_md(tree: &Tree, real_dir: &str, name: &str, diagnostics: &mut Vec<Diagnostic>) -> bool {
    if let Some((other, _, _)) = tree
        .children(real_dir)
        .find(|(file, _, _)| file.eq_ignore_ascii_case("SKILL.md"))
    {
        diagnostics.push(
            Diagnostic::new(
                &SKILL_MD_CASE,
                format!("`skills/{name}/{other}` is not discovered: the file must be named exactly `SKILL.md` (§7.1)"),
            )
            .in_file(format!("skills/{name}/{other}")),
        );
        return true;
    }
    let deeper: Vec<&str> = tree
        .descendants(real_dir)
        .filter(|(path, _)| is_skill_md_name(path))
        .map(|(path, _)| path)
        .collect();
    let Some(first) = deeper.first() else { return false };
    let found = match deeper.len() {
        1 => format!("`{first}` below it is"),
        n => format!("`{first}` and {} more below it are", n - 1),
    };
    diagnostics.push(
            Diagnostic::new(
                &SKILL_MD_TOO_DEEP,
                format!(
                    "`skills/{name}` has no SKILL.md of its own; {found} never discovered, because clients do not search deeper than skills/<name>/ (§7.1)"
                ),
            )
            .in_file(format!("skills/{name}")),
        );
    true
}

fn is_skill_md_name(path: &str) -> bool {
    path.rsplit('/')
        .next()
        .is_some_and(|file| file.eq_ignore_ascii_case("SKILL.md"))
}

/// One summary of SKILL.md files that discovery never reaches (AP304): one
/// line per package, not one per file, because vendor copies of a whole skill
/// tree are common (hundreds of files) and a line each would bury the rest.
fn report_stray_skill_files(tree: &Tree, accounted: &Accounted, diagnostics: &mut Vec<Diagnostic>) {
    let stray: Vec<&str> = tree
        .entries()
        // The name first: telling a readable file from an unreadable one may open it.
        .filter(|(path, entry)| {
            is_skill_md_name(path) && matches!(tree.settled(path, entry), Entry::File(_) | Entry::Symlink(_))
        })
        .map(|(path, _)| path)
        .filter(|path| !is_discovery_position(path) && !accounted.covers(path))
        .collect();
    let Some(first) = stray.first() else { return };
    let mut named: Vec<String> = stray.iter().take(NAMED_PATHS).map(|p| format!("`{p}`")).collect();
    if stray.len() > NAMED_PATHS {
        named.push(format!("and {} more", stray.len() - NAMED_PATHS));
    }
    let count = if stray.len() == 1 {
        "1 SKILL.md file is".to_string()
    } else {
        format!("{} SKILL.md files are", stray.len())
    };
    diagnostics.push(
        Diagnostic::new(
            &STRAY_SKILL_MD,
            format!(
                "{count} outside skills/<name>/SKILL.md and never discovered (§6.1, §7.1): {}",
                named.join(", ")
            ),
        )
        .in_file(*first),
    );
}

/// `skills/<name>/SKILL.md`, exactly: where discovery looks.
fn is_discovery_position(path: &str) -> bool {
    let mut parts = path.split('/');
    matches!(
        (parts.next(), parts.next(), parts.next(), parts.next()),
        (Some("skills"), Some(_), Some("SKILL.md"), None)
    )
}

#[cfg(test)]
mod tests {
    use super::super::testing::{codes, discover, discover_tree, skill};
    use super::*;

    #[test]
    fn absent_skills_is_not_an_error() {
        // §6.2: an absent fixed location is not an error.
        let (section, diagnostics) = discover(&[("plugin.json", "{}")]);
        assert_eq!(section.state, SkillsState::Absent);
        assert!(diagnostics.is_empty());
    }

    #[test]
    fn skills_file_makes_the_component_invalid() {
        // §6.2: present but not a directory.
        let (section, diagnostics) = discover(&[("skills", "x")]);
        assert_eq!(section.state, SkillsState::Invalid);
        assert_eq!(codes(&diagnostics), ["AP301"]);
    }

    #[test]
    fn escaping_skill_md_is_skipped_and_others_load() {
        // §4.1 boundary 3: skip that skill.
        let mut tree = Tree::from_files([(
            "skills/ok/SKILL.md",
            skill("name: ok\ndescription: Does x. Use when y."),
        )]);
        tree.insert(
            "skills/escaping/SKILL.md",
            Entry::Symlink("../../../outside/SKILL.md".into()),
        );
        let (section, diagnostics) = discover_tree(&tree);
        assert_eq!(codes(&diagnostics), ["AP101"]);
        let states: Vec<_> = section.entries.iter().map(|e| (e.dir.as_str(), e.state)).collect();
        assert_eq!(
            states,
            [("escaping", SkillState::Skipped), ("ok", SkillState::Discovered)]
        );
        assert!(
            section.entries[0]
                .reason
                .as_deref()
                .unwrap()
                .contains("outside the plugin root")
        );
    }

    #[test]
    fn skill_md_directory_is_not_a_skill() {
        let (section, diagnostics) = discover(&[("skills/a/SKILL.md/x", "")]);
        assert!(section.entries.is_empty());
        assert_eq!(codes(&diagnostics), ["AP317"]);
    }

    #[test]
    fn links_to_nothing_are_present_not_absent() {
        // §6.2: `skills` present as a link that resolves to nothing is invalid, not absent.
        let mut tree = Tree::from_files([("plugin.json", "{}")]);
        tree.insert("skills", Entry::Symlink("gone".into()));
        let (section, diagnostics) = discover_tree(&tree);
        assert_eq!(section.state, SkillsState::Invalid);
        assert_eq!(codes(&diagnostics), ["AP301"]);
        // §7.1: a SKILL.md link to nothing makes no skill, and its name is not the problem.
        let mut tree = Tree::from_files([(
            "skills/ok/SKILL.md",
            skill("name: ok\ndescription: Does x. Use when y."),
        )]);
        tree.insert("skills/gone/SKILL.md", Entry::Symlink("missing.md".into()));
        let (section, diagnostics) = discover_tree(&tree);
        assert_eq!(codes(&diagnostics), ["AP317"]);
        assert!(diagnostics[0].message.contains("`missing.md`, which does not exist"));
        assert_eq!(section.entries.len(), 1);
    }

    #[test]
    fn wrong_case_and_deeper_skill_md_are_explained_once() {
        // §7.1: exactly `SKILL.md`, no recursion.
        let (section, diagnostics) = discover(&[
            ("skills/lower/skill.md", GOOD_SKILL),
            ("skills/group/one/SKILL.md", GOOD_SKILL),
            ("skills/group/two/SKILL.md", GOOD_SKILL),
            ("skills/assets/logo.png", ""),
        ]);
        assert!(section.entries.is_empty());
        assert_eq!(codes(&diagnostics), ["AP303", "AP302"]);
        assert!(diagnostics[0].message.contains("and 1 more"));
    }

    #[test]
    fn stray_skill_md_files_are_summarized_once() {
        let mut files = vec![("skills/pdf-tools/SKILL.md".to_string(), GOOD_SKILL.to_string())];
        for i in 0..456 {
            files.push((format!("providers/claude/skills/s{i}/SKILL.md"), GOOD_SKILL.to_string()));
        }
        files.push(("skills/pdf-tools/nested/SKILL.md".to_string(), GOOD_SKILL.to_string()));
        let (section, diagnostics) = discover_tree(&Tree::from_files(files));
        assert_eq!(section.entries.len(), 1);
        assert_eq!(codes(&diagnostics), ["AP304"]);
        assert!(diagnostics[0].message.starts_with("457 SKILL.md files"));
        assert!(diagnostics[0].message.contains("and 454 more"));
    }
}
