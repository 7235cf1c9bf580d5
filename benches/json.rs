//! Benchmarks of the JSON toolkit on generated data (`cargo bench --bench json`).
//!
//! Writes its inputs to `target/bench-data/` (or the directory after `--data-dir`)
//! so `scripts/bench-peers.sh` runs jq, ajv and jsondiffpatch on the same files:
//! - `big.json`: a ~100 MB minified document (format throughput);
//! - `big-50mb.json` and `records.schema.json`: a ~50 MB document of the same
//!   records and a schema for them (validating one big document);
//! - `small/`: 10,000 small `plugin.json` manifests (validation against the built-in schema);
//! - `tools-a.json`, `tools-b.json`: two snapshots of 10,000 tools with input schemas
//!   (~12 MB each); B has 1% of tools edited, 5 inserted, 5 deleted, 5 moved.
//!
//! Prints the median of several runs of each measurement.

#[path = "support/figures.rs"]
mod figures;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use apcheck::json::builtin::builtin;
use apcheck::json::diff::{CompareOptions, compare, compare_changes};
use apcheck::json::format::{
    FormatOptions, Layout, PARALLEL_SLICE, STREAM_CHUNK, format, format_streaming, format_streaming_in_slices,
    writing_threads,
};
use apcheck::json::scan::check_syntax;
use apcheck::json::tools::snapshot_array_keys;
use apcheck::json::validate::{CompileOptions, SchemaFile, compile, validate_text};
use figures::Figure;
use serde_json::{Value, json};

/// A small deterministic generator (xorshift64*), so every run sees the same data.
struct Random(u64);

impl Random {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    fn word(&mut self) -> String {
        const WORDS: [&str; 16] = [
            "invoice", "week", "status", "open", "closed", "query", "summary", "customer", "amount", "currency",
            "region", "limit", "cursor", "filter", "report", "ledger",
        ];
        WORDS[self.below(16) as usize].to_string()
    }

    fn sentence(&mut self, words: usize) -> String {
        (0..words).map(|_| self.word()).collect::<Vec<_>>().join(" ")
    }
}

fn tool(random: &mut Random, index: usize) -> Value {
    let mut properties = serde_json::Map::new();
    let count = 3 + random.below(5) as usize;
    for p in 0..count {
        let property = match random.below(4) {
            0 => json!({"type": "string", "description": random.sentence(8), "maxLength": 200}),
            1 => json!({"type": "integer", "minimum": 0, "maximum": 10_000, "description": random.sentence(6)}),
            2 => {
                json!({"type": "string", "enum": ["open", "closed", "draft", "void"], "description": random.sentence(5)})
            }
            _ => json!({"type": "array", "items": {"type": "string"}, "description": random.sentence(7)}),
        };
        properties.insert(format!("{}_{p}", random.word()), property);
    }
    let required: Vec<Value> = properties.keys().take(2).map(|k| Value::String(k.clone())).collect();
    json!({
        "name": format!("tool_{index:05}"),
        "server": "invoice-tools",
        "title": random.sentence(3),
        "description": random.sentence(10),
        "inputSchema": {"type": "object", "properties": properties, "required": required, "additionalProperties": false},
        "annotations": {"readOnlyHint": random.below(2) == 0, "idempotentHint": true},
    })
}

fn snapshot(tools: Vec<Value>) -> Value {
    json!({
        "plugin": {"name": "invoice-ops", "version": "1.2.0"},
        "mcpServers": [{"id": "invoice-tools", "type": "streamable-http", "status": "connected"}],
        "tools": tools,
    })
}

/// The 10,000-tool pair: 100 edited, 5 inserted, 5 deleted, 5 moved.
fn tool_pair(random: &mut Random) -> (String, String) {
    let a: Vec<Value> = (0..10_000).map(|i| tool(random, i)).collect();
    let mut b = a.clone();
    for _ in 0..100 {
        let i = random.below(b.len() as u64) as usize;
        b[i]["description"] = Value::String(random.sentence(20));
    }
    for _ in 0..5 {
        let i = random.below(b.len() as u64) as usize;
        b.remove(i);
    }
    for k in 0..5 {
        let i = random.below(b.len() as u64) as usize;
        b.insert(i, tool(random, 20_000 + k));
    }
    for _ in 0..5 {
        let from = random.below(b.len() as u64) as usize;
        let moved = b.remove(from);
        let to = random.below(b.len() as u64) as usize;
        b.insert(to, moved);
    }
    let pretty = |tools| serde_json::to_string_pretty(&snapshot(tools)).expect("serializes");
    (pretty(a), pretty(b))
}

fn big_document(random: &mut Random, bytes: usize) -> String {
    let mut out = String::with_capacity(bytes + 4096);
    out.push('[');
    let mut index = 0;
    while out.len() < bytes {
        if index > 0 {
            out.push(',');
        }
        let record = json!({
            "id": index,
            "price": format!("{}.{:02}", random.below(10_000), random.below(100)).parse::<f64>().unwrap_or(0.0),
            "active": random.below(2) == 0,
            "note": null,
            "name": random.sentence(4),
            "tags": [random.word(), random.word()],
            "nested": {"a": random.below(1000), "b": [1.5, 2e10, -3], "c": "\u{e9}t\u{e9} \"quoted\""},
        });
        out.push_str(&record.to_string());
        index += 1;
    }
    out.push(']');
    out
}

fn manifest(random: &mut Random, index: usize) -> String {
    let mut value = json!({
        "$schema": "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json",
        "name": format!("{}-{index}", random.word()),
        "version": format!("{}.{}.{}", random.below(5), random.below(20), random.below(50)),
        "description": random.sentence(12),
        "license": "MIT",
        "keywords": [random.word(), random.word()],
    });
    if index.is_multiple_of(10) {
        // One in ten is invalid, so the error path is measured too.
        value["name"] = Value::String("Not A Valid Name".into());
    }
    value.to_string()
}

fn median(mut runs: Vec<Duration>) -> Duration {
    runs.sort();
    runs[runs.len() / 2]
}

fn time<T>(runs: usize, mut work: impl FnMut() -> T) -> Duration {
    median(
        (0..runs)
            .map(|_| {
                let start = Instant::now();
                let result = std::hint::black_box(work());
                let elapsed = start.elapsed();
                // Freeing is left out, as the CLI leaves it to process exit.
                drop(result);
                elapsed
            })
            .collect(),
    )
}

/// A line `scripts/bench-peers.sh` reads: `result NAME MILLISECONDS`.
fn result(name: &str, median: Duration) {
    println!("result {name} {:.1}", median.as_secs_f64() * 1000.0);
}

/// A row of the figures table: `ms` and, for a document of `mib`, its throughput.
fn figure(id: &str, row: String, median: Duration, mib: Option<f64>, goal: &str) -> Figure {
    let ms = median.as_secs_f64() * 1000.0;
    Figure {
        id: id.to_string(),
        row,
        figure: match mib {
            Some(mib) => format!("{ms:.1} ms, {:.0} MiB/s", mib / median.as_secs_f64()),
            None => format!("{ms:.1} ms"),
        },
        goal: goal.to_string(),
    }
}

fn data_dir() -> PathBuf {
    let args: Vec<String> = std::env::args().collect();
    match args.iter().position(|a| a == "--data-dir") {
        Some(i) if i + 1 < args.len() => PathBuf::from(&args[i + 1]),
        _ => Path::new(env!("CARGO_MANIFEST_DIR")).join("target/bench-data"),
    }
}

fn write(path: &Path, text: &str) {
    std::fs::write(path, text).unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
}

/// `cargo bench --bench json -- diff` runs only the named parts (format, validate, diff).
fn wanted(part: &str) -> bool {
    let parts: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| ["format", "validate", "diff"].contains(&a.as_str()))
        .collect();
    parts.is_empty() || parts.iter().any(|p| p == part)
}

fn main() {
    let dir = data_dir();
    std::fs::create_dir_all(dir.join("small")).expect("bench data directory");
    let mut random = Random(0x5eed_1234_abcd_ef01);

    let mut rows = Vec::new();
    if wanted("format") {
        rows.extend(bench_format(&dir, &mut random));
    }
    if wanted("validate") {
        rows.extend(bench_validate(&dir, &mut random));
    }
    if wanted("diff") {
        rows.extend(bench_diff(&dir, &mut random));
    }
    // `cargo bench` passes `--bench`; a run as a test (`cargo test --all-targets`) records nothing.
    if std::env::args().any(|arg| arg == "--bench") {
        figures::record("json", &rows);
    }
}

fn bench_format(dir: &Path, random: &mut Random) -> Vec<Figure> {
    let big = big_document(random, 100 * 1024 * 1024);
    write(&dir.join("big.json"), &big);
    let megabytes = big.len() as f64 / (1024.0 * 1024.0);
    let pretty = time(5, || format(&big, &FormatOptions::default()).expect("valid"));
    // What `apcheck fmt FILE` does: check, then write in chunks (here to nowhere).
    let streamed = time(5, || {
        let mut written = 0;
        format_streaming(&big, &FormatOptions::default(), &mut |chunk: &[u8]| {
            written += chunk.len()
        })
        .expect("valid");
        written
    });
    // The same on one thread: the page's path, and the CLI's on a single core.
    let serial = time(5, || {
        let mut written = 0;
        format_streaming_in_slices(
            &big,
            &FormatOptions::default(),
            PARALLEL_SLICE,
            1,
            &mut |chunk: &[u8]| written += chunk.len(),
        )
        .expect("valid");
        written
    });
    // The floor: what `cp` does in process, the document copied through a
    // buffer of the streaming writer's chunk size to the same sink.
    let floor = time(5, || {
        let mut buffer = vec![0u8; STREAM_CHUNK];
        let mut written = 0;
        for piece in big.as_bytes().chunks(STREAM_CHUNK) {
            buffer[..piece.len()].copy_from_slice(piece);
            written += std::hint::black_box(&buffer[..piece.len()]).len();
        }
        written
    });
    let minify = FormatOptions {
        layout: Layout::Minify,
        ..Default::default()
    };
    let minified = time(5, || format(&big, &minify).expect("valid"));
    let sorted = FormatOptions {
        sort_keys: true,
        ..Default::default()
    };
    let sort = time(3, || format(&big, &sorted).expect("valid"));
    let syntax = time(5, || check_syntax(&big, false).is_ok());
    let parse = time(3, || serde_json::from_str::<Value>(&big).is_ok());
    let throughput = |d: Duration| megabytes / d.as_secs_f64();
    println!(
        "syntax   check    {megabytes:.0} MiB  median {syntax:>10.1?}  {:>6.0} MiB/s",
        throughput(syntax)
    );
    println!(
        "serde_json Value  {megabytes:.0} MiB  median {parse:>10.1?}  {:>6.0} MiB/s (reference)",
        throughput(parse)
    );
    println!(
        "format   pretty   {megabytes:.0} MiB  median {pretty:>10.1?}  {:>6.0} MiB/s",
        throughput(pretty)
    );
    println!(
        "format   stream   {megabytes:.0} MiB  median {streamed:>10.1?}  {:>6.0} MiB/s (pretty, checked first, as `apcheck fmt`: {} writing threads, {} KiB slices; goal 600)",
        throughput(streamed),
        writing_threads(),
        PARALLEL_SLICE / 1024
    );
    let of_floor = |d: Duration| d.as_secs_f64() / floor.as_secs_f64();
    println!(
        "format   stream1  {megabytes:.0} MiB  median {serial:>10.1?}  {:>6.0} MiB/s (the same on one thread, as the page and a one-core machine; goal 600)  {:.1}x the floor",
        throughput(serial),
        of_floor(serial)
    );
    println!(
        "copy     floor    {megabytes:.0} MiB  median {floor:>10.1?}  {:>6.0} MiB/s (the document copied in {} KiB chunks, `cp` in process)",
        throughput(floor),
        STREAM_CHUNK / 1024
    );
    println!(
        "format   minify   {megabytes:.0} MiB  median {minified:>10.1?}  {:>6.0} MiB/s",
        throughput(minified)
    );
    println!(
        "format   sorted   {megabytes:.0} MiB  median {sort:>10.1?}  {:>6.0} MiB/s",
        throughput(sort)
    );
    result("format-pretty", pretty);
    result("format-stream", streamed);
    result("format-stream-serial", serial);
    result("copy-floor", floor);
    result("format-minify", minified);
    vec![
        figure(
            "fmt-stream",
            format!(
                "`fmt` {megabytes:.0} MiB, checked then streamed on {} threads (in process, `apcheck fmt`'s path)",
                writing_threads()
            ),
            streamed,
            Some(megabytes),
            "≥ 600 MiB/s",
        ),
        figure(
            "fmt-stream-serial",
            format!("`fmt` {megabytes:.0} MiB, checked then streamed on one thread (the page's path)"),
            serial,
            Some(megabytes),
            "",
        ),
        figure(
            "syntax-check",
            format!("the syntax check of {megabytes:.0} MiB alone"),
            syntax,
            Some(megabytes),
            "",
        ),
    ]
}

/// A schema for [`big_document`]'s records, which every record meets.
const RECORDS_SCHEMA: &str = r#"{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "type": "array",
  "items": {
    "type": "object",
    "required": ["id", "price", "active", "name", "tags", "nested"],
    "properties": {
      "id": {"type": "integer", "minimum": 0},
      "price": {"type": "number"},
      "active": {"type": "boolean"},
      "note": {"type": "null"},
      "name": {"type": "string", "minLength": 1},
      "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 8},
      "nested": {
        "type": "object",
        "required": ["a", "b"],
        "properties": {"a": {"type": "integer"}, "b": {"type": "array", "items": {"type": "number"}}, "c": {"type": "string"}}
      }
    }
  }
}
"#;

fn bench_validate(dir: &Path, random: &mut Random) -> Vec<Figure> {
    // Its own generator, so the small documents below stay the ones earlier runs measured.
    let big = big_document(&mut Random(0x50_0000_5eed), 50 * 1024 * 1024);
    write(&dir.join("big-50mb.json"), &big);
    write(&dir.join("records.schema.json"), RECORDS_SCHEMA);
    let records = compile(
        SchemaFile {
            name: "records.schema.json",
            text: RECORDS_SCHEMA,
        },
        &[],
        &CompileOptions::default(),
    )
    .expect("the records schema compiles");
    let one = time(3, || {
        validate_text(&big, &records).expect("JSON").expect("a verdict").len()
    });
    assert!(
        validate_text(&big, &records)
            .expect("JSON")
            .expect("a verdict")
            .is_empty(),
        "every record meets the schema"
    );
    println!(
        "validate one {:.0} MB document (records schema)  median {one:>10.1?}",
        big.len() as f64 / (1024.0 * 1024.0)
    );
    result("validate-50mb", one);
    let validate_one = figure(
        "validate-50mb",
        format!(
            "validate one {:.0} MB document (in process)",
            big.len() as f64 / (1024.0 * 1024.0)
        ),
        one,
        None,
        "",
    );
    drop(big);

    let manifests: Vec<String> = (0..10_000).map(|i| manifest(random, i)).collect();
    for (i, text) in manifests.iter().enumerate() {
        write(&dir.join(format!("small/{i:05}.json")), text);
    }
    let schema = builtin("plugin").expect("built-in").schema().expect("compiles");
    let validate_all = time(7, || {
        manifests
            .iter()
            .map(|text| validate_text(text, schema).expect("JSON").expect("a verdict").len())
            .sum::<usize>()
    });
    println!("validate 10,000 small documents (plugin schema)  median {validate_all:>10.1?}");
    result("validate-10k", validate_all);
    vec![
        validate_one,
        figure(
            "validate-10k",
            "validate 10,000 small documents (in process, one thread)".to_string(),
            validate_all,
            None,
            "",
        ),
    ]
}

fn bench_diff(dir: &Path, random: &mut Random) -> Vec<Figure> {
    let (a, b) = tool_pair(random);
    write(&dir.join("tools-a.json"), &a);
    write(&dir.join("tools-b.json"), &b);
    let options = CompareOptions {
        default_keys: snapshot_array_keys(),
        ..CompareOptions::default()
    };
    let diffed = time(7, || compare(&a, &b, &options).expect("JSON"));
    let outcome = compare(&a, &b, &options).expect("JSON").diff;
    let [added, removed, changed, moved] = outcome.counts();
    println!(
        "diff     10,000 tools ({:.1} MB each)  median {diffed:>10.1?}  patch {} ops ({added} added, {removed} removed, {changed} changed, {moved} moved)",
        a.len() as f64 / (1024.0 * 1024.0),
        outcome.patch.len()
    );
    result("diff-10k-tools", diffed);
    // What `apcheck diff --format patch|text|json` does: the same diff on lean documents.
    let changes = time(7, || compare_changes(&a, &b, &options).expect("JSON"));
    let lean = compare_changes(&a, &b, &options).expect("JSON");
    assert_eq!(
        serde_json::to_string(&lean).expect("serializes"),
        serde_json::to_string(&outcome).expect("serializes"),
        "the lean diff is the Value diff"
    );
    println!("diff     10,000 tools, changes and patch only (lean documents)  median {changes:>10.1?}");
    result("diff-10k-tools-changes", changes);
    vec![
        figure(
            "diff-10k-tools",
            "keyed diff of 10,000 tools, everything (in process: `Value`s too, for the merge patch)".to_string(),
            diffed,
            None,
            "",
        ),
        figure(
            "diff-10k-tools-changes",
            "keyed diff of 10,000 tools, changes and patch on lean documents (in process, the CLI's path)".to_string(),
            changes,
            None,
            "",
        ),
    ]
}
