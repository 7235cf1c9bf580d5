//! `apcheck check-snapshot FILE… [--plugin DIR]`: lints capability snapshots.

use std::path::PathBuf;
use std::process::ExitCode;

use apcheck::commands::{self, Input};
use apcheck::render::Format;

use crate::output::{self, ColorChoice, emit, fail};
use crate::snapshot::{read_package, read_text};

#[derive(clap::Args)]
pub struct CheckSnapshotArgs {
    /// The snapshot JSON files (CI fixtures, one or more).
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// The plugin root the snapshots describe, for the checks that need its files.
    #[arg(long, value_name = "DIR")]
    plugin: Option<PathBuf>,
    /// `json` is an array with one entry per file.
    #[arg(long, value_parser = output::format_parser(), default_value = "text")]
    format: Format,
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    color: ColorChoice,
}

pub fn run(args: CheckSnapshotArgs) -> ExitCode {
    let tree = match args.plugin.as_deref().map(read_package).transpose() {
        Ok(tree) => tree,
        Err(message) => return fail(message),
    };
    let mut texts: Vec<(String, String)> = Vec::with_capacity(args.files.len());
    for file in &args.files {
        match read_text(file) {
            Ok(text) => texts.push((file.display().to_string(), text)),
            Err(message) => return fail(message),
        }
    }
    let inputs: Vec<Input> = texts.iter().map(|(name, text)| Input { name, text }).collect();
    let outcome = commands::check_snapshots(&inputs, tree.as_ref(), args.format, &output::render_options(args.color));
    emit(&outcome.output, output::exit_code(outcome.exit))
}
