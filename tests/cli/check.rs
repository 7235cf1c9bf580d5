//! The `apcheck` binary end to end: exit codes, output formats, roots and
//! collections, on plugin roots made in temporary directories.

use std::fs;
use std::path::Path;
use std::process::Output;

use serde_json::Value;

use crate::support::{apcheck, code, path_str, repo, shared, stdout, write_files};

const SCHEMA_1_0_0: &str = "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json";

fn json(output: &Output) -> Value {
    serde_json::from_slice(&output.stdout).unwrap_or_else(|e| panic!("stdout is JSON ({e}): {}", stdout(output)))
}

/// The package reports of a `check --format json` run, as a JSON array.
fn reports(output: &Output) -> Value {
    let mut all = json(output);
    assert_eq!(all["$schema"], "urn:apcheck:schema:check-report:1", "{all}");
    assert_eq!(all["version"], 1);
    all["packages"].take()
}

/// The one package report of a `check --format json` run of one root.
fn report(output: &Output) -> Value {
    let mut packages = reports(output);
    assert_eq!(packages.as_array().map(Vec::len), Some(1), "{packages}");
    packages[0].take()
}

/// How many findings the package reports of [`reports`] hold together.
fn finding_count(reports: &Value) -> usize {
    reports
        .as_array()
        .unwrap()
        .iter()
        .map(|report| report["diagnostics"].as_array().unwrap().len())
        .sum()
}

/// The codes of a JSON report's diagnostics, in report order.
fn diagnostic_codes(report: &Value) -> Vec<&str> {
    report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap())
        .collect()
}

fn manifest(name: &str) -> String {
    format!("{{\n  \"$schema\": \"{SCHEMA_1_0_0}\",\n  \"name\": \"{name}\"\n}}\n")
}

// ---- usage and I/O failures: exit 2 ----

#[test]
fn a_missing_path_exits_2_with_a_message_and_no_output() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("no-such-plugin");
    let output = apcheck(&["check", path_str(&missing)]).output();
    assert_eq!(code(&output), 2);
    assert!(output.stdout.is_empty());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("no-such-plugin"), "{stderr}");
}

#[test]
fn a_file_instead_of_a_root_exits_2() {
    let dir = tempfile::tempdir().unwrap();
    write_files(dir.path(), &[("plugin.json", &manifest("demo"))]);
    let output = apcheck(&["check", path_str(&dir.path().join("plugin.json"))]).output();
    assert_eq!(code(&output), 2);
    assert!(String::from_utf8_lossy(&output.stderr).contains("not a directory"));
}

#[test]
fn usage_errors_exit_2() {
    assert_eq!(code(&apcheck(&["check"]).output()), 2);
    assert_eq!(code(&apcheck(&["check", ".", "--format", "yaml"]).output()), 2);
    assert_eq!(code(&apcheck(&["explain", "AP000-no-such-rule"]).output()), 2);
}

// ---- output shapes ----

#[test]
fn json_is_one_versioned_shape_for_a_root_and_for_a_folder_of_one_root() {
    let dir = tempfile::tempdir().unwrap();
    let plugin = dir.path().join("plugins/demo");
    write_files(&plugin, &[("plugin.json", &manifest("demo"))]);
    let root = path_str(&plugin);
    let report = report(&apcheck(&["check", "--format", "json", root]).output());
    assert_eq!(report["root"], root);
    for key in ["plugin", "skills", "mcp", "diagnostics", "summary"] {
        assert!(report.get(key).is_some(), "missing `{key}` in {report}");
    }
    assert!(report["summary"]["errors"].is_u64());
    assert!(report["diagnostics"].is_array());
    // A folder holding that one plugin: the same shape, one package.
    let folder = json(&apcheck(&["check", "--format", "json", path_str(&dir.path().join("plugins"))]).output());
    assert_eq!(folder["packages"].as_array().map(Vec::len), Some(1));
    assert_eq!(folder["packages"][0]["plugin"], report["plugin"]);
    // Documented by its schema in schemas/, which both outputs meet.
    let schema_path = repo().join("schemas/apcheck/check-report-1.schema.json");
    let schema: Value = serde_json::from_str(&fs::read_to_string(schema_path).unwrap()).unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    let whole = json(&apcheck(&["check", "--format", "json", root]).output());
    for output in [&whole, &folder] {
        let errors: Vec<String> = validator.iter_errors(output).map(|e| e.to_string()).collect();
        assert!(errors.is_empty(), "{errors:?}");
    }
}

#[test]
fn json_lists_several_roots_in_the_order_given() {
    let dir = tempfile::tempdir().unwrap();
    let (b, a) = (dir.path().join("b"), dir.path().join("a"));
    write_files(&b, &[("plugin.json", &manifest("b"))]);
    write_files(&a, &[("plugin.json", &manifest("a"))]);
    let reports = reports(&apcheck(&["check", "--format", "json", path_str(&b), path_str(&a)]).output());
    let roots: Vec<&str> = reports
        .as_array()
        .expect("an array")
        .iter()
        .map(|r| r["root"].as_str().unwrap())
        .collect();
    assert_eq!(roots, [path_str(&b), path_str(&a)]);
}

#[test]
fn a_marketplace_folder_checks_every_root_below_it() {
    let dir = tempfile::tempdir().unwrap();
    let market = dir.path();
    write_files(
        market,
        &[
            ("plugins/zeta/plugin.json", &manifest("zeta")),
            ("plugins/alpha/plugin.json", &manifest("alpha")),
            ("plugins/alpha/.claude-plugin/plugin.json", "{}"),
            ("tools/node_modules/x/plugin.json", "{}"),
            ("README.md", "# market"),
        ],
    );
    let base = path_str(market);
    let reports = reports(&apcheck(&["check", "--format", "json", base]).output());
    let roots: Vec<String> = reports
        .as_array()
        .expect("a collection is an array")
        .iter()
        .map(|r| r["root"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(roots, [format!("{base}/plugins/alpha"), format!("{base}/plugins/zeta")]);

    let text = stdout(&apcheck(&["check", base]).output());
    assert!(text.contains(&format!("{base}/plugins/alpha: ")), "{text}");
    assert!(text.lines().last().unwrap().starts_with("2 plugins: "), "{text}");
}

#[test]
fn the_shared_corpus_checks_as_one_collection() {
    let real = shared().join("corpus/real");
    if !real.is_dir() {
        panic!("shared corpus not found at {}; set APCHECK_SHARED", real.display());
    }
    let output = apcheck(&["check", "--format", "json", path_str(&real)]).output();
    assert_ne!(code(&output), 2, "{}", String::from_utf8_lossy(&output.stderr));
    let reports = reports(&output);
    let count = fs::read_dir(&real)
        .unwrap()
        .filter_map(Result::ok)
        .filter(|e| e.path().join("plugin.json").exists())
        .count();
    assert_eq!(reports.as_array().map(Vec::len), Some(count));
}

#[test]
fn text_ends_with_a_summary_line_per_root() {
    let dir = tempfile::tempdir().unwrap();
    write_files(dir.path(), &[("plugin.json", &manifest("demo"))]);
    let root = path_str(dir.path());
    let text = stdout(&apcheck(&["check", root]).output());
    let last = text.lines().last().unwrap();
    assert!(last.starts_with(&format!("{root}: ")), "{text}");
    assert!(last.contains(" — ") && last.contains("error"), "{text}");
    assert!(
        !text.contains('\u{1b}'),
        "no colour when stdout is not a terminal: {text}"
    );
}

#[test]
fn sarif_validates_against_the_official_schema() {
    let dir = tempfile::tempdir().unwrap();
    write_files(dir.path(), &[("plugin.json", "{\"name\": \"Bad Name\"}")]);
    let empty = tempfile::tempdir().unwrap();
    let log = json(
        &apcheck(&[
            "check",
            "--format",
            "sarif",
            path_str(dir.path()),
            path_str(empty.path()),
        ])
        .output(),
    );
    let schema_path = repo().join("tests/data/sarif-schema-2.1.0.json");
    let schema: Value = serde_json::from_str(&fs::read_to_string(schema_path).unwrap()).unwrap();
    let validator = jsonschema::validator_for(&schema).expect("the SARIF schema compiles");
    let errors: Vec<String> = validator
        .iter_errors(&log)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{errors:#?}\n{log:#}");
    assert_eq!(log["version"], "2.1.0");
    let run = &log["runs"][0];
    assert_eq!(run["tool"]["driver"]["name"], "apcheck");
    // The descriptors are those of the cited rules, each once, and every result's
    // `ruleIndex` points at its own rule's descriptor.
    let rules: Vec<&str> = run["tool"]["driver"]["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|rule| rule["id"].as_str().unwrap())
        .collect();
    let mut cited: Vec<&str> = run["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|result| result["ruleId"].as_str().unwrap())
        .collect();
    cited.sort_unstable();
    cited.dedup();
    let mut listed = rules.clone();
    listed.sort_unstable();
    assert_eq!(listed, cited);
    for result in run["results"].as_array().unwrap() {
        let index = result["ruleIndex"].as_u64().unwrap() as usize;
        assert_eq!(rules[index], result["ruleId"], "{result}");
    }
    let base = run["originalUriBaseIds"]["%SRCROOT%"]["uri"].as_str().unwrap();
    assert!(base.starts_with("file:///") && base.ends_with('/'), "{base}");
    // Absolute roots as given: absolute `file:` URIs, which GitHub maps into the checkout.
    let location = &run["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"];
    let uri = location["uri"].as_str().unwrap();
    assert!(
        uri.starts_with("file:///") && uri.ends_with("/plugin.json"),
        "{location}"
    );
}

/// `--no-sarif-base` leaves out the one machine-specific part of the log (the
/// working directory as `originalUriBaseIds`): the URIs stay relative to the
/// working directory, so two checkouts in different places give the same bytes.
#[test]
fn no_sarif_base_gives_the_same_log_wherever_the_checkout_is() {
    let logs: Vec<String> = (0..2)
        .map(|_| {
            let checkout = tempfile::tempdir().unwrap();
            write_files(
                &checkout.path().join("pkg"),
                &[("plugin.json", "{\"name\": \"Bad Name\"}")],
            );
            let output = apcheck(&["check", "pkg", "--format", "sarif", "--no-sarif-base"])
                .current_dir(checkout.path())
                .output();
            assert_eq!(code(&output), 1);
            stdout(&output)
        })
        .collect();
    assert_eq!(logs[0], logs[1]);
    let log: Value = serde_json::from_str(&logs[0]).unwrap();
    let run = &log["runs"][0];
    assert!(run.get("originalUriBaseIds").is_none(), "{run:#}");
    let location = &run["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"];
    assert_eq!(location["uri"], "pkg/plugin.json");
    assert_eq!(location["uriBaseId"], "%SRCROOT%");
}

#[test]
fn rules_and_explain_speak_text_and_json() {
    let output = apcheck(&["rules"]).output();
    assert_eq!(code(&output), 0);
    assert!(stdout(&output).starts_with("CODE"));
    let rules = json(&apcheck(&["rules", "--format", "json"]).output());
    let rules = rules.as_array().expect("an array of rules");
    for rule in rules {
        let rule_code = rule["code"].as_str().unwrap();
        let explained = apcheck(&["explain", rule_code, "--format", "json"]).output();
        assert_eq!(code(&explained), 0);
        assert_eq!(json(&explained)["code"], rule_code);
        assert!(stdout(&apcheck(&["explain", rule_code]).output()).starts_with(rule_code));
    }
}

// ---- verdicts: these need the real manifest rules (branch `package`) ----

#[test]
fn a_conformant_plugin_loads_and_exits_0() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        dir.path(),
        &[
            ("plugin.json", &manifest("demo")),
            (
                "skills/summarize/SKILL.md",
                "---\nname: summarize\ndescription: Summarize a document.\n---\n\nRead the text, then summarize it.\n",
            ),
        ],
    );
    let output = apcheck(&["check", "--format", "json", path_str(dir.path())]).output();
    let report = report(&output);
    assert_eq!(report["plugin"]["state"], "loaded", "{report:#}");
    assert_eq!(report["plugin"]["name"], "demo");
    assert_eq!(report["summary"]["errors"], 0, "{report:#}");
    assert_eq!(code(&output), 0);
}

#[test]
fn an_invalid_name_rejects_the_plugin_and_exits_1() {
    // §5.5: uppercase letters and spaces are not allowed in a plugin name.
    let dir = tempfile::tempdir().unwrap();
    write_files(dir.path(), &[("plugin.json", &manifest("Bad Name"))]);
    let root = path_str(dir.path());
    let output = apcheck(&["check", "--format", "json", root]).output();
    assert_eq!(code(&output), 1);
    let report = report(&output);
    assert_eq!(report["plugin"]["state"], "rejected");
    let diagnostic = &report["diagnostics"][0];
    assert_eq!(diagnostic["severity"], "error");
    assert_eq!(diagnostic["file"], "plugin.json");
    assert_eq!(diagnostic["line"], 3, "{report:#}");

    let text = stdout(&apcheck(&["check", root]).output());
    assert!(text.contains(&format!("{root}/plugin.json:3:")), "{text}");
    assert!(
        text.contains("\"name\": \"Bad Name\""),
        "the snippet quotes the line: {text}"
    );
    assert!(text.contains('^'), "a caret marks the span: {text}");

    let github = stdout(&apcheck(&["check", "--format", "github", root]).output());
    let first = github.lines().next().unwrap();
    assert!(
        first.starts_with(&format!("::error file={root}/plugin.json,line=3,col=")),
        "{github}"
    );
    assert!(first.contains(",title=AP2"), "{github}");

    let markdown = stdout(&apcheck(&["check", "--format", "markdown", root]).output());
    assert!(markdown.contains("| Plugin | rejected |"), "{markdown}");
}

#[test]
fn a_missing_manifest_rejects_the_plugin_and_exits_1() {
    // §4.1, §5.1: a plugin MUST include `plugin.json` at its root.
    let dir = tempfile::tempdir().unwrap();
    write_files(
        dir.path(),
        &[("skills/a/SKILL.md", "---\nname: a\ndescription: d\n---\n")],
    );
    let output = apcheck(&["check", "--format", "json", path_str(dir.path())]).output();
    assert_eq!(code(&output), 1, "{}", stdout(&output));
    assert_eq!(report(&output)["plugin"]["state"], "rejected");
}

#[test]
fn deny_warnings_turns_warnings_into_failure() {
    // §5.2: an unknown top-level field is reported and ignored; the plugin still loads.
    let dir = tempfile::tempdir().unwrap();
    let with_unknown =
        format!("{{\n  \"$schema\": \"{SCHEMA_1_0_0}\",\n  \"name\": \"demo\",\n  \"hooks\": {{}}\n}}\n");
    write_files(dir.path(), &[("plugin.json", &with_unknown)]);
    let root = path_str(dir.path());
    let output = apcheck(&["check", "--format", "json", root]).output();
    let report = report(&output);
    assert_eq!(report["plugin"]["state"], "loaded", "{report:#}");
    assert!(report["summary"]["warnings"].as_u64().unwrap() > 0, "{report:#}");
    assert_eq!(code(&output), 0);
    assert_eq!(code(&apcheck(&["check", "--deny", "warnings", root]).output()), 1);
}

#[test]
fn one_failing_root_fails_the_whole_run() {
    let dir = tempfile::tempdir().unwrap();
    let (good, bad) = (dir.path().join("good"), dir.path().join("bad"));
    write_files(&good, &[("plugin.json", &manifest("good"))]);
    write_files(&bad, &[("plugin.json", "{\"name\": 3}")]);
    let output = apcheck(&["check", path_str(&good), path_str(&bad)]).output();
    assert_eq!(code(&output), 1);
    let text = stdout(&output);
    assert!(text.contains("2 plugins: 1 loaded, 1 rejected"), "{text}");
}

#[test]
fn no_format_ever_prints_a_credential() {
    // §9.2: `env` and header values are visible package data; a credential
    // there is reported (AP5xx) and must not be copied into CI logs by us.
    let token = "ghp_1234567890abcdefghijABCDEFGHIJ123456";
    let mcp = format!(
        "{{\n  \"$schema\": \"https://agent-plugins.org/schemas/1.0.0/mcp.schema.json\",\n  \"mcpServers\": {{\n    \
         \"gh\": {{ \"type\": \"stdio\", \"command\": \"npx\", \"bogus\": 1, \"env\": {{ \"GITHUB_TOKEN\": \"{token}\" }} }}\n  }}\n}}\n"
    );
    let dir = tempfile::tempdir().unwrap();
    write_files(dir.path(), &[("plugin.json", &manifest("demo")), ("mcp.json", &mcp)]);
    let root = path_str(dir.path());
    let report = report(&apcheck(&["check", "--format", "json", root]).output());
    let codes = diagnostic_codes(&report);
    assert!(
        codes.iter().any(|c| c.starts_with("AP5")),
        "the token is found: {codes:?}"
    );
    assert!(
        codes.iter().any(|c| !c.starts_with("AP5")),
        "another finding shares its line: {codes:?}"
    );
    for format in ["text", "json", "sarif", "github", "markdown"] {
        let out = stdout(&apcheck(&["check", "--format", format, "--color", "always", root]).output());
        assert!(!out.contains(&token[4..20]), "{format} leaks the token:\n{out}");
    }
}

#[test]
fn relative_roots_give_repository_relative_paths() {
    // Run from a "repository" with the plugin in a subdirectory, as CI does.
    let repo = tempfile::tempdir().unwrap();
    write_files(repo.path(), &[("plugins/bad/plugin.json", &manifest("Bad Name"))]);
    let run = |format: &str| {
        apcheck(&["check", "--format", format, "plugins/bad"])
            .current_dir(repo.path())
            .output()
    };
    let log = json(&run("sarif"));
    let location = &log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"];
    assert_eq!(location["uri"], "plugins/bad/plugin.json", "{log:#}");
    assert_eq!(location["uriBaseId"], "%SRCROOT%");
    let github = stdout(&run("github"));
    assert!(
        github.starts_with("::error file=plugins/bad/plugin.json,line=3,"),
        "{github}"
    );
}

#[cfg(target_os = "linux")]
#[test]
fn a_failed_write_is_an_io_failure() {
    let dir = tempfile::tempdir().unwrap();
    write_files(dir.path(), &[("plugin.json", &manifest("demo"))]);
    let full = fs::OpenOptions::new().write(true).open("/dev/full").unwrap();
    let status = apcheck(&["check", path_str(dir.path())])
        .command()
        .stdout(full)
        .stderr(std::process::Stdio::null())
        .status()
        .unwrap();
    assert_eq!(status.code(), Some(2));
}

/// §6.2, read from a real disk: `skills` and `mcp.json` present as links that
/// resolve to nothing make those components invalid (reported), not absent.
#[cfg(unix)]
#[test]
fn fixed_locations_linked_to_nothing_are_invalid_not_absent() {
    let dir = tempfile::tempdir().unwrap();
    write_files(dir.path(), &[("plugin.json", &manifest("demo"))]);
    std::os::unix::fs::symlink("gone", dir.path().join("skills")).unwrap();
    std::os::unix::fs::symlink("gone.json", dir.path().join("mcp.json")).unwrap();
    let output = apcheck(&["check", "--format", "json", path_str(dir.path())]).output();
    let report = report(&output);
    assert_eq!(code(&output), 1, "{report}");
    assert_eq!(report["plugin"]["state"], "loaded", "{report}");
    let codes = diagnostic_codes(&report);
    assert_eq!(codes, ["AP006", "AP301"], "{report}");
    assert_ne!(report["skills"]["state"], "absent", "{report}");
    assert_ne!(report["mcp"]["state"], "absent", "{report}");
}

#[test]
fn links_out_of_the_root_from_a_skill_folder_are_reported_and_the_skill_still_loads() {
    // §4.1 boundary 5: a package path outside the root is denied; the skill is not skipped.
    let outside = tempfile::tempdir().unwrap();
    write_files(outside.path(), &[("secret.txt", "not shipped\n")]);
    let dir = tempfile::tempdir().unwrap();
    write_files(
        dir.path(),
        &[
            ("plugin.json", &manifest("demo")),
            (
                "skills/review/SKILL.md",
                "---\nname: review\ndescription: Reviews code. Use when asked for a review.\n---\n",
            ),
        ],
    );
    let references = dir.path().join("skills/review/references");
    std::os::unix::fs::symlink(outside.path(), &references).unwrap();
    std::os::unix::fs::symlink("../../plugin.json", dir.path().join("skills/review/inside.json")).unwrap();
    let output = apcheck(&["check", "--format", "json", path_str(dir.path())]).output();
    let report = report(&output);
    assert_eq!(diagnostic_codes(&report), ["AP103"], "{report}");
    assert_eq!(report["diagnostics"][0]["file"], "skills/review/references", "{report}");
    assert_eq!(report["skills"]["entries"][0]["state"], "discovered", "{report}");
    // A warning: the check passes unless warnings are made to fail it.
    assert_eq!(code(&output), 0, "{report}");
}

/// A root with a warning (an unknown top-level key, §5.1: reported and
/// ignored) and a root the client rejects (no `$schema`, §5.2).
fn warned_and_rejected(dir: &Path) -> (String, String) {
    let warned = dir.join("warned");
    let rejected = dir.join("rejected");
    let extra = format!("{{\n  \"$schema\": \"{SCHEMA_1_0_0}\",\n  \"name\": \"warned\",\n  \"x-extra\": 1\n}}\n");
    write_files(&warned, &[("plugin.json", &extra)]);
    write_files(&rejected, &[("plugin.json", "{\"name\": \"rejected\"}\n")]);
    (path_str(&warned).to_string(), path_str(&rejected).to_string())
}

#[test]
fn one_run_writes_each_format_to_its_file_and_the_primary_to_stdout() {
    let dir = tempfile::tempdir().unwrap();
    let (warned, rejected) = warned_and_rejected(dir.path());
    let sarif = dir.path().join("out.sarif");
    let markdown = dir.path().join("summary.md");
    let output = apcheck(&[
        "check",
        "--format",
        &format!("sarif:{}", path_str(&sarif)),
        "--format",
        &format!("markdown:{}", path_str(&markdown)),
        "--format",
        "json",
        &warned,
        &rejected,
    ])
    .output();
    assert_eq!(code(&output), 1);
    let stdout_report = reports(&output);
    assert_eq!(stdout_report.as_array().unwrap().len(), 2);
    let sarif: Value = serde_json::from_slice(&fs::read(&sarif).unwrap()).unwrap();
    assert_eq!(sarif["version"], "2.1.0");
    // The same findings in both: the run checked once.
    let sarif_results = sarif["runs"][0]["results"].as_array().unwrap().len();
    assert_eq!(sarif_results, finding_count(&stdout_report));
    let markdown = fs::read_to_string(&markdown).unwrap();
    assert!(markdown.contains("rejected"), "{markdown}");
    assert!(!markdown.contains('\u{1b}'), "a file never gets terminal colours");
}

#[test]
fn output_file_takes_the_primary_format_and_two_stdout_formats_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let (warned, _) = warned_and_rejected(dir.path());
    let file = dir.path().join("report.txt");
    let output = apcheck(&["check", "--color", "always", "-o", path_str(&file), &warned]).output();
    assert_eq!(code(&output), 0);
    assert!(output.stdout.is_empty());
    let text = fs::read_to_string(&file).unwrap();
    assert!(text.contains("warned: loaded"), "{text}");
    assert!(!text.contains('\u{1b}'), "{text}");

    let output = apcheck(&["check", "--format", "text", "--format", "json", &warned]).output();
    assert_eq!(code(&output), 2);
    assert!(output.stdout.is_empty());
    assert!(String::from_utf8_lossy(&output.stderr).contains("only one --format"));
    for bad in ["yaml", "sarif:", "yaml:out"] {
        let output = apcheck(&["check", "--format", bad, &warned]).output();
        assert_eq!(code(&output), 2, "--format {bad}");
    }
}

#[test]
fn statistics_count_findings_per_rule_instead_of_listing_them() {
    let dir = tempfile::tempdir().unwrap();
    let (warned, rejected) = warned_and_rejected(dir.path());
    let output = apcheck(&["check", "--statistics", &warned, &rejected]).output();
    assert_eq!(code(&output), 1, "statistics change what is printed, not the exit code");
    let text = stdout(&output);
    assert!(
        text.lines().last().unwrap().starts_with("2 findings in 2 packages"),
        "{text}"
    );
    assert!(
        text.contains("[*] schema-missing"),
        "AP203's fix is safe, so it is marked fixable: {text}"
    );
    assert!(!text.contains("-->"), "no finding is listed: {text}");
    let output = apcheck(&["check", "--statistics", "--format", "json", &warned, &rejected]).output();
    let counts = json(&output);
    let total: u64 = counts
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["count"].as_u64().unwrap())
        .sum();
    let full = reports(&apcheck(&["check", "--format", "json", &warned, &rejected]).output());
    assert_eq!(total as usize, finding_count(&full));
    let output = apcheck(&["check", "--statistics", "--format", "sarif", &warned]).output();
    assert_eq!(code(&output), 2);
}

#[test]
fn quiet_prints_the_findings_without_summary_lines() {
    let dir = tempfile::tempdir().unwrap();
    let (warned, _) = warned_and_rejected(dir.path());
    let loud = stdout(&apcheck(&["check", &warned]).output());
    let output = apcheck(&["check", "--quiet", &warned]).output();
    let quiet = stdout(&output);
    assert!(loud.contains("warned: loaded"), "{loud}");
    assert!(!quiet.contains("warned: loaded"), "{quiet}");
    assert!(quiet.contains("x-extra"), "the finding is still shown: {quiet}");
    assert!(
        loud.starts_with(quiet.trim_end()),
        "quiet is the loud output without its summary"
    );
}

#[test]
fn exit_zero_passes_findings_and_rejections_but_never_a_usage_failure() {
    let dir = tempfile::tempdir().unwrap();
    let (warned, rejected) = warned_and_rejected(dir.path());
    assert_eq!(code(&apcheck(&["check", &rejected]).output()), 1);
    assert_eq!(code(&apcheck(&["check", "--exit-zero", &rejected]).output()), 0);
    assert_eq!(
        code(&apcheck(&["check", "--exit-zero", "--deny", "warnings", &warned]).output()),
        0
    );
    let missing = dir.path().join("missing");
    assert_eq!(
        code(&apcheck(&["check", "--exit-zero", path_str(&missing)]).output()),
        2
    );
}
