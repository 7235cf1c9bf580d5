//! `apcheck validate`'s report in the formats that are findings for machines
//! and reviews (JSON, SARIF, GitHub annotations, Markdown), through the same
//! renderers as every other command, so escaping and secret masking are the
//! same. The text format's snippets are rendered per file as they are
//! validated (`text::snippet`), since a run may name thousands of files.

use serde::Serialize;

use super::escape::markdown_code;
use super::{Format, Options, github, markdown, sarif, snapshot::totals};
use crate::diag::Diagnostic;
use crate::json::tools::DocumentReport;

/// One validated file: its report (the JSON shape) and its findings as diagnostics.
pub struct ValidatedFile {
    pub report: DocumentReport,
    pub diagnostics: Vec<Diagnostic>,
}

/// The whole run in `format`; `None` for the text format, which the face
/// prints file by file.
pub fn validation(dialect: &str, files: &[ValidatedFile], format: Format, options: &Options) -> Option<String> {
    let all = || {
        files
            .iter()
            .flat_map(|file| file.diagnostics.iter().cloned())
            .collect::<Vec<_>>()
    };
    Some(match format {
        Format::Text => return None,
        Format::Json => {
            #[derive(Serialize)]
            struct Shape<'a> {
                dialect: &'a str,
                files: Vec<&'a DocumentReport>,
            }
            super::escape::json_text(&Shape {
                dialect,
                files: files.iter().map(|file| &file.report).collect(),
            })
        }
        Format::Sarif => super::escape::json_text(&sarif::render_findings(
            &[("", all().as_slice())],
            options.source_root.as_deref(),
        )),
        Format::Github => {
            let all = all();
            let mut out = github::annotations("", &all);
            out.push_str(&github::log_line(&format!(
                "{} ({})",
                verdict(dialect, files),
                totals(&all)
            )));
            out
        }
        Format::Markdown => {
            let mut out = format!(
                "### apcheck validate: {} ({})\n\n",
                verdict(dialect, files),
                totals(&all())
            );
            for file in files {
                out.push_str(&format!("#### {}\n\n", markdown_code(&file.report.file)));
                out.push_str(&markdown::findings("", &file.diagnostics));
            }
            out
        }
    })
}

/// `2 of 3 document(s) valid against 2020-12 schema`.
pub fn verdict(dialect: &str, files: &[ValidatedFile]) -> String {
    let valid = files.iter().filter(|file| file.report.valid).count();
    format!("{valid} of {} document(s) valid against {dialect} schema", files.len())
}
