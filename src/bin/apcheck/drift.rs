//! `apcheck drift SNAPSHOT PLUGIN`: the snapshot against its packaging files.

use std::path::PathBuf;
use std::process::ExitCode;

use apcheck::snapshot::{drift::drift, render};

use crate::snapshot::{Format, fail, package_sources, print_json, read_package, read_text};

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
    let (snapshot_name, root) = (args.snapshot.display().to_string(), args.plugin.display().to_string());
    let report = drift(&snapshot_name, &text, &root, &tree);
    let package = package_sources(&tree, &root);
    let sources = |file: &str| {
        if file == snapshot_name {
            Some(text.as_str())
        } else {
            package(file)
        }
    };
    match args.format {
        Format::Json => print_json(&report),
        Format::Text => print!("{}", render::drift_text(&report, &sources)),
        Format::Markdown => print!("{}", render::drift_markdown(&report)),
    }
    // Drift is an error-level finding on its own; lint errors count too.
    if report.has_drift() {
        ExitCode::from(1)
    } else {
        crate::snapshot::exit_for(&report.diagnostics)
    }
}
