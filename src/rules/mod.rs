//! The rule registry: every diagnostic apcheck can emit, each with a stable
//! code, a severity, the spec section it enforces and a doc with a failing and
//! a fixed example. `apcheck rules`, `apcheck explain CODE` and the page all
//! read this list; the examples run as tests (below), so the docs cannot rot.
//!
//! Code families (never reused):
//! - `AP0xx` files and JSON documents
//! - `AP1xx` containment (§4.1)
//! - `AP2xx` manifest (§5, §8.1, §10)
//! - `AP3xx` skills (§6, §7.1, Agent Skills)
//! - `AP4xx` MCP configuration (§7.2, §9)
//! - `AP5xx` secrets in packaging (§7.2.1, §9.2)
//! - `AP6xx` capability snapshot lint
//! - `AP7xx` drift between a snapshot and its package
//! - `AP8xx` changes between two snapshots (§10.2)
//! - `AP9xx` `tools/call` arguments against a snapshot

use serde::Serialize;

use crate::diag::Severity;

#[derive(Debug, Serialize)]
pub struct Rule {
    /// Stable code, e.g. `AP201`.
    pub code: &'static str,
    /// Stable kebab-case name, e.g. `manifest-name-invalid`.
    pub name: &'static str,
    pub severity: Severity,
    /// The section enforced, e.g. `Agent Plugins §5.5`.
    pub spec: &'static str,
    /// One line: what the rule finds.
    pub summary: &'static str,
    /// The default fix hint attached to each diagnostic.
    pub fix_hint: Option<&'static str>,
    pub doc: RuleDoc,
}

/// The four parts of every rule doc (after Ruff and Biome).
#[derive(Debug, Serialize)]
pub struct RuleDoc {
    /// What it checks.
    pub what: &'static str,
    /// Why it matters: what a conformant client does with such input.
    pub why: &'static str,
    /// An input that triggers the rule.
    pub failing: Example,
    /// The same input, fixed: it does not trigger the rule.
    pub fixed: Example,
}

/// A rule example. Package examples run as tests (below), so the docs cannot rot.
#[derive(Debug, Serialize)]
#[serde(tag = "kind", content = "files", rename_all = "kebab-case")]
pub enum Example {
    /// A plugin root given as `(path, contents)` files, checked with `check_package`.
    Package(&'static [(&'static str, &'static str)]),
    /// A plugin root with symbolic links: files, and `(link path, target)` pairs.
    PackageWithLinks {
        files: &'static [(&'static str, &'static str)],
        links: &'static [(&'static str, &'static str)],
    },
    /// An input no text can show (bytes that are not UTF-8, a FIFO, a reader
    /// limit), in words; the unit tests beside the rule build it.
    Described(&'static str),
    /// A capability snapshot's text, linted by `snapshot::check_snapshot`.
    Snapshot(&'static str),
    /// A snapshot and the plugin root it claims to describe, compared by `snapshot::drift`.
    Drift {
        snapshot: &'static str,
        files: &'static [(&'static str, &'static str)],
    },
    /// Two snapshots, before and after a change, compared by `snapshot::changes`.
    Changes { old: &'static str, new: &'static str },
    /// A snapshot, a tool name and `tools/call` arguments, checked by `snapshot::call`.
    Call {
        snapshot: &'static str,
        tool: &'static str,
        arguments: &'static str,
    },
}

impl Example {
    /// The example as a package tree, when it is one.
    pub fn tree(&self) -> Option<crate::tree::Tree> {
        match self {
            Example::Package(files) => Some(crate::tree::Tree::from_files(files.iter().copied())),
            Example::PackageWithLinks { files, links } => {
                let mut tree = crate::tree::Tree::from_files(files.iter().copied());
                for (path, target) in *links {
                    tree.insert(path, crate::tree::Entry::Symlink(target.to_string()));
                }
                Some(tree)
            }
            Example::Described(_)
            | Example::Snapshot(_)
            | Example::Drift { .. }
            | Example::Changes { .. }
            | Example::Call { .. } => None,
        }
    }
}

/// Every rule, in code order.
pub fn all() -> impl Iterator<Item = &'static Rule> {
    let [snapshot_lint, drift, changes, call] = crate::snapshot::rule_families();
    let families: &[&[&'static Rule]] = &[
        files::RULES,
        layout::RULES,
        containment::RULES,
        manifest::RULES,
        skills::RULES,
        mcp::RULES,
        secrets::RULES,
        snapshot_lint,
        drift,
        changes,
        call,
        // The page never connects, so its registry (and its size) leaves these out.
        #[cfg(not(target_arch = "wasm32"))]
        crate::live::RULES,
    ];
    let mut rules: Vec<&'static Rule> = families.iter().flat_map(|family| family.iter().copied()).collect();
    rules.sort_by_key(|rule| rule.code);
    rules.into_iter()
}

/// The rule with `code` (case-insensitive) or `name`.
pub fn find(code_or_name: &str) -> Option<&'static Rule> {
    all().find(|rule| rule.code.eq_ignore_ascii_case(code_or_name) || rule.name == code_or_name)
}

pub mod containment;
pub mod files;
pub mod layout;
pub mod manifest;
pub mod mcp;
pub mod secrets;
pub mod skills;

/// The doc of `rule` as plain text: what `apcheck explain` prints.
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
    for (title, example) in [("Example (fails)", &rule.doc.failing), ("Fixed", &rule.doc.fixed)] {
        text.push_str(title);
        text.push('\n');
        match example {
            Example::Package(files) | Example::PackageWithLinks { files, .. } => {
                for (path, contents) in *files {
                    text.push_str(&format!("  --- {path}\n"));
                    for line in contents.lines() {
                        text.push_str(&format!("  {line}\n"));
                    }
                }
            }
            Example::Described(words) => text.push_str(&format!("  {words}\n")),
            Example::Snapshot(_) | Example::Drift { .. } | Example::Changes { .. } | Example::Call { .. } => {
                for (label, contents) in snapshot_example_inputs(example) {
                    text.push_str(&format!("  --- {label}\n"));
                    for line in contents.lines() {
                        text.push_str(&format!("  {line}\n"));
                    }
                }
            }
        }
        if let Example::PackageWithLinks { links, .. } = example {
            for (path, target) in *links {
                text.push_str(&format!("  --- {path} -> {target} (symlink)\n"));
            }
        }
        text.push('\n');
    }
    text
}

/// A snapshot-family example's inputs as `(label, contents)`, in reading order.
fn snapshot_example_inputs(example: &Example) -> Vec<(&'static str, &'static str)> {
    match example {
        Example::Snapshot(text) => vec![("snapshot.json", text)],
        Example::Drift { snapshot, files } => {
            let mut all = vec![("snapshot.json", *snapshot)];
            all.extend(files.iter().copied());
            all
        }
        Example::Changes { old, new } => vec![("old.json", old), ("new.json", new)],
        Example::Call {
            snapshot,
            tool,
            arguments,
        } => vec![
            ("snapshot.json", snapshot),
            ("tool", tool),
            ("arguments.json", arguments),
        ],
        Example::Package(_) | Example::PackageWithLinks { .. } | Example::Described(_) => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;
    use crate::hops::check_package;

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
    fn every_example_fails_and_its_fix_passes() {
        let mut wrong = Vec::new();
        for rule in all() {
            for (example, should_fire) in [(&rule.doc.failing, true), (&rule.doc.fixed, false)] {
                let diagnostics = match example.tree() {
                    Some(tree) => check_package("example", &tree).diagnostics,
                    None => match crate::snapshot::run_example(example) {
                        Some(diagnostics) => diagnostics,
                        None => continue,
                    },
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
    fn fixed_package_examples_are_entirely_clean() {
        // A fix that trades one finding for another would teach the wrong thing. Checked for the
        // package families (files, containment, manifest, skills); the MCP families check their own.
        let mut noisy = Vec::new();
        for rule in all().filter(|rule| ["AP0", "AP1", "AP2", "AP3"].iter().any(|f| rule.code.starts_with(f))) {
            let Some(tree) = rule.doc.fixed.tree() else { continue };
            let report = check_package("example", &tree);
            if !report.diagnostics.is_empty() {
                let seen: Vec<_> = report
                    .diagnostics
                    .iter()
                    .map(|d| (d.code, d.message.as_str()))
                    .collect();
                noisy.push(format!("{}: {seen:?}", rule.code));
            }
        }
        assert!(noisy.is_empty(), "{}", noisy.join("\n"));
    }

    #[test]
    fn explain_text_shows_both_examples() {
        let text = explain_text(find("AP101").unwrap());
        assert!(text.contains("skills -> ../shared (symlink)"));
        assert!(text.contains("Fixed"));
    }
}
