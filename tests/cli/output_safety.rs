//! Every command × every format on inputs full of secrets, where
//! no secret byte may appear in what apcheck prints (stdout or stderr).
//! `diff` and `fmt` print documents as they are; only their errors are checked.

use std::path::Path;

use crate::support::apcheck;

/// The secrets, and the substrings of them that must never be printed.
const GITHUB_TOKEN: &str = "ghp_R4nd0mT0k3nV4lu3Abcdefghijklmnopqrst";
const URL_PASSWORD: &str = "hunter2hunter2";
const QUERY_KEY: &str = "8f14e45fceea167a5a36dedd4bea2543a1b2c3d4";
const FLAG_KEY: &str = "c4ca4238a0b923820dcc509a6f75849b9d3e2a1f";
const FLAG_TOKEN: &str = "Zx9Qw8Er7Ty6Ui5Op4As3Df2Gh1Jk0Lm";
const BEARER: &str = "0b1c2d3e4f5a6b7c8d9eAbCd";

const SECRETS: [&str; 6] = [GITHUB_TOKEN, URL_PASSWORD, QUERY_KEY, FLAG_KEY, FLAG_TOKEN, BEARER];

fn write(dir: &Path, file: &str, text: &str) {
    let path = dir.join(file);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// A package whose every secret sits on a line that also has another finding
/// (an unknown member, a wrong type), so a snippet would quote it.
fn package(dir: &Path) {
    write(
        dir,
        "plugin/plugin.json",
        &format!(
            r#"{{"$schema": "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json", "name": "leaky", "version": "1.0.0", "description": "token {GITHUB_TOKEN}"}}"#
        ),
    );
    write(
        dir,
        "plugin/mcp.json",
        &format!(
            r#"{{"$schema": "https://agent-plugins.org/schemas/1.0.0/mcp.schema.json", "mcpServers": {{
"env": {{"type": "stdio", "command": "npx", "env": {{"GITHUB_TOKEN": "{GITHUB_TOKEN}"}}, "cwd": 5}},
"auth": {{"type": "streamable-http", "url": "https://api.acme.dev/mcp", "headers": {{"Authorization": "Bearer {BEARER}"}}, "extra": 1}},
"userinfo": {{"type": "streamable-http", "url": "https://bot:{URL_PASSWORD}@git.acme.dev/mcp", "extra": 1}},
"query": {{"type": "streamable-http", "url": "https://api.acme.dev/mcp?api_key={QUERY_KEY}", "extra": 1}},
"flags": {{"type": "stdio", "command": "npx", "args": ["--api-key={FLAG_KEY}", "--token", "{FLAG_TOKEN}"], "extra": 1}}
}}}}"#
        ),
    );
    // A snapshot that quotes the same secrets, with lint errors on their lines.
    let snapshot = format!(
        r#"{{"plugin": {{"name": "leaky", "version": "1.0.0", "spec": "1.0.0"}}, "skills": [],
"mcpServers": [{{"id": "env", "type": "stdio", "status": "up", "url": "https://bot:{URL_PASSWORD}@git.acme.dev/mcp?api_key={QUERY_KEY}"}}],
"tools": [{{"server": "env", "name": "q", "description": "Authorization: Bearer {BEARER} {GITHUB_TOKEN}", "inputSchema": {{"type": "object", "properties": {{"week": {{"type": "string", "pattern": "^W$"}}}}}}, "bad": ["--token", "{FLAG_TOKEN}", "--api-key={FLAG_KEY}"]}}]}}"#
    );
    write(dir, "snapshot.json", &snapshot);
    write(
        dir,
        "snapshot-2.json",
        &snapshot.replace("\"version\": \"1.0.0\"", "\"version\": \"0.9.0\""),
    );
    write(
        dir,
        "arguments.json",
        &format!(r#"{{"week": "{GITHUB_TOKEN}", "token": "--api-key={FLAG_KEY}"}}"#),
    );
    write(
        dir,
        "broken.json",
        &format!(r#"{{"url": "https://bot:{URL_PASSWORD}@git.acme.dev/mcp?access_token={QUERY_KEY}", oops}}"#),
    );
}

fn run(dir: &Path, args: &[&str]) -> String {
    let output = apcheck(args).current_dir(dir).output();
    let code = output.status.code().expect("exited");
    assert!(code <= 2, "{args:?} exited {code}");
    String::from_utf8_lossy(&output.stdout).into_owned() + &String::from_utf8_lossy(&output.stderr)
}

#[test]
fn no_command_in_any_format_prints_a_secret() {
    let dir = tempfile::tempdir().unwrap();
    package(dir.path());
    let commands: [&[&str]; 5] = [
        &["check", "plugin"],
        &["check-snapshot", "snapshot.json", "--plugin", "plugin"],
        &["drift", "snapshot.json", "plugin"],
        &["changes", "snapshot.json", "snapshot-2.json"],
        &["call", "snapshot.json", "env/q", "arguments.json"],
    ];
    let mut leaks = Vec::new();
    let mut check = |args: Vec<&str>| {
        let out = run(dir.path(), &args);
        for secret in SECRETS {
            if out.contains(secret) {
                leaks.push(format!("{args:?} prints {secret}:\n{out}"));
            }
        }
        out
    };
    for command in commands {
        for format in ["text", "json", "sarif", "github", "markdown"] {
            let mut args = command.to_vec();
            args.extend(["--format", format]);
            check(args);
        }
    }
    for format in ["text", "json", "sarif", "github", "markdown"] {
        let out = check(vec![
            "validate",
            "--builtin",
            "mcp",
            "plugin/mcp.json",
            "--format",
            format,
        ]);
        assert!(out.contains("oneOf"), "{out}");
    }
    let fmt = check(vec!["fmt", "broken.json"]);
    assert!(fmt.contains("broken.json:1:"), "{fmt}");
    check(vec!["diff", "broken.json", "snapshot.json"]);
    check(vec!["snapshot", "plugin-missing"]);
    assert!(leaks.is_empty(), "{}", leaks.join("\n\n"));
}

#[test]
fn the_new_secret_shapes_are_findings() {
    let dir = tempfile::tempdir().unwrap();
    package(dir.path());
    let out = run(dir.path(), &["check", "plugin", "--format", "json"]);
    let report = serde_json::from_str::<serde_json::Value>(&out).unwrap()["packages"][0].take();
    let codes: Vec<&str> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|d| d["code"].as_str())
        .collect();
    for code in ["AP501", "AP502", "AP504", "AP505", "AP506"] {
        assert!(codes.contains(&code), "{code} missing from {codes:?}");
    }
}

/// What a checked repository or a quoted value carries reaches no output raw:
/// a schema's `const` quoted by the validator, an id that is a token, a value
/// in `apcheck.toml` echoed by a usage error, a path given on the command line.
#[test]
fn quoted_values_usage_errors_and_ids_are_masked_and_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        "schema.json",
        &format!(r#"{{"properties": {{"c": {{"const": "{GITHUB_TOKEN}"}}, "e": {{"enum": ["{GITHUB_TOKEN}"]}}}}}}"#),
    );
    write(root, "instance.json", r#"{"c": "x", "e": "y"}"#);
    // Two snapshots whose server id and tool name are a token.
    let snapshot = |tool: &str| {
        format!(
            r#"{{"plugin": {{"name": "p", "version": "1.0.0", "spec": "1.0.0"}}, "skills": [],
"mcpServers": [{{"id": "{GITHUB_TOKEN}", "type": "stdio", "status": "connected"}}],
"tools": [{{"server": "{GITHUB_TOKEN}", "name": "{tool}", "inputSchema": {{"type": "object"}}}}]}}"#
        )
    };
    write(root, "old.json", &snapshot(GITHUB_TOKEN));
    write(root, "new.json", &snapshot("query"));
    write(root, "args.json", "{}");
    // A configuration whose bad value would start a GitHub workflow command
    // and recolour the terminal if echoed as it is.
    write(
        root,
        "configured/apcheck.toml",
        &format!("select = [\"AP2\\n::error::injected\\u001b[31m {GITHUB_TOKEN}\"]\n"),
    );
    write(
        root,
        "configured/plugin/plugin.json",
        r#"{"$schema": "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json", "name": "p"}"#,
    );
    let mut problems = Vec::new();
    let mut check = |args: &[&str]| {
        let out = run(root, args);
        if out.contains(GITHUB_TOKEN) {
            problems.push(format!("{args:?} prints a secret:\n{out}"));
        }
        if out.contains('\u{1b}') || out.lines().any(|line| line.starts_with("::error::injected")) {
            problems.push(format!(
                "{args:?} prints a control sequence or a workflow command:\n{out:?}"
            ));
        }
    };
    for format in ["text", "json", "sarif", "github", "markdown"] {
        check(&[
            "validate",
            "--schema",
            "schema.json",
            "instance.json",
            "--format",
            format,
        ]);
        check(&["changes", "old.json", "new.json", "--format", format]);
        check(&["call", "old.json", "missing", "args.json", "--format", format]);
        check(&["check", "configured/plugin", "--format", format]);
    }
    check(&["check", "missing\u{1b}[31m\n::error::injected"]);
    check(&["explain", "AP\u{1b}[31m"]);
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
}
