//! The benchmarks' rows of the book's figures table (`docs/figures.md`): a
//! measured run (`cargo bench`, never the smoke run `cargo test` makes of a
//! bench) appends them to `target/figures/<bench>.jsonl`, and
//! `scripts/figures.mjs` merges them into `docs/figures.json` and renders the
//! page. The table is then what the benchmarks printed, not a copy by hand.

use std::io::Write;
use std::path::Path;

/// One row: a stable `id` (the record keeps a row's place by it), what was
/// measured, the figure as shown, and the goal, if the row has one.
pub struct Figure {
    pub id: String,
    pub row: String,
    pub figure: String,
    pub goal: String,
}

/// Appends `figures` as rows of `cargo bench --bench {bench}`. Appended, not
/// written over: `scripts/bench-page.mjs` runs part of the `json` bench again
/// after `cargo bench` ran all of it, and the merge keeps the last row of
/// each id, so both runs' rows count.
pub fn record(bench: &str, figures: &[Figure]) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/figures");
    std::fs::create_dir_all(&dir).expect("create target/figures");
    let mut lines = Vec::new();
    for figure in figures {
        let row = serde_json::json!({
            "id": figure.id,
            "row": figure.row,
            "figure": figure.figure,
            "goal": figure.goal,
            "by": format!("cargo bench --bench {bench}"),
        });
        writeln!(lines, "{row}").expect("writes to memory");
    }
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(dir.join(format!("{bench}.jsonl")))
        .and_then(|mut file| file.write_all(&lines))
        .expect("write the figures");
}
