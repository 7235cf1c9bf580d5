//! `check`'s reports in every format: what the CLI prints for one or many roots.

use super::{Format, Options, Sources, escape, github, json, markdown, sarif, text};
use crate::report::PackageReport;

/// For a command that takes one plugin root but was given a collection (a
/// folder of several roots, [`crate::collection::roots_named`]): the roots
/// inside, each as the path to give instead.
pub fn collection_note(root: &str, dirs: &[String]) -> String {
    let base = root.trim_end_matches(['/', '\\']);
    let mut out = format!(
        "apcheck: {} is a collection of {} plugin roots; name one of them:\n",
        escape::visible(root),
        dirs.len()
    );
    for dir in dirs {
        out.push_str(&format!("  {}\n", escape::visible(&format!("{base}/{dir}"))));
    }
    out
}

/// `check`'s reports in `format`; `sources[i]` holds the files of `reports[i]`.
pub fn render(reports: &[PackageReport], sources: &[&dyn Sources], format: Format, options: &Options) -> String {
    match format {
        Format::Text => {
            let mut out = String::new();
            let mut previous_had_findings = false;
            if options.quiet {
                return reports
                    .iter()
                    .zip(sources)
                    .map(|(report, files)| {
                        text::render_diagnostics(&report.root, &report.diagnostics, *files, options.text())
                    })
                    .collect();
            }
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
        Format::Json => json::render(reports) + "\n",
        Format::Sarif => escape::json_text(&sarif::render(reports, options.source_root.as_deref())),
        Format::Github => github::render(reports),
        Format::Markdown => markdown::render(reports),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_collection_note_names_each_root_as_a_path_to_give() {
        let dirs = ["plugins/a".to_string(), "top\u{1b}".to_string()];
        assert_eq!(
            collection_note("repo/", &dirs),
            "apcheck: repo/ is a collection of 2 plugin roots; name one of them:\n  repo/plugins/a\n  repo/top\\u{1b}\n"
        );
    }
}
