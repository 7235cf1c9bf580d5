//! Baselines: today's findings recorded (`apcheck check --baseline-write`) so
//! that a later check (`--baseline`, or `baseline = "…"` in the configuration)
//! fails only on findings that are new.
//!
//! A finding is known by its fingerprint, not by its line: the rule's code,
//! the file relative to the plugin root, the JSON Pointer (or frontmatter key
//! path), and a hash of the text it is about with white space folded. Adding
//! lines above a finding, or re-indenting its file, keeps its fingerprint; a
//! changed value or a finding at another place is new. Identical findings are
//! counted, so a second copy of a recorded one is new too.
//!
//! Sans-IO: the edge reads and writes the file; this module turns reports
//! into baseline text and back.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::diag::Diagnostic;
use crate::render::count;
use crate::report::PackageReport;
use crate::tree::Tree;

/// The `version` this build writes and reads.
const VERSION: u32 = 1;

/// One recorded finding. `code`, `file` and `pointer` are there for people
/// reading the file in review; `fingerprint` is what matches.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct Recorded {
    code: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    file: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pointer: Option<String>,
    fingerprint: String,
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct BaselineFile {
    version: u32,
    findings: Vec<Recorded>,
}

/// The fingerprint of `diagnostic` in the plugin named `root` whose files are `tree`.
pub fn fingerprint(root: &str, tree: &Tree, diagnostic: &Diagnostic) -> String {
    let subject = diagnostic
        .span
        .zip(diagnostic.file.as_deref())
        .and_then(|(span, file)| tree.read(file)?.get(span.start..span.end))
        .map(|bytes| String::from_utf8_lossy(bytes).into_owned())
        // Findings about no particular text (a missing file) are known by their message.
        .unwrap_or_else(|| diagnostic.message.clone());
    let folded = subject.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut hash = Sha256::new();
    for part in [
        root,
        diagnostic.code,
        diagnostic.file.as_deref().unwrap_or(""),
        diagnostic.pointer.as_deref().unwrap_or(""),
        &folded,
    ] {
        // Length-prefixed, so that no two different tuples hash the same bytes.
        hash.update((part.len() as u64).to_le_bytes());
        hash.update(part.as_bytes());
    }
    hash.finalize()
        .iter()
        .take(16)
        .map(|byte| format!("{byte:02x}"))
        .collect()
}

/// What `check --baseline-write FILE` writes and says, for every face that
/// takes the flag: the baseline's text and the line that reports it, or, when
/// a check is incomplete, the lines that refuse to write it. A baseline that
/// could not read everything would let what it missed pass as old when it
/// appears.
pub fn write_for<'a>(
    checked: impl IntoIterator<Item = (&'a str, &'a Tree, &'a PackageReport)>,
    file: &str,
) -> Result<(String, String), Vec<String>> {
    let checked: Vec<(&str, &Tree, &PackageReport)> = checked.into_iter().collect();
    let refusals: Vec<String> = checked
        .iter()
        .filter(|(_, _, report)| report.is_incomplete())
        .map(|(_, _, report)| {
            format!(
                "{}: the check is incomplete ({} not read: {}); no baseline written to {file}",
                report.root,
                count(report.unread.len(), "path", "paths"),
                report.unread.join(", "),
            )
        })
        .collect();
    if !refusals.is_empty() {
        return Err(refusals);
    }
    let recorded: usize = checked.iter().map(|(_, _, report)| report.diagnostics.len()).sum();
    let said = format!("recorded {} in {file}", count(recorded, "finding", "findings"));
    Ok((record(checked), said))
}

/// The baseline text recording every finding of `checked` (plugin name, its
/// files, its report), sorted so that it diffs well in git.
pub fn record<'a>(checked: impl IntoIterator<Item = (&'a str, &'a Tree, &'a PackageReport)>) -> String {
    let mut findings: Vec<Recorded> = checked
        .into_iter()
        .flat_map(|(root, tree, report)| {
            report.diagnostics.iter().map(move |diagnostic| Recorded {
                code: diagnostic.code.to_string(),
                file: diagnostic.file.clone(),
                pointer: diagnostic.pointer.clone(),
                fingerprint: fingerprint(root, tree, diagnostic),
            })
        })
        .collect();
    findings.sort_by(|a, b| {
        (&a.file, &a.code, &a.pointer, &a.fingerprint).cmp(&(&b.file, &b.code, &b.pointer, &b.fingerprint))
    });
    let file = BaselineFile {
        version: VERSION,
        findings,
    };
    serde_json::to_string_pretty(&file).expect("a baseline serializes") + "\n"
}

/// A baseline read back: how many times each fingerprint was recorded.
#[derive(Debug, Default)]
pub struct Baseline {
    remaining: HashMap<String, usize>,
}

impl Baseline {
    /// Reads baseline `text`; the error says what is wrong with it.
    pub fn parse(text: &str) -> Result<Baseline, String> {
        let file: BaselineFile =
            serde_json::from_str(text).map_err(|error| format!("not an apcheck baseline: {error}"))?;
        if file.version != VERSION {
            return Err(format!(
                "baseline version {} is not {VERSION}, the one this apcheck reads",
                file.version
            ));
        }
        let mut remaining = HashMap::new();
        for finding in file.findings {
            *remaining.entry(finding.fingerprint).or_insert(0) += 1;
        }
        Ok(Baseline { remaining })
    }

    /// Hides the findings of `report` that the baseline records (each recorded
    /// one hides one finding), counts them in `summary.baselined` and recounts.
    /// States are left as the check decided them. Returns how many were hidden.
    pub fn apply(&mut self, root: &str, tree: &Tree, report: &mut PackageReport) -> usize {
        let before = report.diagnostics.len();
        report.diagnostics.retain(
            |diagnostic| match self.remaining.get_mut(&fingerprint(root, tree, diagnostic)) {
                Some(count) if *count > 0 => {
                    *count -= 1;
                    false
                }
                _ => true,
            },
        );
        let hidden = before - report.diagnostics.len();
        report.recount();
        report.summary.baselined += hidden;
        hidden
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SCHEMA: &str = "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json";

    fn checked(manifest: &str) -> (Tree, PackageReport) {
        let tree = Tree::from_files([("plugin.json", manifest.as_bytes().to_vec())]);
        let report = crate::check_package("demo", &tree);
        (tree, report)
    }

    #[test]
    fn recorded_findings_are_hidden_after_lines_move_and_new_ones_stay() {
        let (tree, report) = checked(&format!(
            "{{\"$schema\": \"{SCHEMA}\", \"name\": \"demo\", \"colour\": 1}}"
        ));
        assert!(
            report.diagnostics.iter().any(|d| d.code == "AP205"),
            "{:?}",
            report.diagnostics
        );
        let text = record([("demo", &tree, &report)]);

        // The same finding three lines lower, re-indented, and a new unknown key.
        let moved = format!(
            "\n\n\n{{\n  \"$schema\": \"{SCHEMA}\",\n  \"name\": \"demo\",\n  \"colour\":   1,\n  \"flavour\": 2\n}}"
        );
        let (tree, mut report) = checked(&moved);
        let hidden = Baseline::parse(&text).unwrap().apply("demo", &tree, &mut report);
        assert_eq!(hidden, 1);
        assert_eq!(report.summary.baselined, 1);
        let left: Vec<_> = report.diagnostics.iter().map(|d| d.pointer.as_deref()).collect();
        assert_eq!(left, [Some("/flavour")]);
    }

    #[test]
    fn a_changed_value_or_a_second_copy_is_new() {
        let (tree, report) = checked(&format!("{{\"$schema\": \"{SCHEMA}\", \"name\": \"Demo\"}}"));
        let text = record([("demo", &tree, &report)]);
        let (tree, mut report) = checked(&format!("{{\"$schema\": \"{SCHEMA}\", \"name\": \"DEMO\"}}"));
        let before = report.diagnostics.len();
        assert_eq!(Baseline::parse(&text).unwrap().apply("demo", &tree, &mut report), 0);
        assert_eq!(report.diagnostics.len(), before);
    }

    #[test]
    fn a_decided_state_stays_when_its_finding_is_hidden() {
        let (tree, report) = checked(&format!("{{\"$schema\": \"{SCHEMA}\", \"name\": \"Bad Name\"}}"));
        let state = report.plugin.state;
        let text = record([("demo", &tree, &report)]);
        let (tree, mut report) = checked(&format!("{{\"$schema\": \"{SCHEMA}\", \"name\": \"Bad Name\"}}"));
        Baseline::parse(&text).unwrap().apply("demo", &tree, &mut report);
        assert!(report.diagnostics.is_empty());
        assert_eq!(report.plugin.state, state);
    }

    #[test]
    fn other_files_are_refused_with_a_reason() {
        assert!(Baseline::parse("[]").unwrap_err().contains("not an apcheck baseline"));
        assert!(
            Baseline::parse(r#"{"version": 9, "findings": []}"#)
                .unwrap_err()
                .contains("version 9")
        );
    }
}
