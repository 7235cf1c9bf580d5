//! MCP configuration boundaries end to end (`check_package`): what disables
//! MCP for the plugin (§7.2.2 rule 2), what skips one server (rule 3), what is
//! only reported, and that no output ever carries a secret (§7.2.1, §9.2).

use std::path::{Path, PathBuf};

use apcheck::disk::read_tree;
use apcheck::report::{McpState, PackageReport, PluginState, ServerState, SkillState, SkillsState};
use apcheck::tree::{Entry, Limits, Tree};
use apcheck::{Severity, check_package};

const PLUGIN_JSON: &str =
    r#"{"$schema": "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json", "name": "demo", "version": "1.0.0"}"#;
const SKILL_MD: &str = "---\nname: review\ndescription: Reviews code. Use when asked for a review.\n---\nBody.\n";

fn shared() -> PathBuf {
    match std::env::var_os("APCHECK_SHARED") {
        Some(dir) => PathBuf::from(dir),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared"),
    }
}

/// A package with a manifest, one valid skill and `mcp_json` as its `mcp.json`.
fn package(mcp_json: &str) -> Tree {
    Tree::from_files([
        ("plugin.json", PLUGIN_JSON),
        ("skills/review/SKILL.md", SKILL_MD),
        ("mcp.json", mcp_json),
    ])
}

fn mcp_json(servers: &str) -> String {
    format!(r#"{{"$schema": "https://agent-plugins.org/schemas/1.0.0/mcp.schema.json", "mcpServers": {{{servers}}}}}"#)
}

fn codes(report: &PackageReport) -> Vec<&'static str> {
    report.diagnostics.iter().map(|d| d.code).collect()
}

fn server_state(report: &PackageReport, id: &str) -> ServerState {
    report
        .mcp
        .servers
        .iter()
        .find(|s| s.id == id)
        .unwrap_or_else(|| panic!("no server {id}"))
        .state
}

/// A corpus fixture read from disk, with the links SYMLINKS.tsv records (the corpus stores them as files).
fn skillsaw_fixture(name: &str) -> PackageReport {
    let base = shared().join("corpus/fixtures/stbenjam__skillsaw/agent-plugins");
    let mut tree = read_tree(&base.join(name), Limits::default()).expect("fixture is readable");
    let links = std::fs::read_to_string(base.join("SYMLINKS.tsv")).expect("SYMLINKS.tsv is readable");
    for (path, target) in links.lines().skip(1).filter_map(|line| line.split_once('\t')) {
        if let Some(inside) = path.strip_prefix(&format!("{name}/")) {
            tree.insert(inside, Entry::Symlink(target.to_string()));
        }
    }
    check_package(name, &tree)
}

#[test]
fn bad_mcp_json_disables_mcp_but_skills_are_still_discovered() {
    // §7.2.2 rule 2: "the client MUST disable MCP for that plugin and continue loading other component types".
    for (text, code) in [
        ("{\"mcpServers\": {},}", "AP008"),
        (r#"{"mcpServers": {}}"#, "AP402"),
        (
            r#"{"$schema": "https://agent-plugins.org/schemas/2.0.0/mcp.schema.json", "mcpServers": {}}"#,
            "AP403",
        ),
        (
            r#"{"$schema": "https://agent-plugins.org/schemas/1.0.0/mcp.schema.json", "mcpServers": {}, "fallbackServers": {}}"#,
            "AP404",
        ),
    ] {
        let report = check_package("demo", &package(text));
        assert_eq!(report.plugin.state, PluginState::Loaded);
        assert_eq!(report.mcp.state, McpState::Disabled, "{text}");
        assert!(codes(&report).contains(&code), "{text}: {:?}", codes(&report));
        assert_eq!(report.skills.state, SkillsState::Valid);
        assert_eq!(report.skills.entries[0].state, SkillState::Discovered);
    }
}

#[test]
fn mcp_json_that_is_a_directory_disables_mcp_only() {
    // §6.2: present but not a regular file → that component type is invalid.
    let report = skillsaw_fixture("wrong-kinds");
    assert_eq!(report.plugin.state, PluginState::Loaded);
    assert_eq!(report.mcp.state, McpState::Disabled);
}

#[test]
fn mcp_json_linking_outside_the_root_disables_mcp() {
    // §4.1 boundary 2: `mcp.json -> ../outside/mcp.json`.
    let report = skillsaw_fixture("containment/repo");
    assert_eq!(report.mcp.state, McpState::Disabled);
    assert!(codes(&report).contains(&"AP101"), "{:?}", codes(&report));
}

#[test]
fn one_bad_server_is_skipped_alone() {
    // §7.2.2 rule 3: "skip that server and continue loading other servers and component types".
    let text = mcp_json(
        r#""no-type": {"command": "uvx"},
           "vendor-http": {"type": "http", "url": "https://billing.example.com/mcp"},
           "invoice-tools": {"type": "streamable-http", "url": "https://billing.example.com/mcp"}"#,
    );
    let report = check_package("demo", &package(&text));
    assert_eq!(report.mcp.state, McpState::Loaded);
    assert_eq!(server_state(&report, "no-type"), ServerState::Invalid);
    assert_eq!(server_state(&report, "vendor-http"), ServerState::Invalid);
    assert_eq!(server_state(&report, "invoice-tools"), ServerState::Valid);
    assert_eq!((report.summary.servers_valid, report.summary.servers_invalid), (1, 2));
    assert_eq!(report.skills.entries[0].state, SkillState::Discovered);
    let http = report.diagnostics.iter().find(|d| d.code == "AP412").unwrap();
    assert_eq!(http.pointer.as_deref(), Some("/mcpServers/vendor-http/type"));
    assert!(http.line.is_some() && http.column.is_some());
    assert!(http.hint.as_deref().unwrap().contains("streamable-http"));
}

#[test]
fn reference_fixture_invoice_tools_is_valid() {
    let text = mcp_json(r#""invoice-tools": {"type": "streamable-http", "url": "https://billing.example.com/mcp"}"#);
    let report = check_package("demo", &package(&text));
    assert_eq!(report.mcp.state, McpState::Loaded);
    assert_eq!(server_state(&report, "invoice-tools"), ServerState::Valid);
    assert!(report.diagnostics.is_empty(), "{:?}", report.diagnostics);
}

#[test]
fn escape_link_cwd_invalidates_its_server() {
    // §4.1 boundary 4: `cwd: ./escape-link` with `escape-link -> ..`.
    let text = mcp_json(
        r#""escaping": {"type": "stdio", "command": "uvx", "cwd": "./escape-link"},
           "staying": {"type": "stdio", "command": "uvx", "cwd": "./inside-link"}"#,
    );
    let mut tree = package(&text);
    tree.insert("escape-link", Entry::Symlink("..".into()));
    tree.insert("work/.keep", Entry::File(Vec::new()));
    tree.insert("inside-link", Entry::Symlink("work".into()));
    let report = check_package("demo", &tree);
    assert_eq!(server_state(&report, "escaping"), ServerState::Invalid);
    assert_eq!(server_state(&report, "staying"), ServerState::Valid);
    let escape = report.diagnostics.iter().find(|d| d.code == "AP101").unwrap();
    assert_eq!(escape.pointer.as_deref(), Some("/mcpServers/escaping/cwd"));
    assert!(escape.message.contains("escape-link"), "{}", escape.message);
}

#[test]
fn skillsaw_broken_mcp_skips_twenty_of_twenty_one() {
    // The reference negative fixture: every server breaks one §7.2.1 rule except `valid-sibling`.
    let report = skillsaw_fixture("broken-mcp");
    assert_eq!(report.mcp.state, McpState::Loaded);
    assert_eq!(server_state(&report, "valid-sibling"), ServerState::Valid);
    assert_eq!((report.summary.servers_valid, report.summary.servers_invalid), (1, 20));
    for server in report.mcp.servers.iter().filter(|s| s.state == ServerState::Invalid) {
        let pointer = format!("/mcpServers/{}", server.id);
        assert!(
            report
                .diagnostics
                .iter()
                .any(|d| d.severity == Severity::Error && d.pointer.as_deref().is_some_and(|p| p.starts_with(&pointer))),
            "{} has no error at its pointer",
            server.id
        );
    }
}

#[test]
fn skillsaw_clean_loads_every_server() {
    let report = skillsaw_fixture("clean");
    assert_eq!(report.mcp.state, McpState::Loaded);
    assert!(report.mcp.servers.iter().all(|s| s.state == ServerState::Valid));
    // The bundled auditor and work directory are not in the fixture: warnings, not errors.
    let mcp_errors: Vec<_> = report
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error && d.file.as_deref() == Some("mcp.json"))
        .collect();
    assert!(mcp_errors.is_empty(), "{mcp_errors:?}");
}

#[test]
fn nearmiss_roots_never_load_mcp_and_their_vendor_http_shape_is_caught() {
    // The near-miss roots are rejected at the manifest (§5.2), so MCP is never looked at;
    // their vendor `.mcp.json` is invisible to clients (§7.2.2 rule 1).
    let nearmiss = shared().join("corpus/nearmiss");
    for root in std::fs::read_dir(&nearmiss)
        .unwrap()
        .filter_map(Result::ok)
        .filter(|e| e.path().is_dir())
    {
        let tree = read_tree(&root.path(), Limits::default()).unwrap();
        let report = check_package("nearmiss", &tree);
        assert_eq!(report.mcp.state, McpState::NotLoaded, "{:?}", root.path());
        assert!(
            !codes(&report)
                .iter()
                .any(|c| c.starts_with("AP4") || c.starts_with("AP5"))
        );
    }
    // The atlassian vendor config, moved to `mcp.json` of a 1.0.0 package: no `$schema` → MCP disabled;
    // with one, its `type: "http"` server is skipped alone with a suggestion.
    let vendor = std::fs::read_to_string(nearmiss.join("atlassian__atlassian-mcp-server__root/.mcp.json")).unwrap();
    let report = check_package("demo", &package(&vendor));
    assert_eq!(report.mcp.state, McpState::Disabled);
    assert_eq!(codes(&report), ["AP402"]);
    let with_schema = vendor.replacen(
        '{',
        r#"{"$schema": "https://agent-plugins.org/schemas/1.0.0/mcp.schema.json","#,
        1,
    );
    let report = check_package("demo", &package(&with_schema));
    assert_eq!(report.mcp.state, McpState::Loaded);
    assert_eq!(server_state(&report, "atlassian"), ServerState::Invalid);
    assert_eq!(codes(&report), ["AP412"]);
}

#[test]
fn secrets_are_errors_but_the_server_still_loads() {
    // §7.2.1/§9.2 forbid secrets, but do not list them among entry-invalidating rules:
    // a client would load the server, so it stays valid and the finding is an error.
    let text = mcp_json(
        r#""api": {"type": "streamable-http", "url": "https://api.example.com/mcp", "headers": {"Authorization": "Bearer 9f8e7d6c5b4a39281706"}}"#,
    );
    let report = check_package("demo", &package(&text));
    assert_eq!(server_state(&report, "api"), ServerState::Valid);
    assert_eq!(codes(&report), ["AP501"]);
    assert!(report.summary.errors >= 1);
}

#[test]
fn no_output_ever_carries_a_secret() {
    // Every secret below must be absent from the serialized report: messages, hints, server entries.
    let secrets = [
        "ghp_Zq8Wm3Kd9Lx2Rv7Tn4Pb6Yc1Hs5Jf0GaE3uQ",
        "9f8e7d6c5b4a39281706abcd",
        "xoxb-2400-9182736455-QwErTyUiOpAsDfGh",
        "AKIAZ7X3Q9M2K8L4P6R1",
        "sk-ant-api03-Qm9Xk2Lw8Rt5Yp3Vn7Bz1Hc4Jd6Fg0Sa",
        "Tr0ub4dor-3xQ9zLmP-77",
        "s3cr3t-pass-word",
        "hunter2token99",
    ];
    let text = mcp_json(&format!(
        r#""http": {{"type": "streamable-http", "url": "https://bot:{pass}@api.example.com/mcp?key={key}#{frag}",
             "headers": {{"Authorization": "Bearer {bearer}", "X-Api-Key": "{key}", "X-Slack": "{slack}",
                          "Bad Header": "{gh}", "X-Line": "{gh}\r\nX-Evil: 1"}}}},
           "stdio": {{"type": "stdio", "command": "env TOKEN={hunter} npx", "args": ["--token", "{gh}"],
             "env": {{"AWS_ACCESS_KEY_ID": "{aws}", "ANTHROPIC_API_KEY": "{ant}", "DB_PASSWORD": "{db}",
                      "PLUGIN_ROOT": "{gh}", "RETRIES": 3}},
             "cwd": "{gh}"}},
           "typeless": {{"url": "{gh}"}}"#,
        gh = secrets[0],
        bearer = secrets[1],
        slack = secrets[2],
        aws = secrets[3],
        ant = secrets[4],
        db = secrets[5],
        pass = secrets[6],
        key = secrets[1],
        frag = secrets[7],
        hunter = secrets[7],
    ));
    let report = check_package("demo", &package(&text));
    assert!(codes(&report).contains(&"AP502") && codes(&report).contains(&"AP501"));
    let json = serde_json::to_string(&report).unwrap();
    for secret in secrets {
        assert!(!json.contains(secret), "{secret} leaked:\n{json}");
        // Nor any long piece of it.
        let piece = &secret[secret.len() - 10..];
        assert!(!json.contains(piece), "{piece} of {secret} leaked:\n{json}");
    }
}

mod never_panics {
    use super::*;
    use proptest::prelude::*;

    /// Text that exercises the parsers: placeholders, separators, URL syntax, controls, non-ASCII.
    fn field_text() -> impl Strategy<Value = String> {
        prop::collection::vec(
            prop_oneof![
                Just("${PLUGIN_ROOT}".to_string()),
                Just("${PLUGIN_DATA}".to_string()),
                Just("${X".to_string()),
                Just("./".to_string()),
                Just("../".to_string()),
                Just("https://".to_string()),
                Just("http://[::1]:".to_string()),
                Just("@".to_string()),
                Just("#".to_string()),
                Just("Bearer ".to_string()),
                Just("ghp_".to_string()),
                "[a-zA-Z0-9 _:/\\\\.%-]{0,12}",
                "\\PC{0,4}",
                "[\u{0}-\u{1f}]{0,2}",
            ],
            0..6,
        )
        .prop_map(|parts| parts.concat())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        #[test]
        fn any_server_text_is_judged_without_panicking(
            kind in prop_oneof![Just("stdio"), Just("streamable-http"), Just("sse"), Just("http")],
            command in field_text(),
            cwd in field_text(),
            url in field_text(),
            header in field_text(),
            value in field_text(),
        ) {
            let server = serde_json::json!({
                "type": kind, "command": command, "cwd": cwd, "args": [value.clone()], "env": {header.clone(): value.clone()},
                "url": url, "headers": {header: value},
            });
            let text = serde_json::json!({
                "$schema": "https://agent-plugins.org/schemas/1.0.0/mcp.schema.json",
                "mcpServers": {"s": server},
            })
            .to_string();
            let mut tree = package(&text);
            tree.insert("loop", Entry::Symlink("loop".into()));
            tree.insert("up", Entry::Symlink("..".into()));
            let report = check_package("demo", &tree);
            prop_assert_eq!(report.mcp.state, McpState::Loaded);
            // Foreign fields always make this mixed entry invalid, and every rejection is explained.
            prop_assert_eq!(report.mcp.servers[0].state, ServerState::Invalid);
            prop_assert!(report.mcp.servers[0].reason.is_some());
        }
    }
}

/// A well-known credential shape committed in `args` or `url` is an error, as
/// in `env` and `headers`: a published key must fail CI wherever it sits.
/// Heuristic finds there (a secret-named flag) stay warnings.
#[test]
fn a_token_shape_in_args_or_url_is_an_error() {
    let text = mcp_json(
        r#""cli": {"type": "stdio", "command": "npx", "args": ["--token", "ghp_0123456789abcdefghijklmnopqrstuvwxyzAB"]},
           "web": {"type": "streamable-http", "url": "https://api.acme.dev/mcp?key=sk_live_0123456789abcdefABCDEF"},
           "flag": {"type": "stdio", "command": "npx", "args": ["--api-key=8f14e45fceea167a5a36dedd4bea2543a1b2c3d4"]}"#,
    );
    let report = check_package("demo", &package(&text));
    let found: Vec<(&str, Severity, &str)> = report
        .diagnostics
        .iter()
        .filter(|d| d.code.starts_with("AP50"))
        .map(|d| (d.code, d.severity, d.message.split(' ').next().unwrap_or_default()))
        .collect();
    assert_eq!(
        found,
        [
            ("AP502", Severity::Error, "`args[1]`"),
            ("AP502", Severity::Error, "`url`"),
            ("AP506", Severity::Warning, "`args[0]`"),
        ],
        "{:#?}",
        report.diagnostics
    );
}
