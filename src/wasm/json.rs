//! The JSON toolkit for the page: format, validate (one document or a batch),
//! diff, and the built-in schema list. JSON text in, JSON text out:
//! `{"ok": true, ...}`, or `{"ok": false, "error": {message, line, column, ...}}`
//! for a user's mistake.
//!
//! The policy is the core's ([`crate::json::tools`], which the CLI uses too):
//! the kind-mismatch hint, [`LOCATE_LIMIT`](crate::json::tools::LOCATE_LIMIT), schema loading. This face only
//! reads arguments and shapes replies. Compiled schemas are kept across calls
//! (a [`SchemaCache`]), and a diff computes only the parts the page asks for
//! (`want`), because in the browser the rest costs seconds on big documents.

use std::cell::RefCell;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use wasm_bindgen::prelude::*;

use super::args::args;

use crate::json::builtin::BUILTINS;
use crate::json::diff::unified::unified;
use crate::json::diff::{CompareOption, Side, canonical_text, lines_of, merge::merge_patch};
use crate::json::format::{FormatOptions, Indent, Layout};
use crate::json::locate::SpanTree;
use crate::json::parse::JsonParseError;
use crate::json::tools::{
    BatchReport, DiffProblem, DiffRequest as CoreDiffRequest, DocumentProblem, SchemaChoice, SchemaProblem,
    SharedSchema, compare_options, diff_changes, diff_documents, format_document, load_schema, locates_up_front,
    split_batch, validate_batch, validate_document,
};
use crate::json::validate::{CompileOptions, SchemaCache, SchemaError, SchemaFile};

/// Distinct schemas kept compiled: the page's editor, a few built-ins, `--ref` sets.
const SCHEMAS_KEPT: usize = 8;

thread_local! {
    static SCHEMAS: RefCell<SchemaCache> = RefCell::new(SchemaCache::new(SCHEMAS_KEPT));
}

/// `{"indent": 2 | 4 | "tab", "minify": bool, "sortKeys": bool, "jsonc": bool}`, all optional.
#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", default)]
struct FormatRequest {
    indent: Option<Value>,
    minify: bool,
    sort_keys: bool,
    jsonc: bool,
}

/// `{"builtin": name, "formats": bool, "refs": [{"name", "text"}]}`, all optional;
/// without `builtin`, the schema text argument is the schema.
#[derive(Deserialize, Default)]
#[serde(default)]
struct ValidateRequest {
    builtin: Option<String>,
    formats: bool,
    refs: Vec<NamedText>,
}

#[derive(Deserialize)]
struct NamedText {
    name: String,
    text: String,
}

/// `{"arrayKeys": ["/tools=name"], "noDefaultKeys": bool, "ignore": ["/x/*/status"],
/// "names": ["a.json", "b.json"], "want": ["changes", "lines", "patch", "merge",
/// "unified", "canonical"]}`, all optional; without `want`, everything.
#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", default)]
struct DiffRequest {
    array_keys: Vec<String>,
    no_default_keys: bool,
    ignore: Vec<String>,
    names: Option<(String, String)>,
    want: Option<Vec<String>>,
}

fn options<T: Default + for<'de> Deserialize<'de>>(text: &str) -> Result<T, Value> {
    if text.trim().is_empty() {
        return Ok(T::default());
    }
    serde_json::from_str(text).map_err(|e| usage(&format!("options: {e}")))
}

fn usage(message: &str) -> Value {
    json!({"message": message, "line": 0, "column": 0})
}

/// A syntax error; `jsoncAccepts` says whether JSONC would take the text, so
/// each view names its own way to accept it (the core's message names none).
fn parse_error(error: &JsonParseError, document: &str) -> Value {
    json!({
        "message": error.message, "line": error.line, "column": error.column, "offset": error.offset,
        "document": document, "jsoncAccepts": error.jsonc_accepts(),
    })
}

/// The page's error shape, where line 0 means "no place" (as in [`usage`]).
fn schema_error(error: &SchemaError) -> Value {
    let (line, column) = error.at.map_or((0, 0), |at| (at.line, at.column));
    json!({
        "message": error.message, "line": line, "column": column,
        "document": "schema", "file": error.file, "kind": error.kind, "issues": error.issues,
    })
}

/// A parameter that is not a string: a usage error like a bad option.
fn argument_error(message: String) -> String {
    reply(Err(usage(&message)))
}

fn reply(result: Result<Value, Value>) -> String {
    match result {
        Ok(Value::Object(mut fields)) => {
            fields.insert("ok".into(), Value::Bool(true));
            Value::Object(fields).to_string()
        }
        Ok(other) => json!({"ok": true, "value": other}).to_string(),
        Err(error) => json!({"ok": false, "error": error}).to_string(),
    }
}

/// Formats `text`: `{"ok": true, "text": "..."}`.
#[wasm_bindgen]
pub fn format_json(text: JsValue, options_json: JsValue) -> String {
    args!(argument_error; string text, string options_json);
    reply(format_request(&text, &options_json))
}

fn format_request(text: &str, options_json: &str) -> Result<Value, Value> {
    let request: FormatRequest = options(options_json)?;
    let indent = match request.indent.as_ref().map(|v| (v.as_u64(), v.as_str())) {
        None | Some((Some(2), _)) => Indent::Spaces(2),
        Some((Some(4), _)) => Indent::Spaces(4),
        Some((_, Some("tab"))) => Indent::Tab,
        Some(_) => return Err(usage("options: indent is 2, 4 or \"tab\"")),
    };
    let options = FormatOptions {
        layout: if request.minify {
            Layout::Minify
        } else {
            Layout::Pretty(indent)
        },
        sort_keys: request.sort_keys,
        jsonc: request.jsonc,
    };
    let formatted = format_document(text, &options).map_err(|e| parse_error(&e, "input"))?;
    // The output keeps a repeated member as written, where a reader keeps one
    // of the two: each is named, at its later key, as Check names it.
    let duplicates: Vec<Value> = SpanTree::parse_with(text, request.jsonc)
        .map(|mut tree| tree.take_duplicate_keys())
        .unwrap_or_default()
        .into_iter()
        .map(|duplicate| json!({ "pointer": duplicate.pointer, "start": duplicate.key_span.start, "end": duplicate.key_span.end }))
        .collect();
    Ok(json!({ "text": formatted.text, "duplicates": duplicates }))
}

/// Validates `instance_text` against `schema_text` or a built-in:
/// `{"ok": true, "valid", "dialect", "issues": [...]}`, plus `kind_mismatch`
/// (as the CLI's note) when the document is plainly another kind of file than
/// the built-in describes.
#[wasm_bindgen]
pub fn validate_json(instance_text: JsValue, schema_text: JsValue, options_json: JsValue) -> String {
    args!(argument_error; string instance_text, string schema_text, string options_json);
    reply(validate_request(&instance_text, &schema_text, &options_json))
}

fn validate_request(instance_text: &str, schema_text: &str, options_json: &str) -> Result<Value, Value> {
    let (schema, builtin) = schema_for(schema_text, options_json)?;
    let report = validate_document("instance", instance_text, &schema, builtin.as_deref());
    match report.error {
        Some(DocumentProblem::NotJson(error)) => Err(parse_error(&error, "instance")),
        Some(DocumentProblem::Unreadable(message)) => Err(usage(&message)),
        None => {
            let mut answer = json!({"valid": report.valid, "dialect": schema.dialect(), "issues": report.issues});
            if let Some(note) = report.kind_mismatch {
                answer["kind_mismatch"] = Value::String(note);
            }
            // No verdict: `valid` is false and `issues` empty; this says why.
            if let Some(unchecked) = report.unchecked {
                answer["unchecked"] = serde_json::to_value(unchecked).map_err(|e| usage(&e.to_string()))?;
            }
            Ok(answer)
        }
    }
}

/// Validates every text of a batch against one schema, compiled once. The
/// texts come joined into one string, `documents`, with `lengths` (a
/// `Uint32Array`) giving each text's length in UTF-16 units, its JavaScript
/// `length` ([`split_batch`]): one string conversion into the wasm, where
/// 10,000 strings would each take one. The reply is
/// `{"ok": true, "dialect", "valid": count, "invalid": count, "failures": [f, ...]}`,
/// where only the documents that failed are listed, each `f` being
/// `{"index", "issues": [...]}` (and `kind_mismatch` as for [`validate_json`])
/// or, for a text that is not JSON, `{"index", "error": {message, line, column}}`.
#[wasm_bindgen]
pub fn validate_json_batch(
    documents: JsValue,
    lengths: JsValue,
    schema_text: JsValue,
    options_json: JsValue,
) -> String {
    args!(argument_error; string documents, u32s lengths, string schema_text, string options_json);
    batch_request(&documents, &lengths, &schema_text, &options_json).unwrap_or_else(|error| reply(Err(error)))
}

/// The batch's reply, serialized straight to text: a thousand failures with
/// their issues would otherwise be built as a `Value` tree first.
#[derive(Serialize)]
struct BatchReply<'a> {
    ok: bool,
    dialect: &'a str,
    #[serde(flatten)]
    report: &'a BatchReport,
}

fn batch_request(documents: &str, lengths: &[u32], schema_text: &str, options_json: &str) -> Result<String, Value> {
    let texts = split_batch(documents, lengths).map_err(|message| usage(&format!("documents: {message}")))?;
    let (schema, builtin) = schema_for(schema_text, options_json)?;
    let report = validate_batch(texts, &schema, builtin.as_deref());
    let answer = BatchReply {
        ok: true,
        dialect: schema.dialect(),
        report: &report,
    };
    serde_json::to_string(&answer).map_err(|e| usage(&e.to_string()))
}

/// The compiled schema a validate request names (a built-in, or `schema_text`
/// with its `refs`, from the cache when compiled before), and the built-in's name.
fn schema_for(schema_text: &str, options_json: &str) -> Result<(SharedSchema, Option<String>), Value> {
    let request: ValidateRequest = options(options_json)?;
    let compile_options = CompileOptions {
        formats: request.formats,
    };
    let refs: Vec<SchemaFile<'_>> = request
        .refs
        .iter()
        .map(|r| SchemaFile {
            name: &r.name,
            text: &r.text,
        })
        .collect();
    let choice = match &request.builtin {
        Some(name) => SchemaChoice::Builtin(name),
        None => SchemaChoice::File {
            main: SchemaFile {
                name: "schema",
                text: schema_text,
            },
            refs,
        },
    };
    let schema = SCHEMAS
        .with_borrow_mut(|cache| load_schema(&choice, &compile_options, cache))
        .map_err(|problem| match problem {
            SchemaProblem::UnknownBuiltin(name) => usage(&format!("no built-in schema `{name}`")),
            SchemaProblem::Invalid(error) => schema_error(&error),
        })?;
    Ok((schema, request.builtin))
}

/// Diffs `a` and `b`: `{"ok": true, "equal", "summary", "arrays", ...}` plus
/// what `want` asks for (all of it when `want` is absent):
/// - `changes`: the located list (`lines` adds their A and B lines, for
///   documents up to [`LOCATE_LIMIT`](crate::json::tools::LOCATE_LIMIT) together; past that the page asks [`locate_json`]);
/// - `patch` (RFC 6902), `merge` (RFC 7386), `unified` (text diff of the
///   canonical forms), `canonical` (the two canonical texts).
///
/// `arrays` says how arrays were matched: by which key, or by position where a
/// key would have named the elements.
#[wasm_bindgen]
pub fn diff_json(a: JsValue, b: JsValue, options_json: JsValue) -> String {
    args!(argument_error; string a, string b, string options_json);
    reply(diff_request(&a, &b, &options_json))
}

fn diff_request(a: &str, b: &str, options_json: &str) -> Result<Value, Value> {
    let request: DiffRequest = options(options_json)?;
    let wants = |part: &str| request.want.as_ref().is_none_or(|want| want.iter().any(|w| w == part));
    let core_request = CoreDiffRequest {
        options: compare_options(&request.array_keys, request.no_default_keys, &request.ignore).map_err(
            |(option, message)| {
                let field = match option {
                    CompareOption::ArrayKeys => "arrayKeys",
                    CompareOption::Ignore => "ignore",
                };
                usage(&format!("{field}: {message}"))
            },
        )?,
        lines: wants("changes") && wants("lines"),
    };
    let problem = |problem| match problem {
        DiffProblem::NotJson(e) if e.side == Side::A => parse_error(&e.error, "a"),
        DiffProblem::NotJson(e) => parse_error(&e.error, "b"),
        too_large => usage(&too_large.to_string()),
    };
    // The merge patch and the unified view need both whole documents; the
    // changes and the patch alone come from the lean documents, several
    // times faster to build here than two `Value` trees.
    let (diff, documents) = if wants("merge") || wants("unified") || wants("canonical") {
        let comparison = diff_documents(a, b, &core_request).map_err(problem)?;
        (comparison.diff, Some((comparison.a, comparison.b)))
    } else {
        (diff_changes(a, b, &core_request).map_err(problem)?, None)
    };
    let pruned = !core_request.options.ignore.is_empty();
    let [added, removed, changed, moved] = diff.counts();
    let mut answer = json!({
        "equal": diff.is_empty(),
        "summary": {"added": added, "removed": removed, "changed": changed, "moved": moved},
        "arrays": diff.arrays,
    });
    let mut put = |key: &str, value: Value| answer[key] = value;
    if wants("changes") {
        put(
            "located",
            Value::Bool(locates_up_front(a.len() + b.len(), &core_request)),
        );
        put("changes", json!(diff.changes));
    }
    if wants("patch") {
        put("patch", json!(diff.patch));
    }
    let Some((a_value, b_value)) = documents else {
        return Ok(answer);
    };
    if wants("merge") {
        put("merge", json!(merge_patch(&a_value, &b_value)));
    }
    if wants("unified") || wants("canonical") {
        let a_canonical = canonical_text(a, &a_value, pruned);
        let b_canonical = canonical_text(b, &b_value, pruned);
        if wants("unified") {
            let (a_name, b_name) = request.names.clone().unwrap_or(("a".into(), "b".into()));
            put("unified", json!(unified(&a_canonical, &b_canonical, &a_name, &b_name)));
        }
        if wants("canonical") {
            put("canonical", json!({"a": a_canonical, "b": b_canonical}));
        }
    }
    Ok(answer)
}

/// The line of each JSON Pointer of `pointers_json` (a JSON array of strings)
/// in the JSON `text`: `{"ok": true, "lines": [n, ...]}`, each the line of the
/// value there or of its nearest existing ancestor. One scan for all the
/// pointers, asked for when a change is clicked in documents past [`LOCATE_LIMIT`](crate::json::tools::LOCATE_LIMIT).
#[wasm_bindgen]
pub fn locate_json(text: JsValue, pointers_json: JsValue) -> String {
    args!(argument_error; string text, string pointers_json);
    reply(locate_request(&text, &pointers_json))
}

fn locate_request(text: &str, pointers_json: &str) -> Result<Value, Value> {
    let pointers: Vec<String> = serde_json::from_str(pointers_json).map_err(|e| usage(&format!("pointers: {e}")))?;
    // Documents that do not parse locate nothing; every change then points at line 1.
    let lines = lines_of(text, pointers.iter().map(String::as_str)).unwrap_or_else(|_| vec![1; pointers.len()]);
    Ok(json!({ "lines": lines }))
}

/// The built-in schemas: `{"ok": true, "schemas": [{name, description}]}`.
#[wasm_bindgen]
pub fn builtin_schemas() -> String {
    let schemas: Vec<Value> = BUILTINS
        .iter()
        .map(|b| json!({"name": b.name, "description": b.description}))
        .collect();
    reply(Ok(json!({ "schemas": schemas })))
}
