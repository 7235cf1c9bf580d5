//! Baselines end to end through the real binary: `--baseline-write` records
//! today's findings, `--baseline` (or `baseline` in apcheck.toml) then fails
//! only on new ones, moved lines keep their fingerprints, and the summary says
//! how many the baseline hid.

use std::fs;
use std::path::Path;

use crate::support::{apcheck, stdout};

const SCHEMA: &str = "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json";

fn write_manifest(dir: &Path, text: &str) {
    fs::create_dir_all(dir.join("p")).unwrap();
    fs::write(dir.join("p/plugin.json"), text).unwrap();
}

/// A skill whose name differs from its folder: AP309, an error that skips the skill, not the plugin.
fn write_misnamed_skill(dir: &Path) {
    fs::create_dir_all(dir.join("p/skills/x")).unwrap();
    fs::write(
        dir.join("p/skills/x/SKILL.md"),
        "---\nname: other\ndescription: Does x. Use when y.\n---\n",
    )
    .unwrap();
}

#[test]
fn only_findings_new_since_the_baseline_fail() {
    let dir = tempfile::tempdir().unwrap();
    // AP309 (an error: the skill is skipped) and AP205 (an unknown field).
    write_manifest(
        dir.path(),
        &format!(r#"{{"$schema": "{SCHEMA}", "name": "demo", "colour": 1}}"#),
    );
    write_misnamed_skill(dir.path());
    assert_eq!(
        apcheck(&["check", "p"]).current_dir(dir.path()).output().status.code(),
        Some(1)
    );

    let written = apcheck(&["check", "p", "--baseline-write", "base.json"])
        .current_dir(dir.path())
        .output();
    assert_eq!(written.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&written.stderr).contains("recorded 2 findings in base.json"));
    let recorded = fs::read_to_string(dir.path().join("base.json")).unwrap();
    assert!(
        recorded.contains("\"AP309\"") && recorded.contains("\"/colour\""),
        "{recorded}"
    );

    // The same findings on other lines and re-indented: all hidden, exit 0.
    write_manifest(
        dir.path(),
        &format!("\n\n{{\n  \"$schema\": \"{SCHEMA}\",\n  \"name\": \"demo\",\n  \"colour\":  1\n}}\n"),
    );
    let clean = apcheck(&["check", "p", "--baseline", "base.json"])
        .current_dir(dir.path())
        .output();
    assert_eq!(clean.status.code(), Some(0), "{}", stdout(&clean));
    assert!(
        stdout(&clean).contains("(2 hidden by the baseline)"),
        "{}",
        stdout(&clean)
    );

    // A new error is reported and fails; the recorded ones stay hidden.
    fs::create_dir_all(dir.path().join("p/skills/z")).unwrap();
    fs::write(
        dir.path().join("p/skills/z/SKILL.md"),
        "---\nname: another\ndescription: Does z. Use when y.\n---\n",
    )
    .unwrap();
    let new = apcheck(&["check", "p", "--baseline", "base.json", "--format", "json"])
        .current_dir(dir.path())
        .output();
    assert_eq!(new.status.code(), Some(1));
    let report = serde_json::from_slice::<serde_json::Value>(&new.stdout).unwrap()["packages"][0].take();
    let codes: Vec<&str> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap())
        .collect();
    assert_eq!(codes, ["AP309"]);
    assert_eq!(report["diagnostics"][0]["file"], "skills/z/SKILL.md");
    assert_eq!(report["summary"]["baselined"], 2);
}

#[test]
fn a_baseline_never_passes_a_rejected_plugin() {
    // The baseline hides why the plugin is rejected, not that it is.
    let dir = tempfile::tempdir().unwrap();
    write_manifest(dir.path(), &format!(r#"{{"$schema": "{SCHEMA}", "name": "Demo"}}"#));
    let written = apcheck(&["check", "p", "--baseline-write", "base.json"])
        .current_dir(dir.path())
        .output();
    assert_eq!(written.status.code(), Some(0));
    let checked = apcheck(&["check", "p", "--baseline", "base.json"])
        .current_dir(dir.path())
        .output();
    let text = stdout(&checked);
    assert_eq!(checked.status.code(), Some(1), "{text}");
    assert!(
        text.contains("p: rejected — ") && text.contains("(1 hidden by the baseline)"),
        "{text}"
    );
}

#[test]
fn the_configuration_names_the_baseline_relative_to_itself() {
    let dir = tempfile::tempdir().unwrap();
    write_manifest(dir.path(), &format!(r#"{{"$schema": "{SCHEMA}", "name": "demo"}}"#));
    write_misnamed_skill(dir.path());
    fs::create_dir(dir.path().join("ci")).unwrap();
    assert_eq!(
        apcheck(&["check", "p", "--baseline-write", "ci/base.json"])
            .current_dir(dir.path())
            .output()
            .status
            .code(),
        Some(0)
    );
    fs::write(dir.path().join("apcheck.toml"), "baseline = \"ci/base.json\"\n").unwrap();
    let checked = apcheck(&["check", "."]).current_dir(dir.path().join("p")).output();
    assert_eq!(checked.status.code(), Some(0), "{}", stdout(&checked));
}

#[test]
fn a_missing_or_foreign_baseline_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    write_manifest(dir.path(), &format!(r#"{{"$schema": "{SCHEMA}", "name": "demo"}}"#));
    assert_eq!(
        apcheck(&["check", "p", "--baseline", "nope.json"])
            .current_dir(dir.path())
            .output()
            .status
            .code(),
        Some(2)
    );
    fs::write(dir.path().join("other.json"), "[1, 2]").unwrap();
    let foreign = apcheck(&["check", "p", "--baseline", "other.json"])
        .current_dir(dir.path())
        .output();
    assert_eq!(foreign.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&foreign.stderr).contains("not an apcheck baseline"));
}
