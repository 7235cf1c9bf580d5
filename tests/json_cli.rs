//! `apcheck fmt`, `validate` and `diff` as a user runs them: output and exit codes
//! (0 clean, 1 findings or differences, 2 usage or input errors).

use std::path::Path;
use std::process::{Command, Output};

use serde_json::{Value, json};

fn apcheck(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_apcheck"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap()
}

fn write(dir: &Path, name: &str, text: &str) {
    std::fs::write(dir.join(name), text).unwrap();
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).unwrap()
}

#[test]
fn fmt_prints_pretty_json_and_points_at_syntax_errors() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "ok.json", r#"{"b":[1.0,1e3],"a":null}"#);
    write(dir.path(), "bad.json", "{\n  \"a\": 1\n  \"b\": 2\n}\n");
    let out = apcheck(&["fmt", "ok.json", "--sort-keys", "--indent", "4"], dir.path());
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        stdout(&out),
        "{\n    \"a\": null,\n    \"b\": [\n        1.0,\n        1e3\n    ]\n}\n"
    );
    let out = apcheck(&["fmt", "bad.json"], dir.path());
    assert_eq!(out.status.code(), Some(1));
    let message = stderr(&out);
    assert!(message.contains("expected ',' or '}' after object member"), "{message}");
    assert!(message.contains("bad.json:3:3"), "{message}");
    assert!(message.contains("  \"b\": 2"), "{message}");
    assert_eq!(apcheck(&["fmt", "missing.json"], dir.path()).status.code(), Some(2));
    let out = apcheck(&["fmt", "ok.json", "--check"], dir.path());
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        apcheck(&["fmt", "ok.json", "--write"], dir.path()).status.code(),
        Some(0)
    );
    assert_eq!(
        apcheck(&["fmt", "ok.json", "--check"], dir.path()).status.code(),
        Some(0)
    );
}

#[test]
fn validate_reports_every_error_with_its_line() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "schema.json",
        r#"{"type": "object", "required": ["name"], "properties": {"size": {"type": "integer"}}}"#,
    );
    write(dir.path(), "good.json", r#"{"name": "x", "size": 1}"#);
    write(dir.path(), "bad.json", "{\n  \"size\": \"big\"\n}\n");
    let out = apcheck(&["validate", "--schema", "schema.json", "good.json"], dir.path());
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let out = apcheck(
        &[
            "validate",
            "--schema",
            "schema.json",
            "good.json",
            "bad.json",
            "--format",
            "json",
        ],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(1));
    let report: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let issues = &report["files"][1]["issues"];
    assert_eq!(issues.as_array().unwrap().len(), 2);
    assert_eq!(issues[1]["instance_pointer"], "/size");
    assert_eq!(
        (issues[1]["line"].as_u64(), issues[1]["column"].as_u64()),
        (Some(2), Some(11))
    );
    let text = stdout(&apcheck(
        &["validate", "--schema", "schema.json", "bad.json"],
        dir.path(),
    ));
    assert!(text.contains("bad.json:2:11"), "{text}");
}

#[test]
fn validate_refuses_a_bad_schema_and_lists_builtins() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "schema.json", "{\n  \"type\": 7\n}");
    write(dir.path(), "x.json", "{}");
    let out = apcheck(&["validate", "--schema", "schema.json", "x.json"], dir.path());
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("schema.json:2:11"), "{}", stderr(&out));
    let list = stdout(&apcheck(&["validate", "--builtin", "list"], dir.path()));
    for name in ["plugin", "mcp", "mcp-tool@2025-11-25", "mcp-tools-list"] {
        assert!(list.lines().any(|l| l.starts_with(&format!("{name} "))), "{list}");
    }
    write(
        dir.path(),
        "tool.json",
        r#"{"name": "echo", "inputSchema": {"type": "object"}}"#,
    );
    let out = apcheck(&["validate", "--builtin", "mcp-tool", "tool.json"], dir.path());
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    let out = apcheck(&["validate", "--builtin", "nope", "tool.json"], dir.path());
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn diff_exit_codes_and_a_patch_that_applies() {
    let dir = tempfile::tempdir().unwrap();
    let a = json!({"tools": [{"name": "a", "v": 1}, {"name": "b"}, {"name": "c"}], "status": "up"});
    let b = json!({"tools": [{"name": "c"}, {"name": "a", "v": 2}, {"name": "d"}], "status": "down"});
    write(dir.path(), "a.json", &serde_json::to_string_pretty(&a).unwrap());
    write(dir.path(), "b.json", &serde_json::to_string_pretty(&b).unwrap());
    assert_eq!(
        apcheck(&["diff", "a.json", "a.json"], dir.path()).status.code(),
        Some(0)
    );
    let out = apcheck(&["diff", "a.json", "b.json"], dir.path());
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout(&out).contains("/tools[name=a]/v"), "{}", stdout(&out));
    let out = apcheck(&["diff", "a.json", "b.json", "--format", "patch"], dir.path());
    let patch: json_patch::Patch = serde_json::from_str(&stdout(&out)).unwrap();
    let mut patched = a.clone();
    json_patch::patch(&mut patched, &patch).unwrap();
    assert_eq!(patched, b);
    let out = apcheck(
        &["diff", "a.json", "b.json", "--ignore", "/status", "--format", "merge"],
        dir.path(),
    );
    let merge: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert!(merge.get("status").is_none() && merge.get("tools").is_some());
    let unified = stdout(&apcheck(
        &["diff", "a.json", "b.json", "--format", "unified"],
        dir.path(),
    ));
    assert!(unified.starts_with("--- a.json\n+++ b.json\n"), "{unified}");
    let marked = stdout(&apcheck(
        &["diff", "a.json", "b.json", "--format", "unified", "--color", "always"],
        dir.path(),
    ));
    assert!(
        marked.contains("\x1b[7m\"down\""),
        "changed words are marked: {marked:?}"
    );
    write(dir.path(), "broken.json", "[1,");
    assert_eq!(
        apcheck(&["diff", "a.json", "broken.json"], dir.path()).status.code(),
        Some(2)
    );
    assert_eq!(
        apcheck(&["diff", "a.json", "b.json", "--ignore", "status"], dir.path())
            .status
            .code(),
        Some(2)
    );
}
