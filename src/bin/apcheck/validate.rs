//! `apcheck validate (--schema FILE | --builtin NAME) INSTANCE…`: JSON Schema
//! validation with every error at its line and column. The schema is compiled
//! once; instances are checked in parallel and reported in the order given.

use std::process::ExitCode;

use apcheck::diag::Severity;
use apcheck::exit::Exit;
use apcheck::json::builtin::BUILTINS;
use apcheck::json::tools::{
    DocumentProblem, DocumentReport, SchemaChoice, SchemaProblem, SharedSchema, load_schema, validate_document,
};
use apcheck::json::validate::{CompileOptions, CompiledSchema, SchemaCache, SchemaError, SchemaFile, ValidationIssue};
use apcheck::render::Format;
use apcheck::render::documents::{ValidatedFile, validation, verdict};
use apcheck::rules::documents::validation_diagnostics;
use rayon::prelude::*;

use crate::fmt::{Location, read_input, render_parse_error, render_snippet};
use crate::output::{self, ColorChoice, EXIT_CLEAN, EXIT_FAILURE};

#[derive(clap::Args)]
pub struct ValidateArgs {
    /// The JSON Schema to validate against (dialect from its `$schema`, 2020-12 when absent).
    #[arg(long, required_unless_present = "builtin", conflicts_with = "builtin")]
    schema: Option<String>,
    /// A built-in schema by name; `--builtin list` names them all.
    #[arg(long)]
    builtin: Option<String>,
    /// Another schema file that `$ref`s may point to (by its `$id`, or by file name).
    #[arg(long = "ref", value_name = "FILE", conflicts_with = "builtin")]
    refs: Vec<String>,
    /// Assert `format` keywords (email, uri, date-time, …); off by default.
    #[arg(long)]
    formats: bool,
    /// `json` keeps each document's report; the others carry the findings
    /// (AP030 per failed keyword, AP008 for a document that is not JSON).
    #[arg(long, value_parser = output::format_parser(), default_value = "text")]
    format: Format,
    /// The JSON documents to check (`-` for standard input).
    #[arg(required_unless_present = "builtin")]
    instances: Vec<String>,
}

pub fn validate(args: ValidateArgs) -> ExitCode {
    if args.builtin.as_deref() == Some("list") {
        for entry in BUILTINS {
            println!("{:<28} {}", entry.name, entry.description);
        }
        return ExitCode::from(EXIT_CLEAN);
    }
    if args.instances.is_empty() {
        eprintln!("apcheck: name at least one document to validate (or `--builtin list`)");
        return ExitCode::from(EXIT_FAILURE);
    }
    let schema = match load(&args) {
        Ok(schema) => schema,
        Err(message) => {
            eprint!("{message}");
            return ExitCode::from(EXIT_FAILURE);
        }
    };
    let results: Vec<(ValidatedFile, Option<String>)> = args
        .instances
        .par_iter()
        .map(|file| check_instance(file, &schema, args.builtin.as_deref(), args.format))
        .collect();
    let mut any_invalid = false;
    let mut read_failed = false;
    let mut files = Vec::with_capacity(results.len());
    for (file, rendered) in results {
        any_invalid |= !file.report.valid;
        read_failed |= file.report.is_unreadable();
        if let Some(text) = rendered {
            print!("{text}");
        }
        files.push(file);
    }
    match validation(
        schema.dialect(),
        &files,
        args.format,
        &output::render_options(ColorChoice::Never),
    ) {
        Some(out) => print!("{out}"),
        None => eprintln!("{}", verdict(schema.dialect(), &files)),
    }
    output::exit_code(Exit::findings_if(any_invalid).unless_failed(read_failed))
}

/// Reads the schema files the arguments name and compiles them (or picks the built-in).
fn load(args: &ValidateArgs) -> Result<SharedSchema, String> {
    let options = CompileOptions { formats: args.formats };
    // One compilation per run, so a cache of one.
    let cache = &mut SchemaCache::new(1);
    if let Some(name) = &args.builtin {
        let text = apcheck::json::builtin::builtin(name).map_or("", |entry| entry.text());
        return load_schema(&SchemaChoice::Builtin(name), &options, cache)
            .map_err(|problem| render_problem(problem, |_| text));
    }
    let path = args.schema.as_deref().unwrap_or("-");
    let text = read_input(path).map_err(|m| format!("apcheck: {m}\n"))?;
    let sibling_texts: Vec<(String, String)> = args
        .refs
        .iter()
        .map(|p| read_input(p).map(|t| (p.clone(), t)))
        .collect::<Result<_, _>>()
        .map_err(|m| format!("apcheck: {m}\n"))?;
    let choice = SchemaChoice::File {
        main: SchemaFile {
            name: path,
            text: &text,
        },
        refs: sibling_texts
            .iter()
            .map(|(name, text)| SchemaFile { name, text })
            .collect(),
    };
    load_schema(&choice, &options, cache).map_err(|problem| {
        render_problem(problem, |file| {
            if file == path {
                text.as_str()
            } else {
                sibling_texts
                    .iter()
                    .find(|(name, _)| name == file)
                    .map_or("", |(_, t)| t.as_str())
            }
        })
    })
}

/// The message for a schema that could not be loaded; `source_of` finds the text of a named schema file.
fn render_problem<'t>(problem: SchemaProblem, source_of: impl Fn(&str) -> &'t str) -> String {
    match problem {
        SchemaProblem::UnknownBuiltin(name) => {
            format!("apcheck: no built-in schema `{name}`; `apcheck validate --builtin list` names them\n")
        }
        SchemaProblem::Invalid(error) => render_schema_error(&error, source_of(&error.file)),
    }
}

fn render_schema_error(error: &SchemaError, text: &str) -> String {
    if error.issues.is_empty() {
        return format!("error: schema {error}\n");
    }
    let mut out = format!("error: {} is not a valid JSON Schema\n", error.file);
    for issue in &error.issues {
        out.push_str(&render_issue(&error.file, text, issue));
    }
    out
}

fn check_instance(
    file: &str,
    schema: &CompiledSchema,
    builtin_name: Option<&str>,
    format: Format,
) -> (ValidatedFile, Option<String>) {
    let render = format == Format::Text;
    let text = match read_input(file) {
        Ok(text) => text,
        Err(message) => {
            // Said on stderr in every format: the run then exits 2.
            eprintln!("apcheck: {}", apcheck::render::escape::visible(&message));
            let report = DocumentReport::unreadable(file, message);
            let diagnostics = validation_diagnostics(&report, "");
            return (ValidatedFile { report, diagnostics }, None);
        }
    };
    let result = validate_document(file, &text, schema, builtin_name);
    let rendered = render.then(|| match &result.error {
        Some(DocumentProblem::NotJson(error)) => render_parse_error(file, &text, error),
        _ => {
            let note = result
                .kind_mismatch
                .as_ref()
                .map(|note| format!("{file}: note: {note}\n"));
            note.into_iter()
                .chain(result.issues.iter().map(|i| render_issue(file, &text, i)))
                .collect()
        }
    });
    let diagnostics = if render {
        Vec::new()
    } else {
        validation_diagnostics(&result, &text)
    };
    (
        ValidatedFile {
            report: result,
            diagnostics,
        },
        rendered,
    )
}

fn render_issue(file: &str, text: &str, issue: &ValidationIssue) -> String {
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
    render_snippet(Severity::Error, file, text, at, &title, &label)
}
