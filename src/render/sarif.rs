//! SARIF 2.1.0 for code-scanning tools: one run, one result per diagnostic,
//! and as `tool.driver.rules` the descriptor of every rule a result cites, in
//! registry order. Only the cited ones: the log then is the same wherever the
//! core runs (the native registry has live-connection rules the wasm build
//! lacks), and its size follows the findings, not the registry.
//!
//! Artifact locations use the path as seen from where the check ran (the
//! root as given, then the package path: `plugins/a/plugin.json`), relative to
//! the `%SRCROOT%` base, which `originalUriBaseIds` defines when the edge knows
//! it (the CLI passes its working directory; the page passes none). A path
//! that is absolute becomes a `file:` URI with no base. Not a URI relative to
//! each plugin root: GitHub code scanning does not resolve `originalUriBaseIds`
//! and reads every relative `uri` from the repository root, so only
//! repository-relative paths land on the right file there; the plugin root
//! of each result is kept in its `properties.root`.
//! The driver carries no `informationUri`: apcheck makes no network claims.
//! Each rule descriptor's `helpUri` is the rule's page (`rule::doc_url`), so
//! code scanning links a result to its doc.

use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, utf8_percent_encode};
use serde_json::{Value, json};

use super::{Verdicts, display_root, hidden_note, path_from_root};
use crate::diag::{Diagnostic, Severity, UNREACHED_NOTE};
use crate::fix::Fix;
use crate::registry;
use crate::report::PackageReport;
use crate::rule::{Rule, doc_url};

const SCHEMA_URI: &str = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";

/// The base every relative artifact URI is resolved against (SARIF §3.4.4's usual name).
pub const SOURCE_ROOT: &str = "%SRCROOT%";

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

/// The SARIF log of `reports`, as a JSON value. `source_root` is the absolute
/// directory relative paths start from, when known (see [`directory_uri`]).
pub fn render(reports: &[PackageReport], source_root: Option<&str>) -> Value {
    let sets: Vec<(&str, &[Diagnostic])> = reports
        .iter()
        .map(|report| (report.root.as_str(), report.diagnostics.as_slice()))
        .collect();
    let mut log = render_findings(&sets, source_root);
    // A rejected or incomplete root fails the run on its own (`exit::packages_fail`).
    // When the configuration or the baseline hid every error that says so, the
    // log still does, as the other formats' summary lines do.
    let unexplained: Vec<&PackageReport> = reports
        .iter()
        .filter(|report| report.fails_on_its_own() && report.summary.errors == 0)
        .collect();
    if !unexplained.is_empty() {
        let notes: Vec<Value> = unexplained
            .iter()
            .map(|report| {
                let text = format!(
                    "{}: {}; the findings that say why are hidden{}",
                    display_root(&report.root),
                    Verdicts::of(report).plugin,
                    hidden_note(&report.summary)
                );
                json!({ "level": "error", "message": { "text": text } })
            })
            .collect();
        log["runs"][0]["invocations"] = json!([{
            "executionSuccessful": !unexplained.iter().any(|report| report.is_incomplete()),
            "toolExecutionNotifications": notes,
        }]);
    }
    log
}

/// The SARIF log of any command's findings: `(root, diagnostics)` pairs, each
/// diagnostic's file relative to its root (`""` when files are named in full).
pub fn render_findings(sets: &[(&str, &[Diagnostic])], source_root: Option<&str>) -> Value {
    let cited: Vec<&'static Rule> = registry::all()
        .filter(|rule| {
            sets.iter()
                .any(|(_, diagnostics)| diagnostics.iter().any(|d| d.code == rule.code))
        })
        .collect();
    let results: Vec<Value> = sets
        .iter()
        .flat_map(|(root, diagnostics)| {
            let cited = &cited;
            diagnostics
                .iter()
                .map(move |diagnostic| result(diagnostic, root, cited))
        })
        .collect();
    let mut run = json!({
        "tool": { "driver": {
            "name": "apcheck",
            "version": env!("CARGO_PKG_VERSION"),
            "semanticVersion": env!("CARGO_PKG_VERSION"),
            "rules": cited.iter().map(|rule| rule_descriptor(rule)).collect::<Vec<_>>(),
        }},
        // Our columns count Unicode scalar values (see `source`), SARIF's default is UTF-16 units.
        "columnKind": "unicodeCodePoints",
        "results": results,
    });
    if let Some(root) = source_root {
        run["originalUriBaseIds"] = json!({ SOURCE_ROOT: { "uri": directory_uri(root) } });
    }
    json!({ "$schema": SCHEMA_URI, "version": "2.1.0", "runs": [run] })
}

/// A `file:` URI for the absolute directory `path`, ending in `/` as SARIF
/// requires of a base.
pub fn directory_uri(path: &str) -> String {
    let mut uri = file_uri(path);
    if !uri.ends_with('/') {
        uri.push('/');
    }
    uri
}

/// A `file:` URI for the absolute `path`. Backslashes become slashes and the
/// `\\?\` prefix goes, so Windows paths work too.
fn file_uri(path: &str) -> String {
    let path = path.replace('\\', "/");
    let path = path.strip_prefix("//?/").unwrap_or(&path);
    let slash = if path.starts_with('/') { "" } else { "/" };
    format!("file://{slash}{}", utf8_percent_encode(path, ABSOLUTE_PATH_KEEP))
}

fn is_absolute(path: &str) -> bool {
    let bytes = path.as_bytes();
    path.starts_with(['/', '\\']) || (bytes.len() >= 2 && bytes[0].is_ascii_alphabetic() && bytes[1] == b':')
}

/// Where `file` of the root `root` is, as a SARIF `artifactLocation`.
fn artifact_location(root: &str, file: &str) -> Value {
    let joined = path_from_root(root, file);
    let path = joined.trim_start_matches("./");
    if is_absolute(path) {
        json!({ "uri": file_uri(path) })
    } else {
        json!({ "uri": utf8_percent_encode(path, RELATIVE_PATH_KEEP).to_string(), "uriBaseId": SOURCE_ROOT })
    }
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
        "helpUri": doc_url(rule.code),
        "defaultConfiguration": { "level": level(rule.severity) },
        "properties": { "spec": rule.spec },
    })
}

fn result(diagnostic: &Diagnostic, root: &str, cited: &[&Rule]) -> Value {
    let mut text = diagnostic.message.clone();
    if diagnostic.unreached {
        text.push_str("\nNote: ");
        text.push_str(UNREACHED_NOTE);
    }
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
    if diagnostic.unreached {
        result["properties"]["unreached"] = json!(true);
    }
    if let Some(index) = cited.iter().position(|rule| rule.code == diagnostic.code) {
        result["ruleIndex"] = json!(index);
    }
    if let Some(pointer) = &diagnostic.pointer {
        result["properties"]["pointer"] = json!(pointer);
    }
    if let Some(file) = &diagnostic.file {
        let mut physical = json!({ "artifactLocation": artifact_location(root, file) });
        if let Some(region) = region(diagnostic) {
            physical["region"] = region;
        }
        result["locations"] = json!([{ "physicalLocation": physical }]);
    }
    if let Some(fix) = &diagnostic.fix {
        result["fixes"] = json!([sarif_fix(fix, root)]);
    }
    result
}

/// SARIF §3.55: one `artifactChange` per file, each edit a `replacement` whose
/// `deletedRegion` is the byte range (§3.30.11 `byteOffset`/`byteLength`).
/// Whether it is safe goes in the property bag, as SARIF has no such field.
fn sarif_fix(fix: &Fix, root: &str) -> Value {
    let changes: Vec<Value> = fix
        .files()
        .into_iter()
        .map(|file| {
            let replacements: Vec<Value> = fix
                .edits
                .iter()
                .filter(|edit| edit.file == file)
                .map(|edit| {
                    json!({
                        "deletedRegion": {
                            "byteOffset": edit.span.start,
                            "byteLength": edit.span.end - edit.span.start,
                        },
                        "insertedContent": { "text": edit.replacement },
                    })
                })
                .collect();
            json!({ "artifactLocation": artifact_location(root, file), "replacements": replacements })
        })
        .collect();
    json!({
        "description": { "text": fix.message },
        "artifactChanges": changes,
        "properties": { "applicability": fix.applicability.as_str() },
    })
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
    fn results_carry_rule_level_message_and_a_repository_relative_region() {
        let report = report_with_findings("plugins/demo");
        let log = render(std::slice::from_ref(&report), Some("/repo"));
        assert_eq!(log["version"], "2.1.0");
        let run = &log["runs"][0];
        assert_eq!(run["tool"]["driver"]["name"], "apcheck");
        assert!(run["tool"]["driver"].get("informationUri").is_none());
        assert_eq!(run["originalUriBaseIds"]["%SRCROOT%"]["uri"], "file:///repo/");
        let first = &run["results"][0];
        assert_eq!(first["ruleId"], "AP201");
        assert_eq!(first["level"], "error");
        assert_eq!(first["properties"]["root"], "plugins/demo");
        let location = &first["locations"][0]["physicalLocation"];
        assert_eq!(location["artifactLocation"]["uri"], "plugins/demo/plugin.json");
        assert_eq!(location["artifactLocation"]["uriBaseId"], "%SRCROOT%");
        assert_eq!(location["region"]["startLine"], 2);
        assert_eq!(location["region"]["startColumn"], 11);
        assert_eq!(location["region"]["endColumn"], 21);
        assert_eq!(run["results"][1]["level"], "warning");
        assert!(first.get("fixes").is_none());
    }

    #[test]
    fn every_cited_rule_links_its_published_page() {
        let log = render(&[report_with_findings(".")], None);
        let rules = log["runs"][0]["tool"]["driver"]["rules"].as_array().unwrap();
        assert_eq!(rules.len(), 2, "{rules:?}");
        for rule in rules {
            let code = rule["id"].as_str().unwrap();
            assert_eq!(
                rule["helpUri"],
                format!("{}{code}", crate::rule::DOCS_BASE_URL),
                "{rule}"
            );
        }
    }

    #[test]
    fn a_fix_becomes_an_artifact_change_with_byte_regions() {
        let mut report = report_with_findings("plugins/demo");
        report.diagnostics[0] = report.diagnostics[0].clone().with_fix(name_fix());
        let log = render(std::slice::from_ref(&report), Some("/repo"));
        let fix = &log["runs"][0]["results"][0]["fixes"][0];
        assert_eq!(fix["description"]["text"], "Rename the plugin to \"bad-name\"");
        assert_eq!(fix["properties"]["applicability"], "safe");
        let change = &fix["artifactChanges"][0];
        assert_eq!(change["artifactLocation"]["uri"], "plugins/demo/plugin.json");
        let replacement = &change["replacements"][0];
        assert_eq!(
            replacement["deletedRegion"],
            json!({ "byteOffset": 12, "byteLength": 10 })
        );
        assert_eq!(replacement["insertedContent"]["text"], "\"bad-name\"");
        let schema: Value = serde_json::from_str(include_str!("../../tests/data/sarif-schema-2.1.0.json")).unwrap();
        let validator = jsonschema::validator_for(&schema).unwrap();
        let errors: Vec<String> = validator.iter_errors(&log).map(|e| e.to_string()).collect();
        assert!(errors.is_empty(), "{errors:#?}");
    }

    #[test]
    fn a_log_with_results_validates_against_the_sarif_schema() {
        let schema: Value = serde_json::from_str(include_str!("../../tests/data/sarif-schema-2.1.0.json")).unwrap();
        let validator = jsonschema::validator_for(&schema).unwrap();
        let reports = [report_with_findings("./a b"), report_with_findings("/abs/b")];
        let log = render(&reports, Some("/repo"));
        assert_eq!(log["runs"][0]["results"].as_array().map(Vec::len), Some(4));
        let errors: Vec<String> = validator.iter_errors(&log).map(|e| e.to_string()).collect();
        assert!(errors.is_empty(), "{errors:#?}");
    }

    #[test]
    fn a_rejected_or_incomplete_root_with_its_errors_hidden_still_says_so() {
        let schema: Value = serde_json::from_str(include_str!("../../tests/data/sarif-schema-2.1.0.json")).unwrap();
        let validator = jsonschema::validator_for(&schema).unwrap();
        let mut rejected = report_with_findings("r");
        rejected.plugin.state = crate::report::PluginState::Rejected;
        rejected.diagnostics.clear();
        rejected.summary.errors = 0;
        rejected.summary.ignored = 2;
        let mut incomplete = report_with_findings("i");
        incomplete.unread = vec!["docs".into()];
        incomplete.diagnostics.clear();
        incomplete.summary.errors = 0;
        incomplete.summary.baselined = 1;
        let log = render(&[rejected, report_with_findings("ok"), incomplete], None);
        let invocation = &log["runs"][0]["invocations"][0];
        assert_eq!(invocation["executionSuccessful"], false);
        let texts: Vec<&str> = invocation["toolExecutionNotifications"]
            .as_array()
            .unwrap()
            .iter()
            .map(|note| note["message"]["text"].as_str().unwrap())
            .collect();
        assert_eq!(
            texts,
            [
                "r: rejected; the findings that say why are hidden (2 hidden by the configuration)",
                "i: incomplete; the findings that say why are hidden (1 hidden by the baseline)",
            ]
        );
        let errors: Vec<String> = validator.iter_errors(&log).map(|e| e.to_string()).collect();
        assert!(errors.is_empty(), "{errors:#?}");
        // Shown errors say it themselves: no invocation is added.
        assert!(
            render(&[report_with_findings("a")], None)["runs"][0]
                .get("invocations")
                .is_none()
        );
    }

    #[test]
    fn without_a_known_directory_no_base_is_defined() {
        let log = render(&[report_with_findings(".")], None);
        assert!(log["runs"][0].get("originalUriBaseIds").is_none());
        let location = &log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"];
        assert_eq!(location["uri"], "plugin.json");
    }

    #[test]
    fn absolute_roots_become_file_uris_without_a_base() {
        assert_eq!(
            artifact_location("/abs/my root", "plugin.json"),
            json!({ "uri": "file:///abs/my%20root/plugin.json" })
        );
        assert_eq!(
            artifact_location(r"C:\work\p", "mcp.json"),
            json!({ "uri": "file:///C:/work/p/mcp.json" })
        );
        assert_eq!(
            artifact_location("./plugins/a:b", "plugin.json"),
            json!({ "uri": "plugins/a%3Ab/plugin.json", "uriBaseId": "%SRCROOT%" })
        );
    }

    #[test]
    fn uris_are_percent_encoded() {
        assert_eq!(directory_uri("/tmp/my plugins"), "file:///tmp/my%20plugins/");
        assert_eq!(directory_uri(r"C:\work\p"), "file:///C:/work/p/");
        assert_eq!(directory_uri(r"\\?\C:\work\p"), "file:///C:/work/p/");
    }
}
