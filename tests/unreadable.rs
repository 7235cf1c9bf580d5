//! A check is complete, or it fails (issue 9 §2): unreadable folders, run as
//! a user who cannot read them (`support/unprivileged.rs`).
#![cfg(unix)]

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use serde_json::Value;

const MANIFEST: &str =
    "{\"$schema\": \"https://agent-plugins.org/schemas/1.0.0/plugin.schema.json\", \"name\": \"demo\"}";
const SKILL: &str = "---\nname: review\ndescription: Reviews code. Use when asked for a review.\n---\n";

#[path = "support/unprivileged.rs"]
mod unprivileged;
use unprivileged::{apcheck_unprivileged, reachable_tempdir};

/// A package in a temporary directory anyone may enter.
fn package(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = reachable_tempdir();
    for (path, contents) in files {
        let path = dir.path().join(path);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, contents).unwrap();
    }
    dir
}

fn chmod(path: &Path, mode: u32) {
    fs::set_permissions(path, fs::Permissions::from_mode(mode)).unwrap();
}

fn check_json(root: &Path) -> (i32, Value) {
    let output = apcheck_unprivileged()
        .args(["check", "--format", "json"])
        .arg(root)
        .output()
        .expect("apcheck runs (setpriv is util-linux, installed everywhere)");
    let report = serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&output.stderr)));
    (output.status.code().unwrap(), report)
}

fn codes(report: &Value) -> Vec<&str> {
    report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap())
        .collect()
}

#[test]
fn a_skill_folder_that_cannot_be_entered_fails_the_check_naming_it() {
    let dir = package(&[
        ("plugin.json", MANIFEST),
        ("skills/review/SKILL.md", SKILL),
        ("skills/locked/SKILL.md", SKILL),
    ]);
    chmod(&dir.path().join("skills/locked"), 0o000);
    let (code, report) = check_json(dir.path());
    chmod(&dir.path().join("skills/locked"), 0o755);
    assert_eq!(code, 1, "{report:#}");
    assert_eq!(codes(&report), ["AP011"], "{report:#}");
    let message = report["diagnostics"][0]["message"].as_str().unwrap();
    assert!(message.contains("`skills/locked` could not be listed"), "{message}");
    assert_eq!(report["unread"], serde_json::json!(["skills/locked/SKILL.md"]));
    assert_eq!(report["summary"]["skills_discovered"], 1);
}

#[test]
fn a_skill_folder_that_can_be_entered_but_not_listed_still_loads_its_skill() {
    // chmod 0311: a client opens skills/review/SKILL.md by name, and so does the reader.
    let dir = package(&[("plugin.json", MANIFEST), ("skills/review/SKILL.md", SKILL)]);
    chmod(&dir.path().join("skills/review"), 0o311);
    let (code, report) = check_json(dir.path());
    chmod(&dir.path().join("skills/review"), 0o755);
    assert_eq!(code, 0, "{report:#}");
    assert_eq!(report["summary"]["skills_discovered"], 1, "{report:#}");
    assert_eq!(codes(&report), ["AP010"], "{report:#}");
}

#[test]
fn an_unreadable_root_does_not_say_there_is_no_plugin_json() {
    let dir = package(&[("plugin.json", MANIFEST)]);
    let root = dir.path().join("root");
    fs::create_dir(&root).unwrap();
    fs::write(root.join("plugin.json"), MANIFEST).unwrap();
    chmod(&root, 0o000);
    let output = apcheck_unprivileged().arg("check").arg(&root).output().unwrap();
    chmod(&root, 0o755);
    let text = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{text}");
    assert!(!text.contains("There is no plugin.json"), "{text}");
    assert!(text.contains("the plugin root could not be listed"), "{text}");
    assert!(text.contains(": incomplete"), "{text}");
}

#[test]
fn an_unreadable_folder_no_client_reads_is_a_warning_of_its_own() {
    let dir = package(&[("plugin.json", MANIFEST), ("docs/private/notes.md", "x")]);
    chmod(&dir.path().join("docs/private"), 0o000);
    let (code, report) = check_json(dir.path());
    chmod(&dir.path().join("docs/private"), 0o755);
    assert_eq!(code, 0, "{report:#}");
    assert_eq!(codes(&report), ["AP010"], "{report:#}");
    assert_eq!(report["diagnostics"][0]["file"], "docs/private");
}
