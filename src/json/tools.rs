//! The JSON tools (`fmt`, `validate`, `diff`) as requests and reports: the one
//! place their policy lives, so the CLI and the page give the same answers.
//! A face reads its inputs (arguments and disk, or the page's editors), calls
//! these, and renders the result; nothing here touches I/O.

use std::sync::Arc;

use serde::{Serialize, Serializer};

use crate::json::builtin::builtin;
use crate::json::diff::{
    ArrayKey, CompareOption, CompareOptions, Comparison, Diff, DocumentError, compare, compare_changes, locate,
};
use crate::json::format::{FormatOptions, format};
use crate::json::parse::JsonParseError;
use crate::json::validate::{
    CacheKey, CompileOptions, CompiledSchema, SchemaCache, SchemaError, SchemaFile, Unchecked, ValidationIssue,
    Verdict, validate_text_keeping_failure,
};

// ---- fmt ----

/// The formatted text, and whether it differs from the input (`fmt --check`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Formatted {
    pub text: String,
    pub changed: bool,
}

/// Formats `text`; fails with the first syntax error.
pub fn format_document(text: &str, options: &FormatOptions) -> Result<Formatted, JsonParseError> {
    let formatted = format(text, options)?;
    let changed = formatted != text;
    Ok(Formatted {
        text: formatted,
        changed,
    })
}

// ---- validate ----

/// Which schema to validate against.
#[derive(Debug, Clone)]
pub enum SchemaChoice<'a> {
    /// A built-in schema by name (`apcheck validate --builtin list`).
    Builtin(&'a str),
    /// A schema file, and the files its `$ref`s may point to.
    File {
        main: SchemaFile<'a>,
        refs: Vec<SchemaFile<'a>>,
    },
}

/// Why no schema could be compiled.
#[derive(Debug, Clone)]
pub enum SchemaProblem {
    /// No built-in schema has this name.
    UnknownBuiltin(String),
    /// The schema (or a referenced file) is not JSON or not a schema.
    Invalid(SchemaError),
}

/// A compiled schema, shared with the built-in table or with a [`SchemaCache`].
#[derive(Debug, Clone)]
pub enum SharedSchema {
    Builtin(&'static CompiledSchema),
    Cached(Arc<CompiledSchema>),
}

impl std::ops::Deref for SharedSchema {
    type Target = CompiledSchema;

    fn deref(&self) -> &CompiledSchema {
        match self {
            SharedSchema::Builtin(schema) => schema,
            SharedSchema::Cached(schema) => schema,
        }
    }
}

/// The compiled schema for `choice`. Built-ins are compiled once and shared;
/// a schema file, or a built-in asserting `formats`, comes from `cache` when it
/// was compiled before (the page keeps one cache across calls, the CLI
/// compiles once per run).
pub fn load_schema(
    choice: &SchemaChoice<'_>,
    options: &CompileOptions,
    cache: &mut SchemaCache,
) -> Result<SharedSchema, SchemaProblem> {
    match choice {
        SchemaChoice::Builtin(name) => {
            let entry = builtin(name).ok_or_else(|| SchemaProblem::UnknownBuiltin((*name).to_string()))?;
            if !options.formats {
                return entry
                    .schema()
                    .map(SharedSchema::Builtin)
                    .map_err(|e| SchemaProblem::Invalid(e.clone()));
            }
            // The shared compilation does not assert formats; honour the option with another one.
            let name = format!("<builtin {}>", entry.name);
            let key = CacheKey::of(
                SchemaFile {
                    name: &name,
                    text: entry.text(),
                },
                &[],
                options,
            );
            cache
                .get_or_compile(key, || entry.compile(options))
                .map(SharedSchema::Cached)
                .map_err(SchemaProblem::Invalid)
        }
        SchemaChoice::File { main, refs } => cache
            .compile(*main, refs, options)
            .map(SharedSchema::Cached)
            .map_err(SchemaProblem::Invalid),
    }
}

/// One validated document.
#[derive(Debug, Clone, Serialize)]
pub struct DocumentReport {
    pub file: String,
    pub valid: bool,
    /// Set when the document could not be read or is not JSON at all.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<DocumentProblem>,
    /// Set when the document is plainly another kind of file than the built-in
    /// schema describes (a snapshot checked as `plugin`, say): the errors are
    /// then noise, and this sentence says what to use instead.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kind_mismatch: Option<String>,
    /// Set when the document gets no verdict: validating it would
    /// cost more than its budget, a `pattern` could not be matched, or a
    /// number could not be compared exactly. It is then not valid either.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unchecked: Option<Unchecked>,
    pub issues: Vec<ValidationIssue>,
}

/// Why a document was not validated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DocumentProblem {
    /// The face could not read it (a missing file, not UTF-8).
    Unreadable(String),
    NotJson(JsonParseError),
}

impl DocumentProblem {
    pub fn message(&self) -> &str {
        match self {
            DocumentProblem::Unreadable(message) => message,
            DocumentProblem::NotJson(error) => &error.message,
        }
    }
}

/// `{"message", "line", "column"}`; an unreadable document has no position (0, 0).
impl Serialize for DocumentProblem {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Shape<'a> {
            message: &'a str,
            line: usize,
            column: usize,
        }
        let (line, column) = match self {
            DocumentProblem::Unreadable(_) => (0, 0),
            DocumentProblem::NotJson(error) => (error.line, error.column),
        };
        Shape {
            message: self.message(),
            line,
            column,
        }
        .serialize(serializer)
    }
}

impl DocumentReport {
    /// A document the face could not read.
    pub fn unreadable(file: &str, message: String) -> Self {
        DocumentReport {
            file: file.to_string(),
            valid: false,
            error: Some(DocumentProblem::Unreadable(message)),
            kind_mismatch: None,
            unchecked: None,
            issues: Vec::new(),
        }
    }

    pub fn is_unreadable(&self) -> bool {
        matches!(self.error, Some(DocumentProblem::Unreadable(_)))
    }
}

/// Validates the document `text` named `file`; `builtin` is the built-in
/// schema's name when one was chosen, for the kind-mismatch hint.
pub fn validate_document(file: &str, text: &str, schema: &CompiledSchema, builtin: Option<&str>) -> DocumentReport {
    let report = |valid, error, kind_mismatch, unchecked, issues| DocumentReport {
        file: file.to_string(),
        valid,
        error,
        kind_mismatch,
        unchecked,
        issues,
    };
    match validate_text_keeping_failure(text, schema) {
        Ok(Verdict::Valid) => report(true, None, None, None, Vec::new()),
        Ok(Verdict::Invalid(failure)) => report(
            false,
            None,
            builtin.and_then(|name| crate::json::builtin::kind_mismatch(name, &failure.value)),
            None,
            failure.issues,
        ),
        Ok(Verdict::Unchecked(unchecked)) => report(false, None, None, Some(unchecked), Vec::new()),
        Err(error) => report(false, Some(DocumentProblem::NotJson(error)), None, None, Vec::new()),
    }
}

/// A batch of documents validated against one schema: the counts, and only
/// the documents that failed, by position. Passing documents cost nothing in
/// the report, so 10,000 small manifests answer in a few hundred bytes.
#[derive(Debug, Clone, Default, Serialize)]
pub struct BatchReport {
    pub valid: usize,
    pub invalid: usize,
    /// Documents that got no verdict (listed among the failures, with `unchecked`).
    pub unchecked: usize,
    pub failures: Vec<BatchFailure>,
}

/// One failed document of a batch, by its position in the batch.
#[derive(Debug, Clone, Serialize)]
pub struct BatchFailure {
    pub index: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<DocumentProblem>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kind_mismatch: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unchecked: Option<Unchecked>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub issues: Vec<ValidationIssue>,
}

/// The texts of a batch sent joined into one string, `joined`, and each text's
/// length in UTF-16 units (JavaScript's `text.length`): one string crosses the
/// page's boundaries instead of one per text (a batch may hold 10,000 small
/// documents), and the page packs it with no per-text encoding call, which
/// costs about a microsecond each in a browser. Lengths that do not add up to
/// `joined`, or that end inside a surrogate pair, are refused.
///
/// A lone surrogate in a text counts one unit on both sides: the page's string
/// reaches Rust with each replaced by U+FFFD, itself one unit.
pub fn split_batch<'t>(joined: &'t str, lengths: &[u32]) -> Result<Vec<&'t str>, String> {
    let mut texts = Vec::with_capacity(lengths.len());
    let mut rest = joined;
    for (index, &units) in lengths.iter().enumerate() {
        let units = units as usize;
        // An ASCII text, the usual one, is a byte per unit: no character walk.
        let end = match rest.as_bytes().get(..units) {
            Some(prefix) if prefix.is_ascii() => Some(units),
            _ => end_of_units(rest, units),
        };
        let Some(end) = end else {
            let left = rest.encode_utf16().count();
            return Err(if left < units {
                format!("text {index} is {units} UTF-16 units long, but only {left} are left")
            } else {
                format!("text {index} ends inside a surrogate pair, after {units} UTF-16 units")
            });
        };
        let (text, after) = rest.split_at(end);
        texts.push(text);
        rest = after;
    }
    if !rest.is_empty() {
        return Err(format!(
            "the lengths add up to less than the joined texts ({} UTF-16 units are left over)",
            rest.encode_utf16().count()
        ));
    }
    Ok(texts)
}

/// The byte offset in `text` after its first `units` UTF-16 units; `None` when
/// `text` is shorter or that count ends inside a surrogate pair.
fn end_of_units(text: &str, units: usize) -> Option<usize> {
    let mut counted = 0;
    for (at, character) in text.char_indices() {
        if counted == units {
            return Some(at);
        }
        counted += character.len_utf16();
    }
    (counted == units).then_some(text.len())
}

/// Validates every text against `schema` (compiled once by the caller);
/// `builtin` as for [`validate_document`].
pub fn validate_batch<'t>(
    texts: impl IntoIterator<Item = &'t str>,
    schema: &CompiledSchema,
    builtin: Option<&str>,
) -> BatchReport {
    let mut report = BatchReport::default();
    for (index, text) in texts.into_iter().enumerate() {
        let document = validate_document("", text, schema, builtin);
        if document.valid {
            report.valid += 1;
            continue;
        }
        if document.unchecked.is_some() {
            report.unchecked += 1;
        } else {
            report.invalid += 1;
        }
        report.failures.push(BatchFailure {
            index,
            error: document.error,
            kind_mismatch: document.kind_mismatch,
            unchecked: document.unchecked,
            issues: document.issues,
        });
    }
    report
}

// ---- diff ----

/// Documents larger than this together are diffed without line numbers, in the
/// CLI and in the page alike: locating passes over each text once more
/// ([`crate::json::locate::nearest_spans_in_checked`], no tree), which past
/// this size is a second or more in the browser. The page locates a clicked
/// change on request instead.
pub const LOCATE_LIMIT: usize = 32 * 1024 * 1024;

/// Documents larger than this together are refused: their trees would need
/// about ten times their size in memory, and a diff must never abort.
pub const DIFF_INPUT_LIMIT: usize = 256 * 1024 * 1024;

/// The keys `diff` matches array elements by unless told to leave them out
/// (`--no-default-keys`), tried after the user's: the first key unique in both
/// arrays wins. They fit the documents apcheck knows: capability snapshots and
/// `tools/list` results (bare, as a JSON-RPC response, or one kept under a
/// name, as captures of a session are), tools by `name`, then by
/// `server+name` when two servers offer the same name; skills by `name`;
/// `mcpServers` entries by `id`. Anywhere else, objects that all carry a
/// unique `name` (or `id`) are matched by it.
const SNAPSHOT_ARRAY_KEYS: [&str; 8] = [
    "/tools=name",
    "/tools=server+name",
    "/result/tools=name",
    "/*/result/tools=name",
    "/skills=name",
    "/mcpServers=id",
    "name",
    "id",
];

/// [`SNAPSHOT_ARRAY_KEYS`], parsed.
pub fn snapshot_array_keys() -> Vec<ArrayKey> {
    SNAPSHOT_ARRAY_KEYS
        .iter()
        .map(|spec| ArrayKey::parse(spec).expect("the built-in keys parse"))
        .collect()
}

/// The diff options from their text, as every face takes them: the user's
/// array keys (`[PATH=]KEY`), then [`snapshot_array_keys`] unless
/// `no_default_keys`, and the ignored parts (pointers with `*`). The first
/// entry that does not parse is the error, with the list it is in.
pub fn compare_options(
    array_keys: &[String],
    no_default_keys: bool,
    ignore: &[String],
) -> Result<CompareOptions, (CompareOption, String)> {
    let defaults = if no_default_keys {
        Vec::new()
    } else {
        snapshot_array_keys()
    };
    CompareOptions::parse(array_keys, defaults, ignore)
}

/// What a diff should produce besides the changes and the patch.
#[derive(Debug, Clone, Default)]
pub struct DiffRequest {
    pub options: CompareOptions,
    /// Fill in each change's lines (when the documents are small enough, see [`LOCATE_LIMIT`]).
    pub lines: bool,
}

/// Why two documents could not be compared.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DiffProblem {
    /// Together over [`DIFF_INPUT_LIMIT`] bytes.
    TooLarge {
        bytes: usize,
    },
    NotJson(DocumentError),
}

impl std::fmt::Display for DiffProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DiffProblem::TooLarge { bytes } => write!(
                f,
                "the two documents are {} MiB together; apcheck diffs up to {} MiB (their trees take about ten times that in memory)",
                bytes.div_ceil(1 << 20),
                DIFF_INPUT_LIMIT >> 20
            ),
            DiffProblem::NotJson(error) => write!(f, "{:?} is not JSON: {}", error.side, error.error),
        }
    }
}

/// Refuses documents of `bytes` together over [`DIFF_INPUT_LIMIT`]; a face that
/// knows the sizes before reading (file metadata) asks first.
pub fn check_diff_size(bytes: usize) -> Result<(), DiffProblem> {
    if bytes > DIFF_INPUT_LIMIT {
        return Err(DiffProblem::TooLarge { bytes });
    }
    Ok(())
}

/// Compares `a_text` with `b_text`.
pub fn diff_documents(a_text: &str, b_text: &str, request: &DiffRequest) -> Result<Comparison, DiffProblem> {
    let bytes = a_text.len().saturating_add(b_text.len());
    check_diff_size(bytes)?;
    let mut comparison = compare(a_text, b_text, &request.options).map_err(DiffProblem::NotJson)?;
    locate_if_asked(&mut comparison.diff, bytes, request, a_text, b_text);
    Ok(comparison)
}

/// [`diff_documents`] without the parsed documents: the changes and the patch
/// only, in far less memory natively (see [`compare_changes`]).
pub fn diff_changes(a_text: &str, b_text: &str, request: &DiffRequest) -> Result<Diff, DiffProblem> {
    let bytes = a_text.len().saturating_add(b_text.len());
    check_diff_size(bytes)?;
    let mut diff = compare_changes(a_text, b_text, &request.options).map_err(DiffProblem::NotJson)?;
    locate_if_asked(&mut diff, bytes, request, a_text, b_text);
    Ok(diff)
}

fn locate_if_asked(diff: &mut Diff, bytes: usize, request: &DiffRequest, a_text: &str, b_text: &str) {
    if locates_up_front(bytes, request) {
        // Both texts were just parsed: the changes came from them.
        locate(diff, a_text, b_text);
    }
}

/// Whether a diff of `bytes` of documents together gets its lines up front.
/// Pruned documents (`ignore`) no longer match their texts.
pub fn locates_up_front(bytes: usize, request: &DiffRequest) -> bool {
    request.lines && bytes <= LOCATE_LIMIT && request.options.ignore.is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::diff::Side;

    #[test]
    fn a_document_that_is_not_json_says_where_and_an_unreadable_one_has_no_position() {
        let schema = load_schema(
            &SchemaChoice::Builtin("plugin"),
            &CompileOptions::default(),
            &mut SchemaCache::new(1),
        )
        .unwrap();
        let broken = validate_document("p.json", "{\n  \"name\": }", &schema, Some("plugin"));
        assert!(!broken.valid && !broken.is_unreadable());
        let json = serde_json::to_value(&broken).unwrap();
        assert_eq!(
            (json["error"]["line"].as_u64(), json["error"]["column"].as_u64()),
            (Some(2), Some(11))
        );
        let missing = DocumentReport::unreadable("gone.json", "cannot read gone.json".into());
        assert!(missing.is_unreadable());
        let json = serde_json::to_value(&missing).unwrap();
        assert_eq!(
            json["error"],
            serde_json::json!({"message": "cannot read gone.json", "line": 0, "column": 0})
        );
    }

    #[test]
    fn the_kind_mismatch_hint_comes_with_the_report() {
        let schema = load_schema(
            &SchemaChoice::Builtin("plugin"),
            &CompileOptions::default(),
            &mut SchemaCache::new(1),
        )
        .unwrap();
        let snapshot = r#"{"snapshotVersion": 1, "plugin": {"name": "x"}, "servers": [], "tools": []}"#;
        let report = validate_document("s.json", snapshot, &schema, Some("plugin"));
        assert!(!report.valid);
        let hint = report.kind_mismatch.expect("a snapshot is not a plugin.json");
        assert!(hint.contains("--builtin"), "{hint}");
        let unknown = load_schema(
            &SchemaChoice::Builtin("nope"),
            &CompileOptions::default(),
            &mut SchemaCache::new(1),
        );
        assert!(matches!(unknown, Err(SchemaProblem::UnknownBuiltin(name)) if name == "nope"));
    }

    #[test]
    fn diffs_are_located_only_when_asked_and_small_enough() {
        let request = DiffRequest {
            lines: true,
            ..Default::default()
        };
        let located = diff_documents("{\n\"a\": 1\n}", "{\n\"a\": 2\n}", &request).unwrap();
        assert_eq!(located.diff.changes[0].new_line, Some(2));
        let unlocated = diff_documents("{\n\"a\": 1\n}", "{\n\"a\": 2\n}", &DiffRequest::default()).unwrap();
        assert_eq!(unlocated.diff.changes[0].new_line, None);
        let broken = diff_documents("{}", "{", &request).unwrap_err();
        assert!(matches!(
            broken,
            DiffProblem::NotJson(DocumentError { side: Side::B, .. })
        ));
    }

    #[test]
    fn documents_over_the_limit_are_refused_with_their_size() {
        assert_eq!(check_diff_size(DIFF_INPUT_LIMIT), Ok(()));
        let problem = check_diff_size(400_000_000).unwrap_err();
        assert_eq!(problem, DiffProblem::TooLarge { bytes: 400_000_000 });
        assert_eq!(
            problem.to_string(),
            "the two documents are 382 MiB together; apcheck diffs up to 256 MiB (their trees take about ten times that in memory)"
        );
    }

    #[test]
    fn formatting_says_whether_anything_changed() {
        let options = FormatOptions::default();
        assert!(!format_document("[\n  1\n]\n", &options).unwrap().changed);
        assert!(format_document("[1]", &options).unwrap().changed);
    }

    #[test]
    fn a_joined_batch_splits_at_its_utf16_lengths() {
        // "é" is one unit and two bytes, "😀" two units and four bytes.
        let joined = "{}[1]\"é\"\"😀\"";
        assert_eq!(
            split_batch(joined, &[2, 3, 3, 4, 0]).unwrap(),
            ["{}", "[1]", "\"é\"", "\"😀\"", ""]
        );
        assert_eq!(split_batch("", &[]).unwrap(), Vec::<&str>::new());
        assert_eq!(
            split_batch("\"😀\"", &[2, 2]).unwrap_err(),
            "text 0 ends inside a surrogate pair, after 2 UTF-16 units"
        );
        assert_eq!(
            split_batch("{}", &[3]).unwrap_err(),
            "text 0 is 3 UTF-16 units long, but only 2 are left"
        );
        assert_eq!(
            split_batch("{}[\"é\"]", &[2]).unwrap_err(),
            "the lengths add up to less than the joined texts (5 UTF-16 units are left over)"
        );
    }

    proptest::proptest! {
        #[test]
        fn any_texts_joined_split_back_into_themselves(texts in proptest::collection::vec(".{0,12}", 0..8)) {
            let joined = texts.concat();
            let lengths: Vec<u32> = texts.iter().map(|t| t.encode_utf16().count() as u32).collect();
            proptest::prop_assert_eq!(split_batch(&joined, &lengths).unwrap(), texts);
        }
    }
}
