//! A unified text diff of the two documents' canonical pretty forms (2-space
//! indent, keys sorted), with the changed words of each changed line marked.

use std::time::Duration;

use serde::Serialize;
use similar::{ChangeTag, TextDiff, udiff::UnifiedHunkHeader};

/// Lines of context around each change, as `diff -u` shows.
const CONTEXT: usize = 3;

/// Myers' diff is quadratic on very different inputs; past this, `similar`
/// settles for a coarser (still correct) diff instead of hanging.
const TIME_BUDGET: Duration = Duration::from_secs(2);

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

/// Diffs two canonical texts line by line, naming them `a_name` and `b_name`.
pub fn unified(a: &str, b: &str, a_name: &str, b_name: &str) -> UnifiedDiff {
    let diff = TextDiff::configure().timeout(TIME_BUDGET).diff_lines(a, b);
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
                .flat_map(|op| diff.iter_inline_changes(op))
                .map(|change| Line {
                    tag: match change.tag() {
                        ChangeTag::Equal => " ",
                        ChangeTag::Delete => "-",
                        ChangeTag::Insert => "+",
                    },
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

    #[test]
    fn equal_texts_have_no_hunks() {
        let diff = unified("{}\n", "{}\n", "a", "b");
        assert!(diff.hunks.is_empty());
        assert!(diff.text.is_empty());
    }
}
