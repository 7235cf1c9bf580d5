//! The npm CLI's commands beyond `check` (feature `node`, as `node.rs`): the
//! same core calls and renderers as the Rust CLI's `rules`, `explain`,
//! `check-snapshot`, `drift` and `changes`, so `npx apcheck` prints what the
//! native binary prints. The JS edge (`npm/bin/apcheck.js`) reads the files
//! and parses the flags; each export returns the output and the exit code as
//! `{"output": "..", "exit": N}`.

use wasm_bindgen::prelude::*;

use super::PackageTree;
use super::args::{args, thrown};
use crate::commands::{self, Input, Outcome};
use crate::render::{Format, Options, rules};

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

fn reply(outcome: Outcome) -> String {
    serde_json::json!({ "output": outcome.output, "exit": outcome.exit.code() }).to_string()
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
    let old = Input {
        name: &old_name,
        text: &old_text,
    };
    let new = Input {
        name: &new_name,
        text: &new_text,
    };
    let format = format_named(&format)?;
    Ok(reply(commands::changes(old, new, format, &options(color, source_root))))
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
        let inputs: Vec<Input> = names
            .iter()
            .zip(&texts)
            .map(|(name, text)| Input { name, text })
            .collect();
        let tree = plugin.then_some(&self.tree);
        Ok(reply(commands::check_snapshots(
            &inputs,
            tree,
            format,
            &options(color, source_root),
        )))
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
        let snapshot = Input {
            name: &snapshot_name,
            text: &snapshot_text,
        };
        let format = format_named(&format)?;
        Ok(reply(commands::drift(
            snapshot,
            &root,
            &self.tree,
            format,
            &options(color, source_root),
        )))
    }
}
