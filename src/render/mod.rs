//! Renderers: package reports into text for people and formats for machines.
//!
//! Sans-IO like the rest of the core: each renderer returns a `String` (or a
//! JSON value) and the caller decides where it goes, so the CLI and the page
//! render the same report the same way.
//!
//! - [`text`]: terminal output with source snippets and carets
//! - [`json`]: the stable `PackageReport` shape
//! - [`sarif`]: SARIF 2.1.0 for code-scanning tools
//! - [`github`]: GitHub Actions workflow commands (annotations)
//! - [`markdown`]: a summary for pull-request comments and downloads
//! - [`snapshot`]: the snapshot commands' reports, in all of the above
//! - [`diff`]: `apcheck diff`'s list of changes, its JSON shape and the unified diff
//! - [`live`]: `--connect`'s progress and per-server summary
//! - [`fix`]: `check --fix`/`--diff`'s unified diff of the fixes and closing lines
//! - [`rules`]: `apcheck rules`' table and the registry as JSON
//! - [`statistics`]: `check --statistics`' count of findings per rule
//! - [`escape`]: what makes untrusted text safe in each of them
//!
//! Every command's findings go through here, so every command has every
//! [`Format`], and escaping and secret masking live in one place.

pub mod diff;
pub mod documents;
pub mod escape;
pub mod fix;
pub mod github;
pub mod json;
// `--connect`'s report: the page never connects.
#[cfg(not(target_arch = "wasm32"))]
pub mod live;
pub mod markdown;
pub mod packages;
pub mod rules;
pub mod sarif;
pub mod snapshot;
pub mod statistics;
pub mod text;

pub use crate::tree::path_from_root;

use std::borrow::Cow;

use crate::diag::Diagnostic;
use crate::report::{McpState, PackageReport, PluginState, SkillsState, Summary};
use crate::tree::Tree;

/// The output formats every diagnostics command offers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Format {
    /// Diagnostics with source snippets, then summary lines.
    #[default]
    Text,
    /// The command's report as JSON.
    Json,
    /// SARIF 2.1.0, for code-scanning tools.
    Sarif,
    /// GitHub Actions annotations, then summary lines for the log.
    Github,
    /// Summary tables and findings, for pull-request comments.
    Markdown,
}

impl Format {
    pub const ALL: [Format; 5] = [
        Format::Text,
        Format::Json,
        Format::Sarif,
        Format::Github,
        Format::Markdown,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Format::Text => "text",
            Format::Json => "json",
            Format::Sarif => "sarif",
            Format::Github => "github",
            Format::Markdown => "markdown",
        }
    }

    /// One line for `--help`.
    pub fn help(self) -> &'static str {
        match self {
            Format::Text => "Diagnostics with source snippets, then summary lines",
            Format::Json => "The report as JSON",
            Format::Sarif => "SARIF 2.1.0, for code-scanning tools",
            Format::Github => "GitHub Actions annotations",
            Format::Markdown => "Summary tables and findings, for pull-request comments",
        }
    }

    pub fn from_name(name: &str) -> Option<Format> {
        Format::ALL.into_iter().find(|format| format.name() == name)
    }
}

/// What the edge decides about rendering.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// ANSI colours in text output.
    pub color: bool,
    /// The absolute directory SARIF's relative paths start from, when known.
    pub source_root: Option<String>,
    /// Text output with the findings only: no summary or totals lines (`--quiet`).
    pub quiet: bool,
}

impl Options {
    pub fn text(&self) -> TextOptions {
        TextOptions { color: self.color }
    }
}

/// How the text looks; the edge decides (a TTY without `NO_COLOR` gets colour).
/// Declared here, beside [`Options`], and used by `text`, so the arrow runs one way.
#[derive(Debug, Clone, Copy, Default)]
pub struct TextOptions {
    pub color: bool,
}

/// Where a renderer finds the text of a package-relative file, for snippets.
/// A text may be read for the call alone ([`Cow::Owned`]): the renderer quotes
/// one file at a time and drops it, so rendering the findings of a package
/// read from disk holds one file, not every file with a finding.
pub trait Sources {
    /// The UTF-8 text of `path`, or `None` when it is missing, binary or not a file.
    fn text(&self, path: &str) -> Option<Cow<'_, str>>;
}

impl Sources for Tree {
    fn text(&self, path: &str) -> Option<Cow<'_, str>> {
        let resolved = self.resolve(path).ok()?;
        match self.file_bytes(&resolved).ok()? {
            Cow::Borrowed(bytes) => std::str::from_utf8(bytes).ok().map(Cow::Borrowed),
            Cow::Owned(bytes) => String::from_utf8(bytes).ok().map(Cow::Owned),
        }
    }
}

/// The text of one file (a pasted document, a snapshot), for faces without a tree.
pub struct OneFile<'t> {
    pub path: &'t str,
    pub text: &'t str,
}

impl Sources for OneFile<'_> {
    fn text(&self, path: &str) -> Option<Cow<'_, str>> {
        (path == self.path).then_some(Cow::Borrowed(self.text))
    }
}

/// A package's files by the names [`path_from_root`] gives them
/// (`ROOT/plugin.json`): for findings named from where the command started.
pub struct RootedTree<'t> {
    pub tree: &'t Tree,
    pub root: &'t str,
}

impl Sources for RootedTree<'_> {
    fn text(&self, path: &str) -> Option<Cow<'_, str>> {
        let relative = path.strip_prefix(path_from_root(self.root, "").as_str())?;
        self.tree.text(relative)
    }
}

/// No file texts: renderers show locations without snippets.
pub struct NoSources;

impl Sources for NoSources {
    fn text(&self, _path: &str) -> Option<Cow<'_, str>> {
        None
    }
}

/// Whether a renderer may quote the source lines of `diagnostic`.
///
/// Secret rules ([`crate::rule::Rule::masks_secrets`]) mask the credential in their message, but the line
/// they point at holds it in clear: quoting it would print the secret into CI
/// logs and PR comments, the very leak the rule warns about.
pub fn may_quote_source(diagnostic: &Diagnostic) -> bool {
    !diagnostic.masks_secrets()
}

/// The text of `file` safe to quote, given every diagnostic of its report:
/// each span a secret rule points at is masked with `*` (byte for byte, so
/// every other span still fits), a secret placed only by line masks that line,
/// and a secret placed nowhere in the file makes it unquotable (`None`).
/// Without this, another finding on the same line would quote the credential.
/// Every credential shape ([`crate::redact::credential_ranges`]) is masked
/// later, in the window a snippet quotes and a margin around it, so a
/// minified snapshot of megabytes is not scanned whole to quote a few lines.
pub fn quotable_text<'t>(file: &str, text: &'t str, diagnostics: &[Diagnostic]) -> Option<Cow<'t, str>> {
    let mut masked: Option<Vec<u8>> = None;
    for secret in diagnostics
        .iter()
        .filter(|d| !may_quote_source(d) && d.file.as_deref() == Some(file))
    {
        let range = match (secret.span, secret.line) {
            (Some(span), _) if span.start <= span.end && span.end <= text.len() => span.start..span.end,
            (_, Some(line)) => line_range(text, line)?,
            _ => return None,
        };
        let bytes = masked.get_or_insert_with(|| text.as_bytes().to_vec());
        for byte in &mut bytes[range] {
            if *byte != b'\n' && *byte != b'\r' {
                *byte = b'*';
            }
        }
    }
    Some(match masked {
        None => Cow::Borrowed(text),
        // Masking whole bytes of UTF-8 sequences with ASCII can only leave
        // broken sequences at a span's edges, where a span never cuts a character.
        Some(bytes) => Cow::Owned(String::from_utf8(bytes).ok()?),
    })
}

/// The byte range of 1-based `line` in `text`, without its line break.
fn line_range(text: &str, line: usize) -> Option<std::ops::Range<usize>> {
    let start = if line == 1 {
        0
    } else {
        text.match_indices('\n').nth(line.checked_sub(2)?)?.0 + 1
    };
    let end = text[start..].find('\n').map_or(text.len(), |i| start + i);
    Some(start..end)
}

/// The root as shown to people: `.` for the empty root.
pub fn display_root(root: &str) -> &str {
    if root.is_empty() { "." } else { root }
}

/// `path:line:col`, with as much of the position as the diagnostic has.
pub fn location(path: &str, diagnostic: &Diagnostic) -> String {
    match (diagnostic.line, diagnostic.column) {
        (Some(line), Some(column)) => format!("{path}:{line}:{column}"),
        (Some(line), None) => format!("{path}:{line}"),
        _ => path.to_string(),
    }
}

/// The line every text face shows for a diagnostic's fix:
/// `Rename the plugin to "x" (safe: apcheck check --fix applies it)`.
pub fn fix_line(fix: &crate::fix::Fix) -> String {
    let how = match fix.applicability {
        crate::fix::Applicability::Safe => "safe: apcheck check --fix applies it",
        crate::fix::Applicability::Unsafe => "unsafe: apcheck check --unsafe-fixes applies it",
    };
    format!("{} ({how})", fix.message)
}

/// ` (1 hidden by apcheck-ignore comments, 2 by the configuration, 1 by the
/// baseline)`, or nothing when nothing was hidden.
pub fn hidden_note(summary: &Summary) -> String {
    let parts: Vec<String> = [
        (summary.suppressed, "apcheck-ignore comments"),
        (summary.ignored, "the configuration"),
        (summary.baselined, "the baseline"),
    ]
    .iter()
    .filter(|(n, _)| *n > 0)
    .enumerate()
    .map(|(i, (n, by))| {
        if i == 0 {
            format!("{n} hidden by {by}")
        } else {
            format!("{n} by {by}")
        }
    })
    .collect();
    if parts.is_empty() {
        String::new()
    } else {
        format!(" ({})", parts.join(", "))
    }
}

/// `1 error`, `2 errors`.
pub fn count(n: usize, singular: &str, plural: &str) -> String {
    format!("{n} {}", if n == 1 { singular } else { plural })
}

/// The verdicts of one root, in words shared by the text, GitHub and Markdown
/// renderers: `loaded`, `skills 3 discovered, 1 skipped`, `servers 2 valid, 0 invalid`.
pub struct Verdicts {
    pub plugin: &'static str,
    pub skills: String,
    pub servers: String,
    pub findings: String,
}

impl Verdicts {
    pub fn of(report: &PackageReport) -> Self {
        let summary = &report.summary;
        let plugin = match report.plugin.state {
            // The states describe only what could be read (AP011 names the rest).
            _ if !report.unread.is_empty() => "incomplete",
            PluginState::Loaded => "loaded",
            PluginState::Rejected => "rejected",
        };
        let skills = match report.skills.state {
            SkillsState::NotLoaded => "skills not loaded".to_string(),
            _ => format!(
                "skills {} discovered, {} skipped",
                summary.skills_discovered, summary.skills_skipped
            ),
        };
        let servers = match report.mcp.state {
            McpState::NotLoaded => "servers not loaded".to_string(),
            McpState::Disabled => "servers disabled".to_string(),
            McpState::Absent | McpState::Loaded => format!(
                "servers {} valid, {} invalid",
                summary.servers_valid, summary.servers_invalid
            ),
        };
        let mut findings = format!(
            "{}, {}",
            count(summary.errors, "error", "errors"),
            count(summary.warnings, "warning", "warnings")
        );
        if summary.infos > 0 {
            findings.push_str(", ");
            findings.push_str(&count(summary.infos, "info", "infos"));
        }
        findings.push_str(&hidden_note(summary));
        Verdicts {
            plugin,
            skills,
            servers,
            findings,
        }
    }
}

#[cfg(test)]
pub(crate) mod test_support {
    //! Reports with hand-made diagnostics, so the renderers are tested whatever
    //! the rules currently find.

    use crate::diag::{Diagnostic, Severity};
    use crate::report::{
        McpSection, McpState, PackageReport, PluginSection, PluginState, ServerEntry, ServerState, SkillEntry,
        SkillState, SkillsSection, SkillsState, Summary, TokenEstimate,
    };
    use crate::rule::{Example, Rule, RuleDoc};
    use crate::source::{LineIndex, Span};

    pub static NAME_RULE: Rule = Rule {
        code: "AP201",
        name: "manifest-name-invalid",
        severity: Severity::Error,
        spec: "Agent Plugins §5.5",
        summary: "The plugin name is not a valid identifier",
        fix_hint: Some("use lowercase letters, digits and hyphens"),
        doc: RuleDoc {
            what: "what",
            why: "why",
            failing: Example::Package(&[]),
            fixed: Example::Package(&[]),
        },
    };

    pub static SECRET_RULE: Rule = Rule {
        code: "AP501",
        name: "secret-in-env",
        severity: Severity::Warning,
        spec: "Agent Plugins §9.2",
        summary: "A credential is written into the package",
        fix_hint: None,
        doc: RuleDoc {
            what: "what",
            why: "why",
            failing: Example::Package(&[]),
            fixed: Example::Package(&[]),
        },
    };

    pub const MANIFEST: &str = "{\n  \"name\": \"Bad Name\",\n  \"version\": \"1.0.0\"\n}\n";
    pub const MCP: &str = "{\"mcpServers\": {\"s\": {\"env\": {\"TOKEN\": \"ghp_SECRETSECRET\"}}}}";

    /// A diagnostic of `rule` at the first occurrence of `needle` in `text`.
    pub fn diagnostic_at(rule: &Rule, file: &str, text: &str, needle: &str, message: &str) -> Diagnostic {
        let start = text.find(needle).expect("needle in text");
        let index = LineIndex::new(text);
        Diagnostic::new(rule, message)
            .in_file(file)
            .at_span(text, &index, Span::new(start, start + needle.len()))
    }

    pub fn report(root: &str, diagnostics: Vec<Diagnostic>) -> PackageReport {
        let skills = SkillsSection {
            state: SkillsState::Valid,
            entries: vec![SkillEntry {
                dir: "a".into(),
                name: Some("a".into()),
                description: Some("d".into()),
                path: "skills/a/SKILL.md".into(),
                state: SkillState::Discovered,
                reason: None,
                tokens: TokenEstimate::default(),
            }],
            suppressed: 0,
        };
        let mcp = McpSection {
            state: McpState::Loaded,
            servers: vec![ServerEntry {
                id: "s".into(),
                transport: Some("stdio".into()),
                state: ServerState::Invalid,
                reason: Some("no command".into()),
                command: None,
                url: None,
            }],
        };
        let summary = Summary::count(&diagnostics, &skills, &mcp);
        PackageReport {
            root: root.into(),
            plugin: PluginSection {
                state: PluginState::Loaded,
                name: Some("demo".into()),
                version: Some("1.0.0".into()),
                description: None,
                spec: Some("1.0.0".into()),
                reason: None,
            },
            skills,
            mcp,
            diagnostics,
            summary,
            unread: Vec::new(),
            package: Default::default(),
        }
    }

    /// A report with a name error in `plugin.json` and a secret warning in `mcp.json`.
    pub fn report_with_findings(root: &str) -> PackageReport {
        report(
            root,
            vec![
                diagnostic_at(
                    &NAME_RULE,
                    "plugin.json",
                    MANIFEST,
                    "\"Bad Name\"",
                    "`Bad Name` is not a valid name",
                ),
                diagnostic_at(
                    &SECRET_RULE,
                    "mcp.json",
                    MCP,
                    "ghp_SECRETSECRET",
                    "`TOKEN` holds a GitHub token (ghp_…)",
                ),
            ],
        )
    }

    /// The fix of the name error in [`MANIFEST`]: `"Bad Name"` → `"bad-name"`.
    pub fn name_fix() -> crate::fix::Fix {
        let start = MANIFEST.find("\"Bad Name\"").expect("the name in the manifest");
        crate::fix::Fix::safe(
            "Rename the plugin to \"bad-name\"",
            vec![crate::fix::Edit::replace(
                "plugin.json",
                Span::new(start, start + "\"Bad Name\"".len()),
                "\"bad-name\"",
            )],
        )
    }

    pub fn tree() -> crate::tree::Tree {
        crate::tree::Tree::from_files([("plugin.json", MANIFEST), ("mcp.json", MCP)])
    }
}

#[cfg(test)]
mod tests {
    use super::test_support::*;
    use super::*;

    #[test]
    fn paths_are_shown_from_where_the_check_started() {
        assert_eq!(path_from_root(".", "plugin.json"), "plugin.json");
        assert_eq!(path_from_root("plugins/a/", "plugin.json"), "plugins/a/plugin.json");
        assert_eq!(path_from_root("", "mcp.json"), "mcp.json");
    }

    #[test]
    fn secret_rules_never_quote_their_source() {
        let report = report_with_findings(".");
        let secret = report.diagnostics.iter().find(|d| d.code == "AP501").unwrap();
        assert!(!may_quote_source(secret));
        let name = report.diagnostics.iter().find(|d| d.code == "AP201").unwrap();
        assert!(may_quote_source(name));
    }

    #[test]
    fn secrets_are_masked_wherever_their_file_is_quoted() {
        let report = report_with_findings(".");
        let quoted = quotable_text("mcp.json", MCP, &report.diagnostics).unwrap();
        assert!(!quoted.contains("ghp_SECRETSECRET"));
        assert_eq!(quoted.len(), MCP.len());
        assert!(quoted.contains("\"TOKEN\": \"****************\""), "{quoted}");
        let manifest = quotable_text("plugin.json", MANIFEST, &report.diagnostics).unwrap();
        assert!(matches!(manifest, Cow::Borrowed(_)));
    }

    #[test]
    fn a_secret_without_a_span_masks_its_line_or_the_whole_file() {
        let text = "a\nsecret\nb";
        let mut secret = diagnostic_at(&SECRET_RULE, "f", text, "secret", "m");
        secret.span = None;
        let quoted = quotable_text("f", text, std::slice::from_ref(&secret)).unwrap();
        assert_eq!(quoted, "a\n******\nb");
        secret.line = None;
        assert!(quotable_text("f", text, &[secret]).is_none());
    }

    #[test]
    fn verdicts_say_what_was_not_looked_at() {
        let mut report = report_with_findings(".");
        let verdicts = Verdicts::of(&report);
        assert_eq!(verdicts.skills, "skills 1 discovered, 0 skipped");
        assert_eq!(verdicts.servers, "servers 0 valid, 1 invalid");
        assert_eq!(verdicts.findings, "1 error, 1 warning");
        report.summary.ignored = 2;
        report.summary.baselined = 1;
        assert_eq!(
            Verdicts::of(&report).findings,
            "1 error, 1 warning (2 hidden by the configuration, 1 by the baseline)"
        );
        report.summary.suppressed = 3;
        assert_eq!(
            Verdicts::of(&report).findings,
            "1 error, 1 warning (3 hidden by apcheck-ignore comments, 2 by the configuration, 1 by the baseline)"
        );
        report.skills.state = SkillsState::NotLoaded;
        report.mcp.state = McpState::Disabled;
        let verdicts = Verdicts::of(&report);
        assert_eq!(verdicts.skills, "skills not loaded");
        assert_eq!(verdicts.servers, "servers disabled");
    }
}
