//! Terminal text: each diagnostic as `severity[CODE]: message`, its
//! `file:line:col`, the source line with a caret under the span, the hint as a
//! `help` line and the spec section as a `note`; then one summary line per root.

use std::borrow::Cow;

use annotate_snippets::renderer::{AnsiColor, Effects, Style};
use annotate_snippets::{AnnotationKind, Group, Level, Origin, Renderer, Snippet};

use super::escape::{visible, visible_line};
use super::{Sources, Verdicts, count, display_root, fix_line, may_quote_source, path_from_root, quotable_text};
use crate::diag::{Diagnostic, Severity, UNREACHED_NOTE};
use crate::report::{PackageReport, PluginState, Summary};
use crate::source::Span;

pub use super::TextOptions;

/// Every diagnostic of `report` with snippets from `sources`, then its summary line.
pub fn render_report(report: &PackageReport, sources: &dyn Sources, options: TextOptions) -> String {
    let mut out = render_diagnostics(&report.root, &report.diagnostics, sources, options);
    out.push_str(&summary_line(report, options));
    out.push('\n');
    out
}

/// Each of `diagnostics` (files relative to `root`) with its snippet, a blank
/// line after each: for any face with findings but no package report
/// (snapshots, schema validation).
pub fn render_diagnostics(
    root: &str,
    diagnostics: &[Diagnostic],
    sources: &dyn Sources,
    options: TextOptions,
) -> String {
    let renderer = if options.color {
        Renderer::styled()
    } else {
        Renderer::plain()
    };
    let mut out = String::new();
    // Each file's secret spans are masked once, however many findings quote it: findings come
    // sorted by file, so only the file being quoted is held, and a package's
    // files with findings never all at once.
    let mut quotable: Option<(&str, Option<String>)> = None;
    for diagnostic in diagnostics {
        let file = diagnostic.file.as_deref().filter(|_| may_quote_source(diagnostic));
        if let Some(file) = file.filter(|file| quotable.as_ref().map(|(held, _)| held) != Some(file)) {
            let text = sources
                .text(file)
                .and_then(|text| quotable_text(file, &text, diagnostics).map(Cow::into_owned));
            quotable = Some((file, text));
        }
        let text = file.and(quotable.as_ref()).and_then(|(_, text)| text.as_deref());
        out.push_str(&render_diagnostic(&renderer, options.color, root, diagnostic, text));
        out.push_str("\n\n");
    }
    out
}

/// `<root>: loaded — skills 3 discovered, 0 skipped — servers 1 valid, 0 invalid — 0 errors, 1 warning`
pub fn summary_line(report: &PackageReport, options: TextOptions) -> String {
    let verdicts = Verdicts::of(report);
    let (state_style, findings_style) = if options.color {
        let state = match report.plugin.state {
            PluginState::Loaded if !report.is_incomplete() => AnsiColor::Green.on_default(),
            PluginState::Loaded | PluginState::Rejected => AnsiColor::Red.on_default(),
        };
        let findings = if report.summary.errors > 0 {
            AnsiColor::Red.on_default()
        } else if report.summary.warnings > 0 {
            AnsiColor::Yellow.on_default()
        } else {
            Style::new()
        };
        (state.effects(Effects::BOLD), findings)
    } else {
        (Style::new(), Style::new())
    };
    format!(
        "{root}: {state_style}{plugin}{state_style:#} — {skills} — {servers} — {findings_style}{findings}{findings_style:#}",
        // CI logs run a line starting with `::` as a workflow command, whatever
        // the format: a marketplace folder named `::error …::` must not start one.
        root = super::escape::github_log_text(display_root(&report.root)),
        plugin = verdicts.plugin,
        skills = verdicts.skills,
        servers = verdicts.servers,
        findings = verdicts.findings,
    )
}

/// One closing line when several roots were checked: `3 plugins: 2 loaded, 1 rejected — 4 errors, 1 warning`,
/// with `, 1 incomplete` when a check could not read all of its root (counted apart, as its verdict says).
pub fn totals_line(reports: &[PackageReport]) -> String {
    let complete = || reports.iter().filter(|r| !r.is_incomplete());
    let loaded = complete().filter(|r| r.plugin.state == PluginState::Loaded).count();
    let rejected = complete().filter(|r| r.plugin.state == PluginState::Rejected).count();
    let incomplete = reports.len() - loaded - rejected;
    let errors: usize = reports.iter().map(|r| r.summary.errors).sum();
    let warnings: usize = reports.iter().map(|r| r.summary.warnings).sum();
    let hidden = Summary {
        suppressed: reports.iter().map(|r| r.summary.suppressed).sum(),
        ignored: reports.iter().map(|r| r.summary.ignored).sum(),
        baselined: reports.iter().map(|r| r.summary.baselined).sum(),
        ..Summary::default()
    };
    format!(
        "{}: {loaded} loaded, {rejected} rejected{} — {}, {}{}",
        count(reports.len(), "plugin", "plugins"),
        if incomplete > 0 {
            format!(", {incomplete} incomplete")
        } else {
            String::new()
        },
        count(errors, "error", "errors"),
        count(warnings, "warning", "warnings"),
        super::hidden_note(&hidden),
    )
}

/// `quotable` is the text of the diagnostic's file with its secret spans masked ([`quotable_text`]),
/// when it may be quoted; [`excerpt`] masks credential shapes in what it quotes.
fn render_diagnostic(
    renderer: &Renderer,
    color: bool,
    root: &str,
    diagnostic: &Diagnostic,
    quotable: Option<&str>,
) -> String {
    let level = match diagnostic.severity {
        Severity::Error => Level::ERROR,
        Severity::Warning => Level::WARNING,
        Severity::Info => Level::INFO,
    };
    let message = visible(&diagnostic.message);
    let title = level.primary_title(message.as_ref()).id(diagnostic.code);
    let mut group = Group::with_title(title);
    let excerpt = quotable
        .zip(diagnostic.span)
        .and_then(|(text, span)| excerpt(text, span, diagnostic.line));
    let mut real_origin = None;
    if let Some(file) = &diagnostic.file {
        let path = visible(&path_from_root(root, file)).into_owned();
        group = match &excerpt {
            Some(excerpt) => {
                let snippet = Snippet::source(excerpt.lines.as_str())
                    .line_start(excerpt.first_line)
                    .annotation(AnnotationKind::Primary.span(excerpt.span.clone()));
                match diagnostic.column.filter(|_| excerpt.windowed || excerpt.column_moved) {
                    // The renderer would name the window's or the escaped line's column: name the real one.
                    Some(column) => {
                        real_origin = Some(RealOrigin {
                            path,
                            line: excerpt.first_line,
                            column,
                        });
                        group.element(snippet)
                    }
                    None => group.element(snippet.path(path)),
                }
            }
            None => {
                let mut origin = Origin::path(path);
                if let Some(line) = diagnostic.line {
                    origin = origin.line(line);
                    if let Some(column) = diagnostic.column {
                        origin = origin.char_column(column);
                    }
                }
                group.element(origin)
            }
        };
    }
    if diagnostic.unreached {
        group = group.element(Level::NOTE.with_name("unreached").message(UNREACHED_NOTE));
    }
    let hint = diagnostic.hint.as_deref().map(visible);
    if let Some(hint) = &hint {
        group = group.element(Level::HELP.message(hint.as_ref()));
    }
    let fix = diagnostic.fix.as_ref().map(|fix| visible(&fix_line(fix)).into_owned());
    if let Some(fix) = &fix {
        group = group.element(Level::HELP.with_name("fix").message(fix.as_str()));
    }
    group = group.element(Level::NOTE.with_name("spec").message(diagnostic.spec));
    match real_origin {
        Some(origin) => origin.render(renderer, color, group),
        None => renderer.render(&[group]),
    }
}

/// The `-->` line of a snippet that shows a window of a long line. The
/// renderer names the column inside the window it is given, and an
/// [`Origin`] element beside a snippet without a path draws an empty
/// secondary `:::` line, so the group is rendered without a location and the
/// real one goes in after its title line, as the renderer itself would draw it.
struct RealOrigin {
    path: String,
    line: usize,
    column: usize,
}

impl RealOrigin {
    fn render(&self, renderer: &Renderer, color: bool, group: Group<'_>) -> String {
        let rendered = renderer.render(&[group]);
        let Some((title, rest)) = rendered.split_once('\n') else {
            return rendered;
        };
        // The gutter is as wide as the line number, as in the renderer's own `-->` line.
        let gutter = " ".repeat(self.line.to_string().len());
        let arrow = if color {
            let style = Style::new()
                .fg_color(Some(AnsiColor::BrightBlue.into()))
                .effects(Effects::BOLD);
            format!("{style}-->{style:#}")
        } else {
            "-->".to_string()
        };
        format!(
            "{title}\n{gutter}{arrow} {}:{}:{}\n{rest}",
            self.path, self.line, self.column
        )
    }
}

/// The whole lines a span touches, made [`visible`] line by line, and the span
/// moved into them; a window of a line too long to show whole (a minified
/// document is one line).
struct Excerpt {
    lines: String,
    first_line: usize,
    span: std::ops::Range<usize>,
    windowed: bool,
    /// Escapes before the span (a tab is `\u{9}`) moved it along its line, so
    /// the renderer would count the column in the escaped text.
    column_moved: bool,
}

/// Only the lines around the span go to the snippet renderer, so a file with
/// hundreds of findings is not re-scanned whole for each, and a long line only
/// as a window: per finding, the cost is the excerpt's, never the file's.
/// `line` is the span's line when the diagnostic knows it. `None` when the span
/// does not fit the text (a rule measured another version of the file).
fn excerpt(text: &str, span: Span, line: Option<usize>) -> Option<Excerpt> {
    if span.start > span.end
        || span.end > text.len()
        || !text.is_char_boundary(span.start)
        || !text.is_char_boundary(span.end)
    {
        return None;
    }
    let floor = |mut offset: usize| {
        offset = offset.min(text.len());
        while !text.is_char_boundary(offset) {
            offset -= 1;
        }
        offset
    };
    // Line breaks are looked for only up to LONG_LINE bytes away, so a finding
    // in a 100 MB one-line document costs a window, not a scan of its line.
    let back = floor(span.start.saturating_sub(LONG_LINE + 1));
    let ahead = floor(span.end.saturating_add(LONG_LINE + 1));
    let near_begin = match text[back..span.start].rfind('\n') {
        Some(i) => Some(back + i + 1),
        None => (back == 0).then_some(0),
    };
    let near_end = match text[span.end..ahead].find('\n') {
        Some(i) => Some(span.end + i),
        None => (ahead == text.len()).then_some(text.len()),
    };
    let whole = near_begin
        .zip(near_end)
        .filter(|&(begin, end)| text[begin..end].split('\n').all(|line| line.len() <= LONG_LINE));
    let (begin, end, span, windowed) = match whole {
        Some((begin, end)) => (begin, end, span, false),
        None => {
            // Only the span's first line, cut to a window around the span's start.
            let from = floor(span.start.saturating_sub(WINDOW));
            let from = text[from..span.start].rfind('\n').map_or(from, |i| from + i + 1);
            let to = floor(span.start.saturating_add(WINDOW)).max(span.start);
            let to = text[span.start..to].find('\n').map_or(to, |i| span.start + i);
            (from, to, Span::new(span.start, span.end.clamp(span.start, to)), true)
        }
    };
    let first_line = line.unwrap_or_else(|| text[..begin].bytes().filter(|&b| b == b'\n').count() + 1);
    // Credentials are masked in what is quoted and a margin around it, so one
    // that straddles the window's edge is still found whole; masking the whole
    // file instead cost a scan of megabytes per minified snapshot. Masking is
    // byte for byte, so offsets into `text` hold in the masked window.
    let (margin_from, margin_to) = (
        floor(begin.saturating_sub(MASK_MARGIN)),
        floor(end.saturating_add(MASK_MARGIN)),
    );
    let masked = crate::redact::mask_credentials(&text[margin_from..margin_to]);
    let window = &masked[begin - margin_from..end - margin_from];
    // Each line is escaped on its own, so the line breaks between them stay.
    let mut lines = String::with_capacity(end - begin);
    let (mut start, mut stop) = (None, None);
    let mut column_moved = false;
    let mut line_start = begin;
    for (i, line) in window.split('\n').enumerate() {
        if i > 0 {
            lines.push('\n');
        }
        let line_end = line_start + line.len();
        let unescaped = [span.start, span.end].map(|at| at.clamp(line_start, line_end) - line_start);
        let mut offsets = unescaped;
        let shown = visible_line(line, &mut offsets);
        if start.is_none() && (line_start..=line_end).contains(&span.start) {
            start = Some(lines.len() + offsets[0]);
            column_moved = offsets[0] != unescaped[0];
        }
        if stop.is_none() && (line_start..=line_end).contains(&span.end) {
            stop = Some(lines.len() + offsets[1]);
        }
        lines.push_str(&shown);
        line_start = line_end + 1;
    }
    let start = start.unwrap_or(0);
    Some(Excerpt {
        lines,
        first_line,
        span: start..stop.unwrap_or(start).max(start),
        windowed,
        column_moved,
    })
}

/// Where a finding is: its 1-based line and column (named when a long line is
/// shortened), byte offset, and length in
/// bytes (0 for one character).
#[derive(Clone, Copy)]
pub struct Location {
    pub line: usize,
    pub column: usize,
    pub offset: usize,
    pub len: usize,
}

/// Bytes either side of a finding in which credentials are masked before
/// quoting; more than any quoted window.
const MASK_MARGIN: usize = 8192;

/// Lines longer than this (a minified document is one line) are shown as a
/// window around the finding.
const LONG_LINE: usize = 200;
/// Bytes of context either side of the finding in such a window.
const WINDOW: usize = 60;

/// One finding rendered with its source line. Only that line (or a window of
/// it) is handed to the renderer, so findings in a 100 MB file cost nothing extra.
pub fn snippet(
    severity: Severity,
    file: &str,
    text: &str,
    at: Location,
    title: &str,
    label: &str,
    options: TextOptions,
) -> String {
    let offset = floor_char_boundary(text, at.offset);
    let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[offset..].find('\n').map_or(text.len(), |i| offset + i);
    // Credentials are masked in what is quoted and a margin around it (a
    // minified document is one line; a key block is a few kilobytes).
    let masked_from = floor_char_boundary(text, offset.saturating_sub(MASK_MARGIN).max(line_start));
    let masked_to = floor_char_boundary(text, (offset + MASK_MARGIN).min(line_end));
    let masked = crate::redact::mask_credentials(&text[masked_from..masked_to]);
    let mut line_text = masked.as_ref().trim_end_matches('\r');
    let mut start = (offset - masked_from).min(line_text.len());
    let first_char = line_text[start..].chars().next().map_or(0, char::len_utf8);
    let mut end = floor_char_boundary(line_text, (start + at.len.max(first_char)).min(line_text.len()));
    let mut title = title.to_string();
    let shortened = line_text.len() > LONG_LINE;
    if shortened {
        // The renderer would count the column inside the window; name the real one.
        title.push_str(&format!(" (column {}; line shortened)", at.column));
        let from = floor_char_boundary(line_text, start.saturating_sub(WINDOW));
        let to = floor_char_boundary(line_text, (start + WINDOW).max(end.min(start + WINDOW)));
        line_text = &line_text[from..to.max(start)];
        start -= from;
        end = (end - from).min(line_text.len()).max(start);
    }
    let mut offsets = [start, end];
    let shown = visible_line(line_text, &mut offsets);
    let (title, label, path) = (visible(&title), visible(label), visible(file));
    let level = match severity {
        Severity::Error => Level::ERROR,
        Severity::Warning => Level::WARNING,
        Severity::Info => Level::INFO,
    };
    let snippet = Snippet::source(shown.as_str()).line_start(at.line).annotation(
        AnnotationKind::Primary
            .span(offsets[0]..offsets[1])
            .label(label.as_ref()),
    );
    let group = level.primary_title(title.as_ref());
    let renderer = if options.color {
        Renderer::styled()
    } else {
        Renderer::plain()
    };
    let rendered = if shortened || offsets[0] != start {
        // A window's or an escaped line's `-->` line would name its own column: name the real one.
        let origin = RealOrigin {
            path: path.into_owned(),
            line: at.line,
            column: at.column,
        };
        origin.render(&renderer, options.color, group.element(snippet))
    } else {
        renderer.render(&[group.element(snippet.path(path.as_ref()))])
    };
    format!("{rendered}\n")
}

fn floor_char_boundary(text: &str, offset: usize) -> usize {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

#[cfg(test)]
mod tests {
    use super::super::test_support::*;
    use super::super::{NoSources, OneFile};
    use super::*;

    fn plain(report: &PackageReport) -> String {
        render_report(report, &tree(), TextOptions::default())
    }

    /// A tree read from disk on demand: the renderer quotes each file with
    /// findings once per render and keeps none of them in the tree, so a
    /// package whose every skill body has a finding is never held whole.
    #[cfg(not(target_arch = "wasm32"))]
    #[test]
    fn quoting_a_file_read_on_demand_reads_it_once_and_keeps_nothing() {
        use std::sync::Arc;
        use std::sync::atomic::{AtomicUsize, Ordering};
        struct Counting(AtomicUsize);
        impl crate::tree::FileLoader for Counting {
            fn load(&self, _path: &str, _keep: usize) -> Result<Vec<u8>, String> {
                self.0.fetch_add(1, Ordering::SeqCst);
                Ok(MANIFEST.as_bytes().to_vec())
            }
        }
        let loader = Arc::new(Counting(AtomicUsize::new(0)));
        let mut tree = crate::tree::Tree::new();
        tree.insert_deferred("plugin.json", MANIFEST.len());
        tree.set_loader(loader.clone());
        let mut report = report_with_findings(".");
        // Two findings in the one file: it is read once for both.
        report.diagnostics.retain(|d| d.file.as_deref() == Some("plugin.json"));
        report.diagnostics.push(report.diagnostics[0].clone());
        let first = render_report(&report, &tree, TextOptions::default());
        assert_eq!(first, plain(&report), "the same snippets as from a tree in memory");
        assert_eq!(loader.0.load(Ordering::SeqCst), 1, "one read for both findings");
        render_report(&report, &tree, TextOptions::default());
        assert_eq!(loader.0.load(Ordering::SeqCst), 2, "the first render kept nothing");
    }

    #[test]
    fn diagnostic_shows_location_snippet_caret_help_and_spec() {
        let out = plain(&report_with_findings("plugins/demo"));
        assert!(out.contains("error[AP201]: `Bad Name` is not a valid name"), "{out}");
        assert!(out.contains("plugins/demo/plugin.json:2:11"), "{out}");
        assert!(out.contains("\"name\": \"Bad Name\","), "{out}");
        assert!(out.contains("^^^^^^^^^^"), "{out}");
        assert!(out.contains("help: use lowercase letters, digits and hyphens"), "{out}");
        assert!(out.contains("= spec: Agent Plugins §5.5"), "{out}");
        assert!(!out.contains("fix:"), "{out}");
    }

    #[test]
    fn a_fix_is_shown_with_how_to_apply_it() {
        let mut report = report_with_findings(".");
        report.diagnostics[0] = report.diagnostics[0].clone().with_fix(name_fix());
        let out = plain(&report);
        assert!(
            out.contains("fix: Rename the plugin to \"bad-name\" (safe: apcheck check --fix applies it)"),
            "{out}"
        );
    }

    #[test]
    fn secret_findings_show_their_location_but_never_the_line() {
        let out = plain(&report_with_findings("."));
        assert!(out.contains("warning[AP501]"), "{out}");
        assert!(out.contains("mcp.json:1:41"), "{out}");
        assert!(!out.contains("ghp_SECRETSECRET"), "{out}");
    }

    #[test]
    fn another_finding_on_a_secret_line_quotes_it_masked() {
        let mut report = report_with_findings(".");
        report.diagnostics.push(diagnostic_at(
            &NAME_RULE,
            "mcp.json",
            MCP,
            "\"TOKEN\"",
            "an unrelated finding on the same line",
        ));
        let out = plain(&report);
        assert!(out.contains("\"TOKEN\": \"****************\""), "{out}");
        assert!(!out.contains("ghp_SECRETSECRET"), "{out}");
    }

    #[test]
    fn without_sources_the_location_still_shows() {
        let out = render_report(&report_with_findings("."), &NoSources, TextOptions::default());
        assert!(out.contains("plugin.json:2:11"), "{out}");
        assert!(!out.contains("Bad Name\","), "{out}");
    }

    #[test]
    fn one_file_is_enough_for_a_snippet() {
        let report = report_with_findings(".");
        let sources = OneFile {
            path: "plugin.json",
            text: MANIFEST,
        };
        let out = render_diagnostics("", &report.diagnostics[..1], &sources, TextOptions::default());
        assert!(out.contains("\"name\": \"Bad Name\","), "{out}");
    }

    #[test]
    fn a_span_past_the_text_falls_back_to_the_location() {
        let mut report = report_with_findings(".");
        report.diagnostics[0].span = Some(Span::new(0, 10_000));
        let out = plain(&report);
        assert!(out.contains("plugin.json:2:11"), "{out}");
    }

    #[test]
    fn a_root_named_like_a_workflow_command_starts_no_line_with_it() {
        // A marketplace folder `M/::error file=a,line=1::forged/`, checked from `M`.
        let out = plain(&report_with_findings("::error file=a,line=1::forged"));
        assert!(out.lines().all(|line| !line.trim_start().starts_with("::")), "{out}");
        assert!(out.contains("\n./::error file=a,line=1::forged: loaded"), "{out}");
    }

    #[test]
    fn summary_line_names_every_verdict() {
        let out = plain(&report_with_findings("plugins/demo"));
        assert!(
            out.ends_with(
                "plugins/demo: loaded — skills 1 discovered, 0 skipped — servers 0 valid, 1 invalid — 1 error, 1 warning\n"
            ),
            "{out}"
        );
    }

    #[test]
    fn colour_only_when_asked() {
        let report = report_with_findings(".");
        assert!(!plain(&report).contains('\u{1b}'));
        let coloured = render_report(&report, &tree(), TextOptions { color: true });
        assert!(coloured.contains('\u{1b}'));
    }

    #[test]
    fn excerpt_keeps_whole_lines_and_moves_the_span() {
        let text = "a\nbcd\ne";
        let excerpt = excerpt(text, Span::new(3, 4), None).unwrap();
        assert_eq!(excerpt.lines, "bcd");
        assert_eq!(excerpt.first_line, 2);
        assert_eq!(excerpt.span, 1..2);
        assert!(super::excerpt("é", Span::new(1, 2), None).is_none());
    }

    /// The text rendering of one finding on line 1 of `file`, three bytes at `start`.
    fn rendered_at(file: &str, text: &str, start: usize) -> String {
        let mut diagnostic = report_with_findings(".").diagnostics.remove(0);
        diagnostic.file = Some(file.into());
        diagnostic.span = Some(Span::new(start, start + 3));
        diagnostic.line = Some(1);
        diagnostic.column = Some(start + 1);
        render_diagnostics(
            ".",
            &[diagnostic],
            &OneFile { path: file, text },
            TextOptions::default(),
        )
    }

    #[test]
    fn a_long_line_is_a_window_named_at_its_real_column() {
        let text = format!("{{\"a\": [{}\"x\"]}}", "1, ".repeat(10_000));
        let start = text.find("\"x\"").unwrap();
        let window = excerpt(&text, Span::new(start, start + 3), Some(1)).unwrap();
        assert!(window.windowed && window.lines.len() <= 2 * WINDOW, "{}", window.lines);
        assert_eq!(&window.lines[window.span.clone()], "\"x\"");
        let out = rendered_at("long.json", &text, start);
        // One `-->` line, right under the title, and no empty `:::` one.
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines[1], format!(" --> long.json:1:{}", start + 1), "{out}");
        assert!(!out.contains(":::"), "{out}");
        assert!(out.contains("1, \"x\"]}"), "{out}");
        let at = Location {
            line: 1,
            column: start + 1,
            offset: start,
            len: 3,
        };
        let out = snippet(
            Severity::Error,
            "long.json",
            &text,
            at,
            "boom",
            "",
            TextOptions::default(),
        );
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines[1], format!(" --> long.json:1:{}", start + 1), "{out}");
        assert!(!out.contains(":::"), "{out}");
    }

    #[test]
    fn a_long_line_window_masks_a_token_cut_by_its_edge() {
        // A minified line: a token ends 30 bytes before the finding, so the
        // window (WINDOW bytes either side) starts inside it and shows only its tail.
        let token = "ghp_0123456789abcdefghijklmnopqrstuvwxyzAB";
        let text = format!(
            "{{\"a\": [{}\"{token}\"{}\"x\"{}]}}",
            "1, ".repeat(10_000),
            ", 2".repeat(9),
            ", 3".repeat(10_000)
        );
        let start = text.find("\"x\"").unwrap();
        assert!(text.find(token).unwrap() < start - WINDOW && start - WINDOW < text.find(token).unwrap() + token.len());
        let window = excerpt(&text, Span::new(start, start + 3), Some(1)).unwrap();
        assert!(window.windowed && window.lines.len() <= 2 * WINDOW, "{}", window.lines);
        assert!(window.lines.starts_with("***"), "{}", window.lines);
        assert!(!window.lines.contains("yzAB"), "{}", window.lines);
        assert_eq!(&window.lines[window.span.clone()], "\"x\"");
        let out = rendered_at("min.json", &text, start);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines[1], format!(" --> min.json:1:{}", start + 1), "{out}");
        assert!(out.contains("***\", 2, 2"), "{out}");
        assert!(
            !out.contains("yzAB") && !out.contains("1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1"),
            "{out}"
        );
    }

    #[test]
    fn totals_count_plugins_and_findings() {
        let reports = [report_with_findings("a"), report(".", Vec::new())];
        assert_eq!(
            totals_line(&reports),
            "2 plugins: 2 loaded, 0 rejected — 1 error, 1 warning"
        );
    }

    #[test]
    fn totals_count_an_incomplete_check_apart_even_with_its_findings_hidden() {
        let mut incomplete = report("b", Vec::new());
        incomplete.unread = vec!["docs".into()];
        incomplete.summary.ignored = 1;
        let reports = [report_with_findings("a"), incomplete];
        assert_eq!(
            totals_line(&reports),
            "2 plugins: 1 loaded, 0 rejected, 1 incomplete — 1 error, 1 warning (1 hidden by the configuration)"
        );
        assert!(summary_line(&reports[1], TextOptions::default()).starts_with("b: incomplete — "));
    }

    #[test]
    fn escapes_before_a_span_do_not_move_its_named_column() {
        // A tab is shown as `\u{9}`; the `-->` line names the file's column.
        let text = "{\t\t\"name\": \"Bad Name\"}\n";
        let report = report(
            ".",
            vec![diagnostic_at(&NAME_RULE, "plugin.json", text, "\"Bad", "bad")],
        );
        let sources = OneFile {
            path: "plugin.json",
            text,
        };
        let out = render_report(&report, &sources, TextOptions::default());
        assert!(out.contains("--> plugin.json:1:12\n"), "{out}");
        assert!(out.contains("{\\u{9}\\u{9}\"name\""), "{out}");
    }

    #[test]
    fn control_characters_never_reach_the_terminal() {
        // ESC and bidi controls in names, messages, hints and quoted lines.
        let text = "{\"name\": \"a\u{1b}]0;pwned\u{7}\u{202e}b\"}\n";
        let mut report = report(
            "evil\u{1b}[2J",
            vec![diagnostic_at(
                &NAME_RULE,
                "plugin\u{202e}.json",
                text,
                "\"a\u{1b}",
                "`a\u{1b}[31m` bad",
            )],
        );
        report.diagnostics[0].hint = Some("help\u{9b}31m".into());
        let sources = OneFile {
            path: "plugin\u{202e}.json",
            text,
        };
        let out = render_report(&report, &sources, TextOptions::default());
        assert!(
            !out.chars().any(|c| c != '\n' && super::super::escape::is_unsafe(c)),
            "{out:?}"
        );
        assert!(out.contains("evil\\u{1b}[2J: loaded"), "{out}");
        assert!(out.contains("plugin\\u{202e}.json:1:10"), "{out}");
        assert!(out.contains("\"a\\u{1b}]0;pwned\\u{7}\\u{202e}b\""), "{out}");
        assert!(out.contains("^^^^^^^"), "{out}");
    }
}
