//! JSON Schema validation of any instance against any schema, with every error
//! pointing at the instance's line and column.
//!
//! The dialect follows the schema's `$schema` (draft 4, 6, 7, 2019-09, 2020-12),
//! 2020-12 when absent; the `jsonschema` crate does the validating. What this
//! module adds: the schema is meta-validated first with *all* its errors located
//! in the schema file, remote `$ref`s are never fetched (the error names the
//! reference), sibling schema files resolve by `$id` or file name, and every
//! issue carries the instance's `line:column`, span, and the array element it
//! sits in.

use std::sync::Arc;

use serde::Serialize;
use serde_json::Value;

use crate::budget::{Guard, Stop};
#[cfg(not(target_arch = "wasm32"))]
use crate::lean::{Lean, LeanDoc, LeanNode};
use crate::locate::{key_before, nearest_spans_in_checked, opening_of};
use crate::parse::{JsonDoc, JsonParseError, parse_document, pointer_tokens};
use crate::pointer::push_token;
use crate::scan::check_syntax;
use crate::text::{LineCol, LineIndex, Span};

/// The base URI of a schema that has no `$id` (the `jsonschema` crate's default),
/// under which sibling files given without an `$id` are registered by file name.
const DEFAULT_BASE: &str = "json-schema:///";

/// A schema document by the name the user knows it by (a path, `<builtin plugin>`).
#[derive(Debug, Clone, Copy)]
pub struct SchemaFile<'a> {
    pub name: &'a str,
    pub text: &'a str,
}

/// How to compile a schema.
#[derive(Debug, Clone, Copy, Default)]
pub struct CompileOptions {
    /// Assert `format` (off by default, as JSON Schema 2019-09+ makes it an annotation).
    pub formats: bool,
}

/// A schema ready to validate many instances; compile once, validate often.
#[derive(Clone)]
pub struct CompiledSchema {
    validator: jsonschema::Validator,
    /// The same schema for [`LeanDoc`]s: the fast "is it valid?" of [`validate_text`].
    /// Native only, as a second instantiation of the validator would grow the wasm.
    #[cfg(not(target_arch = "wasm32"))]
    lean: jsonschema::Validator<Lean>,
    /// What validating a document would cost, and whether its numbers are exact: a
    /// document too costly to validate, or whose verdict would rest on a number
    /// rounded to `f64`, gets no verdict rather than a slow or a wrong one.
    guard: Arc<Guard>,
    dialect: &'static str,
}

impl std::fmt::Debug for CompiledSchema {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CompiledSchema")
            .field("dialect", &self.dialect)
            .finish()
    }
}

impl CompiledSchema {
    /// The JSON Schema dialect the schema was compiled as, e.g. `2020-12`.
    pub fn dialect(&self) -> &'static str {
        self.dialect
    }
}

/// One way an instance fails its schema.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ValidationIssue {
    /// JSON Pointer of the failing value in the instance (`""` for the root).
    pub instance_pointer: String,
    /// JSON Pointer of the failing keyword in the schema, through any `$ref`.
    pub schema_location: String,
    /// The keyword that failed, e.g. `required`, `type`, `$ref`.
    pub keyword: String,
    pub message: String,
    /// For `required`: the member that is missing. The pointer names the object
    /// lacking it, since the member has no place of its own.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub missing: Option<String>,
    /// 1-based line and column of the failing value (or its nearest existing ancestor).
    pub line: usize,
    pub column: usize,
    pub span: Span,
    /// The outermost array element the failing value sits in, so an error deep in
    /// a list of 10,000 tools says which tool.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub element: Option<ArrayElement>,
}

/// Why a document got no verdict: the check could not be finished, or its
/// verdict would not be exact. Never a violation, and never a pass.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Unchecked {
    pub reason: UncheckedReason,
    pub message: String,
    /// JSON Pointer of the value the check stopped at (`""` for the whole document).
    pub instance_pointer: String,
    pub line: usize,
    pub column: usize,
    pub span: Span,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum UncheckedReason {
    /// The schema's branches would cost more work on this input than its budget allows.
    TooExpensive,
    /// A `pattern` could not be matched within the regular expression engine's backtracking limit.
    Regex,
    /// A numeric keyword would compare a number that a 64-bit float cannot hold exactly.
    Inexact,
}

/// What validating a document found.
#[derive(Debug)]
pub enum Verdict {
    Valid,
    Invalid(Failure),
    Unchecked(Unchecked),
}

/// An element of an array, by index and, when it is an object with a string `name`, by name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ArrayElement {
    pub pointer: String,
    pub index: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

/// Why a schema could not be compiled.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SchemaError {
    /// The schema file at fault (the main schema or a sibling given with it).
    pub file: String,
    pub kind: SchemaErrorKind,
    pub message: String,
    /// Where in `file` the problem is; `None` when it has no place (a missing
    /// reference, a compilation the library refused as a whole).
    pub at: Option<LineCol>,
    /// For `NotASchema`: every meta-schema violation, located in the schema file.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub issues: Vec<ValidationIssue>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SchemaErrorKind {
    /// The schema text is not JSON.
    NotJson,
    /// The schema is JSON but violates its dialect's meta-schema.
    NotASchema,
    /// A `$ref` (or `$schema`) names a document we do not have; we never fetch one.
    UnresolvedReference,
    /// Anything else the compiler refused (e.g. an invalid regular expression).
    Invalid,
}

impl std::fmt::Display for SchemaError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.at {
            Some(at) => write!(f, "{}:{}:{}: {}", self.file, at.line, at.column, self.message),
            None => write!(f, "{}: {}", self.file, self.message),
        }
    }
}

/// Compiles `schema`, resolving `$ref`s into `siblings` (by their `$id`, or by file
/// name relative to a schema without `$id`). Nothing is ever fetched.
pub fn compile(
    schema: SchemaFile<'_>,
    siblings: &[SchemaFile<'_>],
    options: &CompileOptions,
) -> Result<CompiledSchema, SchemaError> {
    let root = parse_schema(schema)?;
    let mut registry = jsonschema::Registry::new();
    let mut documents = Vec::with_capacity(siblings.len());
    for sibling in siblings {
        let mut document = parse_schema(*sibling)?;
        // A referenced resource without `$schema` is read in the dialect of the
        // schema that refers to it: a draft-07 sibling's
        // `"$id": "#foo"` is an anchor there, not an invalid 2020-12 `$id`.
        inherit_dialect(&mut document.value, &root.value);
        meta_validate(*sibling, &document)?;
        let uri = sibling_uri(sibling.name, &document.value);
        documents.push((uri.clone(), document.value.clone()));
        registry = registry
            .add(&uri, document.value)
            .map_err(|e| whole_file_error(sibling.name, SchemaErrorKind::Invalid, e.to_string()))?;
    }
    let registry = registry.prepare().map_err(|e| reference_error(schema.name, &e))?;
    // Building meta-validates the schema, stopping at the first violation; only
    // a failed build pays for a second pass that locates every violation (the
    // meta-schema validator is rebuilt on each use in wasm, where it costs most).
    build(schema.name, &root.value, &registry, options, &documents).map_err(|error| {
        match meta_validate(schema, &root) {
            Err(located) => located,
            Ok(()) => error,
        }
    })
}

/// Gives `document` the `$schema` of `referrer` when it has none of its own.
fn inherit_dialect(document: &mut Value, referrer: &Value) {
    if let (Value::Object(members), Some(dialect)) = (document, referrer.get("$schema"))
        && !members.contains_key("$schema")
    {
        members.insert("$schema".into(), dialect.clone());
    }
}

/// Compiles the definition at `pointer` inside a bigger schema document (e.g.
/// `/$defs/Tool` of the MCP schema), with the document's other definitions in reach.
pub fn compile_definition(
    document: SchemaFile<'_>,
    pointer: &str,
    options: &CompileOptions,
) -> Result<CompiledSchema, SchemaError> {
    let parsed = parse_schema(document)?;
    meta_validate(document, &parsed)?;
    // Each compilation has its own registry, so one fixed address serves every document.
    let uri = format!("{DEFAULT_BASE}apcheck/definitions.json");
    let mut entry = serde_json::Map::new();
    if let Some(dialect) = parsed.value.get("$schema") {
        entry.insert("$schema".into(), dialect.clone());
    }
    entry.insert("$ref".into(), Value::String(format!("{uri}#{pointer}")));
    let documents = [(uri.clone(), parsed.value.clone())];
    let registry = jsonschema::Registry::new()
        .add(&uri, parsed.value)
        .and_then(|builder| builder.prepare())
        .map_err(|e| reference_error(document.name, &e))?;
    build(document.name, &Value::Object(entry), &registry, options, &documents)
}

fn build(
    name: &str,
    schema: &Value,
    registry: &jsonschema::Registry<'_>,
    options: &CompileOptions,
    documents: &[(String, Value)],
) -> Result<CompiledSchema, SchemaError> {
    let validator = build_for::<jsonschema::json::SerdeJson>(name, schema, registry, options)?;
    let dialect = dialect_name(validator.draft());
    let guard = Guard::build(schema, &root_uri(schema), documents, validator.draft());
    Ok(CompiledSchema {
        #[cfg(not(target_arch = "wasm32"))]
        lean: build_for::<Lean>(name, schema, registry, options)?,
        validator,
        guard: Arc::new(guard),
        dialect,
    })
}

/// The base URI the compiler gives the main schema: its absolute `$id`, or
/// the default base that a relative one is read against.
fn root_uri(schema: &Value) -> String {
    let declared = schema.get("$id").or_else(|| schema.get("id")).and_then(Value::as_str);
    match declared.map(|id| id.split('#').next().unwrap_or_default()) {
        Some(id) if id.contains(':') => id.to_string(),
        Some(relative) => format!("{DEFAULT_BASE}{}", relative.trim_start_matches('/')),
        None => DEFAULT_BASE.to_string(),
    }
}

/// The validator of `schema` for instances in the representation `F`.
fn build_for<F: jsonschema::json::Json>(
    name: &str,
    schema: &Value,
    registry: &jsonschema::Registry<'_>,
    options: &CompileOptions,
) -> Result<jsonschema::Validator<F>, SchemaError> {
    jsonschema::options_for::<F>()
        .with_registry(registry)
        .should_validate_formats(options.formats)
        .build(schema)
        .map_err(|error| match error.kind() {
            jsonschema::error::ValidationErrorKind::Referencing(reference) => reference_error(name, reference),
            _ => whole_file_error(name, SchemaErrorKind::Invalid, error.to_string()),
        })
}

fn parse_schema(file: SchemaFile<'_>) -> Result<JsonDoc, SchemaError> {
    parse_document(file.text).map_err(|error| not_json(file.name, &error))
}

fn not_json(name: &str, error: &JsonParseError) -> SchemaError {
    SchemaError {
        file: name.to_string(),
        kind: SchemaErrorKind::NotJson,
        message: error.message.clone(),
        at: Some(LineCol {
            line: error.line,
            column: error.column,
        }),
        issues: Vec::new(),
    }
}

/// Checks the schema against its dialect's meta-schema and reports every violation.
fn meta_validate(file: SchemaFile<'_>, document: &JsonDoc) -> Result<(), SchemaError> {
    if !(document.value.is_object() || document.value.is_boolean()) {
        let span = document.nearest_span("");
        let at = LineIndex::new(file.text).line_col(file.text, span.start);
        return Err(SchemaError {
            file: file.name.to_string(),
            kind: SchemaErrorKind::NotASchema,
            message: "a schema is an object or a boolean".to_string(),
            at: Some(at),
            issues: Vec::new(),
        });
    }
    let meta = jsonschema::meta::validator_for(&document.value).map_err(|error| match error.kind() {
        jsonschema::error::ValidationErrorKind::Referencing(reference) => reference_error(file.name, reference),
        _ => whole_file_error(file.name, SchemaErrorKind::Invalid, error.to_string()),
    })?;
    let errors = meta.iter_errors(&document.value).collect();
    let issues = locate_issues(file.text, &document.value, "", errors, |pointers| {
        spans_in(document, pointers)
    });
    match issues.first() {
        None => Ok(()),
        Some(first) => Err(SchemaError {
            file: file.name.to_string(),
            kind: SchemaErrorKind::NotASchema,
            message: format!("not a valid JSON Schema: {}", first.message),
            at: Some(LineCol {
                line: first.line,
                column: first.column,
            }),
            issues,
        }),
    }
}

fn whole_file_error(name: &str, kind: SchemaErrorKind, message: String) -> SchemaError {
    SchemaError {
        file: name.to_string(),
        kind,
        message,
        at: None,
        issues: Vec::new(),
    }
}

fn reference_error(name: &str, error: &jsonschema::ReferencingError) -> SchemaError {
    let message = match error {
        jsonschema::ReferencingError::Unretrievable { uri, .. } => {
            format!("unresolved reference `{uri}`: apcheck never fetches schemas; pass the referenced file with --ref")
        }
        jsonschema::ReferencingError::UnknownSpecification { specification } => {
            format!("unknown `$schema` `{specification}` (known: draft-04, -06, -07, 2019-09, 2020-12)")
        }
        other => format!("unresolved reference: {other}"),
    };
    whole_file_error(name, SchemaErrorKind::UnresolvedReference, message)
}

/// Where a sibling schema is registered: its `$id` (or draft 4 `id`), else its file name
/// under the default base, so `{"$ref": "b.json"}` finds `--ref dir/b.json`.
fn sibling_uri(name: &str, value: &Value) -> String {
    let declared = value.get("$id").or_else(|| value.get("id")).and_then(Value::as_str);
    match declared {
        Some(id) if id.contains(':') => id.to_string(),
        Some(relative) => format!("{DEFAULT_BASE}{}", relative.trim_start_matches('/')),
        None => format!("{DEFAULT_BASE}{}", file_name(name)),
    }
}

fn file_name(name: &str) -> &str {
    name.rsplit(['/', '\\']).next().unwrap_or(name)
}

fn dialect_name(draft: jsonschema::Draft) -> &'static str {
    match draft {
        jsonschema::Draft::Draft4 => "draft-04",
        jsonschema::Draft::Draft6 => "draft-06",
        jsonschema::Draft::Draft7 => "draft-07",
        jsonschema::Draft::Draft201909 => "2019-09",
        _ => "2020-12",
    }
}

/// Compiled schemas kept for reuse across calls, keyed by everything a
/// compilation reads: the schema files' names and texts (which fix the draft,
/// through `$schema`) and the options. The least recently used is dropped first.
/// The page's worker keeps one: a compilation builds the dialect's meta-schema
/// validator, milliseconds in wasm, while validating a small document takes
/// microseconds. Failed compilations are not kept.
#[derive(Debug)]
pub struct SchemaCache {
    capacity: usize,
    /// Least recently used first.
    entries: Vec<(CacheKey, Arc<CompiledSchema>)>,
}

/// What a compilation depends on: `(name, text)` per file, the main one first, and the options.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CacheKey {
    files: Vec<(String, String)>,
    formats: bool,
}

impl CacheKey {
    /// The key of `compile(schema, siblings, options)`.
    pub fn of(schema: SchemaFile<'_>, siblings: &[SchemaFile<'_>], options: &CompileOptions) -> Self {
        CacheKey {
            files: std::iter::once(&schema)
                .chain(siblings)
                .map(|file| (file.name.to_string(), file.text.to_string()))
                .collect(),
            formats: options.formats,
        }
    }
}

impl SchemaCache {
    /// A cache holding at most `capacity` compiled schemas (at least one).
    pub fn new(capacity: usize) -> Self {
        SchemaCache {
            capacity: capacity.max(1),
            entries: Vec::new(),
        }
    }

    /// The compiled schema for `key`, compiled by `compile` on a miss.
    pub fn get_or_compile(
        &mut self,
        key: CacheKey,
        compile: impl FnOnce() -> Result<CompiledSchema, SchemaError>,
    ) -> Result<Arc<CompiledSchema>, SchemaError> {
        if let Some(position) = self.entries.iter().position(|(cached, _)| *cached == key) {
            let entry = self.entries.remove(position);
            let schema = Arc::clone(&entry.1);
            self.entries.push(entry);
            return Ok(schema);
        }
        let schema = Arc::new(compile()?);
        if self.entries.len() == self.capacity {
            self.entries.remove(0);
        }
        self.entries.push((key, Arc::clone(&schema)));
        Ok(schema)
    }

    /// [`compile`], through the cache.
    pub fn compile(
        &mut self,
        schema: SchemaFile<'_>,
        siblings: &[SchemaFile<'_>],
        options: &CompileOptions,
    ) -> Result<Arc<CompiledSchema>, SchemaError> {
        self.get_or_compile(CacheKey::of(schema, siblings, options), || {
            compile(schema, siblings, options)
        })
    }

    /// How many compiled schemas are kept.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

/// Every way `instance` fails `schema`, in the validator's order, each located in `text`
/// (the text `instance` was parsed from); `Err` when the document gets no verdict.
pub fn validate(text: &str, instance: &JsonDoc, schema: &CompiledSchema) -> Result<Vec<ValidationIssue>, Unchecked> {
    validate_value(text, instance, &instance.value, "", schema)
}

/// Whether `node`, a value of a document scanned from a text of `text_len`
/// bytes, is valid: [`validate`]'s verdict without a `Value` of it. `false`
/// also when it gets no verdict; the caller takes [`validate`]'s path to say why.
#[cfg(not(target_arch = "wasm32"))]
pub fn is_valid_lean(node: LeanNode<'_>, text_len: usize, schema: &CompiledSchema) -> bool {
    !(schema.guard.needs_check(text_len) && schema.guard.check::<Lean>(&node, text_len).is_err())
        && schema.lean.is_valid(node)
}

/// [`validate`] of the value `value` at `prefix` inside `instance` (parsed from
/// `text`), for a caller that holds the value apart from the document's
/// `Value` (a snapshot's tool, read one at a time).
pub fn validate_value(
    text: &str,
    instance: &JsonDoc,
    value: &Value,
    prefix: &str,
    schema: &CompiledSchema,
) -> Result<Vec<ValidationIssue>, Unchecked> {
    let spans_of = |pointers: &[&str]| spans_in(instance, pointers);
    if schema.guard.needs_check(text.len())
        && let Err(stop) = schema.guard.check::<jsonschema::json::SerdeJson>(&value, text.len())
    {
        return Err(stopped(text, prefix, stop, spans_of));
    }
    if schema.validator.is_valid(value) {
        return Ok(Vec::new());
    }
    let errors = undecided(text, prefix, schema.validator.iter_errors(value).collect(), spans_of)?;
    Ok(locate_issues(text, &instance.value, prefix, errors, spans_of))
}

/// Parses and validates `text`: its issues (none when valid), or why it gets
/// no verdict, as [`validate`] answers.
pub fn validate_text(
    text: &str,
    schema: &CompiledSchema,
) -> Result<Result<Vec<ValidationIssue>, Unchecked>, JsonParseError> {
    Ok(match validate_text_keeping_failure(text, schema)? {
        Verdict::Valid => Ok(Vec::new()),
        Verdict::Invalid(failure) => Ok(failure.issues),
        Verdict::Unchecked(unchecked) => Err(unchecked),
    })
}

/// A document that failed its schema: the issues, and the value they were
/// found in, so a caller that looks further at a failing document (the
/// kind-mismatch hint) does not parse it again.
#[derive(Debug)]
pub struct Failure {
    pub issues: Vec<ValidationIssue>,
    pub value: Value,
}

/// Parses and validates `text`; the fast path for many documents. Spans are
/// built only for a failing document, and the value is kept only for one.
pub fn validate_text_keeping_failure(text: &str, schema: &CompiledSchema) -> Result<Verdict, JsonParseError> {
    let needs_check = schema.guard.needs_check(text.len());
    // A valid document needs no `Value` at all: the lean document is a fraction
    // of its size and faster to build. Anything else takes the `Value` path,
    // which says why, exactly as before. Either is walked by the guard first.
    #[cfg(not(target_arch = "wasm32"))]
    let guarded = match LeanDoc::parse(text) {
        Some(document) => {
            if needs_check && let Err(stop) = schema.guard.check::<Lean>(&document.root(), text.len()) {
                return Ok(Verdict::Unchecked(stopped(text, "", stop, |pointers| {
                    nearest_spans_in_checked(text, pointers)
                })));
            }
            if schema.lean.is_valid(document.root()) {
                return Ok(Verdict::Valid);
            }
            true
        }
        None => !needs_check,
    };
    #[cfg(target_arch = "wasm32")]
    let guarded = !needs_check;
    let parsed = if guarded {
        apcheck_hot::parse_and_check(&schema.validator, text)
    } else {
        apcheck_hot::parse_value(text).map(Some)
    };
    let value = match parsed {
        Ok(None) => return Ok(Verdict::Valid),
        Ok(Some(value)) => value,
        // The formatter's scanner says what was expected; serde_json's message is terser.
        Err(_) => {
            check_syntax(text, false)?;
            let document = parse_document(text)?;
            return Ok(match validate(text, &document, schema) {
                Ok(issues) if issues.is_empty() => Verdict::Valid,
                Ok(issues) => Verdict::Invalid(Failure {
                    issues,
                    value: document.value,
                }),
                Err(unchecked) => Verdict::Unchecked(unchecked),
            });
        }
    };
    // Only a failing document's spans are needed, and only at its errors'
    // pointers: serde_json has just accepted the text, so one walk down those
    // paths finds them, with no span tree of the whole document.
    let spans_of = |pointers: &[&str]| nearest_spans_in_checked(text, pointers);
    if !guarded {
        if let Err(stop) = schema.guard.check::<jsonschema::json::SerdeJson>(&&value, text.len()) {
            return Ok(Verdict::Unchecked(stopped(text, "", stop, spans_of)));
        }
        if schema.validator.is_valid(&value) {
            return Ok(Verdict::Valid);
        }
    }
    let errors = match undecided(text, "", schema.validator.iter_errors(&value).collect(), spans_of) {
        Ok(errors) => errors,
        Err(unchecked) => return Ok(Verdict::Unchecked(unchecked)),
    };
    let issues = locate_issues(text, &value, "", errors, spans_of);
    Ok(Verdict::Invalid(Failure { issues, value }))
}

/// Validates the value at `pointer` inside `instance` (e.g. one tool's arguments
/// inside a bigger file); issue pointers are relative to the whole document.
/// `None` when nothing is at `pointer`.
pub fn validate_at(
    text: &str,
    instance: &JsonDoc,
    pointer: &str,
    schema: &CompiledSchema,
) -> Option<Result<Vec<ValidationIssue>, Unchecked>> {
    let value = instance.value.pointer(pointer)?;
    Some(validate_value(text, instance, value, pointer, schema))
}

/// The guard's stop as an [`Unchecked`], located in `text`.
fn stopped(text: &str, prefix: &str, stop: Stop, spans_of: impl FnOnce(&[&str]) -> Vec<Span>) -> Unchecked {
    match stop {
        Stop::TooExpensive { budget } => unchecked(
            text,
            UncheckedReason::TooExpensive,
            format!(
                "could not check: the schema is too expensive for this input (its branches would apply \
                 subschemas more than {budget} times, the budget of a document this size)"
            ),
            prefix.to_string(),
            spans_of,
        ),
        Stop::Inexact { pointer } => unchecked(
            text,
            UncheckedReason::Inexact,
            "could not check exactly: a numeric keyword compares this value with a number that a 64-bit float \
             cannot hold exactly (too many digits, or too large or small), so its verdict would be a rounding's"
                .to_string(),
            format!("{prefix}{pointer}"),
            spans_of,
        ),
    }
}

/// `errors`, or the [`Unchecked`] of a `pattern` the regex engine could not
/// finish. The validator reports such a match as an error of its own when its
/// outcome would change the verdict; it is no violation of the schema.
fn undecided<'a>(
    text: &str,
    prefix: &str,
    errors: Vec<jsonschema::ValidationError<'a>>,
    spans_of: impl FnOnce(&[&str]) -> Vec<Span>,
) -> Result<Vec<jsonschema::ValidationError<'a>>, Unchecked> {
    use jsonschema::error::ValidationErrorKind;
    let unfinished = errors.iter().find(|error| {
        matches!(
            error.kind(),
            ValidationErrorKind::BacktrackLimitExceeded { .. } | ValidationErrorKind::RegexEngineFailure { .. }
        )
    });
    match unfinished {
        None => Ok(errors),
        Some(error) => Err(unchecked(
            text,
            UncheckedReason::Regex,
            format!(
                "could not check: a regular expression of the schema could not be matched here within the \
                 engine's backtracking limit ({})",
                error.masked()
            ),
            format!("{prefix}{}", error.instance_path().as_str()),
            spans_of,
        )),
    }
}

fn unchecked(
    text: &str,
    reason: UncheckedReason,
    message: String,
    instance_pointer: String,
    spans_of: impl FnOnce(&[&str]) -> Vec<Span>,
) -> Unchecked {
    let span = spans_of(&[instance_pointer.as_str()])
        .first()
        .copied()
        .unwrap_or(Span { start: 0, end: 0 });
    let at = LineIndex::line_col_unindexed(text, span.start);
    Unchecked {
        reason,
        message,
        instance_pointer,
        line: at.line,
        column: at.column,
        span,
    }
}

/// Turns the validator's errors into issues; `prefix` is where the validated
/// value sits in `root`, and `spans_of` locates every issue's pointer in `text`
/// at once (the span of each, or of its nearest existing ancestor), so a
/// caller without a span tree locates them all in one walk.
fn locate_issues<'a>(
    text: &str,
    root: &Value,
    prefix: &str,
    errors: Vec<jsonschema::ValidationError<'a>>,
    spans_of: impl FnOnce(&[&str]) -> Vec<Span>,
) -> Vec<ValidationIssue> {
    let errors: Vec<_> = errors
        .into_iter()
        .map(|error| (format!("{prefix}{}", error.instance_path().as_str()), error))
        .collect();
    // An unexpected member is marked at its own key, a missing one at the
    // opening brace of the object that lacks it: the object's whole span
    // would underline the whole document for a root-level finding.
    let marked: Vec<Mark> = errors.iter().map(|(pointer, error)| Mark::of(pointer, error)).collect();
    let pointers: Vec<&str> = marked.iter().map(|mark| mark.pointer()).collect();
    let spans: Vec<Span> = spans_of(&pointers)
        .into_iter()
        .zip(&marked)
        .map(|(span, mark)| mark.narrow(text, span))
        .collect();
    // Most documents fail once or twice: counting to each issue is cheaper
    // than indexing every line of the text first.
    let index = (errors.len() > 4).then(|| LineIndex::new(text));
    let line_col = |offset| match &index {
        Some(index) => index.line_col(text, offset),
        None => LineIndex::line_col_unindexed(text, offset),
    };
    errors
        .into_iter()
        .zip(spans)
        .map(|((instance_pointer, error), span)| {
            let at = line_col(span.start);
            ValidationIssue {
                element: outermost_element(root, &instance_pointer),
                schema_location: error.schema_path().as_str().to_string(),
                keyword: error.kind().keyword().to_string(),
                missing: match error.kind() {
                    jsonschema::error::ValidationErrorKind::Required { property } => {
                        property.as_str().map(str::to_string)
                    }
                    _ => None,
                },
                message: issue_message(&error),
                line: at.line,
                column: at.column,
                span,
                instance_pointer,
            }
        })
        .collect()
}

/// The validator's message for `error`, the instance value masked (it may be
/// a secret). Its format message reads "value is not a \"email\"", with an
/// article that fits no format name; this one names the format as a format.
fn issue_message(error: &jsonschema::ValidationError<'_>) -> String {
    match error.kind() {
        jsonschema::error::ValidationErrorKind::Format { format } => {
            format!(r#"value is not a valid "{format}""#)
        }
        _ => error.masked().to_string(),
    }
}

/// Where in the instance an issue is marked.
enum Mark<'p> {
    /// The value at the issue's pointer.
    Value(&'p str),
    /// The key of the unexpected member at this pointer.
    Key(String),
    /// The opening brace of the object at the issue's pointer, which lacks a member.
    Opening(&'p str),
}

impl<'p> Mark<'p> {
    fn of(pointer: &'p str, error: &jsonschema::ValidationError<'_>) -> Self {
        use jsonschema::error::ValidationErrorKind;
        match error.kind() {
            ValidationErrorKind::AdditionalProperties { unexpected }
            | ValidationErrorKind::UnevaluatedProperties { unexpected } => match unexpected.first() {
                Some(key) => {
                    let mut member = pointer.to_string();
                    push_token(&mut member, key);
                    Mark::Key(member)
                }
                None => Mark::Value(pointer),
            },
            ValidationErrorKind::Required { .. } => Mark::Opening(pointer),
            _ => Mark::Value(pointer),
        }
    }

    fn pointer(&self) -> &str {
        match self {
            Mark::Value(pointer) | Mark::Opening(pointer) => pointer,
            Mark::Key(member) => member,
        }
    }

    /// The marked part of `span`, the span found at [`Mark::pointer`].
    fn narrow(&self, text: &str, span: Span) -> Span {
        match self {
            Mark::Value(_) => span,
            Mark::Key(_) => key_before(text, span).unwrap_or(span),
            Mark::Opening(_) => opening_of(text, span),
        }
    }
}

/// Each pointer's nearest span in a parsed document's span tree.
fn spans_in(document: &JsonDoc, pointers: &[&str]) -> Vec<Span> {
    pointers.iter().map(|pointer| document.nearest_span(pointer)).collect()
}

/// The first array element on the way from the root to `pointer`.
fn outermost_element(root: &Value, pointer: &str) -> Option<ArrayElement> {
    let mut value = root;
    let mut walked = String::new();
    for token in pointer_tokens(pointer)? {
        match value {
            Value::Array(items) => {
                let index: usize = token.parse().ok()?;
                let element = items.get(index)?;
                walked.push('/');
                walked.push_str(&token);
                let name = element.get("name").and_then(Value::as_str).map(str::to_string);
                return Some(ArrayElement {
                    pointer: walked,
                    index,
                    name,
                });
            }
            Value::Object(members) => {
                value = members.get(&token)?;
                crate::parse::push_token(&mut walked, &token);
            }
            _ => return None,
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn schema(text: &str) -> CompiledSchema {
        compile(SchemaFile { name: "s.json", text }, &[], &CompileOptions::default()).unwrap()
    }

    fn issues(schema_text: &str, instance: &str) -> Vec<ValidationIssue> {
        validate_text(instance, &schema(schema_text)).unwrap().unwrap()
    }

    #[test]
    fn every_error_names_pointer_keyword_and_line() {
        let found = issues(
            r#"{"type": "object", "required": ["name"], "properties": {"n": {"type": "integer"}}}"#,
            "{\n  \"n\": \"x\"\n}",
        );
        assert_eq!(found.len(), 2, "{found:?}");
        let required = found.iter().find(|i| i.keyword == "required").unwrap();
        assert_eq!(
            (required.instance_pointer.as_str(), required.line, required.column),
            ("", 1, 1)
        );
        assert_eq!(
            required.span,
            Span::new(0, 1),
            "a missing member marks the opening brace"
        );
        let typed = found.iter().find(|i| i.keyword == "type").unwrap();
        assert_eq!(typed.instance_pointer, "/n");
        assert_eq!(typed.schema_location, "/properties/n/type");
        assert_eq!((typed.line, typed.column), (2, 8));
    }

    #[test]
    fn an_unexpected_member_is_marked_at_its_key() {
        let text = "{\n  \"name\": \"x\",\n  \"odd \\\"key\\\\\": [1, 2]\n}";
        let found = issues(r#"{"properties": {"name": {}}, "additionalProperties": false}"#, text);
        assert_eq!(found.len(), 1, "{found:?}");
        let issue = &found[0];
        assert_eq!(issue.instance_pointer, "", "the issue still belongs to the object");
        assert_eq!(&text[issue.span.start..issue.span.end], r#""odd \"key\\""#);
        assert_eq!((issue.line, issue.column), (3, 3));
        let nested = r#"{"a": {"b": 1, "c": 2}}"#;
        let found = issues(
            r#"{"properties": {"a": {"properties": {"b": {}}, "unevaluatedProperties": false}}}"#,
            nested,
        );
        assert_eq!(&nested[found[0].span.start..found[0].span.end], r#""c""#);
    }

    #[test]
    fn a_format_failure_reads_as_english() {
        let asserting = compile(
            SchemaFile {
                name: "s.json",
                text: r#"{"format": "email"}"#,
            },
            &[],
            &CompileOptions { formats: true },
        )
        .unwrap();
        let found = validate_text(r#""not an address""#, &asserting).unwrap().unwrap();
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].message, r#"value is not a valid "email""#);
    }

    #[test]
    fn errors_in_big_arrays_name_the_element() {
        let found = issues(
            r#"{"items": {"properties": {"size": {"type": "integer"}}}}"#,
            r#"[{"name": "a", "size": 1}, {"name": "b", "size": "big"}]"#,
        );
        let element = found[0].element.as_ref().unwrap();
        assert_eq!((element.index, element.name.as_deref()), (1, Some("b")));
    }

    #[test]
    fn many_errors_in_a_big_document_are_located_too() {
        let text = format!("[{}2]", "1,\n".repeat(20_000));
        let found = issues(r#"{"items": {"type": "string"}}"#, &text);
        assert_eq!(found.len(), 20_001);
        let last = found.last().unwrap();
        assert_eq!(
            (last.instance_pointer.as_str(), last.line, last.column),
            ("/20000", 20_001, 1)
        );
        assert_eq!(&text[last.span.start..last.span.end], "2");
    }

    #[test]
    fn dialect_follows_dollar_schema() {
        let draft4 =
            schema(r#"{"$schema": "http://json-schema.org/draft-04/schema#", "maximum": 3, "exclusiveMaximum": true}"#);
        assert_eq!(draft4.dialect(), "draft-04");
        assert_eq!(validate_text("3", &draft4).unwrap().unwrap().len(), 1);
        assert_eq!(schema("{}").dialect(), "2020-12");
    }

    #[test]
    fn invalid_schema_is_reported_at_its_own_line() {
        let error = compile(
            SchemaFile {
                name: "s.json",
                text: "{\n  \"type\": \"strin\",\n  \"minLength\": -1\n}",
            },
            &[],
            &CompileOptions::default(),
        )
        .unwrap_err();
        assert_eq!(error.kind, SchemaErrorKind::NotASchema);
        assert_eq!(error.issues.len(), 2, "{error:?}");
        assert_eq!(error.at.map(|at| at.line), Some(2));
    }

    #[test]
    fn remote_references_are_never_fetched() {
        let error = compile(
            SchemaFile {
                name: "s.json",
                text: r#"{"$ref": "https://example.com/never.json"}"#,
            },
            &[],
            &CompileOptions::default(),
        )
        .unwrap_err();
        assert_eq!(error.kind, SchemaErrorKind::UnresolvedReference);
        assert!(
            error.message.contains("https://example.com/never.json"),
            "{}",
            error.message
        );
    }

    #[test]
    fn sibling_files_resolve_by_id_and_by_name() {
        let by_name = SchemaFile {
            name: "dir/b.json",
            text: r#"{"type": "string"}"#,
        };
        let by_id = SchemaFile {
            name: "c.json",
            text: r#"{"$id": "https://example.com/c.json", "type": "integer"}"#,
        };
        let main = SchemaFile {
            name: "a.json",
            text: r#"{"properties": {"b": {"$ref": "b.json"}, "c": {"$ref": "https://example.com/c.json"}}}"#,
        };
        let compiled = compile(main, &[by_name, by_id], &CompileOptions::default()).unwrap();
        assert!(
            validate_text(r#"{"b": "x", "c": 1}"#, &compiled)
                .unwrap()
                .unwrap()
                .is_empty()
        );
        assert_eq!(
            validate_text(r#"{"b": 1, "c": "x"}"#, &compiled)
                .unwrap()
                .unwrap()
                .len(),
            2
        );
    }

    #[test]
    fn formats_are_asserted_only_when_asked() {
        let text = r#"{"format": "email"}"#;
        assert!(validate_text("\"nope\"", &schema(text)).unwrap().unwrap().is_empty());
        let strict = compile(
            SchemaFile { name: "s.json", text },
            &[],
            &CompileOptions { formats: true },
        )
        .unwrap();
        assert_eq!(validate_text("\"nope\"", &strict).unwrap().unwrap().len(), 1);
    }

    #[test]
    fn definitions_compile_with_their_document() {
        let document = r##"{"$defs": {"A": {"type": "object", "properties": {"b": {"$ref": "#/$defs/B"}}}, "B": {"type": "string"}}}"##;
        let compiled = compile_definition(
            SchemaFile {
                name: "d.json",
                text: document,
            },
            "/$defs/A",
            &CompileOptions::default(),
        )
        .unwrap();
        assert!(validate_text(r#"{"b": "x"}"#, &compiled).unwrap().unwrap().is_empty());
        assert_eq!(validate_text(r#"{"b": 2}"#, &compiled).unwrap().unwrap().len(), 1);
    }

    #[test]
    fn the_cache_compiles_each_schema_once_and_drops_the_least_recent() {
        let mut cache = SchemaCache::new(2);
        let mut compiled = 0;
        let mut get = |cache: &mut SchemaCache, text: &'static str, formats: bool| {
            let file = SchemaFile { name: "s.json", text };
            let options = CompileOptions { formats };
            cache
                .get_or_compile(CacheKey::of(file, &[], &options), || {
                    compiled += 1;
                    compile(file, &[], &options)
                })
                .map(|schema| schema.dialect())
                .map_err(|error| error.kind)
        };
        assert_eq!(get(&mut cache, "{}", false), Ok("2020-12"));
        assert_eq!(get(&mut cache, "{}", false), Ok("2020-12"));
        let draft7 = r#"{"$schema": "http://json-schema.org/draft-07/schema#"}"#;
        assert_eq!(get(&mut cache, draft7, false), Ok("draft-07"));
        // The options are part of the key.
        assert_eq!(get(&mut cache, draft7, true), Ok("draft-07"));
        // `{}` was the least recently used of the two kept: compiled again.
        assert_eq!(get(&mut cache, "{}", false), Ok("2020-12"));
        assert_eq!(
            get(&mut cache, r#"{"type": 3}"#, false),
            Err(SchemaErrorKind::NotASchema)
        );
        assert_eq!(compiled, 5);
        assert_eq!(cache.len(), 2);
    }

    #[test]
    fn a_failed_build_still_locates_every_violation() {
        let mut cache = SchemaCache::new(4);
        let file = SchemaFile {
            name: "s.json",
            text: "{\n  \"type\": \"strin\",\n  \"minLength\": -1\n}",
        };
        let error = cache.compile(file, &[], &CompileOptions::default()).unwrap_err();
        assert_eq!(
            (error.kind, error.issues.len(), error.at.map(|at| at.line)),
            (SchemaErrorKind::NotASchema, 2, Some(2))
        );
        assert!(cache.is_empty());
    }

    #[test]
    fn validate_at_keeps_whole_document_pointers() {
        let text = r#"{"tools": [{"name": "t", "args": {"week": 9}}]}"#;
        let document = parse_document(text).unwrap();
        let compiled = schema(r#"{"properties": {"week": {"type": "string"}}}"#);
        let found = validate_at(text, &document, "/tools/0/args", &compiled)
            .unwrap()
            .unwrap();
        assert_eq!(found[0].instance_pointer, "/tools/0/args/week");
        assert_eq!(found[0].element.as_ref().unwrap().name.as_deref(), Some("t"));
        assert!(validate_at(text, &document, "/missing", &compiled).is_none());
    }

    #[test]
    fn a_batch_document_is_located_as_a_parsed_one_is() {
        // The batch path walks to its errors' pointers and counts lines without
        // an index for a few issues, with one past four; the single-document
        // path reads a span tree. Both must name the same spans, lines and columns.
        let compiled = schema(
            r#"{"type": "object", "properties": {"é/~": {"type": "integer"}},
                "additionalProperties": {"type": "string", "maxLength": 2}}"#,
        );
        let texts = [
            "{\"é/~\": \"x\"}",
            "{\n  \"a\": \"😀😀😀\",\r\n  \"é/~\": 1.5\n}",
            "{\"a\": 1, \"b\": 2, \"c\": 3,\n \"d\": 4, \"e\": [], \"é/~\": \"\"}",
            "{\"a\": 1, \"a\": \"okay\"}",
        ];
        for text in texts {
            let document = parse_document(text).unwrap();
            let expected = validate(text, &document, &compiled).unwrap();
            assert!(!expected.is_empty(), "{text}");
            assert_eq!(validate_text(text, &compiled).unwrap().unwrap(), expected, "{text}");
        }
    }

    fn verdict(schema_text: &str, instance: &str) -> Verdict {
        validate_text_keeping_failure(instance, &schema(schema_text)).unwrap()
    }

    fn reason(schema_text: &str, instance: &str) -> Option<UncheckedReason> {
        match verdict(schema_text, instance) {
            Verdict::Unchecked(unchecked) => Some(unchecked.reason),
            _ => None,
        }
    }

    #[test]
    fn a_schema_too_expensive_for_the_document_gives_no_verdict() {
        // Before the budget, this took 34 s and 12 GB at 22 levels.
        let text = r##"{"type": "array", "items": {"oneOf": [{"$ref": "#"}, {"$ref": "#"}, {"type": "string"}]}}"##;
        let deep = format!("{}{}", "[".repeat(22), "]".repeat(22));
        let Verdict::Unchecked(unchecked) = verdict(text, &deep) else {
            panic!("a verdict");
        };
        assert_eq!(
            (unchecked.reason, unchecked.instance_pointer.as_str(), unchecked.line),
            (UncheckedReason::TooExpensive, "", 1)
        );
        // Through `validate` (the snapshot checks' path) alike.
        let document = parse_document(&deep).unwrap();
        assert_eq!(
            validate(&deep, &document, &schema(text)).unwrap_err().reason,
            UncheckedReason::TooExpensive
        );
        // A shallow one is cheap, and gets the validator's verdict.
        assert!(matches!(verdict(text, "[[\"a\"]]"), Verdict::Invalid(_)));
        assert!(matches!(verdict(text, "[\"a\"]"), Verdict::Valid));
        // A `$dynamicRef` counts each place it may land once: ten levels of two
        // references are within the budget, thirty are not.
        let dynamic = r##"{"$dynamicAnchor": "n", "type": "array", "items": {"anyOf": [{"$dynamicRef": "#n"}, {"$dynamicRef": "#n"}]}}"##;
        let nested = |depth: usize| format!("{}{}", "[".repeat(depth), "]".repeat(depth));
        assert!(matches!(verdict(dynamic, &nested(10)), Verdict::Valid));
        assert_eq!(reason(dynamic, &nested(30)), Some(UncheckedReason::TooExpensive));
    }

    #[test]
    fn a_regex_past_its_backtracking_limit_gives_no_verdict() {
        let long = format!("\"{}\"", "a".repeat(40));
        for text in [r#"{"pattern": "(a*)*\\1x"}"#, r#"{"not": {"pattern": "(a*)*\\1x"}}"#] {
            assert_eq!(reason(text, &long), Some(UncheckedReason::Regex), "{text}");
        }
        // A short subject finishes: a plain verdict.
        assert!(matches!(
            verdict(r#"{"pattern": "(a*)*\\1x"}"#, "\"aax\""),
            Verdict::Valid
        ));
    }

    #[test]
    fn numbers_f64_cannot_hold_give_no_verdict_where_a_numeric_keyword_reads_them() {
        let cases = [
            (
                r#"{"const": 18446744073709551617}"#,
                "18446744073709551616",
                "inexact schema",
            ),
            (r#"{"minimum": 1}"#, "0.99999999999999999999", "inexact instance"),
            (
                r#"{"items": {"multipleOf": 0.1}}"#,
                "[1, 1e300]",
                "past the exact division",
            ),
            (
                r#"{"enum": [[1, 2]]}"#,
                "[1, 2.0000000000000000001]",
                "inside a container",
            ),
        ];
        for (text, instance, why) in cases {
            let Verdict::Unchecked(unchecked) = verdict(text, instance) else {
                panic!("{why}: a verdict");
            };
            assert_eq!(unchecked.reason, UncheckedReason::Inexact, "{why}");
        }
        let Verdict::Unchecked(unchecked) = verdict(r#"{"items": {"minimum": 0}}"#, "[1, 1e400]") else {
            panic!("a verdict");
        };
        assert_eq!((unchecked.instance_pointer.as_str(), unchecked.column), ("/1", 5));
        // Where no numeric keyword reads a number, its precision decides nothing.
        assert!(matches!(
            verdict(r#"{"items": {"type": "number"}}"#, "[1e400]"),
            Verdict::Valid
        ));
        assert!(matches!(
            verdict(r#"{"properties": {"a": {"minimum": 0}}}"#, r#"{"b": 1e400}"#),
            Verdict::Valid
        ));
    }

    #[test]
    fn the_main_schema_given_again_as_a_sibling_still_gets_verdicts() {
        let text = r##"{"$id": "https://example.com/x.json", "type": "array", "items": {"anyOf": [{"$ref": "#"}, {"type": "string"}]}}"##;
        let file = SchemaFile { name: "x.json", text };
        let compiled = compile(file, &[file], &CompileOptions::default()).unwrap();
        assert!(validate_text("[[\"a\"]]", &compiled).unwrap().unwrap().is_empty());
        assert_eq!(validate_text("[[1]]", &compiled).unwrap().unwrap().len(), 1);
    }

    #[test]
    fn a_sibling_without_dollar_schema_is_read_in_the_referrers_dialect() {
        let sibling = SchemaFile {
            name: "b.json",
            text: r##"{"definitions": {"s": {"$id": "#foo", "type": "string"}}}"##,
        };
        let main = SchemaFile {
            name: "a.json",
            text: r#"{"$schema": "http://json-schema.org/draft-07/schema#", "properties": {"a": {"$ref": "b.json#foo"}}}"#,
        };
        let compiled = compile(main, &[sibling], &CompileOptions::default()).unwrap();
        assert!(validate_text(r#"{"a": "x"}"#, &compiled).unwrap().unwrap().is_empty());
        assert_eq!(validate_text(r#"{"a": 1}"#, &compiled).unwrap().unwrap().len(), 1);
    }
}
