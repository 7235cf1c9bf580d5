//! `apcheck drift SNAPSHOT PLUGIN`: the snapshot against its packaging files.

use std::path::PathBuf;
use std::process::ExitCode;

use apcheck::commands::{self, Input};
use apcheck::render::Format;

use crate::output::{self, ColorChoice, emit, fail};
use crate::snapshot::{read_package, read_text};

#[derive(clap::Args)]
pub struct DriftArgs {
    /// The snapshot JSON file.
    snapshot: PathBuf,
    /// The plugin root directory.
    plugin: PathBuf,
    #[arg(long, value_parser = output::format_parser(), default_value = "text")]
    format: Format,
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    color: ColorChoice,
}

pub fn run(args: DriftArgs) -> ExitCode {
    let text = match read_text(&args.snapshot) {
        Ok(text) => text,
        Err(message) => return fail(message),
    };
    let tree = match read_package(&args.plugin) {
        Ok(tree) => tree,
        Err(message) => return fail(message),
    };
    let (snapshot_name, root) = (args.snapshot.display().to_string(), args.plugin.display().to_string());
    let snapshot = Input {
        name: &snapshot_name,
        text: &text,
    };
    let outcome = commands::drift(snapshot, &root, &tree, args.format, &output::render_options(args.color));
    emit(&outcome.output, output::exit_code(outcome.exit))
}
