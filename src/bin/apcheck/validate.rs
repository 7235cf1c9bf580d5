//! `apcheck validate (--schema FILE | --builtin NAME) INSTANCE…`: JSON Schema
//! validation with every error at its line and column. The schema is compiled
//! once; instances are checked in parallel and reported in the order given.

use std::process::ExitCode;

use apcheck::exit::Exit;
use apcheck::json::tools::{SchemaChoice, SharedSchema, load_schema};
use apcheck::json::validate::{CompileOptions, CompiledSchema, SchemaCache, SchemaFile};
use apcheck::render::Format;
use apcheck::render::documents::{ValidatedFile, builtin_list, schema_problem, validation, verdict};
use rayon::prelude::*;

use crate::fmt::{DEFAULT_MAX_INPUT_MIB, mib, read_input};
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
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    color: ColorChoice,
    /// Refuse a schema or document larger than this many MiB (exit 2).
    #[arg(long, value_name = "MIB", default_value_t = DEFAULT_MAX_INPUT_MIB)]
    max_input_mib: u64,
    /// The JSON documents to check (`-` for standard input).
    #[arg(required_unless_present = "builtin")]
    instances: Vec<String>,
}

pub fn validate(args: ValidateArgs) -> ExitCode {
    if args.builtin.as_deref() == Some("list") {
        return output::emit(&builtin_list(), ExitCode::from(EXIT_CLEAN));
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
    let files: Vec<ValidatedFile> = args
        .instances
        .par_iter()
        .map(|file| check_instance(file, &schema, &args))
        .collect();
    let mut any_invalid = false;
    let mut read_failed = false;
    for file in &files {
        any_invalid |= !file.report.valid;
        // A document that got no verdict is an incomplete check, as one that could not be read.
        read_failed |= file.report.is_unreadable() || file.report.unchecked.is_some();
        print!("{}", file.snippets);
    }
    match validation(
        schema.dialect(),
        &files,
        args.format,
        &output::render_options(args.color),
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
            .map_err(|problem| schema_problem(&problem, |_| text, output::stderr_text_with(args.color)));
    }
    let path = args.schema.as_deref().unwrap_or("-");
    let text = read_input(path, mib(args.max_input_mib)).map_err(output::line)?;
    let sibling_texts: Vec<(String, String)> = args
        .refs
        .iter()
        .map(|p| read_input(p, mib(args.max_input_mib)).map(|t| (p.clone(), t)))
        .collect::<Result<_, _>>()
        .map_err(output::line)?;
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
        let source_of = |file: &str| {
            if file == path {
                text.as_str()
            } else {
                sibling_texts
                    .iter()
                    .find(|(name, _)| name == file)
                    .map_or("", |(_, t)| t.as_str())
            }
        };
        schema_problem(&problem, source_of, output::stderr_text_with(args.color))
    })
}

/// Reads and validates one document; a file that cannot be read is said on
/// stderr in every format, as the run then exits 2.
fn check_instance(file: &str, schema: &CompiledSchema, args: &ValidateArgs) -> ValidatedFile {
    match read_input(file, mib(args.max_input_mib)) {
        Ok(text) => ValidatedFile::check(
            file,
            &text,
            schema,
            args.builtin.as_deref(),
            args.format,
            // The snippets go to standard output.
            apcheck::render::TextOptions {
                color: args.color.enabled(),
            },
        ),
        Err(message) => {
            eprintln!("apcheck: {}", apcheck::render::escape::visible(&message));
            ValidatedFile::unreadable(file, message)
        }
    }
}
