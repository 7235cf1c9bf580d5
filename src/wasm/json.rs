//! The JSON toolkit for the page: format, validate (one document or a batch),
//! diff, and the built-in schema list. JSON text in, JSON text out:
//! `{"ok": true, ...}`, or `{"ok": false, "error": {message, line, column, ...}}`
//! for a user's mistake.
//!
//! Compiled schemas are kept across calls ([`SchemaCache`]), and a diff computes
//! only the parts the page asks for (`want`), because in the browser the rest
//! costs seconds on big documents.

use std::cell::RefCell;
use std::sync::Arc;

use serde::Deserialize;
use serde_json::{Value, json};
use wasm_bindgen::prelude::*;

use super::args::args;

use crate::json::builtin::{BUILTINS, Builtin, builtin};
use crate::json::diff::unified::unified;
use crate::json::diff::{
    ArrayKey, Change, ChangeKind, CompareOptions, IgnorePattern, Side, canonical_text, compare, merge::merge_patch,
};
use crate::json::format::{FormatOptions, Indent, Layout, format};
use crate::json::locate::SpanTree;
use crate::json::parse::{JsonDoc, JsonParseError, parse_document};
use crate::json::validate::{
    CacheKey, CompileOptions, CompiledSchema, SchemaCache, SchemaError, SchemaFile, validate, validate_text,
};

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

fn parse_error(error: &JsonParseError, document: &str) -> Value {
    json!({"message": error.message, "line": error.line, "column": error.column, "offset": error.offset, "document": document})
}

fn schema_error(error: &SchemaError) -> Value {
    json!({
        "message": error.message, "line": error.line, "column": error.column,
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
    let formatted = format(text, &options).map_err(|e| parse_error(&e, "input"))?;
    Ok(json!({ "text": formatted }))
}

/// Validates `instance_text` against `schema_text` or a built-in:
/// `{"ok": true, "valid", "dialect", "issues": [...]}`.
#[wasm_bindgen]
pub fn validate_json(instance_text: JsValue, schema_text: JsValue, options_json: JsValue) -> String {
    args!(argument_error; string instance_text, string schema_text, string options_json);
    reply(validate_request(&instance_text, &schema_text, &options_json))
}

fn validate_request(instance_text: &str, schema_text: &str, options_json: &str) -> Result<Value, Value> {
    let schema = schema_for(schema_text, options_json)?;
    let document = parse_document(instance_text).map_err(|e| parse_error(&e, "instance"))?;
    let issues = validate(instance_text, &document, &schema);
    Ok(json!({"valid": issues.is_empty(), "dialect": schema.dialect(), "issues": issues}))
}

/// Validates every text of `documents` against one schema, compiled once:
/// `{"ok": true, "dialect", "valid": count, "invalid": count, "results": [r, ...]}`,
/// where `r` is `{"valid": true}`, `{"valid": false, "issues": [...]}` or, for a
/// text that is not JSON, `{"valid": false, "error": {message, line, column}}`.
#[wasm_bindgen]
pub fn validate_json_batch(documents: JsValue, schema_text: JsValue, options_json: JsValue) -> String {
    args!(argument_error; strings documents, string schema_text, string options_json);
    reply(validate_batch(&documents, &schema_text, &options_json))
}

fn validate_batch(documents: &[String], schema_text: &str, options_json: &str) -> Result<Value, Value> {
    let schema = schema_for(schema_text, options_json)?;
    let mut valid = 0;
    let results: Vec<Value> = documents
        .iter()
        .map(|text| match validate_text(text, &schema) {
            Ok(issues) if issues.is_empty() => {
                valid += 1;
                json!({"valid": true})
            }
            Ok(issues) => json!({"valid": false, "issues": issues}),
            Err(error) => json!({"valid": false, "error": parse_error(&error, "instance")}),
        })
        .collect();
    Ok(json!({
        "dialect": schema.dialect(), "valid": valid, "invalid": documents.len() - valid, "results": results,
    }))
}

/// The compiled schema a validate request names: a built-in, or `schema_text`
/// with its `refs`; from the cache when it was compiled before.
fn schema_for(schema_text: &str, options_json: &str) -> Result<SchemaRef, Value> {
    let request: ValidateRequest = options(options_json)?;
    let compile_options = CompileOptions {
        formats: request.formats,
    };
    if let Some(name) = &request.builtin {
        let entry = builtin(name).ok_or_else(|| usage(&format!("no built-in schema `{name}`")))?;
        return builtin_schema(entry, &compile_options);
    }
    let siblings: Vec<SchemaFile<'_>> = request
        .refs
        .iter()
        .map(|r| SchemaFile {
            name: &r.name,
            text: &r.text,
        })
        .collect();
    let main = SchemaFile {
        name: "schema",
        text: schema_text,
    };
    SCHEMAS
        .with_borrow_mut(|cache| cache.compile(main, &siblings, &compile_options))
        .map(SchemaRef::Cached)
        .map_err(|e| schema_error(&e))
}

/// A built-in: the shared compilation, or with other options a cached one.
fn builtin_schema(entry: &'static Builtin, options: &CompileOptions) -> Result<SchemaRef, Value> {
    if !options.formats {
        return entry.schema().map(SchemaRef::Builtin).map_err(schema_error);
    }
    let name = format!("<builtin {}>", entry.name);
    let key = CacheKey::of(
        SchemaFile {
            name: &name,
            text: entry.text(),
        },
        &[],
        options,
    );
    SCHEMAS
        .with_borrow_mut(|cache| cache.get_or_compile(key, || entry.compile(options)))
        .map(SchemaRef::Cached)
        .map_err(|e| schema_error(&e))
}

/// A compiled schema, shared with the built-in table or the cache.
enum SchemaRef {
    Builtin(&'static CompiledSchema),
    Cached(Arc<CompiledSchema>),
}

impl std::ops::Deref for SchemaRef {
    type Target = CompiledSchema;

    fn deref(&self) -> &CompiledSchema {
        match self {
            SchemaRef::Builtin(schema) => schema,
            SchemaRef::Cached(schema) => schema,
        }
    }
}

/// Diffs `a` and `b`: `{"ok": true, "equal", "summary", "arrays", ...}` plus
/// what `want` asks for (all of it when `want` is absent):
/// - `changes`: the located list (`lines` adds their A and B lines, for
///   documents up to [`LOCATE_ALL_BYTES`]; past that the page asks [`locate_json`]);
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

/// Past this many bytes in A and B together, changes are not located up front:
/// the span trees of two big documents cost seconds and ten times their size.
pub const LOCATE_ALL_BYTES: usize = 2 << 20;

fn diff_request(a: &str, b: &str, options_json: &str) -> Result<Value, Value> {
    let request: DiffRequest = options(options_json)?;
    let wants = |part: &str| request.want.as_ref().is_none_or(|want| want.iter().any(|w| w == part));
    let compare_options = CompareOptions {
        array_keys: request
            .array_keys
            .iter()
            .map(|spec| ArrayKey::parse(spec))
            .collect::<Result<_, _>>()
            .map_err(|m| usage(&format!("arrayKeys: {m}")))?,
        no_default_keys: request.no_default_keys,
        ignore: request
            .ignore
            .iter()
            .map(|pattern| IgnorePattern::parse(pattern))
            .collect::<Result<_, _>>()
            .map_err(|m| usage(&format!("ignore: {m}")))?,
    };
    let mut comparison = compare(a, b, &compare_options).map_err(|e| match e.side {
        Side::A => parse_error(&e.error, "a"),
        Side::B => parse_error(&e.error, "b"),
    })?;
    let pruned = !compare_options.ignore.is_empty();
    let [added, removed, changed, moved] = comparison.diff.counts();
    let mut answer = json!({
        "equal": comparison.diff.is_empty(),
        "summary": {"added": added, "removed": removed, "changed": changed, "moved": moved},
        "arrays": comparison.diff.arrays,
    });
    let mut put = |key: &str, value: Value| answer[key] = value;
    if wants("changes") {
        let located = wants("lines") && !pruned && a.len() + b.len() <= LOCATE_ALL_BYTES;
        if located && let (Ok(a_doc), Ok(b_doc)) = (parse_document(a), parse_document(b)) {
            fill_lines(&mut comparison.diff.changes, (a, &a_doc), (b, &b_doc));
        }
        put("located", Value::Bool(located));
        put("changes", json!(comparison.diff.changes));
    }
    if wants("patch") {
        put("patch", json!(comparison.diff.patch));
    }
    if wants("merge") {
        put("merge", json!(merge_patch(&comparison.a, &comparison.b)));
    }
    if wants("unified") || wants("canonical") {
        let a_canonical = canonical_text(a, &comparison.a, pruned);
        let b_canonical = canonical_text(b, &comparison.b, pruned);
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

/// The 1-based line of each byte offset of a text, by binary search over its
/// newlines. Lines only: the page scrolls to lines, and a column would mean
/// counting characters along a minified document's one line.
struct Lines(Vec<usize>);

impl Lines {
    fn new(text: &str) -> Self {
        Lines(
            text.bytes()
                .enumerate()
                .filter(|(_, b)| *b == b'\n')
                .map(|(i, _)| i)
                .collect(),
        )
    }

    fn line(&self, offset: usize) -> usize {
        self.0.partition_point(|&newline| newline < offset) + 1
    }
}

/// Fills in the A and B lines of every change (as `diff::locate`, lines only).
fn fill_lines(changes: &mut [Change], a: (&str, &JsonDoc), b: (&str, &JsonDoc)) {
    let (a_lines, b_lines) = (Lines::new(a.0), Lines::new(b.0));
    for change in changes {
        let old_pointer = match change.kind {
            ChangeKind::Removed => Some(change.path.as_str()),
            ChangeKind::Added => None,
            _ => Some(change.old_path.as_deref().unwrap_or(&change.path)),
        };
        change.old_line = old_pointer.map(|p| a_lines.line(a.1.nearest_span(p).start));
        change.new_line =
            (change.kind != ChangeKind::Removed).then(|| b_lines.line(b.1.nearest_span(&change.path).start));
    }
}

/// The line of each JSON Pointer of `pointers_json` (a JSON array of strings)
/// in the JSON `text`: `{"ok": true, "lines": [n, ...]}`, each the line of the
/// value there or of its nearest existing ancestor. One span tree for all the
/// pointers, built only when a change is clicked in a document too big to locate up front.
#[wasm_bindgen]
pub fn locate_json(text: JsValue, pointers_json: JsValue) -> String {
    args!(argument_error; string text, string pointers_json);
    reply(locate_request(&text, &pointers_json))
}

fn locate_request(text: &str, pointers_json: &str) -> Result<Value, Value> {
    let pointers: Vec<String> = serde_json::from_str(pointers_json).map_err(|e| usage(&format!("pointers: {e}")))?;
    let lines = Lines::new(text);
    // Documents that do not parse locate nothing; every change then points at line 1.
    let located: Vec<usize> = match SpanTree::parse(text) {
        Ok(tree) => pointers
            .iter()
            .map(|pointer| lines.line(tree.nearest_span(pointer).start))
            .collect(),
        Err(_) => vec![1; pointers.len()],
    };
    Ok(json!({ "lines": located }))
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
