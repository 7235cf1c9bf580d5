//! Fixes as data: a rule may attach to its diagnostic a [`Fix`], a list of
//! byte-range [`Edit`]s marked [`Applicability::Safe`] or
//! [`Applicability::Unsafe`] (after Ruff). Every face reads the same edits:
//! `apcheck check --fix` writes them, the JSON report carries them as `fix`,
//! SARIF as `fixes`, the page's "Apply fix" and the language server's code
//! actions apply them to the text they hold.
//!
//! Sans-IO: [`apply_edits`] turns one file's text into the fixed text, and
//! [`fix_tree`] re-checks a package tree until no fix applies, so the CLI only
//! reads and writes files.

use std::collections::BTreeMap;

pub use crate::edit::{Applicability, Edit, Fix};

use crate::diag::Diagnostic;
use crate::source::Span;
use crate::tree::{Entry, Tree};

pub mod json_edits;

/// What some fixes need from the user because the finding cannot tell: the
/// check offers those fixes only when it is given. Sans-IO: the edge fills it
/// from the configuration and flags.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FixInputs {
    /// The reverse-domain namespace (`com.example.client`) under which vendor
    /// keys such as a top-level `hooks` are moved into `extensions` (§8.1).
    pub extensions_namespace: Option<String>,
}

/// Why edits could not be applied to a text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EditError {
    /// A span ends past the text or splits a UTF-8 character: the edits were
    /// made for another version of the file.
    OutOfRange(Span),
    /// Two edits replace overlapping bytes.
    Overlap(Span, Span),
}

impl std::fmt::Display for EditError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EditError::OutOfRange(span) => write!(
                f,
                "the edit at bytes {}..{} does not fit the text (was it changed since the check?)",
                span.start, span.end
            ),
            EditError::Overlap(a, b) => write!(
                f,
                "the edits at bytes {}..{} and {}..{} overlap",
                a.start, a.end, b.start, b.end
            ),
        }
    }
}

/// `text` with every edit applied (their `file` is not looked at: the caller
/// picks the edits of this file). Insertions at the same offset keep their order.
pub fn apply_edits<'e>(text: &str, edits: impl IntoIterator<Item = &'e Edit>) -> Result<String, EditError> {
    // The work is compiled once, not once for each kind of list of edits.
    apply_edit_list(text, edits.into_iter().collect())
}

fn apply_edit_list(text: &str, mut edits: Vec<&Edit>) -> Result<String, EditError> {
    edits.sort_by_key(|edit| (edit.span.start, edit.span.end));
    let mut out = String::with_capacity(text.len());
    let mut copied_to = 0;
    let mut previous: Option<Span> = None;
    for edit in edits {
        let span = edit.span;
        if span.start > span.end
            || span.end > text.len()
            || !text.is_char_boundary(span.start)
            || !text.is_char_boundary(span.end)
        {
            return Err(EditError::OutOfRange(span));
        }
        if let Some(before) = previous
            && (span.start < before.end || (span.start == before.start && before.start != before.end))
        {
            return Err(EditError::Overlap(before, span));
        }
        out.push_str(&text[copied_to..span.start]);
        out.push_str(&edit.replacement);
        copied_to = span.end;
        previous = Some(span);
    }
    out.push_str(&text[copied_to..]);
    Ok(out)
}

/// What [`fix_tree`] did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FixOutcome {
    /// Each file that changed, with its new text, in path order.
    pub changed: Vec<(String, String)>,
    /// How many fixes were applied, over all passes.
    pub applied: usize,
}

impl FixOutcome {
    /// Puts the new texts into `tree`, as the files hold them once the edge
    /// has written them, so the report that follows is of the fixed package.
    pub fn apply_to(&self, tree: &mut Tree) {
        for (file, text) in &self.changed {
            tree.insert(file, Entry::File(text.clone().into_bytes()));
        }
    }
}

/// Which fixes a run applies: the safe ones (`apcheck check --fix`, the page's
/// "Fix all"), or the unsafe ones too (`--unsafe-fixes`, which implies `--fix`).
pub fn allowed(include_unsafe: bool) -> Applicability {
    if include_unsafe {
        Applicability::Unsafe
    } else {
        Applicability::Safe
    }
}

/// Passes of check-then-fix before giving up: more than any chain of fixes
/// here needs, and a bound on a fix that undoes another.
const MAX_PASSES: usize = 10;

/// Applies every fix `check` offers up to `allowed`, re-checking after each
/// pass until none is left, as `apcheck check --fix` does. Within a pass a fix
/// whose edits overlap those of a fix taken before it waits for the next pass,
/// which sees it again on the new text. `check` is the package check the
/// caller runs (with its configuration), so fixes of ignored rules are not
/// applied.
pub fn fix_tree(tree: &Tree, allowed: Applicability, mut check: impl FnMut(&Tree) -> Vec<Diagnostic>) -> FixOutcome {
    let mut tree = tree.clone();
    let mut outcome = FixOutcome::default();
    let mut changed = BTreeMap::new();
    for _ in 0..MAX_PASSES {
        let diagnostics = check(&tree);
        let mut taken: BTreeMap<&str, Vec<&Edit>> = BTreeMap::new();
        let mut pass_applied = 0;
        for fix in diagnostics
            .iter()
            .filter_map(|d| d.fix.as_ref())
            .filter(|fix| fix.applicability <= allowed && !fix.edits.is_empty())
        {
            let conflicts = fix.edits.iter().any(|edit| {
                taken
                    .get(edit.file.as_str())
                    .is_some_and(|edits| edits.iter().any(|other| overlap(edit.span, other.span)))
            });
            if conflicts || fix.files().iter().any(|file| text_of(&tree, file).is_none()) {
                continue;
            }
            for edit in &fix.edits {
                taken.entry(edit.file.as_str()).or_default().push(edit);
            }
            pass_applied += 1;
        }
        let mut any_change = false;
        for (file, edits) in taken {
            let Some(old) = text_of(&tree, file) else { continue };
            let Ok(new) = apply_edits(old, edits) else { continue };
            if new != old {
                tree.insert(file, Entry::File(new.clone().into_bytes()));
                changed.insert(file.to_string(), new);
                any_change = true;
            }
        }
        outcome.applied += pass_applied;
        if !any_change {
            break;
        }
    }
    outcome.changed = changed.into_iter().collect();
    outcome
}

/// Whether two edits cannot both be applied in one pass: their bytes
/// intersect, or they start at the same offset (whose order would be a guess).
fn overlap(a: Span, b: Span) -> bool {
    a.start == b.start || (a.start < b.end && b.start < a.end)
}

/// The UTF-8 text of the regular file at `path`, if it is one.
fn text_of<'t>(tree: &'t Tree, path: &str) -> Option<&'t str> {
    tree.read(path).and_then(|bytes| std::str::from_utf8(bytes).ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edit(start: usize, end: usize, replacement: &str) -> Edit {
        Edit::replace("f", Span::new(start, end), replacement)
    }

    #[test]
    fn edits_apply_in_offset_order_whatever_order_they_come_in() {
        let text = "{\"name\": \"Bad\"}";
        let value = text.find("\"Bad\"").unwrap();
        let edits = [edit(value, value + 5, "\"bad\""), edit(1, 1, "\"$schema\": \"s\", ")];
        assert_eq!(
            apply_edits(text, &edits).unwrap(),
            "{\"$schema\": \"s\", \"name\": \"bad\"}"
        );
        assert_eq!(apply_edits(text, []).unwrap(), text);
    }

    #[test]
    fn insertions_at_one_offset_keep_their_order() {
        assert_eq!(apply_edits("ab", &[edit(1, 1, "x"), edit(1, 1, "y")]).unwrap(), "axyb");
        // An insertion right where a replacement starts goes before it.
        assert_eq!(apply_edits("ab", &[edit(0, 1, "Z"), edit(0, 0, "y")]).unwrap(), "yZb");
    }

    #[test]
    fn edits_that_do_not_fit_are_refused() {
        assert_eq!(
            apply_edits("ab", &[edit(1, 3, "")]),
            Err(EditError::OutOfRange(Span::new(1, 3)))
        );
        // Inside `é`.
        assert!(matches!(
            apply_edits("é", &[edit(1, 1, "x")]),
            Err(EditError::OutOfRange(_))
        ));
        assert_eq!(
            apply_edits("abcd", &[edit(0, 2, "x"), edit(1, 3, "y")]),
            Err(EditError::Overlap(Span::new(0, 2), Span::new(1, 3)))
        );
        assert!(matches!(
            apply_edits("abcd", &[edit(1, 2, "x"), edit(1, 3, "y")]),
            Err(EditError::Overlap(..))
        ));
    }

    #[test]
    fn fix_tree_re_checks_until_nothing_applies_and_respects_applicability() {
        // A stand-in check: every upper-case letter in `f` is a finding with a
        // safe fix, and `!` one with an unsafe fix.
        let check = |tree: &Tree| -> Vec<Diagnostic> {
            let text = text_of(tree, "f").unwrap_or_default();
            let rule = crate::registry::find("AP209").unwrap();
            text.char_indices()
                .filter_map(|(i, c)| {
                    let fix = if c.is_ascii_uppercase() {
                        Fix::safe("lower", vec![edit(i, i + 1, &c.to_ascii_lowercase().to_string())])
                    } else if c == '!' {
                        Fix::unsafe_("drop", vec![edit(i, i + 1, "")])
                    } else {
                        return None;
                    };
                    Some(Diagnostic::new(rule, "m").in_file("f").with_fix(fix))
                })
                .collect()
        };
        let tree = Tree::from_files([("f", "AB!c")]);
        let safe = fix_tree(&tree, Applicability::Safe, check);
        assert_eq!(safe.changed, [("f".to_string(), "ab!c".to_string())]);
        assert_eq!(safe.applied, 2);
        let all = fix_tree(&tree, Applicability::Unsafe, check);
        assert_eq!(all.changed, [("f".to_string(), "abc".to_string())]);
        let clean = fix_tree(&Tree::from_files([("f", "abc")]), Applicability::Unsafe, check);
        assert_eq!(clean, FixOutcome::default());
    }

    #[test]
    fn fixes_serialize_as_data() {
        let fix = Fix::safe("Rename", vec![edit(1, 4, "\"a\"")]);
        assert_eq!(
            serde_json::to_value(&fix).unwrap(),
            serde_json::json!({
                "message": "Rename",
                "applicability": "safe",
                "edits": [{ "file": "f", "span": { "start": 1, "end": 4 }, "replacement": "\"a\"" }]
            })
        );
    }
}
