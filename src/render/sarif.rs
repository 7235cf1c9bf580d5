//! SARIF 2.1.0 for code-scanning tools: one run, the whole rule registry as
//! `tool.driver.rules`, one result per diagnostic.
//!
//! Paths stay relative to their plugin root: each root gets a `uriBaseId`
//! (`ROOT1`, `ROOT2`, …), defined in `originalUriBaseIds` when the edge knows
//! where the root is (the CLI passes a `file:` URI; the page passes none).
//! The driver carries no `informationUri`: apcheck makes no network claims.

use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, utf8_percent_encode};
use serde_json::{Map, Value, json};

use crate::diag::{Diagnostic, Severity};
use crate::report::PackageReport;
use crate::rules::{self, Rule};

/// One checked root and, when known, the absolute URI of its directory.
pub struct SarifRoot<'r> {
    pub report: &'r PackageReport,
    /// `file:///…/` ending in `/`, see [`directory_uri`].
    pub base_uri: Option<String>,
}

const SCHEMA_URI: &str = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";

/// Characters kept as they are in a relative URI path: RFC 3986 unreserved plus `/`.
/// A `:` is encoded, because in a relative reference it could read as a scheme.
const RELATIVE_PATH_KEEP: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~')
    .remove(b'/');

/// In an absolute `file:` URI a `:` is an ordinary path character (`C:`).
const ABSOLUTE_PATH_KEEP: &AsciiSet = &RELATIVE_PATH_KEEP.remove(b':');

/// The SARIF log of `roots`, as a JSON value.
pub fn render(roots: &[SarifRoot<'_>]) -> Value {
    let registry: Vec<&'static Rule> = rules::all().collect();
    let mut base_ids = Map::new();
    let mut results = Vec::new();
    for (index, root) in roots.iter().enumerate() {
        let base_id = format!("ROOT{}", index + 1);
        if let Some(uri) = &root.base_uri {
            base_ids.insert(
                base_id.clone(),
                json!({ "uri": uri, "description": { "text": format!("Plugin root {}", root.report.root) } }),
            );
        }
        for diagnostic in &root.report.diagnostics {
            results.push(result(diagnostic, &base_id, &root.report.root, &registry));
        }
    }
    let mut run = json!({
        "tool": { "driver": {
            "name": "apcheck",
            "version": env!("CARGO_PKG_VERSION"),
            "semanticVersion": env!("CARGO_PKG_VERSION"),
            "rules": registry.iter().map(|rule| rule_descriptor(rule)).collect::<Vec<_>>(),
        }},
        // Our columns count Unicode scalar values (see `source`), SARIF's default is UTF-16 units.
        "columnKind": "unicodeCodePoints",
        "results": results,
    });
    if !base_ids.is_empty() {
        run["originalUriBaseIds"] = Value::Object(base_ids);
    }
    json!({ "$schema": SCHEMA_URI, "version": "2.1.0", "runs": [run] })
}

/// A `file:` URI for the absolute directory `path`, ending in `/` as SARIF
/// requires of a base. Backslashes become slashes, so Windows paths work too.
pub fn directory_uri(path: &str) -> String {
    let path = path.replace('\\', "/");
    let path = path.strip_prefix("//?/").unwrap_or(&path);
    let slash = if path.starts_with('/') { "" } else { "/" };
    let mut uri = format!("file://{slash}{}", utf8_percent_encode(path, ABSOLUTE_PATH_KEEP));
    if !uri.ends_with('/') {
        uri.push('/');
    }
    uri
}

fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

fn rule_descriptor(rule: &Rule) -> Value {
    let mut help = rule.doc.why.to_string();
    if let Some(fix) = rule.fix_hint {
        help.push_str("\n\nFix: ");
        help.push_str(fix);
    }
    json!({
        "id": rule.code,
        "name": rule.name,
        "shortDescription": { "text": rule.summary },
        "fullDescription": { "text": rule.doc.what },
        "help": { "text": help },
        "defaultConfiguration": { "level": level(rule.severity) },
        "properties": { "spec": rule.spec },
    })
}

fn result(diagnostic: &Diagnostic, base_id: &str, root: &str, registry: &[&Rule]) -> Value {
    let mut text = diagnostic.message.clone();
    if let Some(hint) = &diagnostic.hint {
        text.push_str("\nHelp: ");
        text.push_str(hint);
    }
    let mut result = json!({
        "ruleId": diagnostic.code,
        "level": level(diagnostic.severity),
        "message": { "text": text },
        "properties": { "root": root, "spec": diagnostic.spec },
    });
    if let Some(index) = registry.iter().position(|rule| rule.code == diagnostic.code) {
        result["ruleIndex"] = json!(index);
    }
    if let Some(pointer) = &diagnostic.pointer {
        result["properties"]["pointer"] = json!(pointer);
    }
    if let Some(file) = &diagnostic.file {
        let mut physical = json!({
            "artifactLocation": { "uri": utf8_percent_encode(file, RELATIVE_PATH_KEEP).to_string(), "uriBaseId": base_id },
        });
        if let Some(region) = region(diagnostic) {
            physical["region"] = region;
        }
        result["locations"] = json!([{ "physicalLocation": physical }]);
    }
    result
}

fn region(diagnostic: &Diagnostic) -> Option<Value> {
    let start_line = diagnostic.line.filter(|&line| line >= 1)?;
    let mut region = json!({ "startLine": start_line });
    if let Some(column) = diagnostic.column.filter(|&c| c >= 1) {
        region["startColumn"] = json!(column);
    }
    if let Some(end_line) = diagnostic.end_line.filter(|&l| l >= start_line) {
        region["endLine"] = json!(end_line);
        if let Some(end_column) = diagnostic.end_column.filter(|&c| c >= 1) {
            region["endColumn"] = json!(end_column);
        }
    }
    Some(region)
}

#[cfg(test)]
mod tests {
    use super::super::test_support::*;
    use super::*;

    #[test]
    fn results_carry_rule_level_message_and_region_relative_to_the_root() {
        let report = report_with_findings("plugins/demo");
        let log = render(&[SarifRoot {
            report: &report,
            base_uri: Some(directory_uri("/repo/plugins/demo")),
        }]);
        assert_eq!(log["version"], "2.1.0");
        let run = &log["runs"][0];
        assert_eq!(run["tool"]["driver"]["name"], "apcheck");
        assert!(run["tool"]["driver"].get("informationUri").is_none());
        assert_eq!(run["originalUriBaseIds"]["ROOT1"]["uri"], "file:///repo/plugins/demo/");
        let first = &run["results"][0];
        assert_eq!(first["ruleId"], "AP201");
        assert_eq!(first["level"], "error");
        let location = &first["locations"][0]["physicalLocation"];
        assert_eq!(location["artifactLocation"]["uri"], "plugin.json");
        assert_eq!(location["artifactLocation"]["uriBaseId"], "ROOT1");
        assert_eq!(location["region"]["startLine"], 2);
        assert_eq!(location["region"]["startColumn"], 11);
        assert_eq!(location["region"]["endColumn"], 21);
        assert_eq!(run["results"][1]["level"], "warning");
    }

    #[test]
    fn a_log_with_results_validates_against_the_sarif_schema() {
        let schema: Value = serde_json::from_str(include_str!("../../tests/data/sarif-schema-2.1.0.json")).unwrap();
        let validator = jsonschema::validator_for(&schema).unwrap();
        let (a, b) = (report_with_findings("a"), report_with_findings("b"));
        let log = render(&[
            SarifRoot {
                report: &a,
                base_uri: Some(directory_uri("/repo/a")),
            },
            SarifRoot {
                report: &b,
                base_uri: None,
            },
        ]);
        assert_eq!(log["runs"][0]["results"].as_array().map(Vec::len), Some(4));
        let errors: Vec<String> = validator.iter_errors(&log).map(|e| e.to_string()).collect();
        assert!(errors.is_empty(), "{errors:#?}");
    }

    #[test]
    fn without_a_known_directory_no_base_is_defined() {
        let report = report_with_findings(".");
        let log = render(&[SarifRoot {
            report: &report,
            base_uri: None,
        }]);
        assert!(log["runs"][0].get("originalUriBaseIds").is_none());
    }

    #[test]
    fn uris_are_percent_encoded() {
        assert_eq!(directory_uri("/tmp/my plugins"), "file:///tmp/my%20plugins/");
        assert_eq!(directory_uri(r"C:\work\p"), "file:///C:/work/p/");
        assert_eq!(directory_uri(r"\\?\C:\work\p"), "file:///C:/work/p/");
    }
}
