//! `apcheck fmt FILE|-`: pretty-print or minify JSON, keeping number and string text.
//! Also home of the source-snippet rendering the JSON commands share.

use std::io::{IsTerminal, Read, Write};
use std::process::ExitCode;

use annotate_snippets::{AnnotationKind, Level, Origin, Renderer, Snippet};
use apcheck::json::JsonParseError;
use apcheck::json::format::{FormatOptions, Indent, Layout};
use apcheck::json::tools::format_document;

use crate::output::{EXIT_CLEAN, EXIT_FAILURE, EXIT_FINDINGS};

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
    let formatted = match format_document(&text, &options) {
        Ok(formatted) => formatted,
        Err(error) => {
            eprint!("{}", render_parse_error(&args.file, &text, &error));
            return ExitCode::from(EXIT_FINDINGS);
        }
    };
    if args.check {
        if !formatted.changed {
            return ExitCode::from(EXIT_CLEAN);
        }
        eprintln!("{}: not formatted", args.file);
        return ExitCode::from(EXIT_FINDINGS);
    }
    let formatted = formatted.text;
    let written = if args.write && args.file != "-" {
        std::fs::write(&args.file, formatted.as_bytes()).map_err(|e| format!("cannot write {}: {e}", args.file))
    } else {
        std::io::stdout()
            .lock()
            .write_all(formatted.as_bytes())
            .map_err(|e| format!("cannot write output: {e}"))
    };
    match written {
        Ok(()) => ExitCode::from(EXIT_CLEAN),
        Err(message) => {
            eprintln!("apcheck: {message}");
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

/// A syntax error as `error: message` with the line and a caret under the column.
pub fn render_parse_error(file: &str, text: &str, error: &JsonParseError) -> String {
    let at = Location {
        line: error.line,
        column: error.column,
        offset: error.offset,
        len: 0,
    };
    render_snippet(Level::ERROR, file, text, at, &error.message, "")
}

/// Where a finding is: its 1-based line and column (named when a long line is
/// shortened), byte offset, and length in
/// bytes (0 for one character).
#[derive(Clone, Copy)]
pub struct Location {
    pub line: usize,
    pub column: usize,
    pub offset: usize,
    pub len: usize,
}

/// Lines longer than this (a minified document is one line) are shown as a
/// window around the finding.
const LONG_LINE: usize = 200;
/// Bytes of context either side of the finding in such a window.
const WINDOW: usize = 60;

/// One finding rendered with its source line. Only that line (or a window of
/// it) is handed to the renderer, so findings in a 100 MB file cost nothing extra.
pub fn render_snippet(level: Level<'_>, file: &str, text: &str, at: Location, title: &str, label: &str) -> String {
    let offset = floor_char_boundary(text, at.offset);
    let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[offset..].find('\n').map_or(text.len(), |i| offset + i);
    let mut line_text = text[line_start..line_end].trim_end_matches('\r');
    let mut start = (offset - line_start).min(line_text.len());
    let first_char = line_text[start..].chars().next().map_or(0, char::len_utf8);
    let mut end = floor_char_boundary(line_text, (start + at.len.max(first_char)).min(line_text.len()));
    let mut title = title.to_string();
    let shortened = line_text.len() > LONG_LINE;
    if shortened {
        // The renderer would count the column inside the window; name the real one.
        title.push_str(&format!(" (column {}; line shortened)", at.column));
        let from = floor_char_boundary(line_text, start.saturating_sub(WINDOW));
        let to = floor_char_boundary(line_text, (start + WINDOW).max(end.min(start + WINDOW)));
        line_text = &line_text[from..to.max(start)];
        start -= from;
        end = (end - from).min(line_text.len()).max(start);
    }
    let snippet = Snippet::source(line_text)
        .line_start(at.line)
        .annotation(AnnotationKind::Primary.span(start..end).label(label));
    let group = level.primary_title(&title);
    // A window's `-->` line would name the window's column: give the real one.
    let report = &[if shortened {
        group
            .element(Origin::path(file).line(at.line).char_column(at.column))
            .element(snippet)
    } else {
        group.element(snippet.path(file))
    }];
    let renderer = if std::io::stderr().is_terminal() && std::io::stdout().is_terminal() {
        Renderer::styled()
    } else {
        Renderer::plain()
    };
    format!("{}\n", renderer.render(report))
}

fn floor_char_boundary(text: &str, offset: usize) -> usize {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}
