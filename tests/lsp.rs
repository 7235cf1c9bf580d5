//! `apcheck lsp` end to end: the real binary over stdio, driven by a small
//! JSON-RPC client, as an editor would: initialize, open a broken
//! `plugin.json`, fix it, hover, completion, a quick fix, the configuration
//! found above the root (and reloaded), shutdown.

#[path = "support/lsp_client.rs"]
mod lsp_client;

use std::path::Path;

use lsp_client::{Client, change, open};
use serde_json::{Value, json};

const SCHEMA: &str = "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json";
const MCP_SCHEMA: &str = "https://agent-plugins.org/schemas/1.0.0/mcp.schema.json";

/// `text` with LSP text edits applied (UTF-16 positions; the test texts are ASCII, so bytes).
fn apply(text: &str, edits: &[Value]) -> String {
    let offset = |position: &Value| {
        let line = position["line"].as_u64().unwrap() as usize;
        let start: usize = text.split_inclusive('\n').take(line).map(str::len).sum();
        start + position["character"].as_u64().unwrap() as usize
    };
    let mut spans: Vec<(usize, usize, &str)> = edits
        .iter()
        .map(|edit| {
            let range = &edit["range"];
            (
                offset(&range["start"]),
                offset(&range["end"]),
                edit["newText"].as_str().unwrap(),
            )
        })
        .collect();
    spans.sort_by_key(|&(start, _, _)| std::cmp::Reverse(start));
    let mut out = text.to_string();
    for (start, end, new_text) in spans {
        out.replace_range(start..end, new_text);
    }
    out
}

fn uri(path: &Path) -> String {
    format!("file://{}", path.display())
}

fn write(root: &Path, file: &str, text: &str) {
    let path = root.join(file);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

#[test]
fn rule_doc_links_follow_the_configured_base() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let bad = format!("{{\"$schema\": \"{SCHEMA}\", \"name\": \"Invoice-Ops\"}}\n");
    write(&root, "plugin.json", &bad);
    let manifest = uri(&root.join("plugin.json"));
    // The page `npm start` serves routes `#rules/CODE`.
    let mut client = Client::start(json!({"debounceMs": 0, "ruleDocs": "http://127.0.0.1:8787/#rules/"}));
    open(&mut client, &manifest, &bad);
    let diagnostics = client.diagnostics_for(&manifest);
    assert_eq!(
        diagnostics[0]["codeDescription"]["href"], "http://127.0.0.1:8787/#rules/AP209",
        "{diagnostics:?}"
    );
    client.shutdown();
}

#[test]
fn a_bad_manifest_gets_findings_at_their_range_and_a_fix_clears_them() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let bad = format!("{{\n  \"$schema\": \"{SCHEMA}\",\n  \"name\": \"Invoice-Ops\"\n}}\n");
    write(&root, "plugin.json", &bad);
    let manifest = uri(&root.join("plugin.json"));
    let mut client = Client::start(json!({"debounceMs": 0}));

    open(&mut client, &manifest, &bad);
    let diagnostics = client.diagnostics_for(&manifest);
    assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
    let finding = &diagnostics[0];
    // §5.5: the name's value, on line 3 (0-based 2), between its quotes.
    assert_eq!(finding["code"], "AP209");
    assert_eq!(finding["severity"], 1);
    assert_eq!(finding["source"], "apcheck");
    assert_eq!(
        finding["range"],
        json!({"start": {"line": 2, "character": 10}, "end": {"line": 2, "character": 23}})
    );
    assert!(
        finding["message"].as_str().unwrap().contains("Agent Plugins §5.5"),
        "{finding}"
    );
    // By default the rule's published page, as SARIF's `helpUri` links it.
    assert_eq!(
        finding["codeDescription"]["href"],
        format!("{}AP209", apcheck::rule::DOCS_BASE_URL)
    );
    assert_eq!(finding["data"]["spec"], "Agent Plugins §5.5");

    // Hover on the finding: its rule doc; on the key: what the schema and spec say.
    let hover = client.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": manifest}, "position": {"line": 2, "character": 14}}),
    );
    let text = hover["contents"]["value"].as_str().unwrap();
    assert!(text.contains("**AP209** `manifest-name-invalid`"), "{text}");
    assert!(text.contains("**What it checks.**"), "{text}");
    let hover = client.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": manifest}, "position": {"line": 2, "character": 4}}),
    );
    let text = hover["contents"]["value"].as_str().unwrap();
    assert!(text.starts_with("`/name`: string, 1-64 characters"), "{text}");
    assert!(text.contains("**Agent Plugins §5.5**"), "{text}");
    assert_eq!(hover["range"]["start"], json!({"line": 2, "character": 2}));

    // The quick fix the finding carries, applied as an editor applies a WorkspaceEdit.
    let actions = client.request(
        "textDocument/codeAction",
        json!({
            "textDocument": {"uri": manifest},
            "range": finding["range"],
            "context": {"diagnostics": [finding]},
        }),
    );
    let action = &actions[0];
    assert_eq!(action["kind"], "quickfix");
    assert_eq!(action["isPreferred"], true);
    assert_eq!(action["diagnostics"][0]["code"], "AP209");
    let edits = action["edit"]["changes"][&manifest].as_array().unwrap();
    let fixed = apply(&bad, edits);
    assert_eq!(fixed, bad.replace("Invoice-Ops", "invoice-ops"));

    change(&mut client, &manifest, 2, &fixed);
    assert_eq!(client.diagnostics_for(&manifest), Vec::<Value>::new());
    let actions = client.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": manifest}, "range": finding["range"], "context": {"diagnostics": []}}),
    );
    assert_eq!(actions, json!([]));
    client.shutdown();
}

#[test]
fn a_hover_on_a_skill_frontmatter_key_quotes_agent_skills() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let skill_text =
        "---\nname: pdf-tools\ndescription: Extracts text from PDF files. Use when the user works with PDFs.\n---\n";
    write(
        &root,
        "plugin.json",
        &format!(r#"{{"$schema": "{SCHEMA}", "name": "p"}}"#),
    );
    write(&root, "skills/pdf-tools/SKILL.md", skill_text);
    let skill = uri(&root.join("skills/pdf-tools/SKILL.md"));
    let mut client = Client::start(json!({"debounceMs": 0}));
    open(&mut client, &skill, skill_text);
    assert_eq!(client.diagnostics_for(&skill), Vec::<Value>::new());
    let hover = client.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": skill}, "position": {"line": 2, "character": 3}}),
    );
    let text = hover["contents"]["value"].as_str().unwrap();
    assert!(text.starts_with("`description`: required"), "{text}");
    assert!(text.contains("**Agent Skills (`description` field)**"), "{text}");
    assert_eq!(
        hover["range"],
        json!({"start": {"line": 2, "character": 0}, "end": {"line": 2, "character": 11}})
    );
    client.shutdown();
}

#[test]
fn a_manifest_change_rechecks_the_mcp_configuration() {
    // §5.2: a rejected manifest stops everything after it. mcp.json's findings stay in
    // view while the unsaved manifest is broken, marked as in a component a client does
    // not reach yet, and lose the mark when it is fixed.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let manifest_text = format!(r#"{{"$schema": "{SCHEMA}", "name": "p"}}"#);
    let mcp_text = format!(r#"{{"$schema": "{MCP_SCHEMA}", "mcpServers": {{"a": {{"type": "stdio"}}}}}}"#);
    write(&root, "plugin.json", &manifest_text);
    write(&root, "mcp.json", &mcp_text);
    let manifest = uri(&root.join("plugin.json"));
    let mcp = uri(&root.join("mcp.json"));
    let mut client = Client::start(json!({"debounceMs": 0}));
    open(&mut client, &mcp, &mcp_text);
    let findings = client.diagnostics_for(&mcp);
    assert!(findings.iter().any(|d| d["code"] == "AP415"), "{findings:?}");
    open(&mut client, &manifest, &manifest_text);
    assert_eq!(client.diagnostics_for(&manifest), Vec::<Value>::new());

    change(&mut client, &manifest, 2, r#"{"name": "p"}"#);
    let [manifest_findings, mcp_findings] = <[_; 2]>::try_from(client.diagnostics_for_all(&[&manifest, &mcp])).unwrap();
    assert!(
        manifest_findings.iter().any(|d| d["code"] == "AP203"),
        "{manifest_findings:?}"
    );
    assert_eq!(
        mcp_findings
            .iter()
            .map(|d| d["code"].as_str().unwrap())
            .collect::<Vec<_>>(),
        ["AP415"],
        "{mcp_findings:?}"
    );
    assert!(
        mcp_findings[0]["message"]
            .as_str()
            .unwrap()
            .contains("does not reach until the manifest loads"),
        "{mcp_findings:?}"
    );

    change(&mut client, &manifest, 3, &manifest_text);
    let findings = client.diagnostics_for(&mcp);
    assert!(findings.iter().any(|d| d["code"] == "AP415"), "{findings:?}");
    assert!(
        findings
            .iter()
            .all(|d| !d["message"].as_str().unwrap().contains("does not reach")),
        "{findings:?}"
    );
    client.shutdown();
}

#[test]
fn ignored_keys_are_unnecessary_and_skipped_servers_say_so() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let manifest_text = format!("{{\"$schema\": \"{SCHEMA}\", \"name\": \"p\", \"color\": \"red\"}}");
    let mcp_text = format!(r#"{{"$schema": "{MCP_SCHEMA}", "mcpServers": {{"a": {{"type": "stdio", "args": []}}}}}}"#);
    write(&root, "plugin.json", &manifest_text);
    write(&root, "mcp.json", &mcp_text);
    let mcp = uri(&root.join("mcp.json"));
    let manifest = uri(&root.join("plugin.json"));
    let mut client = Client::start(json!({"debounceMs": 0}));
    open(&mut client, &mcp, &mcp_text);
    // One check publishes both files: the manifest is not open, its finding shows anyway.
    let [manifest_findings, server_findings] =
        <[_; 2]>::try_from(client.diagnostics_for_all(&[&manifest, &mcp])).unwrap();
    let unknown = manifest_findings.iter().find(|d| d["code"] == "AP205").unwrap();
    assert_eq!(unknown["tags"], json!([1]), "{unknown}");
    assert!(!server_findings.is_empty());
    for finding in &server_findings {
        assert_eq!(
            finding["data"]["skipped"], "server `a` is skipped (§7.2.2)",
            "{finding}"
        );
    }

    // Completion of the server fields a stdio entry may still have.
    let completion = client.request(
        "textDocument/completion",
        json!({"textDocument": {"uri": mcp}, "position": {"line": 0, "character": mcp_text.find(r#""stdio""#).unwrap() + 7}}),
    );
    let labels: Vec<&str> = completion["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|item| item["label"].as_str().unwrap())
        .collect();
    assert_eq!(labels, Vec::<&str>::new(), "after a value, nothing is proposed");
    let before_args = mcp_text.find(r#""args""#).unwrap();
    let completion = client.request(
        "textDocument/completion",
        json!({"textDocument": {"uri": mcp}, "position": {"line": 0, "character": before_args}}),
    );
    let labels: Vec<&str> = completion["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|item| item["label"].as_str().unwrap())
        .collect();
    assert_eq!(labels, ["command", "env", "cwd"]);
    let command = &completion["items"][0];
    assert_eq!(command["textEdit"]["newText"], r#""command": "#);
    assert!(
        command["documentation"]["value"]
            .as_str()
            .unwrap()
            .contains("single executable token")
    );
    client.shutdown();
}

/// A fix that needs an input from the configuration (AP210 moves a vendor
/// `hooks` key under `extensions.<namespace>`) is offered in the editor when
/// `apcheck.toml` names the namespace, as `apcheck check --fix` offers it.
#[test]
fn the_configured_extensions_namespace_makes_the_hooks_move_a_quick_fix() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let text = format!("{{\n  \"$schema\": \"{SCHEMA}\",\n  \"name\": \"p\",\n  \"hooks\": {{}}\n}}\n");
    write(&root, "plugin.json", &text);
    std::fs::write(
        root.join("apcheck.toml"),
        "extensions-namespace = \"com.example.client\"\n",
    )
    .unwrap();
    let manifest = uri(&root.join("plugin.json"));
    let mut client = Client::start(json!({"debounceMs": 0}));
    open(&mut client, &manifest, &text);
    let diagnostics = client.diagnostics_for(&manifest);
    let finding = diagnostics
        .iter()
        .find(|d| d["code"] == "AP210")
        .unwrap_or_else(|| panic!("no AP210 in {diagnostics:?}"));
    let actions = client.request(
        "textDocument/codeAction",
        json!({
            "textDocument": {"uri": manifest},
            "range": finding["range"],
            "context": {"diagnostics": [finding]},
        }),
    );
    let edits = actions[0]["edit"]["changes"][&manifest]
        .as_array()
        .unwrap_or_else(|| panic!("no quick fix in {actions}"));
    let fixed: Value = serde_json::from_str(&apply(&text, edits)).unwrap();
    assert!(fixed.get("hooks").is_none(), "{fixed}");
    assert_eq!(fixed["extensions"]["com.example.client"]["hooks"], json!({}));
    client.shutdown();
}

/// The quick fixes on `finding` of `uri` whose title says they ignore it.
fn ignore_actions(client: &mut Client, uri: &str, finding: &Value) -> Vec<Value> {
    let actions = client.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": uri}, "range": finding["range"], "context": {"diagnostics": [finding]}}),
    );
    actions
        .as_array()
        .unwrap()
        .iter()
        .filter(|action| action["title"].as_str().unwrap().starts_with("Ignore "))
        .cloned()
        .collect()
}

/// A JSON file has no comments for an `apcheck-ignore`: the quick fix writes
/// an `[[overrides]]` entry for that file into the configuration in use, or
/// creates `apcheck.toml` at the plugin root when the client can create files.
#[test]
fn a_finding_in_a_json_file_is_ignored_through_an_override_in_the_configuration() {
    let dir = tempfile::tempdir().unwrap();
    let top = dir.path().canonicalize().unwrap();
    // §5.1: an unknown top-level key (AP205), in two plugins.
    let manifest_text = format!("{{\"$schema\": \"{SCHEMA}\", \"name\": \"p\", \"color\": \"red\"}}\n");
    let alone = top.join("alone");
    let root = top.join("market/plugins/p");
    write(&alone, "plugin.json", &manifest_text);
    write(&root, "plugin.json", &manifest_text);
    let config = top.join("market/apcheck.toml");
    std::fs::write(&config, "ignore = [\"AP314\"]").unwrap();
    let creates = json!({"workspace": {"workspaceEdit": {"resourceOperations": ["create"]}}});
    let mut client = Client::start_with(creates, json!({"debounceMs": 0}));

    // No configuration above `alone`: apcheck.toml is created at its root.
    let manifest = uri(&alone.join("plugin.json"));
    open(&mut client, &manifest, &manifest_text);
    let finding = client.diagnostics_for(&manifest)[0].clone();
    assert_eq!(finding["code"], "AP205");
    let actions = ignore_actions(&mut client, &manifest, &finding);
    assert_eq!(actions.len(), 1, "{actions:?}");
    assert_eq!(actions[0]["title"], "Ignore AP205 in this file (apcheck.toml)");
    assert_eq!(actions[0]["isPreferred"], false);
    let created = uri(&alone.join("apcheck.toml"));
    let operations = &actions[0]["edit"]["documentChanges"];
    assert_eq!(operations[0], json!({"kind": "create", "uri": created}));
    assert_eq!(operations[1]["textDocument"]["uri"], created);
    let text = apply("", operations[1]["edits"].as_array().unwrap());
    assert_eq!(text, "[[overrides]]\npaths = [\"plugin.json\"]\nignore = [\"AP205\"]\n");
    // Applied as the editor would, the finding is gone.
    std::fs::write(alone.join("apcheck.toml"), &text).unwrap();
    client.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": created, "type": 1}]}),
    );
    assert_eq!(client.diagnostics_for(&manifest), Vec::<Value>::new());

    // The configuration above the root is edited, its text kept, the path relative to it.
    let manifest = uri(&root.join("plugin.json"));
    open(&mut client, &manifest, &manifest_text);
    let finding = client.diagnostics_for(&manifest)[0].clone();
    let actions = ignore_actions(&mut client, &manifest, &finding);
    let config_uri = uri(&config);
    let edited = apply(
        "ignore = [\"AP314\"]",
        actions[0]["edit"]["changes"][&config_uri].as_array().unwrap(),
    );
    assert_eq!(
        edited,
        "ignore = [\"AP314\"]\n\n[[overrides]]\npaths = [\"plugins/p/plugin.json\"]\nignore = [\"AP205\"]\n"
    );
    std::fs::write(&config, &edited).unwrap();
    client.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": config_uri, "type": 2}]}),
    );
    assert_eq!(client.diagnostics_for(&manifest), Vec::<Value>::new());
    client.shutdown();

    // A client that cannot create files is offered no file to create.
    let other = top.join("other");
    write(&other, "plugin.json", &manifest_text);
    let mut client = Client::start(json!({"debounceMs": 0}));
    let manifest = uri(&other.join("plugin.json"));
    open(&mut client, &manifest, &manifest_text);
    let finding = client.diagnostics_for(&manifest)[0].clone();
    assert_eq!(ignore_actions(&mut client, &manifest, &finding), Vec::<Value>::new());
    client.shutdown();
}

#[test]
fn the_configuration_above_the_root_hides_and_re_levels_findings_and_is_reloaded() {
    // The configuration is found by walking up from the plugin root, as `apcheck check` finds it.
    let dir = tempfile::tempdir().unwrap();
    let top = dir.path().canonicalize().unwrap();
    let root = top.join("plugins/p");
    let config = top.join("apcheck.toml");
    let config_uri = uri(&config);
    // AP209 (§5.5, an invalid name) and AP205 (§5.3, an unknown key, a warning by default).
    let manifest_text = format!("{{\"$schema\": \"{SCHEMA}\", \"name\": \"P\", \"color\": \"red\"}}");
    write(&root, "plugin.json", &manifest_text);
    std::fs::write(&config, "ignore = [\"AP209\"]\n[severity]\nAP205 = \"error\"\n").unwrap();
    let manifest = uri(&root.join("plugin.json"));
    let mut client = Client::start(json!({"debounceMs": 0}));
    let codes_and_severities = |diagnostics: &[Value]| -> Vec<(String, u64)> {
        diagnostics
            .iter()
            .map(|d| (d["code"].as_str().unwrap().to_string(), d["severity"].as_u64().unwrap()))
            .collect()
    };

    open(&mut client, &manifest, &manifest_text);
    let diagnostics = client.diagnostics_for(&manifest);
    assert_eq!(codes_and_severities(&diagnostics), [("AP205".to_string(), 1)]);

    // Saving the configuration in the editor reloads it.
    std::fs::write(&config, "[severity]\nAP205 = \"info\"\n").unwrap();
    client.notify("textDocument/didSave", json!({"textDocument": {"uri": config_uri}}));
    let mut diagnostics = codes_and_severities(&client.diagnostics_for(&manifest));
    diagnostics.sort();
    assert_eq!(diagnostics, [("AP205".to_string(), 3), ("AP209".to_string(), 1)]);

    // A broken configuration changed on disk: shown once, underlined at the bad code, and
    // the package is checked with the defaults meanwhile.
    let broken = "ignore = [\"AP314\", \"XX9\"]\n";
    std::fs::write(&config, broken).unwrap();
    let changed = json!({"changes": [{"uri": config_uri, "type": 2}]});
    client.notify("workspace/didChangeWatchedFiles", changed.clone());
    let message = client.notification("window/showMessage");
    assert_eq!(message["type"], 1, "{message}");
    assert!(
        message["message"]
            .as_str()
            .unwrap()
            .contains("apcheck.toml:1:20: `XX9` is not a rule code or code prefix"),
        "{message}"
    );
    let problems = client.diagnostics_for(&config_uri);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert_eq!(
        problems[0]["range"],
        json!({"start": {"line": 0, "character": 19}, "end": {"line": 0, "character": 24}})
    );
    let mut diagnostics = codes_and_severities(&client.diagnostics_for(&manifest));
    diagnostics.sort();
    assert_eq!(diagnostics, [("AP205".to_string(), 2), ("AP209".to_string(), 1)]);

    // Fixed: the configuration file's problem is cleared and the configuration applies again.
    std::fs::write(&config, "ignore = [\"AP2\"]\n").unwrap();
    client.notify("workspace/didChangeWatchedFiles", changed);
    assert_eq!(client.diagnostics_for(&config_uri), Vec::<Value>::new());
    assert_eq!(client.diagnostics_for(&manifest), Vec::<Value>::new());
    client.shutdown();
}

#[test]
fn a_client_that_watches_files_is_asked_to_watch_the_configuration_files_and_a_save_rereads_them() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let manifest_text = format!("{{\"$schema\": \"{SCHEMA}\", \"name\": \"p\", \"color\": \"red\"}}");
    write(&root, "plugin.json", &manifest_text);
    let manifest = uri(&root.join("plugin.json"));
    let capabilities = json!({"workspace": {"didChangeWatchedFiles": {"dynamicRegistration": true}}});
    let mut client = Client::start_with(capabilities, json!({"debounceMs": 0}));
    let registration = client.answer("client/registerCapability", Value::Null);
    let registration = &registration["registrations"][0];
    assert_eq!(registration["method"], "workspace/didChangeWatchedFiles");
    assert_eq!(
        registration["registerOptions"]["watchers"],
        json!([{"globPattern": "**/apcheck.toml"}, {"globPattern": "**/pyproject.toml"}])
    );

    open(&mut client, &manifest, &manifest_text);
    let codes: Vec<Value> = client
        .diagnostics_for(&manifest)
        .iter()
        .map(|d| d["code"].clone())
        .collect();
    assert_eq!(codes, [json!("AP205")]);
    // A configuration written since, with no watcher event (an editor that cannot watch):
    // saving a package file picks it up.
    std::fs::write(root.join("pyproject.toml"), "[tool.apcheck]\nignore = [\"AP205\"]\n").unwrap();
    client.notify("textDocument/didSave", json!({"textDocument": {"uri": manifest}}));
    assert_eq!(client.diagnostics_for(&manifest), Vec::<Value>::new());
    client.shutdown();
}

/// LSP 3.17 §initialize, §shutdown, §exit: every request gets an answer in
/// every state, and the exit code says whether `shutdown` came first.
#[test]
fn every_request_is_answered_and_the_exit_code_follows_shutdown() {
    // Before `initialize`: refused with ServerNotInitialized; `exit` then is 1.
    let mut early = Client::spawn();
    let refused = early.response("textDocument/hover", json!({}));
    assert_eq!(refused["error"]["code"], -32002, "{refused}");
    assert_eq!(early.exit(), 1);

    // A malformed `initialize` is an InvalidParams error, and the client may try again.
    let mut retried = Client::spawn();
    let malformed = retried.response("initialize", json!({"processId": "x"}));
    assert_eq!(malformed["error"]["code"], -32602, "{malformed}");
    let initialized = retried.response(
        "initialize",
        json!({"processId": null, "rootUri": null, "capabilities": {}}),
    );
    assert!(initialized["result"]["capabilities"].is_object(), "{initialized}");
    retried.shutdown();

    // Options of the wrong type are left at their defaults, and the editor is told.
    let mut lenient = Client::start(json!({"ruleDocs": null}));
    let shown = lenient.notification("window/showMessage");
    assert!(
        shown["message"].as_str().unwrap().contains("initializationOptions"),
        "{shown}"
    );
    assert_eq!(lenient.exit(), 1, "exit without shutdown");

    // After `shutdown`, requests are InvalidRequest, notifications are ignored, and `exit` is 0.
    let mut closing = Client::start(json!({}));
    assert_eq!(closing.request("shutdown", Value::Null), Value::Null);
    let after = closing.response("textDocument/hover", json!({}));
    assert_eq!(after["error"]["code"], -32600, "{after}");
    closing.notify("$/cancelRequest", json!({"id": 1}));
    assert_eq!(closing.exit(), 0);
}

/// Findings come back under the URI the file was opened with, however it is
/// spelled (`%2B` for `+`), and a lone CR ends a line (LSP 3.17 §Text Documents).
#[test]
fn findings_use_the_opened_uri_and_count_lone_cr_as_a_line_break() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap().join("c++");
    let bad = format!("{{\r  \"$schema\": \"{SCHEMA}\",\r  \"name\": \"Invoice-Ops\"\r}}\r");
    write(&root, "plugin.json", &bad);
    let manifest = uri(&root.join("plugin.json")).replace("c++", "c%2B%2B");
    let mut client = Client::start(json!({"debounceMs": 0}));
    open(&mut client, &manifest, &bad);
    let diagnostics = client.diagnostics_for(&manifest);
    assert_eq!(diagnostics[0]["code"], "AP209", "{diagnostics:?}");
    assert_eq!(
        diagnostics[0]["range"],
        json!({"start": {"line": 2, "character": 10}, "end": {"line": 2, "character": 23}})
    );
    client.shutdown();
}

/// The largest share of memory (`VmHWM`, in KiB) the process `pid` has held so far.
#[cfg(target_os = "linux")]
fn peak_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status.lines().find(|line| line.starts_with("VmHWM:")).unwrap();
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

/// A body over the limit (64 MiB) is read past, not held; the
/// session goes on with the next message.
#[cfg(target_os = "linux")]
#[test]
fn a_message_over_the_size_limit_is_skipped_without_being_held() {
    let mut client = Client::start(json!({}));
    let length = 100 * 1024 * 1024;
    client.send_bytes(format!("Content-Length: {length}\r\n\r\n").as_bytes());
    let chunk = vec![b' '; 1024 * 1024];
    for _ in 0..length / chunk.len() {
        client.send_bytes(&chunk);
    }
    let hover = client.response("textDocument/hover", json!({}));
    assert_eq!(hover["error"]["code"], -32602, "{hover}");
    let said = format!("lsp: skipped a message of {length} bytes: messages are limited to 67108864 bytes");
    let stderr = client.stderr_when(|stderr| stderr.contains(&said));
    assert!(stderr.contains(&said), "{stderr}");
    let peak = peak_kib(client.pid());
    assert!(peak < 48 * 1024, "the server held {peak} KiB");
    client.shutdown();
}

/// A Content-Length of 2^64 - 1 used to panic ("capacity overflow").
#[test]
fn an_absurd_content_length_is_no_panic() {
    let mut client = Client::start(json!({}));
    client.send_bytes(b"Content-Length: 18446744073709551615\r\n\r\n{}");
    let said = "lsp: skipped a message of 18446744073709551615 bytes";
    let stderr = client.stderr_when(|stderr| stderr.contains(said));
    assert!(stderr.contains(said), "{stderr}");
    // Everything after it is its body: the stream ends inside it, which ends the session.
    assert_eq!(client.hang_up(), 2);
}

/// Each of these bodies used to end the server (exit 2), and nothing later
/// was answered. A request whose `id` could be read is answered with
/// ParseError or InvalidRequest; anything else is skipped.
#[test]
fn bodies_that_are_not_messages_are_answered_or_skipped_and_the_session_goes_on() {
    let mut client = Client::start(json!({}));
    for skipped in [
        &b"{bad}"[..],
        b"[]",
        br#"{"foo":1}"#,
        b"{\"method\":\"x\",\"params\":\"\xff\"}",
    ] {
        client.send_body(skipped);
    }
    let request = |id: u32, params: &[u8]| {
        let mut body = format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"textDocument/hover","params":"#).into_bytes();
        body.extend_from_slice(params);
        body.push(b'}');
        body
    };
    let deep = format!("{}{}", "[".repeat(5000), "]".repeat(5000));
    let cases: [(u32, &[u8], i64); 4] = [
        (101, b"\"\xff\xfe\"", -32700),
        (102, b"\"a\0b\"", -32700),
        (103, deep.as_bytes(), -32700),
        (104, br#"{}, "method": 5"#, -32600),
    ];
    for (id, params, code) in cases {
        client.send_body(&request(id, params));
        let answer = client.response_to(&json!(id));
        assert_eq!(answer["error"]["code"], code, "{answer}");
    }
    // The session goes on, and ends as any other.
    let hover = client.response("textDocument/hover", json!({}));
    assert_eq!(hover["error"]["code"], -32602, "{hover}");
    let skipped = |stderr: &str| stderr.matches("lsp: skipped a message: not a JSON-RPC message").count();
    let stderr = client.stderr_when(|stderr| skipped(stderr) == 4);
    assert_eq!(skipped(&stderr), 4, "{stderr}");
    client.shutdown();
}

/// Opening `/proc/plugin.json` used to read `/proc/kmsg`, which waits for
/// the next kernel message, on the request loop: hover, `shutdown` and `exit`
/// went unanswered. (Only root can open `/proc/kmsg`, so only as root would
/// this hang without the fix.)
#[cfg(target_os = "linux")]
#[test]
fn a_package_read_never_holds_up_shutdown_and_exit() {
    let mut client = Client::start(json!({"debounceMs": 0}));
    let manifest = "file:///proc/plugin.json";
    open(&mut client, manifest, "{}");
    let hover = client.send_request(
        "textDocument/hover",
        json!({"textDocument": {"uri": manifest}, "position": {"line": 0, "character": 0}}),
    );
    let shutdown = client.send_request("shutdown", Value::Null);
    let [hover, shutdown] = <[_; 2]>::try_from(client.responses_to(&[&hover, &shutdown])).unwrap();
    assert_eq!(shutdown["result"], Value::Null, "{shutdown}");
    // Answered once /proc is read, or refused by the shutdown if that came first.
    assert!(
        hover.get("result").is_some() || hover["error"]["code"] == -32600,
        "{hover}"
    );
    assert_eq!(client.exit(), 0);
}
