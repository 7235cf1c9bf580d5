//! `apcheck diff A B`: what changed between two JSON documents, as a readable
//! list, data, an RFC 6902 patch, an RFC 7386 merge patch, or a unified diff.
//! Exit 0 when equal, 1 when different, 2 on usage or input errors.

use std::process::ExitCode;

use apcheck::exit::Exit;
use apcheck::json::diff::unified::unified;
use apcheck::json::diff::{CompareOption, CompareOptions, Side, canonical_text, merge::merge_patch};
use apcheck::json::tools::{DIFF_INPUT_LIMIT, DiffProblem, DiffRequest, check_diff_size, diff_changes, diff_documents};
use apcheck::render::diff::{Style, changes_json, changes_text, unified_text};
use apcheck::render::documents::parse_error;

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
    match run(&args) {
        Ok(equal) => output::exit_code(Exit::findings_if(!equal)),
        Err(message) => {
            eprint!("{message}");
            output::exit_code(Exit::Failure)
        }
    }
}

/// Prints the comparison; `Ok(true)` when the documents are equal.
fn run(args: &DiffArgs) -> Result<bool, String> {
    let options =
        CompareOptions::parse(&args.array_keys, args.no_default_keys, &args.ignore).map_err(|(option, message)| {
            let flag = match option {
                CompareOption::ArrayKeys => "--array-key",
                CompareOption::Ignore => "--ignore",
            };
            output::line(format!("{flag}: {message}"))
        })?;
    // Refused before reading when the files' sizes already say so.
    let size = |path: &str| {
        (path != "-")
            .then(|| std::fs::metadata(path).ok())
            .flatten()
            .map(|m| m.len())
    };
    if let (Some(a), Some(b)) = (size(&args.a), size(&args.b)) {
        let bytes = usize::try_from(a.saturating_add(b)).unwrap_or(usize::MAX);
        check_diff_size(bytes).map_err(output::line)?;
    }
    // Each read is bounded too: a pipe or a device has no size to look at first.
    let limit = DIFF_INPUT_LIMIT as u64;
    let a_text = read_input(&args.a, limit).map_err(output::line)?;
    let b_text = read_input(&args.b, limit).map_err(output::line)?;
    let pruned = !options.ignore.is_empty();
    let request = DiffRequest {
        options,
        lines: matches!(args.format.as_str(), "text" | "json"),
    };
    let not_compared = |problem| match problem {
        DiffProblem::NotJson(e) if e.side == Side::A => parse_error(&args.a, &a_text, &e.error, output::stderr_text()),
        DiffProblem::NotJson(e) => parse_error(&args.b, &b_text, &e.error, output::stderr_text()),
        too_large => output::line(too_large),
    };
    let style = Style::new(args.color.enabled());
    let equal = match args.format.as_str() {
        // The two views that need whole documents; the others need only the
        // changes and the patch, which come from far leaner documents.
        "merge" | "unified" => {
            let comparison = diff_documents(&a_text, &b_text, &request).map_err(not_compared)?;
            if args.format == "merge" {
                let merge = merge_patch(&comparison.a, &comparison.b);
                for pointer in &merge.lossy {
                    eprintln!(
                        "warning: {} is null in B; a merge patch deletes it instead (use --format patch)",
                        apcheck::render::escape::visible(pointer)
                    );
                }
                println!("{}", pretty(&merge.patch));
            } else {
                let a = canonical_text(&a_text, &comparison.a, pruned);
                let b = canonical_text(&b_text, &comparison.b, pruned);
                print!("{}", unified_text(&unified(&a, &b, &args.a, &args.b), &style));
            }
            let equal = comparison.diff.is_empty();
            // Freeing two big trees node by node costs more than diffing them; the
            // process is about to exit and returns the memory at once.
            std::mem::forget(comparison);
            equal
        }
        format => {
            let diff = diff_changes(&a_text, &b_text, &request).map_err(not_compared)?;
            match format {
                "patch" => println!("{}", pretty(&diff.patch)),
                "json" => println!("{}", pretty(&changes_json(&diff))),
                _ => print!("{}", changes_text(&diff, &args.a, &args.b, &style)),
            }
            diff.is_empty()
        }
    };
    Ok(equal)
}

fn pretty(value: &impl serde::Serialize) -> String {
    serde_json::to_string_pretty(value).expect("JSON values serialize")
}
