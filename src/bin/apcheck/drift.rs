//! `apcheck drift SNAPSHOT PLUGIN`: the snapshot against its packaging files.

use std::path::PathBuf;
use std::process::ExitCode;

use apcheck::render::{FnSources, Format, snapshot};
use apcheck::snapshot::drift::drift;

use crate::output::{self, ColorChoice, EXIT_FINDINGS, emit, exit_for, fail};
use crate::snapshot::{package_sources, read_package, read_text};

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
    let report = drift(&snapshot_name, &text, &root, &tree);
    let package = package_sources(&tree, &root);
    let sources = |file: &str| {
        if file == snapshot_name {
            Some(text.as_str())
        } else {
            package(file)
        }
    };
    let out = snapshot::drift(
        &report,
        args.format,
        &FnSources(&sources),
        &output::render_options(args.color),
    );
    // Drift is an error-level finding on its own; lint errors count too.
    let code = if report.has_drift() {
        ExitCode::from(EXIT_FINDINGS)
    } else {
        exit_for(&report.diagnostics)
    };
    emit(&out, code)
}
