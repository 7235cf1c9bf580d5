//! The findings as an editor shows them, sans-IO: the file each is shown in,
//! its message with the spec section, the skipped component and the hint,
//! which of them sit under the cursor, what a hover there says, and the
//! quick fixes a file's findings offer. `apcheck lsp` only converts these
//! into protocol shapes (positions, URIs, LSP types).

use super::schema_help::{JsonDocument, key_doc_at};
use super::{FindingTags, rule_markdown};
use crate::diag::{Diagnostic, UNREACHED_NOTE};
use crate::edit::{Applicability, Fix};
use crate::render::escape::{markdown_message, visible};
use crate::report::PackageReport;
use crate::source::Span;

/// The package file a finding is shown in: its own, or for a finding placed
/// in no file, the manifest, where a client starts (§5.1).
pub fn shown_in(diagnostic: &Diagnostic) -> &str {
    diagnostic.file.as_deref().unwrap_or("plugin.json")
}

/// A finding's message for an editor, which shows no separate fields: the
/// message with its spec section, the component it makes a client skip, and
/// the hint on a line of its own.
pub fn editor_message(diagnostic: &Diagnostic, tags: &FindingTags) -> String {
    // Editors show the message as plain text: escaped as the text format escapes
    // it, so a quoted name cannot reorder or hide what the Problems list says.
    let mut message = format!("{} ({})", visible(&diagnostic.message), diagnostic.spec);
    if let Some(skipped) = &tags.skipped {
        message.push_str(&format!("; {}", visible(skipped)));
    }
    if diagnostic.unreached {
        message.push_str(&format!("; {UNREACHED_NOTE}"));
    }
    if let Some(hint) = &diagnostic.hint {
        message.push_str(&format!("\nfix: {}", visible(hint)));
    }
    message
}

/// The findings shown in `file` whose span holds the byte `offset` (either
/// end included, so a cursor just after a value still hovers it).
pub fn findings_at<'r>(report: &'r PackageReport, file: &str, offset: usize) -> Vec<&'r Diagnostic> {
    report
        .diagnostics
        .iter()
        .filter(|d| shown_in(d) == file)
        .filter(|d| d.span.is_some_and(|span| span.start <= offset && offset <= span.end))
        .collect()
}

/// What a hover at a place says, in Markdown, and the span it is about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HoverText {
    pub markdown: String,
    pub span: Option<Span>,
}

/// The hover at byte `offset` of `file` (whose text is `text`): on a manifest
/// or MCP configuration key, what the schema and the spec say about it; on a
/// finding's span, each rule there once, its finding's message above its doc.
/// The span is the key's, else the first finding's.
pub fn hover_at(report: Option<&PackageReport>, file: &str, text: &str, offset: usize) -> Option<HoverText> {
    let mut sections: Vec<String> = Vec::new();
    let mut span = None;
    if let Some((key, doc)) = JsonDocument::of(file).and_then(|document| key_doc_at(document, text, offset)) {
        sections.push(doc.markdown());
        span = Some(key);
    } else if let Some((key, markdown)) = frontmatter_key_doc_at(file, text, offset) {
        sections.push(markdown);
        span = Some(key);
    }
    let mut shown: Vec<&str> = Vec::new();
    for finding in report
        .map(|report| findings_at(report, file, offset))
        .unwrap_or_default()
    {
        if shown.contains(&finding.code) {
            continue;
        }
        shown.push(finding.code);
        if let Some(rule) = crate::registry::find(finding.code) {
            // Messages quote package text: as Markdown it stays text (no link, no HTML).
            sections.push(format!(
                "{}\n\n{}",
                markdown_message(&finding.message),
                rule_markdown(rule)
            ));
        }
        span = span.or(finding.span);
    }
    (!sections.is_empty()).then(|| HoverText {
        markdown: sections.join("\n\n---\n\n"),
        span,
    })
}

/// On a top-level key of a skill's `SKILL.md` frontmatter, the key's span and
/// what the Agent Skills spec says about it.
#[cfg(not(target_arch = "wasm32"))]
fn frontmatter_key_doc_at(file: &str, text: &str, offset: usize) -> Option<(Span, String)> {
    let skill_dir = file.strip_prefix("skills/")?.strip_suffix("/SKILL.md")?;
    if skill_dir.contains('/') {
        return None;
    }
    let start = if text.starts_with('\u{feff}') {
        '\u{feff}'.len_utf8()
    } else {
        0
    };
    let yaml = crate::rules::skills::frontmatter::split(text, start).ok()?.yaml;
    if !(yaml.start..yaml.end).contains(&offset) {
        return None;
    }
    let line_start = text[..offset].rfind('\n').map_or(0, |at| at + 1).max(yaml.start);
    // A top-level key starts its line; nested keys (under `metadata`) are indented.
    let key = text[line_start..yaml.end].split(':').next()?;
    if key.is_empty() || key.contains(char::is_whitespace) || offset > line_start + key.len() {
        return None;
    }
    let markdown = super::skill_spec_text::field_markdown(key)?;
    Some((Span::new(line_start, line_start + key.len()), markdown))
}

/// The wasm build carries no spec text (size): no hover on frontmatter keys there.
#[cfg(target_arch = "wasm32")]
fn frontmatter_key_doc_at(_file: &str, _text: &str, _offset: usize) -> Option<(Span, String)> {
    None
}

/// A quick fix a finding offers, as an editor lists it.
#[derive(Debug, Clone, Copy)]
pub struct QuickFix<'r> {
    pub diagnostic: &'r Diagnostic,
    pub fix: &'r Fix,
}

impl QuickFix<'_> {
    /// Safe fixes are the ones an editor may apply on its own.
    pub fn preferred(&self) -> bool {
        self.fix.applicability == Applicability::Safe
    }

    /// The fix's message; an unsafe one says to check the result.
    pub fn title(&self) -> String {
        if self.preferred() {
            self.fix.message.clone()
        } else {
            format!("{} (unsafe: check the result)", self.fix.message)
        }
    }
}

/// The quick fixes of the findings shown in `file`, in the report's order.
pub fn quick_fixes<'r>(report: &'r PackageReport, file: &'r str) -> impl Iterator<Item = QuickFix<'r>> {
    report
        .diagnostics
        .iter()
        .filter(move |d| shown_in(d) == file)
        .filter_map(|diagnostic| diagnostic.fix.as_ref().map(|fix| QuickFix { diagnostic, fix }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check_package;
    use crate::tree::Tree;

    const SCHEMA: &str = "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json";

    /// A manifest whose `name` is not kebab-case (§5.1): a finding with a safe fix at the value.
    fn report_and_text() -> (PackageReport, String) {
        let text = format!("{{\n  \"$schema\": \"{SCHEMA}\",\n  \"name\": \"Demo\"\n}}\n");
        let report = check_package("p", &Tree::from_files([("plugin.json", text.as_str())]));
        (report, text)
    }

    #[test]
    fn findings_without_a_file_are_shown_in_the_manifest() {
        let (report, _) = report_and_text();
        let mut finding = report.diagnostics[0].clone();
        finding.file = None;
        assert_eq!(shown_in(&finding), "plugin.json");
    }

    #[test]
    fn the_editor_message_carries_the_section_and_the_hint() {
        let (report, _) = report_and_text();
        let finding = &report.diagnostics[0];
        let message = editor_message(finding, &FindingTags::default());
        assert!(
            message.starts_with(&format!("{} ({})", finding.message, finding.spec)),
            "{message}"
        );
        let skipped = FindingTags {
            skipped: Some("skill `x` is skipped (§7.1)".into()),
            ..FindingTags::default()
        };
        assert!(editor_message(finding, &skipped).contains("; skill `x` is skipped (§7.1)"));
    }

    #[test]
    fn quoted_package_text_stays_text_in_the_editor() {
        let (report, text) = report_and_text();
        let mut finding = report.diagnostics[0].clone();
        finding.message = "name \"a\u{202e}b [x](https://evil.example)\" is wrong".into();
        let message = editor_message(&finding, &FindingTags::default());
        assert!(
            message.starts_with("name \"a\\u{202e}b [x](https://evil.example)\" is wrong"),
            "{message}"
        );
        let mut report = report;
        let offset = text.find("\"Demo\"").unwrap() + 2;
        for diagnostic in &mut report.diagnostics {
            diagnostic.message.clone_from(&finding.message);
        }
        let hover = hover_at(Some(&report), "plugin.json", &text, offset).unwrap();
        assert!(!hover.markdown.contains("](https://evil"), "{}", hover.markdown);
        // Markdown escapes the escape's backslash, which renders as one.
        assert!(hover.markdown.contains(r"a\\u{202e}b"), "{}", hover.markdown);
    }

    #[test]
    fn a_hover_on_a_finding_shows_its_rule_once_and_its_span() {
        let (report, text) = report_and_text();
        let offset = text.find("\"Demo\"").unwrap() + 2;
        let found = findings_at(&report, "plugin.json", offset);
        assert!(!found.is_empty(), "{:?}", report.diagnostics);
        let hover = hover_at(Some(&report), "plugin.json", &text, offset).unwrap();
        let code = found[0].code;
        assert_eq!(
            hover.markdown.matches(&format!("**{code}**")).count(),
            1,
            "{}",
            hover.markdown
        );
        assert_eq!(hover.span, found[0].span);
        assert!(findings_at(&report, "mcp.json", offset).is_empty());
    }

    #[test]
    fn a_hover_on_a_key_is_its_doc_even_without_a_report() {
        let (_, text) = report_and_text();
        let offset = text.find("\"name\"").unwrap() + 2;
        let hover = hover_at(None, "plugin.json", &text, offset).unwrap();
        assert!(hover.markdown.contains("name"), "{}", hover.markdown);
        assert!(hover.span.is_some());
    }

    #[test]
    fn a_hover_on_a_frontmatter_key_is_what_agent_skills_says_about_it() {
        let text = "---\nname: a\ndescription: Does x. Use when y.\nmetadata:\n  name: b\n---\nname: body\n";
        let at = |needle: &str, nth: usize| text.match_indices(needle).nth(nth).unwrap().0 + 1;
        let hover = hover_at(None, "skills/a/SKILL.md", text, at("name", 0)).unwrap();
        assert!(hover.markdown.starts_with("`name`: required"), "{}", hover.markdown);
        assert!(
            hover.markdown.contains("Must match the parent directory name"),
            "{}",
            hover.markdown
        );
        assert_eq!(hover.span, Some(Span::new(4, 8)));
        let description = hover_at(None, "skills/a/SKILL.md", text, at("description", 0)).unwrap();
        assert!(description.markdown.contains("**Agent Skills (`description` field)**"));
        // Not a key's doc: a value, a nested key, the body, a file that is no skill's SKILL.md.
        assert_eq!(hover_at(None, "skills/a/SKILL.md", text, at("Does", 0)), None);
        assert_eq!(hover_at(None, "skills/a/SKILL.md", text, at("name", 1)), None);
        assert_eq!(hover_at(None, "skills/a/SKILL.md", text, at("name", 2)), None);
        assert_eq!(hover_at(None, "README.md", text, at("name", 0)), None);
    }

    #[test]
    fn quick_fixes_say_when_they_are_unsafe() {
        let (report, _) = report_and_text();
        let fixes: Vec<QuickFix> = quick_fixes(&report, "plugin.json").collect();
        assert!(!fixes.is_empty(), "{:?}", report.diagnostics);
        for quick in &fixes {
            assert_eq!(
                quick.title().ends_with("(unsafe: check the result)"),
                !quick.preferred()
            );
        }
        let mut unsafe_fix = fixes[0].fix.clone();
        unsafe_fix.applicability = Applicability::Unsafe;
        let quick = QuickFix {
            diagnostic: fixes[0].diagnostic,
            fix: &unsafe_fix,
        };
        assert!(!quick.preferred());
        assert_eq!(
            quick.title(),
            format!("{} (unsafe: check the result)", unsafe_fix.message)
        );
        assert_eq!(quick_fixes(&report, "mcp.json").count(), 0);
    }
}
