//! `apcheck diff A B`: what changed between two JSON documents, as a readable
//! list, data, an RFC 6902 patch, an RFC 7386 merge patch, or a unified diff.
//! Exit 0 when equal, 1 when different, 2 on usage or input errors.

use std::process::ExitCode;

use apcheck::json::diff::unified::{UnifiedDiff, unified};
use apcheck::json::diff::{
    ArrayKey, Change, ChangeKind, CompareOptions, IgnorePattern, Side, canonical_text, merge::merge_patch,
};
use apcheck::json::tools::{DiffProblem, DiffRequest, check_diff_size, diff_documents};
use serde_json::Value;

use crate::fmt::{read_input, render_parse_error};
use crate::output::{ColorChoice, EXIT_CLEAN, EXIT_FAILURE, EXIT_FINDINGS};

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
        Ok(true) => ExitCode::from(EXIT_CLEAN),
        Ok(false) => ExitCode::from(EXIT_FINDINGS),
        Err(message) => {
            eprint!("{message}");
            ExitCode::from(EXIT_FAILURE)
        }
    }
}

/// Prints the comparison; `Ok(true)` when the documents are equal.
fn run(args: &DiffArgs) -> Result<bool, String> {
    let options = CompareOptions {
        array_keys: args
            .array_keys
            .iter()
            .map(|spec| ArrayKey::parse(spec))
            .collect::<Result<_, _>>()
            .map_err(|m| format!("apcheck: --array-key: {m}\n"))?,
        no_default_keys: args.no_default_keys,
        ignore: args
            .ignore
            .iter()
            .map(|pattern| IgnorePattern::parse(pattern))
            .collect::<Result<_, _>>()
            .map_err(|m| format!("apcheck: --ignore: {m}\n"))?,
    };
    // Refused before reading when the files' sizes already say so.
    let size = |path: &str| {
        (path != "-")
            .then(|| std::fs::metadata(path).ok())
            .flatten()
            .map(|m| m.len())
    };
    if let (Some(a), Some(b)) = (size(&args.a), size(&args.b)) {
        let bytes = usize::try_from(a.saturating_add(b)).unwrap_or(usize::MAX);
        check_diff_size(bytes).map_err(|problem| format!("apcheck: {problem}\n"))?;
    }
    let a_text = read_input(&args.a).map_err(|m| format!("apcheck: {m}\n"))?;
    let b_text = read_input(&args.b).map_err(|m| format!("apcheck: {m}\n"))?;
    let pruned = !options.ignore.is_empty();
    let request = DiffRequest {
        options,
        lines: matches!(args.format.as_str(), "text" | "json"),
    };
    let comparison = diff_documents(&a_text, &b_text, &request).map_err(|problem| match problem {
        DiffProblem::NotJson(e) if e.side == Side::A => render_parse_error(&args.a, &a_text, &e.error),
        DiffProblem::NotJson(e) => render_parse_error(&args.b, &b_text, &e.error),
        too_large => format!("apcheck: {too_large}\n"),
    })?;
    let equal = comparison.diff.is_empty();
    match args.format.as_str() {
        "patch" => println!("{}", pretty(&comparison.diff.patch)),
        "merge" => {
            let merge = merge_patch(&comparison.a, &comparison.b);
            for pointer in &merge.lossy {
                eprintln!("warning: {pointer} is null in B; a merge patch deletes it instead (use --format patch)");
            }
            println!("{}", pretty(&merge.patch));
        }
        "unified" => {
            let a = canonical_text(&a_text, &comparison.a, pruned);
            let b = canonical_text(&b_text, &comparison.b, pruned);
            let style = Style::new(args.color);
            print!("{}", render_unified(&unified(&a, &b, &args.a, &args.b), &style));
        }
        format => {
            let [added, removed, changed, moved] = comparison.diff.counts();
            if format == "json" {
                let out = serde_json::json!({
                    "equal": equal,
                    "summary": {"added": added, "removed": removed, "changed": changed, "moved": moved},
                    "changes": comparison.diff.changes,
                });
                println!("{}", pretty(&out));
            } else {
                let style = Style::new(args.color);
                for change in &comparison.diff.changes {
                    print!("{}", render_change(change, &args.a, &args.b, &style));
                }
                if equal {
                    println!("no differences");
                } else {
                    println!("{added} added, {removed} removed, {changed} changed, {moved} moved");
                }
            }
        }
    }
    // Freeing two big trees node by node costs more than diffing them; the
    // process is about to exit and returns the memory at once.
    std::mem::forget(comparison);
    Ok(equal)
}

fn pretty(value: &impl serde::Serialize) -> String {
    serde_json::to_string_pretty(value).expect("JSON values serialize")
}

/// ANSI colours (by default only when printing to a terminal), or nothing.
struct Style {
    added: &'static str,
    removed: &'static str,
    changed: &'static str,
    emphasis: &'static str,
    reset: &'static str,
}

impl Style {
    fn new(color: ColorChoice) -> Self {
        if color.enabled() {
            Style {
                added: "\x1b[32m",
                removed: "\x1b[31m",
                changed: "\x1b[33m",
                emphasis: "\x1b[7m",
                reset: "\x1b[0m",
            }
        } else {
            Style {
                added: "",
                removed: "",
                changed: "",
                emphasis: "",
                reset: "",
            }
        }
    }
}

/// A value on one line, cut to a readable length.
fn brief(value: &Value) -> String {
    const WIDTH: usize = 100;
    let text = value.to_string();
    match text.char_indices().nth(WIDTH) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text,
    }
}

fn render_change(change: &Change, a_name: &str, b_name: &str, style: &Style) -> String {
    let at = |name: &str, line: Option<usize>| line.map(|l| format!("{name}:{l}"));
    let place = match (at(a_name, change.old_line), at(b_name, change.new_line)) {
        (Some(a), Some(b)) => format!("  ({a} → {b})"),
        (Some(one), None) | (None, Some(one)) => format!("  ({one})"),
        (None, None) => String::new(),
    };
    let (sign, colour) = match change.kind {
        ChangeKind::Added => ("+", style.added),
        ChangeKind::Removed => ("-", style.removed),
        ChangeKind::Changed => ("~", style.changed),
        ChangeKind::Moved => ("↷", style.changed),
    };
    let reset = style.reset;
    let mut out = format!("{colour}{sign} {}{reset}{place}\n", change.label);
    if change.kind == ChangeKind::Moved {
        let from = change.old_path.as_deref().unwrap_or(&change.path);
        out.push_str(&format!("    moved from {from} to {}\n", change.path));
    }
    if let Some(old) = &change.old {
        out.push_str(&format!("    {}- {}{reset}\n", style.removed, brief(old)));
    }
    if let Some(new) = &change.new {
        out.push_str(&format!("    {}+ {}{reset}\n", style.added, brief(new)));
    }
    out
}

/// The unified text; with colours, the changed words in reverse video.
fn render_unified(diff: &UnifiedDiff, style: &Style) -> String {
    if style.reset.is_empty() {
        return diff.text.clone();
    }
    let mut out = String::new();
    for line in diff.text.lines().take_while(|l| !l.starts_with("@@")) {
        out.push_str(&format!("\x1b[1m{line}{}\n", style.reset));
    }
    for hunk in &diff.hunks {
        out.push_str(&format!("\x1b[36m{}{}\n", hunk.header.trim_end(), style.reset));
        for line in &hunk.lines {
            let colour = match line.tag {
                "-" => style.removed,
                "+" => style.added,
                _ => "",
            };
            out.push_str(colour);
            out.push_str(line.tag);
            for segment in &line.segments {
                if segment.emphasized {
                    out.push_str(&format!("{}{}{}{colour}", style.emphasis, segment.text, style.reset));
                } else {
                    out.push_str(&segment.text);
                }
            }
            out.push_str(style.reset);
            out.push('\n');
        }
    }
    out
}
