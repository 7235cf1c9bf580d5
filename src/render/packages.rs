//! `check`'s reports in every format: what the CLI prints for one or many roots.

use super::{Format, Options, Sources, escape, github, json, markdown, sarif, text};
use crate::report::PackageReport;

/// `check`'s reports in `format`; `sources[i]` holds the files of `reports[i]`.
pub fn render(
    reports: &[PackageReport],
    sources: &[&dyn Sources],
    format: Format,
    options: &Options,
    shape: json::Shape,
) -> String {
    match format {
        Format::Text => {
            let mut out = String::new();
            let mut previous_had_findings = false;
            for (report, files) in reports.iter().zip(sources) {
                // Clean roots list one summary line each; findings get room around them.
                let has_findings = !report.diagnostics.is_empty();
                if !out.is_empty() && (has_findings || previous_had_findings) {
                    out.push('\n');
                }
                out.push_str(&text::render_report(report, *files, options.text()));
                previous_had_findings = has_findings;
            }
            if reports.len() > 1 {
                out.push('\n');
                out.push_str(&text::totals_line(reports));
                out.push('\n');
            }
            out
        }
        Format::Json => json::render(reports, shape) + "\n",
        Format::Sarif => escape::json_text(&sarif::render(reports, options.source_root.as_deref())),
        Format::Github => github::render(reports),
        Format::Markdown => markdown::render(reports),
    }
}
