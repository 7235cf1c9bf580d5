//! The npm CLI's commands beyond `check` (feature `node`, as `node.rs`): the
//! same core calls and renderers as the Rust CLI's `rules`, `explain`,
//! `check-snapshot`, `drift` and `changes`, so `npx apcheck` prints what the
//! native binary prints. The JS edge (`npm/bin/apcheck.js`) reads the files
//! and parses the flags; each export returns the output and the exit code as
//! `{"output": "..", "exit": N}`.

use std::borrow::Cow;

use wasm_bindgen::prelude::*;

use super::PackageTree;
use super::args::{args, thrown};
use crate::exit::{Exit, for_diagnostics};
use crate::render::snapshot::{SnapshotFile, check_snapshots};
use crate::render::{FnSources, Format, Options, RootedTree, Sources, rules, snapshot};

fn options(color: bool, source_root: Option<String>) -> Options {
    Options {
        color,
        source_root,
        quiet: false,
    }
}

fn format_named(name: &str) -> Result<Format, JsError> {
    Format::from_name(name).ok_or_else(|| JsError::new(&format!("no format is named {name:?}")))
}

fn outcome(output: String, exit: Exit) -> String {
    serde_json::json!({ "output": output, "exit": exit.code() }).to_string()
}

/// `apcheck rules --format FORMAT` (`text` or `json`).
#[wasm_bindgen(js_name = cliRules)]
pub fn cli_rules(json: bool) -> String {
    let all: Vec<&crate::rule::Rule> = crate::registry::all().collect();
    if json { rules::json(&all) } else { rules::table(&all) }
}

/// `apcheck explain CODE --format FORMAT`, or `undefined` when no rule has
/// that code or name (as the CLI, which does not trim it).
#[wasm_bindgen(js_name = cliExplain)]
pub fn cli_explain(code_or_name: JsValue, json: bool) -> Result<Option<String>, JsError> {
    args!(thrown; string code_or_name);
    Ok(crate::registry::find(&code_or_name).map(|rule| if json { rules::json(rule) } else { rules::explain(rule) }))
}

/// `apcheck changes OLD NEW`: the files as named on the command line, and their texts.
#[wasm_bindgen(js_name = cliChanges)]
pub fn cli_changes(
    old_name: JsValue,
    old_text: JsValue,
    new_name: JsValue,
    new_text: JsValue,
    format: JsValue,
    color: bool,
    source_root: Option<String>,
) -> Result<String, JsError> {
    args!(thrown; string old_name, string old_text, string new_name, string new_text, string format);
    let format = format_named(&format)?;
    let report = crate::snapshot::changes::compare(&old_name, &old_text, &new_name, &new_text);
    let sources = |file: &str| {
        if file == new_name {
            Some(Cow::Borrowed(new_text.as_str()))
        } else if file == old_name {
            Some(Cow::Borrowed(old_text.as_str()))
        } else {
            None
        }
    };
    let out = snapshot::changes(&report, format, &FnSources(&sources), &options(color, source_root));
    Ok(outcome(out, for_diagnostics(&report.diagnostics)))
}

#[wasm_bindgen]
impl PackageTree {
    /// `apcheck check-snapshot FILE… [--plugin DIR]`: `names` and `texts` pair
    /// up; with `plugin`, this package is the `--plugin` root (else it is unused).
    #[wasm_bindgen(js_name = cliCheckSnapshot)]
    pub fn cli_check_snapshot(
        &self,
        plugin: bool,
        names: JsValue,
        texts: JsValue,
        format: JsValue,
        color: bool,
        source_root: Option<String>,
    ) -> Result<String, JsError> {
        args!(thrown; strings names, strings texts, string format);
        let format = format_named(&format)?;
        if names.len() != texts.len() {
            return thrown(format!("{} names for {} texts", names.len(), texts.len()));
        }
        let tree = plugin.then_some(&self.tree);
        let files: Vec<SnapshotFile> = names
            .iter()
            .zip(&texts)
            .map(|(name, text)| {
                let lint = crate::snapshot::lint_snapshot(name, text, tree);
                SnapshotFile {
                    file: name.clone(),
                    valid: lint.valid,
                    diagnostics: lint.diagnostics,
                }
            })
            .collect();
        let find = |file: &str| {
            names
                .iter()
                .position(|name| name == file)
                .map(|index| Cow::Borrowed(texts[index].as_str()))
        };
        let out = check_snapshots(&files, format, &FnSources(&find), &options(color, source_root));
        let all: Vec<crate::Diagnostic> = files.into_iter().flat_map(|file| file.diagnostics).collect();
        Ok(outcome(out, for_diagnostics(&all)))
    }

    /// `apcheck drift SNAPSHOT PLUGIN` with this package as the plugin root named `root`.
    #[wasm_bindgen(js_name = cliDrift)]
    pub fn cli_drift(
        &self,
        snapshot_name: JsValue,
        snapshot_text: JsValue,
        root: JsValue,
        format: JsValue,
        color: bool,
        source_root: Option<String>,
    ) -> Result<String, JsError> {
        args!(thrown; string snapshot_name, string snapshot_text, string root, string format);
        let format = format_named(&format)?;
        let report = crate::snapshot::drift::drift(&snapshot_name, &snapshot_text, &root, &self.tree);
        let package = RootedTree {
            tree: &self.tree,
            root: &root,
        };
        let sources = |file: &str| {
            if file == snapshot_name {
                Some(Cow::Borrowed(snapshot_text.as_str()))
            } else {
                package.text(file)
            }
        };
        let out = snapshot::drift(&report, format, &FnSources(&sources), &options(color, source_root));
        Ok(outcome(out, report.exit()))
    }
}
