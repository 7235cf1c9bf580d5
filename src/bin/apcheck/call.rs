//! `apcheck call SNAPSHOT TOOL ARGS.json`: checks `tools/call` arguments.

use std::path::PathBuf;
use std::process::ExitCode;

use apcheck::snapshot::{call::check_call, render};

use crate::snapshot::{Format, exit_for, fail, print_json, read_text};

#[derive(clap::Args)]
pub struct CallArgs {
    /// The snapshot JSON file.
    snapshot: PathBuf,
    /// The tool, as `name` or `server/name`.
    tool: String,
    /// The arguments object as JSON.
    arguments: PathBuf,
    #[arg(long, value_enum, default_value_t)]
    format: Format,
}

pub fn run(args: CallArgs) -> ExitCode {
    let (snapshot, arguments) = match (read_text(&args.snapshot), read_text(&args.arguments)) {
        (Ok(snapshot), Ok(arguments)) => (snapshot, arguments),
        (Err(message), _) | (_, Err(message)) => return fail(message),
    };
    let report = check_call(
        &args.snapshot.display().to_string(),
        &snapshot,
        &args.tool,
        &args.arguments.display().to_string(),
        &arguments,
    );
    match args.format {
        Format::Json => print_json(&report),
        Format::Text => {
            print!("{}", render::diagnostics_text(&report.diagnostics));
            let tool = report.tool.as_deref().unwrap_or(&args.tool);
            let verdict = if report.valid { "valid" } else { "invalid" };
            println!("{tool}: arguments {verdict}");
        }
        Format::Markdown => print!(
            "### `{}` arguments\n\n{}",
            report.tool.as_deref().unwrap_or(&args.tool),
            render::diagnostics_markdown(&report.diagnostics)
        ),
    }
    exit_for(&report.diagnostics)
}
