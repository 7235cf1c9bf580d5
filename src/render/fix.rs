//! `apcheck check --fix` / `--diff`'s report: the fixes of each root as a
//! unified diff (what `--diff` prints, `patch -p0` applies it from where the
//! check ran), and the closing line on stderr. Redirected, the file contents
//! are quoted as they are: a diff that is escaped would no longer apply. On a
//! terminal, where only a person reads it, each line goes through [`visible`]
//! like every other report ([`for_people`]): a SKILL.md's escape sequences or
//! credentials never reach the screen raw.

use crate::fix::FixOutcome;
use crate::render::count;
use crate::render::escape::visible;
use crate::tree::{Tree, path_from_root};

/// The unified diff of one fixed file, named as the check showed it on both sides.
pub fn unified_diff(shown_path: &str, old: &str, new: &str) -> String {
    similar::TextDiff::from_lines(old, new)
        .unified_diff()
        .context_radius(3)
        .header(shown_path, shown_path)
        .to_string()
}

/// Every change of `outcome` as a diff, files named from where the check
/// started (`root_name` as the CLI names the root); `old_text` gives a
/// file's text before the fixes.
pub fn diffs(root_name: &str, outcome: &FixOutcome, old_text: impl Fn(&str) -> Option<String>) -> String {
    let mut out = String::new();
    for (file, new) in &outcome.changed {
        let old = old_text(file).unwrap_or_default();
        let shown = path_from_root(root_name, file);
        out.push_str(&unified_diff(shown.trim_start_matches("./"), &old, new));
    }
    out
}

/// What `apcheck check --diff` prints for a run (the CLI's and the npm package's).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiffRun {
    /// The diff of every root, for standard output.
    pub diff: String,
    /// The closing line, for standard error ([`would_change`]).
    pub summary: String,
    /// Whether any file would change: the run exits 1.
    pub changes: bool,
}

/// `--diff` over the roots of a run, each as its name and its tree before the
/// fixes, with its outcome (in the same order). `for_people`: the diff goes to
/// a terminal, so each line is escaped ([`for_people`]); redirected, it
/// applies as it is.
pub fn diff_run<'t>(
    roots: impl IntoIterator<Item = (&'t str, &'t Tree)>,
    outcomes: &[FixOutcome],
    for_people: bool,
) -> DiffRun {
    let mut diff = String::new();
    for ((name, tree), outcome) in roots.into_iter().zip(outcomes) {
        let old_text = |file: &str| tree.read(file).map(|bytes| String::from_utf8_lossy(bytes).into_owned());
        diff.push_str(&diffs(name, outcome, old_text));
    }
    if for_people {
        diff = self::for_people(&diff);
    }
    DiffRun {
        diff,
        summary: would_change(outcomes),
        changes: outcomes.iter().any(|outcome| !outcome.changed.is_empty()),
    }
}

/// `diff` for a terminal: every line [`visible`] (control characters and
/// bidi controls escaped, credentials masked), the line breaks kept.
pub fn for_people(diff: &str) -> String {
    let mut out = String::with_capacity(diff.len());
    for line in diff.split_inclusive('\n') {
        let (content, end) = match line.strip_suffix('\n') {
            Some(content) => (content, "\n"),
            None => (line, ""),
        };
        out.push_str(&visible(content));
        out.push_str(end);
    }
    out
}

/// How many fixes the outcomes of a run hold, and in how many files.
fn totals(outcomes: &[FixOutcome]) -> (String, String) {
    let applied: usize = outcomes.iter().map(|outcome| outcome.applied).sum();
    let files: usize = outcomes.iter().map(|outcome| outcome.changed.len()).sum();
    (count(applied, "fix", "fixes"), count(files, "file", "files"))
}

/// `--diff`'s closing line: `apcheck: 2 fixes would change 1 file`.
pub fn would_change(outcomes: &[FixOutcome]) -> String {
    let (fixes, files) = totals(outcomes);
    format!("apcheck: {fixes} would change {files}\n")
}

/// `--fix`'s closing line: `apcheck: applied 2 fixes in 1 file`.
pub fn applied(outcomes: &[FixOutcome]) -> String {
    let (fixes, files) = totals(outcomes);
    format!("apcheck: applied {fixes} in {files}\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_diff_for_people_escapes_and_masks_each_line() {
        let old = "description: Use when \u{1b}[31m asked \u{202e} ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8\n";
        let new = "description: Use when asked\n";
        let shown = for_people(&unified_diff("SKILL.md", old, new));
        assert!(!shown.chars().any(|c| c == '\u{1b}' || c == '\u{202e}'), "{shown}");
        assert!(!shown.contains("ghp_A1b2"), "{shown}");
        assert!(
            shown.contains("\\u{1b}[31m") && shown.contains("\n+description: Use when asked\n"),
            "{shown}"
        );
    }

    #[test]
    fn a_diff_names_the_file_on_both_sides() {
        let diff = unified_diff(
            "p/plugin.json",
            "{\n  \"name\": \"A\"\n}\n",
            "{\n  \"name\": \"a\"\n}\n",
        );
        assert!(
            diff.starts_with("--- p/plugin.json\n+++ p/plugin.json\n@@ -1,3 +1,3 @@\n"),
            "{diff}"
        );
        assert!(diff.contains("-  \"name\": \"A\"\n+  \"name\": \"a\"\n"), "{diff}");
    }

    #[test]
    fn a_diff_run_joins_the_roots_and_says_whether_anything_changes() {
        let tree = Tree::from_files([("plugin.json", "old\u{1b}\n")]);
        let outcome = FixOutcome {
            changed: vec![("plugin.json".to_string(), "new\n".to_string())],
            applied: 1,
        };
        let roots = [("a", &tree), ("b", &tree)];
        let run = diff_run(roots, &[outcome.clone(), FixOutcome::default()], false);
        assert!(
            run.diff.starts_with("--- a/plugin.json\n+++ a/plugin.json\n"),
            "{}",
            run.diff
        );
        assert!(
            run.diff.contains("-old\u{1b}\n") && !run.diff.contains("b/plugin.json"),
            "{}",
            run.diff
        );
        assert_eq!(run.summary, "apcheck: 1 fix would change 1 file\n");
        assert!(run.changes);
        let shown = diff_run(roots, &[outcome, FixOutcome::default()], true);
        assert!(!shown.diff.contains('\u{1b}'), "{}", shown.diff);
        let none = diff_run(roots, &[FixOutcome::default(), FixOutcome::default()], false);
        assert_eq!((none.diff.as_str(), none.changes), ("", false));
    }

    #[test]
    fn files_are_named_from_where_the_check_started() {
        let outcome = FixOutcome {
            changed: vec![("plugin.json".to_string(), "new\n".to_string())],
            applied: 2,
        };
        let out = diffs("./plugins/a", &outcome, |_| Some("old\n".to_string()));
        assert!(
            out.starts_with("--- plugins/a/plugin.json\n+++ plugins/a/plugin.json\n"),
            "{out}"
        );
        assert_eq!(
            would_change(std::slice::from_ref(&outcome)),
            "apcheck: 2 fixes would change 1 file\n"
        );
        assert_eq!(
            applied(&[outcome, FixOutcome::default()]),
            "apcheck: applied 2 fixes in 1 file\n"
        );
    }
}
