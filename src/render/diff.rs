//! `apcheck diff`'s output forms. A diff is about documents, not findings,
//! so it has its own forms rather than the [`Format`](super::Format) list:
//! the readable list of changes, its JSON shape, and a unified diff, each
//! with or without colour. The JSON Patch and merge patch are printed as the
//! core builds them.

use serde_json::{Value, json};

use super::escape::visible;
use crate::json::diff::unified::UnifiedDiff;
use crate::json::diff::{Change, ChangeKind, Diff};

/// The ANSI colours of the diff's text forms (all empty without colour).
pub struct Style {
    added: &'static str,
    removed: &'static str,
    changed: &'static str,
    emphasis: &'static str,
    reset: &'static str,
}

impl Style {
    pub fn new(color: bool) -> Self {
        if color {
            Style {
                added: "\x1b[32m",
                removed: "\x1b[31m",
                changed: "\x1b[33m",
                emphasis: "\x1b[7m",
                reset: "\x1b[0m",
            }
        } else {
            Style {
                added: "",
                removed: "",
                changed: "",
                emphasis: "",
                reset: "",
            }
        }
    }
}

/// The readable list: one entry per change (with `A:line → B:line` where
/// known), then the counts, or "no differences".
pub fn changes_text(diff: &Diff, a_name: &str, b_name: &str, style: &Style) -> String {
    let mut out: String = diff
        .changes
        .iter()
        .map(|change| change_text(change, a_name, b_name, style))
        .collect();
    if diff.is_empty() {
        out.push_str("no differences\n");
    } else {
        let [added, removed, changed, moved] = diff.counts();
        out.push_str(&format!(
            "{added} added, {removed} removed, {changed} changed, {moved} moved\n"
        ));
    }
    out
}

/// `{"equal", "summary": {"added", "removed", "changed", "moved"}, "changes"}`.
pub fn changes_json(diff: &Diff) -> Value {
    let [added, removed, changed, moved] = diff.counts();
    json!({
        "equal": diff.is_empty(),
        "summary": {"added": added, "removed": removed, "changed": changed, "moved": moved},
        "changes": diff.changes,
    })
}

/// A unified diff; with colour, headers bold, hunks cyan and changed words emphasized.
pub fn unified_text(diff: &UnifiedDiff, style: &Style) -> String {
    if style.reset.is_empty() {
        return diff.text.clone();
    }
    let mut out = String::new();
    for line in diff.text.lines().take_while(|l| !l.starts_with("@@")) {
        out.push_str(&format!("\x1b[1m{line}{}\n", style.reset));
    }
    for hunk in &diff.hunks {
        out.push_str(&format!("\x1b[36m{}{}\n", hunk.header.trim_end(), style.reset));
        for line in &hunk.lines {
            let colour = match line.tag {
                "-" => style.removed,
                "+" => style.added,
                _ => "",
            };
            out.push_str(colour);
            out.push_str(line.tag);
            for segment in &line.segments {
                if segment.emphasized {
                    out.push_str(&format!("{}{}{}{colour}", style.emphasis, segment.text, style.reset));
                } else {
                    out.push_str(&segment.text);
                }
            }
            out.push_str(style.reset);
            out.push('\n');
        }
    }
    out
}

/// A value on one line, cut at 100 characters.
fn brief(value: &Value) -> String {
    const WIDTH: usize = 100;
    let text = value.to_string();
    match text.char_indices().nth(WIDTH) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text,
    }
}

/// One change, every name and value in it made [`visible`]: member names
/// come from the documents, and a name like `\n::error …::` or one holding
/// ESC or U+202E must not start a log line, a workflow command or a terminal
/// sequence, as the JSON and unified forms never let it.
fn change_text(change: &Change, a_name: &str, b_name: &str, style: &Style) -> String {
    let at = |name: &str, line: Option<usize>| line.map(|l| format!("{}:{l}", visible(name)));
    let place = match (at(a_name, change.old_line), at(b_name, change.new_line)) {
        (Some(a), Some(b)) => format!("  ({a} → {b})"),
        (Some(one), None) | (None, Some(one)) => format!("  ({one})"),
        (None, None) => String::new(),
    };
    let (sign, colour) = match change.kind {
        ChangeKind::Added => ("+", style.added),
        ChangeKind::Removed => ("-", style.removed),
        ChangeKind::Changed => ("~", style.changed),
        ChangeKind::Moved => ("↷", style.changed),
    };
    let reset = style.reset;
    let mut out = format!("{colour}{sign} {}{reset}{place}\n", visible(&change.label));
    if change.kind == ChangeKind::Moved {
        let from = change.old_path.as_deref().unwrap_or(&change.path);
        out.push_str(&format!(
            "    moved from {} to {}\n",
            visible(from),
            visible(&change.path)
        ));
    }
    if let Some(old) = &change.old {
        out.push_str(&format!("    {}- {}{reset}\n", style.removed, visible(&brief(old))));
    }
    if let Some(new) = &change.new {
        out.push_str(&format!("    {}+ {}{reset}\n", style.added, visible(&brief(new))));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::diff::CompareOptions;
    use crate::json::tools::{DiffRequest, diff_documents, snapshot_array_keys};

    fn diff(a: &str, b: &str) -> Diff {
        let request = DiffRequest {
            options: CompareOptions {
                default_keys: snapshot_array_keys(),
                ..CompareOptions::default()
            },
            lines: true,
        };
        diff_documents(a, b, &request).unwrap().diff
    }

    #[test]
    fn the_list_places_each_change_and_counts_them() {
        let text = changes_text(&diff("{\"a\": 1}", "{\n\"a\": 2}"), "A", "B", &Style::new(false));
        assert!(text.starts_with("~ "), "{text}");
        assert!(text.contains("(A:1 → B:2)"), "{text}");
        assert!(text.contains("    - 1\n    + 2\n"), "{text}");
        assert!(text.ends_with("0 added, 0 removed, 1 changed, 0 moved\n"), "{text}");
        assert_eq!(
            changes_text(&diff("[]", "[]"), "A", "B", &Style::new(false)),
            "no differences\n"
        );
    }

    #[test]
    fn the_json_shape_says_whether_the_documents_are_equal() {
        let shape = changes_json(&diff("{\"a\": 1}", "{}"));
        assert_eq!(shape["equal"], false);
        assert_eq!(shape["summary"]["removed"], 1);
        assert_eq!(shape["changes"].as_array().map(Vec::len), Some(1));
    }

    #[test]
    fn member_names_cannot_forge_a_log_line_or_a_terminal_sequence() {
        let a = r#"{"\n::error file=README.md,line=1::Approved by security": 1, "\u001b[2J\u202e": 1}"#;
        let text = changes_text(&diff(a, "{}"), "A\u{202e}", "B", &Style::new(false));
        assert!(text.lines().all(|line| !line.trim_start().starts_with("::")), "{text}");
        assert!(!text.contains(['\u{1b}', '\u{202e}']), "{text}");
        assert!(text.contains("\\u{a}::error file=README.md"), "{text}");
    }

    #[test]
    fn long_values_are_cut_at_a_hundred_characters() {
        let long = Value::String("x".repeat(300));
        assert_eq!(brief(&long).chars().count(), 101);
        assert!(brief(&long).ends_with('…'));
    }
}
