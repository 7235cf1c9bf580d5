//! The JSON tools' reports (`validate`, `fmt`, `diff`): `validate`'s in the
//! formats that are findings for machines and reviews (JSON, SARIF, GitHub
//! annotations, Markdown), through the same renderers as every other command,
//! so escaping and secret masking are the same; and the text format's
//! snippets (a failed keyword, a syntax error, a schema that cannot be used),
//! rendered per file as it is validated, since a run may name thousands of files.

use serde::Serialize;

use super::escape::{markdown_code, visible};
use super::text::{Location, TextOptions, snippet};
use super::{Format, Options, github, markdown, sarif, snapshot::totals};
use crate::diag::{Diagnostic, Severity};
use crate::json::JsonParseError;
use crate::json::builtin::BUILTINS;
use crate::json::tools::{DocumentProblem, DocumentReport, SchemaProblem};
use crate::json::validate::{SchemaError, ValidationIssue};

/// One validated file, as the renderers take it: its report (the JSON
/// shape), its findings as diagnostics for the formats that take the whole
/// run, and in the text format its [`snippets`], said as soon as the file is
/// done. `commands::documents` validates and fills it in.
pub struct ValidatedFile {
    pub report: DocumentReport,
    pub diagnostics: Vec<Diagnostic>,
    /// The text format's output for this file (empty in the other formats).
    pub snippets: String,
}

/// The text format's output for one validated document: its syntax error,
/// the value that could not be checked, or its failed keywords, each with a
/// snippet of `text` (the document named `file`).
pub fn snippets(file: &str, text: &str, report: &DocumentReport, options: TextOptions) -> String {
    match (&report.error, &report.unchecked) {
        (Some(DocumentProblem::NotJson(error)), _) => parse_error(file, text, error, options),
        (_, Some(unchecked)) => {
            let at = Location {
                line: unchecked.line,
                column: unchecked.column,
                offset: unchecked.span.start,
                len: 0,
            };
            let pointer = if unchecked.instance_pointer.is_empty() {
                "(root)"
            } else {
                &unchecked.instance_pointer
            };
            snippet(
                Severity::Error,
                file,
                text,
                at,
                &unchecked.message,
                &format!("at {pointer}"),
                options,
            )
        }
        _ => {
            let note = report
                .kind_mismatch
                .as_ref()
                .map(|note| super::escape::github_log_text(&format!("{file}: note: {}", visible(note))) + "\n");
            note.into_iter()
                .chain(
                    report
                        .issues
                        .iter()
                        .map(|issue| issue_snippet(file, text, issue, options)),
                )
                .collect()
        }
    }
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

/// `2 of 3 document(s) valid against 2020-12 schema`, and how many could not be checked.
pub fn verdict(dialect: &str, files: &[ValidatedFile]) -> String {
    let valid = files.iter().filter(|file| file.report.valid).count();
    let unchecked = files.iter().filter(|file| file.report.unchecked.is_some()).count();
    let mut verdict = format!("{valid} of {} document(s) valid against {dialect} schema", files.len());
    if unchecked > 0 {
        verdict.push_str(&format!("; {unchecked} could not be checked"));
    }
    verdict
}

/// `validate --builtin list`: each built-in schema's name and what it is, one a line.
pub fn builtin_list() -> String {
    BUILTINS
        .iter()
        .map(|entry| format!("{:<28} {}\n", entry.name, entry.description))
        .collect()
}

/// A syntax error as `error: message` with the line and a caret under the column.
pub fn parse_error(file: &str, text: &str, error: &JsonParseError, options: TextOptions) -> String {
    let at = Location {
        line: error.line,
        column: error.column,
        offset: error.offset,
        len: 0,
    };
    snippet(Severity::Error, file, text, at, &error.message, "", options)
}

/// `fmt`'s syntax error: where the error is JSONC-only, it names the flag
/// that accepts it.
pub fn fmt_error(file: &str, text: &str, mut error: JsonParseError, options: TextOptions) -> String {
    if error.jsonc_accepts() {
        error.message.push_str("; `--jsonc` accepts it");
    }
    parse_error(file, text, &error, options)
}

/// One failed keyword at its value: the message (with the array element it
/// sits in), the instance pointer, the schema location and the keyword.
pub fn issue_snippet(file: &str, text: &str, issue: &ValidationIssue, options: TextOptions) -> String {
    let mut title = issue.message.clone();
    if let Some(element) = &issue.element {
        match &element.name {
            Some(name) => title.push_str(&format!(" (in element {} \"{name}\")", element.index)),
            None => title.push_str(&format!(" (in element {})", element.index)),
        }
    }
    let pointer = if issue.instance_pointer.is_empty() {
        "(root)"
    } else {
        &issue.instance_pointer
    };
    let label = format!("at {pointer}, schema {} ({})", issue.schema_location, issue.keyword);
    // Point at the first line of a multi-line value only.
    let len = text[issue.span.start..issue.span.end.min(text.len())]
        .find('\n')
        .unwrap_or(issue.span.end - issue.span.start);
    let at = Location {
        line: issue.line,
        column: issue.column,
        offset: issue.span.start,
        len,
    };
    snippet(Severity::Error, file, text, at, &title, &label, options)
}

/// Why no schema could be used; `source_of` gives the text of a named schema
/// file, for the snippets of a schema that breaks its meta-schema.
pub fn schema_problem<'t>(
    problem: &SchemaProblem,
    source_of: impl Fn(&str) -> &'t str,
    options: TextOptions,
) -> String {
    match problem {
        SchemaProblem::UnknownBuiltin(name) => format!(
            "apcheck: no built-in schema `{}`; `apcheck validate --builtin list` names them\n",
            visible(name)
        ),
        SchemaProblem::Invalid(error) => schema_error(error, source_of(&error.file), options),
    }
}

fn schema_error(error: &SchemaError, text: &str, options: TextOptions) -> String {
    if error.issues.is_empty() {
        return format!("error: schema {}\n", visible(&error.to_string()));
    }
    let mut out = format!("error: {} is not a valid JSON Schema\n", visible(&error.file));
    for issue in &error.issues {
        out.push_str(&issue_snippet(&error.file, text, issue, options));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::validate::{CompileOptions, SchemaFile, compile};

    #[test]
    fn the_builtin_list_names_every_builtin_aligned() {
        let out = builtin_list();
        assert_eq!(out.lines().count(), BUILTINS.len());
        for (line, entry) in out.lines().zip(BUILTINS) {
            assert!(
                line.starts_with(entry.name) && line.ends_with(entry.description),
                "{line}"
            );
            assert_eq!(
                line.find(entry.description),
                Some(29.max(entry.name.len() + 1)),
                "{line}"
            );
        }
    }

    #[test]
    fn fmt_names_the_flag_for_a_jsonc_only_error() {
        let text = "[1,]";
        let error = crate::json::format::format(text, &Default::default()).unwrap_err();
        let out = fmt_error("a.json", text, error, TextOptions::default());
        assert!(out.contains("`--jsonc` accepts it"), "{out}");
        assert!(out.starts_with("error: "), "{out}");
    }

    #[test]
    fn names_from_the_command_line_are_made_visible() {
        let problem = SchemaProblem::UnknownBuiltin("x\u{1b}[2J".to_string());
        let out = schema_problem(&problem, |_| "", TextOptions::default());
        assert!(!out.contains('\u{1b}') && out.contains("x\\u{1b}[2J"), "{out}");
    }

    #[test]
    fn a_schema_that_breaks_its_meta_schema_shows_every_violation_in_its_file() {
        let text = "{\n  \"type\": \"strin\",\n  \"minLength\": -1\n}";
        let error = compile(SchemaFile { name: "s.json", text }, &[], &CompileOptions::default()).unwrap_err();
        let out = schema_problem(&SchemaProblem::Invalid(error), |_| text, TextOptions::default());
        assert!(out.starts_with("error: s.json is not a valid JSON Schema\n"), "{out}");
        assert!(out.contains("s.json:2:") && out.contains("s.json:3:"), "{out}");
    }
}
