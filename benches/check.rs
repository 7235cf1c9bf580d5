//! How long checking a large plugin takes: a generated root with 500 skills
//! and 200 MCP servers, timed as the core sees it (`read_tree` +
//! `check_package`) and as a user does (the whole `apcheck check` process).
//!
//! Run with `cargo bench --bench check`. It prints medians; the target is a
//! whole process under 50 ms. Nothing here asserts a time: machines differ.

#[path = "support/large_plugin.rs"]
mod large_plugin;

use std::hint::black_box;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use apcheck::disk::read_tree;
use apcheck::tree::Limits;

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
    large_plugin::generate(dir.path());

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
