//! `check --statistics`: how many findings each rule made over all the
//! reports, most frequent first, as Ruff's `--statistics` counts them. A
//! reader triaging a large marketplace sees where the work is before reading
//! any finding.

use serde::Serialize;

use crate::diag::Severity;
use crate::edit::Applicability;
use crate::registry;
use crate::report::PackageReport;

/// One rule's count.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RuleCount {
    pub code: &'static str,
    pub name: &'static str,
    pub severity: Severity,
    pub count: usize,
    /// How many of them `check --fix` would fix (safe fixes only).
    pub fixable: usize,
}

/// The counts of every rule that made a finding, most findings first, then by code.
pub fn counts(reports: &[PackageReport]) -> Vec<RuleCount> {
    let mut counts: Vec<RuleCount> = Vec::new();
    for diagnostic in reports.iter().flat_map(|report| &report.diagnostics) {
        let safe_fix = diagnostic
            .fix
            .as_ref()
            .is_some_and(|fix| fix.applicability == Applicability::Safe && !fix.edits.is_empty());
        let entry = match counts.iter_mut().position(|count| count.code == diagnostic.code) {
            Some(index) => &mut counts[index],
            None => {
                counts.push(RuleCount {
                    code: diagnostic.code,
                    name: registry::find(diagnostic.code).map_or("", |rule| rule.name),
                    severity: diagnostic.severity,
                    count: 0,
                    fixable: 0,
                });
                counts.last_mut().expect("just pushed")
            }
        };
        entry.count += 1;
        entry.fixable += usize::from(safe_fix);
        // A rule configured at another level shows its most severe finding's level.
        entry.severity = entry.severity.max(diagnostic.severity);
    }
    counts.sort_by(|a, b| b.count.cmp(&a.count).then(a.code.cmp(b.code)));
    counts
}

/// The text table: count, code, `[*]` when all of a rule's findings are
/// fixable (`[-]` when some are), and the rule's name; then a total line.
pub fn text(reports: &[PackageReport]) -> String {
    let counts = counts(reports);
    let width = counts
        .iter()
        .map(|count| count.count.to_string().len())
        .max()
        .unwrap_or(1);
    let mut out = String::new();
    for count in &counts {
        let mark = match count.fixable {
            0 => "   ",
            n if n == count.count => "[*]",
            _ => "[-]",
        };
        out.push_str(&format!(
            "{:>width$}  {:<6} {mark} {}\n",
            count.count, count.code, count.name
        ));
    }
    let total: usize = counts.iter().map(|count| count.count).sum();
    let fixable: usize = counts.iter().map(|count| count.fixable).sum();
    out.push_str(&format!(
        "{} in {}",
        super::count(total, "finding", "findings"),
        super::count(reports.len(), "package", "packages")
    ));
    if fixable > 0 {
        out.push_str(&format!(" ({fixable} fixable with `apcheck check --fix`)"));
    }
    out.push('\n');
    out
}

/// The counts as a JSON array, in the text table's order.
pub fn json(reports: &[PackageReport]) -> String {
    super::escape::json_text(&counts(reports))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check_package;
    use crate::tree::Tree;

    const SCHEMA: &str = "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json";

    /// The report of a package holding only plugin.json, named `name`, with `extra` members.
    fn checked(name: &str, extra: &str) -> PackageReport {
        let manifest = format!("{{\"$schema\": \"{SCHEMA}\", \"name\": \"{name}\"{extra}}}");
        check_package(name, &Tree::from_files([("plugin.json", manifest.as_str())]))
    }

    #[test]
    fn counts_each_rule_most_frequent_first_with_its_fixable_share() {
        // Two unknown top-level keys (§5.1: reported and ignored) in one package, one in another.
        let two = checked("a", ", \"x\": 1, \"y\": 2");
        let one = checked("b", ", \"z\": 1");
        let reports = [two, one];
        let counts = counts(&reports);
        assert!(!counts.is_empty());
        let first = &counts[0];
        assert_eq!(first.count, 3, "{counts:?}");
        assert!(counts.windows(2).all(|pair| pair[0].count >= pair[1].count));
        let table = text(&reports);
        assert!(table.starts_with(&format!("3  {:<6}", first.code)), "{table}");
        assert!(table.contains(first.name), "{table}");
        assert!(
            table.lines().last().unwrap().starts_with("3 findings in 2 packages"),
            "{table}"
        );
        let json: serde_json::Value = serde_json::from_str(&json(&reports)).unwrap();
        assert_eq!(json[0]["count"], 3);
        assert_eq!(json[0]["code"], first.code);
    }

    #[test]
    fn a_clean_run_counts_nothing() {
        let clean = checked("c", "");
        assert_eq!(text(std::slice::from_ref(&clean)), "0 findings in 1 package\n");
    }
}
