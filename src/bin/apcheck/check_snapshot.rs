//! `apcheck check-snapshot FILE… [--plugin DIR]`: lints capability snapshots.

use std::path::PathBuf;
use std::process::ExitCode;

use apcheck::Diagnostic;
use apcheck::snapshot::{check_snapshot, render};

use crate::output::fail;
use crate::snapshot::{Format, emit, exit_for, json_text, read_package, read_text};

#[derive(clap::Args)]
pub struct CheckSnapshotArgs {
    /// The snapshot JSON files (CI fixtures, one or more).
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// The plugin root the snapshots describe, for the checks that need its files.
    #[arg(long, value_name = "DIR")]
    plugin: Option<PathBuf>,
    /// `json` is an array with one entry per file.
    #[arg(long, value_enum, default_value_t)]
    format: Format,
}

pub fn run(args: CheckSnapshotArgs) -> ExitCode {
    let tree = match args.plugin.as_deref().map(read_package).transpose() {
        Ok(tree) => tree,
        Err(message) => return fail(message),
    };
    let mut out = String::new();
    let mut json = Vec::new();
    let mut all: Vec<Diagnostic> = Vec::new();
    for file in &args.files {
        let text = match read_text(file) {
            Ok(text) => text,
            Err(message) => return fail(message),
        };
        let name = file.display().to_string();
        let check = check_snapshot(&name, &text, tree.as_ref());
        match args.format {
            Format::Json => json.push(serde_json::json!({
                "file": name,
                "valid": check.snapshot.is_some(),
                "diagnostics": check.diagnostics,
            })),
            Format::Text => {
                let sources = |file: &str| (file == name).then_some(text.as_str());
                out.push_str(&render::diagnostics_text(&check.diagnostics, &sources));
                out.push_str(&format!("{name}: {}\n", render::totals(&check.diagnostics)));
            }
            Format::Markdown => out.push_str(&format!(
                "### {name}\n\n{}\n",
                render::diagnostics_markdown(&check.diagnostics)
            )),
        }
        all.extend(check.diagnostics);
    }
    if args.format == Format::Json {
        out = json_text(&json);
    }
    emit(&out, exit_for(&all))
}
