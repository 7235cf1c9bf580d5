//! `apcheck check-snapshot FILE… [--plugin DIR]`: lints capability snapshots.

use std::borrow::Cow;
use std::path::PathBuf;
use std::process::ExitCode;

use apcheck::Diagnostic;
use apcheck::render::snapshot::{SnapshotFile, check_snapshots};
use apcheck::render::{FnSources, Format};
use apcheck::snapshot::lint_snapshot;

use crate::output::{self, ColorChoice, emit, exit_for, fail};
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
    let mut texts: Vec<(String, String)> = Vec::new();
    let mut files = Vec::new();
    for file in &args.files {
        let text = match read_text(file) {
            Ok(text) => text,
            Err(message) => return fail(message),
        };
        let name = file.display().to_string();
        let lint = lint_snapshot(&name, &text, tree.as_ref());
        files.push(SnapshotFile {
            file: name.clone(),
            valid: lint.valid,
            diagnostics: lint.diagnostics,
        });
        texts.push((name, text));
    }
    let find = |file: &str| {
        texts
            .iter()
            .find(|(name, _)| name == file)
            .map(|(_, text)| Cow::Borrowed(text.as_str()))
    };
    let out = check_snapshots(
        &files,
        args.format,
        &FnSources(&find),
        &output::render_options(args.color),
    );
    let all: Vec<Diagnostic> = files.into_iter().flat_map(|file| file.diagnostics).collect();
    emit(&out, exit_for(&all))
}
