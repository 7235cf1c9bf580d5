//! `apcheck-ignore` comments in SKILL.md end to end through the real binary:
//! a hidden finding leaves every format, the exit code and the counts, as
//! the configuration's `ignore` does; a comment that hides nothing (AP319)
//! is reported and `--fix` removes it.

use std::fs;

use serde_json::Value;

use crate::support::{apcheck, stdout};

const PLUGIN: &str =
    "{\"$schema\": \"https://agent-plugins.org/schemas/1.0.0/plugin.schema.json\", \"name\": \"demo\"}";
const DESCRIPTION: &str = "description: Extracts text from PDF files. Use when the user works with PDFs.";

/// A plugin whose one skill is `skill`.
fn plugin(skill: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("plugin.json"), PLUGIN).unwrap();
    fs::create_dir_all(dir.path().join("skills/pdf")).unwrap();
    fs::write(dir.path().join("skills/pdf/SKILL.md"), skill).unwrap();
    dir
}

#[test]
fn suppressed_findings_leave_every_format_the_exit_code_and_the_counts() {
    // Agent Skills `name`: `other` is not the directory `pdf` (AP309, an error that skips the
    // skill), and YAML 1.1 reads `yes` as a boolean (AP316); both are hidden by comments.
    let skill = format!(
        "---\nname: other\n{DESCRIPTION}\nmetadata:  # apcheck-ignore AP316\n  beta: yes\n---\n<!-- apcheck-ignore AP309 -->\n# PDF\n"
    );
    let dir = plugin(&skill);
    let unsuppressed = plugin(&skill.replace("apcheck-ignore", "a note on"));
    let shown = apcheck(&["check", "--format", "json", "."])
        .current_dir(unsuppressed.path())
        .env("NO_COLOR", "1")
        .output();
    assert_eq!(shown.status.code(), Some(1), "{}", stdout(&shown));

    let text = apcheck(&["check", "."])
        .current_dir(dir.path())
        .env("NO_COLOR", "1")
        .output();
    assert_eq!(text.status.code(), Some(0), "{}", stdout(&text));
    assert!(
        stdout(&text).contains("0 errors, 0 warnings (2 hidden by apcheck-ignore comments)"),
        "{}",
        stdout(&text)
    );
    let json: Value = serde_json::from_slice(
        &apcheck(&["check", "--format", "json", "."])
            .current_dir(dir.path())
            .env("NO_COLOR", "1")
            .output()
            .stdout,
    )
    .unwrap();
    let report = &json["packages"][0];
    assert_eq!(report["diagnostics"], serde_json::json!([]));
    assert_eq!(report["summary"]["suppressed"], 2);
    assert_eq!(report["summary"]["errors"], 0);
    // Hiding a finding never changes what a client does: the skill stays skipped.
    assert_eq!(report["skills"]["entries"][0]["state"], "skipped");
    for format in ["sarif", "github", "markdown"] {
        let output = apcheck(&["check", "--format", format, "."])
            .current_dir(dir.path())
            .env("NO_COLOR", "1")
            .output();
        assert_eq!(output.status.code(), Some(0), "{format}");
        let out = stdout(&output);
        assert!(!out.contains("AP309") && !out.contains("AP316"), "{format}: {out}");
    }
}

#[test]
fn an_unused_suppression_is_reported_and_fix_removes_it() {
    let skill = format!(
        "---\nname: pdf\n{DESCRIPTION}  # apcheck-ignore AP314\n---\n<!-- apcheck-ignore AP315, AP3l5 -->\n# PDF\n"
    );
    let dir = plugin(&skill);
    let json: Value = serde_json::from_slice(
        &apcheck(&["check", "--format", "json", "."])
            .current_dir(dir.path())
            .env("NO_COLOR", "1")
            .output()
            .stdout,
    )
    .unwrap();
    let diagnostics = json["packages"][0]["diagnostics"].as_array().unwrap();
    let codes: Vec<(&str, u64)> = diagnostics
        .iter()
        .map(|d| (d["code"].as_str().unwrap(), d["line"].as_u64().unwrap()))
        .collect();
    assert_eq!(codes, [("AP319", 3), ("AP319", 5)], "{diagnostics:?}");
    assert_eq!(diagnostics[0]["severity"], "warning");
    // A warning: the run passes unless warnings are denied.
    assert_eq!(
        apcheck(&["check", "."])
            .current_dir(dir.path())
            .env("NO_COLOR", "1")
            .output()
            .status
            .code(),
        Some(0)
    );
    assert_eq!(
        apcheck(&["check", "--deny", "warnings", "."])
            .current_dir(dir.path())
            .env("NO_COLOR", "1")
            .output()
            .status
            .code(),
        Some(1)
    );

    let fixed = apcheck(&["check", "--fix", "."])
        .current_dir(dir.path())
        .env("NO_COLOR", "1")
        .output();
    assert_eq!(fixed.status.code(), Some(0), "{}", stdout(&fixed));
    assert_eq!(
        fs::read_to_string(dir.path().join("skills/pdf/SKILL.md")).unwrap(),
        format!("---\nname: pdf\n{DESCRIPTION}\n---\n# PDF\n")
    );
    // And the configuration can hide AP319 like any rule.
    let again = plugin(&skill);
    let ignored = apcheck(&["check", "--ignore", "AP319", "--format", "json", "."])
        .current_dir(again.path())
        .env("NO_COLOR", "1")
        .output();
    let json: Value = serde_json::from_slice(&ignored.stdout).unwrap();
    assert_eq!(json["packages"][0]["summary"]["ignored"], 2);
}
