//! How long `apcheck lsp` takes from a `didChange` to the
//! `publishDiagnostics` it causes, on the generated 500-skill package: the
//! whole package is re-checked (disk tree + unsaved buffers) on every change.
//!
//! The server runs with `debounceMs: 0`, so this is the work per change; an
//! editor adds the debounce (50 ms by default), which only coalesces bursts.
//! Run with `cargo bench --bench lsp`; the goal is under 30 ms. It prints
//! medians and asserts no time: machines differ.

#[path = "support/figures.rs"]
mod figures;
#[path = "support/large_plugin.rs"]
mod large_plugin;
#[path = "../tests/support/lsp_client.rs"]
mod lsp_client;

use std::time::{Duration, Instant};

use lsp_client::{Client, change, open};
use serde_json::json;

const RUNS: usize = 30;
const GOAL: Duration = Duration::from_millis(30);

fn main() {
    let runs = if std::env::args().any(|arg| arg == "--bench") {
        RUNS
    } else {
        1
    };
    let dir = tempfile::tempdir().expect("a temporary directory");
    let root = dir.path().canonicalize().expect("a real path");
    large_plugin::generate(&root);
    let skill_path = root.join("skills/skill-042/SKILL.md");
    let skill = format!("file://{}", skill_path.display());
    let original = std::fs::read_to_string(&skill_path).expect("the generated skill");
    // A name that does not match its directory: one finding, then none again.
    let broken = original.replace("name: skill-042", "name: skill-42");

    let mut client = Client::start(json!({"debounceMs": 0}));
    open(&mut client, &skill, &original);
    assert_eq!(client.diagnostics_for(&skill), Vec::<serde_json::Value>::new());

    let mut times = Vec::with_capacity(runs + 1);
    for version in 0..=runs {
        let (text, expect_findings) = if version % 2 == 0 {
            (&broken, true)
        } else {
            (&original, false)
        };
        let start = Instant::now();
        change(&mut client, &skill, version as i32 + 2, text);
        let diagnostics = client.diagnostics_for(&skill);
        let elapsed = start.elapsed();
        assert_eq!(!diagnostics.is_empty(), expect_findings, "{diagnostics:?}");
        if version > 0 {
            times.push(elapsed); // the first change warms the allocator
        }
    }
    client.shutdown();
    times.sort();
    let median = times[times.len() / 2];
    let verdict = if runs < RUNS {
        "a smoke run, maybe unoptimized; `cargo bench --bench lsp` measures".to_string()
    } else if median < GOAL {
        format!("within the {GOAL:?} goal")
    } else {
        format!("OVER the {GOAL:?} goal")
    };
    println!(
        "apcheck lsp, didChange → publishDiagnostics on {} skills and {} servers: median {median:.2?} over {} changes, {verdict}",
        large_plugin::SKILLS,
        large_plugin::SERVERS,
        times.len()
    );
    if runs == RUNS {
        figures::record(
            "lsp",
            &[figures::Figure {
                id: "lsp-didchange".into(),
                row: format!(
                    "`apcheck lsp`: didChange → publishDiagnostics on the {}-skill plugin (the whole package re-checked)",
                    large_plugin::SKILLS
                ),
                figure: format!("{:.1} ms", median.as_secs_f64() * 1000.0),
                goal: format!("< {} ms", GOAL.as_millis()),
            }],
        );
    }
}
