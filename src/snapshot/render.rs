//! Text and Markdown for the snapshot commands (JSON is the reports' serde
//! shape). Sans-IO: each function returns the text; the CLI prints it and the
//! page can show the same words.

use super::changes::ChangeReport;
use super::drift::{DriftReport, FixSide};
use super::schema_diff::Level;
use crate::diag::{Diagnostic, Severity};

/// `file:line:col: error[AP602]: message`, then the hint, one finding a block.
pub fn diagnostics_text(diagnostics: &[Diagnostic]) -> String {
    let mut out = String::new();
    for d in diagnostics {
        let place = match (&d.file, d.line, d.column) {
            (Some(file), Some(line), Some(column)) => format!("{file}:{line}:{column}: "),
            (Some(file), _, _) => format!("{file}: "),
            _ => String::new(),
        };
        out.push_str(&format!("{place}{}[{}]: {}\n", d.severity.as_str(), d.code, d.message));
        if let Some(hint) = &d.hint {
            out.push_str(&format!("    help: {hint}\n"));
        }
    }
    out
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
    match report.required {
        None => format!("No changes; version {version}."),
        Some(required) => {
            let covered = !report.diagnostics.iter().any(|d| d.code.starts_with("AP8"));
            format!(
                "Needs a {} bump; version {version} is a {bump} bump: {}.",
                required.as_str(),
                if covered { "covered" } else { "not covered" }
            )
        }
    }
}

pub fn changes_text(report: &ChangeReport) -> String {
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
    out.push_str(&diagnostics_text(&report.diagnostics));
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

fn side(fix: FixSide) -> &'static str {
    match fix {
        FixSide::Snapshot => "fix the snapshot",
        FixSide::Package => "fix the package",
    }
}

fn shown(value: &Option<String>) -> &str {
    value.as_deref().unwrap_or("—")
}

pub fn drift_text(report: &DriftReport) -> String {
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
    out.push_str(&diagnostics_text(&report.diagnostics));
    if report.rows.is_empty() {
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
    if report.rows.is_empty() {
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
