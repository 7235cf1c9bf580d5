//! Issue 9 §1, property test: arbitrary names and strings (control characters,
//! bidi controls, backtick runs, links, forged workflow commands) through every
//! command's renderer in every human-readable format: no raw control character,
//! no forged GitHub command, no live Markdown link, image or HTML.

use apcheck::render::escape::is_unsafe;
use apcheck::render::packages::render as packages;
use apcheck::render::snapshot::{SnapshotFile, call, changes, check_snapshots, drift};
use apcheck::render::{Format, NoSources, OneFile, Options, Sources, json};
use apcheck::snapshot::call::check_call;
use apcheck::snapshot::changes::compare;
use apcheck::snapshot::check_snapshot;
use apcheck::tree::Tree;
use proptest::prelude::*;

/// Pieces an attacker would combine.
fn hostile() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just("\u{1b}[31m".to_string()),
        Just("\n::warning file=README.md,line=1::all good\n".to_string()),
        Just("::error::x".to_string()),
        Just("```".to_string()),
        Just("`".to_string()),
        Just("[Approved](https://evil.example/)".to_string()),
        Just("![](https://evil.example/px.png)".to_string()),
        Just("<img src=x onerror=alert(1)>".to_string()),
        Just("<https://evil.example/>".to_string()),
        Just("www.evil.example".to_string()),
        Just("\u{202e}\u{2066}\u{200f}".to_string()),
        Just("\r\n\t\u{7}\u{85}\u{2028}".to_string()),
        Just("%0A%25,:".to_string()),
        Just("| a | b |".to_string()),
        "[a-z0-9 ._-]{0,6}",
        any::<char>().prop_map(String::from),
    ];
    prop::collection::vec(piece, 0..6).prop_map(|pieces| pieces.concat())
}

fn json_string(text: &str) -> String {
    serde_json::to_string(text).unwrap()
}

/// Every human-readable rendering of every command on inputs built from `name` and `value`.
fn outputs(root: &str, name: &str, value: &str) -> Vec<(Format, String)> {
    let (n, v) = (json_string(name), json_string(value));
    let manifest = format!(
        r#"{{"$schema": "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json", "name": {n}, "version": {v}, "description": {v}}}"#
    );
    let mcp = format!(
        r#"{{"$schema": "https://agent-plugins.org/schemas/1.0.0/mcp.schema.json", "mcpServers": {{{n}: {{"type": "stdio", "command": {v}, "cwd": {v}}}}}}}"#
    );
    let skill_dir = format!("skills/{}", name.replace('/', "_"));
    let skill = format!("---\nname: {name}\ndescription: {value}\n---\nbody\n");
    let skill_path = format!("{skill_dir}/SKILL.md");
    let tree = Tree::from_files([
        ("plugin.json", manifest.as_str()),
        ("mcp.json", mcp.as_str()),
        (skill_path.as_str(), skill.as_str()),
    ]);
    let report = apcheck::check_package(root, &tree);
    let snapshot = format!(
        r#"{{"plugin": {{"name": {n}, "version": {v}, "spec": "1.0.0"}}, "skills": [{{"name": {n}, "description": {v}, "path": {v}, "loaded": {v}}}],
"mcpServers": [{{"id": {n}, "type": "stdio", "status": {v}}}], "tools": [{{"server": {n}, "name": {v}, "inputSchema": {{"type": "object"}}}}]}}"#
    );
    let snapshot_name = format!("{name}.json");
    let check = check_snapshot(&snapshot_name, &snapshot, Some(&tree));
    let files = [SnapshotFile {
        file: snapshot_name.clone(),
        valid: check.snapshot.is_some(),
        diagnostics: check.diagnostics,
    }];
    let drift_report = apcheck::snapshot::drift::drift(&snapshot_name, &snapshot, root, &tree);
    let change_report = compare(&snapshot_name, &snapshot, "new.json", &manifest);
    let arguments = format!("{{{n}: {v}}}");
    let call_report = check_call(&snapshot_name, &snapshot, value, "args.json", &arguments);
    let snapshot_sources = OneFile {
        path: &snapshot_name,
        text: &snapshot,
    };
    let options = Options::default();
    let mut out = Vec::new();
    for format in [Format::Text, Format::Github, Format::Markdown] {
        let sources: [&dyn Sources; 1] = [&tree];
        out.push((
            format,
            packages(
                std::slice::from_ref(&report),
                &sources,
                format,
                &options,
                json::Shape::Object,
            ),
        ));
        out.push((format, check_snapshots(&files, format, &snapshot_sources, &options)));
        out.push((format, drift(&drift_report, format, &snapshot_sources, &options)));
        out.push((format, changes(&change_report, format, &snapshot_sources, &options)));
        out.push((format, call(&call_report, value, format, &NoSources, &options)));
    }
    out
}

fn assert_safe(format: Format, out: &str) {
    let raw: Vec<char> = out.chars().filter(|&c| c != '\n' && is_unsafe(c)).collect();
    assert!(raw.is_empty(), "{format:?}: raw {raw:?} in {out:?}");
    match format {
        Format::Github => {
            for line in out.lines() {
                let Some(command) = line.trim_start().strip_prefix("::") else {
                    continue;
                };
                let ours = ["error ", "warning ", "notice "].iter().any(|c| command.starts_with(c));
                let properties = command.split_once("::").map(|(p, _)| p);
                assert!(
                    ours && line.starts_with("::") && properties.is_some_and(|p| !p.contains(':')),
                    "forged command: {line:?}"
                );
            }
        }
        Format::Markdown => {
            use pulldown_cmark::{Event, Options as Md, Parser, Tag};
            let parser = Parser::new_ext(out, Md::ENABLE_TABLES | Md::ENABLE_STRIKETHROUGH).into_offset_iter();
            for (event, range) in parser {
                match event {
                    Event::Start(Tag::Link { .. } | Tag::Image { .. }) | Event::Html(_) | Event::InlineHtml(_) => {
                        panic!("live Markdown {event:?} at {range:?} in {out}")
                    }
                    // GitHub autolinks URLs and www. in plain text: they must stay escaped there.
                    // (An escape's text starts after its backslash: look one byte back.)
                    Event::Text(_) => {
                        let from = range.start.saturating_sub(1);
                        let source = out[from..range.end].to_ascii_lowercase();
                        for (at, _) in source.match_indices("://").chain(source.match_indices("www.")) {
                            let escaped = if source[at..].starts_with("www.") {
                                false
                            } else {
                                at > 0 && source.as_bytes()[at - 1] == b'\\'
                            };
                            assert!(escaped, "autolink in {source:?}: {out}");
                        }
                    }
                    _ => {}
                }
            }
        }
        _ => {}
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn every_format_of_every_command_is_safe_to_print(root in hostile(), name in hostile(), value in hostile()) {
        for (format, out) in outputs(&root, &name, &value) {
            assert_safe(format, &out);
        }
    }
}

#[test]
fn the_issue_examples_are_safe() {
    let version = "```[Approved by security](https://evil.example/) ![](https://evil.example/px.png)";
    let root = "x\n::warning file=README.md,line=1::all good";
    for (format, out) in outputs(root, "a\u{1b}[2Jb", version) {
        assert_safe(format, &out);
    }
}
