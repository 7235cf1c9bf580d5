//! The JSON toolkit on real inputs: every JSON file of the shared corpus, and
//! the `tools/list` captures of a real MCP server.

use std::path::{Path, PathBuf};

use apcheck::json::builtin::builtin;
use apcheck::json::diff::{CompareOptions, compare};
use apcheck::json::format::{FormatOptions, Layout, format};
use apcheck::json::parse_document;
use apcheck::json::tools::snapshot_array_keys;
use apcheck::json::validate::{validate, validate_at};
use serde_json::Value;

fn shared() -> PathBuf {
    std::env::var_os("APCHECK_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared"))
}

fn json_files(dir: &Path, found: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        let kind = entry.file_type().unwrap();
        if kind.is_dir() {
            json_files(&path, found);
        } else if kind.is_file() && path.extension().is_some_and(|e| e == "json") {
            found.push(path);
        }
    }
}

#[test]
fn formatting_every_corpus_file_keeps_its_value_and_is_idempotent() {
    let mut files = Vec::new();
    json_files(&shared().join("corpus"), &mut files);
    assert!(files.len() > 100, "corpus not found under {}", shared().display());
    let mut formatted_count = 0;
    for file in files {
        let Ok(text) = std::fs::read_to_string(&file) else {
            continue;
        };
        let Ok(original) = serde_json::from_str::<Value>(&text) else {
            // Not JSON (some fixtures are deliberately broken): the formatter must refuse it too.
            let strict = FormatOptions::default();
            let jsonc = FormatOptions { jsonc: true, ..strict };
            assert!(
                format(&text, &strict).is_err() || format(&text, &jsonc).is_ok(),
                "{} formatted but serde_json refused it",
                file.display()
            );
            continue;
        };
        for layout in [Layout::Minify, FormatOptions::default().layout] {
            let options = FormatOptions {
                layout,
                ..Default::default()
            };
            let once = format(&text, &options).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
            assert_eq!(
                serde_json::from_str::<Value>(&once).unwrap(),
                original,
                "{}",
                file.display()
            );
            assert_eq!(format(&once, &options).unwrap(), once, "{}", file.display());
        }
        formatted_count += 1;
    }
    assert!(formatted_count > 100);
}

#[test]
fn real_manifests_validate_against_the_plugin_builtin() {
    let schema = builtin("plugin").unwrap().schema().unwrap();
    let real = shared().join("corpus/real");
    let mut checked = 0;
    for entry in std::fs::read_dir(&real).unwrap().flatten() {
        let manifest = entry.path().join("plugin.json");
        let Ok(text) = std::fs::read_to_string(&manifest) else {
            continue;
        };
        let document = parse_document(&text).unwrap();
        let issues = validate(&text, &document, schema).expect("a verdict");
        // INDEX.tsv: real 1.0.0 manifests are almost all clean; any issue must be located.
        for issue in &issues {
            assert!(issue.line > 0 && issue.column > 0, "{}: {issue:?}", manifest.display());
        }
        checked += 1;
    }
    assert!(checked >= 50, "{checked} manifests");
}

#[test]
fn server_everything_tools_are_valid_mcp_tools() {
    // All three captures negotiated protocol 2025-11-25 (even the one that asked for 2026-07-28).
    for capture in ["live-allcaps.json", "live-nocaps.json", "live-proto2026.json"] {
        let path = shared().join("reference/server-everything").join(capture);
        let text = std::fs::read_to_string(&path).unwrap();
        let document = parse_document(&text).unwrap();
        assert_eq!(
            document.value["initialize_response"]["result"]["protocolVersion"],
            "2025-11-25"
        );
        let tools = document.value["tools_list_response"]["result"]["tools"]
            .as_array()
            .unwrap();
        assert!(!tools.is_empty());
        let tool_schema = builtin("mcp-tool@2025-11-25").unwrap().schema().unwrap();
        for index in 0..tools.len() {
            let pointer = format!("/tools_list_response/result/tools/{index}");
            let issues = validate_at(&text, &document, &pointer, tool_schema).unwrap().unwrap();
            assert!(issues.is_empty(), "{capture} {pointer}: {issues:?}");
        }
        let result = "/tools_list_response/result";
        let list_2025 = builtin("mcp-tools-list@2025-11-25").unwrap().schema().unwrap();
        assert!(
            validate_at(&text, &document, result, list_2025)
                .unwrap()
                .unwrap()
                .is_empty(),
            "{capture}"
        );
        // The 2026-07-28 result adds required cache members a 2025-11-25 server does not send.
        let list_2026 = builtin("mcp-tools-list").unwrap().schema().unwrap();
        let missing: Vec<String> = validate_at(&text, &document, result, list_2026)
            .unwrap()
            .unwrap()
            .into_iter()
            .filter(|issue| issue.keyword == "required")
            .map(|issue| issue.message)
            .collect();
        assert!(missing.iter().any(|m| m.contains("ttlMs")), "{capture}: {missing:?}");
    }
}

#[test]
fn captures_diff_by_tool_name_by_default() {
    let read = |name: &str| std::fs::read_to_string(shared().join("reference/server-everything").join(name)).unwrap();
    let (a, b) = (read("live-allcaps.json"), read("live-nocaps.json"));
    let options = CompareOptions {
        default_keys: snapshot_array_keys(),
        ..CompareOptions::default()
    };
    let comparison = compare(&a, &b, &options).unwrap();
    for change in &comparison.diff.changes {
        if change.path.starts_with("/tools_list_response/result/tools/") {
            assert!(change.label.contains("[name="), "{change:?}");
        }
    }
}
