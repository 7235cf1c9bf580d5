//! What the npm package needs beyond the page's exports (feature `node`,
//! turned on by `npm run build:npm` only, so the page's wasm does not grow):
//! the entry kinds a disk read produces besides files, directories and links,
//! the configuration (`apcheck.toml`, parsed and merged with the flags by the
//! CLI's core, `config::Settings`; finding the file is the JS edge's job), the
//! root search over a folder the JS edge lists (`collection::roots_named`), and
//! `apcheck check`'s run over several roots, which is the CLI's
//! (`check_run::CheckRun`).

use wasm_bindgen::prelude::*;

use super::PackageTree;
use super::args::{args, thrown};
use crate::baseline::Baseline;
use crate::check_run::CheckRoot;
use crate::config::Settings;
use crate::render::{Format, Options};
use crate::tree::Entry;

/// One entry of a listed tree, in the order the disk edge met it; a file's
/// bytes are the next `bytes` of the contents handed over with the listing.
#[derive(serde::Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase", deny_unknown_fields)]
enum Listed {
    File { path: String, bytes: usize },
    Dir { path: String },
    Symlink { path: String, target: String },
    Other { path: String, description: String },
    Unreadable { path: String, reason: String },
    Truncated { path: String, size: u64 },
    Omitted { path: String, limit: String },
}

#[wasm_bindgen]
impl PackageTree {
    /// Adds a whole listed tree at once: `listing` is the JSON array of its
    /// entries (`{"kind": "file", "path", "bytes"}`, `dir`, `symlink` with
    /// `target`, `other` with `description`, `unreadable` with `reason`,
    /// `truncated` with `size`, `omitted` with `limit`), applied in order as
    /// the one-entry methods would be, and `contents` every file's bytes, one
    /// after another. A package read from disk crosses into the wasm once,
    /// not once per file.
    #[wasm_bindgen(js_name = addListed)]
    pub fn add_listed(&mut self, listing: JsValue, contents: JsValue) -> Result<(), JsError> {
        args!(thrown; string listing, bytes contents);
        let listing: Vec<Listed> = serde_json::from_str(&listing)
            .map_err(|error| JsError::new(&format!("`listing` is not a list of entries: {error}")))?;
        let mut rest = contents.as_slice();
        for entry in listing {
            match entry {
                Listed::File { path, bytes } => {
                    if bytes > rest.len() {
                        return thrown(format!("`contents` ends before the bytes of {path}"));
                    }
                    let (file, after) = rest.split_at(bytes);
                    self.tree.insert(&path, Entry::File(file.to_vec()));
                    rest = after;
                }
                Listed::Dir { path } => self.tree.insert(&path, Entry::Dir),
                Listed::Symlink { path, target } => self.tree.insert(&path, Entry::Symlink(target)),
                Listed::Other { path, description } => self.tree.insert(&path, Entry::Other(description)),
                Listed::Unreadable { path, reason } => self.tree.insert(&path, Entry::Unreadable(reason)),
                Listed::Truncated { path, size } => self.tree.mark_truncated(&path, size),
                Listed::Omitted { path, limit } => self.tree.mark_omitted(&path, &limit),
            }
        }
        if !rest.is_empty() {
            return thrown(format!(
                "`contents` has {} bytes that no file of `listing` claims",
                rest.len()
            ));
        }
        Ok(())
    }

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

    /// Records that the directory `dir` (`""` for the root) exists but could
    /// not be listed, and why: its entries are known only where they were
    /// looked up by name.
    #[wasm_bindgen(js_name = markUnlisted)]
    pub fn mark_unlisted(&mut self, dir: JsValue, reason: JsValue) -> Result<(), JsError> {
        args!(thrown; string dir, string reason);
        self.tree.mark_unlisted(&dir, &reason);
        Ok(())
    }

    /// Records that `path`, in a directory that could not be listed, was
    /// looked up by name and does not exist.
    #[wasm_bindgen(js_name = markAbsent)]
    pub fn mark_absent(&mut self, path: JsValue) -> Result<(), JsError> {
        args!(thrown; string path);
        self.tree.mark_absent(&path);
        Ok(())
    }
}

/// The settings of one checked path: a configuration file's, or the defaults,
/// with the command line's flags on top.
#[wasm_bindgen]
#[derive(Default)]
pub struct CheckSettings {
    settings: Settings,
}

#[wasm_bindgen]
impl CheckSettings {
    /// The defaults: every rule at its own severity.
    #[wasm_bindgen(constructor)]
    pub fn new() -> CheckSettings {
        CheckSettings::default()
    }

    /// The settings of the configuration `text` read from `file` (named as the
    /// CLI names it in errors); `undefined` for a `pyproject.toml` without
    /// `[tool.apcheck]`. Throws the CLI's `file:line:col: message` for a bad one.
    pub fn parse(file: JsValue, text: JsValue) -> Result<Option<CheckSettings>, JsError> {
        args!(thrown; string file, string text);
        match Settings::parse(&file, &text) {
            Ok(settings) => Ok(settings.map(|settings| CheckSettings { settings })),
            Err(error) => thrown(error.to_string()),
        }
    }

    /// These settings with `--select`, `--extend-select`, `--ignore`,
    /// `--severity` and `--extensions-namespace` (`undefined` when not given) on top.
    #[wasm_bindgen(js_name = withFlags)]
    pub fn with_flags(
        &self,
        select: JsValue,
        extend_select: JsValue,
        ignore: JsValue,
        severity: JsValue,
        extensions_namespace: Option<String>,
    ) -> Result<CheckSettings, JsError> {
        args!(thrown; strings select, strings extend_select, strings ignore, strings severity);
        match self
            .settings
            .clone()
            .with_flags(&select, &extend_select, &ignore, &severity)
            .and_then(|settings| settings.with_extensions_namespace(extensions_namespace.as_deref()))
        {
            Ok(settings) => Ok(CheckSettings { settings }),
            Err(error) => thrown(error.to_string()),
        }
    }

    /// Whether a collection leaves out the root at `path` (relative to the configuration's directory).
    pub fn excludes(&self, path: JsValue) -> Result<bool, JsError> {
        args!(thrown; string path);
        Ok(self.settings.excludes(&path))
    }

    /// The configuration's `baseline`, relative to its directory.
    #[wasm_bindgen(getter)]
    pub fn baseline(&self) -> Option<String> {
        self.settings.baseline.as_ref().map(|baseline| baseline.value.clone())
    }

    /// The merged settings with where each value came from, as `apcheck config --show` prints them.
    pub fn show(&self) -> String {
        self.settings.show()
    }
}

/// The roots of one `apcheck check` run: the core's run
/// ([`crate::check_run::CheckRun`]), its steps called by `npm/bin/apcheck.js`
/// in the CLI's order with Node's I/O between them.
#[wasm_bindgen]
#[derive(Default)]
pub struct CheckRun {
    run: crate::check_run::CheckRun,
}

#[wasm_bindgen]
impl CheckRun {
    #[wasm_bindgen(constructor)]
    pub fn new() -> CheckRun {
        CheckRun::default()
    }

    /// Checks `tree` as the root named `root_name`, shown as `settings` say;
    /// `relative_root` is the root relative to
    /// the configuration's directory, for its `[[overrides]]` globs.
    pub fn add(
        &mut self,
        root_name: JsValue,
        tree: &PackageTree,
        settings: &CheckSettings,
        relative_root: JsValue,
    ) -> Result<(), JsError> {
        args!(thrown; string root_name, string relative_root);
        let root = CheckRoot {
            name: root_name,
            settings: settings.settings.clone(),
            relative: relative_root,
        };
        self.run.add(root, tree.tree.clone());
        Ok(())
    }

    /// `apcheck check --fix`, `--unsafe-fixes` (`include_unsafe`) or `--diff`
    /// (`diff`) over the roots added, as the CLI runs them, as JSON. With
    /// `diff`, nothing changes: `{"diff": "…", "summary": "…", "changes":
    /// bool}`, the diff for standard output (escaped line by line when
    /// `for_people`: it goes to a terminal), the closing line for standard
    /// error, and whether there is any change (exit 1). Otherwise `{"writes":
    /// [{"root": i, "file": "…", "text": "…"}], "summary": "…"}`: each file to
    /// write, relative to root number `i`, in the order the CLI writes them,
    /// and the closing line for standard error (`""` when `quiet`); the trees
    /// and reports are then those of the written files, re-checked, for what
    /// follows (baseline, render, exit).
    pub fn fix(&mut self, include_unsafe: bool, diff: bool, for_people: bool, quiet: bool) -> String {
        let fixed = self.run.fixes(crate::fix::allowed(include_unsafe));
        if diff {
            let run = self.run.fix_diff(&fixed, for_people);
            return serde_json::json!({ "diff": run.diff, "summary": run.summary, "changes": run.changes }).to_string();
        }
        let writes: Vec<serde_json::Value> = fixed
            .iter()
            .enumerate()
            .flat_map(|(index, outcome)| {
                outcome
                    .changed
                    .iter()
                    .map(move |(file, text)| serde_json::json!({ "root": index, "file": file, "text": text }))
            })
            .collect();
        self.run.apply_fixes(&fixed);
        let summary = if quiet {
            String::new()
        } else {
            crate::render::fix::applied(&fixed)
        };
        serde_json::json!({ "writes": writes, "summary": summary }).to_string()
    }

    /// Hides the findings of root number `index` that the baseline `text`
    /// records. Throws why the text is no baseline.
    #[wasm_bindgen(js_name = applyBaseline)]
    pub fn apply_baseline(&mut self, index: usize, text: JsValue) -> Result<(), JsError> {
        args!(thrown; string text);
        if index >= self.run.reports().len() {
            return thrown(format!("there is no root number {index}"));
        }
        let mut baseline = Baseline::parse(&text).map_err(|message| JsError::new(&message))?;
        self.run.apply_baseline(index, &mut baseline);
        Ok(())
    }

    /// The `PackageReport` of root number `index` as JSON text, as shown (after settings and baseline).
    pub fn report(&self, index: usize) -> Option<String> {
        let report = self.run.reports().get(index)?;
        Some(serde_json::to_string(report).expect("a report always serializes"))
    }

    /// The output of `apcheck check --format FORMAT`, or `undefined` for an unknown format.
    /// `sarif_base` is the directory relative roots are relative to; `quiet`
    /// (`--quiet`) leaves out the summary lines.
    pub fn render(
        &self,
        format: JsValue,
        color: bool,
        sarif_base: Option<String>,
        quiet: Option<bool>,
    ) -> Result<Option<String>, JsError> {
        args!(thrown; string format);
        let Some(format) = Format::from_name(&format) else {
            return Ok(None);
        };
        let options = Options {
            color,
            source_root: sarif_base,
            quiet: quiet.unwrap_or(false),
        };
        Ok(Some(self.run.render(format, &options, false)))
    }

    /// The output of `apcheck check --statistics`: how many findings each rule
    /// made, as JSON (`--format json`) or a table, by the CLI's renderer.
    pub fn statistics(&self, json: bool) -> String {
        let format = if json { Format::Json } else { Format::Text };
        self.run.render(format, &Options::default(), true)
    }

    /// Whether the run fails (exit 1): findings at error level, or warnings with `deny_warnings`.
    pub fn fails(&self, deny_warnings: bool) -> bool {
        self.run
            .fails(false, deny_warnings.then_some(crate::exit::Deny::Warnings))
    }

    /// Whether the run fails (exit 1) under `--exit-zero`: only when a check is incomplete.
    #[wasm_bindgen(js_name = failsWithExitZero)]
    pub fn fails_with_exit_zero(&self) -> bool {
        self.run.fails(true, None)
    }

    /// `apcheck check --baseline-write FILE` (`file` as named on the command
    /// line), as JSON: `{"refused": "…"}` with the lines for standard error
    /// when a check is incomplete (nothing is written, exit 2), or `{"text":
    /// "…", "recorded": "…"}`: the baseline to write and the line that says
    /// so on standard error.
    #[wasm_bindgen(js_name = baselineWrite)]
    pub fn baseline_write(&self, file: JsValue) -> Result<String, JsError> {
        args!(thrown; string file);
        use crate::commands::documents::line;
        Ok(match self.run.baseline_write(&file) {
            Ok((text, said)) => serde_json::json!({ "text": text, "recorded": line(said) }),
            Err(refusals) => serde_json::json!({ "refused": refusals.into_iter().map(line).collect::<String>() }),
        }
        .to_string())
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

    fn child_dirs(&self, dir: &str) -> Option<Vec<String>> {
        // A listing that throws is a folder that cannot be listed.
        let answer = self.child_dirs.call1(&JsValue::NULL, &JsValue::from_str(dir)).ok()?;
        Some(
            js_sys::Array::from(&answer)
                .iter()
                .filter_map(|name| name.as_string())
                .collect(),
        )
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

/// What Rust's `io::Error` says for the errors the npm package's disk edge
/// meets, by Node's code (`ENOENT`), without the ` (os error N)` that follows
/// it: generated by build.rs on the build's host, whose C library spells them
/// (`io_errors.rs`), as the native CLI's are spelled.
const IO_ERRORS: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/io_errors.rs"));

/// Rust's text for the I/O error with Node's `code` (`"No such file or
/// directory"` for `ENOENT`), or `undefined` for one it does not know.
#[wasm_bindgen(js_name = ioErrorText)]
pub fn io_error_text(code: &str) -> Option<String> {
    IO_ERRORS
        .iter()
        .find(|(known, _)| *known == code)
        .map(|(_, text)| (*text).to_string())
}
