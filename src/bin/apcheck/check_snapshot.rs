//! `apcheck check-snapshot FILE [--plugin DIR]`: lints a capability snapshot.

use std::path::PathBuf;
use std::process::ExitCode;

use apcheck::snapshot::{check_snapshot, render};

use crate::output::fail;
use crate::snapshot::{Format, emit, exit_for, json_text, read_package, read_text};

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
    let out = match args.format {
        Format::Json => json_text(&serde_json::json!({
            "file": name,
            "valid": check.snapshot.is_some(),
            "diagnostics": check.diagnostics,
        })),
        Format::Text => {
            let sources = |file: &str| (file == name).then_some(text.as_str());
            let findings = render::diagnostics_text(&check.diagnostics, &sources);
            format!("{findings}{name}: {}\n", render::totals(&check.diagnostics))
        }
        Format::Markdown => format!("### {name}\n\n{}", render::diagnostics_markdown(&check.diagnostics)),
    };
    emit(&out, exit_for(&check.diagnostics))
}
