//! `apcheck port`: the packages it makes from the corpus's vendor plugins and
//! from a fixture with every mappable field check without errors, and what
//! a check still finds is in the source (a skill copied byte for byte);
//! through the binary, the exit codes, the refusal of a non-empty DEST and
//! `--dry-run`.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use apcheck::disk::read_tree;
use apcheck::port::{PortOptions, Ported, Vendor, port};
use apcheck::tree::Limits;
use apcheck::{Severity, check_package};
use serde_json::{Value, json};

use crate::support::{apcheck, repo, shared};

fn fixture() -> PathBuf {
    repo().join("tests/fixtures/port/claude")
}

fn port_dir(root: &Path, from: Option<Vendor>) -> Ported {
    let tree = read_tree(root, Limits::default()).expect("the source is readable");
    let options = PortOptions { from, name: None };
    port(&tree, &options).unwrap_or_else(|why| panic!("{}: {why}", root.display()))
}

/// Every finding a check of the package has is in a skill file that is the
/// source's, byte for byte, or is the legacy SSE transport the source chose.
fn assert_only_inherited(root: &Path, ported: &Ported) {
    let files: BTreeMap<&str, &[u8]> = ported.files.iter().map(|(p, b)| (p.as_str(), b.as_slice())).collect();
    for finding in &ported.findings {
        let where_ = format!(
            "{} ({:?}): {} {}",
            root.display(),
            ported.vendor,
            finding.code,
            finding.message
        );
        assert_ne!(finding.severity, Severity::Error, "{where_}");
        let file = finding.file.as_deref().expect("a finding names its file");
        if finding.code == "AP417" {
            assert_eq!(file, "mcp.json", "{where_}");
            continue;
        }
        assert!(file.starts_with("skills/"), "{where_}");
        let source = fs::read(root.join(file)).expect("the skill file is the source's");
        assert_eq!(files[file], source.as_slice(), "{where_}");
    }
}

/// A skill of the source is in the package, or a note says why not.
fn assert_every_skill_ported_or_noted(root: &Path, ported: &Ported) {
    let Ok(folders) = fs::read_dir(root.join("skills")) else {
        return;
    };
    for folder in folders {
        let name = folder.unwrap().file_name().into_string().unwrap();
        let skill_md = format!("skills/{name}/SKILL.md");
        if !root.join(&skill_md).is_file() {
            continue;
        }
        let written = ported.files.iter().any(|(file, _)| *file == skill_md);
        let noted = ported.notes.iter().any(|note| note.file == skill_md);
        assert!(
            written != noted,
            "{}: {skill_md} written {written}, noted {noted}",
            root.display()
        );
    }
}

#[test]
fn every_vendor_plugin_of_the_corpus_ports_to_a_package_without_errors() {
    let corpus = shared().join("corpus");
    let index = fs::read_to_string(corpus.join("INDEX.tsv")).expect("INDEX.tsv is readable");
    let mut ported_roots = BTreeMap::new();
    for line in index.lines().skip(1) {
        let dir = line.split('\t').next().unwrap();
        let root = corpus.join(dir);
        for vendor in Vendor::ALL {
            if !root.join(vendor.manifest()).is_file() {
                continue;
            }
            let ported = port_dir(&root, Some(vendor));
            assert_eq!(ported.vendor, vendor);
            assert_only_inherited(&root, &ported);
            assert_every_skill_ported_or_noted(&root, &ported);
            // The check of the files as written agrees with the one port ran.
            let tree = apcheck::Tree::from_files(ported.files.iter().map(|(p, b)| (p.as_str(), b.as_slice())));
            let name = dir.rsplit('/').next().unwrap();
            assert_eq!(check_package(name, &tree).diagnostics.len(), ported.findings.len());
            *ported_roots.entry(vendor.name()).or_insert(0) += 1;
        }
    }
    // Claude Code is the layout most roots have; each other one is there too.
    assert!(ported_roots["claude"] >= 15, "{ported_roots:?}");
    assert!(
        Vendor::ALL
            .iter()
            .all(|vendor| ported_roots.contains_key(vendor.name())),
        "{ported_roots:?}"
    );
}

fn read_json(ported: &Ported, path: &str) -> Value {
    let (_, bytes) = ported.files.iter().find(|(file, _)| file == path).expect("written");
    serde_json::from_slice(bytes).unwrap()
}

#[test]
fn the_fixture_with_every_mappable_field_ports_whole() {
    let root = fixture();
    let ported = port_dir(&root, None);
    assert_eq!(ported.vendor, Vendor::Claude);
    assert_eq!(
        read_json(&ported, "plugin.json"),
        json!({
            "$schema": "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json",
            "name": "release-tools",
            "version": "2.1.0",
            "description": "Drafts release notes from merged changes.",
            "author": {"name": "Example Maintainers", "email": "maintainers@example.com", "url": "https://example.com/team"},
            "homepage": "https://example.com/release-tools",
            "repository": "https://github.com/example/release-tools",
            "license": "MIT",
            "keywords": ["release", "changelog"]
        })
    );
    assert_eq!(
        read_json(&ported, "mcp.json"),
        json!({
            "$schema": "https://agent-plugins.org/schemas/1.0.0/mcp.schema.json",
            "mcpServers": {
                "changes": {
                    "type": "stdio",
                    "command": "./bin/changes",
                    "args": ["--cache", "${PLUGIN_DATA}/cache", "--config", "${PLUGIN_ROOT}/changes.toml"],
                    "env": {"CHANGES_HOME": "${PLUGIN_ROOT}"}
                },
                "tracker": {"type": "streamable-http", "url": "https://tracker.example.com/mcp", "headers": {"X-Tenant": "public"}},
                "feed": {"type": "sse", "url": "https://feed.example.com/sse"}
            }
        })
    );
    let written: Vec<&str> = ported.files.iter().map(|(file, _)| file.as_str()).collect();
    assert_eq!(
        written,
        [
            "LICENSE",
            "bin/changes",
            "changes.toml",
            "mcp.json",
            "plugin.json",
            "skills/release-notes/SKILL.md",
            "skills/release-notes/references/style.md",
            "skills/release-notes/scripts/collect.sh"
        ]
    );
    let noted: Vec<String> = ported
        .notes
        .iter()
        .map(|note| format!("{}#{}", note.file, note.pointer))
        .collect();
    assert_eq!(
        noted,
        [
            ".claude-plugin/plugin.json#/displayName",
            ".claude-plugin/plugin.json#/commands",
            ".claude-plugin/plugin.json#/agents",
            ".claude-plugin/plugin.json#/hooks",
            ".claude-plugin/plugin.json#/outputStyles",
            ".mcp.json#/mcpServers/changes/env/GITHUB_TOKEN",
            ".mcp.json#/mcpServers/changes/timeout",
            ".mcp.json#/mcpServers/tracker/headers/Authorization",
            ".mcp.json#/mcpServers/mystery",
            "skills/notes#",
            "README.md#",
            "agents#",
            "commands#",
        ]
    );
    // The one finding is the source's own choice of the legacy transport.
    let codes: Vec<&str> = ported.findings.iter().map(|finding| finding.code).collect();
    assert_eq!(codes, ["AP417"]);
    assert_only_inherited(&root, &ported);
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn the_cli_writes_the_package_which_checks_without_errors_and_keeps_scripts_executable() {
    let dir = tempfile::tempdir().unwrap();
    let dest = dir.path().join("out");
    let source = fixture();
    let output = apcheck(&["port", source.to_str().unwrap(), "-o", dest.to_str().unwrap()]).output();
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let stdout = text(&output.stdout);
    assert!(
        stdout
            .lines()
            .any(|line| line.ends_with("out/skills/release-notes/SKILL.md")),
        "{stdout}"
    );
    let stderr = text(&output.stderr);
    assert!(
        stderr.contains("not carried over: .mcp.json#/mcpServers/mystery:"),
        "{stderr}"
    );
    assert!(stderr.contains("wrote 8 files from the Claude Code plugin"), "{stderr}");
    assert_eq!(
        fs::read(dest.join("skills/release-notes/SKILL.md")).unwrap(),
        fs::read(source.join("skills/release-notes/SKILL.md")).unwrap()
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = |path: &Path| fs::metadata(path).unwrap().permissions().mode() & 0o111;
        assert_eq!(mode(&dest.join("bin/changes")), mode(&source.join("bin/changes")));
    }
    let check = apcheck(&["check", dest.to_str().unwrap()]).output();
    assert_eq!(check.status.code(), Some(0), "{}", text(&check.stdout));

    // A second run refuses the folder it filled, and writes nothing.
    let before = fs::read(dest.join("plugin.json")).unwrap();
    let again = apcheck(&["port", source.to_str().unwrap(), "-o", dest.to_str().unwrap()]).output();
    assert_eq!(again.status.code(), Some(2));
    assert!(text(&again.stderr).contains("not empty"), "{}", text(&again.stderr));
    fs::write(dest.join("plugin.json"), "{}").unwrap();
    let forced = apcheck(&[
        "port",
        source.to_str().unwrap(),
        "-o",
        dest.to_str().unwrap(),
        "--force",
    ])
    .output();
    assert_eq!(forced.status.code(), Some(0), "{}", text(&forced.stderr));
    assert_eq!(fs::read(dest.join("plugin.json")).unwrap(), before);
}

#[test]
fn dry_run_lists_the_files_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let dest = dir.path().join("out");
    let output = apcheck(&[
        "port",
        fixture().to_str().unwrap(),
        "-o",
        dest.to_str().unwrap(),
        "--dry-run",
    ])
    .output();
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    assert_eq!(text(&output.stdout).lines().count(), 8);
    assert!(text(&output.stderr).contains("would write 8 files"));
    assert!(!dest.exists());
}

#[test]
fn a_folder_without_a_vendor_plugin_exits_1_and_an_unreadable_one_2() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("plugin.json"), "{}").unwrap();
    let dest = dir.path().join("out");
    let none = apcheck(&["port", dir.path().to_str().unwrap(), "-o", dest.to_str().unwrap()]).output();
    assert_eq!(none.status.code(), Some(1));
    assert!(text(&none.stderr).contains("nothing to port"), "{}", text(&none.stderr));
    assert!(!dest.exists());
    let missing = dir.path().join("no-such-folder");
    let unreadable = apcheck(&["port", missing.to_str().unwrap(), "-o", dest.to_str().unwrap()]).output();
    assert_eq!(unreadable.status.code(), Some(2));
}

#[test]
fn a_name_with_control_characters_cannot_forge_an_output_line() {
    let dir = tempfile::tempdir().unwrap();
    let source = dir.path().join("src");
    let skill = source.join("skills/evil\n::error::forged");
    fs::create_dir_all(&skill).unwrap();
    fs::create_dir_all(source.join(".claude-plugin")).unwrap();
    fs::write(
        source.join(".claude-plugin/plugin.json"),
        r#"{"name": "p", "x\u001b[31m": 1}"#,
    )
    .unwrap();
    fs::write(skill.join("SKILL.md"), "---\nname: evil\ndescription: x\n---\n").unwrap();
    let dest = dir.path().join("out\n::error::forged");
    let output = apcheck(&[
        "port",
        source.to_str().unwrap(),
        "-o",
        dest.to_str().unwrap(),
        "--dry-run",
    ])
    .output();
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let (stdout, stderr) = (text(&output.stdout), text(&output.stderr));
    for stream in [&stdout, &stderr] {
        assert!(!stream.contains('\u{1b}'), "{stream}");
        assert!(!stream.lines().any(|line| line.starts_with("::error::")), "{stream}");
        assert!(stream.contains("\\u{a}::error::forged"), "{stream}");
    }
    assert!(stderr.contains("x\\u{1b}[31m"), "{stderr}");
}
