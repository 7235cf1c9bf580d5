//! `apcheck call SNAPSHOT TOOL ARGS.json`: would the server accept these
//! `tools/call` arguments? They are validated against the tool's `inputSchema`
//! from the snapshot, every violation placed at line:column in the arguments.

use serde_json::Value;

use super::lint::check_snapshot;
use super::model::Tool;
use super::schema::CompiledSchema;
use crate::diag::{Diagnostic, Severity};
use crate::json::parse_document;
use crate::json::pointer::push_token;
use crate::rule::{Example, Rule};
use crate::source::json::JsonSource;
use crate::source::{LineIndex, Span};

const SNAPSHOT: &str = r#"{"plugin": {"name": "invoice-ops", "version": "1.2.0", "spec": "1.0.0"}, "skills": [],
  "mcpServers": [{"id": "invoice-tools", "type": "streamable-http", "status": "connected"}],
  "tools": [{"name": "query_invoices", "server": "invoice-tools",
             "inputSchema": {"type": "object", "required": ["week"],
                             "properties": {"week": {"type": "string", "pattern": "^[0-9]{4}-W[0-9]{2}$"},
                                            "status": {"type": "string", "enum": ["open", "paid", "overdue"]}}}}]}"#;
const VALID_ARGUMENTS: &str = r#"{"week": "2026-W09", "status": "open"}"#;

pub static ARGUMENTS_INVALID: Rule = Rule {
    code: "AP901",
    name: "call-arguments-invalid",
    severity: Severity::Error,
    spec: "MCP server/tools (tools/call)",
    summary: "tools/call arguments do not match the tool's inputSchema",
    fix_hint: Some("Change the argument shown so it matches the tool's inputSchema."),
    doc: rule_doc! {
        what: "The arguments object against the tool's `inputSchema`, under the schema's own dialect.",
        why: "A server validates arguments against the schema it advertised and answers a mismatch with an error instead of a result.",
        failing: Example::Call {
            snapshot: SNAPSHOT,
            tool: "query_invoices",
            arguments: r#"{"week": "2026-09", "status": "unpaid"}"#,
        },
        fixed: Example::Call {
            snapshot: SNAPSHOT,
            tool: "query_invoices",
            arguments: VALID_ARGUMENTS,
        },
    },
};

pub static TOOL_NOT_IN_SNAPSHOT: Rule = Rule {
    code: "AP902",
    name: "call-tool-unknown",
    severity: Severity::Error,
    spec: "MCP server/tools (tools/call)",
    summary: "The tool is not in the snapshot, or its name is ambiguous",
    fix_hint: Some("Name a tool the snapshot lists; qualify it as SERVER/TOOL when two servers offer the name."),
    doc: rule_doc! {
        what: "That TOOL names exactly one tool of the snapshot, as `name` or `server/name`.",
        why: "A client calls a tool by the name a connected server listed; any other name is answered with an error.",
        failing: Example::Call {
            snapshot: SNAPSHOT,
            tool: "query_invoice",
            arguments: VALID_ARGUMENTS,
        },
        fixed: Example::Call {
            snapshot: SNAPSHOT,
            tool: "invoice-tools/query_invoices",
            arguments: VALID_ARGUMENTS,
        },
    },
};

pub static ARGUMENTS_NOT_OBJECT: Rule = Rule {
    code: "AP903",
    name: "call-arguments-not-object",
    severity: Severity::Error,
    spec: "MCP server/tools (CallToolRequest.params.arguments)",
    summary: "The arguments are not a JSON object",
    fix_hint: Some("`arguments` is a JSON object of argument names to values."),
    doc: rule_doc! {
        what: "That the arguments file is strict JSON holding one object.",
        why: "MCP's `tools/call` carries `arguments` as an object; anything else is rejected before the schema is even consulted.",
        failing: Example::Call {
            snapshot: SNAPSHOT,
            tool: "query_invoices",
            arguments: r#"["2026-W09", "open"]"#,
        },
        fixed: Example::Call {
            snapshot: SNAPSHOT,
            tool: "query_invoices",
            arguments: VALID_ARGUMENTS,
        },
    },
};

pub static ARGUMENTS_UNCHECKED: Rule = Rule {
    code: "AP904",
    name: "call-arguments-unchecked",
    severity: Severity::Error,
    spec: "MCP server/tools (tools/call); JSON Schema 2020-12 Validation §6.2",
    summary: "The arguments could not be checked against the tool's inputSchema",
    fix_hint: Some(
        "No verdict was given: simplify the inputSchema's self-referring branches, or write the number with at most 17 significant digits.",
    ),
    doc: rule_doc! {
        what: "That the check of the arguments could be finished with an exact verdict. It cannot when the \
               schema's `anyOf`/`oneOf`/`allOf` branches refer back to the schema so that validating these \
               arguments would cost more than their budget (262,144 subschema applications plus 4 per byte), \
               when a `pattern` cannot be matched within the regular expression engine's backtracking limit, \
               or when a numeric keyword (`minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum`, \
               `multipleOf`, `const`, `enum`, `type: integer`, `uniqueItems`) would compare a number that a \
               64-bit float cannot hold exactly.",
        why: "The validator compares numbers as 64-bit floats and evaluates every branch without sharing work: \
              past these limits its answer would be a rounding's, or would take minutes and gigabytes. apcheck \
              says it could not check instead of giving a verdict that may be wrong.",
        failing: Example::Call {
            snapshot: r#"{"plugin": {"name": "p", "version": "1.0.0", "spec": "1.0.0"}, "skills": [],
  "mcpServers": [{"id": "s", "type": "stdio", "status": "connected"}],
  "tools": [{"name": "pay", "server": "s",
             "inputSchema": {"type": "object", "properties": {"cents": {"maximum": 1e19}}}}]}"#,
            tool: "pay",
            arguments: r#"{"cents": 10000000000000000001}"#,
        },
        fixed: Example::Call {
            snapshot: r#"{"plugin": {"name": "p", "version": "1.0.0", "spec": "1.0.0"}, "skills": [],
  "mcpServers": [{"id": "s", "type": "stdio", "status": "connected"}],
  "tools": [{"name": "pay", "server": "s",
             "inputSchema": {"type": "object", "properties": {"cents": {"maximum": 1e19}}}}]}"#,
            tool: "pay",
            arguments: r#"{"cents": 1000}"#,
        },
    },
};

pub static RULES: &[&Rule] = &[
    &ARGUMENTS_INVALID,
    &TOOL_NOT_IN_SNAPSHOT,
    &ARGUMENTS_NOT_OBJECT,
    &ARGUMENTS_UNCHECKED,
];

#[derive(Debug, Clone, serde::Serialize)]
pub struct CallReport {
    /// `server/name` of the tool the arguments were checked against.
    pub tool: Option<String>,
    pub valid: bool,
    pub diagnostics: Vec<Diagnostic>,
}

/// A call check as a form with a field per argument needs it (the page's
/// tool-call form): the report, the schema the form is built from, and each
/// schema violation filed under the argument it is about.
#[derive(Debug, Clone, serde::Serialize)]
pub struct CallForm {
    pub report: CallReport,
    /// The tool's `inputSchema`, as the snapshot has it (`None` when no tool was found).
    pub input_schema: Option<Value>,
    pub issues: Vec<ArgumentIssue>,
}

/// One violation of the `inputSchema`, by argument.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ArgumentIssue {
    /// JSON Pointer of the failing value. A missing required argument is filed
    /// under its own pointer, although its diagnostic is placed on the object
    /// lacking it (the argument has no place in the text).
    pub pointer: String,
    pub message: String,
}

/// Checks `arguments_text` (file `arguments_name`) for `tool` of the snapshot.
pub fn check_call(
    snapshot_name: &str,
    snapshot_text: &str,
    tool: &str,
    arguments_name: &str,
    arguments_text: &str,
) -> CallReport {
    check_call_form(snapshot_name, snapshot_text, tool, arguments_name, arguments_text).report
}

/// `check_call`, with what a form needs besides (see `CallForm`).
pub fn check_call_form(
    snapshot_name: &str,
    snapshot_text: &str,
    tool: &str,
    arguments_name: &str,
    arguments_text: &str,
) -> CallForm {
    let mut form = CallForm {
        report: CallReport {
            tool: None,
            valid: false,
            diagnostics: Vec::new(),
        },
        input_schema: None,
        issues: Vec::new(),
    };
    check_into(
        &mut form,
        snapshot_name,
        snapshot_text,
        tool,
        arguments_name,
        arguments_text,
    );
    form
}

fn check_into(
    form: &mut CallForm,
    snapshot_name: &str,
    snapshot_text: &str,
    tool: &str,
    arguments_name: &str,
    arguments_text: &str,
) {
    let check = check_snapshot(snapshot_name, snapshot_text, None);
    let CallForm {
        report,
        input_schema,
        issues,
    } = form;
    report.diagnostics = check
        .diagnostics
        .into_iter()
        .filter(|d| d.severity == Severity::Error)
        .collect();
    let Some(snapshot) = check.snapshot else {
        return;
    };
    let found = match find_tool(&snapshot.tools, tool) {
        Ok(found) => found,
        Err(message) => {
            report
                .diagnostics
                .push(Diagnostic::new(&TOOL_NOT_IN_SNAPSHOT, message).in_file(snapshot_name));
            return;
        }
    };
    report.tool = Some(found.qualified_name());
    *input_schema = found.input_schema().cloned();
    let doc = match parse_document(arguments_text) {
        Ok(doc) => doc,
        Err(error) => {
            let index = LineIndex::new(arguments_text);
            let at = Span::new(error.offset, error.offset);
            report.diagnostics.push(
                Diagnostic::new(
                    &ARGUMENTS_NOT_OBJECT,
                    format!("the arguments are not JSON: {}", error.message),
                )
                .in_file(arguments_name)
                .at_span(arguments_text, &index, at),
            );
            return;
        }
    };
    let located = JsonSource::new(arguments_name, arguments_text, doc);
    let doc = &located.doc;
    if !doc.value.is_object() {
        report.diagnostics.push(located.at_value(
            &ARGUMENTS_NOT_OBJECT,
            "",
            format!(
                "the arguments are {}, not an object",
                crate::json::json_type(&doc.value)
            ),
        ));
        return;
    }
    let schema = input_schema.clone().unwrap_or(Value::Null);
    match CompiledSchema::compile(&schema) {
        Err(reason) => report.diagnostics.push(
            Diagnostic::new(
                &super::lint::TOOL_SCHEMA_INVALID,
                format!(
                    "the inputSchema of `{}` does not compile: {reason}",
                    found.qualified_name()
                ),
            )
            .in_file(snapshot_name),
        ),
        Ok(compiled) => match compiled.errors(arguments_text, doc) {
            Err(unchecked) => report.diagnostics.push(located.at_value(
                &ARGUMENTS_UNCHECKED,
                &unchecked.instance_pointer,
                unchecked.message,
            )),
            Ok(errors) => {
                for error in errors {
                    let mut pointer = error.pointer.clone();
                    if let Some(missing) = &error.missing {
                        push_token(&mut pointer, missing);
                    }
                    issues.push(ArgumentIssue {
                        pointer,
                        message: error.message.clone(),
                    });
                    report
                        .diagnostics
                        .push(located.at_value(&ARGUMENTS_INVALID, &error.pointer, error.message));
                }
            }
        },
    }
    report.valid = report.diagnostics.iter().all(|d| d.severity != Severity::Error);
}

/// The one tool `wanted` names: `server/name`, or a name only one server offers.
fn find_tool<'s>(tools: &'s [Tool], wanted: &str) -> Result<&'s Tool, String> {
    let matches: Vec<&Tool> = match wanted.split_once('/') {
        Some((server, name)) => tools.iter().filter(|t| t.server == server && t.name == name).collect(),
        None => tools.iter().filter(|t| t.name == wanted).collect(),
    };
    match matches.as_slice() {
        [one] => Ok(one),
        [] => {
            let known: Vec<String> = tools.iter().map(Tool::qualified_name).collect();
            Err(if known.is_empty() {
                format!("tool `{wanted}` is not in the snapshot, which lists no tools")
            } else {
                format!("tool `{wanted}` is not in the snapshot (it lists {})", known.join(", "))
            })
        }
        several => Err(format!(
            "tool `{wanted}` is offered by several servers; name one of {}",
            several
                .iter()
                .map(|t| t.qualified_name())
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reference_arguments_are_valid() {
        let report = check_call("s.json", SNAPSHOT, "query_invoices", "a.json", VALID_ARGUMENTS);
        assert!(report.valid, "{:#?}", report.diagnostics);
        assert_eq!(report.tool.as_deref(), Some("invoice-tools/query_invoices"));
    }

    #[test]
    fn every_violation_is_placed_in_the_arguments_file() {
        let arguments = "{\n  \"week\": \"2026-09\",\n  \"status\": \"unpaid\"\n}";
        let report = check_call("s.json", SNAPSHOT, "query_invoices", "a.json", arguments);
        let places: Vec<_> = report
            .diagnostics
            .iter()
            .map(|d| (d.code, d.line, d.column, d.pointer.clone()))
            .collect();
        assert_eq!(
            places,
            [
                ("AP901", Some(2), Some(11), Some("/week".to_string())),
                ("AP901", Some(3), Some(13), Some("/status".to_string()))
            ]
        );
        assert!(!report.valid);
    }

    #[test]
    fn a_missing_required_argument_points_at_the_object() {
        let report = check_call("s.json", SNAPSHOT, "query_invoices", "a.json", "{}");
        assert_eq!(report.diagnostics.len(), 1);
        assert!(report.diagnostics[0].message.contains("week"));
        assert_eq!(report.diagnostics[0].line, Some(1));
    }

    #[test]
    fn a_form_gets_the_schema_and_each_violation_under_its_argument() {
        let form = check_call_form(
            "s.json",
            SNAPSHOT,
            "query_invoices",
            "a.json",
            r#"{"status": "unpaid"}"#,
        );
        let schema = form.input_schema.expect("the tool is found");
        assert_eq!(schema["required"], serde_json::json!(["week"]));
        let pointers: Vec<&str> = form.issues.iter().map(|issue| issue.pointer.as_str()).collect();
        // The missing `week` is filed under its own name; its diagnostic stays on the object.
        assert_eq!(pointers, ["/week", "/status"]);
        assert!(form.issues[0].message.contains("week"));
        let placed: Vec<_> = form.report.diagnostics.iter().map(|d| d.pointer.as_deref()).collect();
        assert_eq!(placed, [Some(""), Some("/status")]);
    }

    #[test]
    fn a_missing_name_is_escaped_as_a_pointer_token() {
        let snapshot = SNAPSHOT.replace(r#""required": ["week"]"#, r#""required": ["a/b~c"]"#);
        let form = check_call_form("s.json", &snapshot, "query_invoices", "a.json", "{}");
        assert_eq!(form.issues[0].pointer, "/a~1b~0c");
    }

    #[test]
    fn no_tool_means_no_schema_and_no_argument_issues() {
        let form = check_call_form("s.json", SNAPSHOT, "query_invoice", "a.json", "{}");
        assert!(form.input_schema.is_none());
        assert!(form.issues.is_empty());
        assert_eq!(form.report.diagnostics[0].code, "AP902");
    }
}
