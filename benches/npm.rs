//! What the wasm costs: `apcheck check` through the npm package (Node, the
//! core in WebAssembly) against the native CLI, on the generated 500-skill
//! package, whole processes, and the part that is Node starting and
//! instantiating the wasm. Needs `npm run build:npm` (it says so and stops
//! otherwise) and `node` on PATH.
//!
//! Run with `cargo bench --bench npm`. It prints medians; nothing here
//! asserts a time.

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
    println!("  native CLI:              median {native:.2?}");
    println!(
        "  npx apcheck (wasm):      median {wasm:.2?}, {:.1}x the native time",
        wasm.as_secs_f64() / native.as_secs_f64()
    );
    println!("  of which Node starting and instantiating the wasm: median {startup:.2?}");
}

fn run(command: &mut Command) {
    let status = command
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .expect("the command runs");
    assert!(status.code().is_some_and(|code| code < 2), "{command:?}: {status}");
}
