//! The editor configurations the book documents (`docs/editors.md`) are
//! well-formed and say what Helix and Zed read today: each TOML and JSON
//! snippet parses, has the keys those editors look for (Zed's extension
//! manifest: `id`, `name`, `version`, `schema_version = 1` and
//! `[language_servers.ID]` with a `languages` list; Helix's
//! `[language-server.ID]` with `command` and `args`, used by each
//! `[[language]]`), and every snippet starts `apcheck lsp`. The VS Code
//! extension's default doc link is the one the server uses.

use pulldown_cmark::{CodeBlockKind, Event, Parser, Tag, TagEnd};
use serde_json::Value;

/// The book's Editors chapter: its fenced code blocks as (language, text).
fn editor_snippets() -> Vec<(String, String)> {
    let chapter = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/editors.md")).unwrap();
    let mut blocks = Vec::new();
    let mut current: Option<(String, String)> = None;
    for event in Parser::new(&chapter) {
        match event {
            Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(info))) => {
                current = Some((info.to_string(), String::new()))
            }
            Event::Text(text) => {
                if let Some((_, body)) = &mut current {
                    body.push_str(&text);
                }
            }
            Event::End(TagEnd::CodeBlock) => blocks.extend(current.take()),
            _ => {}
        }
    }
    blocks
}

fn the_one(language: &str, containing: &str) -> String {
    let found: Vec<String> = editor_snippets()
        .into_iter()
        .filter(|(info, text)| info == language && text.contains(containing))
        .map(|(_, text)| text)
        .collect();
    assert_eq!(found.len(), 1, "one {language} snippet with {containing:?}: {found:?}");
    found.into_iter().next().unwrap()
}

fn toml_of(text: &str) -> Value {
    let table: toml::Table = toml::from_str(text).unwrap_or_else(|error| panic!("{error}\n{text}"));
    serde_json::to_value(table).unwrap()
}

#[test]
fn the_helix_configuration_defines_the_server_and_uses_it_for_json_and_markdown() {
    let config = toml_of(&the_one("toml", "[language-server.apcheck]"));
    assert_eq!(config["language-server"]["apcheck"]["command"], "apcheck");
    assert_eq!(config["language-server"]["apcheck"]["args"], serde_json::json!(["lsp"]));
    let languages = config["language"].as_array().unwrap();
    let names: Vec<&str> = languages.iter().map(|l| l["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["json", "markdown"]);
    for language in languages {
        let servers = language["language-servers"].as_array().unwrap();
        assert!(servers.contains(&Value::from("apcheck")), "{language}");
        // Helix replaces its default servers with this list, so each keeps its own.
        assert!(servers.len() > 1, "{language}");
    }
}

#[test]
fn the_zed_extension_manifest_has_the_keys_zed_reads() {
    let manifest = toml_of(&the_one("toml", "# extension.toml"));
    for key in ["id", "name", "version"] {
        assert!(manifest[key].is_string(), "{key}: {manifest}");
    }
    assert_eq!(manifest["schema_version"], 1);
    let server = &manifest["language_servers"]["apcheck"];
    assert!(server["name"].is_string(), "{server}");
    // Current Zed reads a `languages` list (a lone `language` is the old spelling).
    assert_eq!(server["languages"], serde_json::json!(["JSON", "Markdown"]));
    assert!(server.get("language").is_none());
    let code = the_one("rust", "zed::register_extension!");
    assert!(code.contains("fn language_server_command("), "{code}");
    assert!(code.contains(r#"worktree.which("apcheck")"#), "{code}");
    assert!(code.contains(r#"args: vec!["lsp".into()]"#), "{code}");
}

#[test]
fn the_zed_settings_add_the_server_to_both_languages_and_keep_zeds_own() {
    let settings: Value = serde_json::from_str(&the_one("json", "\"language_servers\"")).unwrap();
    for language in ["JSON", "Markdown"] {
        assert_eq!(
            settings["languages"][language]["language_servers"],
            serde_json::json!(["...", "apcheck"]),
            "{settings}"
        );
    }
}

#[test]
fn the_neovim_configuration_starts_apcheck_lsp_at_the_plugin_root() {
    let lua = the_one("lua", "vim.lsp.config('apcheck'");
    assert!(lua.contains("cmd = { 'apcheck', 'lsp' }"), "{lua}");
    assert!(lua.contains("root_markers = { 'plugin.json' }"), "{lua}");
    assert!(lua.contains("vim.lsp.enable('apcheck')"), "{lua}");
}

#[test]
fn the_vscode_extension_links_rule_docs_where_the_server_does() {
    // JSON cannot read the constant, so this keeps the copy in step with it.
    let manifest: Value =
        serde_json::from_str(include_str!("../editors/vscode/package.json")).expect("package.json is JSON");
    let setting = &manifest["contributes"]["configuration"]["properties"]["apcheck.ruleDocs"];
    assert_eq!(setting["default"], apcheck::rule::DOCS_BASE_URL, "{setting}");
}
