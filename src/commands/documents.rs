//! The I/O-free half of the JSON document commands, `fmt`, `diff` and `validate`:
//! from the options as given and the texts a face has read, to what goes to
//! standard output, what goes to standard error, and the exit. The CLI and the
//! npm package's `apcheck` call these, so the two print the same bytes.

use std::fmt::Display;

use super::Input;
use crate::exit::Exit;
use crate::json::diff::merge::merge_patch;
use crate::json::diff::unified::unified;
use crate::json::diff::{CompareOption, CompareOptions, Side, canonical_text};
use crate::json::format::{FormatOptions, Indent, format_streaming};
use crate::json::tools::{
    DiffProblem, DiffRequest, DocumentReport, SchemaChoice, SharedSchema, check_diff_size, compare_options,
    diff_changes, diff_documents, load_schema,
};
use crate::json::validate::{CompileOptions, CompiledSchema, SchemaCache, SchemaFile};
use crate::render::diff::{Style, changes_json, changes_text, unified_text};
use crate::render::documents::{
    ValidatedFile, builtin_list, fmt_error, parse_error, schema_problem, snippets, validation, verdict,
};
use crate::render::escape::visible;
use crate::render::{Format, Options, TextOptions};
use crate::rules::documents::validation_diagnostics;

/// What a command writes to each stream, and how it ends.
#[derive(Debug)]
pub struct Streams {
    pub stdout: String,
    pub stderr: String,
    pub exit: Exit,
}

impl Default for Streams {
    fn default() -> Self {
        Streams {
            stdout: String::new(),
            stderr: String::new(),
            exit: Exit::Clean,
        }
    }
}

impl Streams {
    /// Nothing on stdout, `stderr` (already escaped), exit 2.
    pub fn failure(stderr: String) -> Self {
        Streams {
            stderr,
            exit: Exit::Failure,
            ..Streams::default()
        }
    }
}

/// One line on stderr, `apcheck: ` first, escaped as every report is (it may
/// quote a path or an argument the user wrote).
pub fn line(message: impl Display) -> String {
    format!("apcheck: {}\n", visible(&message.to_string()))
}

/// A document's bytes as its text, or why it is none: JSON text is UTF-8.
pub fn utf8_text(path: &str, bytes: Vec<u8>) -> Result<String, String> {
    String::from_utf8(bytes).map_err(|e| {
        format!(
            "{path}: not UTF-8 (byte {} is invalid); JSON text must be UTF-8 (RFC 8259 §8.1)",
            e.utf8_error().valid_up_to()
        )
    })
}

/// The message for a document over `limit` bytes (`-` is standard input).
pub fn too_large(path: &str, limit: u64) -> String {
    let name = if path == "-" { "standard input" } else { path };
    format!(
        "{name} is larger than {} MiB; `--max-input-mib` raises the limit",
        limit >> 20
    )
}

/// `diff --format`: the views of a comparison.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DiffFormat {
    /// Paths, old → new.
    Text,
    /// The same as data.
    Json,
    /// RFC 6902.
    Patch,
    /// RFC 7386.
    Merge,
    /// A text diff of the canonical pretty forms.
    Unified,
}

impl DiffFormat {
    pub const NAMES: [&'static str; 5] = ["text", "json", "patch", "merge", "unified"];

    pub fn from_name(name: &str) -> Option<DiffFormat> {
        Some(match name {
            "text" => DiffFormat::Text,
            "json" => DiffFormat::Json,
            "patch" => DiffFormat::Patch,
            "merge" => DiffFormat::Merge,
            "unified" => DiffFormat::Unified,
            _ => return None,
        })
    }
}

/// `diff`'s `--array-key`, `--no-default-keys` and `--ignore`, or the stderr
/// line that refuses them (checked before anything is read).
pub fn diff_options(array_keys: &[String], no_default_keys: bool, ignore: &[String]) -> Result<CompareOptions, String> {
    compare_options(array_keys, no_default_keys, ignore).map_err(|(option, message)| {
        let flag = match option {
            CompareOption::ArrayKeys => "--array-key",
            CompareOption::Ignore => "--ignore",
        };
        line(format!("{flag}: {message}"))
    })
}

/// Refuses, with its stderr line, two documents whose sizes together (known
/// before reading them) are more than `diff` compares.
pub fn diff_size(bytes: u64) -> Result<(), String> {
    check_diff_size(usize::try_from(bytes).unwrap_or(usize::MAX)).map_err(line)
}

/// How `diff` shows a comparison.
#[derive(Debug, Clone, Copy)]
pub struct DiffView {
    pub format: DiffFormat,
    /// Colour on standard output.
    pub color: bool,
    /// How a syntax error is quoted on standard error.
    pub stderr: TextOptions,
    /// The process exits after this: the documents' trees are left to it to
    /// free, at once, rather than node by node.
    pub exiting: bool,
}

/// `apcheck diff A B`: exit 0 when equal, 1 when different, 2 when either is not JSON.
pub fn diff(a: Input, b: Input, options: CompareOptions, view: DiffView) -> Streams {
    let pruned = !options.ignore.is_empty();
    let format = view.format;
    let request = DiffRequest {
        options,
        lines: matches!(format, DiffFormat::Text | DiffFormat::Json),
    };
    let not_compared = |problem| {
        Streams::failure(match problem {
            DiffProblem::NotJson(e) if e.side == Side::A => parse_error(a.name, a.text, &e.error, view.stderr),
            DiffProblem::NotJson(e) => parse_error(b.name, b.text, &e.error, view.stderr),
            too_large => line(too_large),
        })
    };
    let style = Style::new(view.color);
    let mut streams = Streams::default();
    let equal = match format {
        // The two views that need whole documents; the others need only the
        // changes and the patch, which come from far leaner documents.
        DiffFormat::Merge | DiffFormat::Unified => {
            let comparison = match diff_documents(a.text, b.text, &request) {
                Ok(comparison) => comparison,
                Err(problem) => return not_compared(problem),
            };
            if format == DiffFormat::Merge {
                let merge = merge_patch(&comparison.a, &comparison.b);
                for pointer in &merge.lossy {
                    streams.stderr.push_str(&format!(
                        "warning: {} is null in B; a merge patch deletes it instead (use --format patch)\n",
                        visible(pointer)
                    ));
                }
                streams.stdout = pretty(&merge.patch);
            } else {
                let a_canonical = canonical_text(a.text, &comparison.a, pruned);
                let b_canonical = canonical_text(b.text, &comparison.b, pruned);
                streams.stdout = unified_text(&unified(&a_canonical, &b_canonical, a.name, b.name), &style);
            }
            let equal = comparison.diff.is_empty();
            if view.exiting {
                // Freeing two big trees node by node costs more than diffing them.
                std::mem::forget(comparison);
            }
            equal
        }
        format => {
            let diff = match diff_changes(a.text, b.text, &request) {
                Ok(diff) => diff,
                Err(problem) => return not_compared(problem),
            };
            streams.stdout = match format {
                DiffFormat::Patch => pretty(&diff.patch),
                DiffFormat::Json => pretty(&changes_json(&diff)),
                _ => changes_text(&diff, a.name, b.name, &style),
            };
            diff.is_empty()
        }
    };
    streams.exit = Exit::findings_if(!equal);
    streams
}

/// Pretty JSON and a newline.
fn pretty(value: &impl serde::Serialize) -> String {
    let mut text = serde_json::to_string_pretty(value).expect("JSON values serialize");
    text.push('\n');
    text
}

/// What `validate` would answer before reading anything: the built-in
/// schemas for `--builtin list`, or the refusal when no document is named.
pub fn validate_first(builtin: Option<&str>, documents: usize) -> Option<Streams> {
    if builtin == Some("list") {
        return Some(Streams {
            stdout: builtin_list(),
            ..Streams::default()
        });
    }
    (documents == 0).then(|| {
        Streams::failure("apcheck: name at least one document to validate (or `--builtin list`)\n".to_string())
    })
}

/// The schema `validate` checks against: a built-in by name, or a file read
/// with the files its `$ref`s may point to.
#[derive(Clone, Copy)]
pub enum SchemaSource<'t> {
    Builtin(&'t str),
    Files { main: Input<'t>, refs: &'t [Input<'t>] },
}

/// Compiles the schema (`formats`: assert `format` keywords), or the text
/// for stderr that says why it cannot be, its snippets under `stderr`.
pub fn validation_schema(source: SchemaSource, formats: bool, stderr: TextOptions) -> Result<SharedSchema, String> {
    let options = CompileOptions { formats };
    // One compilation per run, so a cache of one.
    let cache = &mut SchemaCache::new(1);
    match source {
        SchemaSource::Builtin(name) => {
            let text = crate::json::builtin::builtin(name).map_or("", |entry| entry.text());
            load_schema(&SchemaChoice::Builtin(name), &options, cache)
                .map_err(|problem| schema_problem(&problem, |_| text, stderr))
        }
        SchemaSource::Files { main, refs } => {
            let choice = SchemaChoice::File {
                main: SchemaFile {
                    name: main.name,
                    text: main.text,
                },
                refs: refs
                    .iter()
                    .map(|input| SchemaFile {
                        name: input.name,
                        text: input.text,
                    })
                    .collect(),
            };
            load_schema(&choice, &options, cache).map_err(|problem| {
                let source_of = |file: &str| {
                    if file == main.name {
                        main.text
                    } else {
                        refs.iter()
                            .find(|input| input.name == file)
                            .map_or("", |input| input.text)
                    }
                };
                schema_problem(&problem, source_of, stderr)
            })
        }
    }
}

/// One document validated, from its text or the message it could not be
/// read with; the second is the stderr line an unreadable one is said with.
pub fn validate_document(
    name: &str,
    text: Result<&str, String>,
    schema: &CompiledSchema,
    builtin: Option<&str>,
    format: Format,
    color: bool,
) -> (ValidatedFile, Option<String>) {
    match text {
        Ok(text) => {
            let report = crate::json::tools::validate_document(name, text, schema, builtin);
            // The text format says each file as soon as it is done (a run may
            // name thousands); the others keep the findings for the whole run.
            let validated = if format == Format::Text {
                ValidatedFile {
                    snippets: snippets(name, text, &report, TextOptions { color }),
                    report,
                    diagnostics: Vec::new(),
                }
            } else {
                ValidatedFile {
                    diagnostics: validation_diagnostics(&report, text),
                    report,
                    snippets: String::new(),
                }
            };
            (validated, None)
        }
        Err(message) => {
            let said = line(&message);
            let report = DocumentReport::unreadable(name, message);
            let validated = ValidatedFile {
                diagnostics: validation_diagnostics(&report, ""),
                report,
                snippets: String::new(),
            };
            (validated, Some(said))
        }
    }
}

/// The report on the validated documents, in the order given: exit 1 when
/// one is invalid, 2 when one got no verdict (unread or unchecked).
pub fn validation_report(dialect: &str, files: &[ValidatedFile], format: Format, options: &Options) -> Streams {
    let mut streams = Streams::default();
    let mut any_invalid = false;
    let mut read_failed = false;
    for file in files {
        any_invalid |= !file.report.valid;
        // A document that got no verdict is an incomplete check, as one that could not be read.
        read_failed |= file.report.is_unreadable() || file.report.unchecked.is_some();
        streams.stdout.push_str(&file.snippets);
    }
    match validation(dialect, files, format, options) {
        Some(out) => streams.stdout.push_str(&out),
        None => {
            streams.stderr = verdict(dialect, files);
            streams.stderr.push('\n');
        }
    }
    streams.exit = Exit::findings_if(any_invalid).unless_failed(read_failed);
    streams
}

/// A whole `validate` run on what a face has read: `schema` (or the stderr
/// text its reading failed with) and each document's text or read failure.
/// The native CLI calls the steps itself, to read and check in parallel.
pub struct Validation<'t> {
    pub builtin: Option<&'t str>,
    pub schema: Result<SchemaSource<'t>, String>,
    pub formats: bool,
    pub documents: &'t [(&'t str, Result<&'t str, String>)],
    pub format: Format,
    pub options: &'t Options,
    pub stderr: TextOptions,
}

/// Runs [`Validation`]: the steps of `validate`, in its order.
pub fn validate(run: Validation) -> Streams {
    if let Some(first) = validate_first(run.builtin, run.documents.len()) {
        return first;
    }
    let source = match run.schema {
        Ok(source) => source,
        Err(message) => return Streams::failure(message),
    };
    let schema = match validation_schema(source, run.formats, run.stderr) {
        Ok(schema) => schema,
        Err(message) => return Streams::failure(message),
    };
    let mut said = String::new();
    let files: Vec<ValidatedFile> = run
        .documents
        .iter()
        .map(|(name, text)| {
            let (file, line) =
                validate_document(name, text.clone(), &schema, run.builtin, run.format, run.options.color);
            said.extend(line);
            file
        })
        .collect();
    let mut streams = validation_report(schema.dialect(), &files, run.format, run.options);
    said.push_str(&streams.stderr);
    streams.stderr = said;
    streams
}

/// `fmt`'s refusal of several files on standard output, which holds one document.
pub fn fmt_refusal(files: usize, write: bool, check: bool) -> Option<String> {
    (files > 1 && !write && !check)
        .then(|| line("several files are formatted with --write (in place) or --check; standard output takes one"))
}

/// `fmt --indent`: 2, 4 or tab.
pub fn fmt_indent(text: &str) -> Result<Indent, String> {
    match text {
        "2" => Ok(Indent::Spaces(2)),
        "4" => Ok(Indent::Spaces(4)),
        "tab" => Ok(Indent::Tab),
        _ => Err("expected 2, 4 or tab".to_string()),
    }
}

/// What `fmt` does with one document it has read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FmtMode {
    /// The formatted document (to standard output, or to write back).
    Format,
    /// `--check`: nothing printed; exit 1 when the text is not formatted this way.
    Check,
}

/// `apcheck fmt` on one document held whole: with [`FmtMode::Format`] the
/// formatted text on `stdout`; a syntax error is said on stderr (exit 1).
/// The CLI streams what it prints instead (the output is never held whole);
/// the formatting and the error are these.
pub fn fmt(input: Input, options: &FormatOptions, mode: FmtMode, stderr: TextOptions) -> Streams {
    let mut streams = Streams::default();
    let mut rest = input.text.as_bytes();
    let mut same = true;
    let mut formatted = Vec::new();
    let done = format_streaming(input.text, options, &mut |chunk: &[u8]| match mode {
        FmtMode::Format => formatted.extend_from_slice(chunk),
        FmtMode::Check => {
            same = same && rest.len() >= chunk.len() && rest[..chunk.len()] == *chunk;
            rest = rest.get(chunk.len()..).unwrap_or_default();
        }
    });
    if let Err(error) = done {
        streams.stderr = fmt_error(input.name, input.text, error, stderr);
        streams.exit = Exit::Findings;
        return streams;
    }
    match mode {
        FmtMode::Format => {
            // The formatter writes UTF-8 from UTF-8 text.
            streams.stdout =
                String::from_utf8(formatted).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
        }
        FmtMode::Check if same && rest.is_empty() => {}
        FmtMode::Check => {
            streams.stderr = format!("{}: not formatted\n", visible(input.name));
            streams.exit = Exit::Findings;
        }
    }
    streams
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input<'t>(name: &'t str, text: &'t str) -> Input<'t> {
        Input { name, text }
    }

    fn view(format: DiffFormat) -> DiffView {
        DiffView {
            format,
            color: false,
            stderr: TextOptions::default(),
            exiting: false,
        }
    }

    fn validated(text: Result<&str, String>, format: Format) -> (ValidatedFile, Option<String>) {
        let schema = r#"{"type": "object", "properties": {"name": {"type": "string"}}}"#;
        let schema = crate::json::validate::compile(
            SchemaFile {
                name: "s.json",
                text: schema,
            },
            &[],
            &CompileOptions::default(),
        )
        .unwrap();
        validate_document("a.json", text, &schema, None, format, false)
    }

    #[test]
    fn the_text_format_renders_each_file_as_it_is_checked() {
        let (file, said) = validated(Ok("{\"name\": 7}"), Format::Text);
        assert!(said.is_none());
        assert!(!file.report.valid && file.diagnostics.is_empty());
        assert!(file.snippets.contains("a.json:1:10"), "{}", file.snippets);
        assert!(file.snippets.contains("at /name, schema /properties/name/type (type)"));
    }

    #[test]
    fn the_other_formats_keep_findings_for_the_whole_run() {
        let (file, _) = validated(Ok("{\"name\": 7}"), Format::Json);
        assert!(file.snippets.is_empty());
        assert_eq!(file.diagnostics.len(), 1);
        assert_eq!(file.diagnostics[0].code, "AP030");
    }

    #[test]
    fn an_unreadable_file_is_an_unreadable_finding_said_on_stderr() {
        let (file, said) = validated(Err("cannot read a.json".to_string()), Format::Json);
        assert!(file.report.is_unreadable());
        assert_eq!(file.diagnostics[0].code, "AP005");
        assert!(said.unwrap().contains("cannot read a.json"));
    }

    #[test]
    fn diff_exits_0_when_equal_1_when_different_and_2_on_text_that_is_not_json() {
        let options = || diff_options(&[], false, &[]).unwrap();
        let (a, same, b) = (
            input("a", r#"{"x": 1}"#),
            input("s", r#"{ "x":1 }"#),
            input("b", r#"{"x": null}"#),
        );
        for format in DiffFormat::NAMES.map(|name| DiffFormat::from_name(name).unwrap()) {
            assert_eq!(diff(a, same, options(), view(format)).exit, Exit::Clean, "{format:?}");
            assert_eq!(diff(a, b, options(), view(format)).exit, Exit::Findings, "{format:?}");
            let broken = diff(a, input("broken", "{"), options(), view(format));
            assert_eq!((broken.exit, broken.stdout.as_str()), (Exit::Failure, ""), "{format:?}");
            assert!(broken.stderr.contains("broken"), "{}", broken.stderr);
        }
        let merge = diff(a, b, options(), view(DiffFormat::Merge));
        assert!(merge.stderr.starts_with("warning: /x is null in B"), "{}", merge.stderr);
        assert_eq!(
            diff_options(&[], false, &["x".to_string()]).unwrap_err(),
            "apcheck: --ignore: `x` is not a JSON Pointer (it must start with '/')\n"
        );
    }

    #[test]
    fn validate_answers_list_and_no_documents_before_reading_and_says_unreadable_ones() {
        assert!(validate_first(Some("list"), 0).unwrap().stdout.contains("mcp-tool"));
        assert_eq!(validate_first(Some("mcp-tool"), 0).unwrap().exit, Exit::Failure);
        assert!(validate_first(None, 1).is_none());
        let options = Options::default();
        let documents = [
            ("tool.json", Ok(r#"{"name": "t", "inputSchema": {"type": "object"}}"#)),
            ("gone.json", Err("cannot read gone.json: missing".to_string())),
        ];
        fn run<'t>(documents: &'t [(&'t str, Result<&'t str, String>)], options: &'t Options) -> Validation<'t> {
            Validation {
                builtin: Some("mcp-tool"),
                schema: Ok(SchemaSource::Builtin("mcp-tool")),
                formats: false,
                documents,
                format: Format::Text,
                options,
                stderr: TextOptions::default(),
            }
        }
        assert_eq!(validate(run(&documents[..1], &options)).exit, Exit::Clean);
        let unread = validate(run(&documents, &options));
        assert_eq!(unread.exit, Exit::Failure);
        assert!(
            unread.stderr.starts_with("apcheck: cannot read gone.json: missing\n"),
            "{}",
            unread.stderr
        );
    }

    #[test]
    fn fmt_checks_and_formats() {
        let options = FormatOptions::default();
        let formatted = fmt(
            input("a", r#"{"a":[1,2]}"#),
            &options,
            FmtMode::Format,
            TextOptions::default(),
        );
        assert_eq!(formatted.exit, Exit::Clean);
        let checked = fmt(
            input("b", &formatted.stdout),
            &options,
            FmtMode::Check,
            TextOptions::default(),
        );
        assert_eq!((checked.exit, checked.stderr.as_str()), (Exit::Clean, ""));
        let unformatted = fmt(
            input("a", r#"{"a":[1,2]}"#),
            &options,
            FmtMode::Check,
            TextOptions::default(),
        );
        assert_eq!(
            (unformatted.exit, unformatted.stderr.as_str()),
            (Exit::Findings, "a: not formatted\n")
        );
        assert_eq!(
            fmt(input("c", "{"), &options, FmtMode::Format, TextOptions::default()).exit,
            Exit::Findings
        );
    }
}
