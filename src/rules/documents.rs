//! `apcheck validate`'s findings as diagnostics, so that they reach every
//! format through the one renderer (`crate::render`), escaped and masked as
//! every other command's: a document that could not be read or is not JSON
//! gets the package check's [`FILE_UNREADABLE`] or [`JSON_SYNTAX`], and each
//! failed keyword is a [`SCHEMA_VIOLATION`].

use crate::diag::Diagnostic;
use crate::json::tools::{DocumentProblem, DocumentReport};
use crate::rule::{Example, Rule, Severity};
use crate::source::{LineIndex, Span};

use super::files::{FILE_UNREADABLE, JSON_SYNTAX};

pub static SCHEMA_VIOLATION: Rule = Rule {
    code: "AP030",
    name: "json-schema-violation",
    severity: Severity::Error,
    spec: "JSON Schema 2020-12 Core §10, Validation §6 (or the schema's own dialect)",
    summary: "A document given to `apcheck validate` fails a keyword of its schema",
    fix_hint: None,
    doc: rule_doc! {
        what: "Validates a JSON document against a JSON Schema (one of the built-ins, or a schema file with the \
               files its `$ref`s name) and reports every keyword that fails, at the failing value, with the \
               keyword's location in the schema. Only `apcheck validate` raises it; `apcheck check` reports the \
               package's own rules instead.",
        why: "A document that fails its schema is refused by whatever reads it against that schema: the Agent \
              Plugins schemas describe what a conformant client accepts, and the MCP schemas what a server may \
              send. The value's line and column and the keyword's schema pointer say what to change.",
        failing: Example::Validate {
            schema: "{\"type\": \"object\", \"required\": [\"name\"], \"properties\": {\"name\": {\"type\": \"string\"}}}",
            document: "{\"name\": 7}",
        },
        fixed: Example::Validate {
            schema: "{\"type\": \"object\", \"required\": [\"name\"], \"properties\": {\"name\": {\"type\": \"string\"}}}",
            document: "{\"name\": \"seven\"}",
        },
    },
};

pub static SCHEMA_UNCHECKED: Rule = Rule {
    code: "AP031",
    name: "json-schema-unchecked",
    severity: Severity::Error,
    spec: "JSON Schema 2020-12 Core §10.2, Validation §6.2, §6.5.3 (or the schema's own dialect)",
    summary: "A document given to `apcheck validate` could not be checked against its schema",
    fix_hint: Some(
        "No verdict was given: simplify the schema's self-referring branches, or write the number with at most 17 significant digits.",
    ),
    doc: rule_doc! {
        what: "That validating the document could be finished with an exact verdict. It cannot when the \
               schema's `anyOf`/`oneOf`/`allOf` branches refer back to the schema so that this document would \
               cost more than its budget (262,144 subschema applications plus 4 per byte of the document), \
               when a `pattern` cannot be matched within the regular expression engine's backtracking limit, \
               or when a numeric keyword (`minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum`, \
               `multipleOf`, `const`, `enum`, `type: integer`, `uniqueItems`) would compare a number that a \
               64-bit float cannot hold exactly (`18446744073709551617`, `1e400`, `0.99999999999999999999`). \
               Such a document is neither valid nor invalid, and the run exits 2, as for a file it could not read.",
        why: "The validator compares numbers as 64-bit floats and evaluates every branch without sharing work: \
              past these limits its answer would be a rounding's (`{\"minimum\": 1}` would accept \
              `0.99999999999999999999`), or would take minutes and gigabytes (each level of a twice \
              self-referring `oneOf` doubles the work). apcheck says it could not check instead.",
        failing: Example::Validate {
            schema: "{\"minimum\": 1}",
            document: "0.99999999999999999999",
        },
        fixed: Example::Validate {
            schema: "{\"minimum\": 1}",
            document: "1.5",
        },
    },
};

pub static RULES: &[&Rule] = &[&SCHEMA_VIOLATION, &SCHEMA_UNCHECKED];

/// The findings of one validated document (`text` is empty for one that
/// could not be read: its finding is [`FILE_UNREADABLE`]). The schema
/// pointer and keyword of each failure are its hint; a note that the document
/// is another kind of file than the built-in describes comes first in it.
pub fn validation_diagnostics(report: &DocumentReport, text: &str) -> Vec<Diagnostic> {
    let index = LineIndex::new(text);
    if let Some(DocumentProblem::Unreadable(message)) = &report.error {
        return vec![
            Diagnostic::new(&FILE_UNREADABLE, message.clone())
                .in_file(&report.file)
                .with_hint("Name a file that exists and can be read"),
        ];
    }
    if let Some(DocumentProblem::NotJson(error)) = &report.error {
        let at = Span {
            start: error.offset,
            end: error.offset,
        };
        return vec![
            Diagnostic::new(&JSON_SYNTAX, error.message.clone())
                .in_file(&report.file)
                .at_span(text, &index, at),
        ];
    }
    if let Some(unchecked) = &report.unchecked {
        return vec![
            Diagnostic::new(&SCHEMA_UNCHECKED, unchecked.message.clone())
                .in_file(&report.file)
                .at_pointer(&unchecked.instance_pointer)
                .at_span(text, &index, unchecked.span),
        ];
    }
    report
        .issues
        .iter()
        .map(|issue| {
            let mut message = issue.message.clone();
            if let Some(element) = &issue.element {
                match &element.name {
                    Some(name) => message.push_str(&format!(" (in element {} \"{name}\")", element.index)),
                    None => message.push_str(&format!(" (in element {})", element.index)),
                }
            }
            let mut hint = format!("schema {} ({})", issue.schema_location, issue.keyword);
            if let Some(note) = &report.kind_mismatch {
                hint = format!("{note}; {hint}");
            }
            Diagnostic::new(&SCHEMA_VIOLATION, message)
                .in_file(&report.file)
                .at_pointer(&issue.instance_pointer)
                .at_span(text, &index, issue.span)
                .with_hint(hint)
        })
        .collect()
}

/// The findings of `document` (named `file`) validated against `schema`, or
/// against the built-in named `builtin`: for the tests here and the registry's
/// run of AP030's doc examples.
#[cfg(test)]
pub(crate) fn validated(file: &str, schema: &str, document: &str, builtin: Option<&str>) -> Vec<Diagnostic> {
    use crate::json::tools::{SchemaChoice, load_schema, validate_document};
    use crate::json::validate::{CompileOptions, SchemaCache, SchemaFile};
    let choice = match builtin {
        Some(name) => SchemaChoice::Builtin(name),
        None => SchemaChoice::File {
            main: SchemaFile {
                name: "schema.json",
                text: schema,
            },
            refs: Vec::new(),
        },
    };
    let schema =
        load_schema(&choice, &CompileOptions::default(), &mut SchemaCache::new(1)).expect("the schema compiles");
    validation_diagnostics(&validate_document(file, document, &schema, builtin), document)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn validated(schema: &str, document: &str, builtin: Option<&str>) -> Vec<Diagnostic> {
        super::validated("doc.json", schema, document, builtin)
    }

    #[test]
    fn each_failed_keyword_is_placed_at_its_value() {
        let found = validated(
            r#"{"properties": {"tools": {"type": "array", "items": {"type": "object", "required": ["name"]}}}}"#,
            "{\n  \"tools\": [\n    {\"name\": \"a\"},\n    {\"title\": \"b\"}\n  ]\n}",
            None,
        );
        assert_eq!(found.len(), 1, "{found:#?}");
        let finding = &found[0];
        assert_eq!(finding.code, "AP030");
        assert_eq!(finding.file.as_deref(), Some("doc.json"));
        assert_eq!(finding.pointer.as_deref(), Some("/tools/1"));
        assert_eq!((finding.line, finding.column), (Some(4), Some(5)));
        assert!(finding.message.ends_with("(in element 1)"), "{}", finding.message);
        assert_eq!(
            finding.hint.as_deref(),
            Some("schema /properties/tools/items/required (required)")
        );
    }

    #[test]
    fn a_document_that_is_not_json_is_a_syntax_error_at_its_position() {
        // A trailing comma is reported at the comma, as `check` and `fmt` report it.
        let found = validated("{}", "{\n  \"a\": 1,\n}", None);
        assert_eq!(found.len(), 1, "{found:#?}");
        assert_eq!(found[0].code, "AP008");
        assert_eq!((found[0].line, found[0].column), (Some(2), Some(9)));
    }

    #[test]
    fn the_kind_mismatch_note_leads_the_hint() {
        let snapshot = r#"{"snapshotVersion": "1", "plugin": {}, "tools": []}"#;
        let found = validated("", snapshot, Some("plugin"));
        assert!(!found.is_empty());
        let hint = found[0].hint.as_deref().unwrap_or_default();
        assert!(hint.contains("snapshot"), "{hint}");
    }
}
