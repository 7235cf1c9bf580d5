//! A unified text diff of the two documents' canonical pretty forms (2-space
//! indent, keys sorted), with the changed words of each changed line marked
//! natively. The wasm leaves the words to the page's merge view: `similar`'s
//! `inline` feature is native only (Cargo.toml), so there a changed line is one
//! unemphasized segment.
//!
//! No clock: `similar`'s Myers bounds its own work on very different inputs
//! (a size-dependent split limit, as git's xdiff does), so no deadline is set,
//! and the same inputs always give the same diff.

use serde::Serialize;
use similar::udiff::UnifiedHunkHeader;

/// Lines of context around each change, as `diff -u` shows.
const CONTEXT: usize = 3;

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct UnifiedDiff {
    /// The classic `--- a` / `+++ b` / `@@` text, applicable with `patch`.
    pub text: String,
    pub hunks: Vec<Hunk>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Hunk {
    /// `@@ -1,4 +1,5 @@`
    pub header: String,
    pub lines: Vec<Line>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Line {
    /// `" "`, `"-"` or `"+"`.
    pub tag: &'static str,
    /// 1-based line numbers in A and B, where the line exists there.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub old_line: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub new_line: Option<usize>,
    /// The line's text in pieces; `emphasized` pieces are the words that changed.
    pub segments: Vec<Segment>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Segment {
    pub text: String,
    pub emphasized: bool,
}

/// Diffs two canonical texts line by line, naming them `a_name` and `b_name`;
/// the changed words of each changed line are emphasized.
#[cfg(not(target_arch = "wasm32"))]
pub fn unified(a: &str, b: &str, a_name: &str, b_name: &str) -> UnifiedDiff {
    let diff = similar::TextDiff::from_lines(a, b);
    let text = diff
        .unified_diff()
        .context_radius(CONTEXT)
        .header(a_name, b_name)
        .to_string();
    let hunks = diff
        .grouped_ops(CONTEXT)
        .iter()
        .map(|group| Hunk {
            header: UnifiedHunkHeader::new(group).to_string(),
            lines: group
                .iter()
                // No deadline (see the module doc).
                .flat_map(|op| diff.iter_inline_changes_deadline(op, None))
                .map(|change| Line {
                    tag: tag(change.tag()),
                    old_line: change.old_index().map(|i| i + 1),
                    new_line: change.new_index().map(|i| i + 1),
                    segments: change
                        .iter_strings_lossy()
                        .map(|(emphasized, text)| Segment {
                            text: text.trim_end_matches('\n').to_string(),
                            emphasized,
                        })
                        .filter(|segment| !segment.text.is_empty())
                        .collect(),
                })
                .collect(),
        })
        .collect();
    UnifiedDiff { text, hunks }
}

/// Diffs two canonical texts line by line, naming them `a_name` and `b_name`;
/// each line is one segment (the page's merge view marks the words).
#[cfg(target_arch = "wasm32")]
pub fn unified(a: &str, b: &str, a_name: &str, b_name: &str) -> UnifiedDiff {
    lines_only(a, b, a_name, b_name)
}

/// The unified diff without word emphasis, through the one Myers instantiation
/// (`sequence`) rather than `similar::TextDiff`, whose run-time choice of
/// algorithm would bring all of them into the wasm. The same text and hunks as
/// `TextDiff` gives (tested natively).
#[cfg(any(target_arch = "wasm32", test))]
fn lines_only(a: &str, b: &str, a_name: &str, b_name: &str) -> UnifiedDiff {
    use std::collections::HashMap;

    let (old, new): (Vec<&str>, Vec<&str>) = (a.split_inclusive('\n').collect(), b.split_inclusive('\n').collect());
    // Equal lines get equal ids, so the diff of the ids is the diff of the lines.
    let mut ids: HashMap<&str, u64> = HashMap::new();
    let mut intern = |line| -> u64 {
        let next = ids.len() as u64;
        *ids.entry(line).or_insert(next)
    };
    let old_ids: Vec<u64> = old.iter().map(|line| intern(*line)).collect();
    let new_ids: Vec<u64> = new.iter().map(|line| intern(*line)).collect();
    let groups = similar::group_diff_ops(super::sequence::myers_ops(&old_ids, &new_ids), CONTEXT);
    let mut text = String::new();
    let mut hunks = Vec::with_capacity(groups.len());
    for group in groups.iter().filter(|group| !group.is_empty()) {
        if text.is_empty() {
            text = format!("--- {a_name}\n+++ {b_name}\n");
        }
        let header = UnifiedHunkHeader::new(group).to_string();
        text.push_str(&header);
        text.push('\n');
        let mut lines = Vec::new();
        for op in group {
            for change in op.iter_changes(&old[..], &new[..]) {
                let (value, tag) = (change.value(), change.tag());
                let (old_index, new_index) = (change.old_index(), change.new_index());
                text.push_str(self::tag(tag));
                text.push_str(value);
                if !value.ends_with('\n') {
                    text.push_str("\n\\ No newline at end of file\n");
                }
                let line = value.trim_end_matches('\n');
                lines.push(Line {
                    tag: self::tag(tag),
                    old_line: old_index.map(|i| i + 1),
                    new_line: new_index.map(|j| j + 1),
                    segments: (!line.is_empty())
                        .then(|| Segment {
                            text: line.to_string(),
                            emphasized: false,
                        })
                        .into_iter()
                        .collect(),
                });
            }
        }
        hunks.push(Hunk { header, lines });
    }
    UnifiedDiff { text, hunks }
}

fn tag(tag: similar::ChangeTag) -> &'static str {
    match tag {
        similar::ChangeTag::Equal => " ",
        similar::ChangeTag::Delete => "-",
        similar::ChangeTag::Insert => "+",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn changed_words_are_emphasized() {
        let a = "{\n  \"description\": \"Echo back the input\",\n  \"name\": \"echo\"\n}\n";
        let b = "{\n  \"description\": \"Echo back the whole input\",\n  \"name\": \"echo\"\n}\n";
        let diff = unified(a, b, "a.json", "b.json");
        assert!(
            diff.text.starts_with("--- a.json\n+++ b.json\n@@ -1,4 +1,4 @@"),
            "{}",
            diff.text
        );
        let inserted = diff.hunks[0].lines.iter().find(|l| l.tag == "+").unwrap();
        assert_eq!(inserted.new_line, Some(2));
        let emphasized: Vec<&str> = inserted
            .segments
            .iter()
            .filter(|s| s.emphasized)
            .map(|s| s.text.as_str())
            .collect();
        assert!(emphasized.iter().any(|t| t.contains("whole")), "{emphasized:?}");
        assert!(!emphasized.iter().any(|t| t.contains("Echo")), "{emphasized:?}");
    }

    /// A line without its emphasis: tag, old and new line numbers, text.
    type LineShape = (&'static str, Option<usize>, Option<usize>, String);

    #[test]
    fn the_wasm_path_gives_the_same_text_and_lines() {
        let a = "{\n  \"a\": 1,\n  \"b\": [\n    1,\n    2\n  ],\n  \"c\": \"x\"\n}\n";
        let cases = [
            (
                a,
                "{\n  \"a\": 2,\n  \"b\": [\n    2\n  ],\n  \"c\": \"x\",\n  \"d\": null\n}\n",
            ),
            (a, a),
            ("", "{}\n"),
            ("{\n  \"a\": 1\n}", "{\n  \"a\": 2\n}"),
            (
                "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n",
                "1\n2\nthree\n4\n5\n6\n7\n8\n9\n10\neleven\n12\n",
            ),
        ];
        for (old, new) in cases {
            let full = unified(old, new, "a.json", "b.json");
            let lean = lines_only(old, new, "a.json", "b.json");
            assert_eq!(lean.text, full.text, "{old:?} -> {new:?}");
            let shape = |diff: &UnifiedDiff| -> Vec<(String, Vec<LineShape>)> {
                diff.hunks
                    .iter()
                    .map(|hunk| {
                        let lines = hunk.lines.iter().map(|line| {
                            let text: String = line.segments.iter().map(|segment| segment.text.as_str()).collect();
                            (line.tag, line.old_line, line.new_line, text)
                        });
                        (hunk.header.clone(), lines.collect())
                    })
                    .collect()
            };
            assert_eq!(shape(&lean), shape(&full), "{old:?} -> {new:?}");
        }
    }

    #[test]
    fn equal_texts_have_no_hunks() {
        let diff = unified("{}\n", "{}\n", "a", "b");
        assert!(diff.hunks.is_empty());
        assert!(diff.text.is_empty());
    }
}
