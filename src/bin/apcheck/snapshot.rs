//! `apcheck snapshot PLUGIN [--tools SERVER=FILE]…`: prints the capability
//! snapshot a conformant client would hold; with `--connect`, the one it holds
//! after connecting to every server (hop 4). Also the small edge helpers the
//! snapshot commands share (reading files and packages).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use apcheck::commands::documents::Streams;
use apcheck::commands::snapshot;
use apcheck::disk::read_tree;
use apcheck::exit::Exit;
use apcheck::snapshot::build::{build_connected, build_snapshot};
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
    let root = args.plugin.display().to_string();
    let options = render_options(ColorChoice::Auto).text();
    let mut read = |file: &str| read_text(Path::new(file));
    if !args.connect.connect {
        // The core's, as the npm package runs it.
        let streams = snapshot::snapshot(&root, &tree, &args.tools, &args.failed, &mut read, options);
        return finish(&args, streams);
    }
    // `--tools` conflicts with `--connect`: none to read.
    let report = apcheck::check_package(&root, &tree);
    let mut all_connected = true;
    let built = if report.plugin.state == apcheck::report::PluginState::Loaded && !report.is_incomplete() {
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
        build_snapshot(&report, &[])
    };
    let mut streams = snapshot::finish(&report, &tree, built, &args.failed, options, String::new());
    // With --connect: 1 when a tried server failed (§7.2.2 rule 5), the snapshot still written.
    if streams.exit == Exit::Clean && !all_connected {
        streams.exit = Exit::Findings;
    }
    finish(&args, streams)
}

/// Says what goes to stderr, then writes the snapshot to `--output` or stdout.
fn finish(args: &SnapshotArgs, streams: Streams) -> ExitCode {
    eprint!("{}", streams.stderr);
    let code = exit_code(streams.exit);
    if streams.exit == Exit::Failure || streams.stdout.is_empty() {
        return code;
    }
    match &args.output {
        Some(path) => match std::fs::write(path, &streams.stdout) {
            Ok(()) => code,
            Err(e) => fail(format!("cannot write {}: {e}", path.display())),
        },
        None => emit(&streams.stdout, code),
    }
}
