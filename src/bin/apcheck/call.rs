//! `apcheck call SNAPSHOT TOOL ARGS.json`: checks `tools/call` arguments.

use std::borrow::Cow;
use std::path::PathBuf;
use std::process::ExitCode;

use apcheck::render::{FnSources, Format, snapshot};
use apcheck::snapshot::call::check_call;

use crate::output::{self, ColorChoice, emit, exit_for, fail};
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
    let report = check_call(&snapshot_name, &snapshot, &args.tool, &arguments_name, &arguments);
    let tool = report.tool.as_deref().unwrap_or(&args.tool);
    let sources = |file: &str| {
        if file == snapshot_name {
            Some(Cow::Borrowed(snapshot.as_str()))
        } else if file == arguments_name {
            Some(Cow::Borrowed(arguments.as_str()))
        } else {
            None
        }
    };
    let out = snapshot::call(
        &report,
        tool,
        args.format,
        &FnSources(&sources),
        &output::render_options(args.color),
    );
    // Arguments that got no verdict are an incomplete check, as in `validate`: exit 2.
    let unchecked = report
        .diagnostics
        .iter()
        .any(|d| d.code == apcheck::snapshot::call::ARGUMENTS_UNCHECKED.code);
    if unchecked {
        return emit(&out, output::exit_code(apcheck::exit::Exit::Failure));
    }
    emit(&out, exit_for(&report.diagnostics))
}
