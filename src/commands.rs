//! The I/O-free half of the snapshot commands (`check-snapshot`, `drift`,
//! `changes`, `call`): from the texts and the package a face has read, to the
//! rendered output and the exit it ends with. The CLI and the npm package's
//! `apcheck` call these with what they read from disk, so the two print the
//! same bytes and exit alike by construction, not by two copies kept in step.

use std::borrow::Cow;

use crate::diag::Diagnostic;
use crate::exit::{Exit, for_diagnostics};
use crate::render::snapshot::{self as render, SnapshotFile};
use crate::render::{Format, Options, RootedTree, Sources};
use crate::snapshot::call::{ARGUMENTS_UNCHECKED, check_call};
use crate::snapshot::changes::compare;
use crate::snapshot::drift::drift as compare_with_package;
use crate::snapshot::lint_snapshot;
use crate::tree::Tree;

/// A file a command reads whole (a snapshot, an arguments object), under the
/// name its findings give it: the path as the user wrote it.
#[derive(Clone, Copy)]
pub struct Input<'t> {
    pub name: &'t str,
    pub text: &'t str,
}

/// What a command prints and how it ends.
pub struct Outcome {
    pub output: String,
    pub exit: Exit,
}

/// The texts a command read, and the plugin root it read if any, as the
/// renderer's snippets find them by the file names in the findings.
struct Read<'t> {
    inputs: &'t [Input<'t>],
    package: Option<RootedTree<'t>>,
}

impl Sources for Read<'_> {
    fn text(&self, path: &str) -> Option<Cow<'_, str>> {
        match self.inputs.iter().find(|input| input.name == path) {
            Some(input) => Some(Cow::Borrowed(input.text)),
            None => self.package.as_ref()?.text(path),
        }
    }
}

/// `apcheck check-snapshot FILE… [--plugin DIR]`: each snapshot linted, with
/// the plugin root's files at hand when `plugin` is given.
pub fn check_snapshots(files: &[Input], plugin: Option<&Tree>, format: Format, options: &Options) -> Outcome {
    let linted: Vec<SnapshotFile> = files
        .iter()
        .map(|input| {
            let lint = lint_snapshot(input.name, input.text, plugin);
            SnapshotFile {
                file: input.name.to_string(),
                valid: lint.valid,
                diagnostics: lint.diagnostics,
            }
        })
        .collect();
    let sources = Read {
        inputs: files,
        package: None,
    };
    let output = render::check_snapshots(&linted, format, &sources, options);
    let all: Vec<Diagnostic> = linted.into_iter().flat_map(|file| file.diagnostics).collect();
    Outcome {
        output,
        exit: for_diagnostics(&all),
    }
}

/// `apcheck drift SNAPSHOT PLUGIN`: the snapshot against the packaging files
/// of `tree`, the plugin root named `root`.
pub fn drift(snapshot: Input, root: &str, tree: &Tree, format: Format, options: &Options) -> Outcome {
    let report = compare_with_package(snapshot.name, snapshot.text, root, tree);
    let inputs = [snapshot];
    let sources = Read {
        inputs: &inputs,
        package: Some(RootedTree { tree, root }),
    };
    Outcome {
        output: render::drift(&report, format, &sources, options),
        exit: report.exit(),
    }
}

/// `apcheck changes OLD NEW`: what changed between two snapshots, and whether it breaks.
pub fn changes(old: Input, new: Input, format: Format, options: &Options) -> Outcome {
    let report = compare(old.name, old.text, new.name, new.text);
    // The newer file first: when both are named alike, the findings quote it.
    let inputs = [new, old];
    let sources = Read {
        inputs: &inputs,
        package: None,
    };
    Outcome {
        output: render::changes(&report, format, &sources, options),
        exit: for_diagnostics(&report.diagnostics),
    }
}

/// `apcheck call SNAPSHOT TOOL ARGS.json`: `tools/call` arguments against the
/// input schema of a tool of the snapshot.
pub fn call(snapshot: Input, tool: &str, arguments: Input, format: Format, options: &Options) -> Outcome {
    let report = check_call(snapshot.name, snapshot.text, tool, arguments.name, arguments.text);
    let shown = report.tool.as_deref().unwrap_or(tool);
    let inputs = [snapshot, arguments];
    let sources = Read {
        inputs: &inputs,
        package: None,
    };
    let output = render::call(&report, shown, format, &sources, options);
    // Arguments that got no verdict are an incomplete check, as in `validate`:
    // never the clean exit.
    let unchecked = report.diagnostics.iter().any(|d| d.code == ARGUMENTS_UNCHECKED.code);
    Outcome {
        output,
        exit: if unchecked {
            Exit::Failure
        } else {
            for_diagnostics(&report.diagnostics)
        },
    }
}

pub mod documents;
// `new`, `port` and `snapshot`: the CLI's and the npm package's only, not in
// the page's wasm (its size budget; the page builds snapshots through
// `snapshot::page`).
#[cfg(any(not(target_arch = "wasm32"), feature = "node"))]
pub mod files;
#[cfg(any(not(target_arch = "wasm32"), feature = "node"))]
pub mod snapshot;
