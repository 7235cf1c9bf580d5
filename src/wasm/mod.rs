//! The wasm face: thin, JSON text in and out, user mistakes returned as data.
//! Built only for `wasm32`; the page's worker (`www/worker.js`) is its one caller.

use wasm_bindgen::prelude::*;

mod args;
#[cfg(feature = "node")]
pub mod cli;
pub mod json;
#[cfg(feature = "node")]
pub mod node;

use args::{args, error_reply, thrown};

use crate::tree::{Entry, Tree};

pub mod snapshot;

#[wasm_bindgen(start)]
pub fn start() {
    console_error_panic_hook::set_once();
}

/// A package tree assembled by the page from a drop, a picked folder or pasted text,
/// and the report of its last check (rendered for downloads on request).
#[wasm_bindgen]
#[derive(Default)]
pub struct PackageTree {
    tree: Tree,
    checked: Option<Checked>,
}

/// What the last check found, kept for [`PackageTree::render`].
struct Checked {
    reports: Vec<crate::report::PackageReport>,
}

#[wasm_bindgen]
impl PackageTree {
    #[wasm_bindgen(constructor)]
    pub fn new() -> PackageTree {
        PackageTree::default()
    }

    #[wasm_bindgen(js_name = addFile)]
    pub fn add_file(&mut self, path: JsValue, bytes: JsValue) -> Result<(), JsError> {
        args!(thrown; string path, bytes bytes);
        self.tree.insert(&path, Entry::File(bytes));
        Ok(())
    }

    #[wasm_bindgen(js_name = addDir)]
    pub fn add_dir(&mut self, path: JsValue) -> Result<(), JsError> {
        args!(thrown; string path);
        self.tree.insert(&path, Entry::Dir);
        Ok(())
    }

    #[wasm_bindgen(js_name = addSymlink)]
    pub fn add_symlink(&mut self, path: JsValue, target: JsValue) -> Result<(), JsError> {
        args!(thrown; string path, string target);
        self.tree.insert(&path, Entry::Symlink(target));
        Ok(())
    }

    /// Records that the page added only the first bytes of `path` (see `Limits::max_file_bytes`).
    #[wasm_bindgen(js_name = markTruncated)]
    pub fn mark_truncated(&mut self, path: JsValue, real_size: f64) -> Result<(), JsError> {
        args!(thrown; string path);
        self.tree.mark_truncated(&path, real_size as u64);
        Ok(())
    }

    /// Records that the page left `path` out because `limit` was reached.
    #[wasm_bindgen(js_name = markOmitted)]
    pub fn mark_omitted(&mut self, path: JsValue, limit: JsValue) -> Result<(), JsError> {
        args!(thrown; string path, string limit);
        self.tree.mark_omitted(&path, &limit);
        Ok(())
    }

    /// Runs the package check; returns the `PackageReport` as JSON text, and keeps
    /// the report for [`PackageTree::render`]. (The page checks
    /// folders with [`PackageTree::check_folder`].)
    pub fn check(&mut self, root_name: JsValue) -> String {
        args!(error_reply; string root_name);
        let report = crate::check_package(&root_name, &self.tree);
        // Through a `Value`, as `check_folder` and the renderers serialize
        // reports: each type's serializer is compiled once in the wasm, not
        // once more for text.
        let text = serde_json::to_value(&report)
            .expect("a report always serializes")
            .to_string();
        self.checked = Some(Checked { reports: vec![report] });
        text
    }

    /// Applies every fix the check offers, safe ones only unless `include_unsafe`,
    /// re-checking until none is left, as `apcheck check --fix` does. The tree is
    /// updated; returns `{"applied":N,"changed":[{"file":"..","text":".."}]}`.
    /// The npm package's (`Package.fixAll`): the page applies a finding's edits
    /// in its editor (`www/src/views/check.js`), so its wasm leaves this out.
    #[cfg(feature = "node")]
    #[wasm_bindgen(js_name = fixAll)]
    pub fn fix_all(&mut self, root_name: JsValue, include_unsafe: bool) -> String {
        args!(error_reply; string root_name);
        let allowed = crate::fix::allowed(include_unsafe);
        let outcome = crate::fix::fix_tree(&self.tree, allowed, |tree| {
            crate::check_package(&root_name, tree).diagnostics
        });
        // The core's one way to put fixed texts into a tree (as `check --fix` does).
        outcome.apply_to(&mut self.tree);
        let changed: Vec<serde_json::Value> = outcome
            .changed
            .iter()
            .map(|(file, text)| serde_json::json!({ "file": file, "text": text }))
            .collect();
        serde_json::json!({ "applied": outcome.applied, "changed": changed }).to_string()
    }

    /// Checks the folder as `apcheck check` does (one root, or every root of a
    /// collection, `apcheck::collection`); returns `{"reports": [PackageReport],
    /// "collection": bool}` and keeps the reports for [`PackageTree::render`].
    #[wasm_bindgen(js_name = checkFolder)]
    pub fn check_folder(&mut self, root_name: JsValue) -> String {
        args!(error_reply; string root_name);
        let (reports, roots) = crate::collection::check_folder(&root_name, &self.tree);
        let collection = matches!(roots, crate::collection::Roots::Collection(_));
        let text = serde_json::json!({ "reports": reports, "collection": collection }).to_string();
        self.checked = Some(Checked { reports });
        text
    }

    /// The last check's reports rendered exactly as `apcheck check --format
    /// FORMAT` prints them for the folder, for a download: `format` is `json`,
    /// `sarif` (SARIF 2.1.0, without a base URI: a browser does not know where
    /// the folder lives) or `markdown`. Returns `{"ok":true,"text":".."}` or
    /// `{"ok":false,"error":{"message":".."}}`. Rendering waits for the
    /// download: a check runs on every keystroke, and nobody reads most of its
    /// SARIF and Markdown.
    pub fn render(&self, format: JsValue) -> String {
        use crate::render::{escape, json, markdown, sarif};
        args!(error_reply; string format);
        let Some(checked) = &self.checked else {
            return error_reply("nothing has been checked yet");
        };
        // The arms of `render::packages::render` for these formats, called one
        // by one: its text and GitHub arms would bring the snippet renderer
        // into the page's wasm, which never prints them.
        let reports = &checked.reports;
        let text = match format.as_str() {
            "json" => json::render(reports) + "\n",
            "sarif" => escape::json_text(&sarif::render(reports, None)),
            "markdown" => markdown::render(reports),
            other => return error_reply(format!("unknown report format {other:?} (json, sarif, markdown)")),
        };
        serde_json::json!({ "ok": true, "text": text }).to_string()
    }
}

/// `text` with `edits` applied. `edits` is the JSON array of a diagnostic's
/// `fix.edits` for this file (byte spans, as the report gives them). Returns
/// `{"ok":true,"text":".."}` or `{"ok":false,"error":{"message":".."}}` when
/// the edits are not such an array or do not fit the text (it changed since
/// the check). The npm package's (`applyEdits`); the page applies edits in its
/// editor, so its wasm leaves this out.
#[cfg(feature = "node")]
#[wasm_bindgen(js_name = applyEdits)]
pub fn apply_edits(text: JsValue, edits: JsValue) -> String {
    args!(error_reply; string text, string edits);
    let outcome = serde_json::from_str::<Vec<crate::fix::Edit>>(&edits)
        .map_err(|error| format!("edits are not an array of {{file, span, replacement}}: {error}"))
        .and_then(|edits| crate::fix::apply_edits(&text, &edits).map_err(|error| error.to_string()));
    match outcome {
        Ok(text) => serde_json::json!({ "ok": true, "text": text }),
        Err(message) => serde_json::json!({ "ok": false, "error": { "message": message } }),
    }
    .to_string()
}

/// The limits the page applies while reading a drop (the CLI's defaults), as JSON:
/// `{"max_entries":..,"max_file_bytes":..,"max_total_bytes":..}`.
#[wasm_bindgen]
pub fn limits() -> String {
    let limits = crate::tree::Limits::default();
    serde_json::json!({
        "max_entries": limits.max_entries,
        "max_file_bytes": limits.max_file_bytes,
        "max_total_bytes": limits.max_total_bytes,
    })
    .to_string()
}

/// Where the page puts a pasted `SKILL.md` in the package it checks, decided by
/// the core's frontmatter parser: `{"path": "skills/<name>/SKILL.md"}`.
#[wasm_bindgen]
pub fn pasted_skill_path(text: &str) -> String {
    serde_json::json!({ "path": crate::rules::skills::pasted_skill_path(text) }).to_string()
}

/// The rule registry as JSON: every rule with its code, severity, spec section,
/// summary, fix hint and doc, in code order. The page renders rule docs from this.
#[wasm_bindgen]
pub fn rules() -> String {
    let rules: Vec<&crate::rule::Rule> = crate::registry::all().collect();
    // Through a `Value`, as `explain` serializes a rule (see `check`).
    serde_json::to_value(&rules)
        .expect("rules always serialize")
        .to_string()
}

/// One rule's doc, found by code (any case) or name: `{"ok":true,"rule":{..},"text":".."}`
/// where `text` is exactly what `apcheck explain` prints, or `{"ok":false,"error":{"message":".."}}`.
#[wasm_bindgen]
pub fn explain(code_or_name: JsValue) -> String {
    args!(error_reply; string code_or_name);
    let answer = match crate::registry::find(code_or_name.trim()) {
        Some(rule) => serde_json::json!({ "ok": true, "rule": rule, "text": crate::render::rules::explain(rule) }),
        None => return error_reply(format!("no rule has the code or name {:?}", code_or_name.trim())),
    };
    answer.to_string()
}
