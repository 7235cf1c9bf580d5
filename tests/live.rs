//! `--connect` against real servers that the tests start, on loopback only:
//! npm's @modelcontextprotocol/server-everything over stdio and streamable
//! HTTP, and the probe server (`tests/probe/probe.mjs`), which reports what it
//! received. The probe plugin covers every case of the official conformance
//! suite's core plugin (agentplugins/agent-plugins-conformance,
//! `plugins/agent-plugins-conformance-core`) plus a missing command, a server
//! that never answers and a refused port. Needs `npm ci` (scripts/setup.sh).

use std::io::{BufRead, BufReader};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use serde_json::{Value, json};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The installed server-everything; the tests must run in CI, so a missing install fails loudly.
fn server_everything() -> PathBuf {
    let entry = repo().join("node_modules/@modelcontextprotocol/server-everything/dist/index.js");
    assert!(
        entry.is_file(),
        "{} is missing: run `npm ci` (scripts/setup.sh does), the live tests start it",
        entry.display()
    );
    entry
}

/// A fresh plugin root under the target directory, so that node finds the
/// repository's node_modules from the probe copied into it.
fn plugin(name: &str, mcp_servers: Value) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("live-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("dist")).unwrap();
    std::fs::create_dir_all(dir.join("probe-workdir")).unwrap();
    std::fs::write(
        dir.join("plugin.json"),
        json!({"$schema": "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json", "name": name, "version": "1.0.0"})
            .to_string(),
    )
    .unwrap();
    std::fs::write(
        dir.join("mcp.json"),
        serde_json::to_string_pretty(
            &json!({"$schema": "https://agent-plugins.org/schemas/1.0.0/mcp.schema.json", "mcpServers": mcp_servers}),
        )
        .unwrap(),
    )
    .unwrap();
    std::fs::copy(repo().join("tests/probe/probe.mjs"), dir.join("dist/probe.mjs")).unwrap();
    dir.canonicalize().unwrap()
}

/// Runs apcheck; a run that has not ended after a minute is a hang, and fails.
fn apcheck(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_apcheck"));
    command
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (name, value) in env {
        command.env(name, value);
    }
    let child = command.spawn().unwrap();
    let (done, finished) = mpsc::channel();
    let pid = child.id();
    std::thread::spawn(move || done.send(child.wait_with_output()).unwrap());
    match finished.recv_timeout(Duration::from_secs(60)) {
        Ok(output) => output.unwrap(),
        Err(_) => {
            let _ = Command::new("kill").arg("-9").arg(pid.to_string()).status();
            panic!("apcheck {args:?} hung for a minute");
        }
    }
}

/// `apcheck snapshot ROOT --connect` with PLUGIN_DATA beside the root, so no run leaves a fresh directory behind.
fn connect_with_data(root: &Path) -> Output {
    let data = root.with_extension("data");
    apcheck(
        &[
            "snapshot",
            root.to_str().unwrap(),
            "--connect",
            "--data",
            data.to_str().unwrap(),
        ],
        &[],
    )
}

fn snapshot_of(output: &Output) -> Value {
    serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!(
            "not a snapshot ({e}): {}\nstderr: {}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        )
    })
}

fn server<'s>(snapshot: &'s Value, id: &str) -> &'s Value {
    snapshot["mcpServers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["id"] == id)
        .unwrap_or_else(|| panic!("no server {id}"))
}

fn tools_of<'s>(snapshot: &'s Value, id: &str) -> Vec<&'s Value> {
    snapshot["tools"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["server"] == id)
        .collect()
}

/// What the probe server `id` reported, from its first page's tool.
fn observed<'s>(snapshot: &'s Value, id: &str) -> &'s Value {
    let tools = tools_of(snapshot, id);
    let observe = tools
        .iter()
        .find(|t| t["name"] == "observe")
        .unwrap_or_else(|| panic!("{id}: no observe tool: {snapshot}"));
    &observe["x-apcheck-probe"]
}

/// A port nothing listens on (bound, then released).
fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// A server process the test started, killed when the test ends.
struct Background(Child);

impl Drop for Background {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn wait_for_port(port: u16) {
    for _ in 0..200 {
        if TcpStream::connect(("127.0.0.1", port)).is_ok() {
            return;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    panic!("nothing listens on 127.0.0.1:{port} after 10 s");
}

/// The probe's HTTP side on a free loopback port, logging requests to `log`.
fn probe_http(log: &Path) -> (Background, u16) {
    let mut command = Command::new("node");
    command.arg(repo().join("tests/probe/probe.mjs")).arg("http").arg(log);
    listening(command)
}

/// A node server started by `command` that prints `port N` once it listens on loopback.
fn listening(mut command: Command) -> (Background, u16) {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("node is needed for the live tests");
    let stdout = child.stdout.take().unwrap();
    let (sender, ports) = mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        let _ = BufReader::new(stdout).read_line(&mut line);
        let _ = sender.send(line);
    });
    let background = Background(child);
    let line = ports
        .recv_timeout(Duration::from_secs(20))
        .expect("the probe reports its port");
    let port = line
        .trim()
        .strip_prefix("port ")
        .and_then(|p| p.parse().ok())
        .expect("`port N`");
    (background, port)
}

fn capture_tools(file: &str) -> Vec<Value> {
    let shared = std::env::var_os("APCHECK_SHARED").map_or_else(|| repo().join("../shared"), PathBuf::from);
    let path = shared.join("reference/server-everything").join(file);
    let capture: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    capture["tools_list_response"]["result"]["tools"]
        .as_array()
        .unwrap()
        .clone()
}

/// The snapshot's tools of `id` as MCP Tool objects again (without our `server`).
fn as_mcp_tools(snapshot: &Value, id: &str) -> Vec<Value> {
    let mut tools: Vec<Value> = tools_of(snapshot, id)
        .into_iter()
        .map(|t| {
            let mut t = t.clone();
            t.as_object_mut().unwrap().remove("server");
            t
        })
        .collect();
    tools.sort_by(|a, b| a["name"].as_str().cmp(&b["name"].as_str()));
    tools
}

fn assert_matches_the_no_capabilities_capture(snapshot: &Value, id: &str) {
    // apcheck declares no client capabilities, so it gets the 13 tools of `live-nocaps.json`.
    let mut expected = capture_tools("live-nocaps.json");
    expected.sort_by(|a, b| a["name"].as_str().cmp(&b["name"].as_str()));
    let got = as_mcp_tools(snapshot, id);
    assert_eq!(got.len(), 13);
    assert_eq!(got, expected);
    let echo = got.iter().find(|t| t["name"] == "echo").unwrap();
    assert_eq!(echo["inputSchema"]["required"], json!(["message"]));
}

/// `snapshot` passes `check-snapshot` and `drift` against `root`.
fn assert_consistent(snapshot: &Value, root: &Path) {
    let file = root.with_extension("snapshot.json");
    std::fs::write(&file, serde_json::to_string_pretty(snapshot).unwrap()).unwrap();
    let file = file.to_str().unwrap();
    let lint = apcheck(&["check-snapshot", file], &[]);
    assert!(lint.status.success(), "{}", String::from_utf8_lossy(&lint.stdout));
    let drift = apcheck(&["drift", file, root.to_str().unwrap()], &[]);
    assert!(drift.status.success(), "{}", String::from_utf8_lossy(&drift.stdout));
}

#[test]
fn server_everything_over_stdio_matches_its_capture() {
    let entry = server_everything();
    let root = plugin(
        "everything-stdio",
        json!({"everything": {"type": "stdio", "command": "node", "args": [entry, "stdio"]}}),
    );
    let output = connect_with_data(&root);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let snapshot = snapshot_of(&output);
    let everything = server(&snapshot, "everything");
    assert_eq!(everything["status"], "connected");
    assert_eq!(everything["protocolVersion"], "2025-11-25");
    assert_eq!(
        everything["extensions"]["dev.apcheck"]["serverInfo"]["name"],
        "mcp-servers/everything"
    );
    assert_matches_the_no_capabilities_capture(&snapshot, "everything");
    assert_consistent(&snapshot, &root);
    let summary = String::from_utf8_lossy(&output.stderr);
    assert!(summary.contains("connected  everything  stdio"), "{summary}");
    assert!(summary.contains("13 tools"), "{summary}");
}

#[test]
fn server_everything_over_streamable_http_matches_its_capture() {
    let entry = server_everything();
    let port = free_port();
    let _server = Background(
        Command::new("node")
            .arg("--import")
            .arg(repo().join("tests/probe/loopback.mjs"))
            .arg(&entry)
            .arg("streamableHttp")
            .env("PORT", port.to_string())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    wait_for_port(port);
    let root = plugin(
        "everything-http",
        json!({"everything": {"type": "streamable-http", "url": format!("http://127.0.0.1:{port}/mcp")}}),
    );
    let output = connect_with_data(&root);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let snapshot = snapshot_of(&output);
    assert_eq!(server(&snapshot, "everything")["status"], "connected");
    assert_eq!(server(&snapshot, "everything")["protocolVersion"], "2025-11-25");
    assert_matches_the_no_capabilities_capture(&snapshot, "everything");
    assert_consistent(&snapshot, &root);
}

/// The probe plugin: the conformance core plugin's servers (POSIX side), and three that must fail.
fn probe_plugin(port: u16) -> PathBuf {
    let probe = "${PLUGIN_ROOT}/dist/probe.mjs";
    let fixture = "${PLUGIN_ROOT}|${PLUGIN_DATA}|fixture value with spaces";
    let url = |path: &str| format!("http://127.0.0.1:{port}{path}");
    let root = plugin(
        "probe",
        json!({
            "default": {
                "type": "stdio",
                "command": "node",
                "args": [probe, "default", "arg with spaces", "", "${PLUGIN_ROOT}", "${PLUGIN_DATA}", "${APC_UNKNOWN}", "$APC_VALUE", "${PLUGIN_ROOT_SUFFIX}"],
                "env": {
                    "APC_VALUE": "fixture value with spaces",
                    "APC_EXPANSION": "${PLUGIN_ROOT}|${PLUGIN_DATA}|${PLUGIN_ROOT}",
                    "APC_LITERAL": "${APC_UNKNOWN}|$APC_VALUE|${PLUGIN_ROOT_SUFFIX}"
                }
            },
            "relative": {"type": "stdio", "command": "node", "args": [probe, "relative"], "cwd": "./probe-workdir"},
            "root": {"type": "stdio", "command": "node", "args": [probe, "root"], "cwd": "${PLUGIN_ROOT}/probe-workdir"},
            "data": {"type": "stdio", "command": "node", "args": [probe, "data"], "cwd": "${PLUGIN_DATA}"},
            "command-token-posix": {"type": "stdio", "command": "./bin/posix/probe token.sh", "args": ["arg with spaces", "", "literal-value"]},
            "http": {"type": "streamable-http", "url": url("/conformance/mcp?value=$APC_HTTP_VALUE"), "headers": {"AcCePt": "text/plain", "x-apc-fixture": fixture}},
            "sse": {"type": "sse", "url": url("/conformance/sse?value=$APC_SSE_VALUE"), "headers": {"x-apc-fixture": fixture}},
            "http-redirect": {"type": "streamable-http", "url": url("/conformance/redirect"), "headers": {"x-apc-fixture": "public redirect fixture value"}},
            "sse-header-precedence": {"type": "sse", "url": url("/conformance/sse-header-precedence"), "headers": {"AcCePt": "application/x-apc-configured"}},
            "sse-redirect": {"type": "sse", "url": url("/conformance/sse-redirect"), "headers": {"x-apc-fixture": "public SSE redirect fixture value"}},
            "sse-endpoint-origin": {"type": "sse", "url": url("/conformance/sse-endpoint-origin"), "headers": {"x-apc-fixture": "public SSE endpoint fixture value"}},
            "missing-command": {"type": "stdio", "command": "apcheck-test-no-such-command"},
            "never-answers": {"type": "stdio", "command": "node", "args": ["-e", "setInterval(() => {}, 1000)"]},
            "refused-port": {"type": "streamable-http", "url": format!("http://127.0.0.1:{}/mcp", free_port())}
        }),
    );
    let script = root.join("bin/posix/probe token.sh");
    std::fs::create_dir_all(script.parent().unwrap()).unwrap();
    std::fs::write(
        &script,
        "#!/bin/sh\nexec node \"$PLUGIN_ROOT/dist/probe.mjs\" command-token \"$@\"\n",
    )
    .unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    root
}

#[test]
fn the_probe_plugin_shows_every_conformance_case() {
    let log = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("probe-requests-{}.jsonl", std::process::id()));
    let _ = std::fs::remove_file(&log);
    let (_http, port) = probe_http(&log);
    let root = probe_plugin(port);
    let data = root.with_extension("data");
    let output = apcheck(
        &[
            "snapshot",
            root.to_str().unwrap(),
            "--connect",
            "--timeout",
            "10",
            "--data",
            data.to_str().unwrap(),
        ],
        &[("APCHECK_TEST_AMBIENT", "must not reach the servers")],
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    // §7.2.2 rule 5: the failures are reported and everything else goes on; exit 1 for them.
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    let snapshot = snapshot_of(&output);
    let root_text = root.to_str().unwrap();
    let data = data.canonicalize().unwrap();
    let data_text = data.to_str().unwrap();

    for id in [
        "default",
        "relative",
        "root",
        "data",
        "command-token-posix",
        "http",
        "sse",
        "sse-header-precedence",
    ] {
        assert_eq!(
            server(&snapshot, id)["status"],
            "connected",
            "{id}: {}\n{stderr}",
            server(&snapshot, id)
        );
        // Both pages of tools/list, and the unknown Tool members kept as sent.
        let tools = tools_of(&snapshot, id);
        let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
        assert_eq!(names, ["observe", "second-page"], "{id}");
        assert_eq!(tools[0]["execution"], json!({"taskSupport": "forbidden"}), "{id}");
        assert!(tools[0]["x-apcheck-probe"].is_object(), "{id}");
    }
    let reason = |id: &str| server(&snapshot, id)["reason"].as_str().unwrap_or_default().to_string();
    for (id, words) in [
        ("missing-command", "not found on the executable search path"),
        ("never-answers", "no complete answer within 10 s"),
        ("refused-port", "cannot connect to http://127.0.0.1:"),
        ("http-redirect", "refused to follow a redirect"),
        ("sse-redirect", "refused to follow a redirect"),
        ("sse-endpoint-origin", "refused to follow the SSE endpoint event"),
    ] {
        assert_eq!(server(&snapshot, id)["status"], "failed", "{id}");
        assert!(reason(id).contains(words), "{id}: {}", reason(id));
    }
    assert!(reason("http-redirect").contains(&format!("to another origin, http://localhost:{port}")));

    // stdio: the default cwd is the resolved root; the other three forms resolve inside their boundary.
    let default = observed(&snapshot, "default");
    assert_eq!(default["cwd"], root_text);
    assert_eq!(
        observed(&snapshot, "relative")["cwd"],
        root.join("probe-workdir").to_str().unwrap()
    );
    assert_eq!(
        observed(&snapshot, "root")["cwd"],
        root.join("probe-workdir").to_str().unwrap()
    );
    assert_eq!(observed(&snapshot, "data")["cwd"], data_text);
    // §9.1: PLUGIN_ROOT and PLUGIN_DATA, absolute, the same data directory for every server, writable.
    for id in ["default", "relative", "root", "data", "command-token-posix"] {
        let seen = observed(&snapshot, id);
        assert_eq!(seen["env"]["PLUGIN_ROOT"], root_text, "{id}");
        assert_eq!(seen["env"]["PLUGIN_DATA"], data_text, "{id}");
        assert_eq!(seen["dataWritable"], true, "{id}: {}", seen["dataError"]);
        // The default base environment is an allow-list.
        assert!(seen["env"].get("APCHECK_TEST_AMBIENT").is_none(), "{id}");
        assert!(seen["env"].get("PATH").is_some(), "{id}");
    }
    // Argument boundaries, spaces and the empty argument; known placeholders expand, others stay literal.
    assert_eq!(
        default["argv"],
        json!([
            "default",
            "arg with spaces",
            "",
            root_text,
            data_text,
            "${APC_UNKNOWN}",
            "$APC_VALUE",
            "${PLUGIN_ROOT_SUFFIX}"
        ])
    );
    assert_eq!(default["env"]["APC_VALUE"], "fixture value with spaces");
    assert_eq!(
        default["env"]["APC_EXPANSION"],
        format!("{root_text}|{data_text}|{root_text}")
    );
    assert_eq!(
        default["env"]["APC_LITERAL"],
        "${APC_UNKNOWN}|$APC_VALUE|${PLUGIN_ROOT_SUFFIX}"
    );
    // A command path with a space is one token.
    assert_eq!(
        observed(&snapshot, "command-token-posix")["argv"],
        json!(["command-token", "arg with spaces", "", "literal-value"])
    );

    // streamable-http: literal path and query, literal header values, the client's Accept wins.
    let http = &observed(&snapshot, "http")["request"];
    assert_eq!(http["path"], "/conformance/mcp");
    assert_eq!(http["query"], "?value=$APC_HTTP_VALUE");
    assert_eq!(
        http["headers"]["x-apc-fixture"],
        "${PLUGIN_ROOT}|${PLUGIN_DATA}|fixture value with spaces"
    );
    let accept = http["headers"]["accept"].as_str().unwrap();
    assert!(
        accept.contains("application/json") && accept.contains("text/event-stream") && !accept.contains("text/plain"),
        "{accept}"
    );
    // sse: the stream request and the message POSTs keep the literal URL and header values.
    let sse = observed(&snapshot, "sse");
    assert_eq!(sse["stream"]["path"], "/conformance/sse");
    assert_eq!(sse["stream"]["query"], "?value=$APC_SSE_VALUE");
    assert_eq!(
        sse["stream"]["headers"]["x-apc-fixture"],
        "${PLUGIN_ROOT}|${PLUGIN_DATA}|fixture value with spaces"
    );
    let posts = sse["posts"].as_array().unwrap();
    assert!(!posts.is_empty());
    for post in posts {
        assert_eq!(
            post["headers"]["x-apc-fixture"],
            "${PLUGIN_ROOT}|${PLUGIN_DATA}|fixture value with spaces"
        );
    }
    assert_eq!(
        observed(&snapshot, "sse-header-precedence")["stream"]["headers"]["accept"],
        "text/event-stream"
    );

    // No request ever reached the other origin: no redirect followed, no cross-origin endpoint used.
    let requests = std::fs::read_to_string(&log).unwrap();
    let elsewhere: Vec<&str> = requests
        .lines()
        .filter(|l| l.contains(&format!("\"host\":\"localhost:{port}\"")))
        .collect();
    assert!(elsewhere.is_empty(), "{elsewhere:?}");

    // The stderr summary names each server with its status.
    assert!(stderr.contains("failed     missing-command"), "{stderr}");
    assert!(stderr.contains("connected  default"), "{stderr}");
    assert_consistent(&snapshot, &root);
}

#[test]
fn inherit_env_passes_the_whole_environment_and_data_defaults_to_a_temporary_directory() {
    let root = plugin(
        "inherit",
        json!({"default": {"type": "stdio", "command": "node", "args": ["${PLUGIN_ROOT}/dist/probe.mjs", "default"]}}),
    );
    let output = apcheck(
        &["snapshot", root.to_str().unwrap(), "--connect", "--inherit-env"],
        &[("APCHECK_TEST_AMBIENT", "passed on")],
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    let seen = observed(&snapshot_of(&output), "default").clone();
    assert_eq!(seen["env"]["APCHECK_TEST_AMBIENT"], "passed on");
    // Without --data, the run creates PLUGIN_DATA (the server saw it as a
    // folder, §9.1), says where, and removes it when the run ends.
    let data = seen["env"]["PLUGIN_DATA"].as_str().unwrap();
    assert_eq!(seen["dataWritable"], true, "{seen}");
    assert!(
        stderr.contains(&format!(
            "PLUGIN_DATA for this run: {data} (a temporary folder, removed when the run ends"
        )),
        "{stderr}"
    );
    assert!(!Path::new(data).exists(), "{data} is left behind");
}

#[test]
fn check_connect_adds_each_server_to_the_report_in_every_format() {
    let root = plugin(
        "check",
        json!({
            "default": {"type": "stdio", "command": "node", "args": ["${PLUGIN_ROOT}/dist/probe.mjs", "default"]},
            "missing-command": {"type": "stdio", "command": "apcheck-test-no-such-command"}
        }),
    );
    let root_text = root.to_str().unwrap();
    let data = root.with_extension("data");
    let data = data.to_str().unwrap();
    let json_out = apcheck(
        &["check", root_text, "--connect", "--data", data, "--format", "json"],
        &[],
    );
    assert_eq!(json_out.status.code(), Some(1));
    let report: Value = serde_json::from_slice::<Value>(&json_out.stdout).unwrap()["packages"][0].take();
    let findings = report["diagnostics"].as_array().unwrap();
    let connected = findings.iter().find(|d| d["code"] == "AP451").unwrap();
    assert!(
        connected["message"]
            .as_str()
            .unwrap()
            .starts_with("server `default` connected over stdio: protocol 2025-11-25, 2 tools, ")
    );
    let failed = findings.iter().find(|d| d["code"] == "AP450").unwrap();
    assert!(
        failed["message"]
            .as_str()
            .unwrap()
            .contains("`missing-command` failed over stdio")
    );
    assert_eq!(failed["file"], "mcp.json");
    for format in ["text", "sarif", "github", "markdown"] {
        let out = apcheck(
            &["check", root_text, "--connect", "--data", data, "--format", format],
            &[],
        );
        assert_eq!(out.status.code(), Some(1), "{format}");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains("AP450") && text.contains("AP451"), "{format}: {text}");
    }
    // Without --connect nothing is launched: no AP45x at all.
    let offline = apcheck(&["check", root_text, "--format", "json"], &[]);
    assert!(!String::from_utf8_lossy(&offline.stdout).contains("AP45"));
}

#[test]
fn the_invoice_ops_remote_server_fails_with_a_reason_offline() {
    let root = repo().join("tests/fixtures/invoice-ops");
    let output = apcheck(
        &["snapshot", root.to_str().unwrap(), "--connect", "--timeout", "5"],
        &[],
    );
    assert_eq!(output.status.code(), Some(1));
    let snapshot = snapshot_of(&output);
    let remote = server(&snapshot, "invoice-tools");
    assert_eq!(remote["status"], "failed");
    assert!(
        remote["reason"].as_str().unwrap().contains("billing.example.com"),
        "{remote}"
    );
}

#[test]
fn connect_options_are_checked() {
    let root = plugin("usage", json!({}));
    let root_text = root.to_str().unwrap();
    // --data without --connect, and an unknown --server, are usage errors (2).
    assert_eq!(
        apcheck(&["snapshot", root_text, "--data", "/tmp/x"], &[]).status.code(),
        Some(2)
    );
    assert_eq!(
        apcheck(&["snapshot", root_text, "--connect", "--server", "nope"], &[])
            .status
            .code(),
        Some(2)
    );
    assert_eq!(
        apcheck(&["snapshot", root_text, "--connect", "--timeout", "0"], &[])
            .status
            .code(),
        Some(2)
    );
    let help = apcheck(&["snapshot", "--help"], &[]);
    assert!(String::from_utf8_lossy(&help.stdout).contains("RUNS CODE FROM THE PACKAGE"));
}

/// Whether process `pid` still runs, two seconds after it should have died.
fn alive(pid: &str) -> bool {
    // A killed grandchild is a zombie until whoever adopted it (init, or a
    // container's first process) reaps it: that is not running. Give the
    // kill a moment to land before calling it a survivor.
    (0..40).all(|_| {
        let state = Command::new("ps")
            .args(["-o", "stat=", "-p", pid.trim()])
            .output()
            .unwrap();
        let state = String::from_utf8_lossy(&state.stdout).trim().to_string();
        let running = !state.is_empty() && !state.starts_with('Z');
        if running {
            std::thread::sleep(Duration::from_millis(50));
        }
        running
    })
}

/// A stdio server that never answers, writing its own pid and its child's
/// (a grandchild of apcheck) into PLUGIN_DATA first.
fn silent_with_grandchild() -> Value {
    json!({"type": "stdio", "command": "sh", "args": ["-c", "sleep 300 & echo $! > \"$PLUGIN_DATA/grandchild\"; echo $$ > \"$PLUGIN_DATA/child\"; wait"]})
}

#[cfg(unix)]
#[test]
fn timed_out_and_interrupted_servers_leave_no_process_behind() {
    // Timeout: the server and what it started are killed when its time is up.
    let root = plugin("reap-timeout", json!({"silent": silent_with_grandchild()}));
    let data = root.with_extension("data");
    let output = apcheck(
        &[
            "snapshot",
            root.to_str().unwrap(),
            "--connect",
            "--timeout",
            "2",
            "--data",
            data.to_str().unwrap(),
        ],
        &[],
    );
    assert_eq!(output.status.code(), Some(1));
    for file in ["child", "grandchild"] {
        let pid = std::fs::read_to_string(data.join(file)).unwrap();
        assert!(!alive(&pid), "{file} {pid} survived the timeout");
    }

    // Ctrl-C: apcheck stops every server and exits 2 without a snapshot.
    let root = plugin("reap-interrupt", json!({"silent": silent_with_grandchild()}));
    let data = root.with_extension("data");
    let _ = std::fs::remove_dir_all(&data);
    let child = Command::new(env!("CARGO_BIN_EXE_apcheck"))
        .args([
            "snapshot",
            root.to_str().unwrap(),
            "--connect",
            "--timeout",
            "60",
            "--data",
            data.to_str().unwrap(),
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let child_pid = (0..400)
        .find_map(|_| {
            std::thread::sleep(Duration::from_millis(25));
            std::fs::read_to_string(data.join("grandchild"))
                .ok()
                .filter(|p| !p.trim().is_empty())?;
            std::fs::read_to_string(data.join("child"))
                .ok()
                .filter(|p| !p.trim().is_empty())
        })
        .expect("the server started within 10 s");
    assert!(
        Command::new("kill")
            .args(["-INT", &child.id().to_string()])
            .status()
            .unwrap()
            .success()
    );
    let (done, finished) = mpsc::channel();
    std::thread::spawn(move || done.send(child.wait_with_output()).unwrap());
    let output = finished
        .recv_timeout(Duration::from_secs(20))
        .expect("apcheck ends after Ctrl-C")
        .unwrap();
    assert_eq!(
        output.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(output.stdout.is_empty());
    assert!(String::from_utf8_lossy(&output.stderr).contains("interrupted"));
    let grandchild = std::fs::read_to_string(data.join("grandchild")).unwrap();
    assert!(!alive(&child_pid), "the server survived Ctrl-C");
    assert!(!alive(&grandchild), "the server's child survived Ctrl-C");
}

#[test]
fn a_2026_07_28_server_is_reached_through_server_discover() {
    // MCP 2026-07-28 has no initialize: apcheck's server/discover probe gets the answer.
    let instant = repo().join("tests/probe/instant.mjs");
    let root = plugin(
        "modern",
        json!({
            "modern": {"type": "stdio", "command": "node", "args": [instant, "modern"]},
            "legacy": {"type": "stdio", "command": "node", "args": [instant]}
        }),
    );
    let output = connect_with_data(&root);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let snapshot = snapshot_of(&output);
    for (id, version) in [("modern", "2026-07-28"), ("legacy", "2025-11-25")] {
        let entry = server(&snapshot, id);
        assert_eq!(entry["protocolVersion"], version, "{id}");
        assert_eq!(
            entry["extensions"]["dev.apcheck"]["serverInfo"]["name"], "instant",
            "{id}"
        );
        let tools = tools_of(&snapshot, id);
        assert_eq!(tools.len(), 2, "{id}: both pages");
        assert_eq!(tools[0]["icons"][0]["src"], "https://example.com/i.png", "{id}");
    }
    assert_consistent(&snapshot, &root);
}

/// What a misbehaving server sends is never reported as its tools, a version
/// no client supports is a failure, and a process that escaped the server's
/// group while holding its stderr does not hold up the run
/// (`tests/probe/hostile.mjs`).
#[test]
fn a_hostile_server_can_neither_forge_tools_nor_hold_up_the_run() {
    let hostile = repo().join("tests/probe/hostile.mjs");
    let launch = |mode: &str| json!({"type": "stdio", "command": "node", "args": [hostile.to_str().unwrap(), mode]});
    let root = plugin(
        "hostile",
        json!({"forge": launch("forge"), "version": launch("version"), "detach": launch("detach")}),
    );
    let started = std::time::Instant::now();
    let output = connect_with_data(&root);
    assert!(
        started.elapsed() < Duration::from_secs(30),
        "the run waited for the detached process"
    );
    let snapshot = snapshot_of(&output);
    // JSON-RPC 2.0 §5: only the answer the client matched to its request counts.
    assert_eq!(server(&snapshot, "forge")["status"], "connected", "{snapshot}");
    let names: Vec<&Value> = tools_of(&snapshot, "forge").iter().map(|t| &t["name"]).collect();
    assert_eq!(names, [&json!("real")]);
    // MCP lifecycle, version negotiation: an unsupported version is a disconnect.
    assert_eq!(server(&snapshot, "version")["status"], "failed");
    let reason = server(&snapshot, "version")["reason"].as_str().unwrap_or_default();
    assert!(reason.contains("protocol version \"2099-12-31\""), "{reason}");
    assert!(tools_of(&snapshot, "version").is_empty());
    assert_eq!(server(&snapshot, "detach")["status"], "connected", "{snapshot}");
}

/// A server whose every `tools/list` page brings thousands of
/// tools, or megabytes of them, and a new cursor, fails with that reason once
/// it passes the caps, instead of filling memory until the timeout.
#[test]
fn a_server_that_lists_without_end_fails_at_the_caps_not_the_timeout() {
    let hostile = repo().join("tests/probe/hostile.mjs");
    let launch = |mode: &str| json!({"type": "stdio", "command": "node", "args": [hostile.to_str().unwrap(), mode]});
    let root = plugin(
        "endless",
        json!({"endless": launch("endless"), "bulky": launch("bulky")}),
    );
    let output = connect_with_data(&root);
    assert_eq!(output.status.code(), Some(1));
    let snapshot = snapshot_of(&output);
    for (id, cause) in [("endless", "passed 10000 tools"), ("bulky", "passed 16 MiB of tools")] {
        assert_eq!(server(&snapshot, id)["status"], "failed", "{snapshot}");
        let reason = server(&snapshot, id)["reason"].as_str().unwrap_or_default();
        assert!(reason.contains(cause), "{id}: {reason}");
        assert!(tools_of(&snapshot, id).is_empty());
    }
}

/// The number of milliseconds in `failed over stdio after N ms` of the AP450 for `id`.
fn reported_ms(check_json: &Value, id: &str) -> u128 {
    let message = check_json["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|d| d["message"].as_str())
        .find(|m| m.starts_with(&format!("server `{id}` ")))
        .unwrap_or_else(|| panic!("no finding for {id}: {check_json}"));
    let after = message.split(" after ").nth(1).unwrap_or_else(|| panic!("{message}"));
    after
        .split(" ms")
        .next()
        .unwrap()
        .parse()
        .unwrap_or_else(|_| panic!("{message}"))
}

/// The reported time of a server that never answers used to be the timeout
/// plus the half second spent on its stderr after it was reaped
/// (10,658 ms under 10 s). One deadline covers start, handshake and listing,
/// and what comes after is not the server's time.
#[test]
fn the_time_of_a_server_that_never_answers_is_its_timeout_not_more() {
    let hostile = repo().join("tests/probe/hostile.mjs");
    let root = plugin(
        "mute",
        json!({"mute": {"type": "stdio", "command": "node", "args": [hostile.to_str().unwrap(), "mute"]}}),
    );
    let output = apcheck(
        &[
            "check",
            root.to_str().unwrap(),
            "--connect",
            "--timeout",
            "1",
            "--format",
            "json",
        ],
        &[],
    );
    assert_eq!(output.status.code(), Some(1));
    let report: Value = serde_json::from_slice::<Value>(&output.stdout).unwrap()["packages"][0].take();
    let ms = reported_ms(&report, "mute");
    // The stderr wait alone is 500 ms; a late timer is a few.
    assert!((1000..1300).contains(&ms), "{ms} ms reported for a 1 s timeout");
}

/// Once the tools are listed, a DELETE that never answers
/// neither fails the server (it did at `--timeout 3`) nor takes its time.
#[test]
fn a_session_whose_delete_never_answers_is_still_connected() {
    let mut command = Command::new("node");
    command.arg(repo().join("tests/probe/hostile.mjs")).arg("nodelete");
    let (_server, port) = listening(command);
    let root = plugin(
        "nodelete",
        json!({"nodelete": {"type": "streamable-http", "url": format!("http://127.0.0.1:{port}/mcp")}}),
    );
    let data = root.with_extension("data");
    let output = apcheck(
        &[
            "snapshot",
            root.to_str().unwrap(),
            "--connect",
            "--timeout",
            "3",
            "--data",
            data.to_str().unwrap(),
        ],
        &[],
    );
    let snapshot = snapshot_of(&output);
    assert_eq!(server(&snapshot, "nodelete")["status"], "connected", "{snapshot}");
    let names: Vec<&Value> = tools_of(&snapshot, "nodelete").iter().map(|t| &t["name"]).collect();
    assert_eq!(names, [&json!("real")]);
    assert_eq!(output.status.code(), Some(0));
}

/// A server that echoes its credential (on stderr, in its serverInfo and a
/// tool, in a 401 body, in a JSON-RPC error) gets it into no output: every
/// value the configuration holds in `env`, `headers` and a URL's query is a known secret for
/// the run, masked in every format, on stderr and in the snapshot
/// (`tests/probe/hostile.mjs`).
#[test]
fn credentials_a_server_echoes_reach_no_output() {
    const TOKEN: &str = "k7Qx2pL9vR4mZ8wT1nB6cY3d";
    const MASKED: &str = "…(24 chars)";
    let hostile = repo().join("tests/probe/hostile.mjs");
    let port = free_port();
    let _http = Background(
        Command::new("node")
            .arg(&hostile)
            .arg("http")
            .arg(port.to_string())
            .stdin(Stdio::null())
            .spawn()
            .expect("node is needed for the live tests"),
    );
    wait_for_port(port);
    let stdio = |mode: &str| json!({"type": "stdio", "command": "node", "args": [hostile.to_str().unwrap(), mode], "env": {"API_TOKEN": TOKEN}});
    let http = |path: &str| json!({"type": "streamable-http", "url": format!("http://127.0.0.1:{port}{path}"), "headers": {"X-Api-Key": TOKEN}});
    let root = plugin(
        "echo",
        json!({
            "auth": stdio("auth"),
            "echo": stdio("echo"),
            "unauthorized": http("/401"),
            "rpc": http("/rpc"),
            // The HTTP client's error quotes the URL it was sending to, query and all.
            "query": {"type": "streamable-http", "url": format!("http://127.0.0.1:{port}/close?api_key={TOKEN}")},
        }),
    );
    let data = root.with_extension("data");
    let (root_text, data) = (root.to_str().unwrap(), data.to_str().unwrap());
    let snapshot_run = apcheck(&["snapshot", root_text, "--connect", "--data", data], &[]);
    let snapshot = snapshot_of(&snapshot_run);
    // Each server did echo the token: what it said is there, the token masked.
    for (id, said) in [
        ("auth", "auth failed for token "),
        ("unauthorized", "invalid X-Api-Key "),
        ("rpc", "unknown key "),
        ("query", "api_key="),
    ] {
        let reason = server(&snapshot, id)["reason"].as_str().unwrap_or_default();
        assert!(reason.contains(&format!("{said}{MASKED}")), "{id}: {reason}");
    }
    assert_eq!(server(&snapshot, "echo")["status"], "connected", "{snapshot}");
    let names: Vec<&Value> = tools_of(&snapshot, "echo").iter().map(|t| &t["name"]).collect();
    assert_eq!(names, [&json!(format!("tool-{MASKED}"))]);
    let mut runs = vec![("snapshot".to_string(), snapshot_run)];
    for format in ["text", "github", "json", "sarif", "markdown"] {
        let run = apcheck(
            &["check", root_text, "--connect", "--data", data, "--format", format],
            &[],
        );
        assert!(String::from_utf8_lossy(&run.stdout).contains("AP450"), "{format}");
        runs.push((format!("check --format {format}"), run));
    }
    for (what, run) in runs {
        for (stream, bytes) in [("stdout", &run.stdout), ("stderr", &run.stderr)] {
            let text = String::from_utf8_lossy(bytes);
            assert!(!text.contains(TOKEN), "{what}, {stream}: {text}");
        }
    }
}

/// `snapshot --failed` takes a reason from the command line, where a pasted
/// error may hold a token: a well-known credential shape is masked in the
/// snapshot as stderr masks it.
#[test]
fn a_failed_reason_keeps_no_token_in_the_snapshot() {
    let token = format!("ghp_{}", "a1B2c3D4e5".repeat(4));
    let root = plugin(
        "failed-reason",
        json!({"web": {"type": "streamable-http", "url": "https://mcp.example.com/mcp"}}),
    );
    let run = apcheck(
        &[
            "snapshot",
            root.to_str().unwrap(),
            "--failed",
            &format!("web=401 for token {token}"),
        ],
        &[],
    );
    let snapshot = snapshot_of(&run);
    assert_eq!(server(&snapshot, "web")["reason"], "401 for token ghp_…(44 chars)");
    assert!(!String::from_utf8_lossy(&run.stdout).contains(&token));
}

/// A reason pasted into `snapshot --failed` may echo what the package itself
/// configures for a server: its `env`, its `headers` and its URL's secret
/// query values are known secrets there too, as at the live edge, whichever
/// server's they are.
#[test]
fn a_failed_reason_keeps_no_configured_secret_in_the_snapshot() {
    const KEY: &str = "k7Qx2pL9vR4mZ8wT1nB6cY3d";
    const TOKEN: &str = "Zr5Tq8Wn3Yb6Mc1Vx4Ls7Pd9";
    const QUERY_KEY: &str = "Pq4Wm8Xz2Rt6Yn1Bv5Lc9Kd3";
    let root = plugin(
        "failed-configured",
        json!({
            "web": {"type": "streamable-http", "url": format!("https://mcp.example.com/mcp?api_key={QUERY_KEY}"), "headers": {"X-Api-Key": KEY}},
            "local": {"type": "stdio", "command": "node", "args": ["dist/probe.mjs"], "env": {"API_TOKEN": TOKEN}},
        }),
    );
    let run = apcheck(
        &[
            "snapshot",
            root.to_str().unwrap(),
            "--failed",
            &format!("web=invalid X-Api-Key {KEY} for https://mcp.example.com/mcp?api_key={QUERY_KEY}"),
            "--failed",
            &format!("local=auth failed for token {TOKEN}"),
        ],
        &[],
    );
    let snapshot = snapshot_of(&run);
    assert_eq!(
        server(&snapshot, "web")["reason"],
        "invalid X-Api-Key …(24 chars) for https://mcp.example.com/mcp?api_key=…(24 chars)"
    );
    assert_eq!(
        server(&snapshot, "local")["reason"],
        "auth failed for token …(24 chars)"
    );
    let stdout = String::from_utf8_lossy(&run.stdout);
    for secret in [KEY, TOKEN, QUERY_KEY] {
        assert!(!stdout.contains(secret), "{stdout}");
    }
}
