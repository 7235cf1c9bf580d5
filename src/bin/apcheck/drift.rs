//! `apcheck drift SNAPSHOT PLUGIN`: the snapshot against its packaging files.

use std::path::PathBuf;
use std::process::ExitCode;

use apcheck::snapshot::{drift::drift, render};

use crate::output::fail;
use crate::snapshot::{Format, emit, exit_for, json_text, package_sources, read_package, read_text};

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
    let out = match args.format {
        Format::Json => json_text(&report),
        Format::Text => render::drift_text(&report, &sources),
        Format::Markdown => render::drift_markdown(&report),
    };
    // Drift is an error-level finding on its own; lint errors count too.
    let code = if report.has_drift() {
        ExitCode::from(1)
    } else {
        exit_for(&report.diagnostics)
    };
    emit(&out, code)
}
