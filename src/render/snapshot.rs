//! The snapshot commands' reports (`check-snapshot`, `drift`, `changes`,
//! `call`) in every [`Format`]: the same findings renderers as `check`
//! (snippets, annotations, SARIF results, Markdown lists), so escaping and
//! secret masking are the same for every command. Diagnostics name their files
//! in full (as given on the command line), so their root is `""`.

use serde::Serialize;

use super::escape::mask_for_people;
use super::escape::{markdown_cell, markdown_code, markdown_message, visible};
use super::{Format, Options, RootedTree, Sources, TextOptions, count, github, markdown, sarif, text};
use crate::collection::Roots;
use crate::diag::{Diagnostic, Severity};
use crate::report::PackageReport;
use crate::snapshot::build::BuildError;
use crate::snapshot::call::CallReport;
use crate::snapshot::changes::ChangeReport;
use crate::snapshot::drift::{DriftReport, FixSide};
use crate::snapshot::schema_diff::Level;
use crate::tree::{Tree, path_from_root};

/// `snapshot`'s answer on stderr for a plugin a client rejects (`error`):
/// its findings with snippets, files named from where the command started,
/// then why there is no snapshot, and for a collection (`roots`, as the
/// caller found them in `tree`) the roots to name instead.
pub fn rejected(
    report: &PackageReport,
    tree: &Tree,
    roots: &Roots,
    error: &BuildError,
    options: TextOptions,
) -> String {
    let root = report.root.as_str();
    let mut findings = report.diagnostics.clone();
    for finding in &mut findings {
        finding.file = finding.file.take().map(|file| path_from_root(root, &file));
    }
    let mut out = text::render_diagnostics("", &findings, &RootedTree { tree, root }, options);
    out.push_str(&format!("apcheck: {}: {error}\n", visible(root)));
    if let Roots::Collection(dirs) = roots {
        out.push_str(&super::packages::collection_note(root, dirs));
    }
    out
}

/// One linted snapshot file, as `check-snapshot --format json` lists it.
#[derive(Debug, Serialize)]
pub struct SnapshotFile {
    pub file: String,
    pub valid: bool,
    pub diagnostics: Vec<Diagnostic>,
}

/// `2 errors, 1 warning, 0 infos`.
pub fn totals(diagnostics: &[Diagnostic]) -> String {
    let of = |severity: Severity| diagnostics.iter().filter(|d| d.severity == severity).count();
    format!(
        "{}, {}, {}",
        count(of(Severity::Error), "error", "errors"),
        count(of(Severity::Warning), "warning", "warnings"),
        count(of(Severity::Info), "info", "infos")
    )
}

/// The findings of every command in the formats that are only findings.
fn findings(diagnostics: &[Diagnostic], format: Format, sources: &dyn Sources, options: &Options) -> String {
    match format {
        Format::Text => text::render_diagnostics("", diagnostics, sources, options.text()),
        Format::Github => github::annotations("", diagnostics),
        Format::Markdown => markdown::findings("", diagnostics),
        Format::Sarif | Format::Json => String::new(),
    }
}

/// A snapshot command's report as the formats show it: one section per
/// subject (a file for `check-snapshot`, the one comparison or call for the
/// others), each with its findings, the rows a log shows one per line and its
/// closing verdict; and the report's JSON and Markdown forms. Every snapshot
/// command describes itself this way, and [`rows_findings_verdict`] renders
/// any of them in every format. The two forms are functions, called only for
/// their format; not generic over the report, so that the renderer is one
/// function in the page's wasm.
struct Shown<'r> {
    json: &'r dyn Fn() -> String,
    sections: Vec<Section<'r>>,
    /// Called only for `--format markdown`.
    markdown: &'r dyn Fn() -> String,
}

struct Section<'r> {
    diagnostics: &'r [Diagnostic],
    /// Already made visible: one per change or difference.
    rows: Vec<String>,
    verdict: String,
}

/// A [`Shown`] report in `format`. In a log (text and GitHub) each section's
/// rows come first and its verdict last; in GitHub's the findings are
/// annotations ahead of the rows, and every line is kept from starting a
/// workflow command. SARIF has every section's findings.
fn rows_findings_verdict(shown: Shown, format: Format, sources: &dyn Sources, options: &Options) -> String {
    match format {
        Format::Json => (shown.json)(),
        Format::Markdown => (shown.markdown)(),
        Format::Sarif => {
            let sets: Vec<(&str, &[Diagnostic])> = shown.sections.iter().map(|s| ("", s.diagnostics)).collect();
            super::escape::json_text(&sarif::render_findings(&sets, options.source_root.as_deref()))
        }
        Format::Github => {
            let mut out = String::new();
            for section in &shown.sections {
                out.push_str(&findings(section.diagnostics, format, sources, options));
                for row in &section.rows {
                    out.push_str(&github::log_line(row));
                }
                out.push_str(&github::log_line(&section.verdict));
            }
            out
        }
        Format::Text => {
            let mut out = String::new();
            for section in &shown.sections {
                for row in &section.rows {
                    out.push_str(row);
                    out.push('\n');
                }
                if !section.rows.is_empty() {
                    out.push('\n');
                }
                out.push_str(&findings(section.diagnostics, format, sources, options));
                // A log line in either format: CI runs a line starting with `::`.
                out.push_str(&github::log_line(&section.verdict));
            }
            out
        }
    }
}

/// `check-snapshot`: each file's findings and totals.
pub fn check_snapshots(files: &[SnapshotFile], format: Format, sources: &dyn Sources, options: &Options) -> String {
    let shown = Shown {
        json: &|| super::escape::json_text(&files),
        sections: files
            .iter()
            .map(|file| Section {
                diagnostics: &file.diagnostics,
                rows: Vec::new(),
                verdict: format!("{}: {}", visible(&file.file), totals(&file.diagnostics)),
            })
            .collect(),
        markdown: &|| {
            let mut out = String::new();
            for file in files {
                out.push_str(&format!("### {}\n\n", markdown_code(&file.file)));
                out.push_str(&markdown::findings("", &file.diagnostics));
            }
            out
        },
    };
    rows_findings_verdict(shown, format, sources, options)
}

fn level_word(level: Level) -> &'static str {
    level.as_str()
}

fn verdict(report: &ChangeReport) -> String {
    if !report.not_compared.is_empty() {
        return format!(
            "Not compared: {} (see the errors).",
            not_snapshots(&report.not_compared)
        );
    }
    let version = format!(
        "{} → {}",
        report.old_version.as_deref().unwrap_or("(none)"),
        report.new_version.as_deref().unwrap_or("(none)")
    );
    let bump = report.bump.map_or_else(
        || "no bump".to_string(),
        |level| format!("a {} bump", level_word(level)),
    );
    match report.required {
        None => format!("No changes; version {version}."),
        Some(required) => format!(
            "Needs a {} bump; version {version} is {bump}: {}.",
            required.as_str(),
            if report.bump_covers_changes() {
                "covered"
            } else {
                "not covered"
            }
        ),
    }
}

/// `` `a.json` could not be read as a valid snapshot ``, for one or several files.
fn not_snapshots(files: &[String]) -> String {
    let named: Vec<String> = files.iter().map(|f| format!("`{f}`")).collect();
    match named.as_slice() {
        [one] => format!("{one} could not be read as a valid snapshot"),
        many => format!("{} could not be read as valid snapshots", many.join(" and ")),
    }
}

/// `changes`: the change list, the findings and the SemVer verdict.
pub fn changes(report: &ChangeReport, format: Format, sources: &dyn Sources, options: &Options) -> String {
    let rows = report
        .changes
        .iter()
        .map(|change| {
            format!(
                "{:<5}  {:<18}  {}",
                change.level.as_str(),
                change.kind,
                visible(&change.detail)
            )
        })
        .collect();
    let shown = Shown {
        json: &|| super::escape::json_text(report),
        sections: vec![Section {
            diagnostics: &report.diagnostics,
            rows,
            verdict: verdict(report),
        }],
        markdown: &|| changes_markdown(report),
    };
    rows_findings_verdict(shown, format, sources, options)
}

/// `changes` as Markdown, for a pull-request comment (the page's download too).
pub fn changes_markdown(report: &ChangeReport) -> String {
    let verdict = verdict(report);
    let mut out = String::from("### Capability snapshot changes\n\n");
    out.push_str(&format!("**{}**\n\n", markdown_message(&verdict)));
    if !report.changes.is_empty() {
        out.push_str("| Level | Change | Subject | Detail |\n|---|---|---|---|\n");
        for change in &report.changes {
            let level = match change.level {
                Level::Major => "**major**",
                Level::Minor => "minor",
                Level::Patch => "patch",
            };
            out.push_str(&format!(
                "| {level} | {} | {} | {} |\n",
                change.kind,
                markdown_code(&change.subject).replace('|', "\\|"),
                markdown_cell(&change.detail)
            ));
        }
        out.push('\n');
    }
    if !report.diagnostics.is_empty() {
        out.push_str(&markdown::findings("", &report.diagnostics));
    }
    out
}

fn side(fix: FixSide) -> &'static str {
    match fix {
        FixSide::Snapshot => "fix the snapshot",
        FixSide::Package => "fix the package",
    }
}

/// A drift row's value as people see it: masked, `—` when absent.
fn shown(value: &Option<String>) -> String {
    value
        .as_deref()
        .map_or_else(|| "—".to_string(), |v| mask_for_people(v).into_owned())
}

/// Drift's closing sentence.
fn drift_verdict(report: &DriftReport) -> String {
    if !report.not_compared.is_empty() {
        let named: Vec<String> = report.not_compared.iter().map(|f| format!("`{f}`")).collect();
        format!(
            "Not compared: {} could not be read (see the errors), so this is not a verdict on drift.",
            named.join(", ")
        )
    } else if report.rows.is_empty() {
        "No drift: the snapshot matches the package.".to_string()
    } else {
        format!("{} difference(s); {}.", report.rows.len(), totals(&report.diagnostics))
    }
}

/// `drift`: one row per difference, saying which side to fix, then the findings.
pub fn drift(report: &DriftReport, format: Format, sources: &dyn Sources, options: &Options) -> String {
    let subjects: Vec<String> = report.rows.iter().map(|r| visible(&r.subject).into_owned()).collect();
    let width = subjects.iter().map(|s| s.chars().count()).max().unwrap_or(0);
    let rows = report
        .rows
        .iter()
        .zip(&subjects)
        .map(|(row, subject)| {
            format!(
                "{}  {subject:<width$}  snapshot: {}  |  package: {}  → {}",
                row.code,
                visible(&shown(&row.snapshot)),
                visible(&shown(&row.package)),
                side(row.fix),
            )
        })
        .collect();
    let shown = Shown {
        json: &|| super::escape::json_text(report),
        sections: vec![Section {
            diagnostics: &report.diagnostics,
            rows,
            verdict: drift_verdict(report),
        }],
        markdown: &|| drift_markdown(report),
    };
    rows_findings_verdict(shown, format, sources, options)
}

/// `drift` as Markdown, for a pull-request comment (the page's download too).
pub fn drift_markdown(report: &DriftReport) -> String {
    let verdict = drift_verdict(report);
    let mut out = String::from("### Snapshot drift\n\n");
    if report.rows.is_empty() || !report.not_compared.is_empty() {
        let verdict = markdown_message(&verdict);
        if report.not_compared.is_empty() {
            out.push_str(&format!("{verdict}\n\n"));
        } else {
            out.push_str(&format!("**{verdict}**\n\n"));
        }
    } else {
        out.push_str("| Code | Subject | Snapshot | Package | Fix |\n|---|---|---|---|---|\n");
        for row in &report.rows {
            out.push_str(&format!(
                "| [{}]({}) | {} | {} | {} | {} |\n",
                markdown_code(row.code),
                crate::rule::doc_url(row.code),
                markdown_cell(&row.subject),
                markdown_cell(&shown(&row.snapshot)),
                markdown_cell(&shown(&row.package)),
                side(row.fix)
            ));
        }
        out.push('\n');
    }
    if !report.diagnostics.is_empty() {
        out.push_str(&markdown::findings("", &report.diagnostics));
    }
    out
}

/// `call`: the findings and whether the arguments are valid for `tool`.
pub fn call(report: &CallReport, tool: &str, format: Format, sources: &dyn Sources, options: &Options) -> String {
    let shown = Shown {
        json: &|| super::escape::json_text(report),
        sections: vec![Section {
            diagnostics: &report.diagnostics,
            rows: Vec::new(),
            // A tool named `::error::x` must not start a workflow command in a CI log.
            verdict: format!("{tool}: arguments {}", if report.valid { "valid" } else { "invalid" }),
        }],
        markdown: &|| {
            format!(
                "### {} arguments\n\n{}",
                markdown_code(tool),
                markdown::findings("", &report.diagnostics)
            )
        },
    };
    rows_findings_verdict(shown, format, sources, options)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::collection::roots_named;

    #[test]
    fn a_rejected_plugin_shows_its_findings_by_full_path_then_why() {
        let tree = Tree::from_files([("plugin.json", "{\"name\": \"demo\"}")]);
        let report = crate::check_package("plugins/demo", &tree);
        let out = rejected(
            &report,
            &tree,
            &roots_named(&tree),
            &BuildError::Rejected,
            TextOptions::default(),
        );
        assert!(out.contains("--> plugins/demo/plugin.json:1:1"), "{out}");
        assert!(out.contains("{\"name\": \"demo\"}"), "the line is quoted: {out}");
        assert!(
            out.ends_with(&format!("apcheck: plugins/demo: {}\n", BuildError::Rejected)),
            "{out}"
        );
    }

    #[test]
    fn a_rejected_collection_names_the_roots_inside() {
        let tree = Tree::from_files([("a/plugin.json", "{}"), ("b/plugin.json", "{}")]);
        let report = crate::check_package("repo", &tree);
        let out = rejected(
            &report,
            &tree,
            &roots_named(&tree),
            &BuildError::Rejected,
            TextOptions::default(),
        );
        assert!(
            out.ends_with("apcheck: repo is a collection of 2 plugin roots; name one of them:\n  repo/a\n  repo/b\n"),
            "{out}"
        );
    }
}
