//! `apcheck drift SNAPSHOT PLUGIN`: the snapshot against its packaging files.

use std::path::PathBuf;
use std::process::ExitCode;

use apcheck::snapshot::{drift::drift, render};

use crate::snapshot::{Format, fail, print_json, read_package, read_text};

#[derive(clap::Args)]
pub struct DriftArgs {
    /// The snapshot JSON file.
    snapshot: PathBuf,
    /// The plugin root directory.
    plugin: PathBuf,
    #[arg(long, value_enum, default_value_t)]
    format: Format,
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
    let report = drift(
        &args.snapshot.display().to_string(),
        &text,
        &args.plugin.display().to_string(),
        &tree,
    );
    match args.format {
        Format::Json => print_json(&report),
        Format::Text => print!("{}", render::drift_text(&report)),
        Format::Markdown => print!("{}", render::drift_markdown(&report)),
    }
    // Drift is an error-level finding on its own; lint errors count too.
    if report.has_drift() {
        ExitCode::from(1)
    } else {
        crate::snapshot::exit_for(&report.diagnostics)
    }
}
