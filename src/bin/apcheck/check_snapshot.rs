//! `apcheck check-snapshot FILE [--plugin DIR]`: lints a capability snapshot.

use std::path::PathBuf;
use std::process::ExitCode;

use apcheck::snapshot::{check_snapshot, render};

use crate::snapshot::{Format, exit_for, fail, print_json, read_package, read_text};

#[derive(clap::Args)]
pub struct CheckSnapshotArgs {
    /// The snapshot JSON file.
    file: PathBuf,
    /// The plugin root the snapshot describes, for the checks that need its files.
    #[arg(long, value_name = "DIR")]
    plugin: Option<PathBuf>,
    #[arg(long, value_enum, default_value_t)]
    format: Format,
}

pub fn run(args: CheckSnapshotArgs) -> ExitCode {
    let text = match read_text(&args.file) {
        Ok(text) => text,
        Err(message) => return fail(message),
    };
    let tree = match args.plugin.as_deref().map(read_package).transpose() {
        Ok(tree) => tree,
        Err(message) => return fail(message),
    };
    let name = args.file.display().to_string();
    let check = check_snapshot(&name, &text, tree.as_ref());
    match args.format {
        Format::Json => print_json(&serde_json::json!({
            "file": name,
            "valid": check.snapshot.is_some(),
            "diagnostics": check.diagnostics,
        })),
        Format::Text => {
            print!("{}", render::diagnostics_text(&check.diagnostics));
            println!("{name}: {}", render::totals(&check.diagnostics));
        }
        Format::Markdown => print!("### {name}\n\n{}", render::diagnostics_markdown(&check.diagnostics)),
    }
    exit_for(&check.diagnostics)
}
