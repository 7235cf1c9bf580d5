//! The rule pages under `docs/rules/`: one Markdown page per rule and an index
//! by family, generated from the registry (as Ruff generates its rule docs)
//! and published under `rule::DOCS_BASE_URL`, where SARIF, the language server
//! and the Action's summary link them. This test is the generator: it renders
//! every page in memory and fails when a page on disk differs, is missing or
//! names no rule. With `APCHECK_BLESS=1` it writes them first.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::{Path, PathBuf};

use apcheck::registry::{self, DECIDES_STATE_NOTE, FIXABLE, FIXABLE_NOTE, Shown};
use apcheck::render::escape::{markdown_cell, markdown_code, markdown_message, visible};
use apcheck::rule::{DOCS_BASE_URL, Example, Family, Rule};

const REGENERATE: &str = "APCHECK_BLESS=1 cargo test --test rule_docs";

/// The first line after each page's title: the pages are output, not sources.
const GENERATED: &str = "<!-- Generated from apcheck's rule registry by tests/rule_docs.rs; do not edit. \
                         Regenerate: APCHECK_BLESS=1 cargo test --test rule_docs -->";

fn docs_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/rules")
}

/// A family's heading: what its codes are about, and their hundreds.
fn family_title(family: Family) -> String {
    let what = match family {
        Family::Files => "Files and JSON documents",
        Family::Containment => "Containment",
        Family::Manifest => "Manifest",
        Family::Skills => "Skills",
        Family::Mcp => "MCP configuration",
        Family::Secrets => "Secrets in packaging",
        Family::SnapshotLint => "Capability snapshots",
        Family::Drift => "Drift between a snapshot and its package",
        Family::Changes => "Changes between two snapshots",
        Family::Call => "`tools/call` arguments",
    };
    let hundreds = Family::ALL
        .iter()
        .position(|&f| f == family)
        .expect("every family is in ALL");
    format!("{what} (AP{hundreds}xx)")
}

/// A fenced block holding `text` as it is, whatever backtick runs it has.
fn fenced(language: &str, text: &str) -> String {
    let longest_run = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest_run.max(2) + 1);
    // Shown as `apcheck explain` shows it: hidden characters and credential shapes escaped.
    let body: String = text.lines().map(|line| visible(line).into_owned() + "\n").collect();
    format!("{fence}{language}\n{body}{fence}\n")
}

fn language_of(label: &str) -> &'static str {
    match label.rsplit_once('.').map(|(_, extension)| extension) {
        Some("json") => "json",
        Some("md") => "markdown",
        Some("toml") => "toml",
        _ => "text",
    }
}

fn example_section(out: &mut String, title: &str, example: &Example) {
    let _ = writeln!(out, "## {title}\n");
    for part in registry::example_parts(example) {
        match part {
            Shown::File { label, contents } => {
                let _ = writeln!(
                    out,
                    "{}:\n\n{}",
                    markdown_code(label),
                    fenced(language_of(label), contents)
                );
            }
            Shown::Link { path, target } => {
                let _ = writeln!(
                    out,
                    "{} is a symbolic link to {}.\n",
                    markdown_code(path),
                    markdown_code(target)
                );
            }
            Shown::Words(words) => {
                let _ = writeln!(out, "{}\n", markdown_message(words));
            }
        }
    }
}

fn rule_page(rule: &Rule) -> String {
    let mut out = format!("# {}: {}\n\n{GENERATED}\n\n", rule.code, rule.name);
    let _ = writeln!(out, "{}\n", markdown_message(rule.summary));
    let fixable = FIXABLE.contains(&rule.code);
    let _ = writeln!(out, "- Severity: {}", rule.severity.as_str());
    let _ = writeln!(out, "- Family: {}", family_title(rule.family()));
    let _ = writeln!(out, "- Spec: {}", markdown_message(rule.spec));
    let _ = writeln!(out, "- Fix: {}\n", if fixable { "available" } else { "none" });
    let _ = writeln!(out, "## What it checks\n\n{}\n", markdown_message(rule.doc.what));
    let _ = writeln!(out, "## Why it matters\n\n{}\n", markdown_message(rule.doc.why));
    if rule.fix_hint.is_some() || fixable {
        out.push_str("## How to fix\n\n");
        for paragraph in rule.fix_hint.into_iter().chain(fixable.then_some(FIXABLE_NOTE)) {
            let _ = writeln!(out, "{}\n", markdown_message(paragraph));
        }
    }
    if rule.decides_state() {
        let _ = writeln!(out, "## Configuration\n\n{}\n", markdown_message(DECIDES_STATE_NOTE));
    }
    example_section(&mut out, "Example", &rule.doc.failing);
    example_section(&mut out, "Fixed", &rule.doc.fixed);
    let _ = writeln!(out, "Offline: `apcheck explain {}`.", rule.code);
    out
}

fn index_page(rules: &[&Rule]) -> String {
    let mut out = format!("# apcheck rules\n\n{GENERATED}\n\n");
    let _ = writeln!(
        out,
        "Every rule apcheck reports, by family. Each page is also published at {DOCS_BASE_URL}CODE.\n"
    );
    for family in Family::ALL {
        let members: Vec<&&Rule> = rules.iter().filter(|rule| rule.family() == family).collect();
        if members.is_empty() {
            continue;
        }
        let _ = writeln!(
            out,
            "## {}\n\n| Code | Name | Severity | Summary |\n|---|---|---|---|",
            family_title(family)
        );
        for rule in members {
            let _ = writeln!(
                out,
                "| [{code}]({code}.md) | `{}` | {} | {} |",
                rule.name,
                rule.severity.as_str(),
                markdown_cell(rule.summary),
                code = rule.code
            );
        }
        out.push('\n');
    }
    out
}

/// Every page, by file name.
fn pages() -> BTreeMap<String, String> {
    let rules: Vec<&Rule> = registry::all().collect();
    let mut pages: BTreeMap<String, String> = rules
        .iter()
        .map(|rule| (format!("{}.md", rule.code), rule_page(rule)))
        .collect();
    pages.insert("index.md".to_string(), index_page(&rules));
    pages
}

/// The Markdown files in `docs/rules/` now, by name.
fn on_disk() -> BTreeMap<String, String> {
    let Ok(entries) = std::fs::read_dir(docs_dir()) else {
        return BTreeMap::new();
    };
    entries
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|extension| extension == "md"))
        .map(|path| {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read_to_string(&path).unwrap())
        })
        .collect()
}

#[test]
fn the_rule_pages_are_generated_from_the_registry() {
    let expected = pages();
    if std::env::var_os("APCHECK_BLESS").is_some() {
        std::fs::create_dir_all(docs_dir()).unwrap();
        for name in on_disk().keys().filter(|name| !expected.contains_key(*name)) {
            std::fs::remove_file(docs_dir().join(name)).unwrap();
        }
        for (name, text) in &expected {
            std::fs::write(docs_dir().join(name), text).unwrap();
        }
    }
    let actual = on_disk();
    let mut stale = Vec::new();
    for (name, text) in &expected {
        match actual.get(name) {
            None => stale.push(format!("missing: docs/rules/{name}")),
            Some(written) if written != text => stale.push(format!("out of date: docs/rules/{name}")),
            Some(_) => {}
        }
    }
    stale.extend(
        actual
            .keys()
            .filter(|name| !expected.contains_key(*name))
            .map(|name| format!("no such rule: docs/rules/{name}")),
    );
    assert!(
        stale.is_empty(),
        "the rule pages differ from the registry; regenerate them with `{REGENERATE}`:\n{}",
        stale.join("\n")
    );
}

/// Where the page reads the rule docs its wasm leaves out (`rule_doc!`).
fn page_rule_docs_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("www/src/generated/rules.json")
}

/// What the page's worker answers `rules` and `explain` from: the registry as
/// the npm package's `rules()` gives it, and each rule's `apcheck explain`
/// text by code.
fn page_rule_docs() -> String {
    let rules: Vec<&Rule> = registry::all().collect();
    let explain: BTreeMap<&str, String> = rules
        .iter()
        .map(|rule| (rule.code, apcheck::render::rules::explain(rule)))
        .collect();
    let docs = serde_json::json!({ "rules": rules, "explain": explain });
    serde_json::to_string_pretty(&docs).unwrap() + "\n"
}

#[test]
fn the_pages_rule_docs_are_generated_from_the_registry() {
    let expected = page_rule_docs();
    if std::env::var_os("APCHECK_BLESS").is_some() {
        std::fs::create_dir_all(page_rule_docs_path().parent().unwrap()).unwrap();
        std::fs::write(page_rule_docs_path(), &expected).unwrap();
    }
    let written = std::fs::read_to_string(page_rule_docs_path()).unwrap_or_default();
    assert!(
        written == expected,
        "www/src/generated/rules.json differs from the registry; regenerate it with `{REGENERATE}`"
    );
}
