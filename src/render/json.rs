//! The stable JSON of `apcheck check --format json`: one object for every
//! run, whether it named one plugin root or a folder of them, so that a
//! consumer parses one shape. `schemas/apcheck/check-report-1.schema.json`
//! documents it; `version` changes only when the shape changes incompatibly.

use serde::Serialize;

use crate::report::PackageReport;

/// The `$schema` of the check report, version 1: a URN, as the snapshot's,
/// because apcheck owns no web address.
pub const CHECK_REPORT_SCHEMA_ID: &str = "urn:apcheck:schema:check-report:1";

#[derive(Serialize)]
struct CheckReport<'r> {
    #[serde(rename = "$schema")]
    schema: &'static str,
    version: u32,
    /// One report per plugin root, in the order the roots were given and found.
    packages: &'r [PackageReport],
}

/// The JSON text, without a final newline; every string masked ([`super::escape::json_text`]).
pub fn render(reports: &[PackageReport]) -> String {
    let report = CheckReport {
        schema: CHECK_REPORT_SCHEMA_ID,
        version: 1,
        packages: reports,
    };
    super::escape::json_text(&report).trim_end_matches('\n').to_string()
}

#[cfg(test)]
mod tests {
    use super::super::test_support::*;
    use super::*;

    fn schema() -> jsonschema::Validator {
        let text = include_str!("../../schemas/apcheck/check-report-1.schema.json");
        jsonschema::validator_for(&serde_json::from_str(text).unwrap()).unwrap()
    }

    #[test]
    fn every_run_is_one_versioned_object_that_its_schema_accepts() {
        let schema = schema();
        for reports in [
            vec![],
            vec![report_with_findings(".")],
            vec![report_with_findings("a"), report_with_findings("b")],
        ] {
            let json: serde_json::Value = serde_json::from_str(&render(&reports)).unwrap();
            assert_eq!(json["$schema"], CHECK_REPORT_SCHEMA_ID);
            assert_eq!(json["version"], 1);
            assert_eq!(json["packages"].as_array().map(Vec::len), Some(reports.len()));
            let errors: Vec<String> = schema
                .iter_errors(&json)
                .map(|e| format!("{} at {}", e, e.instance_path()))
                .collect();
            assert!(errors.is_empty(), "{errors:?}");
        }
        let one: serde_json::Value = serde_json::from_str(&render(&[report_with_findings(".")])).unwrap();
        assert_eq!(one["packages"][0]["plugin"]["state"], "loaded");
        assert_eq!(one["packages"][0]["diagnostics"][0]["code"], "AP201");
        assert_eq!(one["packages"][0]["mcp"]["servers"][0]["type"], "stdio");
    }

    #[test]
    fn the_schema_rejects_what_the_report_never_holds() {
        let schema = schema();
        let mut json: serde_json::Value = serde_json::from_str(&render(&[report_with_findings(".")])).unwrap();
        json["packages"][0]["plugin"]["state"] = "half-loaded".into();
        assert!(!schema.is_valid(&json));
    }
}
