//! How long checking a large plugin takes, and how much memory it holds:
//! - a generated root with 500 skills and 200 MCP servers, timed as the core
//!   sees it (`list_tree` + `check_package`) and as a user does (the whole
//!   `apcheck check` process); the target is a whole process under 50 ms;
//! - the many-skills rows, a root with as many skills as the reader's default
//!   entry limit lets it read whole ([`MANY_SKILLS`]), as a whole process:
//!   median time and peak resident memory (`/usr/bin/time -v`), against the
//!   goal of 1.2 s and 80 MB; one row per body size ([`BODY_BYTES`]), since
//!   the peak must not grow with the bodies, which are read and dropped one
//!   at a time (each row shows its peak as a ratio of the smallest bodies');
//! - the wide-frontmatter row, eight skills whose frontmatter `metadata`
//!   holds 48,000 keys each (38 s while duplicate keys were found by a scan),
//!   as the core sees it.
//!
//! Run with `cargo bench --bench check`. It prints medians; nothing here
//! asserts a time or a size, machines differ. It fails only when a result is
//! wrong: the conformant generated plugins must check clean.

#[path = "support/figures.rs"]
mod figures;
#[path = "support/large_plugin.rs"]
mod large_plugin;
#[path = "support/measure.rs"]
mod measure;

use std::fs;
use std::hint::black_box;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use apcheck::disk::list_tree;
use apcheck::tree::Limits;
use figures::Figure;
use measure::{median, peak_resident_mb};

/// Timed runs per measurement under `cargo bench`; `cargo test --all-targets`
/// runs this binary too (without `--bench`), and then one run is a smoke test.
const RUNS: usize = 30;
/// Whole-process runs of the many-skills check under `cargo bench`.
const MANY_RUNS: usize = 5;
const TARGET: Duration = Duration::from_millis(50);

/// Each skill is two entries (its folder and its SKILL.md), and `plugin.json`
/// and `skills/` are two more, so 49,999 skills fill the default 100,000-entry
/// limit: "50,000 skills" (100,002 entries) would be a partial check (AP007).
const MANY_SKILLS: usize = (100_000 - 2) / 2;
/// The smoke run's stand-in, so `cargo test` stays quick.
const SMOKE_SKILLS: usize = 1_000;
/// The goal for the many-skills rows: wall time and peak resident memory in MB.
const MANY_GOAL: (Duration, u64) = (Duration::from_millis(1_200), 80);
/// The body sizes of the many-skills rows: about 0.2, 2 and 20 KB.
/// 20,000 bytes is the most a conformant body holds (5,000 tokens at 4 bytes
/// each), so every row still checks clean.
const BODY_BYTES: [usize; 3] = [200, 2_000, 20_000];

fn main() {
    let bench = std::env::args().any(|arg| arg == "--bench");
    let runs = if bench { RUNS } else { 1 };
    assert_eq!(
        2 + 2 * MANY_SKILLS,
        Limits::default().max_entries,
        "the many-skills plugin fills the entry limit"
    );
    let dir = tempfile::tempdir().expect("a temporary directory");
    large_plugin::generate(dir.path());

    let report = apcheck::check_package("bench", &list_tree(dir.path(), Limits::default()).expect("readable"));
    println!(
        "plugin: {:?}, {} skills discovered, {} servers valid, {} diagnostics",
        report.plugin.state,
        report.summary.skills_discovered,
        report.summary.servers_valid,
        report.diagnostics.len()
    );

    let core = median(runs, || {
        let tree = list_tree(dir.path(), Limits::default()).expect("readable");
        black_box(apcheck::check_package("bench", &tree));
    });
    println!("list_tree + check_package: median {core:.2?} over {runs} runs");
    let mut rows = vec![Figure {
        id: "check-500-core".into(),
        row: "`check` of a generated plugin with 500 skills and 200 servers: list and check, in process".into(),
        figure: format!("{:.1} ms", core.as_secs_f64() * 1000.0),
        goal: String::new(),
    }];

    for format in ["text", "json"] {
        let process = median(runs, || {
            black_box(check_process(dir.path(), format));
        });
        let verdict = if !bench {
            "a smoke run, maybe unoptimized; `cargo bench --bench check` measures".to_string()
        } else if process < TARGET {
            format!("within the {TARGET:?} target")
        } else {
            format!("OVER the {TARGET:?} target")
        };
        println!("apcheck check --format {format} (whole process): median {process:.2?} over {runs} runs, {verdict}");
        rows.push(Figure {
            id: format!("check-500-{format}"),
            row: format!("`apcheck check --format {format}` of the 500-skill, 200-server plugin, whole process"),
            figure: format!("{:.1} ms", process.as_secs_f64() * 1000.0),
            goal: format!("< {} ms", TARGET.as_millis()),
        });
    }

    rows.extend(many_skills(bench));
    rows.push(wide_frontmatter(bench));
    if bench {
        figures::record("check", &rows);
    }
}

/// The wide-frontmatter row: eight skills with a 48,000-key `metadata` mapping each.
fn wide_frontmatter(bench: bool) -> Figure {
    let (skills, keys) = if bench { (8, 48_000) } else { (1, 1_000) };
    let dir = tempfile::tempdir().expect("a temporary directory");
    generate_skills(dir.path(), skills, BODY_BYTES[0]);
    let metadata: String = (0..keys).map(|i| format!("  k{i}: \"v{i}\"\n")).collect();
    for i in 0..skills {
        let name = format!("skill-{i:05}");
        let file = dir.path().join("skills").join(&name).join("SKILL.md");
        fs::write(
            file,
            format!("---\nname: {name}\ndescription: Does task number {i} when the user asks for it.\nmetadata:\n{metadata}---\n"),
        )
        .expect("write SKILL.md");
    }
    let tree = list_tree(dir.path(), Limits::default()).expect("readable");
    let report = apcheck::check_package("bench", &tree);
    assert_eq!(report.summary.skills_discovered, skills, "{:#?}", report.diagnostics);
    let time = median(if bench { 5 } else { 1 }, || {
        black_box(apcheck::check_package("bench", &tree));
    });
    println!("check_package of {skills} skills with {keys} metadata keys each: median {time:.2?}");
    Figure {
        id: "check-wide-frontmatter".into(),
        row: format!("`check` of {skills} skills whose `metadata` holds {keys} keys each, in process"),
        figure: format!("{:.1} ms", time.as_secs_f64() * 1000.0),
        goal: String::new(),
    }
}

/// The many-skills rows: `apcheck check` of a plugin with [`MANY_SKILLS`] skills,
/// once for each of [`BODY_BYTES`].
fn many_skills(bench: bool) -> Vec<Figure> {
    let skills = if bench { MANY_SKILLS } else { SMOKE_SKILLS };
    let runs = if bench { MANY_RUNS } else { 1 };
    let mut smallest: Option<u64> = None;
    let mut rows = Vec::new();
    for body_bytes in BODY_BYTES {
        let dir = tempfile::tempdir().expect("a temporary directory");
        generate_skills(dir.path(), skills, body_bytes);
        assert!(
            check_process(dir.path(), "text").success(),
            "the conformant {skills}-skill plugin with {body_bytes}-byte bodies checks clean"
        );
        let time = median(runs, || {
            black_box(check_process(dir.path(), "text"));
        });
        let memory = peak_resident_mb([std::ffi::OsStr::new("check"), dir.path().as_os_str()]);
        let shown = match (memory, smallest) {
            (None, _) => "unknown (no /usr/bin/time)".to_string(),
            (Some(mb), None) => format!("{mb} MB"),
            (Some(mb), Some(base)) => format!(
                "{mb} MB ({:.2}× the {}-byte bodies' peak)",
                mb as f64 / base as f64,
                BODY_BYTES[0]
            ),
        };
        smallest = smallest.or(memory);
        let verdict = if !bench {
            "a smoke run at a smaller size".to_string()
        } else if time <= MANY_GOAL.0 && memory.is_some_and(|mb| mb <= MANY_GOAL.1) {
            format!("within the goal ({:?}, {} MB)", MANY_GOAL.0, MANY_GOAL.1)
        } else {
            format!("OVER the goal ({:?}, {} MB)", MANY_GOAL.0, MANY_GOAL.1)
        };
        println!(
            "apcheck check of {skills} skills with {body_bytes}-byte bodies (whole process): median {time:.2?} over {runs} runs ({:.2}× the {:?} goal), peak {shown}, {verdict}",
            time.as_secs_f64() / MANY_GOAL.0.as_secs_f64(),
            MANY_GOAL.0,
        );
        rows.push(Figure {
            id: format!("check-many-{body_bytes}"),
            row: format!("`check` of {skills} skills ({body_bytes}-byte bodies), whole process, both cores"),
            figure: format!("{:.1} ms, peak {shown}", time.as_secs_f64() * 1000.0),
            goal: format!("≤ {:.1} s, ≤ {} MB", MANY_GOAL.0.as_secs_f64(), MANY_GOAL.1),
        });
    }
    rows
}

/// A conformant root of `plugin.json` and `count` skills, each with a body of
/// exactly `body_bytes` bytes (the same shape `scripts/bench-peers.sh` gives its peers).
fn generate_skills(root: &Path, count: usize, body_bytes: usize) {
    fs::write(
        root.join("plugin.json"),
        r#"{
  "$schema": "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json",
  "name": "bench-skills",
  "version": "1.0.0",
  "description": "A generated plugin with many skills"
}
"#,
    )
    .expect("write plugin.json");
    let line = "Follow these steps carefully and report what you found.\n";
    let filler = line.repeat(body_bytes / line.len() + 1);
    for i in 0..count {
        let name = format!("skill-{i:05}");
        let dir = root.join("skills").join(&name);
        fs::create_dir_all(&dir).expect("create a skill directory");
        let mut body = format!("\n# Skill {i}\n\n{filler}");
        body.truncate(body_bytes);
        fs::write(
            dir.join("SKILL.md"),
            format!("---\nname: {name}\ndescription: Does task number {i} when the user asks for it.\n---\n{body}"),
        )
        .expect("write SKILL.md");
    }
}

fn check_process(root: &Path, format: &str) -> std::process::ExitStatus {
    Command::new(env!("CARGO_BIN_EXE_apcheck"))
        .args(["check", "--format", format])
        .arg(root)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .expect("apcheck runs")
}
