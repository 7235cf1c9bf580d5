//! `apcheck fmt`, `validate` and `diff` as a user runs them: output and exit codes
//! (0 clean, 1 findings or differences, 2 usage or input errors).

use std::path::Path;

use serde_json::{Value, json};

use crate::support::{apcheck, repo, stderr, stdout};

fn write(dir: &Path, name: &str, text: &str) {
    std::fs::write(dir.join(name), text).unwrap();
}

#[test]
fn fmt_prints_pretty_json_and_points_at_syntax_errors() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "ok.json", r#"{"b":[1.0,1e3],"a":null}"#);
    write(dir.path(), "bad.json", "{\n  \"a\": 1\n  \"b\": 2\n}\n");
    let out = apcheck(&["fmt", "ok.json", "--sort-keys", "--indent", "4"])
        .current_dir(dir.path())
        .output();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        stdout(&out),
        "{\n    \"a\": null,\n    \"b\": [\n        1.0,\n        1e3\n    ]\n}\n"
    );
    let out = apcheck(&["fmt", "bad.json"]).current_dir(dir.path()).output();
    assert_eq!(out.status.code(), Some(1));
    let message = stderr(&out);
    assert!(message.contains("expected ',' or '}' after object member"), "{message}");
    assert!(message.contains("bad.json:3:3"), "{message}");
    assert!(message.contains("  \"b\": 2"), "{message}");
    assert_eq!(
        apcheck(&["fmt", "missing.json"])
            .current_dir(dir.path())
            .output()
            .status
            .code(),
        Some(2)
    );
    // What only JSONC accepts is placed at the comma, and `fmt` names its option;
    // `validate` has none to name.
    write(dir.path(), "comma.json", "{\n  \"a\": 1,\n}\n");
    let message = stderr(&apcheck(&["fmt", "comma.json"]).current_dir(dir.path()).output());
    assert!(
        message.contains("trailing comma (not JSON); `--jsonc` accepts it"),
        "{message}"
    );
    assert!(message.contains("comma.json:2:9"), "{message}");
    write(dir.path(), "any.schema.json", "{}");
    let out = stdout(
        &apcheck(&["validate", "--schema", "any.schema.json", "comma.json"])
            .current_dir(dir.path())
            .output(),
    );
    assert!(out.contains("comma.json:2:9") && !out.contains("--jsonc"), "{out}");
    let out = apcheck(&["fmt", "ok.json", "--check"]).current_dir(dir.path()).output();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        apcheck(&["fmt", "ok.json", "--write"])
            .current_dir(dir.path())
            .output()
            .status
            .code(),
        Some(0)
    );
    assert_eq!(
        apcheck(&["fmt", "ok.json", "--check"])
            .current_dir(dir.path())
            .output()
            .status
            .code(),
        Some(0)
    );
}

#[test]
fn fmt_prints_nothing_on_stdout_for_a_document_broken_near_its_end() {
    // `fmt` streams its output in chunks, after checking the whole text, so
    // the megabytes before the error are never printed.
    let dir = tempfile::tempdir().unwrap();
    let broken = format!("[{}, oops]", vec!["\"padding padding\""; 200_000].join(","));
    write(dir.path(), "broken.json", &broken);
    let out = apcheck(&["fmt", "broken.json"]).current_dir(dir.path()).output();
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty(), "{} bytes on stdout", out.stdout.len());
    assert!(stderr(&out).contains("broken.json:1:"), "{}", stderr(&out));
}

/// Files of 16 MiB or more are read in two halves at once: every byte arrives,
/// with a multi-byte character across the middle, and an invalid byte in
/// either half is still named at its offset.
#[test]
fn big_files_are_read_whole_and_checked_for_utf8() {
    let dir = tempfile::tempdir().unwrap();
    let element = "\"é€😀 abcdefghijklmnopqrstuvwxyz\"";
    let count = (17 << 20) / (element.len() + 1) + 1;
    let text = format!("[{}]", vec![element; count].join(","));
    write(dir.path(), "big.json", &text);
    let out = apcheck(&["fmt", "--minify", "big.json"])
        .current_dir(dir.path())
        .output();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(out.stdout.len() == text.len() + 1 && out.stdout[..text.len()] == *text.as_bytes());
    // An ASCII letter each side of the middle, so the invalid byte is where the error starts.
    let past_middle = text.len() / 2
        + text.as_bytes()[text.len() / 2..]
            .iter()
            .position(|&b| b == b'a')
            .unwrap();
    for at in [1 + element.find('a').unwrap(), past_middle] {
        let mut bytes = text.clone().into_bytes();
        bytes[at] = 0xff;
        std::fs::write(dir.path().join("bad.json"), &bytes).unwrap();
        let out = apcheck(&["fmt", "bad.json"]).current_dir(dir.path()).output();
        assert_eq!(out.status.code(), Some(2));
        assert!(
            stderr(&out).contains(&format!("byte {at} is invalid")),
            "{}",
            stderr(&out)
        );
    }
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
    let out = apcheck(&["validate", "--schema", "schema.json", "good.json"])
        .current_dir(dir.path())
        .output();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let out = apcheck(&[
        "validate",
        "--schema",
        "schema.json",
        "good.json",
        "bad.json",
        "--format",
        "json",
    ])
    .current_dir(dir.path())
    .output();
    assert_eq!(out.status.code(), Some(1));
    let report: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let issues = &report["files"][1]["issues"];
    assert_eq!(issues.as_array().unwrap().len(), 2);
    assert_eq!(issues[1]["instance_pointer"], "/size");
    assert_eq!(
        (issues[1]["line"].as_u64(), issues[1]["column"].as_u64()),
        (Some(2), Some(11))
    );
    let text = stdout(
        &apcheck(&["validate", "--schema", "schema.json", "bad.json"])
            .current_dir(dir.path())
            .output(),
    );
    assert!(text.contains("bad.json:2:11"), "{text}");
}

/// Every command has every format. `validate`'s findings are
/// AP030 per failed keyword, AP008 for a document that is not JSON and AP005
/// for one that cannot be read, placed at their line and column.
#[test]
fn validate_speaks_sarif_github_and_markdown() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "schema.json",
        r#"{"type": "object", "required": ["name"], "properties": {"size": {"type": "integer"}}}"#,
    );
    write(dir.path(), "good.json", r#"{"name": "x", "size": 1}"#);
    write(
        dir.path(),
        "bad.json",
        "{\n  \"name\": \"x\",\n  \"size\": \"big\"\n}\n",
    );
    write(dir.path(), "broken.json", "{\n  \"name\": \"x\",\n}\n");
    let run = |format: &str, files: &[&str]| {
        let mut args = vec!["validate", "--schema", "schema.json", "--format", format];
        args.extend(files);
        apcheck(&args).current_dir(dir.path()).output()
    };
    let all = ["good.json", "bad.json", "broken.json"];

    let out = run("sarif", &all);
    assert_eq!(out.status.code(), Some(1));
    let log: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let results = log["runs"][0]["results"].as_array().unwrap();
    let found: Vec<(&str, &str, u64, u64)> = results
        .iter()
        .map(|result| {
            let location = &result["locations"][0]["physicalLocation"];
            (
                result["ruleId"].as_str().unwrap(),
                location["artifactLocation"]["uri"].as_str().unwrap(),
                location["region"]["startLine"].as_u64().unwrap(),
                location["region"]["startColumn"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(found, [("AP030", "bad.json", 3, 11), ("AP008", "broken.json", 2, 14)]);
    let schema_path = repo().join("tests/data/sarif-schema-2.1.0.json");
    let sarif_schema: Value = serde_json::from_str(&std::fs::read_to_string(schema_path).unwrap()).unwrap();
    let validator = jsonschema::validator_for(&sarif_schema).unwrap();
    assert!(validator.is_valid(&log), "{log:#}");

    let out = run("github", &all);
    assert_eq!(out.status.code(), Some(1));
    let annotations = stdout(&out);
    assert!(
        annotations.starts_with("::error file=bad.json,line=3,col=11,"),
        "{annotations}"
    );
    assert!(annotations.contains("title=AP030::"), "{annotations}");
    assert!(
        annotations.contains("help: schema /properties/size/type (type)"),
        "{annotations}"
    );
    assert!(
        annotations.ends_with("1 of 3 document(s) valid against 2020-12 schema (2 errors, 0 warnings, 0 infos)\n"),
        "{annotations}"
    );

    let out = run("markdown", &all);
    let markdown = stdout(&out);
    assert!(
        markdown.starts_with("### apcheck validate: 1 of 3 document(s) valid"),
        "{markdown}"
    );
    assert!(markdown.contains("#### `good.json`\n\nNo findings.\n"), "{markdown}");
    assert!(
        markdown.contains("[`AP008`](https://apcheck.dev/rules/AP008) `broken.json:2:14`"),
        "{markdown}"
    );

    // A file that cannot be read is a finding too, and the run exits 2.
    let out = run("github", &["good.json", "missing.json"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stdout(&out).contains("::error file=missing.json,title=AP005::"),
        "{}",
        stdout(&out)
    );
    assert_eq!(run("sarif", &["good.json"]).status.code(), Some(0));
}

#[test]
fn validate_refuses_a_bad_schema_and_lists_builtins() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "schema.json", "{\n  \"type\": 7\n}");
    write(dir.path(), "x.json", "{}");
    let out = apcheck(&["validate", "--schema", "schema.json", "x.json"])
        .current_dir(dir.path())
        .output();
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("schema.json:2:11"), "{}", stderr(&out));
    let list = stdout(
        &apcheck(&["validate", "--builtin", "list"])
            .current_dir(dir.path())
            .output(),
    );
    for name in ["plugin", "mcp", "mcp-tool@2025-11-25", "mcp-tools-list"] {
        assert!(list.lines().any(|l| l.starts_with(&format!("{name} "))), "{list}");
    }
    write(
        dir.path(),
        "tool.json",
        r#"{"name": "echo", "inputSchema": {"type": "object"}}"#,
    );
    let out = apcheck(&["validate", "--builtin", "mcp-tool", "tool.json"])
        .current_dir(dir.path())
        .output();
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    let out = apcheck(&["validate", "--builtin", "nope", "tool.json"])
        .current_dir(dir.path())
        .output();
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
        apcheck(&["diff", "a.json", "a.json"])
            .current_dir(dir.path())
            .output()
            .status
            .code(),
        Some(0)
    );
    let out = apcheck(&["diff", "a.json", "b.json"]).current_dir(dir.path()).output();
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout(&out).contains("/tools[name=a]/v"), "{}", stdout(&out));
    let out = apcheck(&["diff", "a.json", "b.json", "--format", "patch"])
        .current_dir(dir.path())
        .output();
    let patch: json_patch::Patch = serde_json::from_str(&stdout(&out)).unwrap();
    let mut patched = a.clone();
    json_patch::patch(&mut patched, &patch).unwrap();
    assert_eq!(patched, b);
    let out = apcheck(&["diff", "a.json", "b.json", "--ignore", "/status", "--format", "merge"])
        .current_dir(dir.path())
        .output();
    let merge: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert!(merge.get("status").is_none() && merge.get("tools").is_some());
    let unified = stdout(
        &apcheck(&["diff", "a.json", "b.json", "--format", "unified"])
            .current_dir(dir.path())
            .output(),
    );
    assert!(unified.starts_with("--- a.json\n+++ b.json\n"), "{unified}");
    let marked = stdout(
        &apcheck(&["diff", "a.json", "b.json", "--format", "unified", "--color", "always"])
            .current_dir(dir.path())
            .output(),
    );
    assert!(
        marked.contains("\x1b[7m\"down\""),
        "changed words are marked: {marked:?}"
    );
    write(dir.path(), "broken.json", "[1,");
    assert_eq!(
        apcheck(&["diff", "a.json", "broken.json"])
            .current_dir(dir.path())
            .output()
            .status
            .code(),
        Some(2)
    );
    assert_eq!(
        apcheck(&["diff", "a.json", "b.json", "--ignore", "status"])
            .current_dir(dir.path())
            .output()
            .status
            .code(),
        Some(2)
    );
}

#[test]
fn validate_says_what_the_file_is_when_it_is_another_kind() {
    let fixtures = repo().join("tests/fixtures/invoice-ops");
    let out = apcheck(&["validate", "--builtin", "plugin", "snapshot.json"])
        .current_dir(&fixtures)
        .output();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stdout(&out).contains("this is an apcheck capability snapshot"),
        "{}",
        stdout(&out)
    );
    let out = apcheck(&["validate", "--builtin", "snapshot", "snapshot.json", "--format", "json"])
        .current_dir(&fixtures)
        .output();
    assert_eq!(out.status.code(), Some(0));
    let report: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert!(report["files"][0].get("kind_mismatch").is_none());
}

/// Numbers compare exactly by decimal value, from their text.
#[test]
fn diff_compares_numbers_exactly_and_shows_their_text() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        ("[18446744073709551616]", "[18446744073709551617]", 1),
        (
            &*format!("[{}]", "7".repeat(100)),
            &*format!("[{}8]", "7".repeat(99)),
            1,
        ),
        ("[1.0, 1e3, -0]", "[1, 1000, 0]", 0),
        ("[1e400]", "[1e401]", 1),
        ("[1e400]", "[10e399]", 0),
    ];
    for (a, b, code) in cases {
        write(dir.path(), "a.json", a);
        write(dir.path(), "b.json", b);
        let out = apcheck(&["diff", "a.json", "b.json", "--format", "patch"])
            .current_dir(dir.path())
            .output();
        assert_eq!(out.status.code(), Some(code), "{a} vs {b}: {}", stderr(&out));
        let patch: Value = serde_json::from_str(&stdout(&out)).unwrap();
        assert_eq!(patch.as_array().unwrap().is_empty(), code == 0, "{a} vs {b}");
    }
    write(
        dir.path(),
        "a.json",
        r#"{"p": 0.23436424411240122, "big": 18446744073709551617}"#,
    );
    write(
        dir.path(),
        "b.json",
        r#"{"p": 0.23436424411240123, "big": 18446744073709551616}"#,
    );
    let out = apcheck(&["diff", "a.json", "b.json"]).current_dir(dir.path()).output();
    let text = stdout(&out);
    for shown in [
        "0.23436424411240122",
        "0.23436424411240123",
        "18446744073709551617",
        "18446744073709551616",
    ] {
        assert!(text.contains(shown), "{shown} in {text}");
    }
}

/// An error in a long line is named at its real column, not the window's.
#[test]
fn errors_in_long_lines_name_the_real_column() {
    let dir = tempfile::tempdir().unwrap();
    let long = format!("[{}x]", "1,".repeat(5_000));
    write(dir.path(), "long.json", &long);
    let column = long.find('x').unwrap() + 1;
    let out = apcheck(&["fmt", "long.json"]).current_dir(dir.path()).output();
    assert!(
        stderr(&out).contains(&format!("long.json:1:{column}")),
        "{}",
        stderr(&out)
    );
    write(dir.path(), "ok.json", "[]");
    let out = apcheck(&["diff", "ok.json", "long.json"])
        .current_dir(dir.path())
        .output();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains(&format!("long.json:1:{column}")),
        "{}",
        stderr(&out)
    );
    let strings = format!("[{}\"x\"]", "1,".repeat(5_000));
    write(dir.path(), "strings.json", &strings);
    write(dir.path(), "schema.json", r#"{"items": {"type": "integer"}}"#);
    let out = apcheck(&["validate", "--schema", "schema.json", "strings.json"])
        .current_dir(dir.path())
        .output();
    let column = strings.find('"').unwrap() + 1;
    assert!(
        stdout(&out).contains(&format!("strings.json:1:{column}")),
        "{}",
        stdout(&out)
    );
}

/// Two documents too big to diff in bounded memory are refused up front,
/// with exit 2 and a reason (sparse files: nothing is written or read).
#[test]
fn diff_refuses_documents_too_large_to_compare() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["a.json", "b.json"] {
        let file = std::fs::File::create(dir.path().join(name)).unwrap();
        file.set_len(200 * 1024 * 1024).unwrap();
    }
    let out = apcheck(&["diff", "a.json", "b.json"]).current_dir(dir.path()).output();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "apcheck: the two documents are 400 MiB together; apcheck diffs up to 256 MiB (their trees take about ten times that in memory)\n"
    );
}

/// Reordering a keyed array is n log n, not quadratic (36 s before),
/// and the patch still turns A into B.
#[test]
fn a_reversed_keyed_array_diffs_to_a_patch_that_applies() {
    let dir = tempfile::tempdir().unwrap();
    let tools: Vec<Value> = (0..40_000)
        .map(|i| json!({"name": format!("t{i}"), "description": "d"}))
        .collect();
    let a = json!({ "tools": tools });
    let mut reversed = tools.clone();
    reversed.reverse();
    reversed[7]["description"] = json!("changed");
    let b = json!({ "tools": reversed });
    write(dir.path(), "a.json", &a.to_string());
    write(dir.path(), "b.json", &b.to_string());
    let out = apcheck(&["diff", "a.json", "b.json", "--format", "patch"])
        .current_dir(dir.path())
        .output();
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let patch: json_patch::Patch = serde_json::from_str(&stdout(&out)).unwrap();
    let mut patched = a.clone();
    json_patch::patch(&mut patched, &patch).unwrap();
    assert_eq!(patched, b);
}

/// The codes and pointers of `validate --format json`'s findings, through the SARIF output.
fn finding_codes(dir: &Path, args: &[&str]) -> (Option<i32>, Vec<String>, String) {
    let mut all = vec!["validate", "--format", "sarif"];
    all.extend_from_slice(args);
    let out = apcheck(&all).current_dir(dir).output();
    let sarif: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let codes = sarif["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|result| result["ruleId"].as_str().unwrap().to_string())
        .collect();
    (out.status.code(), codes, stdout(&out))
}

/// The schema whose `oneOf` refers back to it twice used to take 34 s and
/// 12 GB on 22 nested arrays; `anyOf` and `allOf` alike. Past the budget the
/// document gets "could not check" (AP031, exit 2), never a verdict; a shallow
/// one still gets the validator's own.
#[test]
fn validate_gives_no_verdict_when_the_schema_is_too_expensive() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "deep.json",
        &format!("{}{}", "[".repeat(22), "]".repeat(22)),
    );
    write(
        dir.path(),
        "shallow.json",
        &format!("{}{}", "[".repeat(4), "]".repeat(4)),
    );
    for keyword in ["oneOf", "anyOf", "allOf"] {
        let schema = format!(
            r##"{{"type": "array", "items": {{"{keyword}": [{{"$ref": "#"}}, {{"$ref": "#"}}, {{"type": "string"}}]}}}}"##
        );
        write(dir.path(), "schema.json", &schema);
        let (exit, codes, out) = finding_codes(dir.path(), &["--schema", "schema.json", "deep.json"]);
        assert_eq!((exit, codes), (Some(2), vec!["AP031".to_string()]), "{keyword}: {out}");
        assert!(out.contains("too expensive for this input"), "{out}");
        let (exit, codes, _) = finding_codes(dir.path(), &["--schema", "schema.json", "shallow.json"]);
        match keyword {
            // An array matches both references: not exactly one, and not a string either.
            "oneOf" | "allOf" => assert_eq!((exit, codes.is_empty()), (Some(1), false), "{keyword}"),
            _ => assert_eq!((exit, codes.is_empty()), (Some(0), true), "{keyword}"),
        }
    }
    // The text format says it, and the verdict line counts it apart.
    let out = apcheck(&["validate", "--schema", "schema.json", "deep.json"])
        .current_dir(dir.path())
        .output();
    assert!(stdout(&out).contains("could not check"), "{}", stdout(&out));
    assert!(stderr(&out).contains("1 could not be checked"), "{}", stderr(&out));
}

/// A `pattern` whose match hits the regex engine's backtracking limit used
/// to be reported as a violation; under `not` it would pass. Neither is a verdict.
#[test]
fn validate_says_could_not_check_at_a_regex_backtracking_limit() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "long.json", &format!("\"{}\"", "a".repeat(40)));
    for schema in [r#"{"pattern": "(a*)*\\1x"}"#, r#"{"not": {"pattern": "(a*)*\\1x"}}"#] {
        write(dir.path(), "schema.json", schema);
        let (exit, codes, out) = finding_codes(dir.path(), &["--schema", "schema.json", "long.json"]);
        assert_eq!((exit, codes), (Some(2), vec!["AP031".to_string()]), "{schema}: {out}");
        assert!(out.contains("backtracking limit"), "{out}");
    }
}

/// Each of these verdicts used to go through `f64` and was wrong; now none
/// is given. Numbers `f64` holds exactly still get theirs.
#[test]
fn validate_gives_no_verdict_on_numbers_f64_cannot_hold() {
    let dir = tempfile::tempdir().unwrap();
    let unchecked = [
        (r#"{"const": 18446744073709551617}"#, "18446744073709551616"),
        (r#"{"maximum": 18446744073709551616}"#, "18446744073709551617"),
        (r#"{"minimum": 1e400}"#, "1e399"),
        (r#"{"exclusiveMinimum": 0}"#, "1e-400"),
        (r#"{"minimum": 1}"#, "0.99999999999999999999"),
        (r#"{"maximum": 1}"#, "1.00000000000000000001"),
        (r#"{"type": "integer"}"#, "9007199254740993.5"),
        (
            r#"{"uniqueItems": true}"#,
            "[18446744073709551617, 18446744073709551616]",
        ),
        (
            r#"{"properties": {"n": {"enum": [1, 2]}}}"#,
            r#"{"n": 1.0000000000000000000001}"#,
        ),
    ];
    for (schema, document) in unchecked {
        write(dir.path(), "schema.json", schema);
        write(dir.path(), "doc.json", document);
        let (exit, codes, out) = finding_codes(dir.path(), &["--schema", "schema.json", "doc.json"]);
        assert_eq!(
            (exit, codes),
            (Some(2), vec!["AP031".to_string()]),
            "{schema} {document}: {out}"
        );
    }
    let decided = [
        (r#"{"minimum": 1}"#, "0.9999999999999999", 1),
        (r#"{"maximum": 1}"#, "1.0000000000000002", 1),
        (r#"{"multipleOf": 0.01}"#, "19.99", 0),
        (r#"{"type": "integer"}"#, "9007199254740992", 0),
        (r#"{"const": 1.8446744073709552e19}"#, "1.8446744073709552e19", 0),
        // A number where no numeric keyword applies needs no exactness.
        (r#"{"type": "number"}"#, "1e400", 0),
    ];
    for (schema, document, exit) in decided {
        write(dir.path(), "schema.json", schema);
        write(dir.path(), "doc.json", document);
        let (code, _, out) = finding_codes(dir.path(), &["--schema", "schema.json", "doc.json"]);
        assert_eq!(code, Some(exit), "{schema} {document}: {out}");
    }
    // The JSON report says why, and that the document is not valid.
    write(dir.path(), "schema.json", r#"{"minimum": 1}"#);
    write(dir.path(), "doc.json", "0.99999999999999999999");
    let out = apcheck(&["validate", "--format", "json", "--schema", "schema.json", "doc.json"])
        .current_dir(dir.path())
        .output();
    let report: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let file = &report["files"][0];
    assert_eq!(
        (&file["valid"], &file["unchecked"]["reason"]),
        (&json!(false), &json!("inexact"))
    );
}

/// A `--ref` schema without `$schema` is read in its referrer's
/// dialect, so a draft-07 sibling's `"$id": "#foo"` (an anchor there) loads.
#[test]
fn a_ref_schema_without_dollar_schema_takes_the_referrers_dialect() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "main.json",
        r#"{"$schema": "http://json-schema.org/draft-07/schema#", "properties": {"a": {"$ref": "b.json#foo"}}}"#,
    );
    write(
        dir.path(),
        "b.json",
        r##"{"definitions": {"s": {"$id": "#foo", "type": "string"}}}"##,
    );
    write(dir.path(), "good.json", r#"{"a": "x"}"#);
    write(dir.path(), "bad.json", r#"{"a": 1}"#);
    let args = |document| ["validate", "--schema", "main.json", "--ref", "b.json", document];
    let out = apcheck(&args("good.json")).current_dir(dir.path()).output();
    assert_eq!(out.status.code(), Some(0), "{}{}", stdout(&out), stderr(&out));
    assert_eq!(
        apcheck(&args("bad.json"))
            .current_dir(dir.path())
            .output()
            .status
            .code(),
        Some(1)
    );
}

/// `fmt` and `validate` used to read `/dev/zero` to 13 GB. Every input is
/// capped (256 MiB unless `--max-input-mib` says otherwise), pipes included.
#[test]
fn fmt_and_validate_refuse_inputs_past_their_cap() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "schema.json", "{}");
    write(dir.path(), "big.json", &format!("[{}1]", "1,".repeat(600_000)));
    for args in [
        vec!["fmt", "big.json", "--max-input-mib", "1"],
        vec![
            "validate",
            "--schema",
            "schema.json",
            "big.json",
            "--max-input-mib",
            "1",
        ],
        vec![
            "validate",
            "--schema",
            "big.json",
            "schema.json",
            "--max-input-mib",
            "1",
        ],
    ] {
        let out = apcheck(&args).current_dir(dir.path()).output();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            stderr(&out).contains("big.json is larger than 1 MiB; `--max-input-mib` raises the limit"),
            "{args:?}: {}",
            stderr(&out)
        );
    }
    assert_eq!(
        apcheck(&["fmt", "big.json", "--max-input-mib", "2"])
            .current_dir(dir.path())
            .output()
            .status
            .code(),
        Some(0)
    );
    #[cfg(unix)]
    for args in [
        vec!["fmt", "/dev/zero", "--max-input-mib", "1"],
        vec![
            "validate",
            "--schema",
            "schema.json",
            "/dev/zero",
            "--max-input-mib",
            "1",
        ],
    ] {
        let out = apcheck(&args).current_dir(dir.path()).output();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            stderr(&out).contains("/dev/zero is larger than 1 MiB"),
            "{}",
            stderr(&out)
        );
    }
    // Standard input too.
    let mut child = apcheck(&["fmt", "-", "--max-input-mib", "1"])
        .current_dir(dir.path())
        .command()
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        use std::io::Write;
        // The reader stops after the limit: the rest of the pipe is refused.
        let _ = stdin.write_all(&vec![b' '; 3 << 20]);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("standard input is larger than 1 MiB"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn validate_colours_its_snippets_as_color_says_whatever_the_terminal() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "schema.json", r#"{"required": ["name"]}"#);
    write(dir.path(), "bad.json", "{}\n");
    let run = |color: &str| {
        apcheck(&["validate", "--color", color, "--schema", "schema.json", "bad.json"])
            .current_dir(dir.path())
            .output()
    };
    let always = run("always");
    assert_eq!(always.status.code(), Some(1));
    assert!(stdout(&always).contains('\u{1b}'), "{}", stdout(&always));
    let never = run("never");
    assert!(!stdout(&never).contains('\u{1b}'), "{}", stdout(&never));
    assert_eq!(
        String::from_utf8_lossy(&never.stdout).replace('\u{1b}', ""),
        stdout(&never),
        "never is plain"
    );
    // Redirected, `auto` is plain too.
    assert!(!stdout(&run("auto")).contains('\u{1b}'));
}

#[test]
fn fmt_takes_many_files_with_write_or_check_and_exits_with_the_worst() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "a.json", "{\"a\":1}");
    write(dir.path(), "b.json", "{\n  \"b\": 2\n}\n");
    write(dir.path(), "bad.json", "{\"c\":");
    // Several documents on standard output would be no JSON: refused, nothing written.
    let out = apcheck(&["fmt", "a.json", "b.json"]).current_dir(dir.path()).output();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    // --check names each file that is not formatted, and checks every file.
    let out = apcheck(&["fmt", "--check", "a.json", "b.json"])
        .current_dir(dir.path())
        .output();
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("a.json: not formatted"), "{}", stderr(&out));
    assert!(!stderr(&out).contains("b.json"), "{}", stderr(&out));
    // --write formats every file it can; a syntax error and a missing file do not stop the rest.
    let out = apcheck(&["fmt", "--write", "bad.json", "a.json", "missing.json", "b.json"])
        .current_dir(dir.path())
        .output();
    assert_eq!(out.status.code(), Some(2), "a missing file is the worst outcome");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("a.json")).unwrap(),
        "{\n  \"a\": 1\n}\n"
    );
    assert_eq!(std::fs::read_to_string(dir.path().join("bad.json")).unwrap(), "{\"c\":");
    let out = apcheck(&["fmt", "--check", "a.json", "b.json"])
        .current_dir(dir.path())
        .output();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}
