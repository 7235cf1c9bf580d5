//! How long the snapshot commands take on a big snapshot pair, and how much
//! memory they hold, next to `apcheck diff` of the same two files (the goal:
//! snapshots as fast as `diff`). The pair is the one
//! `/work/shared/bench/gen-big-snapshots.mjs` writes: 10,000 tools each
//! (3.4 MB minified), B with a major and a minor schema change, a new
//! description, a removed, an added and a moved tool, and a minor version bump.
//!
//! Each row is a whole `apcheck` process, as a user runs it: the median
//! wall time, the peak resident memory (`/usr/bin/time -v`), and both as a
//! ratio to `apcheck diff OLD NEW --format patch`. The goals, set on the
//! machine this was first measured on: `changes` at most 0.15 s and 60 MB,
//! `check-snapshot` at most 0.10 s and 40 MB.
//!
//! Run with `cargo bench --bench snapshot`. Nothing here asserts a time or a
//! size; it fails only when a result is wrong (the pair must compare as
//! generated). `cargo test --all-targets` runs it once, as a smoke test.

#[path = "support/figures.rs"]
mod figures;
#[path = "support/measure.rs"]
mod measure;

use std::fs;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use serde_json::{Value, json};

use measure::{median, peak_resident_mb};

/// Timed runs per row under `cargo bench`.
const RUNS: usize = 11;
/// Tools per snapshot under `cargo bench`, and in the smoke run of `cargo test --all-targets`.
const TOOLS: usize = 10_000;
const SMOKE_TOOLS: usize = 500;

/// A row's goal: wall time and peak resident memory in MB.
type Goal = (Duration, u64);
/// A row: its label, the command's arguments, its files and its goal.
type Row<'a> = (&'a str, Vec<&'a str>, Vec<&'a Path>, Option<Goal>);
/// The goals on the 10,000-tool pair (the smoke run's smaller pair is
/// held to them too, which says little).
const CHANGES_GOAL: Goal = (Duration::from_millis(150), 60);
const CHECK_SNAPSHOT_GOAL: Goal = (Duration::from_millis(100), 40);

fn main() {
    let bench = std::env::args().any(|arg| arg == "--bench");
    let runs = if bench { RUNS } else { 1 };
    let dir = tempfile::tempdir().expect("a temporary directory");
    let (old, new) = (dir.path().join("old.min.json"), dir.path().join("new.min.json"));
    let tools = if bench { TOOLS } else { SMOKE_TOOLS };
    let (old_text, new_text) = pair(tools);
    fs::write(&old, &old_text).expect("write the old snapshot");
    fs::write(&new, &new_text).expect("write the new snapshot");
    let plugin = dir.path().join("plugin");
    write_package(&plugin);

    let changes = apcheck(&["changes", "--format", "json"], &[&old, &new]);
    let report: Value = serde_json::from_slice(&changes.stdout).expect("changes --format json prints JSON");
    let levels = |kind: &str| {
        let mut levels: Vec<&str> = report["changes"]
            .as_array()
            .expect("a change list")
            .iter()
            .filter(|c| c["kind"] == kind)
            .filter_map(|c| c["level"].as_str())
            .collect();
        levels.sort();
        levels
    };
    assert_eq!(
        (
            report["required"].as_str(),
            levels("tool-input-schema"),
            levels("tool-description")
        ),
        (Some("major"), vec!["major", "minor"], vec!["patch"]),
        "the pair compares as generated: {report}"
    );

    let rows: [Row; 4] = [
        (
            "diff --format patch",
            vec!["diff", "--format", "patch"],
            vec![&old, &new],
            None,
        ),
        ("changes", vec!["changes"], vec![&old, &new], Some(CHANGES_GOAL)),
        (
            "check-snapshot",
            vec!["check-snapshot"],
            vec![&old],
            Some(CHECK_SNAPSHOT_GOAL),
        ),
        ("drift", vec!["drift"], vec![&old, &plugin], None),
    ];
    println!(
        "{tools} tools per snapshot, {:.1} MB each; whole processes, median of {runs}",
        old_text.len() as f64 / 1e6
    );
    let mut base = None;
    let mut measured = Vec::new();
    for (name, command, files, goal) in rows {
        let time = median(runs, || {
            apcheck(&command, &files);
        });
        let memory = peak_resident_mb(
            command
                .iter()
                .map(std::ffi::OsStr::new)
                .chain(files.iter().map(|file| file.as_os_str())),
        );
        let (base_time, base_memory) = *base.get_or_insert((time, memory));
        let ratio = |a: f64, b: f64| {
            if b > 0.0 {
                format!("{:.1}x", a / b)
            } else {
                "-".to_string()
            }
        };
        let shown_memory = memory.map_or("unknown (no /usr/bin/time)".to_string(), |mb| format!("{mb} MB"));
        let against_goal = goal.map_or(String::new(), |(goal_time, goal_mb)| {
            let within = time <= goal_time && memory.is_some_and(|mb| mb <= goal_mb);
            format!(
                "   goal {goal_time:.2?} / {goal_mb} MB: {} / {} of it, {}",
                ratio(time.as_secs_f64(), goal_time.as_secs_f64()),
                ratio(memory.unwrap_or(0) as f64, goal_mb as f64),
                if within { "within" } else { "OVER" }
            )
        });
        println!(
            "apcheck {name:<20} median {time:>9.1?}  {:>6} of diff   peak {shown_memory:>7}  {:>6} of diff{against_goal}",
            ratio(time.as_secs_f64(), base_time.as_secs_f64()),
            ratio(memory.unwrap_or(0) as f64, base_memory.unwrap_or(0) as f64),
        );
        measured.push(figures::Figure {
            id: format!("snapshot-{}", command[0]),
            row: format!(
                "`apcheck {name}` on the {tools}-tool snapshot pair ({:.1} MB each), whole process",
                old_text.len() as f64 / 1e6
            ),
            figure: format!(
                "{:.1} ms, peak {shown_memory} ({} and {} of `diff --format patch`)",
                time.as_secs_f64() * 1000.0,
                ratio(time.as_secs_f64(), base_time.as_secs_f64()),
                ratio(memory.unwrap_or(0) as f64, base_memory.unwrap_or(0) as f64),
            ),
            goal: goal.map_or(String::new(), |(goal_time, goal_mb)| {
                format!("≤ {} ms, ≤ {goal_mb} MB", goal_time.as_millis())
            }),
        });
    }
    if bench {
        figures::record("snapshot", &measured);
    } else {
        println!("(a smoke run, maybe unoptimized; `cargo bench --bench snapshot` measures)");
    }
}

/// One generated tool, as gen-big-snapshots.mjs writes it.
fn tool(i: usize) -> Value {
    json!({
        "name": format!("tool_{i:05}"),
        "server": if i % 2 == 1 { "alpha" } else { "beta" },
        "description": format!("Does thing number {i} with the widget API. Use when you need {i}."),
        "inputSchema": {"type": "object", "required": ["id"], "properties": {
            "id": {"type": "string", "pattern": "^[a-z0-9-]+$"},
            "limit": {"type": "integer", "minimum": 1, "maximum": 100},
            "mode": {"type": "string", "enum": ["fast", "slow", "auto"]}}},
    })
}

/// The old and new snapshot texts of `count` tools, minified; the changes
/// sit where the generator puts them in its 10,000 tools, scaled to `count`.
fn pair(count: usize) -> (String, String) {
    let at = |index: usize| index * count / TOOLS;
    let old = json!({
        "$schema": "urn:apcheck:schema:snapshot:1",
        "plugin": {"name": "big-plugin", "version": "2.4.0", "spec": "1.0.0"},
        "skills": [],
        "mcpServers": [{"id": "alpha", "type": "stdio", "status": "connected"},
                       {"id": "beta", "type": "streamable-http", "status": "connected"}],
        "tools": (0..count).map(tool).collect::<Vec<_>>(),
    });
    let mut new = old.clone();
    new["plugin"]["version"] = json!("2.5.0");
    let tools = new["tools"].as_array_mut().expect("tools");
    tools[at(17)]["description"] = json!("Changed description");
    tools[at(5000)]["inputSchema"]["required"]
        .as_array_mut()
        .expect("required")
        .push(json!("mode"));
    tools[at(9998)]["inputSchema"]["properties"]["mode"]["enum"]
        .as_array_mut()
        .expect("enum")
        .push(json!("turbo"));
    tools.remove(at(4321));
    tools.push(tool(count));
    let moved = tools.remove(at(7000));
    tools.insert(0, moved);
    (old.to_string(), new.to_string())
}

/// The package the snapshot describes: its manifest and its two servers.
fn write_package(root: &Path) {
    fs::create_dir_all(root).expect("create the plugin directory");
    fs::write(
        root.join("plugin.json"),
        r#"{"$schema": "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json", "name": "big-plugin", "version": "2.4.0"}"#,
    )
    .expect("write plugin.json");
    fs::write(
        root.join("mcp.json"),
        r#"{"$schema": "https://agent-plugins.org/schemas/1.0.0/mcp.schema.json", "mcpServers": {
  "alpha": {"type": "stdio", "command": "alpha-server"},
  "beta": {"type": "streamable-http", "url": "https://beta.example.com/mcp"}}}"#,
    )
    .expect("write mcp.json");
}

fn apcheck(args: &[&str], files: &[&Path]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_apcheck"))
        .args(args)
        .args(files)
        .stderr(Stdio::null())
        .output()
        .expect("apcheck runs")
}
