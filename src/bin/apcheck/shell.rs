//! `apcheck completions SHELL` and `apcheck man`: generated from the clap
//! definitions, so they can never list a flag the CLI does not have.

use std::io::{self, Write};
use std::process::ExitCode;

use clap::{Args, Command};
use clap_complete::Shell;

use crate::output::{EXIT_CLEAN, EXIT_FAILURE};

#[derive(Args)]
pub struct CompletionsArgs {
    /// The shell to write completions for: bash, zsh, fish, elvish or powershell.
    shell: Shell,
}

#[derive(Args)]
pub struct ManArgs {
    /// A subcommand, for its own page (`apcheck-check(1)`); without it, `apcheck(1)`.
    subcommand: Option<String>,
}

/// Writes the completion script for `args.shell` to stdout. `command` is the
/// whole CLI's definition, passed down by `main`, which owns it.
pub fn completions(args: CompletionsArgs, mut command: Command) -> ExitCode {
    // Into a buffer first: clap_complete panics when its writer fails (`| head`).
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut command, "apcheck", &mut script);
    finish(io::stdout().lock().write_all(&script))
}

/// Writes the roff man page `apcheck(1)`, or `apcheck-SUBCOMMAND(1)`, to stdout.
pub fn man(args: ManArgs, top: Command) -> ExitCode {
    let command = match &args.subcommand {
        None => top,
        Some(name) => match top.find_subcommand(name) {
            Some(sub) => sub
                .clone()
                .display_name(format!("apcheck-{name}"))
                .bin_name(format!("apcheck {name}")),
            None => {
                crate::output::say(format!("no subcommand `{name}`; `apcheck --help` lists them"));
                return ExitCode::from(EXIT_FAILURE);
            }
        },
    };
    let mut page = Vec::new();
    let written = clap_mangen::Man::new(command).render(&mut page);
    finish(written.and_then(|()| io::stdout().lock().write_all(&page)))
}

fn finish(result: io::Result<()>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::from(EXIT_CLEAN),
        // A closed pipe (`apcheck man | head`) is not a failure worth a message.
        Err(error) if error.kind() == io::ErrorKind::BrokenPipe => ExitCode::from(EXIT_CLEAN),
        Err(error) => {
            crate::output::say(error);
            ExitCode::from(EXIT_FAILURE)
        }
    }
}
