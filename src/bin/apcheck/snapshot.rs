//! `apcheck snapshot PLUGIN [--tools SERVER=FILE]…`: prints the capability
//! snapshot a conformant client would hold; with `--connect`, the one it holds
//! after connecting to every server (hop 4). Also the small edge helpers the
//! snapshot commands share (reading files and packages).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use apcheck::collection::roots_named;
use apcheck::disk::read_tree;
use apcheck::exit::Exit;
use apcheck::render::snapshot::rejected;
use apcheck::snapshot::build::{BuildError, build_connected, build_snapshot, mark_failed};
use apcheck::snapshot::tools_list::{ToolsList, read_tools_list};
use apcheck::tree::{Limits, Tree};

use crate::connect::ConnectArgs;
use crate::output::{ColorChoice, emit, exit_code, fail, render_options};

#[derive(clap::Args)]
pub struct SnapshotArgs {
    /// The plugin root directory.
    plugin: PathBuf,
    /// A `tools/list` result for one server (JSON-RPC response, bare result,
    /// array of pages, or an initialize + tools/list capture); repeatable.
    #[arg(long = "tools", value_name = "SERVER=FILE", conflicts_with = "connect")]
    tools: Vec<String>,
    /// Record that a valid server failed to connect, with the reason the client
    /// reported (Agent Plugins §7.2.2 rule 5); repeatable.
    #[arg(long = "failed", value_name = "SERVER=REASON", conflicts_with = "connect")]
    failed: Vec<String>,
    /// Write the snapshot here instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    #[command(flatten)]
    connect: ConnectArgs,
}

/// The UTF-8 text of `path`, or the message to fail with.
pub fn read_text(path: &Path) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))
}

/// The package tree at `path`, or the message to fail with.
pub fn read_package(path: &Path) -> Result<Tree, String> {
    read_tree(path, Limits::default()).map_err(|e| format!("cannot read plugin root {}: {e}", path.display()))
}

pub fn run(args: SnapshotArgs) -> ExitCode {
    let tree = match read_package(&args.plugin) {
        Ok(tree) => tree,
        Err(message) => return fail(message),
    };
    let mut tools: Vec<(String, ToolsList)> = Vec::new();
    for spec in &args.tools {
        let Some((server, file)) = spec.split_once('=').filter(|(s, f)| !s.is_empty() && !f.is_empty()) else {
            return fail(format!("--tools takes SERVER=FILE, not `{spec}`"));
        };
        if tools.iter().any(|(s, _)| s == server) {
            return fail(format!(
                "--tools given twice for server `{server}`; put all pages in one file"
            ));
        }
        let text = match read_text(Path::new(file)) {
            Ok(text) => text,
            Err(message) => return fail(message),
        };
        match read_tools_list(&text) {
            Ok(list) => {
                if list.incomplete {
                    crate::output::say(format!(
                        "warning: {file}: the last page has a nextCursor; the tool list is incomplete"
                    ));
                }
                tools.push((server.to_string(), list));
            }
            Err(error) => return fail(format!("{file}:{error}")),
        }
    }
    let root = args.plugin.display().to_string();
    let report = apcheck::check_package(&root, &tree);
    let mut all_connected = true;
    let built = if args.connect.connect
        && report.plugin.state == apcheck::report::PluginState::Loaded
        && !report.is_incomplete()
    {
        let run = match crate::connect::run(&args.plugin, &report, &args.connect) {
            Ok(run) => run,
            Err(message) => return fail(message),
        };
        if run.interrupted {
            return exit_code(Exit::Failure);
        }
        all_connected = run.attempts.iter().all(|a| a.outcome.is_ok());
        let connections: Vec<_> = run.attempts.iter().map(|a| a.connection()).collect();
        build_connected(&report, &connections)
    } else {
        build_snapshot(&report, &tools)
    };
    let mut snapshot = match built {
        Ok(snapshot) => snapshot,
        // No snapshot over a gap either: it would pass off a part as the whole package.
        // The findings say what was not read.
        Err(error @ (BuildError::Rejected | BuildError::Incomplete { .. })) => {
            let options = render_options(ColorChoice::Auto);
            eprint!(
                "{}",
                rejected(&report, &tree, &roots_named(&tree), &error, options.text())
            );
            return exit_code(Exit::Findings);
        }
        Err(error) => return fail(error),
    };
    // A reason pasted from a client may echo what the package configures for
    // its servers, as a server's own output may at the live edge.
    let known = (!args.failed.is_empty()).then(|| report.package.configured_secrets());
    for spec in &args.failed {
        let Some((server, reason)) = spec.split_once('=').filter(|(s, r)| !s.is_empty() && !r.is_empty()) else {
            return fail(format!("--failed takes SERVER=REASON, not `{spec}`"));
        };
        let reason = known.as_ref().map_or(reason.into(), |known| known.mask(reason));
        if let Err(error) = mark_failed(&mut snapshot, server, &reason) {
            return fail(error);
        }
    }
    let text = snapshot.to_pretty_json();
    // With --connect: 1 when a tried server failed (§7.2.2 rule 5), the snapshot still written.
    let code = exit_code(Exit::findings_if(!all_connected));
    match &args.output {
        Some(path) => match std::fs::write(path, text) {
            Ok(()) => code,
            Err(e) => fail(format!("cannot write {}: {e}", path.display())),
        },
        None => emit(&text, code),
    }
}
