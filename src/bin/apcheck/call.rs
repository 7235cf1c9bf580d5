//! `apcheck call SNAPSHOT TOOL ARGS.json`: checks `tools/call` arguments.

use std::path::PathBuf;
use std::process::ExitCode;

use apcheck::commands::{self, Input};
use apcheck::render::Format;

use crate::output::{self, ColorChoice, emit, fail};
use crate::snapshot::read_text;

#[derive(clap::Args)]
pub struct CallArgs {
    /// The snapshot JSON file.
    snapshot: PathBuf,
    /// The tool, as `name` or `server/name`.
    tool: String,
    /// The arguments object as JSON.
    arguments: PathBuf,
    #[arg(long, value_parser = output::format_parser(), default_value = "text")]
    format: Format,
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    color: ColorChoice,
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
    let outcome = commands::call(
        Input {
            name: &snapshot_name,
            text: &snapshot,
        },
        &args.tool,
        Input {
            name: &arguments_name,
            text: &arguments,
        },
        args.format,
        &output::render_options(args.color),
    );
    emit(&outcome.output, output::exit_code(outcome.exit))
}
