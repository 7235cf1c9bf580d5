//! `apcheck fmt FILE|-`: pretty-print or minify JSON, keeping number and string text.
//! Also the JSON commands' shared input reading.

use std::io::{Read, Write};
use std::process::ExitCode;

use apcheck::json::format::{FormatOptions, Indent, Layout, format};
use apcheck::json::tools::format_document;
use apcheck::render::documents::fmt_error;

use crate::output::{self, EXIT_CLEAN, EXIT_FAILURE, EXIT_FINDINGS};

#[derive(clap::Args)]
pub struct FmtArgs {
    /// The JSON file, or `-` for standard input.
    file: String,
    /// Indentation per level: 2, 4 or tab.
    #[arg(long, default_value = "2", value_parser = parse_indent)]
    indent: Indent,
    /// No whitespace at all (still ends with a newline).
    #[arg(long, conflicts_with = "indent")]
    minify: bool,
    /// Order object members by key (Unicode code points); by default key order is kept.
    #[arg(long)]
    sort_keys: bool,
    /// Accept comments and trailing commas (JSONC); the output is plain JSON without them.
    #[arg(long)]
    jsonc: bool,
    /// Write the result back to FILE instead of standard output.
    #[arg(long, conflicts_with = "check")]
    write: bool,
    /// Print nothing; exit 1 if FILE is not already formatted this way.
    #[arg(long)]
    check: bool,
}

fn parse_indent(text: &str) -> Result<Indent, String> {
    match text {
        "2" => Ok(Indent::Spaces(2)),
        "4" => Ok(Indent::Spaces(4)),
        "tab" => Ok(Indent::Tab),
        _ => Err("expected 2, 4 or tab".to_string()),
    }
}

pub fn fmt(args: FmtArgs) -> ExitCode {
    let text = match read_input(&args.file) {
        Ok(text) => text,
        Err(message) => {
            eprintln!("apcheck: {message}");
            return ExitCode::from(EXIT_FAILURE);
        }
    };
    let options = FormatOptions {
        layout: if args.minify {
            Layout::Minify
        } else {
            Layout::Pretty(args.indent)
        },
        sort_keys: args.sort_keys,
        jsonc: args.jsonc,
    };
    let writes_file = args.write && args.file != "-";
    if !(args.check || writes_file) {
        return print_formatted(&args.file, &text, &options);
    }
    let formatted = match format_document(&text, &options) {
        Ok(formatted) => formatted,
        Err(error) => {
            eprint!("{}", fmt_error(&args.file, &text, error, output::stderr_text()));
            return ExitCode::from(EXIT_FINDINGS);
        }
    };
    if args.check {
        if !formatted.changed {
            return ExitCode::from(EXIT_CLEAN);
        }
        eprintln!("{}: not formatted", apcheck::render::escape::visible(&args.file));
        return ExitCode::from(EXIT_FINDINGS);
    }
    match std::fs::write(&args.file, formatted.text.as_bytes()) {
        Ok(()) => ExitCode::from(EXIT_CLEAN),
        Err(e) => {
            eprintln!("apcheck: cannot write {}: {e}", args.file);
            ExitCode::from(EXIT_FAILURE)
        }
    }
}

/// Formats in one pass into memory, then writes the whole output at once: a
/// syntax error prints nothing on standard output, without a second scan to
/// check the text first (the output is held instead: about input + output in
/// memory, which is what buys the single pass).
fn print_formatted(file: &str, text: &str, options: &FormatOptions) -> ExitCode {
    let formatted = match format(text, options) {
        Ok(formatted) => formatted,
        Err(error) => {
            eprint!("{}", fmt_error(file, text, error, output::stderr_text()));
            return ExitCode::from(EXIT_FINDINGS);
        }
    };
    let mut stdout = std::io::stdout().lock();
    match stdout.write_all(formatted.as_bytes()).and_then(|()| stdout.flush()) {
        Ok(()) => ExitCode::from(EXIT_CLEAN),
        Err(e) => {
            eprintln!("apcheck: cannot write output: {e}");
            ExitCode::from(EXIT_FAILURE)
        }
    }
}

/// The text of `path`, or of standard input for `-`; the error says which and why.
pub fn read_input(path: &str) -> Result<String, String> {
    if path == "-" {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .map_err(|e| format!("cannot read standard input: {e}"))?;
        return Ok(text);
    }
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    String::from_utf8(bytes).map_err(|e| {
        format!(
            "{path}: not UTF-8 (byte {} is invalid); JSON text must be UTF-8 (RFC 8259 §8.1)",
            e.utf8_error().valid_up_to()
        )
    })
}
