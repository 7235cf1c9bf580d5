//! A guard over the source itself: every declared rule is registered. (The
//! import graph has its own guard, `tests/architecture.rs`.)
//!
//! A source scan because linkme's distributed slices do not work on
//! `wasm32-unknown-unknown` (dtolnay/linkme#86), where the page runs the same registry.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use regex::Regex;

/// Every `.rs` file under `dir`, as (path relative to `src/`, text before its first `#[cfg(test)]`).
fn sources(dir: &Path, base: &Path, out: &mut Vec<(String, String)>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            sources(&path, base, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let text = std::fs::read_to_string(&path).unwrap();
            // Test modules come last in every file and may declare stand-in rules.
            let production = text.split("#[cfg(test)]").next().unwrap_or("").to_string();
            let relative = path.strip_prefix(base).unwrap().to_string_lossy().replace('\\', "/");
            out.push((relative, production));
        }
    }
}

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

#[test]
fn every_declared_rule_is_registered() {
    let mut files = Vec::new();
    sources(&src(), &src(), &mut files);
    // A rule's code is its `code:` field (in a `Rule`, or in the `DriftRule`
    // the drift family builds its rules from).
    let field = Regex::new(r#"\bcode:\s*"(AP\d{3})""#).unwrap();
    let mut declared = BTreeMap::new();
    for (file, text) in &files {
        for found in field.captures_iter(text) {
            declared.insert(found[1].to_string(), file.clone());
        }
    }
    let registered: BTreeSet<&str> = apcheck::registry::all().map(|rule| rule.code).collect();
    let missing: Vec<String> = declared
        .iter()
        .filter(|(code, _)| !registered.contains(code.as_str()))
        .map(|(code, file)| format!("{code} (src/{file})"))
        .collect();
    assert!(
        missing.is_empty(),
        "declared but not in their family's RULES list: {missing:?}"
    );
    assert_eq!(
        declared.len(),
        registered.len(),
        "a registered rule the scan did not see"
    );
}
