//! `apcheck snapshot PLUGIN [--tools SERVER=FILE]…`: prints the capability
//! snapshot a conformant client would hold. Also the small edge helpers the
//! snapshot commands share (output format, reading files, exit codes).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use apcheck::Diagnostic;
use apcheck::diag::Severity;
use apcheck::disk::read_tree;
use apcheck::snapshot::build::build_snapshot;
use apcheck::snapshot::render;
use apcheck::snapshot::tools_list::{ToolsList, read_tools_list};
use apcheck::tree::{Limits, Tree};

#[derive(clap::Args)]
pub struct SnapshotArgs {
    /// The plugin root directory.
    plugin: PathBuf,
    /// A `tools/list` result for one server (JSON-RPC response, bare result,
    /// array of pages, or an initialize + tools/list capture); repeatable.
    #[arg(long = "tools", value_name = "SERVER=FILE")]
    tools: Vec<String>,
    /// Write the snapshot here instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
}

/// How the snapshot commands print their report.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    #[default]
    Text,
    Json,
    Markdown,
}

/// Exit code 2 with a message: usage or I/O failure.
pub fn fail(message: impl std::fmt::Display) -> ExitCode {
    eprintln!("apcheck: {message}");
    ExitCode::from(2)
}

/// The UTF-8 text of `path`, or the message to fail with.
pub fn read_text(path: &Path) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))
}

/// The package tree at `path`, or the message to fail with.
pub fn read_package(path: &Path) -> Result<Tree, String> {
    read_tree(path, Limits::default()).map_err(|e| format!("cannot read plugin root {}: {e}", path.display()))
}

/// 1 when any finding is an error, else 0.
pub fn exit_for(diagnostics: &[Diagnostic]) -> ExitCode {
    if diagnostics.iter().any(|d| d.severity == Severity::Error) {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// Prints `value` as pretty JSON.
pub fn print_json(value: &impl serde::Serialize) {
    println!("{}", serde_json::to_string_pretty(value).expect("reports serialize"));
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
                    eprintln!("apcheck: warning: {file}: the last page has a nextCursor; the tool list is incomplete");
                }
                tools.push((server.to_string(), list));
            }
            Err(error) => return fail(format!("{file}:{error}")),
        }
    }
    let root = args.plugin.display().to_string();
    let report = apcheck::check_package(&root, &tree);
    let snapshot = match build_snapshot(&report, &tools) {
        Ok(snapshot) => snapshot,
        Err(error @ apcheck::snapshot::build::BuildError::Rejected) => {
            eprint!("{}", render::diagnostics_text(&report.diagnostics));
            eprintln!("apcheck: {root}: {error}");
            return ExitCode::from(1);
        }
        Err(error) => return fail(error),
    };
    let text = snapshot.to_pretty_json();
    match &args.output {
        Some(path) => {
            if let Err(e) = std::fs::write(path, text) {
                return fail(format!("cannot write {}: {e}", path.display()));
            }
        }
        None => print!("{text}"),
    }
    ExitCode::SUCCESS
}
