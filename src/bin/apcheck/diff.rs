//! `apcheck diff A B`: what changed between two JSON documents, as a readable
//! list, data, an RFC 6902 patch, an RFC 7386 merge patch, or a unified diff.
//! Exit 0 when equal, 1 when different, 2 on usage or input errors.

use std::process::ExitCode;

use apcheck::commands::Input;
use apcheck::commands::documents::{self, DiffFormat, DiffView, Streams};
use apcheck::exit::Exit;
use apcheck::json::tools::DIFF_INPUT_LIMIT;

use crate::fmt::read_input;
use crate::output::{self, ColorChoice};

#[derive(clap::Args)]
pub struct DiffArgs {
    /// The old document (`-` for standard input).
    a: String,
    /// The new document.
    b: String,
    /// text (paths, old → new), json (the same as data), patch (RFC 6902),
    /// merge (RFC 7386), unified (text diff of the canonical pretty forms).
    #[arg(long, default_value = "text", value_parser = ["text", "json", "patch", "merge", "unified"])]
    format: String,
    /// Match array elements by a member: `name` for every array, or per path
    /// `/tools=name`, `/servers/*/tools=server+name`. Repeatable; tried in order.
    #[arg(long = "array-key", value_name = "[PATH=]KEY")]
    array_keys: Vec<String>,
    /// Do not match /tools, /result/tools, /skills by name and /mcpServers by id.
    #[arg(long)]
    no_default_keys: bool,
    /// Leave out what this pointer names; `*` matches any member or index
    /// (`/mcpServers/*/status`). Repeatable.
    #[arg(long, value_name = "POINTER")]
    ignore: Vec<String>,
    /// Colours, and changed words in reverse video in unified diffs: auto (on a terminal), always, never.
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    color: ColorChoice,
}

pub fn diff(args: DiffArgs) -> ExitCode {
    let streams = run(&args).unwrap_or_else(|message| Streams {
        stderr: message,
        exit: Exit::Failure,
        ..Streams::default()
    });
    eprint!("{}", streams.stderr);
    print!("{}", streams.stdout);
    output::exit_code(streams.exit)
}

/// Reads the two documents and compares them; `Err` with the stderr text
/// when the options or the reading refuse.
fn run(args: &DiffArgs) -> Result<Streams, String> {
    let options = documents::diff_options(&args.array_keys, args.no_default_keys, &args.ignore)?;
    // Refused before reading when the files' sizes already say so.
    let size = |path: &str| {
        (path != "-")
            .then(|| std::fs::metadata(path).ok())
            .flatten()
            .map(|m| m.len())
    };
    if let (Some(a), Some(b)) = (size(&args.a), size(&args.b)) {
        documents::diff_size(a.saturating_add(b))?;
    }
    // Each read is bounded too: a pipe or a device has no size to look at first.
    let limit = DIFF_INPUT_LIMIT as u64;
    let a_text = read_input(&args.a, limit).map_err(output::line)?;
    let b_text = read_input(&args.b, limit).map_err(output::line)?;
    let view = DiffView {
        format: DiffFormat::from_name(&args.format).expect("clap offers only the formats' names"),
        color: args.color.enabled(),
        stderr: output::stderr_text(),
        exiting: true,
    };
    let a = Input {
        name: &args.a,
        text: &a_text,
    };
    let b = Input {
        name: &args.b,
        text: &b_text,
    };
    Ok(documents::diff(a, b, options, view))
}
