//! The rule registry: every rule apcheck can emit, from every family.
//! `apcheck rules`, `apcheck explain CODE`, SARIF's rule list and the page all
//! read [`all`]; the examples of every rule doc run as tests (below), so the
//! docs cannot rot. It sits above the families: they import only the leaf
//! [`crate::rule`], and nothing below imports this module.
//!
//! A new rule is its `static Rule` beside its check plus one line in its
//! family's `RULES` list; `tests/registry.rs` fails on a rule left out.

use crate::rule::{Example, Rule, doc_url};
use crate::rules::{containment, documents, files, layout, manifest, mcp, secrets, skills, unread};
use crate::snapshot::{call, changes, drift, lint};

/// The families' lists, in code order.
const FAMILIES: &[&[&Rule]] = &[
    files::RULES,
    unread::RULES,
    documents::RULES,
    layout::RULES,
    containment::RULES,
    manifest::RULES,
    skills::RULES,
    mcp::RULES,
    secrets::RULES,
    lint::RULES,
    drift::RULES,
    changes::RULES,
    call::RULES,
    // The page never connects, so its registry (and its size) leaves these out;
    // the npm package lists them, as the CLI's `rules` does.
    #[cfg(any(not(target_arch = "wasm32"), feature = "node"))]
    crate::rules::live::RULES,
];

/// Every rule, in code order.
pub fn all() -> impl Iterator<Item = &'static Rule> {
    let mut rules: Vec<&'static Rule> = FAMILIES.iter().flat_map(|family| family.iter().copied()).collect();
    rules.sort_by_key(|rule| rule.code);
    rules.into_iter()
}

/// The rule with `code` (case-insensitive) or `name`.
pub fn find(code_or_name: &str) -> Option<&'static Rule> {
    all().find(|rule| rule.code.eq_ignore_ascii_case(code_or_name) || rule.name == code_or_name)
}

/// What the docs say about a rule that decides a spec state, under "Configuration".
pub const DECIDES_STATE_NOTE: &str = "This rule decides what a client loads. `ignore` or `severity = \"off\"` hides \
     its findings, but the verdict stays (rejected, skipped, invalid), and its severity cannot be lowered.";

/// Every rule whose findings can carry a fix. The registry's tests hold it to
/// what the failing examples offer, both ways.
pub const FIXABLE: &[&str] = &[
    "AP203", "AP204", "AP206", "AP209", "AP210", "AP309", "AP313", "AP316", "AP318", "AP319", "AP402", "AP403",
    "AP411", "AP412", "AP420",
];

/// What the docs say about a rule in [`FIXABLE`], under "Fix". Whether a given
/// finding's fix is safe depends on the finding, not only on the rule.
pub const FIXABLE_NOTE: &str = "apcheck can fix this: `apcheck check --fix` applies the safe fixes, and \
     `--unsafe-fixes` the others too (each guesses what was meant, so review them).";

/// One thing a doc example shows, in reading order; each face lays it out its own way.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shown {
    /// A file (or an input of the snapshot family), by its label.
    File {
        label: &'static str,
        contents: &'static str,
    },
    /// A symlink of a package example.
    Link { path: &'static str, target: &'static str },
    /// An example told in words.
    Words(&'static str),
}

/// What `example` shows: its files, then its links; or the snapshot family's inputs; or its words.
pub fn example_parts(example: &Example) -> Vec<Shown> {
    let file = |&(label, contents): &(&'static str, &'static str)| Shown::File { label, contents };
    match example {
        Example::Package(files) => files.iter().map(file).collect(),
        Example::PackageWithLinks { files, links } => files
            .iter()
            .map(file)
            .chain(links.iter().map(|&(path, target)| Shown::Link { path, target }))
            .collect(),
        Example::Described(words) => vec![Shown::Words(words)],
        Example::Snapshot(text) => vec![file(&("snapshot.json", text))],
        Example::Drift { snapshot, files } => std::iter::once(file(&("snapshot.json", snapshot)))
            .chain(files.iter().map(file))
            .collect(),
        Example::Changes { old, new } => vec![file(&("old.json", old)), file(&("new.json", new))],
        Example::Call {
            snapshot,
            tool,
            arguments,
        } => vec![
            file(&("snapshot.json", snapshot)),
            file(&("tool", tool)),
            file(&("arguments.json", arguments)),
        ],
        Example::Validate { schema, document } => {
            vec![file(&("schema.json", schema)), file(&("document.json", document))]
        }
    }
}

/// The doc of `rule` as plain text: what `apcheck explain` prints, ending
/// with the address of its published page.
pub fn explain_text(rule: &Rule) -> String {
    let mut text = format!(
        "{} {} ({}, {})\n\n{}\n\n",
        rule.code,
        rule.name,
        rule.severity.as_str(),
        rule.spec,
        rule.summary
    );
    text.push_str(&format!(
        "What it checks\n  {}\n\nWhy it matters\n  {}\n\n",
        rule.doc.what, rule.doc.why
    ));
    if FIXABLE.contains(&rule.code) {
        text.push_str(&format!("Fix\n  {FIXABLE_NOTE}\n\n"));
    }
    if rule.decides_state() {
        text.push_str(&format!("Configuration\n  {DECIDES_STATE_NOTE}\n\n"));
    }
    for (title, example) in [("Example (fails)", &rule.doc.failing), ("Fixed", &rule.doc.fixed)] {
        text.push_str(title);
        text.push('\n');
        for part in example_parts(example) {
            match part {
                Shown::File { label, contents } => {
                    text.push_str(&format!("  --- {label}\n"));
                    for line in contents.lines() {
                        text.push_str(&format!("  {line}\n"));
                    }
                }
                Shown::Link { path, target } => text.push_str(&format!("  --- {path} -> {target} (symlink)\n")),
                Shown::Words(words) => text.push_str(&format!("  {words}\n")),
            }
        }
        text.push('\n');
    }
    text.push_str(&format!("Online\n  {}\n", doc_url(rule.code)));
    text
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;
    use crate::diag::Diagnostic;
    use crate::fix::{Applicability, FixInputs};
    use crate::hops::{check_package, check_package_with};
    use crate::rule::{Family, Severity};
    use crate::tree::{Entry, Tree};

    /// Everything `example` finds, run the way its kind says; `None` for an
    /// example described in words, which the unit tests beside its rule build.
    fn run_example(example: &Example) -> Option<Vec<Diagnostic>> {
        Some(match example {
            Example::Described(_) => return None,
            Example::Package(files) => check_package("example", &Tree::from_files(files.iter().copied())).diagnostics,
            Example::PackageWithLinks { files, links } => {
                let mut tree = Tree::from_files(files.iter().copied());
                for (path, target) in *links {
                    tree.insert(path, Entry::Symlink(target.to_string()));
                }
                check_package("example", &tree).diagnostics
            }
            Example::Snapshot(text) => crate::snapshot::check_snapshot("snapshot.json", text, None).diagnostics,
            Example::Drift { snapshot, files } => {
                let tree = Tree::from_files(files.iter().copied());
                drift::drift("snapshot.json", snapshot, "plugin", &tree).diagnostics
            }
            Example::Changes { old, new } => changes::compare("old.json", old, "new.json", new).diagnostics,
            Example::Call {
                snapshot,
                tool,
                arguments,
            } => call::check_call("snapshot.json", snapshot, tool, "arguments.json", arguments).diagnostics,
            Example::Validate { schema, document } => documents::validated("document.json", schema, document, None),
        })
    }

    #[test]
    fn codes_and_names_are_unique() {
        let mut codes = BTreeSet::new();
        let mut names = BTreeSet::new();
        for rule in all() {
            assert!(codes.insert(rule.code), "duplicate code {}", rule.code);
            assert!(names.insert(rule.name), "duplicate name {}", rule.name);
        }
        assert!(find("AP209").is_some_and(|rule| rule.name == "manifest-name-invalid"));
        assert!(find("manifest-name-invalid").is_some());
    }

    #[test]
    fn every_list_holds_one_family() {
        for list in FAMILIES {
            let families: BTreeSet<Family> = list.iter().map(|rule| rule.family()).collect();
            assert_eq!(
                families.len(),
                1,
                "{:?}",
                list.iter().map(|r| r.code).collect::<Vec<_>>()
            );
        }
        for rule in all() {
            let is_secret_rule = secrets::RULES.iter().any(|secret| std::ptr::eq(*secret, rule));
            assert_eq!(rule.masks_secrets(), is_secret_rule, "{}", rule.code);
        }
    }

    #[test]
    fn every_example_fails_and_its_fix_passes() {
        let mut wrong = Vec::new();
        for rule in all() {
            for (example, should_fire) in [(&rule.doc.failing, true), (&rule.doc.fixed, false)] {
                let Some(diagnostics) = run_example(example) else {
                    continue;
                };
                if diagnostics.iter().any(|d| d.code == rule.code) != should_fire {
                    let which = if should_fire {
                        "failing example does not fire"
                    } else {
                        "fixed example fires"
                    };
                    let seen: Vec<_> = diagnostics.iter().map(|d| (d.code, d.message.as_str())).collect();
                    wrong.push(format!("{} {}: {which}; saw {seen:?}", rule.code, rule.name));
                }
            }
        }
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    }

    #[test]
    fn fixed_examples_are_entirely_clean() {
        // A fix that trades one finding for another would teach the wrong thing. Every family.
        let mut noisy = Vec::new();
        for rule in all() {
            let Some(diagnostics) = run_example(&rule.doc.fixed) else {
                continue;
            };
            if !diagnostics.is_empty() {
                let seen: Vec<_> = diagnostics.iter().map(|d| (d.code, d.message.as_str())).collect();
                noisy.push(format!("{}: {seen:?}", rule.code));
            }
        }
        assert!(noisy.is_empty(), "{}", noisy.join("\n"));
    }

    /// The package tree of `example`, when it is one.
    fn example_tree(example: &Example) -> Option<Tree> {
        match example {
            Example::Package(files) => Some(Tree::from_files(files.iter().copied())),
            Example::PackageWithLinks { files, links } => {
                let mut tree = Tree::from_files(files.iter().copied());
                for (path, target) in *links {
                    tree.insert(path, Entry::Symlink(target.to_string()));
                }
                Some(tree)
            }
            _ => None,
        }
    }

    /// What the fix test tells the check, so that fixes needing the user's
    /// input (the namespace a vendor `hooks` moves to) are offered and tested too.
    fn fix_inputs() -> FixInputs {
        FixInputs {
            extensions_namespace: Some("com.example.client".to_string()),
        }
    }

    #[test]
    fn every_fix_offered_by_a_failing_example_removes_its_finding_and_adds_none() {
        // Unsafe fixes too: "unsafe" means a person should look, not that the result may be wrong.
        let inputs = fix_inputs();
        let check = |tree: &Tree| check_package_with("example", tree, &inputs).diagnostics;
        let mut fixable = Vec::new();
        let mut wrong = Vec::new();
        for rule in all() {
            let Some(tree) = example_tree(&rule.doc.failing) else {
                continue;
            };
            let before = check(&tree);
            if !before.iter().any(|d| d.code == rule.code && d.fix.is_some()) {
                continue;
            }
            fixable.push(rule.code);
            let only_this_rule = |tree: &Tree| {
                let mut diagnostics = check(tree);
                diagnostics.retain(|d| d.code == rule.code);
                diagnostics
            };
            let outcome = crate::fix::fix_tree(&tree, Applicability::Unsafe, only_this_rule);
            let mut fixed = tree.clone();
            for (file, text) in &outcome.changed {
                fixed.insert(file, Entry::File(text.clone().into_bytes()));
            }
            let after = check(&fixed);
            let key = |d: &Diagnostic| (d.code, d.file.clone(), d.pointer.clone());
            let old: BTreeSet<_> = before.iter().map(key).collect();
            let new: Vec<_> = after
                .iter()
                .filter(|d| !old.contains(&key(d)))
                .map(|d| d.code)
                .collect();
            if after.iter().any(|d| d.code == rule.code) || !new.is_empty() {
                let seen: Vec<_> = after.iter().map(|d| (d.code, d.message.as_str())).collect();
                wrong.push(format!("{}: after its fix, new {new:?}; saw {seen:?}", rule.code));
            }
            // Idempotent: the fixed tree offers this rule nothing more.
            if !crate::fix::fix_tree(&fixed, Applicability::Unsafe, only_this_rule)
                .changed
                .is_empty()
            {
                wrong.push(format!("{}: fixing twice changes the files again", rule.code));
            }
        }
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
        // Both ways: a rule whose fix stopped being offered by its own example
        // would pass unnoticed, and a new fix must be listed (and so tested here).
        assert_eq!(fixable, FIXABLE, "the rules whose failing example offers a fix");
    }

    #[test]
    fn fixes_that_need_an_input_are_offered_only_with_it() {
        let rule = find("AP210").unwrap();
        let tree = example_tree(&rule.doc.failing).unwrap();
        let without = check_package("example", &tree).diagnostics;
        let with = check_package_with("example", &tree, &fix_inputs()).diagnostics;
        let keys = |diagnostics: &[Diagnostic]| -> Vec<_> {
            diagnostics
                .iter()
                .map(|d| (d.code, d.line, d.column, d.message.clone()))
                .collect()
        };
        assert_eq!(keys(&without), keys(&with), "the findings do not depend on the inputs");
        let finding = |diagnostics: &[Diagnostic]| diagnostics.iter().find(|d| d.code == "AP210").cloned().unwrap();
        assert!(finding(&without).fix.is_none());
        assert!(
            finding(&without)
                .hint
                .unwrap()
                .contains("No fix is offered without that namespace")
        );
        assert_eq!(finding(&with).fix.unwrap().applicability, Applicability::Unsafe);
    }

    #[test]
    fn rules_that_decide_a_state_are_the_ones_whose_examples_change_one() {
        // What a client ends up with: the states and how many components load.
        let states = |tree: &Tree| {
            let report = check_package("example", tree);
            let s = report.summary;
            (
                format!(
                    "{:?} {:?} {:?}",
                    report.plugin.state, report.skills.state, report.mcp.state
                ),
                (
                    s.skills_discovered,
                    s.skills_skipped,
                    s.servers_valid,
                    s.servers_invalid,
                ),
            )
        };
        let mut wrong = Vec::new();
        for rule in all() {
            let (Some(failing), Some(fixed)) = (example_tree(&rule.doc.failing), example_tree(&rule.doc.fixed)) else {
                continue;
            };
            // Warnings may explain what is not discovered (a `skill.md`), but
            // only errors decide: for them the property and the example agree.
            let changed = states(&failing) != states(&fixed);
            if rule.severity == Severity::Error && changed != rule.decides_state() {
                wrong.push(format!(
                    "{}: decides_state() is {}, but fixing its example changes a state: {changed}",
                    rule.code,
                    rule.decides_state()
                ));
            }
        }
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    }

    #[test]
    fn explain_text_shows_both_examples() {
        let text = explain_text(find("AP101").unwrap());
        assert!(text.contains("skills -> ../shared (symlink)"));
        assert!(text.contains("Fixed"));
        assert!(text.contains("decides what a client loads"));
        assert!(!explain_text(find("AP205").unwrap()).contains("decides what a client loads"));
        assert!(!text.contains("apcheck can fix this"), "AP101 has no fix");
        assert!(explain_text(find("AP209").unwrap()).contains("Fix\n  apcheck can fix this"));
        assert!(
            text.ends_with("\n\nOnline\n  https://apcheck.dev/rules/AP101\n"),
            "{text}"
        );
    }
}
