//! `apcheck new` through the real binary: the package it writes checks clean
//! with the real `apcheck check`, a second run refuses to overwrite, and names
//! the rules reject are usage errors that write nothing.

use std::fs;

use serde_json::Value;

use crate::support::{apcheck, stderr};

#[test]
fn the_written_package_checks_clean_and_loads_everything_named() {
    let dir = tempfile::tempdir().unwrap();
    let output = apcheck(&[
        "new",
        "plugins/invoice-ops",
        "--skill",
        "pdf-tools",
        "--skill",
        "ledger",
        "--stdio-server",
        "tools",
        "uvx invoice-tools --db 'my ledger.db'",
        "--http-server",
        "remote",
        "https://mcp.example.com/mcp",
    ])
    .current_dir(dir.path())
    .output();
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let root = dir.path().join("plugins/invoice-ops");
    for file in [
        "plugin.json",
        "mcp.json",
        "skills/pdf-tools/SKILL.md",
        "skills/ledger/SKILL.md",
    ] {
        assert!(root.join(file).is_file(), "{file} is written");
    }
    let manifest: Value = serde_json::from_str(&fs::read_to_string(root.join("plugin.json")).unwrap()).unwrap();
    assert_eq!(manifest["name"], "invoice-ops", "the last part of the path is the name");
    let mcp: Value = serde_json::from_str(&fs::read_to_string(root.join("mcp.json")).unwrap()).unwrap();
    // The command line is split as a shell would: one command token, args with their boundaries (§7.2.1).
    assert_eq!(mcp["mcpServers"]["tools"]["command"], "uvx");
    assert_eq!(
        mcp["mcpServers"]["tools"]["args"],
        serde_json::json!(["invoice-tools", "--db", "my ledger.db"])
    );
    let skill = fs::read_to_string(root.join("skills/pdf-tools/SKILL.md")).unwrap();
    assert!(skill.starts_with("---\nname: pdf-tools\ndescription: "), "{skill}");
    assert!(skill.contains("Use when"), "the description says when: {skill}");

    // The real check, every rule on (info level too): nothing.
    let check = apcheck(&["check", "--format", "json", "plugins/invoice-ops"])
        .current_dir(dir.path())
        .output();
    assert_eq!(check.status.code(), Some(0), "{}", stderr(&check));
    let report: Value = serde_json::from_slice::<Value>(&check.stdout).unwrap()["packages"][0].take();
    assert_eq!(report["diagnostics"], serde_json::json!([]), "{report}");
    assert_eq!(report["plugin"]["state"], "loaded");
    assert_eq!(report["summary"]["skills_discovered"], 2, "{report}");
    assert_eq!(report["summary"]["servers_valid"], 2, "{report}");
}

#[test]
fn a_second_run_refuses_to_overwrite() {
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(
        apcheck(&["new", "demo"]).current_dir(dir.path()).output().status.code(),
        Some(0)
    );
    let manifest = fs::read_to_string(dir.path().join("demo/plugin.json")).unwrap();
    let again = apcheck(&["new", "demo", "--skill", "extra"])
        .current_dir(dir.path())
        .output();
    assert_eq!(again.status.code(), Some(2));
    assert!(stderr(&again).contains("never overwrites"), "{}", stderr(&again));
    assert_eq!(
        fs::read_to_string(dir.path().join("demo/plugin.json")).unwrap(),
        manifest
    );
    assert!(!dir.path().join("demo/skills").exists());
    // A file in the way is refused as well; an empty directory is used.
    fs::write(dir.path().join("taken"), "x").unwrap();
    assert_eq!(
        apcheck(&["new", "taken"])
            .current_dir(dir.path())
            .output()
            .status
            .code(),
        Some(2)
    );
    fs::create_dir(dir.path().join("empty")).unwrap();
    assert_eq!(
        apcheck(&["new", "empty"])
            .current_dir(dir.path())
            .output()
            .status
            .code(),
        Some(0)
    );
}

#[test]
fn bad_names_are_usage_errors_that_write_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let cases: &[(&[&str], &str)] = &[
        (&["new", "Invoice_Ops"], "AP209"),
        (&["new", "demo", "--skill", "PDF Tools"], "AP308"),
        (
            &["new", "demo", "--skill", "a", "--skill", "a"],
            "--skill a is given twice",
        ),
        (
            &[
                "new",
                "demo",
                "--stdio-server",
                "s",
                "uvx",
                "--stdio-server",
                "s",
                "npx",
            ],
            "the server id s is given twice",
        ),
        (
            &["new", "demo", "--stdio-server", "s", "uvx 'open"],
            "not a command line",
        ),
        (&["new", "demo", "--http-server", "s", "not a url"], "AP4"),
    ];
    for (args, expected) in cases {
        let output = apcheck(args).current_dir(dir.path()).output();
        assert_eq!(output.status.code(), Some(2), "{args:?}: {}", stderr(&output));
        assert!(stderr(&output).contains(expected), "{args:?}: {}", stderr(&output));
        // Each finding on a line of its own, never an escaped line break.
        assert!(!stderr(&output).contains("\\u{a}"), "{args:?}: {}", stderr(&output));
        assert!(
            stderr(&output).lines().all(|line| line.starts_with("apcheck: ")),
            "{}",
            stderr(&output)
        );
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 0, "{args:?} wrote nothing");
    }
    // Missing values are clap's usage errors, exit 2 too.
    assert_eq!(
        apcheck(&["new"]).current_dir(dir.path()).output().status.code(),
        Some(2)
    );
    assert_eq!(
        apcheck(&["new", "demo", "--stdio-server", "s"])
            .current_dir(dir.path())
            .output()
            .status
            .code(),
        Some(2)
    );
}
