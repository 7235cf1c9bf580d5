//! Plumbing every subcommand shares: output formats, colour choice, exit codes
//! and writing to stdout without panicking on a closed pipe.

use std::io::{IsTerminal, Write};
use std::process::ExitCode;

/// No findings at the failing level.
pub const EXIT_CLEAN: u8 = 0;
/// Findings at error level (or warnings, with `--deny warnings`).
pub const EXIT_FINDINGS: u8 = 1;
/// A usage error or an I/O failure: the check could not be done as asked.
pub const EXIT_FAILURE: u8 = 2;

/// Formats for documents about rules (`rules`, `explain`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum DocFormat {
    #[default]
    Text,
    Json,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum ColorChoice {
    /// Colour when stdout is a terminal and `NO_COLOR` is unset or empty.
    #[default]
    Auto,
    Always,
    Never,
}

impl ColorChoice {
    pub fn enabled(self) -> bool {
        match self {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            // https://no-color.org: any non-empty value turns colour off.
            ColorChoice::Auto => {
                std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
            }
        }
    }
}

/// Writes `text` to stdout. A reader that went away (`| head`) only cuts the
/// output, and the exit code stands; any other write failure (a full disk
/// behind a redirect) is an I/O failure, reported as `Err(exit code 2)`.
pub fn print(text: &str) -> Result<(), ExitCode> {
    let mut stdout = std::io::stdout().lock();
    match stdout.write_all(text.as_bytes()).and_then(|()| stdout.flush()) {
        Err(error) if error.kind() != std::io::ErrorKind::BrokenPipe => Err(fail(format!("writing output: {error}"))),
        _ => Ok(()),
    }
}

/// A usage or I/O failure: the message on stderr, exit code 2.
pub fn fail(message: impl std::fmt::Display) -> ExitCode {
    eprintln!("apcheck: {message}");
    ExitCode::from(EXIT_FAILURE)
}
