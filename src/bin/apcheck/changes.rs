//! `apcheck changes OLD NEW`: the change report between two snapshots.

use std::path::PathBuf;
use std::process::ExitCode;

use apcheck::snapshot::{changes::compare, render};

use crate::output::fail;
use crate::snapshot::{Format, emit, exit_for, json_text, read_text};

#[derive(clap::Args)]
pub struct ChangesArgs {
    /// The snapshot before the change.
    old: PathBuf,
    /// The snapshot after the change.
    new: PathBuf,
    /// `markdown` is ready to paste in a pull-request comment.
    #[arg(long, value_enum, default_value_t)]
    format: Format,
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
            Some(new.as_str())
        } else if file == old_name {
            Some(old.as_str())
        } else {
            None
        }
    };
    let out = match args.format {
        Format::Json => json_text(&report),
        Format::Text => render::changes_text(&report, &sources),
        Format::Markdown => render::changes_markdown(&report),
    };
    emit(&out, exit_for(&report.diagnostics))
}
