//! Property test: arbitrary names and strings (control characters, bidi
//! controls, zero-width characters, backtick runs, links, autolink bait,
//! forged workflow commands) through every report's renderer in every format,
//! each output checked by what really reads it:
//! - GitHub's runner: no line of a log (text, github) parses as a workflow
//!   command but the annotations `--format github` writes;
//! - GitHub's Markdown, cmark-gfm with its extensions (PyPI `cmarkgfm`, in
//!   the clone's `.tools/venv` from scripts/setup.sh): no link, autolink,
//!   image or HTML comes out of a Markdown report;
//! - a JSON parser: JSON and SARIF parse, and hold no raw bidi, line
//!   separator or invisible character;
//! - and no format prints a raw control character.

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::Duration;

use apcheck::commands::documents::validate_document;
use apcheck::json::tools::{DiffRequest, SchemaChoice, diff_documents, load_schema};
use apcheck::json::validate::{CompileOptions, SchemaCache};
use apcheck::render::documents::{validation, verdict};
use apcheck::render::escape::is_unsafe;
use apcheck::render::packages::render as packages;
use apcheck::render::snapshot::{SnapshotFile, call, changes, check_snapshots, drift};
use apcheck::render::{Format, NoSources, OneFile, Options, Sources};
use apcheck::rules::live::{Attempt, Listed};
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
        Just("security@evil.co".to_string()),
        Just("xmpp:a@evil.co".to_string()),
        Just("mailto:a@evil.co".to_string()),
        Just("https://evil.example/".to_string()),
        Just("M/::error file=a,line=1::forged/".to_string()),
        Just("\u{200b}\u{2060}\u{feff}\u{e0068}".to_string()),
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
    let schema = load_schema(
        &SchemaChoice::Builtin("plugin"),
        &CompileOptions::default(),
        &mut SchemaCache::new(1),
    )
    .unwrap();
    for format in [
        Format::Text,
        Format::Github,
        Format::Markdown,
        Format::Json,
        Format::Sarif,
    ] {
        let validated = [validate_document(
            &format!("{name}.json"),
            Ok(&manifest),
            &schema,
            Some("plugin"),
            format,
            false,
        )
        .0];
        out.push((
            format,
            match validation(schema.dialect(), &validated, format, &options) {
                Some(text) => text,
                None => validated[0].snippets.clone() + &verdict(schema.dialect(), &validated),
            },
        ));
        let sources: [&dyn Sources; 1] = [&tree];
        out.push((
            format,
            packages(std::slice::from_ref(&report), &sources, format, &options),
        ));
        out.push((format, check_snapshots(&files, format, &snapshot_sources, &options)));
        out.push((format, drift(&drift_report, format, &snapshot_sources, &options)));
        out.push((format, changes(&change_report, format, &snapshot_sources, &options)));
        out.push((format, call(&call_report, value, format, &NoSources, &options)));
    }
    // `diff` has forms of its own; its list is text for a log.
    let request = DiffRequest {
        options: Default::default(),
        lines: true,
    };
    let diff = diff_documents(&manifest, &format!("{{{v}: {n}}}"), &request)
        .unwrap()
        .diff;
    let style = apcheck::render::diff::Style::new(false);
    out.push((
        Format::Text,
        apcheck::render::diff::changes_text(&diff, name, value, &style),
    ));
    // `--connect`'s stderr summary: what a server said is the least trusted text of all.
    let attempts = [
        Attempt {
            id: name.to_string(),
            transport: "stdio".to_string(),
            outcome: Err(value.to_string()),
            elapsed: Duration::from_millis(5),
            stderr: format!("{value}\n{name}"),
        },
        Attempt {
            id: value.to_string(),
            transport: "stdio".to_string(),
            outcome: Ok(Listed {
                protocol_version: name.to_string(),
                server_info: None,
                tools: Vec::new(),
            }),
            elapsed: Duration::from_millis(5),
            stderr: String::new(),
        },
    ];
    let mut summary = apcheck::render::live::started_line(2, root) + &apcheck::render::live::summary(&attempts);
    for (done, attempt) in attempts.iter().enumerate() {
        summary.push_str(&apcheck::render::live::progress_line(attempt, done + 1, attempts.len()));
    }
    out.push((Format::Text, summary));
    out
}

/// A workflow command as GitHub's runner reads a log line: `::name` then
/// optional properties, then `::` and the message. The runner trims the line first.
fn workflow_command(line: &str) -> Option<(&str, &str)> {
    let rest = line.trim().strip_prefix("::")?;
    let (head, _message) = rest.split_once("::")?;
    let (name, properties) = head.split_once(' ').unwrap_or((head, ""));
    (!name.is_empty()).then_some((name, properties))
}

/// Every Markdown text as GitHub renders it (cmark-gfm with its extensions),
/// in one run of the venv's Python.
fn github_html(markdown: &[&str]) -> Vec<String> {
    let python = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(".tools/venv/bin/python");
    let script = "import cmarkgfm, json, sys\n\
                  from cmarkgfm.cmark import Options\n\
                  texts = json.load(sys.stdin)\n\
                  json.dump([cmarkgfm.github_flavored_markdown_to_html(t, options=Options.CMARK_OPT_UNSAFE) for t in texts], sys.stdout)\n";
    let mut child = Command::new(&python)
        .args(["-c", script])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| {
            panic!(
                "{}: {e}; run scripts/setup.sh, which installs cmarkgfm there",
                python.display()
            )
        });
    child
        .stdin
        .take()
        .unwrap()
        .write_all(serde_json::to_string(markdown).unwrap().as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(
        output.status.success(),
        "cmarkgfm failed: is it installed? run scripts/setup.sh"
    );
    serde_json::from_slice(&output.stdout).unwrap()
}

/// The tags a Markdown report may render to: tables, code, emphasis the
/// renderers write, and nothing a value could bring in.
const RENDERED_TAGS: &[&str] = &[
    "p",
    "h1",
    "h2",
    "h3",
    "h4",
    "table",
    "thead",
    "tbody",
    "tr",
    "th",
    "td",
    "code",
    "pre",
    "strong",
    "em",
    "ul",
    "ol",
    "li",
    "br",
    "hr",
    "blockquote",
    "details",
    "summary",
];

/// The cell separators of a GFM table row: pipes not escaped by a backslash
/// (a pipe after an escaped backslash, `\\|`, still separates).
fn separators(row: &str) -> usize {
    let mut count = 0;
    let mut backslashes = 0;
    for c in row.chars() {
        if c == '|' && backslashes % 2 == 0 {
            count += 1;
        }
        backslashes = if c == '\\' { backslashes + 1 } else { 0 };
    }
    count
}

fn assert_github_renders_inert(markdown: &str, html: &str) {
    // A pipe left in a value would cut its row: GFM drops the cells past the header's.
    let mut header: Option<usize> = None;
    for line in markdown.lines() {
        if !line.starts_with('|') {
            header = None;
            continue;
        }
        let found = separators(line);
        let expected = *header.get_or_insert(found);
        assert_eq!(
            found, expected,
            "a table row of {expected} separators has {found}: {line:?} in {markdown:?}"
        );
    }
    // The one link apcheck writes itself, a finding's code to its rule page, is
    // the one anchor GitHub may render.
    for (at, _) in html.match_indices("<a") {
        let href = html[at..]
            .strip_prefix("<a href=\"")
            .and_then(|rest| rest.split_once('"'))
            .map(|(href, _)| href);
        assert!(
            href.is_some_and(is_rule_page),
            "GitHub renders a link other than a rule page from {markdown:?}:\n{html}"
        );
    }
    let mut rest = html;
    while let Some(at) = rest.find('<') {
        let tag: String = rest[at + 1..]
            .trim_start_matches('/')
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .collect();
        assert!(
            tag == "a" || RENDERED_TAGS.contains(&tag.as_str()),
            "GitHub renders <{tag}> from {markdown:?}:\n{html}"
        );
        rest = &rest[at + 1..];
    }
}

fn assert_safe(format: Format, out: &str) {
    let raw: Vec<char> = out.chars().filter(|&c| c != '\n' && is_unsafe(c)).collect();
    assert!(raw.is_empty(), "{format:?}: raw {raw:?} in {out:?}");
    match format {
        Format::Text | Format::Json | Format::Sarif => {
            for line in out.lines() {
                assert!(
                    workflow_command(line).is_none(),
                    "{format:?}: forged command {line:?} in {out}"
                );
            }
            if format != Format::Text {
                serde_json::from_str::<serde_json::Value>(out)
                    .unwrap_or_else(|e| panic!("{format:?} does not parse ({e}): {out}"));
            }
        }
        Format::Github => {
            for line in out.lines() {
                let Some((name, properties)) = workflow_command(line) else {
                    continue;
                };
                assert!(
                    ["error", "warning", "notice"].contains(&name)
                        && line.starts_with("::")
                        && !properties.contains(':'),
                    "forged command: {line:?}"
                );
            }
        }
        Format::Markdown => {
            use pulldown_cmark::{Event, Options as Md, Parser, Tag};
            let parser = Parser::new_ext(out, Md::ENABLE_TABLES | Md::ENABLE_STRIKETHROUGH).into_offset_iter();
            for (event, range) in parser {
                match event {
                    // The one link apcheck writes itself: a finding's rule code to its page.
                    Event::Start(Tag::Link { dest_url, .. }) if is_rule_page(&dest_url) => {}
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
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn every_format_of_every_command_is_safe_to_print(root in hostile(), name in hostile(), value in hostile()) {
        check_all(outputs(&root, &name, &value));
    }
}

/// [`assert_safe`] for each output, and every Markdown one through GitHub's renderer.
fn check_all(outputs: Vec<(Format, String)>) {
    for (format, out) in &outputs {
        assert_safe(*format, out);
    }
    let markdown: Vec<&str> = outputs
        .iter()
        .filter(|(format, _)| *format == Format::Markdown)
        .map(|(_, out)| out.as_str())
        .collect();
    for (markdown, html) in markdown.iter().zip(github_html(&markdown)) {
        assert_github_renders_inert(markdown, &html);
    }
}

/// The forgeries once reported against the output: a version that closes its
/// code span to show a link and a tracking image, a root name that starts a
/// GitHub annotation of its own, and a name that clears the terminal.
#[test]
fn reported_forgeries_are_safe() {
    let version = "```[Approved by security](https://evil.example/) ![](https://evil.example/px.png)";
    let root = "x\n::warning file=README.md,line=1::all good";
    check_all(outputs(root, "a\u{1b}[2Jb", version));
    // A marketplace folder, a mail address and a bidi override as names.
    check_all(outputs(
        "M/::error file=a,line=1::forged",
        "security@evil.co",
        "\n::error file=README.md,line=1::Approved by security\u{202e}\u{2028}\u{200b}",
    ));
    check_all(outputs("::error file=a,line=1::forged", "xmpp:a@evil.co", "x"));
}

/// A tool named with pipes and backticks: its row of the change table keeps
/// its four cells (the name is quoted in a code span in the detail too, where
/// a pipe would end the cell just the same).
#[test]
fn a_tool_name_with_pipes_keeps_its_change_row_whole() {
    let snapshot = |tools: &str| {
        format!(
            r#"{{"plugin": {{"name": "p", "version": "1.0.0", "spec": "1.0.0"}}, "skills": [],
"mcpServers": [{{"id": "s", "type": "stdio", "status": "connected"}}], "tools": [{tools}]}}"#
        )
    };
    let added = snapshot(r#"{"server": "s", "name": "a|`x`|b", "inputSchema": {"type": "object"}}"#);
    let report = compare("old.json", &snapshot(""), "new.json", &added);
    assert_eq!(report.changes.len(), 1);
    let markdown = changes(&report, Format::Markdown, &NoSources, &Options::default());
    check_all(vec![(Format::Markdown, markdown)]);
}

/// Whether `url` is a rule's page (`rule::doc_url`) of a rule the registry has.
fn is_rule_page(url: &str) -> bool {
    url.strip_prefix(apcheck::rule::DOCS_BASE_URL)
        .is_some_and(|code| apcheck::registry::all().any(|rule| rule.code == code))
}
