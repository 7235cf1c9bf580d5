//! AP010-AP019: what the reader could not see. A check is complete, or it
//! fails: a path a client loads that could not be looked at (a directory that
//! could not be listed, an entry a reader limit left out) is an error naming
//! it (AP011), and every other unreadable path gets an error of its own
//! (AP010), so a partial read is never silent and never passes.
//!
//! Which paths a check needs: the component locations (`plugin.json`,
//! `mcp.json`, the listing of `skills/`, each `skills/<name>/SKILL.md`) and
//! the paths `mcp.json` names (a `./` command, a `cwd`). The rest (`docs/`, a
//! skill's scripts, an extension's folder) is what the whole-tree checks and a
//! skill's user read; a verdict over any of it unread is incomplete too.
//! The report's `unread` lists every path not read, whatever the settings
//! later hide, and an incomplete check fails on that list alone.

use std::collections::BTreeSet;

use crate::diag::{Diagnostic, Severity};
use crate::rule::{Example, Rule};
use crate::tree::{Entry, Tree};

const VALID_MANIFEST: &str =
    "{\n  \"$schema\": \"https://agent-plugins.org/schemas/1.0.0/plugin.schema.json\",\n  \"name\": \"demo\"\n}\n";

pub static PATH_UNREADABLE: Rule = Rule {
    code: "AP010",
    name: "path-unreadable",
    severity: Severity::Error,
    spec: "Agent Plugins §4.1, §6.1, §8.2",
    summary: "A file or folder of the package could not be read, so the check is incomplete and fails",
    fix_hint: Some("Fix its permissions, or run the check as a user who can read the whole package"),
    doc: rule_doc! {
        what: "Reports, one finding each, every directory of the package that could not be listed and every \
               entry that could not be read (permissions, I/O errors), unless a component check already \
               reported that path.",
        why: "The package is the whole plugin root (§4.1): a skill's scripts and references, an extension's \
              folder and the files the whole-tree checks look at (SKILL.md files outside skills/, vendor \
              manifests, links leaving the root) are part of what is published. A check that could not read \
              them did not check them, so it says what it did not see and does not pass.",
        failing: Example::Described("a `docs/` folder with mode 0700 owned by another user"),
        fixed: Example::Package(&[("plugin.json", VALID_MANIFEST), ("docs/README.md", "# Demo\n")]),
    },
};

pub static NEEDED_PATH_NOT_READ: Rule = Rule {
    code: "AP011",
    name: "needed-path-not-read",
    severity: Severity::Error,
    spec: "Agent Plugins §6.1, §7.1, §7.2.1",
    summary: "A path the client loads could not be looked at, so the check is incomplete and fails",
    fix_hint: Some("Make the folder readable (or raise the reader's limits) and check again"),
    doc: rule_doc! {
        what: "Reports a component location or a path named in mcp.json that the reader could not look at: \
               its directory could not be listed and the name could not be looked up in it, or a reader limit \
               left it out. The finding names the path and what could not be read.",
        why: "Whether such a path exists, and what it holds, is unknown: a verdict of \"no plugin.json\" or \
              \"0 skills\" would be a guess. The check fails instead of passing on what it could not see.",
        failing: Example::Described(
            "a `skills/review/` folder with mode 0000: neither its listing nor `skills/review/SKILL.md` can be read",
        ),
        fixed: Example::Package(&[
            ("plugin.json", VALID_MANIFEST),
            (
                "skills/review/SKILL.md",
                "---\nname: review\ndescription: Reviews code. Use when asked for a review.\n---\n",
            ),
        ]),
    },
};

pub static RULES: &[&Rule] = &[&PATH_UNREADABLE, &NEEDED_PATH_NOT_READ];

/// `"the plugin root"` or `` "`path`" ``.
fn place(path: &str) -> String {
    if path.is_empty() {
        "the plugin root".to_string()
    } else {
        format!("`{path}`")
    }
}

/// AP011 for `requested`, which could not be looked at because `unread` (the
/// same path, or a directory above it) `why` ("could not be listed (…)").
pub fn not_read(requested: &str, unread: &str, why: &str) -> Diagnostic {
    let cause = if requested == unread {
        format!("it {why}")
    } else {
        format!("{} {why}", place(unread))
    };
    Diagnostic::new(
        &NEEDED_PATH_NOT_READ,
        format!("`{requested}` was not checked: {cause}; this check is incomplete"),
    )
    .in_file(requested)
}

/// AP011 when the listing of the directory `dir` (known as `shown`) is
/// incomplete, so not every entry a client would discover in it was seen.
pub fn listing_not_read(tree: &Tree, dir: &str, shown: &str, diagnostics: &mut Vec<Diagnostic>) {
    if let Some(why) = tree.unlisted().get(dir) {
        diagnostics.push(
            Diagnostic::new(
                &NEEDED_PATH_NOT_READ,
                format!("`{shown}` could not be listed ({why}), so its entries were not discovered; this check is incomplete"),
            )
            .in_file(shown),
        );
    }
    let left_out: Vec<&str> = tree.omitted_in(dir).map(|(path, _)| path).collect();
    if let Some(first) = left_out.first() {
        diagnostics.push(
            Diagnostic::new(
                &NEEDED_PATH_NOT_READ,
                format!(
                    "{} entr{} of `{shown}` (`{first}`{}) were left out at the reader's entry limit and not checked; this check is incomplete",
                    left_out.len(),
                    if left_out.len() == 1 { "y" } else { "ies" },
                    if left_out.len() > 1 { " and others" } else { "" }
                ),
            )
            .in_file(shown),
        );
    }
}

/// How `unread` names the plugin root itself (tree paths name it `""`).
pub const ROOT: &str = ".";

/// AP010 for every unlisted directory and unreadable entry that no finding
/// names yet (a component check may already have reported it as AP005, or
/// as the cause of an AP011 on a path inside it). Returns every path the
/// check could not read, sorted: those of `diagnostics`' AP011 findings, every
/// unlisted directory and every unreadable entry, reported here or not, so
/// that a setting which hides the findings cannot hide the gap.
pub fn report_unreadable_paths(tree: &Tree, diagnostics: &mut Vec<Diagnostic>) -> Vec<String> {
    let named: BTreeSet<String> = diagnostics.iter().filter_map(|d| d.file.clone()).collect();
    let not_read: Vec<&str> = diagnostics
        .iter()
        .filter(|d| d.code == NEEDED_PATH_NOT_READ.code)
        .filter_map(|d| d.file.as_deref())
        .collect();
    let mut unread: BTreeSet<String> = not_read.iter().map(|path| path.to_string()).collect();
    let explained = |dir: &str| {
        not_read.iter().any(|file| match dir {
            "" => !file.contains('/'),
            _ => file.strip_prefix(dir).is_some_and(|rest| rest.starts_with('/')),
        })
    };
    let mut found = Vec::new();
    for (dir, why) in tree.unlisted() {
        unread.insert(if dir.is_empty() { ROOT.to_string() } else { dir.clone() });
        if !named.contains(dir) && !explained(dir) {
            let message = format!(
                "{} could not be listed ({why}); only the locations a client reads were looked up in it by name, \
                 so this check is incomplete",
                place(dir)
            );
            let diagnostic = Diagnostic::new(&PATH_UNREADABLE, message);
            found.push(if dir.is_empty() {
                diagnostic
            } else {
                diagnostic.in_file(dir)
            });
        }
    }
    for (path, entry) in tree.entries() {
        if let Entry::Unreadable(why) = tree.settled(path, entry) {
            unread.insert(path.to_string());
            if !named.contains(path) {
                found.push(
                    Diagnostic::new(
                        &PATH_UNREADABLE,
                        format!("`{path}` could not be read ({why}), so this check is incomplete"),
                    )
                    .in_file(path),
                );
            }
        }
    }
    diagnostics.extend(found);
    unread.into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check_package;

    fn codes(diagnostics: &[Diagnostic]) -> Vec<&str> {
        diagnostics.iter().map(|d| d.code).collect()
    }

    #[test]
    fn unlisted_root_is_not_a_missing_manifest() {
        // The root could not be listed and plugin.json could not be looked up either:
        // "There is no plugin.json" (AP201) would be a guess.
        let mut tree = Tree::new();
        tree.mark_unlisted("", "permission denied");
        let report = check_package("p", &tree);
        assert_eq!(codes(&report.diagnostics), ["AP011"], "{:#?}", report.diagnostics);
        assert!(
            report.diagnostics[0]
                .message
                .contains("the plugin root could not be listed")
        );
        assert_eq!(report.unread, [ROOT, "plugin.json"]);
        assert_eq!(report.summary.errors, 1);
    }

    #[test]
    fn unlisted_root_with_components_found_by_name_is_still_incomplete() {
        // A 0311 root: no listing, but plugin.json and skills/ are found by name;
        // whatever else it holds was not seen, so the check is incomplete.
        let mut tree = Tree::from_files([("plugin.json", VALID_MANIFEST)]);
        tree.mark_unlisted("", "permission denied");
        tree.mark_absent("mcp.json");
        tree.mark_absent("skills");
        let report = check_package("p", &tree);
        assert_eq!(codes(&report.diagnostics), ["AP010"]);
        assert_eq!(report.unread, [ROOT]);
        assert_eq!(report.summary.errors, 1);
        assert!(report.fails_on_its_own());
    }

    #[test]
    fn unreadable_skill_folder_fails_the_check_naming_it() {
        let mut tree = Tree::from_files([
            ("plugin.json", VALID_MANIFEST),
            (
                "skills/ok/SKILL.md",
                "---\nname: ok\ndescription: Does x. Use when y.\n---\n",
            ),
        ]);
        tree.insert("skills/locked", Entry::Dir);
        tree.mark_unlisted("skills/locked", "permission denied");
        let report = check_package("p", &tree);
        assert_eq!(codes(&report.diagnostics), ["AP011"], "{:#?}", report.diagnostics);
        let message = &report.diagnostics[0].message;
        assert!(message.contains("`skills/locked/SKILL.md` was not checked: `skills/locked` could not be listed"));
        assert_eq!(report.summary.errors, 1);
        assert_eq!(report.unread, ["skills/locked", "skills/locked/SKILL.md"]);
    }

    #[test]
    fn skills_left_out_by_the_entry_limit_fail_the_check() {
        let mut tree = Tree::from_files([("plugin.json", VALID_MANIFEST)]);
        tree.insert("skills", Entry::Dir);
        tree.mark_omitted("skills/a", "max_entries");
        tree.mark_omitted("skills/b", "max_entries");
        let report = check_package("p", &tree);
        assert!(
            codes(&report.diagnostics).contains(&"AP011"),
            "{:#?}",
            report.diagnostics
        );
        assert_eq!(report.summary.errors, 1);
    }

    #[test]
    fn unreadable_paths_no_client_reads_each_get_an_error() {
        let mut tree = Tree::from_files([("plugin.json", VALID_MANIFEST), ("docs/a.md", "x")]);
        tree.mark_unlisted("docs", "permission denied");
        tree.insert("notes.txt", Entry::Unreadable("permission denied".into()));
        let report = check_package("p", &tree);
        assert_eq!(codes(&report.diagnostics), ["AP010", "AP010"]);
        assert_eq!(report.summary.errors, 2);
        assert_eq!(report.unread, ["docs", "notes.txt"]);
    }
}
