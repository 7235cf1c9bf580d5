//! How long `--connect` takes for a plugin with 10 stdio servers that answer
//! at once (`tests/probe/instant.mjs`, canned replies on node): launch,
//! `server/discover` refused, `initialize`, both `tools/list` pages, all in
//! parallel, then every process killed and reaped. Timed through
//! `apcheck::live::connect`, as the CLI calls it.
//!
//! Run with `cargo bench --bench connect` (needs node). It prints the median;
//! the aim is well under a second. Nothing here asserts a time.

#[path = "support/figures.rs"]
mod figures;

use std::path::Path;
use std::time::{Duration, Instant};

use apcheck::disk::read_tree;
use apcheck::live::{self, Options, Places, Progress};
use apcheck::tree::Limits;
use serde_json::json;

const SERVERS: usize = 10;
const RUNS: usize = 7;

fn main() {
    let runs = if std::env::args().any(|arg| arg == "--bench") {
        RUNS
    } else {
        1
    };
    let server = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/probe/instant.mjs");
    let dir = tempfile::tempdir().expect("a temporary directory");
    let data = tempfile::tempdir().expect("a data directory");
    let servers: serde_json::Map<String, serde_json::Value> = (0..SERVERS)
        .map(|i| {
            let id = format!("instant-{i:02}");
            (id, json!({"type": "stdio", "command": "node", "args": [server]}))
        })
        .collect();
    std::fs::write(
        dir.path().join("plugin.json"),
        json!({"$schema": "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json", "name": "bench"}).to_string(),
    )
    .expect("plugin.json");
    std::fs::write(
        dir.path().join("mcp.json"),
        json!({"$schema": "https://agent-plugins.org/schemas/1.0.0/mcp.schema.json", "mcpServers": servers})
            .to_string(),
    )
    .expect("mcp.json");
    let tree = read_tree(dir.path(), Limits::default()).expect("readable");
    let report = apcheck::check_package("bench", &tree);
    let places = Places {
        root: dir.path().canonicalize().expect("resolvable"),
        data: data.path().canonicalize().expect("resolvable"),
    };
    let options = Options {
        timeout: live::DEFAULT_TIMEOUT,
        inherit_env: false,
        servers: Vec::new(),
    };
    let mut times: Vec<Duration> = Vec::with_capacity(runs);
    for _ in 0..runs {
        let started = Instant::now();
        let run = live::connect(&report.package, &places, &options, &mut |_: Progress| {}).expect("connects");
        times.push(started.elapsed());
        let connected = run.attempts.iter().filter(|a| a.outcome.is_ok()).count();
        assert_eq!(connected, SERVERS, "every server connects: {:?}", run.attempts);
    }
    times.sort();
    let median = times[times.len() / 2];
    println!(
        "connect {SERVERS} stdio servers (launch, handshake, 2 pages of tools/list, kill and reap): median {median:?} over {runs} runs (aim: well under 1 s)"
    );
    if runs == RUNS {
        figures::record(
            "connect",
            &[figures::Figure {
                id: "connect-10".into(),
                row: format!(
                    "`--connect` to {SERVERS} stdio servers that answer at once, from launch to the last process reaped"
                ),
                figure: format!("{:.1} ms", median.as_secs_f64() * 1000.0),
                goal: "well under 1 s".into(),
            }],
        );
    }
}
