//! The npm CLI's commands beyond `check` (feature `node`, as `node.rs`): the
//! same core calls and renderers as the Rust CLI's `rules`, `explain`,
//! `check-snapshot`, `drift`, `changes`, `fmt`, `diff` and `validate`, so `npx
//! apcheck` prints what the native binary prints. The JS edge
//! (`npm/bin/apcheck.js`) reads the files and parses the flags; each export
//! returns the output and the exit code as `{"output": "..", "exit": N}`, and
//! `fmt`, `diff` and `validate`, which also write to stderr, as `{"stdout": "..",
//! "stderr": "..", "exit": N}`.

use wasm_bindgen::prelude::*;

use super::PackageTree;
use super::args::{args, thrown};
use crate::commands::documents::{self, DiffFormat, DiffView, FmtMode, SchemaSource, Streams, Validation};
use crate::commands::{self, Input, Outcome};
use crate::json::format::{FormatOptions, Layout};
use crate::render::{Format, Options, TextOptions, rules};

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

/// `apcheck call SNAPSHOT TOOL ARGUMENTS`: the files as named on the command
/// line, and their texts.
#[wasm_bindgen(js_name = cliCall)]
#[allow(clippy::too_many_arguments)] // The command's arguments, one for one.
pub fn cli_call(
    snapshot_name: JsValue,
    snapshot_text: JsValue,
    tool: JsValue,
    arguments_name: JsValue,
    arguments_text: JsValue,
    format: JsValue,
    color: bool,
    source_root: Option<String>,
) -> Result<String, JsError> {
    args!(thrown; string snapshot_name, string snapshot_text, string tool, string arguments_name, string arguments_text, string format);
    let snapshot = Input {
        name: &snapshot_name,
        text: &snapshot_text,
    };
    let arguments = Input {
        name: &arguments_name,
        text: &arguments_text,
    };
    let format = format_named(&format)?;
    Ok(reply(commands::call(
        snapshot,
        &tool,
        arguments,
        format,
        &options(color, source_root),
    )))
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

fn streams_value(streams: Streams) -> serde_json::Value {
    serde_json::json!({ "stdout": streams.stdout, "stderr": streams.stderr, "exit": streams.exit.code() })
}

fn streams(streams: Streams) -> String {
    streams_value(streams).to_string()
}

/// `apcheck: MESSAGE` and a newline, as the CLI says a failure on standard
/// error: escaped by the renderer (no control character reaches the terminal,
/// no credential shape is shown).
#[wasm_bindgen(js_name = cliLine)]
pub fn cli_line(message: JsValue) -> Result<String, JsError> {
    args!(thrown; string message);
    Ok(documents::line(message))
}

/// A document's bytes as `apcheck diff` and `validate` read them: its text,
/// or the error saying it is not UTF-8 (`path` as the user wrote it).
#[wasm_bindgen(js_name = cliText)]
pub fn cli_text(path: JsValue, bytes: JsValue) -> Result<String, JsError> {
    args!(thrown; string path, bytes bytes);
    documents::utf8_text(&path, bytes).map_err(|message| JsError::new(&message))
}

/// The message for a document over `--max-input-mib` (`limit` bytes).
#[wasm_bindgen(js_name = cliTooLarge)]
pub fn cli_too_large(path: JsValue, limit: f64) -> Result<String, JsError> {
    args!(thrown; string path);
    Ok(documents::too_large(&path, limit as u64))
}

/// `apcheck diff`'s flags, as the JS edge parsed them (JSON).
#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct DiffFlags {
    format: String,
    array_keys: Vec<String>,
    no_default_keys: bool,
    ignore: Vec<String>,
    color: bool,
    stderr_color: bool,
}

fn flags<T: serde::de::DeserializeOwned>(json: &str) -> Result<T, JsError> {
    serde_json::from_str(json).map_err(|error| JsError::new(&format!("flags: {error}")))
}

/// The most bytes `apcheck diff` reads of each document.
#[wasm_bindgen(js_name = cliDiffInputLimit)]
pub fn cli_diff_input_limit() -> f64 {
    crate::json::tools::DIFF_INPUT_LIMIT as f64
}

/// `apcheck diff`'s checks before reading: the stderr text that refuses the
/// flags (`flags` as for [`cli_diff`]), or the two documents by their sizes
/// together (`bytes`, when both are files), or `undefined`.
#[wasm_bindgen(js_name = cliDiffRefusal)]
pub fn cli_diff_refusal(flags_json: JsValue, bytes: Option<f64>) -> Result<Option<String>, JsError> {
    args!(thrown; string flags_json);
    let flags: DiffFlags = flags(&flags_json)?;
    let refused = documents::diff_options(&flags.array_keys, flags.no_default_keys, &flags.ignore)
        .and_then(|_| bytes.map_or(Ok(()), |bytes| documents::diff_size(bytes as u64)));
    Ok(refused.err())
}

/// `apcheck diff A B`: the documents as named on the command line, their
/// texts, and the flags as JSON `{format, arrayKeys, noDefaultKeys, ignore,
/// color, stderrColor}`; answers `{"stdout", "stderr", "exit"}`.
#[wasm_bindgen(js_name = cliDiff)]
pub fn cli_diff(
    a_name: JsValue,
    a_text: JsValue,
    b_name: JsValue,
    b_text: JsValue,
    flags_json: JsValue,
) -> Result<String, JsError> {
    args!(thrown; string a_name, string a_text, string b_name, string b_text, string flags_json);
    let flags: DiffFlags = flags(&flags_json)?;
    let format = DiffFormat::from_name(&flags.format)
        .ok_or_else(|| JsError::new(&format!("no diff format is named {:?}", flags.format)))?;
    let options = match documents::diff_options(&flags.array_keys, flags.no_default_keys, &flags.ignore) {
        Ok(options) => options,
        Err(message) => {
            return Ok(streams(Streams {
                stderr: message,
                exit: crate::exit::Exit::Failure,
                ..Streams::default()
            }));
        }
    };
    let a = Input {
        name: &a_name,
        text: &a_text,
    };
    let b = Input {
        name: &b_name,
        text: &b_text,
    };
    let view = DiffView {
        format,
        color: flags.color,
        stderr: TextOptions {
            color: flags.stderr_color,
        },
        exiting: false,
    };
    Ok(streams(documents::diff(a, b, options, view)))
}

/// `apcheck validate`'s flags and what the JS edge read for the schema (JSON).
#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct ValidateFlags {
    builtin: Option<String>,
    /// The stderr text reading the schema or a `--ref` failed with.
    schema_error: Option<String>,
    schema_name: Option<String>,
    schema_text: Option<String>,
    #[serde(default)]
    ref_names: Vec<String>,
    #[serde(default)]
    ref_texts: Vec<String>,
    formats: bool,
    format: String,
    color: bool,
    stderr_color: bool,
    source_root: Option<String>,
}

/// `apcheck validate`: the documents as named, their texts, and for each
/// the message it could not be read with (`""` when it was read); the flags
/// and the schema as JSON (see `npm/bin/apcheck.js`). Answers
/// `{"stdout", "stderr", "exit"}`.
#[wasm_bindgen(js_name = cliValidate)]
pub fn cli_validate(names: JsValue, texts: JsValue, failures: JsValue, flags_json: JsValue) -> Result<String, JsError> {
    args!(thrown; strings names, strings texts, strings failures, string flags_json);
    let flags: ValidateFlags = flags(&flags_json)?;
    if names.len() != texts.len() || names.len() != failures.len() {
        return thrown(format!("{} names for {} texts", names.len(), texts.len()));
    }
    let format = format_named(&flags.format)?;
    let documents: Vec<(&str, Result<&str, String>)> = names
        .iter()
        .zip(&texts)
        .zip(&failures)
        .map(|((name, text), failure)| {
            let text = if failure.is_empty() {
                Ok(text.as_str())
            } else {
                Err(failure.clone())
            };
            (name.as_str(), text)
        })
        .collect();
    let refs: Vec<Input> = flags
        .ref_names
        .iter()
        .zip(&flags.ref_texts)
        .map(|(name, text)| Input { name, text })
        .collect();
    let schema = match (
        &flags.schema_error,
        &flags.builtin,
        &flags.schema_name,
        &flags.schema_text,
    ) {
        (Some(error), ..) => Err(documents::line(error)),
        (None, Some(builtin), ..) => Ok(SchemaSource::Builtin(builtin)),
        (None, None, Some(name), Some(text)) => Ok(SchemaSource::Files {
            main: Input { name, text },
            refs: &refs,
        }),
        _ => return thrown("name a schema: `builtin`, or `schemaName` and `schemaText`".to_string()),
    };
    let options = options(flags.color, flags.source_root.clone());
    Ok(streams(documents::validate(Validation {
        builtin: flags.builtin.as_deref(),
        schema,
        formats: flags.formats,
        documents: &documents,
        format,
        options: &options,
        stderr: TextOptions {
            color: flags.stderr_color,
        },
    })))
}

/// `apcheck fmt`'s flags, as the JS edge parsed them (JSON).
#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct FmtFlags {
    indent: String,
    minify: bool,
    sort_keys: bool,
    jsonc: bool,
    check: bool,
    stderr_color: bool,
}

/// `apcheck fmt`'s refusal of `files` documents for standard output, or `undefined`.
#[wasm_bindgen(js_name = cliFmtRefusal)]
pub fn cli_fmt_refusal(files: u32, write: bool, check: bool) -> Option<String> {
    documents::fmt_refusal(files as usize, write, check)
}

/// `apcheck fmt` on one document: its name as given, its text, and the
/// flags as JSON `{indent, minify, sortKeys, jsonc, check, stderrColor}`;
/// answers `{"stdout", "stderr", "exit"}`, `stdout` the formatted document
/// (for standard output, or for the JS edge to write back with `--write`).
#[wasm_bindgen(js_name = cliFmt)]
pub fn cli_fmt(name: JsValue, text: JsValue, flags_json: JsValue) -> Result<String, JsError> {
    args!(thrown; string name, string text, string flags_json);
    let flags: FmtFlags = flags(&flags_json)?;
    let indent = documents::fmt_indent(&flags.indent).map_err(|message| JsError::new(&message))?;
    let options = FormatOptions {
        layout: if flags.minify {
            Layout::Minify
        } else {
            Layout::Pretty(indent)
        },
        sort_keys: flags.sort_keys,
        jsonc: flags.jsonc,
    };
    let mode = if flags.check { FmtMode::Check } else { FmtMode::Format };
    let input = Input {
        name: &name,
        text: &text,
    };
    let stderr = TextOptions {
        color: flags.stderr_color,
    };
    Ok(streams(documents::fmt(input, &options, mode, stderr)))
}

#[wasm_bindgen]
impl PackageTree {
    /// `apcheck snapshot PLUGIN` without `--connect` on this package, the plugin
    /// root named `root` as on the command line: `tools` and `failed` are the
    /// `--tools SERVER=FILE` and `--failed SERVER=REASON` values, and
    /// `read_text(file)` reads a `--tools` file, returning its text or throwing
    /// an `Error` whose message is the whole message to fail with. `color`
    /// colours the findings of a plugin without a snapshot. Answers `{"stdout",
    /// "stderr", "exit"}`: `stdout` is the snapshot, for standard output or
    /// `--output`.
    #[wasm_bindgen(js_name = cliSnapshot)]
    pub fn cli_snapshot(
        &self,
        root: JsValue,
        tools: JsValue,
        failed: JsValue,
        read_text: &js_sys::Function,
        color: bool,
    ) -> Result<String, JsError> {
        args!(thrown; string root, strings tools, strings failed);
        let mut read = |file: &str| match read_text.call1(&JsValue::NULL, &JsValue::from_str(file)) {
            Ok(text) => text.as_string().ok_or_else(|| format!("cannot read {file}")),
            Err(error) => Err(error
                .dyn_into::<js_sys::Error>()
                .map(|error| String::from(error.message()))
                .unwrap_or_else(|_| format!("cannot read {file}"))),
        };
        let options = TextOptions { color };
        Ok(streams(crate::commands::snapshot::snapshot(
            &root, &self.tree, &tools, &failed, &mut read, options,
        )))
    }
}

/// `apcheck new PATH`: `path` as on the command line, the `--skill` names and
/// the `--stdio-server ID CMD` and `--http-server ID URL` values in pairs.
/// Answers `{"files": [[file, text], …], "written": {"stdout", "stderr",
/// "exit"}}`, the files to write under PATH (relative to it, in order) and
/// what to print once they are, or `{"refused": {"stdout", "stderr", "exit"}}`.
#[wasm_bindgen(js_name = cliNew)]
pub fn cli_new(
    path: JsValue,
    skills: JsValue,
    stdio_servers: JsValue,
    http_servers: JsValue,
) -> Result<String, JsError> {
    args!(thrown; string path, strings skills, strings stdio_servers, strings http_servers);
    let answer = match crate::commands::files::new_files(&path, &skills, &stdio_servers, &http_servers) {
        Ok(files) => {
            let written = crate::commands::files::new_written(&path, &files);
            serde_json::json!({ "files": files, "written": streams_value(written) })
        }
        Err(refused) => serde_json::json!({ "refused": streams_value(refused) }),
    };
    Ok(answer.to_string())
}

/// The package `apcheck port` made of a vendor plugin: its files, for the JS
/// edge to write, and what to say once they are written.
#[wasm_bindgen]
pub struct PortRun {
    source: String,
    ported: crate::port::Ported,
}

#[wasm_bindgen]
impl PortRun {
    /// How many files the package has.
    #[wasm_bindgen(getter)]
    pub fn count(&self) -> usize {
        self.ported.files.len()
    }

    /// File number `index`'s path, relative to DEST (`/`-separated).
    pub fn file(&self, index: usize) -> Option<String> {
        self.ported.files.get(index).map(|(file, _)| file.clone())
    }

    /// File number `index`'s bytes.
    pub fn bytes(&self, index: usize) -> Option<Vec<u8>> {
        self.ported.files.get(index).map(|(_, bytes)| bytes.clone())
    }

    /// What `apcheck port` prints once the files are written under `dest` (as
    /// the CLI names it), or would be with `dry_run`: `{"stdout", "stderr", "exit"}`.
    pub fn written(&self, dest: JsValue, dry_run: bool) -> Result<String, JsError> {
        args!(thrown; string dest);
        Ok(streams(crate::commands::files::port_written(
            &self.source,
            &dest,
            &self.ported,
            dry_run,
        )))
    }
}

#[wasm_bindgen]
impl PackageTree {
    /// `apcheck port SRC` on this package, read from `source` (as named on the
    /// command line), with `--from` and `--name` (`undefined` when not given):
    /// the package to write (a `PortRun`), or, when there is no vendor plugin
    /// there, the text `{"stdout", "stderr", "exit"}` to end with.
    #[wasm_bindgen(js_name = cliPort)]
    pub fn cli_port(&self, source: JsValue, from: Option<String>, name: Option<String>) -> Result<JsValue, JsError> {
        args!(thrown; string source);
        match crate::commands::files::port_files(&source, &self.tree, from.as_deref(), name.as_deref()) {
            Ok(ported) => Ok(PortRun { source, ported }.into()),
            Err(refused) => Ok(JsValue::from_str(&streams(refused))),
        }
    }
}
