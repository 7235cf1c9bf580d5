//! `apcheck fmt FILE|-`: pretty-print or minify JSON, keeping number and string text.
//! Also the JSON commands' shared input reading.

use std::io::{Read, Write};
use std::process::ExitCode;

use apcheck::commands::Input;
use apcheck::commands::documents::{self, FmtMode};
use apcheck::json::format::{FormatOptions, Indent, Layout, format_streaming};
use apcheck::render::documents::fmt_error;
use apcheck::render::escape::visible;

use crate::output::{self, EXIT_CLEAN, EXIT_FAILURE, EXIT_FINDINGS};

#[derive(clap::Args)]
pub struct FmtArgs {
    /// The JSON files, or `-` for standard input. Several files need --write or --check.
    #[arg(required = true, value_name = "FILE")]
    files: Vec<String>,
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
    /// Refuse an input larger than this many MiB (exit 2).
    #[arg(long, value_name = "MIB", default_value_t = DEFAULT_MAX_INPUT_MIB)]
    max_input_mib: u64,
}

/// The default of `fmt`'s and `validate`'s `--max-input-mib`: a document is
/// held in memory whole, with its tree (several times its size) when it is
/// validated, so what is read is bounded, `/dev/zero` and a runaway pipe included.
pub const DEFAULT_MAX_INPUT_MIB: u64 = 256;

/// `--max-input-mib` in bytes.
pub fn mib(limit: u64) -> u64 {
    limit.saturating_mul(1 << 20)
}

fn parse_indent(text: &str) -> Result<Indent, String> {
    documents::fmt_indent(text)
}

pub fn fmt(args: FmtArgs) -> ExitCode {
    // Standard output holds one document: several formatted ones one after
    // the other would be no JSON at all.
    if let Some(refusal) = documents::fmt_refusal(args.files.len(), args.write, args.check) {
        eprint!("{refusal}");
        return ExitCode::from(EXIT_FAILURE);
    }
    let options = FormatOptions {
        layout: if args.minify {
            Layout::Minify
        } else {
            Layout::Pretty(args.indent)
        },
        sort_keys: args.sort_keys,
        jsonc: args.jsonc,
    };
    // Every file is done, whatever the others did; the worst outcome is the exit code.
    let worst = args.files.iter().map(|file| fmt_one(file, &args, &options)).max();
    ExitCode::from(worst.unwrap_or(EXIT_CLEAN))
}

/// Formats one file as the flags say; its exit code, so that the worst can be kept.
fn fmt_one(file: &str, args: &FmtArgs, options: &FormatOptions) -> u8 {
    let text = match read_input(file, mib(args.max_input_mib)) {
        Ok(text) => text,
        Err(message) => {
            output::say(message);
            return EXIT_FAILURE;
        }
    };
    if args.check {
        check_formatted(file, &text, options)
    } else if args.write && file != "-" {
        write_back(file, &text, options)
    } else {
        stream_to_stdout(file, &text, options)
    }
}

/// Formats `text` in chunks to `emit`, which writes to `target` and may
/// fail; a syntax error is printed (nothing was emitted before it: the core
/// checks first).
fn stream(
    file: &str,
    text: &str,
    options: &FormatOptions,
    target: &str,
    mut emit: impl FnMut(&[u8]) -> std::io::Result<()>,
) -> Result<(), u8> {
    let mut write_error: Option<std::io::Error> = None;
    let formatted = format_streaming(text, options, &mut |chunk: &[u8]| {
        if write_error.is_none()
            && let Err(e) = emit(chunk)
        {
            write_error = Some(e);
        }
    });
    if let Err(error) = formatted {
        eprint!("{}", fmt_error(file, text, error, output::stderr_text()));
        return Err(EXIT_FINDINGS);
    }
    match write_error {
        None => Ok(()),
        Some(e) => {
            output::say(format!("cannot write {target}: {e}"));
            Err(EXIT_FAILURE)
        }
    }
}

/// `--check`: compares the formatted document with the text chunk by chunk,
/// so neither is held twice.
fn check_formatted(file: &str, text: &str, options: &FormatOptions) -> u8 {
    let input = Input { name: file, text };
    let checked = documents::fmt(input, options, FmtMode::Check, output::stderr_text());
    eprint!("{}", checked.stderr);
    checked.exit.code()
}

/// `--write`: the text is already in memory, so the file is rewritten in
/// place as the chunks come (keeping its inode and permissions); it is opened
/// (and emptied) only at the first chunk, after the check passed.
fn write_back(file: &str, text: &str, options: &FormatOptions) -> u8 {
    let mut opened: Option<std::fs::File> = None;
    let written = stream(file, text, options, &visible(file), |chunk| {
        let out = match &mut opened {
            Some(out) => out,
            None => opened.insert(std::fs::File::create(file)?),
        };
        out.write_all(chunk)
    });
    match written {
        Ok(()) => EXIT_CLEAN,
        Err(code) => code,
    }
}

/// Writes the formatted document to standard output as it is produced, in
/// chunks, so the output is never held whole (a 100 MB document would be
/// 300 MB more in memory). The core checks the text first: a syntax error
/// prints nothing on standard output.
fn stream_to_stdout(file: &str, text: &str, options: &FormatOptions) -> u8 {
    let mut stdout = std::io::stdout().lock();
    match stream(file, text, options, "output", |chunk| stdout.write_all(chunk)).and_then(|()| {
        stdout.flush().map_err(|e| {
            output::say(format!("cannot write output: {e}"));
            EXIT_FAILURE
        })
    }) {
        Ok(()) => EXIT_CLEAN,
        Err(code) => code,
    }
}

/// The text of `path`, or of standard input for `-`, if it is at most
/// `limit` bytes; the error says which and why. No more than `limit` and one
/// byte is ever read.
pub fn read_input(path: &str, limit: u64) -> Result<String, String> {
    let bytes = if path == "-" {
        read_bounded(std::io::stdin().lock(), limit).map_err(|e| format!("cannot read standard input: {e}"))?
    } else {
        read_file(path, limit).map_err(|e| format!("cannot read {path}: {e}"))?
    };
    let Some(bytes) = bytes else {
        return Err(apcheck::commands::documents::too_large(path, limit));
    };
    apcheck::commands::documents::utf8_text(path, bytes)
}

/// What `reader` gives up to `limit` bytes; `None` when it has more.
fn read_bounded(reader: impl Read, limit: u64) -> std::io::Result<Option<Vec<u8>>> {
    let mut bytes = Vec::new();
    reader.take(limit.saturating_add(1)).read_to_end(&mut bytes)?;
    Ok((bytes.len() as u64 <= limit).then_some(bytes))
}

/// Files of at least this many bytes are read in two halves at once. Outside
/// the formatter, most of `fmt`'s time on a 100 MB file is the kernel filling
/// a fresh buffer (a page fault and a copy per page), and that splits across
/// two cores.
#[cfg(unix)]
const READ_IN_HALVES: u64 = 16 << 20;

/// The bytes of the file at `path`, as `std::fs::read` gives them, when
/// there are at most `limit`; a regular file's size is looked at first.
fn read_file(path: &str, limit: u64) -> std::io::Result<Option<Vec<u8>>> {
    let metadata = std::fs::metadata(path)?;
    if metadata.is_file() && metadata.len() > limit {
        return Ok(None);
    }
    #[cfg(unix)]
    if let Some(bytes) = read_in_halves(path)? {
        return Ok((bytes.len() as u64 <= limit).then_some(bytes));
    }
    read_bounded(std::fs::File::open(path)?, limit)
}

/// A big regular file read from two threads; `None` for anything else, or
/// when the file shrank meanwhile (then `std::fs::read` reads it as it is).
#[cfg(unix)]
fn read_in_halves(path: &str) -> std::io::Result<Option<Vec<u8>>> {
    use std::io::{Seek, SeekFrom};
    use std::os::unix::fs::FileExt;

    let mut file = std::fs::File::open(path)?;
    let metadata = file.metadata()?;
    let Ok(length) = usize::try_from(metadata.len()) else {
        return Ok(None);
    };
    if !metadata.is_file() || metadata.len() < READ_IN_HALVES {
        return Ok(None);
    }
    let mut bytes = vec![0; length];
    let (head, tail) = bytes.split_at_mut(length / 2);
    let reader = &file;
    let (head_read, tail_read) = std::thread::scope(|scope| {
        let tail_read = scope.spawn(|| reader.read_exact_at(tail, (length / 2) as u64));
        let head_read = reader.read_exact_at(head, 0);
        (
            head_read,
            tail_read
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
        )
    });
    match (head_read, tail_read) {
        (Ok(()), Ok(())) => {
            // A file that grew meanwhile: what follows is read too.
            file.seek(SeekFrom::Start(metadata.len()))?;
            file.read_to_end(&mut bytes)?;
            Ok(Some(bytes))
        }
        (Err(error), _) | (_, Err(error)) if error.kind() == std::io::ErrorKind::UnexpectedEof => Ok(None),
        (Err(error), _) | (_, Err(error)) => Err(error),
    }
}
