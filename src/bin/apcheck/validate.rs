//! `apcheck validate (--schema FILE | --builtin NAME) INSTANCE…`: JSON Schema
//! validation with every error at its line and column. The schema is compiled
//! once; instances are checked in parallel and reported in the order given.

use std::process::ExitCode;

use apcheck::commands::Input;
use apcheck::commands::documents::{self, SchemaSource};
use apcheck::json::tools::SharedSchema;
use apcheck::json::validate::CompiledSchema;
use apcheck::render::Format;
use apcheck::render::documents::ValidatedFile;
use rayon::prelude::*;

use crate::fmt::{DEFAULT_MAX_INPUT_MIB, mib, read_input};
use crate::output::{self, ColorChoice, EXIT_FAILURE};

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
    if let Some(first) = documents::validate_first(args.builtin.as_deref(), args.instances.len()) {
        eprint!("{}", first.stderr);
        return output::emit(&first.stdout, output::exit_code(first.exit));
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
    let report = documents::validation_report(
        schema.dialect(),
        &files,
        args.format,
        &output::render_options(args.color),
    );
    print!("{}", report.stdout);
    eprint!("{}", report.stderr);
    output::exit_code(report.exit)
}

/// Reads the schema files the arguments name and compiles them (or picks the built-in).
fn load(args: &ValidateArgs) -> Result<SharedSchema, String> {
    let stderr = output::stderr_text_with(args.color);
    if let Some(name) = &args.builtin {
        return documents::validation_schema(SchemaSource::Builtin(name), args.formats, stderr);
    }
    let path = args.schema.as_deref().unwrap_or("-");
    let text = read_input(path, mib(args.max_input_mib)).map_err(output::line)?;
    let ref_texts: Vec<String> = args
        .refs
        .iter()
        .map(|p| read_input(p, mib(args.max_input_mib)))
        .collect::<Result<_, _>>()
        .map_err(output::line)?;
    let refs: Vec<Input> = args
        .refs
        .iter()
        .zip(&ref_texts)
        .map(|(name, text)| Input { name, text })
        .collect();
    let main = Input {
        name: path,
        text: &text,
    };
    documents::validation_schema(SchemaSource::Files { main, refs: &refs }, args.formats, stderr)
}

/// Reads and validates one document; a file that cannot be read is said on
/// stderr in every format, as the run then exits 2.
fn check_instance(file: &str, schema: &CompiledSchema, args: &ValidateArgs) -> ValidatedFile {
    let text = read_input(file, mib(args.max_input_mib));
    let (validated, said) = documents::validate_document(
        file,
        text.as_deref().map_err(Clone::clone),
        schema,
        args.builtin.as_deref(),
        args.format,
        args.color.enabled(),
    );
    if let Some(said) = said {
        eprint!("{said}");
    }
    validated
}
