//! What the wasm costs: `apcheck check` through the npm package (Node, the
//! core in WebAssembly) against the native CLI, on the generated 500-skill
//! package, whole processes, and the part that is Node starting and
//! instantiating the wasm. Needs `npm run build:npm` (it says so and stops
//! otherwise) and `node` on PATH.
//!
//! Run with `cargo bench --bench npm`. It prints medians; nothing here
//! asserts a time.

#[path = "support/figures.rs"]
mod figures;
#[path = "support/large_plugin.rs"]
mod large_plugin;
#[path = "support/measure.rs"]
mod measure;

use std::path::Path;
use std::process::{Command, Stdio};

use measure::median;

const RUNS: usize = 15;

fn main() {
    let runs = if std::env::args().any(|arg| arg == "--bench") {
        RUNS
    } else {
        1
    };
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let npm_cli = repo.join("npm/bin/apcheck.js");
    if !repo.join("npm/wasm/apcheck_bg.wasm").exists() {
        println!("npm: skipped, the package is not built (npm run build:npm)");
        return;
    }
    let dir = tempfile::tempdir().expect("a temporary directory");
    large_plugin::generate(dir.path());
    let root = dir.path().to_str().expect("a UTF-8 path");

    let native = median(runs, || {
        run(Command::new(env!("CARGO_BIN_EXE_apcheck")).args(["check", "--format", "json", root]))
    });
    let wasm = median(runs, || {
        run(Command::new("node")
            .arg(&npm_cli)
            .args(["check", "--format", "json", root]))
    });
    let node = median(runs, || run(Command::new("node").args(["-e", ""])));
    let startup = median(runs, || {
        run(Command::new("node").args(["--input-type=module", "-e"]).arg(format!(
            "await import({:?})",
            repo.join("npm/node.js").display().to_string()
        )))
    });
    let label = if runs < RUNS {
        " (a smoke run, maybe unoptimized)"
    } else {
        ""
    };
    println!(
        "apcheck check --format json on {} skills and {} servers, whole process{label}:",
        large_plugin::SKILLS,
        large_plugin::SERVERS
    );
    let native_ms = native.as_secs_f64() * 1000.0;
    let wasm_ms = wasm.as_secs_f64() * 1000.0;
    let node_ms = node.as_secs_f64() * 1000.0;
    // The goal: within three times the native time, plus what Node itself
    // takes to start, which no package can save.
    let goal_ms = 3.0 * native_ms + node_ms;
    println!("  native CLI:              median {native_ms:>7.1} ms");
    println!(
        "  npx apcheck (wasm):      median {wasm_ms:>7.1} ms, {:.1}x the native time, {:.1}x Node's start-up; goal <= 3x native + Node's start-up = {goal_ms:.1} ms: {}",
        wasm_ms / native_ms,
        wasm_ms / node_ms,
        if wasm_ms <= goal_ms { "met" } else { "not met" }
    );
    println!(
        "  beyond Node's start-up:  {:>7.1} ms, {:.1}x the native time",
        wasm_ms - node_ms,
        (wasm_ms - node_ms) / native_ms
    );
    println!("  Node's start-up (node -e ''): median {node_ms:.1} ms");
    let startup_ms = startup.as_secs_f64() * 1000.0;
    println!("  Node starting and instantiating the wasm: median {startup_ms:.1} ms");
    if runs == RUNS {
        figures::record(
            "npm",
            &[figures::Figure {
                id: "npm-check".into(),
                row: format!(
                    "`npx apcheck check --format json` on the {}-skill plugin, against the native CLI",
                    large_plugin::SKILLS
                ),
                figure: format!(
                    "{wasm_ms:.1} ms; native CLI {native_ms:.1} ms ({:.1}×); Node starting and instantiating the wasm {startup_ms:.1} ms of it",
                    wasm_ms / native_ms
                ),
                goal: format!("≤ 3× native + Node's start-up ({goal_ms:.1} ms)"),
            }],
        );
    }
}

fn run(command: &mut Command) {
    let status = command
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .expect("the command runs");
    assert!(status.code().is_some_and(|code| code < 2), "{command:?}: {status}");
}
