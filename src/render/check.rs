//! The output of `apcheck check` for any number of checked roots, in each
//! format: what the CLI prints and what the npm package's `npx apcheck check`
//! prints through the wasm, from this one function.

use super::text::{self, TextOptions};
use super::{Sources, github, json, markdown, sarif};
use crate::report::PackageReport;

/// The formats of `apcheck check --format`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CheckFormat {
    Text,
    Json,
    Sarif,
    Github,
    Markdown,
}

impl CheckFormat {
    /// The format named as on the command line (`text`, `json`, `sarif`, `github`, `markdown`).
    pub fn from_name(name: &str) -> Option<Self> {
        Some(match name {
            "text" => CheckFormat::Text,
            "json" => CheckFormat::Json,
            "sarif" => CheckFormat::Sarif,
            "github" => CheckFormat::Github,
            "markdown" => CheckFormat::Markdown,
            _ => return None,
        })
    }
}

/// How the output is laid out, beyond the format.
#[derive(Debug, Clone, Copy)]
pub struct CheckOutput<'a> {
    pub format: CheckFormat,
    pub shape: json::Shape,
    pub color: bool,
    /// The directory relative roots are relative to (the working directory), for SARIF.
    pub sarif_base: Option<&'a str>,
}

/// Renders `reports`; `sources[i]` holds the files `reports[i]` was made from (for snippets).
pub fn render_check(reports: &[PackageReport], sources: &[&dyn Sources], output: CheckOutput<'_>) -> String {
    match output.format {
        CheckFormat::Text => {
            let options = TextOptions { color: output.color };
            let mut out = String::new();
            let mut previous_had_findings = false;
            for (report, files) in reports.iter().zip(sources) {
                // Clean roots list one summary line each; findings get room around them.
                let has_findings = !report.diagnostics.is_empty();
                if !out.is_empty() && (has_findings || previous_had_findings) {
                    out.push('\n');
                }
                out.push_str(&text::render_report(report, *files, options));
                previous_had_findings = has_findings;
            }
            if reports.len() > 1 {
                out.push('\n');
                out.push_str(&text::totals_line(reports));
                out.push('\n');
            }
            out
        }
        CheckFormat::Json => json::render(reports, output.shape) + "\n",
        CheckFormat::Sarif => {
            let log = sarif::render(reports, output.sarif_base);
            serde_json::to_string_pretty(&log).expect("a JSON value serializes") + "\n"
        }
        CheckFormat::Github => github::render(reports),
        CheckFormat::Markdown => markdown::render(reports),
    }
}

/// Whether `reports` fail the check: findings at error level, or warnings with `deny_warnings`.
pub fn fails(reports: &[PackageReport], deny_warnings: bool) -> bool {
    reports.iter().any(|report| {
        let summary = &report.summary;
        summary.errors > 0 || (deny_warnings && summary.warnings > 0)
    })
}

#[cfg(test)]
mod tests {
    use super::super::test_support::*;
    use super::*;

    #[test]
    fn formats_are_named_as_on_the_command_line() {
        for name in ["text", "json", "sarif", "github", "markdown"] {
            assert!(CheckFormat::from_name(name).is_some(), "{name}");
        }
        assert_eq!(CheckFormat::from_name("html"), None);
    }

    #[test]
    fn several_text_reports_end_with_totals_and_errors_fail() {
        let reports = [report_with_findings("a"), report_with_findings("b")];
        let tree = tree();
        let sources: [&dyn Sources; 2] = [&tree, &tree];
        let output = CheckOutput {
            format: CheckFormat::Text,
            shape: json::Shape::Array,
            color: false,
            sarif_base: None,
        };
        let text = render_check(&reports, &sources, output);
        assert!(text.ends_with(&format!("{}\n", text::totals_line(&reports))), "{text}");
        assert_eq!(fails(&reports, false), reports.iter().any(|r| r.summary.errors > 0));
    }
}
