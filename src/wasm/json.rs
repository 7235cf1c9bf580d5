//! The JSON toolkit for the page: format, validate, diff, and the built-in
//! schema list. JSON text in, JSON text out: `{"ok": true, ...}`, or
//! `{"ok": false, "error": {message, line, column, ...}}` for a user's mistake.

use serde::Deserialize;
use serde_json::{Value, json};
use wasm_bindgen::prelude::*;

use super::args::args;

use crate::json::builtin::{BUILTINS, builtin};
use crate::json::diff::unified::unified;
use crate::json::diff::{
    ArrayKey, CompareOptions, IgnorePattern, Side, canonical_text, compare, locate, merge::merge_patch,
};
use crate::json::format::{FormatOptions, Indent, Layout, format};
use crate::json::parse::{JsonParseError, parse_document};
use crate::json::validate::{CompileOptions, SchemaError, SchemaFile, compile, validate};

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
/// "names": ["a.json", "b.json"]}`, all optional.
#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", default)]
struct DiffRequest {
    array_keys: Vec<String>,
    no_default_keys: bool,
    ignore: Vec<String>,
    names: Option<(String, String)>,
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
    let request: ValidateRequest = options(options_json)?;
    let compile_options = CompileOptions {
        formats: request.formats,
    };
    let schema = match &request.builtin {
        Some(name) => builtin(name)
            .ok_or_else(|| usage(&format!("no built-in schema `{name}`")))?
            .compile(&compile_options),
        None => {
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
            compile(main, &siblings, &compile_options)
        }
    }
    .map_err(|e| schema_error(&e))?;
    let document = parse_document(instance_text).map_err(|e| parse_error(&e, "instance"))?;
    let issues = validate(instance_text, &document, &schema);
    Ok(json!({"valid": issues.is_empty(), "dialect": schema.dialect(), "issues": issues}))
}

/// Diffs `a` and `b`: `{"ok": true, "equal", "summary", "changes", "patch", "merge", "unified"}`.
#[wasm_bindgen]
pub fn diff_json(a: JsValue, b: JsValue, options_json: JsValue) -> String {
    args!(argument_error; string a, string b, string options_json);
    reply(diff_request(&a, &b, &options_json))
}

fn diff_request(a: &str, b: &str, options_json: &str) -> Result<Value, Value> {
    let request: DiffRequest = options(options_json)?;
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
    if !pruned && let (Ok(a_doc), Ok(b_doc)) = (parse_document(a), parse_document(b)) {
        locate(&mut comparison.diff.changes, (a, &a_doc), (b, &b_doc));
    }
    let (a_name, b_name) = request.names.unwrap_or(("a".into(), "b".into()));
    let text_diff = unified(
        &canonical_text(a, &comparison.a, pruned),
        &canonical_text(b, &comparison.b, pruned),
        &a_name,
        &b_name,
    );
    let [added, removed, changed, moved] = comparison.diff.counts();
    Ok(json!({
        "equal": comparison.diff.is_empty(),
        "summary": {"added": added, "removed": removed, "changed": changed, "moved": moved},
        "changes": comparison.diff.changes,
        "patch": comparison.diff.patch,
        "merge": merge_patch(&comparison.a, &comparison.b),
        "unified": text_diff,
    }))
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
