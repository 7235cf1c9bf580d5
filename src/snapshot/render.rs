//! Text and Markdown for the snapshot commands (JSON is the reports' serde
//! shape). Sans-IO: each function returns the text; the CLI prints it and the
//! page can show the same words.

use super::changes::ChangeReport;
use super::drift::{DriftReport, FixSide};
use super::schema_diff::Level;
use crate::diag::{Diagnostic, Severity};
use crate::source::LineIndex;

/// Where the text renderer finds a file's text by the name findings use.
pub type Sources<'s> = dyn Fn(&str) -> Option<&'s str> + 's;

/// The longest stretch of a line quoted under a finding (minified JSON is one long line).
const QUOTE_WIDTH: usize = 100;

/// `file:line:col: error[AP602]: message`, the line with a caret under the
/// span, then the hint; one finding a block.
pub fn diagnostics_text(diagnostics: &[Diagnostic], sources: &Sources<'_>) -> String {
    let mut out = String::new();
    for d in diagnostics {
        let place = match (&d.file, d.line, d.column) {
            (Some(file), Some(line), Some(column)) => format!("{file}:{line}:{column}: "),
            (Some(file), _, _) => format!("{file}: "),
            _ => String::new(),
        };
        out.push_str(&format!("{place}{}[{}]: {}\n", d.severity.as_str(), d.code, d.message));
        if let Some(quote) = quote(d, sources) {
            out.push_str(&quote);
        }
        if let Some(hint) = &d.hint {
            out.push_str(&format!("    help: {hint}\n"));
        }
    }
    out
}

/// The finding's first line with carets under its span, or `None` when the
/// text is unknown or must not be shown: secret findings (AP5xx) point at a
/// credential, and quoting the line would leak it into CI logs.
fn quote(d: &Diagnostic, sources: &Sources<'_>) -> Option<String> {
    if d.masks_secrets() {
        return None;
    }
    let (line, column) = (d.line?, d.column?);
    let text = sources(d.file.as_deref()?)?;
    let line_text: Vec<char> = LineIndex::new(text).line_text(text, line).chars().collect();
    let start = column.checked_sub(1)?.min(line_text.len());
    let end = match (d.end_line, d.end_column) {
        (Some(end_line), Some(end_column)) if end_line == line => end_column.saturating_sub(1),
        _ => line_text.len(),
    }
    .clamp(start + 1, line_text.len().max(start + 1));
    // A window around the span keeps one-line documents readable.
    let (from, to) = if line_text.len() <= QUOTE_WIDTH {
        (0, line_text.len())
    } else {
        let from = start.saturating_sub(QUOTE_WIDTH / 3);
        (
            from,
            line_text
                .len()
                .min(from + QUOTE_WIDTH)
                .max(start + 1)
                .min(line_text.len()),
        )
    };
    let shown: String = line_text[from..to].iter().collect();
    let (before, after) = (
        if from > 0 { "…" } else { "" },
        if to < line_text.len() { "…" } else { "" },
    );
    let gutter = line.to_string().len();
    let carets = "^".repeat((end.min(to) - start).max(1));
    Some(format!(
        "{:gutter$} |\n{line} | {before}{shown}{after}\n{:gutter$} | {}{}{carets}\n",
        "",
        "",
        if from > 0 { " " } else { "" },
        " ".repeat(start - from)
    ))
}

/// `2 errors, 1 warning, 0 infos`.
pub fn totals(diagnostics: &[Diagnostic]) -> String {
    let count = |s: Severity| diagnostics.iter().filter(|d| d.severity == s).count();
    let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
    format!(
        "{}, {}, {}",
        plural(count(Severity::Error), "error"),
        plural(count(Severity::Warning), "warning"),
        plural(count(Severity::Info), "info")
    )
}

/// Findings as a Markdown table (for pull-request comments).
pub fn diagnostics_markdown(diagnostics: &[Diagnostic]) -> String {
    if diagnostics.is_empty() {
        return "No findings.\n".to_string();
    }
    let mut out = String::from("| Severity | Code | Where | Finding |\n|---|---|---|---|\n");
    for d in diagnostics {
        let place = match (&d.file, d.line, d.column) {
            (Some(file), Some(line), Some(column)) => format!("`{file}:{line}:{column}`"),
            (Some(file), _, _) => format!("`{file}`"),
            _ => String::new(),
        };
        out.push_str(&format!(
            "| {} | {} | {} | {} |\n",
            d.severity.as_str(),
            d.code,
            place,
            cell(&d.message)
        ));
    }
    out
}

/// Escapes a value for one Markdown table cell.
fn cell(text: &str) -> String {
    text.replace('|', "\\|").replace('\n', " ")
}

fn verdict(report: &ChangeReport) -> String {
    let version = format!(
        "{} → {}",
        report.old_version.as_deref().unwrap_or("(none)"),
        report.new_version.as_deref().unwrap_or("(none)")
    );
    let bump = report.bump.map_or("no", Level::as_str);
    if !report.not_compared.is_empty() {
        return format!(
            "Not compared: {} (see the errors).",
            not_snapshots(&report.not_compared)
        );
    }
    match report.required {
        None => format!("No changes; version {version}."),
        Some(required) => {
            let covered = report.bump_covers_changes();
            format!(
                "Needs a {} bump; version {version} is a {bump} bump: {}.",
                required.as_str(),
                if covered { "covered" } else { "not covered" }
            )
        }
    }
}

pub fn changes_text(report: &ChangeReport, sources: &Sources<'_>) -> String {
    let mut out = String::new();
    for change in &report.changes {
        out.push_str(&format!(
            "{:<5}  {:<18}  {}\n",
            change.level.as_str(),
            change.kind,
            change.detail
        ));
    }
    if !report.changes.is_empty() {
        out.push('\n');
    }
    out.push_str(&diagnostics_text(&report.diagnostics, sources));
    out.push_str(&verdict(report));
    out.push('\n');
    out
}

/// Ready to paste in a pull-request comment.
pub fn changes_markdown(report: &ChangeReport) -> String {
    let mut out = String::from("### Capability snapshot changes\n\n");
    out.push_str(&format!("**{}**\n\n", verdict(report)));
    if !report.changes.is_empty() {
        out.push_str("| Level | Change | Subject | Detail |\n|---|---|---|---|\n");
        for change in &report.changes {
            let level = match change.level {
                Level::Major => "**major**",
                Level::Minor => "minor",
                Level::Patch => "patch",
            };
            out.push_str(&format!(
                "| {level} | {} | `{}` | {} |\n",
                change.kind,
                cell(&change.subject),
                cell(&change.detail)
            ));
        }
        out.push('\n');
    }
    if !report.diagnostics.is_empty() {
        out.push_str(&diagnostics_markdown(&report.diagnostics));
    }
    out
}

/// `` `a.json` is not a valid snapshot `` / `` `a.json` and `b.json` are not valid snapshots ``.
fn not_snapshots(files: &[String]) -> String {
    let named: Vec<String> = files.iter().map(|f| format!("`{f}`")).collect();
    match named.as_slice() {
        [one] => format!("{one} could not be read as a valid snapshot"),
        many => format!("{} could not be read as valid snapshots", many.join(" and ")),
    }
}

/// Drift's closing sentence when something was not compared.
fn drift_not_compared(report: &DriftReport) -> String {
    format!(
        "Not compared: {} could not be read (see the errors), so this is not a verdict on drift.",
        report
            .not_compared
            .iter()
            .map(|f| format!("`{f}`"))
            .collect::<Vec<_>>()
            .join(", ")
    )
}

fn side(fix: FixSide) -> &'static str {
    match fix {
        FixSide::Snapshot => "fix the snapshot",
        FixSide::Package => "fix the package",
    }
}

fn shown(value: &Option<String>) -> &str {
    value.as_deref().unwrap_or("—")
}

pub fn drift_text(report: &DriftReport, sources: &Sources<'_>) -> String {
    let mut out = String::new();
    if !report.rows.is_empty() {
        let width = report.rows.iter().map(|r| r.subject.chars().count()).max().unwrap_or(0);
        for row in &report.rows {
            out.push_str(&format!(
                "{}  {:<width$}  snapshot: {}  |  package: {}  → {}\n",
                row.code,
                row.subject,
                shown(&row.snapshot),
                shown(&row.package),
                side(row.fix),
            ));
        }
        out.push('\n');
    }
    out.push_str(&diagnostics_text(&report.diagnostics, sources));
    if !report.not_compared.is_empty() {
        out.push_str(&drift_not_compared(report));
        out.push('\n');
    } else if report.rows.is_empty() {
        out.push_str("No drift: the snapshot matches the package.\n");
    } else {
        out.push_str(&format!(
            "{} difference(s); {}.\n",
            report.rows.len(),
            totals(&report.diagnostics)
        ));
    }
    out
}

pub fn drift_markdown(report: &DriftReport) -> String {
    let mut out = String::from("### Snapshot drift\n\n");
    if !report.not_compared.is_empty() {
        out.push_str(&format!("**{}**\n\n", drift_not_compared(report)));
    } else if report.rows.is_empty() {
        out.push_str("No drift: the snapshot matches the package.\n\n");
    } else {
        out.push_str("| Code | Subject | Snapshot | Package | Fix |\n|---|---|---|---|---|\n");
        for row in &report.rows {
            out.push_str(&format!(
                "| {} | {} | {} | {} | {} |\n",
                row.code,
                cell(&row.subject),
                cell(shown(&row.snapshot)),
                cell(shown(&row.package)),
                side(row.fix)
            ));
        }
        out.push('\n');
    }
    if !report.diagnostics.is_empty() {
        out.push_str(&diagnostics_markdown(&report.diagnostics));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::snapshot::check_snapshot;

    #[test]
    fn a_finding_quotes_its_line_with_carets_under_the_span() {
        let text = "{\"plugin\": {\"name\": \"x\", \"spec\": \"1.0.0\"}, \"skills\": [],\n \"mcpServers\": [{\"id\": \"a\", \"type\": \"stdio\", \"status\": \"up\"}], \"tools\": []}";
        let check = check_snapshot("s.json", text, None);
        let sources = |name: &str| (name == "s.json").then_some(text);
        let out = diagnostics_text(&check.diagnostics, &sources);
        let column = text.lines().nth(1).unwrap().find("\"up\"").unwrap() + 1;
        assert!(out.starts_with(&format!("s.json:2:{column}: error[AP602]")), "{out}");
        assert!(out.contains("2 |  \"mcpServers\""), "{out}");
        let caret_line = out.lines().find(|l| l.contains('^')).unwrap();
        assert_eq!(caret_line.find('^'), Some("2 | ".len() + column - 1), "{out}");
        assert!(caret_line.ends_with(" ^^^^"), "{out}");
        let plain = diagnostics_text(&check.diagnostics, &|_: &str| None);
        assert!(!plain.contains('^'));
    }

    #[test]
    fn long_lines_are_quoted_as_a_window() {
        let padding = " ".repeat(500);
        let text = format!("{{{padding}\"plugin\": 1, \"skills\": [], \"mcpServers\": [], \"tools\": []}}");
        let check = check_snapshot("s.json", &text, None);
        let sources = |_: &str| Some(text.as_str());
        let out = diagnostics_text(&check.diagnostics, &sources);
        let quoted = out.lines().nth(2).unwrap();
        assert!(quoted.chars().count() < 120 && quoted.contains('…'), "{out}");
    }
}
