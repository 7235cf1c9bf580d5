//! Editor assistance, sans-IO: which package an edited file belongs to, what
//! each finding means for the editor (ignored input, a component skipped
//! alone), rule docs as Markdown, and schema-driven completion and key docs
//! for `plugin.json` and `mcp.json`. `apcheck lsp` is the face that speaks the
//! protocol; everything it knows about plugins comes from here.

pub mod cursor;
pub mod findings;
pub mod schema_help;
#[cfg(not(target_arch = "wasm32"))]
mod skill_spec_text;
mod spec_note;
#[cfg(not(target_arch = "wasm32"))]
mod spec_text;

use crate::diag::Diagnostic;
use crate::registry::{self, Shown};
use crate::report::{PackageReport, ServerState, SkillState};
use crate::rule::Rule;
use crate::tree::{Entry, Tree};

pub use spec_note::SpecNote;

/// A package file the editor checks as it is typed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EditedFile {
    Manifest,
    McpConfig,
    Skill,
}

/// The plugin root and the package-relative path of `path` (`/`-separated),
/// when it is `ROOT/plugin.json`, `ROOT/mcp.json` or `ROOT/skills/NAME/SKILL.md`:
/// the fixed locations of §5.1, §7.2.1 and §6.1.
pub fn locate_in_package(path: &str) -> Option<(&str, &str, EditedFile)> {
    let (dir, file) = path.rsplit_once('/')?;
    let kind = match file {
        "plugin.json" => EditedFile::Manifest,
        "mcp.json" => EditedFile::McpConfig,
        "SKILL.md" => EditedFile::Skill,
        _ => return None,
    };
    let root = if kind == EditedFile::Skill {
        let (skills, name) = dir.rsplit_once('/')?;
        let (root, folder) = skills.rsplit_once('/')?;
        if folder != "skills" || name.is_empty() {
            return None;
        }
        root
    } else {
        dir
    };
    Some((root, &path[root.len() + 1..], kind))
}

/// The package an editor checks: the tree on disk with each unsaved buffer
/// (package-relative path, text) laid over it. A buffer whose path is a link
/// on disk replaces the file the link resolves to, as saving it would.
pub fn with_buffers<'b>(disk: &Tree, buffers: impl IntoIterator<Item = (&'b str, &'b str)>) -> Tree {
    let mut tree = disk.clone();
    for (path, text) in buffers {
        let target = match disk.resolve(path) {
            Ok(resolved) if resolved.via_link => resolved.path.to_string(),
            _ => path.to_string(),
        };
        tree.insert(&target, Entry::File(text.as_bytes().to_vec()));
    }
    tree
}

/// Rules whose finding is input a client reports and then ignores, so an
/// editor may fade it: unknown top-level manifest fields (§5.2), a non-object
/// `extensions` (§8.1), inline component declarations (§7.2.1) and unknown
/// frontmatter keys (Agent Skills).
const IGNORED_INPUT: &[&str] = &["AP205", "AP206", "AP210", "AP313"];

/// What a finding means beyond its severity, for faces that can show it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FindingTags {
    /// The finding's range is input a conformant client ignores.
    pub ignored_input: bool,
    /// The component the finding is about is skipped alone (§7.1, §7.2.2),
    /// in words: "skill `x` is skipped".
    pub skipped: Option<String>,
}

/// The tags of `diagnostic`, one of `report`'s.
pub fn finding_tags(report: &PackageReport, diagnostic: &Diagnostic) -> FindingTags {
    let file = diagnostic.file.as_deref();
    let skill = report
        .skills
        .entries
        .iter()
        .find(|skill| skill.state == SkillState::Skipped && Some(skill.path.as_str()) == file)
        .map(|skill| format!("skill `{}` is skipped (§7.1)", skill.dir));
    let server = || {
        let pointer = diagnostic.pointer.as_deref().filter(|_| file == Some("mcp.json"))?;
        report
            .mcp
            .servers
            .iter()
            .filter(|server| server.state == ServerState::Invalid)
            .find(|server| {
                let prefix = format!("/mcpServers/{}", server.id.replace('~', "~0").replace('/', "~1"));
                pointer == prefix || pointer.starts_with(&(prefix + "/"))
            })
            .map(|server| format!("server `{}` is skipped (§7.2.2)", server.id))
    };
    FindingTags {
        ignored_input: IGNORED_INPUT.contains(&diagnostic.code),
        skipped: skill.or_else(server),
    }
}

/// A rule's doc as Markdown: what `apcheck explain` says, for a hover.
pub fn rule_markdown(rule: &Rule) -> String {
    let mut text = format!(
        "**{}** `{}` ({}, {})\n\n{}\n\n**What it checks.** {}\n\n**Why it matters.** {}\n",
        rule.code,
        rule.name,
        rule.severity.as_str(),
        rule.spec,
        rule.summary,
        rule.doc.what,
        rule.doc.why
    );
    if rule.decides_state() {
        text.push_str(&format!("\n**Configuration.** {}\n", registry::DECIDES_STATE_NOTE));
    }
    for (title, example) in [("Fails", &rule.doc.failing), ("Fixed", &rule.doc.fixed)] {
        text.push_str(&format!("\n**{title}**\n"));
        for part in registry::example_parts(example) {
            match part {
                Shown::File { label, contents } => {
                    let language = if label.ends_with(".json") { "json" } else { "" };
                    text.push_str(&format!("\n`{label}`\n```{language}\n{}\n```\n", contents.trim_end()));
                }
                Shown::Link { path, target } => text.push_str(&format!("\n`{path}` → `{target}` (symlink)\n")),
                Shown::Words(words) => text.push_str(&format!("\n{words}\n")),
            }
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    const SCHEMA: &str = "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json";
    const MCP: &str = "https://agent-plugins.org/schemas/1.0.0/mcp.schema.json";

    #[test]
    fn a_buffer_replaces_its_file_or_the_file_its_link_names() {
        let mut disk = Tree::from_files([("plugin.json", "{}"), ("real.json", "old")]);
        disk.insert("mcp.json", crate::tree::Entry::Symlink("real.json".into()));
        let edited = with_buffers(&disk, [("plugin.json", "{\"a\": 1}"), ("mcp.json", "new")]);
        assert_eq!(edited.read("plugin.json"), Some(&b"{\"a\": 1}"[..]));
        assert_eq!(edited.read("real.json"), Some(&b"new"[..]));
        assert_eq!(disk.read("real.json"), Some(&b"old"[..]), "the disk tree is kept");
    }

    #[test]
    fn edited_files_are_the_fixed_locations() {
        assert_eq!(
            locate_in_package("/w/p/plugin.json"),
            Some(("/w/p", "plugin.json", EditedFile::Manifest))
        );
        assert_eq!(
            locate_in_package("/w/p/skills/a/SKILL.md"),
            Some(("/w/p", "skills/a/SKILL.md", EditedFile::Skill))
        );
        assert_eq!(locate_in_package("/w/p/docs/a/SKILL.md"), None);
        assert_eq!(locate_in_package("/w/p/README.md"), None);
    }

    #[test]
    fn ignored_input_rules_exist_and_never_reject() {
        for code in IGNORED_INPUT {
            let rule = crate::registry::find(code).unwrap_or_else(|| panic!("{code} is a rule"));
            assert_ne!(
                rule.severity,
                crate::Severity::Error,
                "{code}: ignored input is not fatal"
            );
        }
    }

    #[test]
    fn findings_about_a_skipped_server_or_an_unknown_key_are_tagged() {
        let manifest = format!(r#"{{"$schema": "{SCHEMA}", "name": "p", "color": "red"}}"#);
        let mcp = format!(
            r#"{{"$schema": "{MCP}", "mcpServers": {{"bad": {{"type": "stdio"}}, "ok": {{"type": "stdio", "command": "x"}}}}}}"#
        );
        let tree = Tree::from_files([("plugin.json", manifest.as_str()), ("mcp.json", mcp.as_str())]);
        let report = crate::check_package("p", &tree);
        let unknown = report.diagnostics.iter().find(|d| d.code == "AP205").unwrap();
        assert!(finding_tags(&report, unknown).ignored_input);
        let server = report
            .diagnostics
            .iter()
            .find(|d| d.pointer.as_deref().is_some_and(|p| p.starts_with("/mcpServers/bad")))
            .unwrap();
        assert_eq!(
            finding_tags(&report, server).skipped.as_deref(),
            Some("server `bad` is skipped (§7.2.2)")
        );
    }

    #[test]
    fn every_rule_doc_renders_as_markdown() {
        for rule in crate::registry::all() {
            let text = rule_markdown(rule);
            assert!(text.starts_with(&format!("**{}**", rule.code)));
            assert!(text.contains(rule.doc.what));
        }
    }
}
