//! The snapshot commands end to end: output and exit codes (0 clean, 1
//! findings at error level, 2 usage or I/O failure).

use std::path::PathBuf;

use crate::support::{apcheck, code, repo, stdout};

fn fixtures() -> PathBuf {
    repo().join("tests/fixtures/invoice-ops")
}

fn temp_file(dir: &tempfile::TempDir, name: &str, contents: &str) -> String {
    let path = dir.path().join(name);
    std::fs::write(&path, contents).unwrap();
    path.display().to_string()
}

#[test]
fn snapshot_prints_the_reference_snapshot() {
    let output = apcheck(&["snapshot", ".", "--tools", "invoice-tools=tools-list.json"])
        .current_dir(fixtures())
        .output();
    assert_eq!(code(&output), 0, "{}", String::from_utf8_lossy(&output.stderr));
    assert_eq!(
        stdout(&output),
        std::fs::read_to_string(fixtures().join("snapshot.json")).unwrap()
    );
}

#[test]
fn snapshot_of_a_rejected_plugin_exits_1_and_bad_usage_exits_2() {
    let rejected = apcheck(&["snapshot", "../invoice-ops-bad-name"])
        .current_dir(fixtures())
        .output();
    assert_eq!(code(&rejected), 1);
    assert!(String::from_utf8_lossy(&rejected.stderr).contains("AP209"));
    assert_eq!(
        code(
            &apcheck(&["snapshot", ".", "--tools", "tools-list.json"])
                .current_dir(fixtures())
                .output()
        ),
        2
    );
    assert_eq!(
        code(
            &apcheck(&["snapshot", ".", "--tools", "billing=tools-list.json"])
                .current_dir(fixtures())
                .output()
        ),
        2
    );
    assert_eq!(
        code(&apcheck(&["snapshot", "no-such-dir"]).current_dir(fixtures()).output()),
        2
    );
}

#[test]
fn snapshot_of_a_collection_names_the_roots_inside() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["b", "a"] {
        std::fs::create_dir_all(dir.path().join("plugins").join(name)).unwrap();
        let manifest = format!("{{\"name\": \"{name}\"}}");
        temp_file(&dir, &format!("plugins/{name}/plugin.json"), &manifest);
    }
    let root = dir.path().display().to_string();
    let output = apcheck(&["snapshot", &root]).current_dir(fixtures()).output();
    assert_eq!(code(&output), 1);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.ends_with(&format!(
            "apcheck: {root} is a collection of 2 plugin roots; name one of them:\n  {root}/plugins/a\n  {root}/plugins/b\n"
        )),
        "{stderr}"
    );
}

#[test]
fn check_snapshot_exit_codes() {
    assert_eq!(
        code(
            &apcheck(&["check-snapshot", "snapshot.json"])
                .current_dir(fixtures())
                .output()
        ),
        0
    );
    assert_eq!(
        code(
            &apcheck(&["check-snapshot", "plugin.json"])
                .current_dir(fixtures())
                .output()
        ),
        1
    );
    assert_eq!(
        code(
            &apcheck(&["check-snapshot", "missing.json"])
                .current_dir(fixtures())
                .output()
        ),
        2
    );
    let json = apcheck(&["check-snapshot", "snapshot.json", "mcp.json", "--format", "json"])
        .current_dir(fixtures())
        .output();
    assert_eq!(code(&json), 1);
    let value: serde_json::Value = serde_json::from_str(&stdout(&json)).unwrap();
    assert_eq!(value[0]["valid"], true);
    assert_eq!(value[1]["diagnostics"][0]["code"], "AP602");
}

#[test]
fn drift_exits_1_on_drift_and_names_the_side_to_fix() {
    assert_eq!(
        code(
            &apcheck(&["drift", "snapshot.json", "."])
                .current_dir(fixtures())
                .output()
        ),
        0
    );
    let output = apcheck(&[
        "drift",
        "snapshot.json",
        "../invoice-ops-untyped-server",
        "--format",
        "markdown",
    ])
    .current_dir(fixtures())
    .output();
    assert_eq!(code(&output), 1);
    assert!(
        stdout(&output).contains("| [`AP708`](https://apcheck.dev/rules/AP708) | server invoice-tools | connected |"),
        "{}",
        stdout(&output)
    );
    assert!(stdout(&output).contains("fix the package"));
}

#[test]
fn changes_exit_0_when_the_bump_covers_them_and_1_when_not() {
    let dir = tempfile::tempdir().unwrap();
    let old = std::fs::read_to_string(fixtures().join("snapshot.json")).unwrap();
    let narrowed = old.replace("\"paid\",\n", "");
    let minor = temp_file(&dir, "minor.json", &narrowed.replace("1.2.0", "1.3.0"));
    let major = temp_file(&dir, "major.json", &narrowed.replace("1.2.0", "2.0.0"));
    let not_covered = apcheck(&["changes", "snapshot.json", &minor, "--format", "markdown"])
        .current_dir(fixtures())
        .output();
    assert_eq!(code(&not_covered), 1);
    assert!(
        stdout(&not_covered).contains("enum value \"paid\" removed"),
        "{}",
        stdout(&not_covered)
    );
    assert_eq!(
        code(
            &apcheck(&["changes", "snapshot.json", &major])
                .current_dir(fixtures())
                .output()
        ),
        0
    );
    assert_eq!(
        code(
            &apcheck(&["changes", "snapshot.json", "snapshot.json"])
                .current_dir(fixtures())
                .output()
        ),
        0
    );
}

#[test]
fn call_validates_arguments_with_line_and_column() {
    assert_eq!(
        code(
            &apcheck(&["call", "snapshot.json", "query_invoices", "arguments.json"])
                .current_dir(fixtures())
                .output()
        ),
        0
    );
    let dir = tempfile::tempdir().unwrap();
    let bad = temp_file(&dir, "bad.json", "{\n  \"week\": \"2026-9\"\n}");
    let output = apcheck(&["call", "snapshot.json", "query_invoices", &bad])
        .current_dir(fixtures())
        .output();
    assert_eq!(code(&output), 1);
    // The snippet every command renders: title first, then `--> file:line:col`.
    let text = stdout(&output);
    assert!(
        text.starts_with("error[AP901]") && text.contains("bad.json:2:11"),
        "{text}"
    );
    assert_eq!(
        code(
            &apcheck(&["call", "snapshot.json", "nope", "arguments.json"])
                .current_dir(fixtures())
                .output()
        ),
        1
    );
}

#[test]
fn changes_and_drift_on_a_file_that_is_not_json_say_nothing_was_compared() {
    // These used to say "No changes" / "No drift: the snapshot matches the package.".
    let dir = tempfile::tempdir().unwrap();
    let not_json = temp_file(&dir, "notes.txt", "this is not a snapshot\n");
    for format in ["text", "markdown"] {
        let changes = apcheck(&["changes", "snapshot.json", &not_json, "--format", format])
            .current_dir(fixtures())
            .output();
        assert_eq!(code(&changes), 1);
        let out = stdout(&changes);
        assert!(!out.contains("No changes"), "{out}");
        assert!(out.contains("Not compared") && out.contains("notes.txt"), "{out}");
        let drift = apcheck(&["drift", &not_json, ".", "--format", format])
            .current_dir(fixtures())
            .output();
        assert_eq!(code(&drift), 1);
        let out = stdout(&drift);
        assert!(!out.contains("No drift"), "{out}");
        assert!(out.contains("Not compared") && out.contains("notes.txt"), "{out}");
    }
    let json: serde_json::Value = serde_json::from_slice(
        &apcheck(&["changes", &not_json, "snapshot.json", "--format", "json"])
            .current_dir(fixtures())
            .output()
            .stdout,
    )
    .unwrap();
    assert_eq!(json["not_compared"], serde_json::json!([not_json]));
}

#[test]
fn every_snapshot_command_has_every_format() {
    // Every command has every format: SARIF and GitHub annotations for the snapshot commands too.
    let dir = tempfile::tempdir().unwrap();
    let old = std::fs::read_to_string(fixtures().join("snapshot.json")).unwrap();
    let minor = temp_file(
        &dir,
        "minor.json",
        &old.replace("\"paid\",\n", "").replace("1.2.0", "1.3.0"),
    );
    let commands: [Vec<&str>; 4] = [
        vec!["check-snapshot", "plugin.json"],
        vec!["drift", "snapshot.json", "../invoice-ops-bad-name"],
        vec!["changes", "snapshot.json", &minor],
        vec!["call", "snapshot.json", "query_invoices", "plugin.json"],
    ];
    for command in &commands {
        let text_code = code(&apcheck(command).current_dir(fixtures()).output());
        assert_eq!(text_code, 1, "{command:?}");
        for format in ["json", "sarif", "github", "markdown"] {
            let mut args = command.clone();
            args.extend(["--format", format]);
            let output = apcheck(&args).current_dir(fixtures()).output();
            assert_eq!(code(&output), text_code, "{args:?}");
            let out = stdout(&output);
            match format {
                "json" => assert!(serde_json::from_str::<serde_json::Value>(&out).is_ok(), "{args:?}"),
                "sarif" => {
                    let log: serde_json::Value = serde_json::from_str(&out).unwrap();
                    assert!(!log["runs"][0]["results"].as_array().unwrap().is_empty(), "{args:?}");
                }
                "github" => assert!(out.lines().any(|l| l.starts_with("::error ")), "{args:?}: {out}"),
                _ => assert!(out.contains("- **error** [`AP"), "{args:?}: {out}"),
            }
        }
    }
}

/// A tool `inputSchema` whose `$defs` refer to themselves
/// twice per level, and a number past `f64`, get "could not check" (AP904,
/// exit 2), neither a violation nor a pass; the check answers at once.
#[test]
fn call_arguments_that_cannot_be_checked_get_no_verdict() {
    let dir = tempfile::tempdir().unwrap();
    let snapshot = temp_file(
        &dir,
        "snapshot.json",
        r##"{"plugin": {"name": "p", "version": "1.0.0", "spec": "1.0.0"}, "skills": [],
  "mcpServers": [{"id": "s", "type": "stdio", "status": "connected"}],
  "tools": [{"name": "tree", "server": "s",
             "inputSchema": {"type": "object",
                             "properties": {"nodes": {"$ref": "#/$defs/node"}, "cents": {"maximum": 1e19}},
                             "$defs": {"node": {"type": "array", "items": {"anyOf": [
                               {"$ref": "#/$defs/node"}, {"$ref": "#/$defs/node"}, {"type": "string"}]}}}}}]}"##,
    );
    let deep = format!(r#"{{"nodes": {}{}}}"#, "[".repeat(30), "]".repeat(30));
    let shallow = format!(r#"{{"nodes": {}1{}}}"#, "[".repeat(3), "]".repeat(3));
    let cases = [
        (deep.as_str(), 2, Some("AP904")),
        (r#"{"cents": 10000000000000000001}"#, 2, Some("AP904")),
        (shallow.as_str(), 1, Some("AP901")),
        (r#"{"cents": 1000, "nodes": [["a"]]}"#, 0, None),
    ];
    for (arguments, exit, rule) in cases {
        let arguments_file = temp_file(&dir, "arguments.json", arguments);
        let output = apcheck(&["call", &snapshot, "tree", &arguments_file, "--format", "json"])
            .current_dir(fixtures())
            .output();
        assert_eq!(code(&output), exit, "{arguments}: {}", stdout(&output));
        let report: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
        let codes: Vec<&str> = report["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d["code"].as_str().unwrap())
            .collect();
        match rule {
            Some(rule) => assert!(
                codes.iter().all(|c| *c == rule) && !codes.is_empty(),
                "{arguments}: {codes:?}"
            ),
            None => assert!(codes.is_empty(), "{arguments}: {codes:?}"),
        }
    }
}
