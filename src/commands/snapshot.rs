//! `apcheck snapshot PLUGIN [--tools SERVER=FILE]… [--failed SERVER=REASON]…`
//! without `--connect`, I/O-free: from the plugin root a face has read (and
//! each `--tools` file, read through the face's `read`), to what goes to
//! standard output and standard error and the exit. The CLI and the npm
//! package's `apcheck` both call it, so the two print the same bytes.

use crate::collection::roots_named;
use crate::commands::documents::{Streams, line};
use crate::exit::Exit;
use crate::render::TextOptions;
use crate::render::snapshot::rejected;
use crate::report::PackageReport;
use crate::snapshot::build::{BuildError, build_snapshot, mark_failed};
use crate::snapshot::model::Snapshot;
use crate::snapshot::tools_list::{ToolsList, read_tools_list};
use crate::tree::Tree;

/// Reads a `--tools` file: its text, or the whole message to fail with (`cannot read FILE: …`).
pub type ReadText<'r> = dyn FnMut(&str) -> Result<String, String> + 'r;

/// The `tools/list` results of `--tools SERVER=FILE`, in the order given,
/// each file read by `read`; the warnings about them (an incomplete list) are
/// added to `stderr`. The error is the message to fail with (exit 2).
pub fn tools_lists(
    specs: &[String],
    read: &mut ReadText,
    stderr: &mut String,
) -> Result<Vec<(String, ToolsList)>, String> {
    let mut tools: Vec<(String, ToolsList)> = Vec::new();
    for spec in specs {
        let Some((server, file)) = spec.split_once('=').filter(|(s, f)| !s.is_empty() && !f.is_empty()) else {
            return Err(format!("--tools takes SERVER=FILE, not `{spec}`"));
        };
        if tools.iter().any(|(s, _)| s == server) {
            return Err(format!(
                "--tools given twice for server `{server}`; put all pages in one file"
            ));
        }
        let text = read(file)?;
        let list = read_tools_list(&text).map_err(|error| format!("{file}:{error}"))?;
        if list.incomplete {
            stderr.push_str(&line(format!(
                "warning: {file}: the last page has a nextCursor; the tool list is incomplete"
            )));
        }
        tools.push((server.to_string(), list));
    }
    Ok(tools)
}

/// `apcheck snapshot PLUGIN` without `--connect`: the plugin root `tree`,
/// named `root` as on the command line, with the `--tools` lists (files read
/// by `read`) and the `--failed` servers. `options` colour the findings of a
/// plugin that has no snapshot (said on standard error). The snapshot goes to
/// standard output, or to `--output` at the face.
pub fn snapshot(
    root: &str,
    tree: &Tree,
    tools: &[String],
    failed: &[String],
    read: &mut ReadText,
    options: TextOptions,
) -> Streams {
    let mut stderr = String::new();
    let tools = match tools_lists(tools, read, &mut stderr) {
        Ok(tools) => tools,
        Err(message) => return failure(stderr, message),
    };
    let report = crate::check_package(root, tree);
    let built = build_snapshot(&report, &tools);
    finish(&report, tree, built, failed, options, stderr)
}

/// The snapshot built (or why there is none) for the plugin `report` and
/// `tree` describe, with the `--failed` servers marked: the pretty JSON on
/// standard output, exit 0; the findings and why for a rejected or
/// incomplete plugin, exit 1; a usage failure, exit 2. `stderr` is what was
/// said before, kept first.
pub fn finish(
    report: &PackageReport,
    tree: &Tree,
    built: Result<Snapshot, BuildError>,
    failed: &[String],
    options: TextOptions,
    mut stderr: String,
) -> Streams {
    let mut snapshot = match built {
        Ok(snapshot) => snapshot,
        // No snapshot over a gap either: it would pass off a part as the whole package.
        // The findings say what was not read.
        Err(error @ (BuildError::Rejected | BuildError::Incomplete { .. })) => {
            stderr.push_str(&rejected(report, tree, &roots_named(tree), &error, options));
            return Streams {
                stdout: String::new(),
                stderr,
                exit: Exit::Findings,
            };
        }
        Err(error) => return failure(stderr, error),
    };
    // A reason pasted from a client may echo what the package configures for
    // its servers, as a server's own output may at the live edge.
    let known = (!failed.is_empty()).then(|| report.package.configured_secrets());
    for spec in failed {
        let Some((server, reason)) = spec.split_once('=').filter(|(s, r)| !s.is_empty() && !r.is_empty()) else {
            return failure(stderr, format!("--failed takes SERVER=REASON, not `{spec}`"));
        };
        let reason = known.as_ref().map_or(reason.into(), |known| known.mask(reason));
        if let Err(error) = mark_failed(&mut snapshot, server, &reason) {
            return failure(stderr, error);
        }
    }
    Streams {
        stdout: snapshot.to_pretty_json(),
        stderr,
        exit: Exit::Clean,
    }
}

/// Ends with MESSAGE after what STDERR already holds.
fn failure(stderr: String, message: impl std::fmt::Display) -> Streams {
    Streams::failure(stderr + &line(message))
}
