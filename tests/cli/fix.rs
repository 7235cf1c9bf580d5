//! `apcheck check --fix`, `--unsafe-fixes` and `--diff` end to end, on plugin
//! roots in temporary directories: each fix applied by the real binary, the
//! package re-checked, and the finding gone with none new.

use std::fs;
use std::path::Path;

use serde_json::Value;

use crate::support::{apcheck, write_files};

const PLUGIN_SCHEMA: &str = "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json";
const MCP_SCHEMA: &str = "https://agent-plugins.org/schemas/1.0.0/mcp.schema.json";

fn codes(root: &Path) -> Vec<String> {
    let output = apcheck(&["check", "--format", "json", root.to_str().unwrap()]).output();
    let report: Value = serde_json::from_slice::<Value>(&output.stdout).expect("a JSON report")["packages"][0].take();
    report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap().to_string())
        .collect()
}

/// A plugin with one finding of every safe fix: the name's case, mcp.json
/// without `$schema`, a server without `type` that has a `command`, `type: "http"`,
/// and `extensions` written as a namespace string.
fn safe_fixable(root: &Path) {
    write_files(
        root,
        &[
            (
                "plugin.json",
                &format!(
                    "{{\n  \"$schema\": \"{PLUGIN_SCHEMA}\",\n  \"name\": \"Invoice--Ops\",\n  \"extensions\": \"com.example.client\"\n}}\n"
                ),
            ),
            (
                "mcp.json",
                "{\n  \"mcpServers\": {\n    \"local\": { \"command\": \"node\", \"args\": [\"server.js\"] },\n    \"remote\": { \"type\": \"http\", \"url\": \"https://example.com/mcp\" }\n  }\n}\n",
            ),
        ],
    );
}

#[test]
fn fix_applies_every_safe_fix_and_the_recheck_is_clean() {
    let dir = tempfile::tempdir().unwrap();
    safe_fixable(dir.path());
    // The name rejects the plugin; mcp.json is checked in the same pass, its
    // finding marked as one a client does not reach yet, and fixed in the same run.
    assert_eq!(codes(dir.path()), ["AP402", "AP209", "AP206"]);
    let output = apcheck(&["check", "--fix", dir.path().to_str().unwrap()]).output();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{stderr}{}",
        String::from_utf8_lossy(&output.stdout)
    );
    assert!(stderr.contains("applied 5 fixes in 2 files"), "{stderr}");
    assert_eq!(codes(dir.path()), Vec::<String>::new());
    let manifest = fs::read_to_string(dir.path().join("plugin.json")).unwrap();
    assert!(manifest.contains("\"name\": \"invoice-ops\""), "{manifest}");
    assert!(
        manifest.contains("\"extensions\": {\"com.example.client\": {}}"),
        "{manifest}"
    );
    let mcp = fs::read_to_string(dir.path().join("mcp.json")).unwrap();
    assert!(
        mcp.starts_with(&format!("{{\n  \"$schema\": \"{MCP_SCHEMA}\",\n  \"mcpServers\"")),
        "{mcp}"
    );
    assert!(mcp.contains("{ \"type\": \"stdio\", \"command\": \"node\""), "{mcp}");
    assert!(mcp.contains("\"type\": \"streamable-http\""), "{mcp}");

    // Idempotent: a second run changes nothing.
    let again = apcheck(&["check", "--fix", dir.path().to_str().unwrap()]).output();
    assert!(String::from_utf8_lossy(&again.stderr).contains("applied 0 fixes in 0 files"));
    assert_eq!(fs::read_to_string(dir.path().join("plugin.json")).unwrap(), manifest);
}

#[test]
fn diff_prints_the_fixes_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    safe_fixable(dir.path());
    let before = fs::read_to_string(dir.path().join("plugin.json")).unwrap();
    let root = dir.path().to_str().unwrap();
    let output = apcheck(&["check", "--diff", root]).output();
    let diff = String::from_utf8(output.stdout).unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert!(
        diff.contains(&format!("--- {root}/plugin.json\n+++ {root}/plugin.json\n")),
        "{diff}"
    );
    assert!(diff.contains("-  \"name\": \"Invoice--Ops\",\n"), "{diff}");
    assert!(diff.contains("+  \"name\": \"invoice-ops\",\n"), "{diff}");
    assert!(
        diff.contains("+    \"remote\": { \"type\": \"streamable-http\","),
        "{diff}"
    );
    assert_eq!(fs::read_to_string(dir.path().join("plugin.json")).unwrap(), before);
}

#[test]
fn unsafe_fixes_wait_for_unsafe_fixes() {
    // The skill's name differs from its directory: which one is right is a guess.
    let dir = tempfile::tempdir().unwrap();
    write_files(
        dir.path(),
        &[
            (
                "plugin.json",
                &format!("{{\"$schema\": \"{PLUGIN_SCHEMA}\", \"name\": \"demo\"}}"),
            ),
            (
                "skills/pdf-tools/SKILL.md",
                "---\nname: pdf-tool\ndescription: Extracts text from PDF files. Use when the user works with PDFs.\n---\nBody.\n",
            ),
        ],
    );
    let root = dir.path().to_str().unwrap();
    apcheck(&["check", "--fix", root]).output();
    assert_eq!(codes(dir.path()), ["AP309"]);
    let output = apcheck(&["check", "--unsafe-fixes", root]).output();
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stdout)
    );
    assert_eq!(codes(dir.path()), Vec::<String>::new());
    let skill = fs::read_to_string(dir.path().join("skills/pdf-tools/SKILL.md")).unwrap();
    assert!(skill.starts_with("---\nname: pdf-tools\n"), "{skill}");
}

#[test]
fn the_json_report_carries_each_fix_as_data() {
    let dir = tempfile::tempdir().unwrap();
    safe_fixable(dir.path());
    let output = apcheck(&["check", "--format", "json", dir.path().to_str().unwrap()]).output();
    let report: Value = serde_json::from_slice::<Value>(&output.stdout).unwrap()["packages"][0].take();
    let name = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["code"] == "AP209")
        .unwrap();
    assert_eq!(name["fix"]["applicability"], "safe");
    assert_eq!(name["fix"]["edits"][0]["file"], "plugin.json");
    assert_eq!(name["fix"]["edits"][0]["replacement"], "\"invoice-ops\"");
    let sarif = apcheck(&["check", "--format", "sarif", dir.path().to_str().unwrap()]).output();
    let log: Value = serde_json::from_slice(&sarif.stdout).unwrap();
    let fixes = log["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|result| result.get("fixes").is_some())
        .count();
    // The manifest's two and mcp.json's `$schema`, which one pass now shows.
    assert_eq!(fixes, 3);
}

#[test]
fn a_vendor_hooks_key_moves_under_the_namespace_the_user_names() {
    // §8.1: a client's own data lives under its reverse-domain namespace in `extensions`.
    let dir = tempfile::tempdir().unwrap();
    let manifest = format!(
        "{{\n  \"$schema\": \"{PLUGIN_SCHEMA}\",\n  \"name\": \"demo\",\n  \"hooks\": {{ \"PreToolUse\": [] }},\n  \"commands\": \"./commands\"\n}}\n"
    );
    write_files(dir.path(), &[("plugin.json", &manifest)]);
    let root = dir.path().to_str().unwrap();
    assert_eq!(codes(dir.path()), ["AP210", "AP210"]);

    // Without a namespace no fix is offered, and the hint says how to give one.
    let output = apcheck(&["check", "--format", "json", root]).output();
    let report: Value = serde_json::from_slice::<Value>(&output.stdout).unwrap()["packages"][0].take();
    let hooks = &report["diagnostics"][0];
    assert!(hooks.get("fix").is_none_or(Value::is_null), "{hooks}");
    assert!(
        hooks["hint"].as_str().unwrap().contains("--extensions-namespace"),
        "{hooks}"
    );
    apcheck(&["check", "--unsafe-fixes", root]).output();
    assert_eq!(fs::read_to_string(dir.path().join("plugin.json")).unwrap(), manifest);

    // Unsafe: --fix alone leaves it.
    apcheck(&["check", "--fix", "--extensions-namespace", "com.example.client", root]).output();
    assert_eq!(fs::read_to_string(dir.path().join("plugin.json")).unwrap(), manifest);

    let output = apcheck(&[
        "check",
        "--unsafe-fixes",
        "--extensions-namespace",
        "com.example.client",
        root,
    ])
    .output();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("applied 2 fixes in 1 file"), "{stderr}");
    assert_eq!(codes(dir.path()), Vec::<String>::new());
    let fixed: Value = serde_json::from_str(&fs::read_to_string(dir.path().join("plugin.json")).unwrap()).unwrap();
    assert_eq!(
        fixed,
        serde_json::json!({
            "$schema": PLUGIN_SCHEMA,
            "name": "demo",
            "extensions": {"com.example.client": {"commands": "./commands", "hooks": {"PreToolUse": []}}}
        })
    );

    // The namespace can come from apcheck.toml too; one that is not reverse-domain is a usage error.
    let bad = apcheck(&["check", "--extensions-namespace", "claude", root]).output();
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&bad.stderr)
            .contains("--extensions-namespace: `claude` is not a reverse-domain namespace"),
        "{}",
        String::from_utf8_lossy(&bad.stderr)
    );
}

#[test]
fn the_namespace_in_the_configuration_is_used_by_the_fix() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        dir.path(),
        &[
            ("apcheck.toml", "extensions-namespace = \"dev.acme.agent\"\n"),
            (
                "plugin.json",
                &format!(
                    "{{\"$schema\": \"{PLUGIN_SCHEMA}\", \"name\": \"demo\", \"extensions\": {{\"dev.acme.agent\": {{\"theme\": \"dark\"}}}}, \"hooks\": {{}}}}"
                ),
            ),
        ],
    );
    let root = dir.path().to_str().unwrap();
    let output = apcheck(&["check", "--unsafe-fixes", root]).output();
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(codes(dir.path()), Vec::<String>::new());
    let fixed = fs::read_to_string(dir.path().join("plugin.json")).unwrap();
    assert_eq!(
        fixed,
        format!(
            "{{\"$schema\": \"{PLUGIN_SCHEMA}\", \"name\": \"demo\", \"extensions\": {{\"dev.acme.agent\": {{\"hooks\": {{}}, \"theme\": \"dark\"}}}}}}"
        )
    );
}

#[test]
fn yaml_1_1_boolean_like_values_are_quoted_by_the_safe_fix() {
    // AP316: PyYAML reads `yes` and `off` as booleans; quoted, every parser reads the string.
    let dir = tempfile::tempdir().unwrap();
    write_files(
        dir.path(),
        &[
            (
                "plugin.json",
                &format!("{{\"$schema\": \"{PLUGIN_SCHEMA}\", \"name\": \"demo\"}}"),
            ),
            (
                "skills/pdf-tools/SKILL.md",
                "---\nname: pdf-tools\ndescription: Extracts text from PDF files. Use when the user works with PDFs.\nmetadata:\n  beta: yes\n  cache: off\n---\nBody.\n",
            ),
        ],
    );
    let root = dir.path().to_str().unwrap();
    assert_eq!(codes(dir.path()), ["AP316"]);
    let output = apcheck(&["check", "--fix", root]).output();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    // One finding per field at a time: the re-check finds `cache` once `beta` is quoted.
    assert!(stderr.contains("applied 2 fixes in 1 file"), "{stderr}");
    assert_eq!(codes(dir.path()), Vec::<String>::new());
    let skill = fs::read_to_string(dir.path().join("skills/pdf-tools/SKILL.md")).unwrap();
    assert!(
        skill.contains("metadata:\n  beta: \"yes\"\n  cache: \"off\"\n---\n"),
        "{skill}"
    );
}
