//! Configuration end to end through the real binary: apcheck.toml and
//! pyproject.toml found above the checked path, `--config`, the rule flags,
//! overrides and excludes, errors at file:line:col, `config --show`, and
//! rules that decide a state staying decisive.

use std::path::Path;
use std::process::Output;

use serde_json::Value;

use crate::support::{apcheck, write_files};

const PLUGIN_SCHEMA: &str = "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json";

fn manifest(name: &str) -> String {
    format!("{{\"$schema\": \"{PLUGIN_SCHEMA}\", \"name\": \"{name}\"}}")
}

/// A skill whose description says what but never when: AP314 (info).
const VAGUE_SKILL: &str = "---\nname: pdf\ndescription: Extracts text from PDF files.\n---\nBody.\n";

/// A marketplace of two plugins, each with one AP314 finding and an unknown manifest field (AP205).
fn marketplace(dir: &Path) {
    for plugin in ["plugins/legacy/old", "plugins/new"] {
        let name = plugin.rsplit('/').next().unwrap();
        write_files(
            dir,
            &[
                (
                    &format!("{plugin}/plugin.json"),
                    &format!("{{\"$schema\": \"{PLUGIN_SCHEMA}\", \"name\": \"{name}\", \"category\": \"x\"}}"),
                ),
                (&format!("{plugin}/skills/pdf/SKILL.md"), VAGUE_SKILL),
            ],
        );
    }
}

fn codes(output: &Output) -> Vec<(String, String)> {
    let reports: Value = serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|e| panic!("JSON ({e}): {}", String::from_utf8_lossy(&output.stdout)));
    let reports = reports["packages"].as_array().cloned().expect("the report's packages");
    reports
        .iter()
        .flat_map(|report| {
            let root = report["root"].as_str().unwrap().to_string();
            report["diagnostics"]
                .as_array()
                .unwrap()
                .iter()
                .map(move |d| (root.clone(), d["code"].as_str().unwrap().to_string()))
                .collect::<Vec<_>>()
        })
        .collect()
}

#[test]
fn apcheck_toml_above_the_path_ignores_and_overrides() {
    let dir = tempfile::tempdir().unwrap();
    marketplace(dir.path());
    let before = codes(
        &apcheck(&["check", "--format", "json", "plugins"])
            .current_dir(dir.path())
            .output(),
    );
    assert_eq!(before.len(), 4, "{before:?}");
    write_files(
        dir.path(),
        &[(
            "apcheck.toml",
            "ignore = [\"AP314\"]\n\n[[overrides]]\npaths = [\"plugins/legacy/**\"]\nignore = [\"AP205\"]\n",
        )],
    );
    let after = codes(
        &apcheck(&["check", "--format", "json", "plugins"])
            .current_dir(dir.path())
            .output(),
    );
    assert_eq!(after, [("plugins/new".to_string(), "AP205".to_string())]);
    let text = apcheck(&["check", "plugins"]).current_dir(dir.path()).output();
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(text.contains("plugins/legacy/old: loaded"), "{text}");
    assert!(text.contains("(2 hidden by the configuration)"), "{text}");
    // The flags go on top of the file: --select replaces its selection.
    let only_skills = codes(
        &apcheck(&["check", "--format", "json", "--select", "AP3", "plugins"])
            .current_dir(dir.path())
            .output(),
    );
    assert_eq!(only_skills, Vec::<(String, String)>::new());
    let with_flag = codes(
        &apcheck(&["check", "--format", "json", "--extend-select", "AP314", "plugins"])
            .current_dir(dir.path())
            .output(),
    );
    assert_eq!(with_flag.iter().filter(|(_, code)| code == "AP314").count(), 2);
}

#[test]
fn severity_flags_and_tables_re_level_findings_and_the_exit_code_follows() {
    let dir = tempfile::tempdir().unwrap();
    marketplace(dir.path());
    assert_eq!(
        apcheck(&["check", "plugins/new"])
            .current_dir(dir.path())
            .output()
            .status
            .code(),
        Some(0)
    );
    let raised = apcheck(&["check", "--severity", "AP205=error", "plugins/new"])
        .current_dir(dir.path())
        .output();
    assert_eq!(raised.status.code(), Some(1));
    write_files(
        dir.path(),
        &[(
            "pyproject.toml",
            "[project]\nname = \"x\"\n\n[tool.apcheck.severity]\nAP205 = \"error\"\n",
        )],
    );
    assert_eq!(
        apcheck(&["check", "plugins/new"])
            .current_dir(dir.path())
            .output()
            .status
            .code(),
        Some(1)
    );
}

#[test]
fn ignoring_a_rule_that_rejects_hides_the_message_but_not_the_verdict() {
    let dir = tempfile::tempdir().unwrap();
    write_files(dir.path(), &[("p/plugin.json", &manifest("Bad Name"))]);
    let output = apcheck(&["check", "--format", "json", "--ignore", "AP209", "p"])
        .current_dir(dir.path())
        .output();
    let report: Value = serde_json::from_slice::<Value>(&output.stdout).unwrap()["packages"][0].take();
    assert_eq!(report["plugin"]["state"], "rejected");
    assert_eq!(report["diagnostics"], serde_json::json!([]));
    assert_eq!(report["summary"]["ignored"], 1);
    // The rejected plugin fails on its own, and every format says so.
    assert_eq!(output.status.code(), Some(1));
    for format in ["text", "github", "markdown", "sarif"] {
        let shown = apcheck(&["check", "--format", format, "--ignore", "AP209", "p"])
            .current_dir(dir.path())
            .output();
        assert_eq!(shown.status.code(), Some(1), "{format}");
        let text = String::from_utf8_lossy(&shown.stdout);
        assert!(text.contains("rejected"), "{format}: {text}");
    }
    let lowered = apcheck(&["check", "--severity", "AP209=warning", "p"])
        .current_dir(dir.path())
        .output();
    assert_eq!(lowered.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&lowered.stderr).contains("AP209 decides what a client loads"));
    let explained = apcheck(&["explain", "AP209"]).current_dir(dir.path()).output();
    assert!(String::from_utf8_lossy(&explained.stdout).contains("the verdict stays"));
}

#[test]
fn a_packages_own_configuration_cannot_pass_a_rejected_plugin() {
    // `ignore = ["AP"]` in the package's apcheck.toml used to hide every finding and exit 0.
    let dir = tempfile::tempdir().unwrap();
    write_files(
        dir.path(),
        &[
            ("p/plugin.json", "{\"name\": \"demo\"}"),
            ("p/apcheck.toml", "ignore = [\"AP\"]\n"),
        ],
    );
    let output = apcheck(&["check", "--format", "json", "p"])
        .current_dir(dir.path())
        .output();
    let report: Value = serde_json::from_slice::<Value>(&output.stdout).unwrap()["packages"][0].take();
    assert_eq!(report["plugin"]["state"], "rejected");
    assert_eq!(report["summary"]["errors"], 0);
    assert_eq!(output.status.code(), Some(1));
}

#[test]
fn configuration_errors_exit_2_naming_file_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    write_files(dir.path(), &[("p/plugin.json", &manifest("demo"))]);
    for (config, expected) in [
        (
            "select = [\"AP2\", \"AP99\"]\n",
            "apcheck.toml:1:18: `AP99` is not a rule code",
        ),
        (
            "\n[[overrides]]\npaths = [\"a/[\"]\n",
            "apcheck.toml:3:10: bad glob `a/[`",
        ),
        ("ignore = 3\n", "apcheck.toml:1:10: "),
    ] {
        write_files(dir.path(), &[("apcheck.toml", config)]);
        let output = apcheck(&["check", "p"]).current_dir(dir.path()).output();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{config}: {stderr}");
        assert!(stderr.contains(expected), "{config}: {stderr}");
    }
}

#[test]
fn config_flag_overrides_discovery_and_show_names_every_origin() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        dir.path(),
        &[
            ("p/plugin.json", &manifest("demo")),
            ("apcheck.toml", "ignore = [\"AP205\"]\n"),
            ("other.toml", "ignore = [\"AP314\"]\nbaseline = \"base.json\"\n"),
        ],
    );
    let shown = apcheck(&["config", "--show", "p"]).current_dir(dir.path()).output();
    let shown = String::from_utf8(shown.stdout).unwrap();
    assert!(shown.contains("apcheck.toml"), "{shown}");
    assert!(shown.contains("ignore += \"AP205\"  # "), "{shown}");
    let other = apcheck(&["config", "--show", "--config", "other.toml", "--ignore", "AP313", "p"])
        .current_dir(dir.path())
        .output();
    let other = String::from_utf8(other.stdout).unwrap();
    assert!(other.contains("ignore += \"AP314\"  # other.toml:1:11"), "{other}");
    assert!(other.contains("ignore += \"AP313\"  # --ignore"), "{other}");
    assert!(other.contains("baseline = \"base.json\"  # other.toml:2:12"), "{other}");
    assert!(!other.contains("AP205"), "{other}");
}

#[test]
fn collections_skip_excluded_and_gitignored_roots() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        dir.path(),
        &[
            ("plugins/a/plugin.json", &manifest("a")),
            ("plugins/vendored/b/plugin.json", &manifest("b")),
            ("plugins/build/c/plugin.json", &manifest("c")),
            (".gitignore", "build/\n"),
            ("apcheck.toml", "exclude = [\"plugins/vendored/**\"]\n"),
        ],
    );
    let output = apcheck(&["check", "--format", "json", "plugins"])
        .current_dir(dir.path())
        .output();
    let reports: Value = serde_json::from_slice::<Value>(&output.stdout).unwrap()["packages"].take();
    let roots: Vec<&str> = reports
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["root"].as_str().unwrap())
        .collect();
    assert_eq!(roots, ["plugins/a"]);
}
