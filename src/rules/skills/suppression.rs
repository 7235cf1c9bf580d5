//! Inline suppression in `SKILL.md`, after Ruff's `noqa`: an
//! `apcheck-ignore` comment lists rule codes whose findings in this file are
//! hidden, and AP319 reports a comment (or a code in it) that hides nothing.
//!
//! - In the Markdown body, an HTML comment alone on its line,
//!   `<!-- apcheck-ignore AP314 -->`, hides the listed codes for the whole
//!   `SKILL.md`. Whole-file, because almost every finding on a `SKILL.md` is
//!   about its frontmatter (which YAML comments cover line by line) or the
//!   file as a whole (its size, a byte order mark, a missing frontmatter,
//!   characters hidden anywhere in it), and those have no body line to sit
//!   beside. Outside a fenced code block only, and indented by three spaces
//!   at most, as CommonMark reads an HTML block: anywhere else the text is
//!   shown as text, not hidden as a comment.
//! - In the frontmatter, a YAML comment, `# apcheck-ignore AP316`: trailing a
//!   line, it hides the findings that start on that line; on a line of its
//!   own, the findings that start on the next line holding YAML content. The
//!   line is the one every format shows for the finding: for a value nested
//!   in a field (`metadata`), the field's line, where its finding is placed.
//!   What is a comment is decided with the YAML reader's own scalar spans, so
//!   a `#` inside a quoted or block scalar never counts. A frontmatter the
//!   reader refuses (AP307), or one of comments alone, has no comments
//!   apcheck can place: there, only the body's comment applies.
//!
//! The codes follow `apcheck-ignore` (a colon after it is allowed), separated
//! by commas or spaces; the list ends at the first word not shaped like a
//! code, so a reason may follow. Only whole codes are read: a prefix such as
//! `AP3` belongs in `apcheck.toml`, where it is visible for the whole package.
//!
//! Hiding a finding never changes a state: a skill an error skips stays
//! skipped, as with the configuration's `ignore`. The check applies the
//! comments before the configuration and the baseline, to the findings it
//! made, so which of them is unused does not depend on the settings.

use crate::diag::{Diagnostic, Severity};
use crate::edit::{Edit, Fix};
use crate::rule::{Example, Rule};
use crate::rules::files::TextFile;
use crate::source::Span;

use super::frontmatter;
use super::texts::PLUGIN;
use super::yaml::{self, Node, Spanned, Typing};

pub static UNUSED_SUPPRESSION: Rule = Rule {
    code: "AP319",
    name: "unused-suppression",
    severity: Severity::Warning,
    spec: "apcheck (inline suppression, after Ruff's RUF100)",
    summary: "An `apcheck-ignore` comment in SKILL.md hides nothing, or lists a code no package rule has",
    fix_hint: Some("Remove the codes that hide nothing, or the whole comment"),
    doc: rule_doc! {
        what: "Reads the `apcheck-ignore` comments of each SKILL.md and reports, per comment, the codes that \
               hid no finding and the words shaped like a code that name no rule checking a package's files (the \
               snapshot rules, AP6xx-AP9xx, never report on a SKILL.md); a comment that lists no code at all is \
               reported too. A body HTML comment alone on its line, `<!-- apcheck-ignore AP314 -->`, \
               hides the listed codes for the whole file (most findings on a SKILL.md are about its frontmatter \
               or the file as a whole, with no body line to sit beside); a frontmatter YAML comment, `# apcheck-ignore AP316`, \
               hides the findings that start on its line when it trails one, or on the next line holding YAML \
               content when it stands alone (the line each format shows: a nested value's finding starts on \
               its top-level field). A comment in a fenced or indented code block is text, and so is a `#` inside a quoted or block \
               YAML value. Only whole codes count, and AP319 itself can be listed. The fix \
               removes the unused codes, or the whole comment when none is used (safe).",
        why: "A suppression outlives the finding it was written for: once the finding is fixed, the comment \
              silently hides the next one of that code. An unknown code (a typo, a renumbered rule) never hid \
              anything. Reporting both keeps every suppression meaningful, as Ruff's unused `noqa` does.",
        failing: Example::Package(&[
            ("plugin.json", PLUGIN),
            (
                "skills/pdf-tools/SKILL.md",
                "---\nname: pdf-tools\ndescription: Extracts text and tables from PDF files. Use when the user works with PDFs.\n---\n<!-- apcheck-ignore AP314 -->\n# PDF tools\n",
            ),
        ]),
        fixed: Example::Package(&[
            ("plugin.json", PLUGIN),
            (
                "skills/pdf-tools/SKILL.md",
                "---\nname: pdf-tools\ndescription: Extracts text and tables from PDF files. Use when the user works with PDFs.\n---\n# PDF tools\n",
            ),
        ]),
    },
};

const DIRECTIVE: &str = "apcheck-ignore";

/// The rule code a listed code names, in any case; `None` for none. The
/// family's parent hands it down, as it sees the other families' rules.
pub(super) type RuleCode = fn(&str) -> Option<&'static str>;

/// Which findings of the file a comment covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Scope {
    File,
    /// The findings starting on this 1-based line of the file.
    Line(usize),
}

/// One code (or code-shaped word) a comment lists.
#[derive(Debug)]
struct Listed {
    /// As written.
    span: Span,
    /// The registered code it names; `None` for no rule.
    code: Option<&'static str>,
    used: bool,
}

/// One `apcheck-ignore` comment.
#[derive(Debug)]
struct Directive {
    scope: Scope,
    /// The comment, for placing its finding.
    comment: Span,
    /// What deleting the comment removes: its whole line when it stands
    /// alone, else the comment and the blanks before it.
    removal: Span,
    listed: Vec<Listed>,
}

impl Directive {
    fn covers(&self, diagnostic: &Diagnostic) -> bool {
        match self.scope {
            Scope::File => true,
            Scope::Line(line) => diagnostic.line == Some(line),
        }
    }

    /// Hides `diagnostic` if this comment lists its code and covers it.
    fn hides(&mut self, diagnostic: &Diagnostic) -> bool {
        if !self.covers(diagnostic) {
            return false;
        }
        let mut hidden = false;
        for listed in &mut self.listed {
            if listed.code == Some(diagnostic.code) {
                listed.used = true;
                hidden = true;
            }
        }
        hidden
    }
}

/// Applies the `apcheck-ignore` comments of `file` to `diagnostics` (the
/// findings of this skill), removing those they hide and adding AP319 for
/// what hides nothing. Returns how many findings were hidden.
pub(super) fn apply(file: &TextFile, rule_code: RuleCode, diagnostics: &mut Vec<Diagnostic>) -> usize {
    // Most files name no directive: one search of the bytes, and nothing is parsed.
    if !file.text.contains(DIRECTIVE) {
        return 0;
    }
    let mut directives = read(&file.text, rule_code);
    let mut hidden = 0;
    diagnostics.retain(|diagnostic| {
        let hide = diagnostic.file.as_deref() == Some(file.path.as_str()) && hide(&mut directives, diagnostic);
        hidden += usize::from(hide);
        !hide
    });
    // AP319 is reported after the others are hidden, then hidden in turn by
    // the comments that list it; listing it never makes a comment unused.
    let unused: Vec<Diagnostic> = directives.iter().filter_map(|d| unused_finding(file, d)).collect();
    for finding in unused {
        if hide(&mut directives, &finding) {
            hidden += 1;
        } else {
            diagnostics.push(finding);
        }
    }
    hidden
}

/// Whether some comment hides `diagnostic`; every comment that does is marked used.
fn hide(directives: &mut [Directive], diagnostic: &Diagnostic) -> bool {
    directives
        .iter_mut()
        .fold(false, |hidden, directive| directive.hides(diagnostic) | hidden)
}

/// The AP319 finding for `directive`, if some of it hides nothing.
fn unused_finding(file: &TextFile, directive: &Directive) -> Option<Diagnostic> {
    let text = &file.text;
    let word = |listed: &Listed| format!("`{}`", &text[listed.span.start..listed.span.end]);
    let unused: Vec<String> = directive
        .listed
        .iter()
        .filter(|l| !l.used && l.code.is_some_and(|code| code != UNUSED_SUPPRESSION.code))
        .map(word)
        .collect();
    let unknown: Vec<String> = directive.listed.iter().filter(|l| l.code.is_none()).map(word).collect();
    let mut parts = Vec::new();
    if directive.listed.is_empty() {
        parts.push(
            "names no rule code, so it hides nothing (list the codes it hides, such as `apcheck-ignore AP316`)"
                .to_string(),
        );
    }
    if !unused.is_empty() {
        let where_ = match directive.scope {
            Scope::File => "in this SKILL.md".to_string(),
            Scope::Line(line) => format!("starting on line {line}"),
        };
        parts.push(format!("hides no {} finding {where_}", unused.join(" or ")));
    }
    if !unknown.is_empty() {
        let names = if unknown.len() == 1 { "names" } else { "name" };
        parts.push(format!(
            "lists {}, which {names} no rule that checks a package's files (`apcheck rules` lists them)",
            unknown.join(", ")
        ));
    }
    if parts.is_empty() {
        return None;
    }
    let kept: Vec<&Listed> = directive
        .listed
        .iter()
        .filter(|l| l.code.is_some_and(|code| l.used || code == UNUSED_SUPPRESSION.code))
        .collect();
    let fix = match (kept.first(), directive.listed.first(), directive.listed.last()) {
        (Some(_), Some(first), Some(last)) => {
            let list = &text[first.span.start..last.span.end];
            let separator = if list.contains(',') { ", " } else { " " };
            let codes: Vec<&str> = kept.iter().map(|l| &text[l.span.start..l.span.end]).collect();
            Fix::safe(
                format!("Keep only {} in the comment", codes.join(separator)),
                vec![Edit::replace(
                    &file.path,
                    Span::new(first.span.start, last.span.end),
                    codes.join(separator),
                )],
            )
        }
        _ => Fix::safe(
            "Remove the `apcheck-ignore` comment",
            vec![Edit::delete(&file.path, directive.removal)],
        ),
    };
    Some(
        Diagnostic::new(
            &UNUSED_SUPPRESSION,
            format!("this `{DIRECTIVE}` comment {}", parts.join("; it ")),
        )
        .in_file(&file.path)
        .at_span(text, &file.index, directive.comment)
        .with_fix(fix),
    )
}

/// Every `apcheck-ignore` comment of a SKILL.md `text`, frontmatter then body.
fn read(text: &str, rule_code: RuleCode) -> Vec<Directive> {
    let start = if text.starts_with('\u{FEFF}') { 3 } else { 0 };
    let Ok(parts) = frontmatter::split(text, start) else {
        return Vec::new();
    };
    let mut directives = frontmatter_directives(text, parts.yaml, rule_code);
    directives.extend(body_directives(text, parts.body, rule_code));
    directives
}

/// Lines of `text` within `within`: (start, end without the line break, start of the next line).
fn lines(text: &str, within: Span) -> impl Iterator<Item = (usize, usize, usize)> + '_ {
    let mut at = within.start;
    std::iter::from_fn(move || {
        if at >= within.end {
            return None;
        }
        let start = at;
        let next = text[start..within.end].find('\n').map_or(within.end, |i| start + i + 1);
        let end = start + text[start..next].trim_end_matches(['\n', '\r']).len();
        at = next;
        Some((start, end, next))
    })
}

/// The body's HTML comments alone on their line, outside fenced code.
fn body_directives(text: &str, body: Span, rule_code: RuleCode) -> Vec<Directive> {
    let mut directives = Vec::new();
    // The open fence's character and length (CommonMark: ``` or ~~~, three or more).
    let mut fence: Option<(char, usize)> = None;
    for (start, end, next) in lines(text, body) {
        let line = &text[start..end];
        let indent = line.len() - line.trim_start_matches(' ').len();
        let content = line.trim_start_matches(' ');
        let run = |c: char| content.len() - content.trim_start_matches(c).len();
        match fence {
            Some((c, open)) => {
                if indent <= 3 && run(c) >= open && content.trim_start_matches(c).trim().is_empty() {
                    fence = None;
                }
                continue;
            }
            None if indent <= 3 => {
                if let Some(c) = ['`', '~'].into_iter().find(|&c| run(c) >= 3) {
                    fence = Some((c, run(c)));
                    continue;
                }
            }
            None => continue,
        }
        let trimmed = content.trim_end();
        let Some(inner) = trimmed.strip_prefix("<!--").and_then(|rest| rest.strip_suffix("-->")) else {
            continue;
        };
        if inner.contains("-->") {
            continue;
        }
        let inner_start = start + indent + 4;
        if let Some(listed) = listed_codes(text, inner_start, inner_start + inner.len(), rule_code) {
            directives.push(Directive {
                scope: Scope::File,
                comment: Span::new(start + indent, start + indent + trimmed.len()),
                removal: Span::new(start, next),
                listed,
            });
        }
    }
    directives
}

/// The frontmatter's YAML comments. Read only when the YAML reads: the
/// reader's scalar spans tell a `#` that starts a comment from one inside a value.
fn frontmatter_directives(text: &str, yaml_part: Span, rule_code: RuleCode) -> Vec<Directive> {
    let yaml = &text[yaml_part.start..yaml_part.end];
    if !yaml.contains(DIRECTIVE) {
        return Vec::new();
    }
    let Ok(Some(root)) = yaml::read(yaml, Typing::Core) else {
        return Vec::new();
    };
    let mut scalars = Vec::new();
    scalar_spans(&root, &mut scalars);
    let in_scalar = |at: usize| scalars.iter().any(|span| span.start <= at && at < span.end);
    // (line start, comment start or none, line end, next line start), in file offsets.
    let mut rows = Vec::new();
    for (start, end, next) in lines(text, yaml_part) {
        let comment = text[start..end].char_indices().find_map(|(i, c)| {
            let at = start + i;
            let after_blank = i == 0 || text[..at].ends_with([' ', '\t']);
            (c == '#' && after_blank && !in_scalar(at - yaml_part.start)).then_some(at)
        });
        rows.push((start, comment, end, next));
    }
    let line_of = |offset: usize| text[..offset].bytes().filter(|&b| b == b'\n').count() + 1;
    let mut directives = Vec::new();
    for (row, &(start, comment, end, next)) in rows.iter().enumerate() {
        let Some(at) = comment else { continue };
        let Some(listed) = listed_codes(text, at + 1, end, rule_code) else {
            continue;
        };
        let before = &text[start..at];
        let (scope, removal) = if before.trim().is_empty() {
            // Alone on its line: the next line holding YAML content.
            let target = rows[row + 1..]
                .iter()
                .find(|(s, c, e, _)| !text[*s..c.unwrap_or(*e)].trim().is_empty())
                .map_or(line_of(next), |(s, ..)| line_of(*s));
            (Scope::Line(target), Span::new(start, next))
        } else {
            let kept = before.trim_end_matches([' ', '\t']).len();
            (Scope::Line(line_of(start)), Span::new(start + kept, end))
        };
        directives.push(Directive {
            scope,
            comment: Span::new(at, end),
            removal,
            listed,
        });
    }
    directives
}

/// The spans of every key and scalar in `node`: where a `#` is text, not a comment.
fn scalar_spans(node: &Spanned, out: &mut Vec<Span>) {
    match &node.node {
        Node::Seq(items) => items.iter().for_each(|item| scalar_spans(item, out)),
        Node::Map(members) => {
            for member in members {
                out.push(member.key_span);
                scalar_spans(&member.value, out);
            }
        }
        _ => out.push(node.span),
    }
}

/// The codes of a comment whose text is `text[start..end]`, if it is an
/// `apcheck-ignore` comment.
fn listed_codes(text: &str, start: usize, end: usize, rule_code: RuleCode) -> Option<Vec<Listed>> {
    let inner = &text[start..end];
    let lead = inner.len() - inner.trim_start().len();
    let rest = inner[lead..].strip_prefix(DIRECTIVE)?;
    if !(rest.is_empty() || rest.starts_with([' ', '\t', ':'])) {
        return None;
    }
    let mut at = start + lead + DIRECTIVE.len();
    if text[at..end].starts_with(':') {
        at += 1;
    }
    let mut listed = Vec::new();
    loop {
        let skipped = text[at..end].len() - text[at..end].trim_start_matches([' ', '\t', ',']).len();
        at += skipped;
        let word_len = text[at..end].find([' ', '\t', ',']).unwrap_or(end - at);
        let word = &text[at..at + word_len];
        if !is_code_shaped(word) {
            break;
        }
        listed.push(Listed {
            span: Span::new(at, at + word_len),
            code: rule_code(word),
            used: false,
        });
        at += word_len;
    }
    Some(listed)
}

/// `AP` and digits, in any case: the shape of every rule code.
fn is_code_shaped(word: &str) -> bool {
    // Bytes: a reason may start with any character, and a str slice would cut it.
    let bytes = word.as_bytes();
    bytes.len() > 2 && bytes[..2].eq_ignore_ascii_case(b"AP") && bytes[2..].iter().all(u8::is_ascii_digit)
}

#[cfg(test)]
mod tests {
    use super::super::testing::{codes, discover};
    use crate::report::SkillState;

    const DESCRIPTION: &str = "description: Extracts text from PDF files. Use when the user works with PDFs.";

    fn check(text: &str) -> (Vec<crate::diag::Diagnostic>, SkillState) {
        let (section, diagnostics) = discover(&[("skills/a/SKILL.md", text)]);
        (diagnostics, section.entries[0].state)
    }

    #[test]
    fn a_body_comment_hides_its_codes_in_the_whole_file_but_keeps_the_state() {
        // Agent Skills `name`: the directory is `a`, so the name mismatches (AP309, which skips the skill).
        let text = format!("---\nname: b\n{DESCRIPTION}\n---\n# B\n\n<!-- apcheck-ignore AP309 -->\n");
        let (diagnostics, state) = check(&text);
        assert!(diagnostics.is_empty(), "{diagnostics:?}");
        assert_eq!(state, SkillState::Skipped, "hiding a finding never loads the skill");
    }

    #[test]
    fn a_body_comment_in_fenced_code_or_indented_code_is_text() {
        for body in [
            "```markdown\n<!-- apcheck-ignore AP309 -->\n```\n",
            "~~~~\n<!-- apcheck-ignore AP309 -->\n~~~~\n",
            "text\n\n    <!-- apcheck-ignore AP309 -->\n",
            "see <!-- apcheck-ignore AP309 --> here\n",
        ] {
            let text = format!("---\nname: b\n{DESCRIPTION}\n---\n{body}");
            let (diagnostics, _) = check(&text);
            assert_eq!(codes(&diagnostics), ["AP309"], "{body}");
        }
        // A reason may follow the codes, in any script.
        let reason =
            format!("---\nname: b\n{DESCRIPTION}\n---\n<!-- apcheck-ignore AP309 €uro: named by the owner -->\n");
        assert!(check(&reason).0.is_empty());
        // After the fence closes, a comment counts again.
        let text = format!("---\nname: b\n{DESCRIPTION}\n---\n```\nx\n```\n   <!-- apcheck-ignore: AP309 -->\n");
        assert!(check(&text).0.is_empty());
    }

    #[test]
    fn a_trailing_frontmatter_comment_hides_findings_starting_on_its_line() {
        // YAML 1.1 reads `yes` as a boolean (AP316) on line 4; the comment on line 5 covers only line 5.
        let text = format!("---\nname: a\n{DESCRIPTION}\nmetadata: {{beta: yes}}  # apcheck-ignore AP316\n---\n");
        assert!(check(&text).0.is_empty(), "{:?}", check(&text).0);
        let elsewhere =
            format!("---\nname: a\n{DESCRIPTION}\nmetadata: {{beta: yes}}\nx: 1  # apcheck-ignore AP316\n---\n");
        let (diagnostics, _) = check(&elsewhere);
        assert_eq!(codes(&diagnostics), ["AP313", "AP316", "AP319"]);
        assert!(
            diagnostics[2]
                .message
                .contains("hides no `AP316` finding starting on line 5"),
            "{}",
            diagnostics[2].message
        );
    }

    #[test]
    fn a_comment_alone_covers_the_next_line_holding_content() {
        // AP316 starts where its top-level field does, on the `metadata` line.
        let text = format!(
            "---\nname: a\n{DESCRIPTION}\n# apcheck-ignore AP316 because PyPI clients are not ours\n\n# another comment\nmetadata:\n  beta: yes\n---\n"
        );
        assert!(check(&text).0.is_empty(), "{:?}", check(&text).0);
        let inside = format!("---\nname: a\n{DESCRIPTION}\nmetadata:\n  # apcheck-ignore AP316\n  beta: yes\n---\n");
        assert_eq!(
            codes(&check(&inside).0),
            ["AP316", "AP319"],
            "not the line the finding starts on"
        );
    }

    #[test]
    fn a_hash_inside_a_value_is_not_a_comment() {
        for value in [
            "\"x # apcheck-ignore AP316\"",
            "'x # apcheck-ignore AP316'",
            "|\n    x # apcheck-ignore AP316",
            "x#apcheck-ignore AP316",
        ] {
            let text = format!("---\nname: a\n{DESCRIPTION}\nmetadata:\n  note: {value}\n  beta: yes\n---\n");
            let (diagnostics, _) = check(&text);
            assert_eq!(codes(&diagnostics), ["AP316"], "{value}");
        }
    }

    #[test]
    fn unused_and_unknown_codes_are_reported_with_a_fix() {
        let text = format!("---\nname: a\n{DESCRIPTION}\n---\n<!-- apcheck-ignore AP314, ap999 -->\n# A\n");
        let (diagnostics, _) = check(&text);
        assert_eq!(codes(&diagnostics), ["AP319"]);
        let message = &diagnostics[0].message;
        assert!(
            message.contains("hides no `AP314` finding in this SKILL.md"),
            "{message}"
        );
        assert!(
            message.contains("it lists `ap999`, which names no rule that checks a package's files"),
            "{message}"
        );
        let fixed = crate::fix::apply_edits(&text, &diagnostics[0].fix.as_ref().unwrap().edits).unwrap();
        assert_eq!(fixed, format!("---\nname: a\n{DESCRIPTION}\n---\n# A\n"));
        // A comment naming no code hides nothing either.
        let bare = format!("---\nname: a\n{DESCRIPTION}\n---\n<!-- apcheck-ignore -->\n");
        assert!(check(&bare).0[0].message.contains("names no rule code"));
    }

    #[test]
    fn the_fix_keeps_the_used_codes_and_a_trailing_comment_goes_with_its_blanks() {
        let text = format!("---\nname: b\n{DESCRIPTION}\n---\n<!-- apcheck-ignore AP309, AP315 -->\n");
        let (diagnostics, _) = check(&text);
        assert_eq!(codes(&diagnostics), ["AP319"]);
        let fix = diagnostics[0].fix.as_ref().unwrap();
        let fixed = crate::fix::apply_edits(&text, &fix.edits).unwrap();
        assert!(fixed.ends_with("<!-- apcheck-ignore AP309 -->\n"), "{fixed}");
        let trailing = format!("---\nname: a  # apcheck-ignore AP316\n{DESCRIPTION}\n---\n");
        let (diagnostics, _) = check(&trailing);
        let fixed = crate::fix::apply_edits(&trailing, &diagnostics[0].fix.as_ref().unwrap().edits).unwrap();
        assert_eq!(fixed, format!("---\nname: a\n{DESCRIPTION}\n---\n"));
    }

    #[test]
    fn the_directive_is_read_without_spaces_and_near_misses_are_plain_comments() {
        let with = |comment: &str| format!("---\nname: b\n{DESCRIPTION}\n---\n{comment}\n");
        assert!(check(&with("<!--apcheck-ignore:AP309-->")).0.is_empty());
        for near_miss in [
            "<!-- apcheck-ignoreAP309 -->",
            "<!-- apcheck-ignore-next AP309 -->",
            "<!-- see apcheck-ignore AP309 -->",
        ] {
            assert_eq!(codes(&check(&with(near_miss)).0), ["AP309"], "{near_miss}");
        }
        // A frontmatter of comments alone is no YAML document: it lacks `name` and
        // `description` (AP308, AP310), and its comment is not read.
        let (diagnostics, _) = check("---\n# apcheck-ignore AP308\n---\n");
        assert_eq!(codes(&diagnostics), ["AP308", "AP310"]);
    }

    #[test]
    fn listing_ap319_hides_the_comments_own_finding() {
        let text = format!("---\nname: a  # apcheck-ignore AP316 AP319\n{DESCRIPTION}\n---\n");
        assert!(check(&text).0.is_empty(), "{:?}", check(&text).0);
    }

    #[test]
    fn a_frontmatter_comment_in_yaml_that_does_not_read_is_not_trusted() {
        // AP307: only the body's comment applies.
        let text = "---\nname: a\ndescription: Use when: y  # apcheck-ignore AP307\n---\n";
        assert_eq!(codes(&check(text).0), ["AP307"]);
        let body = format!("{text}<!-- apcheck-ignore AP307 -->\n");
        assert!(check(&body).0.is_empty());
    }
}
