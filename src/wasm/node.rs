//! What the npm package needs beyond the page's exports (feature `node`,
//! turned on by `npm run build:npm` only, so the page's wasm does not grow):
//! the entry kinds a disk read produces besides files, directories and links,
//! and `apcheck check`'s output for several roots in every format, rendered by
//! the same core function as the CLI's (`render::packages::render`).

use wasm_bindgen::prelude::*;

use super::PackageTree;
use super::args::{args, thrown};
use crate::render::{Format, Options, Sources, json::Shape, packages};
use crate::report::PackageReport;
use crate::tree::{Entry, Tree};

#[wasm_bindgen]
impl PackageTree {
    /// Records a FIFO, socket or device at `path`; `description` says which ("a FIFO").
    #[wasm_bindgen(js_name = addOther)]
    pub fn add_other(&mut self, path: JsValue, description: JsValue) -> Result<(), JsError> {
        args!(thrown; string path, string description);
        self.tree.insert(&path, Entry::Other(description));
        Ok(())
    }

    /// Records an entry that exists but could not be read, and why.
    #[wasm_bindgen(js_name = addUnreadable)]
    pub fn add_unreadable(&mut self, path: JsValue, reason: JsValue) -> Result<(), JsError> {
        args!(thrown; string path, string reason);
        self.tree.insert(&path, Entry::Unreadable(reason));
        Ok(())
    }
}

/// The roots of one `apcheck check` run, each checked as it is added, then rendered together.
#[wasm_bindgen]
#[derive(Default)]
pub struct CheckRun {
    trees: Vec<Tree>,
    reports: Vec<PackageReport>,
}

#[wasm_bindgen]
impl CheckRun {
    #[wasm_bindgen(constructor)]
    pub fn new() -> CheckRun {
        CheckRun::default()
    }

    /// Checks `tree` as the root named `root_name`; returns its `PackageReport` as JSON text.
    pub fn add(&mut self, root_name: JsValue, tree: &PackageTree) -> Result<String, JsError> {
        args!(thrown; string root_name);
        let report = crate::check_package(&root_name, &tree.tree);
        let text = serde_json::to_string(&report).expect("a report always serializes");
        self.trees.push(tree.tree.clone());
        self.reports.push(report);
        Ok(text)
    }

    /// The output of `apcheck check --format FORMAT`, or `undefined` for an unknown format.
    /// `single` is one root asked for by name (JSON is then an object, not an array);
    /// `sarif_base` is the directory relative roots are relative to.
    pub fn render(
        &self,
        format: JsValue,
        single: bool,
        color: bool,
        sarif_base: Option<String>,
    ) -> Result<Option<String>, JsError> {
        args!(thrown; string format);
        let Some(format) = Format::from_name(&format) else {
            return Ok(None);
        };
        let sources: Vec<&dyn Sources> = self.trees.iter().map(|tree| tree as &dyn Sources).collect();
        let shape = if single { Shape::Object } else { Shape::Array };
        let options = Options {
            color,
            source_root: sarif_base,
        };
        Ok(Some(packages::render(&self.reports, &sources, format, &options, shape)))
    }

    /// Whether the run fails (exit 1): findings at error level, or warnings with `deny_warnings`.
    pub fn fails(&self, deny_warnings: bool) -> bool {
        self.reports.iter().any(|report| {
            let summary = &report.summary;
            summary.errors > 0 || (deny_warnings && summary.warnings > 0)
        })
    }
}

/// A folder listed by the npm package's disk edge (`npm/disk.js`), through two
/// synchronous JS functions: `hasManifest(dir)` → boolean and `childDirs(dir)`
/// → the names of `dir`'s child directories, not following links. `dir` is
/// `/`-separated and relative to the folder searched.
struct JsListing<'f> {
    has_manifest: &'f js_sys::Function,
    child_dirs: &'f js_sys::Function,
}

impl crate::collection::Listing for JsListing<'_> {
    fn has_manifest(&self, dir: &str) -> bool {
        self.has_manifest
            .call1(&JsValue::NULL, &JsValue::from_str(dir))
            .is_ok_and(|answer| answer.as_bool() == Some(true))
    }

    fn child_dirs(&self, dir: &str) -> Vec<String> {
        // A listing that throws is a folder that cannot be listed: nothing below it is searched.
        let Ok(answer) = self.child_dirs.call1(&JsValue::NULL, &JsValue::from_str(dir)) else {
            return Vec::new();
        };
        js_sys::Array::from(&answer)
            .iter()
            .filter_map(|name| name.as_string())
            .collect()
    }
}

/// The plugin roots a folder names, by the core's one rule for the CLI, the page
/// and the npm package (`collection::roots_named`): `{"collection": false}` for
/// the folder itself, or `{"collection": true, "roots": ["relative/dir", …]}`.
#[wasm_bindgen(js_name = rootsNamed)]
pub fn roots_named(has_manifest: &js_sys::Function, child_dirs: &js_sys::Function) -> String {
    let listing = JsListing {
        has_manifest,
        child_dirs,
    };
    match crate::collection::roots_named(&listing) {
        crate::collection::Roots::Single => serde_json::json!({ "collection": false }),
        crate::collection::Roots::Collection(roots) => serde_json::json!({ "collection": true, "roots": roots }),
    }
    .to_string()
}
