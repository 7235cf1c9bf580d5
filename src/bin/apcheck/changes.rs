//! `apcheck changes OLD NEW`: the change report between two snapshots.

use std::path::PathBuf;
use std::process::ExitCode;

use apcheck::commands::{self, Input};
use apcheck::render::Format;

use crate::output::{self, ColorChoice, emit, fail};
use crate::snapshot::read_text;

#[derive(clap::Args)]
pub struct ChangesArgs {
    /// The snapshot before the change.
    old: PathBuf,
    /// The snapshot after the change.
    new: PathBuf,
    /// `markdown` is ready to paste in a pull-request comment.
    #[arg(long, value_parser = output::format_parser(), default_value = "text")]
    format: Format,
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    color: ColorChoice,
}

pub fn run(args: ChangesArgs) -> ExitCode {
    let (old, new) = match (read_text(&args.old), read_text(&args.new)) {
        (Ok(old), Ok(new)) => (old, new),
        (Err(message), _) | (_, Err(message)) => return fail(message),
    };
    let (old_name, new_name) = (args.old.display().to_string(), args.new.display().to_string());
    let outcome = commands::changes(
        Input {
            name: &old_name,
            text: &old,
        },
        Input {
            name: &new_name,
            text: &new,
        },
        args.format,
        &output::render_options(args.color),
    );
    emit(&outcome.output, output::exit_code(outcome.exit))
}
