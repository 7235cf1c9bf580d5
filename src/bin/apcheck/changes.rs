//! `apcheck changes OLD NEW`: the change report between two snapshots.

use std::borrow::Cow;
use std::path::PathBuf;
use std::process::ExitCode;

use apcheck::render::{FnSources, Format, snapshot};
use apcheck::snapshot::changes::compare;

use crate::output::{self, ColorChoice, emit, exit_for, fail};
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
    let report = compare(&old_name, &old, &new_name, &new);
    let sources = |file: &str| {
        if file == new_name {
            Some(Cow::Borrowed(new.as_str()))
        } else if file == old_name {
            Some(Cow::Borrowed(old.as_str()))
        } else {
            None
        }
    };
    let out = snapshot::changes(
        &report,
        args.format,
        &FnSources(&sources),
        &output::render_options(args.color),
    );
    emit(&out, exit_for(&report.diagnostics))
}
