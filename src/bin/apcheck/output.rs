//! Plumbing every subcommand shares: the format and colour flags, exit codes
//! and writing to stdout without panicking on a closed pipe.

use std::io::{IsTerminal, Write};

use clap::builder::TypedValueParser;
use std::process::ExitCode;

use apcheck::exit::{Deny, Exit};
use apcheck::render::escape::visible;
use apcheck::render::{Format, Options, TextOptions};

/// No findings at the failing level.
pub const EXIT_CLEAN: u8 = Exit::Clean.code();
/// Findings at error level (or warnings, with `--deny warnings`).
pub const EXIT_FINDINGS: u8 = Exit::Findings.code();
/// A usage error or an I/O failure: the check could not be done as asked.
pub const EXIT_FAILURE: u8 = Exit::Failure.code();

/// `--format` of every diagnostics command: the core's one list of formats.
pub fn format_parser() -> impl TypedValueParser<Value = Format> {
    let values = Format::ALL.map(|format| clap::builder::PossibleValue::new(format.name()).help(format.help()));
    clap::builder::PossibleValuesParser::new(values)
        .map(|name: String| Format::from_name(&name).expect("clap offers only the formats' names"))
}

/// One `--format` of `check`: a format, and the file it is written to
/// (`FORMAT:FILE`), or standard output. Repeatable, so that one run writes
/// SARIF for code scanning and Markdown for a job summary, as Ruff's
/// `--output-file` and pre-commit users expect, without checking twice.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FormatTarget {
    pub format: Format,
    pub file: Option<std::path::PathBuf>,
}

/// `--format FORMAT[:FILE]`: the formats' names, each optionally with `:FILE`.
#[derive(Debug, Clone, Copy)]
pub struct FormatTargetParser;

impl TypedValueParser for FormatTargetParser {
    type Value = FormatTarget;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        _arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<FormatTarget, clap::Error> {
        let invalid = |message: String| clap::Error::raw(clap::error::ErrorKind::InvalidValue, message).with_cmd(cmd);
        let text = value
            .to_str()
            .ok_or_else(|| invalid("--format takes FORMAT or FORMAT:FILE in UTF-8\n".to_string()))?;
        // The first colon ends the format's name, so a Windows path (`sarif:C:\\out.sarif`) stays whole.
        let (name, file) = match text.split_once(':') {
            Some((name, file)) => (name, Some(file)),
            None => (text, None),
        };
        let names = Format::ALL.map(Format::name).join(", ");
        let format = Format::from_name(name)
            .ok_or_else(|| invalid(format!("--format: `{}` is not one of {names}\n", visible(name))))?;
        if file == Some("") {
            return Err(invalid(format!("--format {name}: name the file after the colon\n")));
        }
        Ok(FormatTarget {
            format,
            file: file.map(std::path::PathBuf::from),
        })
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = clap::builder::PossibleValue> + '_>> {
        Some(Box::new(Format::ALL.into_iter().map(|format| {
            clap::builder::PossibleValue::new(format.name()).help(format.help())
        })))
    }
}

/// `--deny`: the core's one list of levels.
pub fn deny_parser() -> impl TypedValueParser<Value = Deny> {
    let values = Deny::ALL.map(|deny| clap::builder::PossibleValue::new(deny.name()));
    clap::builder::PossibleValuesParser::new(values)
        .map(|name: String| Deny::from_name(&name).expect("clap offers only the levels' names"))
}

/// How a command's findings are rendered, from its `--format` and `--color`.
pub fn render_options(color: ColorChoice) -> Options {
    Options {
        color: color.enabled(),
        // Relative paths are relative to the working directory: SARIF's base.
        source_root: std::env::current_dir()
            .ok()
            .and_then(|dir| dir.to_str().map(str::to_string)),
        quiet: false,
    }
}

/// How snippets said on stderr are rendered: coloured as stderr allows.
pub fn stderr_text() -> TextOptions {
    stderr_text_with(ColorChoice::Auto)
}

/// [`stderr_text`] under a command's `--color`.
pub fn stderr_text_with(color: ColorChoice) -> TextOptions {
    TextOptions {
        color: color.enabled_on(std::io::stderr().is_terminal()),
    }
}

/// The process exit code of an outcome.
pub fn exit_code(exit: Exit) -> ExitCode {
    ExitCode::from(exit.code())
}

/// Writes `text` to stdout and exits with `code`, or with 2 when writing failed.
pub fn emit(text: &str, code: ExitCode) -> ExitCode {
    match print(text) {
        Ok(()) => code,
        Err(failed) => failed,
    }
}

/// Prints a core command's streams, standard output first (what was
/// written), then what is said about it on standard error, and exits as they
/// say (2, and nothing said, when writing standard output failed).
pub fn streams(streams: apcheck::commands::documents::Streams) -> ExitCode {
    if let Err(code) = print(&streams.stdout) {
        return code;
    }
    eprint!("{}", streams.stderr);
    exit_code(streams.exit)
}

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
    /// Colour for what goes to stdout.
    pub fn enabled(self) -> bool {
        self.enabled_on(std::io::stdout().is_terminal())
    }

    fn enabled_on(self, terminal: bool) -> bool {
        match self {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            // https://no-color.org: any non-empty value turns colour off.
            ColorChoice::Auto => terminal && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()),
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
    say(message);
    ExitCode::from(EXIT_FAILURE)
}

/// One line on stderr, `apcheck: ` first. It may quote what a user or the
/// checked repository wrote (a path, an argument, a value in `apcheck.toml`),
/// so it goes through the renderer's escaping like every report: no control
/// character recolours the terminal or starts a new line (a GitHub workflow
/// command on a line of its own), and no credential shape is shown.
pub fn say(message: impl std::fmt::Display) {
    eprint!("{}", line(message));
}

/// [`say`]'s line, for a caller that prints it later.
pub fn line(message: impl std::fmt::Display) -> String {
    apcheck::commands::documents::line(message)
}
