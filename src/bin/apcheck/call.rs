//! `apcheck call SNAPSHOT TOOL ARGS.json`: checks `tools/call` arguments.

use std::path::PathBuf;
use std::process::ExitCode;

use apcheck::snapshot::{call::check_call, render};

use crate::output::fail;
use crate::snapshot::{Format, emit, exit_for, json_text, read_text};

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
    let (snapshot_name, arguments_name) = (
        args.snapshot.display().to_string(),
        args.arguments.display().to_string(),
    );
    let report = check_call(&snapshot_name, &snapshot, &args.tool, &arguments_name, &arguments);
    let tool = report.tool.as_deref().unwrap_or(&args.tool);
    let out = match args.format {
        Format::Json => json_text(&report),
        Format::Text => {
            let sources = |file: &str| {
                if file == snapshot_name {
                    Some(snapshot.as_str())
                } else if file == arguments_name {
                    Some(arguments.as_str())
                } else {
                    None
                }
            };
            let verdict = if report.valid { "valid" } else { "invalid" };
            let findings = render::diagnostics_text(&report.diagnostics, &sources);
            format!("{findings}{tool}: arguments {verdict}\n")
        }
        Format::Markdown => format!(
            "### `{tool}` arguments\n\n{}",
            render::diagnostics_markdown(&report.diagnostics)
        ),
    };
    emit(&out, exit_for(&report.diagnostics))
}
