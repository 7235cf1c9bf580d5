//! Building, linting and round-tripping snapshots from the invoice-ops
//! reference fixtures and the real `tools/list` captures of the MCP
//! "everything" server (17 tools, draft-07 schemas, one outputSchema).

use std::path::{Path, PathBuf};

use apcheck::check_package;
use apcheck::disk::read_tree;
use apcheck::report::PluginState;
use apcheck::snapshot::build::{BuildError, build_snapshot, mark_failed};
use apcheck::snapshot::model::{ConnectionStatus, Snapshot};
use apcheck::snapshot::tools_list::read_tools_list;
use apcheck::snapshot::{check_snapshot, drift::drift};
use apcheck::tree::{Limits, Tree};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/invoice-ops")
}

/// The shared reference folder: `APCHECK_SHARED` when set, else `../shared` beside the crate.
fn shared() -> PathBuf {
    std::env::var_os("APCHECK_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared"))
}

fn tree(name: &str) -> Tree {
    read_tree(&fixtures().join(name), Limits::default()).expect("fixture readable")
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).expect("fixture readable")
}

fn build(name: &str, with_tools: bool) -> Result<Snapshot, BuildError> {
    let report = check_package(name, &tree(name));
    let tools = if with_tools {
        vec![(
            "invoice-tools".to_string(),
            read_tools_list(&read(&fixtures().join("tools-list.json"))).unwrap(),
        )]
    } else {
        Vec::new()
    };
    build_snapshot(&report, &tools)
}

/// The reference snapshot is exactly what `apcheck snapshot` writes, so it
/// diffs cleanly in git: a change to the output order shows up here.
#[test]
fn invoice_ops_builds_the_reference_snapshot_byte_for_byte() {
    let snapshot = build(".", true).unwrap();
    assert_eq!(snapshot.to_pretty_json(), read(&fixtures().join("snapshot.json")));
}

/// Agent Plugins §7.2.2: a package alone gives valid servers `not-connected` and no tools.
#[test]
fn without_tools_servers_are_not_connected() {
    let snapshot = build(".", false).unwrap();
    assert_eq!(snapshot.servers[0].status, ConnectionStatus::NotConnected);
    assert!(snapshot.tools.is_empty());
    assert_eq!(snapshot.skills[0].name, "write-weekly-summary");
}

/// Agent Plugins §7.2.2 rule 5: a connection failure is recorded on that server alone.
#[test]
fn a_failed_connection_is_recorded_with_its_reason() {
    let mut snapshot = build(".", false).unwrap();
    mark_failed(&mut snapshot, "invoice-tools", "401 Unauthorized").unwrap();
    assert_eq!(snapshot.servers[0].status, ConnectionStatus::Failed);
    let check = check_snapshot("snapshot.json", &snapshot.to_pretty_json(), Some(&tree(".")));
    assert!(check.diagnostics.is_empty(), "{:#?}", check.diagnostics);
    let mut connected = build(".", true).unwrap();
    assert!(mark_failed(&mut connected, "invoice-tools", "x").is_err());
    assert!(mark_failed(&mut snapshot, "billing", "x").is_err());
}

/// Agent Plugins §5.5, §5.2: `Invoice-Ops` rejects the whole package; no snapshot exists.
#[test]
fn an_uppercase_name_rejects_the_package() {
    let report = check_package("bad", &tree("../invoice-ops-bad-name"));
    assert_eq!(report.plugin.state, PluginState::Rejected);
    assert_eq!(build("../invoice-ops-bad-name", false), Err(BuildError::Rejected));
}

/// Agent Plugins §7.2.1, §7.2.2 rule 3: a server without `type` is skipped alone.
#[test]
fn a_server_without_type_is_skipped_alone() {
    let snapshot = build("../invoice-ops-untyped-server", false).unwrap();
    assert_eq!(snapshot.skills.len(), 1);
    assert_eq!(snapshot.servers[0].status, ConnectionStatus::Skipped);
    assert_eq!(snapshot.servers[0].transport, None);
    assert!(snapshot.servers[0].reason.is_some());
    assert!(matches!(
        build("../invoice-ops-untyped-server", true),
        Err(BuildError::UnknownServer { .. })
    ));
}

#[test]
fn the_reference_snapshot_lints_clean_and_matches_its_package() {
    let text = read(&fixtures().join("snapshot.json"));
    let check = check_snapshot("snapshot.json", &text, Some(&tree(".")));
    assert!(check.diagnostics.is_empty(), "{:#?}", check.diagnostics);
    let report = drift("snapshot.json", &text, "invoice-ops", &tree("."));
    assert!(!report.has_drift(), "{:#?}", report.rows);
}

#[test]
fn the_reference_snapshot_drifts_from_both_negative_packages() {
    let text = read(&fixtures().join("snapshot.json"));
    let rejected = drift("snapshot.json", &text, "bad", &tree("../invoice-ops-bad-name"));
    assert_eq!(rejected.rows[0].code, "AP701");
    let untyped = drift(
        "snapshot.json",
        &text,
        "untyped",
        &tree("../invoice-ops-untyped-server"),
    );
    let codes: Vec<_> = untyped.rows.iter().map(|r| r.code).collect();
    assert_eq!(codes, ["AP708"]);
    // The package finding that explains the row comes along, under the root's name.
    assert!(
        untyped
            .diagnostics
            .iter()
            .any(|d| d.file.as_deref() == Some("untyped/mcp.json"))
    );
}

#[test]
fn a_snapshot_round_trips_every_field() {
    let text = read(&fixtures().join("snapshot.json"));
    let snapshot: Snapshot = serde_json::from_str(&text).unwrap();
    assert_eq!(snapshot.to_pretty_json(), text);
}

/// Real captures: 2025-11-25 initialize + tools/list as a client saw them.
#[test]
fn server_everything_captures_build_into_clean_snapshots() {
    let tree = Tree::from_files([
        (
            "plugin.json",
            r#"{"$schema": "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json", "name": "everything", "version": "2.0.0"}"#,
        ),
        (
            "mcp.json",
            r#"{"$schema": "https://agent-plugins.org/schemas/1.0.0/mcp.schema.json", "mcpServers": {"everything": {"type": "stdio", "command": "npx", "args": ["-y", "@modelcontextprotocol/server-everything"]}}}"#,
        ),
    ]);
    let report = check_package("everything", &tree);
    for (capture, count) in [
        ("live-allcaps.json", 17),
        ("live-nocaps.json", 13),
        ("live-proto2026.json", 13),
    ] {
        let text = read(&shared().join("reference/server-everything").join(capture));
        let list = read_tools_list(&text).unwrap();
        assert_eq!(list.tools.len(), count, "{capture}");
        let snapshot = build_snapshot(&report, &[("everything".to_string(), list)]).unwrap();
        assert_eq!(snapshot.servers[0].protocol_version.as_deref(), Some("2025-11-25"));
        // Every Tool field is kept: titles, annotations, execution, the one outputSchema.
        let structured = snapshot
            .tools
            .iter()
            .find(|t| t.name == "get-structured-content")
            .unwrap();
        assert!(structured.output_schema().is_some());
        assert!(snapshot.tools.iter().all(|t| t.fields.contains_key("annotations")));
        let names: Vec<&str> = snapshot.tools.iter().map(|t| t.name.as_str()).collect();
        let mut sorted = names.clone();
        sorted.sort();
        assert_eq!(names, sorted, "tools are sorted by server, then name");
        let written = snapshot.to_pretty_json();
        let check = check_snapshot(capture, &written, Some(&tree));
        let codes: Vec<_> = check.diagnostics.iter().map(|d| d.code).collect();
        // The package has no skills/ and a server, so nothing is expected.
        assert!(codes.is_empty(), "{capture}: {codes:?}");
    }
}

/// Every corpus package a client loads builds into a snapshot that lints
/// without errors and shows no drift against the package it came from:
/// `snapshot`, `check-snapshot` and `drift` agree with each other and with
/// the package check on real plugins.
#[test]
fn corpus_packages_build_snapshots_that_lint_clean_and_do_not_drift() {
    let corpus = shared().join("corpus");
    let mut built = 0;
    for category in ["real", "nearmiss"] {
        let Ok(entries) = std::fs::read_dir(corpus.join(category)) else {
            continue;
        };
        let mut roots: Vec<PathBuf> = entries.filter_map(Result::ok).map(|e| e.path()).collect();
        roots.sort();
        for root in roots.into_iter().filter(|p| p.is_dir()) {
            let name = root.display().to_string();
            let tree = read_tree(&root, Limits::default()).unwrap();
            let report = check_package(&name, &tree);
            let Ok(snapshot) = build_snapshot(&report, &[]) else {
                assert_eq!(report.plugin.state, PluginState::Rejected, "{name}");
                continue;
            };
            let text = snapshot.to_pretty_json();
            let check = check_snapshot("snapshot.json", &text, Some(&tree));
            let errors: Vec<_> = check
                .diagnostics
                .iter()
                .filter(|d| d.severity == apcheck::Severity::Error)
                .map(|d| (d.code, d.message.as_str()))
                .collect();
            assert!(errors.is_empty(), "{name}: {errors:?}");
            let report = drift("snapshot.json", &text, &name, &tree);
            assert!(!report.has_drift(), "{name}: {:?}", report.rows);
            built += 1;
        }
    }
    // INDEX.tsv column 12 is the manifest verdict; every package it calls valid must have built.
    let index = read(&corpus.join("INDEX.tsv"));
    let mut loadable: Vec<&str> = index
        .lines()
        .skip(1)
        .filter_map(|line| {
            let columns: Vec<&str> = line.split('\t').collect();
            let dir = *columns.first()?;
            let in_scope = dir.starts_with("real/") || dir.starts_with("nearmiss/");
            (in_scope && columns.get(11)?.starts_with("valid")).then_some(dir)
        })
        .collect();
    loadable.sort();
    loadable.dedup();
    assert_eq!(built, loadable.len());
}

/// Real captures of one server with and without client capabilities: the
/// four capability-gated tools disappear, which callers see as breaking.
#[test]
fn server_everything_with_fewer_capabilities_is_a_breaking_change() {
    let tree = Tree::from_files([
        (
            "plugin.json",
            r#"{"$schema": "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json", "name": "everything", "version": "2.0.0"}"#,
        ),
        (
            "mcp.json",
            r#"{"$schema": "https://agent-plugins.org/schemas/1.0.0/mcp.schema.json", "mcpServers": {"everything": {"type": "stdio", "command": "npx"}}}"#,
        ),
    ]);
    let report = check_package("everything", &tree);
    let snapshot_of = |capture: &str| {
        let text = read(&shared().join("reference/server-everything").join(capture));
        let list = read_tools_list(&text).unwrap();
        build_snapshot(&report, &[("everything".to_string(), list)])
            .unwrap()
            .to_pretty_json()
    };
    let (old, new) = (snapshot_of("live-allcaps.json"), snapshot_of("live-nocaps.json"));
    let changes = apcheck::snapshot::changes::compare("allcaps.json", &old, "nocaps.json", &new);
    let removed: Vec<&str> = changes
        .changes
        .iter()
        .filter(|c| c.kind == "tool-removed")
        .map(|c| c.subject.as_str())
        .collect();
    assert_eq!(
        removed,
        [
            "everything/get-roots-list",
            "everything/trigger-elicitation-request",
            "everything/trigger-sampling-request",
            "everything/trigger-url-elicitation"
        ]
    );
    // Same version on both sides: every removal is a breaking change without a major bump.
    let breaking = changes.diagnostics.iter().filter(|d| d.code == "AP801").count();
    assert_eq!(breaking, changes.changes.len(), "{:#?}", changes.changes);
}
