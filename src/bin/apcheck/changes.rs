//! `apcheck changes OLD NEW`: the change report between two snapshots.

use std::path::PathBuf;
use std::process::ExitCode;

use apcheck::snapshot::{changes::compare, render};

use crate::snapshot::{Format, exit_for, fail, print_json, read_text};

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
    let report = compare(
        &args.old.display().to_string(),
        &old,
        &args.new.display().to_string(),
        &new,
    );
    match args.format {
        Format::Json => print_json(&report),
        Format::Text => print!("{}", render::changes_text(&report)),
        Format::Markdown => print!("{}", render::changes_markdown(&report)),
    }
    exit_for(&report.diagnostics)
}
