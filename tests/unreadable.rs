//! A check is complete, or it fails: unreadable folders, run as
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
    let mut report: Value = serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&output.stderr)));
    (output.status.code().unwrap(), report["packages"][0].take())
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
    assert_eq!(
        report["unread"],
        serde_json::json!(["skills/locked", "skills/locked/SKILL.md"])
    );
    assert_eq!(report["summary"]["skills_discovered"], 1);
}

#[test]
fn a_skill_folder_that_can_be_entered_but_not_listed_still_loads_its_skill_but_fails() {
    // chmod 0311: a client opens skills/review/SKILL.md by name, and so does the reader;
    // the rest of the folder (its scripts, its references) was not seen, so the check fails.
    let dir = package(&[("plugin.json", MANIFEST), ("skills/review/SKILL.md", SKILL)]);
    chmod(&dir.path().join("skills/review"), 0o311);
    let (code, report) = check_json(dir.path());
    chmod(&dir.path().join("skills/review"), 0o755);
    assert_eq!(code, 1, "{report:#}");
    assert_eq!(report["summary"]["skills_discovered"], 1, "{report:#}");
    assert_eq!(codes(&report), ["AP010"], "{report:#}");
    assert_eq!(report["diagnostics"][0]["severity"], "error");
    assert_eq!(report["unread"], serde_json::json!(["skills/review"]));
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
fn an_unreadable_folder_no_client_reads_is_an_error_of_its_own() {
    let dir = package(&[("plugin.json", MANIFEST), ("docs/private/notes.md", "x")]);
    chmod(&dir.path().join("docs/private"), 0o000);
    let (code, report) = check_json(dir.path());
    chmod(&dir.path().join("docs/private"), 0o755);
    assert_eq!(code, 1, "{report:#}");
    assert_eq!(codes(&report), ["AP010"], "{report:#}");
    assert_eq!(report["diagnostics"][0]["file"], "docs/private");
    assert_eq!(report["unread"], serde_json::json!(["docs/private"]));
}

/// Each of these used to exit 0 with AP010 a warning.
#[test]
fn a_root_that_can_be_entered_but_not_listed_is_incomplete() {
    let dir = package(&[("root/plugin.json", MANIFEST)]);
    let root = dir.path().join("root");
    chmod(&root, 0o311);
    let output = apcheck_unprivileged().arg("check").arg(&root).output().unwrap();
    chmod(&root, 0o755);
    let text = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{text}");
    assert!(text.contains("error[AP010]"), "{text}");
    assert!(text.contains(": incomplete — "), "{text}");
}

#[test]
fn an_unreadable_file_in_a_skill_folder_fails_the_check() {
    let dir = package(&[
        ("plugin.json", MANIFEST),
        ("skills/review/SKILL.md", SKILL),
        ("skills/review/scripts/run.sh", "echo hi\n"),
    ]);
    chmod(&dir.path().join("skills/review/scripts/run.sh"), 0o000);
    let (code, report) = check_json(dir.path());
    assert_eq!(code, 1, "{report:#}");
    assert_eq!(codes(&report), ["AP010"], "{report:#}");
    assert_eq!(report["unread"], serde_json::json!(["skills/review/scripts/run.sh"]));
}

#[test]
fn an_extension_folder_that_cannot_be_listed_fails_the_check() {
    // §8.2: a client with that extension reads `com.example.client/`.
    let dir = package(&[("plugin.json", MANIFEST), ("com.example.client/hooks/hooks.json", "{}")]);
    chmod(&dir.path().join("com.example.client"), 0o000);
    let (code, report) = check_json(dir.path());
    chmod(&dir.path().join("com.example.client"), 0o755);
    assert_eq!(code, 1, "{report:#}");
    assert_eq!(codes(&report), ["AP010"], "{report:#}");
}

#[test]
fn a_path_longer_than_path_max_fails_the_check() {
    let dir = package(&[("plugin.json", MANIFEST)]);
    // 20 folders of 250 bytes: past PATH_MAX (4096), made one `cd` at a time
    // (`-P`: a shell's logical `cd` would ask for the whole path).
    let name = "d".repeat(250);
    let made = std::process::Command::new("sh")
        .current_dir(dir.path())
        .args([
            "-c",
            &format!("for i in $(seq 20); do mkdir {name} && cd -P {name} || exit 1; done; echo x > f"),
        ])
        .status()
        .unwrap();
    assert!(made.success());
    let (code, report) = check_json(dir.path());
    assert_eq!(code, 1, "{report:#}");
    assert!(codes(&report).contains(&"AP010"), "{report:#}");
    assert!(!report["unread"].as_array().unwrap().is_empty(), "{report:#}");
}

#[test]
fn a_packages_own_configuration_cannot_pass_an_incomplete_check() {
    let dir = package(&[
        ("plugin.json", MANIFEST),
        ("apcheck.toml", "ignore = [\"AP\"]\n"),
        ("docs/private/notes.md", "x"),
    ]);
    chmod(&dir.path().join("docs/private"), 0o000);
    let (code, report) = check_json(dir.path());
    let text = apcheck_unprivileged().arg("check").arg(dir.path()).output().unwrap();
    chmod(&dir.path().join("docs/private"), 0o755);
    assert_eq!(codes(&report), Vec::<&str>::new(), "{report:#}");
    assert_eq!(code, 1, "{report:#}");
    assert_eq!(report["unread"], serde_json::json!(["docs/private"]));
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(text.contains(": incomplete — "), "{text}");
}

fn snapshot_of(root: &Path) -> std::process::Output {
    apcheck_unprivileged().arg("snapshot").arg(root).output().unwrap()
}

#[test]
fn no_snapshot_is_written_over_what_could_not_be_read() {
    // With `skills/` unreadable, `snapshot` used to write `"skills": []` and exit 0, silently.
    const MCP: &str = "{\"$schema\": \"https://agent-plugins.org/schemas/1.0.0/mcp.schema.json\", \"mcpServers\": {\"s\": {\"type\": \"stdio\", \"command\": \"s\"}}}";
    for locked in ["skills", "skills/review/SKILL.md", "mcp.json"] {
        let dir = package(&[
            ("plugin.json", MANIFEST),
            ("skills/review/SKILL.md", SKILL),
            ("mcp.json", MCP),
        ]);
        let readable = snapshot_of(dir.path());
        assert_eq!(
            readable.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&readable.stderr)
        );
        chmod(&dir.path().join(locked), 0o000);
        let output = snapshot_of(dir.path());
        chmod(&dir.path().join(locked), 0o755);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{locked}: {stderr}");
        assert!(
            output.stdout.is_empty(),
            "{locked}: {}",
            String::from_utf8_lossy(&output.stdout)
        );
        assert!(
            stderr.contains(&format!("`{locked}`")) && stderr.contains("no snapshot is written"),
            "{locked}: {stderr}"
        );
    }
}

#[test]
fn drift_over_what_could_not_be_read_fails() {
    // "Not compared: … could not be read" used to exit 0.
    let dir = package(&[("plugin.json", MANIFEST), ("docs/private/notes.md", "x")]);
    let snapshot = snapshot_of(dir.path());
    assert_eq!(snapshot.status.code(), Some(0));
    let file = dir.path().join("snapshot.json");
    fs::write(&file, &snapshot.stdout).unwrap();
    chmod(&dir.path().join("docs/private"), 0o000);
    let output = apcheck_unprivileged()
        .arg("drift")
        .arg(&file)
        .arg(dir.path())
        .output()
        .unwrap();
    chmod(&dir.path().join("docs/private"), 0o755);
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(text.contains("Not compared"), "{text}");
    assert!(
        text.contains("error[AP010]"),
        "the errors it says to see are there: {text}"
    );
    assert_eq!(output.status.code(), Some(1), "{text}");
}

/// A baseline records what a check found: over a gap, what the check could not
/// read would pass as old once it appears, so none is written and the run fails.
#[test]
fn no_baseline_is_written_over_what_could_not_be_read() {
    let dir = package(&[("plugin.json", MANIFEST), ("docs/private/notes.md", "x")]);
    // Writable by the unprivileged user, so only the incomplete check can stop the write.
    let out = dir.path().join("out");
    fs::create_dir(&out).unwrap();
    chmod(&out, 0o777);
    let baseline = out.join("base.json");
    chmod(&dir.path().join("docs/private"), 0o000);
    let output = apcheck_unprivileged()
        .arg("check")
        .arg(dir.path())
        .arg("--baseline-write")
        .arg(&baseline)
        .output()
        .unwrap();
    chmod(&dir.path().join("docs/private"), 0o755);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("the check is incomplete (1 path not read: docs/private); no baseline written"),
        "{stderr}"
    );
    assert!(!baseline.exists());
}

/// A folder of a marketplace that cannot be listed may hold plugins: it is
/// checked as a root of its own, which says it could not be listed, and the
/// run fails, where it used to be skipped in silence.
#[test]
fn a_marketplace_folder_that_cannot_be_listed_is_reported_and_fails() {
    for mode in [0o000, 0o311] {
        let dir = package(&[
            ("plugins/good/plugin.json", MANIFEST),
            ("plugins/locked/inner/plugin.json", MANIFEST),
        ]);
        let locked = dir.path().join("plugins/locked");
        chmod(&locked, mode);
        let output = apcheck_unprivileged()
            .args(["check", "--format", "json"])
            .arg(dir.path())
            .output()
            .unwrap();
        chmod(&locked, 0o755);
        let reports: Value = serde_json::from_slice::<Value>(&output.stdout)
            .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&output.stderr)))["packages"]
            .take();
        let roots: Vec<&str> = reports
            .as_array()
            .unwrap()
            .iter()
            .map(|report| report["root"].as_str().unwrap().rsplit('/').next().unwrap())
            .collect();
        assert_eq!(roots, ["good", "locked"], "mode {mode:o}: {reports:#}");
        assert_ne!(
            reports[1]["unread"],
            serde_json::json!([]),
            "mode {mode:o}: {reports:#}"
        );
        assert_eq!(output.status.code(), Some(1), "mode {mode:o}: {reports:#}");
    }
}
