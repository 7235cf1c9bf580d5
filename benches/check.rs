//! How long checking a large plugin takes: a generated root with 500 skills
//! and 200 MCP servers, timed as the core sees it (`read_tree` +
//! `check_package`) and as a user does (the whole `apcheck check` process).
//!
//! Run with `cargo bench --bench check`. It prints medians; the target is a
//! whole process under 50 ms. Nothing here asserts a time: machines differ.

use std::fs;
use std::hint::black_box;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use apcheck::disk::read_tree;
use apcheck::tree::Limits;

const SKILLS: usize = 500;
const SERVERS: usize = 200;
/// Timed runs per measurement under `cargo bench`; `cargo test --all-targets`
/// runs this binary too (without `--bench`), and then one run is a smoke test.
const RUNS: usize = 30;
const TARGET: Duration = Duration::from_millis(50);

fn main() {
    let runs = if std::env::args().any(|arg| arg == "--bench") {
        RUNS
    } else {
        1
    };
    let dir = tempfile::tempdir().expect("a temporary directory");
    generate(dir.path());

    let report = apcheck::check_package("bench", &read_tree(dir.path(), Limits::default()).expect("readable"));
    println!(
        "plugin: {:?}, {} skills discovered, {} servers valid, {} diagnostics",
        report.plugin.state,
        report.summary.skills_discovered,
        report.summary.servers_valid,
        report.diagnostics.len()
    );

    let core = median(runs, || {
        let tree = read_tree(dir.path(), Limits::default()).expect("readable");
        black_box(apcheck::check_package("bench", &tree));
    });
    println!("read_tree + check_package: median {core:.2?} over {runs} runs");

    for format in ["text", "json"] {
        let process = median(runs, || {
            let status = Command::new(env!("CARGO_BIN_EXE_apcheck"))
                .args(["check", "--format", format])
                .arg(dir.path())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status()
                .expect("apcheck runs");
            black_box(status);
        });
        let verdict = if runs < RUNS {
            "a smoke run, maybe unoptimized; `cargo bench --bench check` measures".to_string()
        } else if process < TARGET {
            format!("within the {TARGET:?} target")
        } else {
            format!("OVER the {TARGET:?} target")
        };
        println!("apcheck check --format {format} (whole process): median {process:.2?} over {runs} runs, {verdict}");
    }
}

fn median(runs: usize, mut run: impl FnMut()) -> Duration {
    run(); // warm the page cache and the allocator
    let mut times: Vec<Duration> = (0..runs)
        .map(|_| {
            let start = Instant::now();
            run();
            start.elapsed()
        })
        .collect();
    times.sort();
    times[runs / 2]
}

/// A conformant plugin root: `plugin.json`, 500 skills with a few reference
/// files each, and an `mcp.json` with 200 servers, half stdio, half Streamable HTTP.
fn generate(root: &Path) {
    fs::write(
        root.join("plugin.json"),
        r#"{
  "$schema": "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json",
  "name": "bench-plugin",
  "version": "1.0.0",
  "description": "A large generated plugin for timing apcheck"
}
"#,
    )
    .expect("write plugin.json");
    for i in 0..SKILLS {
        let dir = root.join(format!("skills/skill-{i:03}"));
        fs::create_dir_all(dir.join("references")).expect("create a skill directory");
        let body = "Follow these steps carefully and report what you found.\n".repeat(40);
        fs::write(
            dir.join("SKILL.md"),
            format!(
                "---\nname: skill-{i:03}\ndescription: Does task number {i} when the user asks for it.\n---\n\n# Skill {i}\n\n{body}"
            ),
        )
        .expect("write SKILL.md");
        fs::write(dir.join("references/notes.md"), "Notes.\n").expect("write a reference");
    }
    fs::create_dir_all(root.join("bin")).expect("create bin");
    fs::write(root.join("bin/server"), "#!/bin/sh\n").expect("write the server");
    let servers: Vec<String> = (0..SERVERS)
        .map(|i| {
            if i % 2 == 0 {
                format!(
                    r#"    "stdio-{i}": {{ "type": "stdio", "command": "./bin/server", "args": ["--port", "{i}"], "env": {{ "MODE": "fast" }} }}"#
                )
            } else {
                format!(r#"    "http-{i}": {{ "type": "streamable-http", "url": "https://mcp.example.com/{i}" }}"#)
            }
        })
        .collect();
    fs::write(
        root.join("mcp.json"),
        format!(
            "{{\n  \"$schema\": \"https://agent-plugins.org/schemas/1.0.0/mcp.schema.json\",\n  \"mcpServers\": {{\n{}\n  }}\n}}\n",
            servers.join(",\n")
        ),
    )
    .expect("write mcp.json");
}
