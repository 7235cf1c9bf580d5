//! After the check, plugin.json and mcp.json are not read again: the snapshot
//! build, drift, the live findings and the secrets `--failed` masks read the
//! typed package the check returned (`PackageReport::package`). Each is run
//! here with the packaging files gone, and gives what it gives with them.

use std::time::Duration;

use apcheck::check_package;
use apcheck::live::{self, Attempt, Listed};
use apcheck::snapshot::build::build_snapshot;
use apcheck::snapshot::drift::{drift, drift_checked};
use apcheck::tree::Tree;

const PLUGIN_JSON: &str =
    r#"{"$schema": "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json", "name": "demo", "version": "1.0.0"}"#;
const MCP_JSON: &str = r#"{
  "$schema": "https://agent-plugins.org/schemas/1.0.0/mcp.schema.json",
  "mcpServers": {
    "local": {"type": "stdio", "command": "node", "args": ["${PLUGIN_ROOT}/server.js"], "env": {"API_TOKEN": "tok-local-123456"}, "cwd": "${PLUGIN_DATA}/work"},
    "api": {"type": "streamable-http", "url": "https://api.example.com/mcp", "headers": {"Authorization": "Bearer hdr-secret-abcdef"}},
    "stale": {"type": "sse", "url": "https://events.example.com/sse", "status": "connected"}
  }
}
"#;
const SKILL_MD: &str =
    "---\nname: summary\ndescription: Writes the weekly summary. Use when asked for one.\n---\n# Summary\n";

/// Every file of the package but the two packaging files.
const OTHERS: &[(&str, &str)] = &[("skills/summary/SKILL.md", SKILL_MD), ("server.js", "")];

fn whole() -> Tree {
    let mut files = vec![("plugin.json", PLUGIN_JSON), ("mcp.json", MCP_JSON)];
    files.extend_from_slice(OTHERS);
    Tree::from_files(files)
}

fn attempt(id: &str, transport: &str, outcome: Result<Listed, String>) -> Attempt {
    Attempt {
        id: id.into(),
        transport: transport.into(),
        outcome,
        elapsed: Duration::from_millis(7),
        stderr: String::new(),
    }
}

#[test]
fn nothing_after_the_check_reads_plugin_json_or_mcp_json() {
    let tree = whole();
    let report = check_package("demo", &tree);
    let text = build_snapshot(&report, &[]).expect("the plugin loads").to_pretty_json();
    let with_files = drift("snapshot.json", &text, "demo", &tree);
    drop(tree);
    let without = Tree::from_files(OTHERS.iter().copied());
    assert!(without.read("plugin.json").is_none() && without.read("mcp.json").is_none());

    // Drift: the same rows and findings, runtime state in mcp.json included,
    // placed in mcp.json where it was.
    let from_package = drift_checked("snapshot.json", &text, "demo", &without, &report);
    assert_eq!(
        serde_json::to_value(&from_package).unwrap(),
        serde_json::to_value(&with_files).unwrap()
    );
    let runtime = from_package
        .diagnostics
        .iter()
        .find(|d| d.code == "AP710")
        .expect("AP710");
    assert_eq!(runtime.file.as_deref(), Some("demo/mcp.json"));
    assert_eq!(runtime.pointer.as_deref(), Some("/mcpServers/stale/status"));
    assert_eq!(runtime.line, Some(6));

    // The snapshot: every transport, the invalid entry skipped.
    let snapshot = build_snapshot(&report, &[]).unwrap();
    let servers: Vec<(&str, Option<&str>, &str)> = snapshot
        .servers
        .iter()
        .map(|s| (s.id.as_str(), s.transport.as_deref(), s.status.as_str()))
        .collect();
    assert_eq!(
        servers,
        [
            ("api", Some("streamable-http"), "not-connected"),
            ("local", Some("stdio"), "not-connected"),
            ("stale", Some("sse"), "skipped"),
        ]
    );

    // The live findings, each at its server's key in mcp.json.
    let listed = Listed {
        protocol_version: "2025-11-25".into(),
        server_info: None,
        tools: Vec::new(),
    };
    let found = live::diagnostics(
        &report.package,
        &[
            attempt("api", "streamable-http", Ok(listed)),
            attempt("local", "stdio", Err("exited".into())),
        ],
    );
    let placed: Vec<_> = found
        .iter()
        .map(|d| (d.code, d.pointer.as_deref(), d.line, d.column))
        .collect();
    assert_eq!(
        placed,
        [
            ("AP451", Some("/mcpServers/api"), Some(5), Some(5)),
            ("AP450", Some("/mcpServers/local"), Some(4), Some(5)),
        ]
    );
    assert!(found.iter().all(|d| d.file.as_deref() == Some("mcp.json")));

    // What `--connect` would start, and what `--failed` masks.
    let every = live::Options {
        timeout: live::DEFAULT_TIMEOUT,
        inherit_env: false,
        servers: Vec::new(),
    };
    assert!(live::needs_data_dir(&report.package, &every));
    let remote_only = live::Options {
        servers: vec!["api".into(), "stale".into()],
        ..every
    };
    assert!(!live::needs_data_dir(&report.package, &remote_only));
    let known = report.package.configured_secrets();
    let masked = known.mask("got tok-local-123456 and hdr-secret-abcdef");
    assert!(
        !masked.contains("tok-local-123456") && !masked.contains("hdr-secret-abcdef"),
        "{masked}"
    );
}
