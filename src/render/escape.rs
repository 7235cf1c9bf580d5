//! Making untrusted text safe to print: the one place every human-readable
//! renderer (text, GitHub, Markdown, summaries) sends names, paths, messages,
//! hints and quoted lines through. JSON and SARIF escape by construction.
//!
//! - [`visible`]: every control character (C0, DEL, C1), line and paragraph
//!   separator, bidi control and invisible format character (a zero width
//!   space, a Unicode tag) becomes a visible `\u{…}` escape, so a file name
//!   cannot move the cursor, recolour the terminal, start a new log line,
//!   reorder what a reviewer reads (Trojan Source) or hide text from them.
//! - [`markdown_inline`] and [`markdown_code`]: text that stays text in a
//!   Markdown comment: no live link, image, autolink, emphasis or HTML.
//! - [`github_data`] and [`github_property`]: GitHub workflow command fields.
//! - [`mask_for_people`] and [`json_text`]: credentials masked in any text or report.

use std::borrow::Cow;

use crate::source::invisible;

/// Whether `c` must never reach an output raw.
pub fn is_unsafe(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_control();
    }
    c.is_control()
        || invisible::is_bidi_control(c)
        || invisible::is_invisible(c)
        || matches!(
            c,
            // Line and paragraph separators: some viewers break lines at them.
            '\u{2028}' | '\u{2029}'
            // Bidi marks (Unicode UAX #9): in a name or path they only mislead.
            | '\u{061C}' | '\u{200E}' | '\u{200F}'
        )
}

/// Whether `text` holds an [unsafe](is_unsafe) character (other than a line
/// feed, when `newlines_allowed`). Printable ASCII, nearly every byte of a
/// report, is passed over a byte at a time: decoding every character of a
/// large JSON report took a tenth of `npx apcheck check` in the wasm.
fn has_unsafe(text: &str, newlines_allowed: bool) -> bool {
    let plain = |byte: u8| (b' '..=b'~').contains(&byte) || (newlines_allowed && byte == b'\n');
    match text.bytes().position(|byte| !plain(byte)) {
        None => false,
        Some(first) => text[first..]
            .chars()
            .any(|c| !(newlines_allowed && c == '\n') && is_unsafe(c)),
    }
}

/// `text` with every credential shape masked ([`mask_for_people`]) and every
/// [unsafe](is_unsafe) character written as `\u{hex}`. Masking here, where
/// every human-readable renderer already sends every string, means no message
/// (a schema's `const` quoted by the validator, a tool or server id) reaches
/// text, GitHub or Markdown output with a secret that JSON and SARIF mask.
pub fn visible(text: &str) -> Cow<'_, str> {
    let text = mask_for_people(text);
    if !has_unsafe(&text, false) {
        return text;
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        push_visible(&mut out, c);
    }
    Cow::Owned(out)
}

fn push_visible(out: &mut String, c: char) {
    if is_unsafe(c) {
        out.push_str(&format!("\\u{{{:x}}}", u32::from(c)));
    } else {
        out.push(c);
    }
}

/// [`visible`] for one line of a quoted source, keeping byte offsets into it
/// valid: each of `offsets` (into `line`, on character boundaries) is moved to
/// where the same character is in the result. The line comes masked: each
/// path that quotes a source masks the window it shows, with a margin either
/// side (the snippets of [`super::text`]).
pub fn visible_line(line: &str, offsets: &mut [usize]) -> String {
    let mut out = String::with_capacity(line.len());
    let mut moved = vec![false; offsets.len()];
    for (at, c) in line.char_indices() {
        for (offset, moved) in offsets.iter_mut().zip(&mut moved) {
            if !*moved && *offset == at {
                *offset = out.len();
                *moved = true;
            }
        }
        push_visible(&mut out, c);
    }
    for (offset, moved) in offsets.iter_mut().zip(&moved) {
        if !moved {
            *offset = out.len();
        }
    }
    out
}

/// Running Markdown text that renders as exactly `text` (made [`visible`]
/// first): every ASCII punctuation character that can start or end a Markdown
/// construct is backslash-escaped, and so are `:` (GitHub turns `https://…`
/// and `www.…` into links even in plain text) and the dot of `www.`; an `@`
/// is a code span (`a@b.c` and `xmpp:a@b.c` are links otherwise). A backtick
/// run never opens a code span.
pub fn markdown_inline(text: &str) -> String {
    let text = visible(text);
    let mut out = String::with_capacity(text.len() + 8);
    let mut previous: Vec<char> = Vec::new();
    for c in text.chars() {
        let www = c == '.'
            && previous.len() >= 3
            && previous[previous.len() - 3..]
                .iter()
                .all(|p| p.eq_ignore_ascii_case(&'w'));
        if www
            || matches!(
                c,
                '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '(' | ')' | '|' | '#' | '!' | '~' | ':' | '&' | '$'
            )
        {
            out.push('\\');
        }
        if c == '@' {
            // GitHub's cmark-gfm makes a `mailto:` (or `xmpp:`) link of
            // `a@b.co` even with the `@` escaped: only an `@` outside the text
            // node, in a code span of its own, breaks the autolink.
            out.push_str("`@`");
        } else {
            out.push(c);
        }
        previous.push(c);
    }
    out
}

/// A code span holding exactly `text` (made [`visible`]): the fence is one
/// backtick longer than the longest run inside, and padded with a space when
/// the text starts or ends with a backtick or a space. Inside a code span
/// nothing is live, and a span that starts first wins over any autolink or
/// HTML tag overlapping it (CommonMark §6.1).
pub fn markdown_code(text: &str) -> String {
    let text = visible(text);
    let longest_run = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest_run + 1);
    if text.is_empty() {
        return "` `".to_string();
    }
    if text.starts_with(['`', ' ']) || text.ends_with(['`', ' ']) {
        format!("{fence} {text} {fence}")
    } else {
        format!("{fence}{text}{fence}")
    }
}

/// A message written by a rule, for Markdown: the rule's own code spans
/// (CommonMark's: a backtick run closed by the next run of the same length)
/// become [`markdown_code`] spans, everything else [`markdown_inline`] text.
/// Values a rule quotes stay code even when they hold backticks themselves,
/// and a run that closes nothing is text, never an open span.
pub fn markdown_message(text: &str) -> String {
    message_with(text, markdown_code)
}

/// [`markdown_message`] for a cell of a GFM table: a pipe ends the cell even
/// inside a code span, so the spans' pipes are escaped too (the table reads
/// `\|` back as `|`, in a span or not; the text's are escaped already).
pub fn markdown_cell(text: &str) -> String {
    message_with(text, |code| markdown_code(code).replace('|', "\\|"))
}

/// A rule's message with its code spans made by `code`, the rest [`markdown_inline`].
/// Spans that touch are written as one: two fences side by side would read as
/// one longer run, which closes neither span and leaves their text live.
fn message_with(text: &str, code: impl Fn(&str) -> String) -> String {
    let text = visible(text);
    let mut out = String::with_capacity(text.len() + 8);
    // The code of spans not written yet: a span's text is never empty, so
    // this is empty exactly when the last thing read was not a span.
    let mut pending_code = String::new();
    let mut rest: &str = &text;
    let flush = |out: &mut String, pending: &mut String| {
        if !pending.is_empty() {
            out.push_str(&code(pending));
            pending.clear();
        }
    };
    while let Some(open) = rest.find('`') {
        let run = rest[open..].len() - rest[open..].trim_start_matches('`').len();
        let after = &rest[open + run..];
        match closing_run(after, run) {
            Some(close) => {
                if open > 0 {
                    let after_code = !pending_code.is_empty();
                    flush(&mut out, &mut pending_code);
                    push_text_between_spans(&mut out, &rest[..open], after_code, true);
                }
                // CommonMark strips one space from each side when both are there.
                let inner = &after[..close];
                let inner = match inner.strip_prefix(' ').and_then(|i| i.strip_suffix(' ')) {
                    Some(stripped) if !inner.trim().is_empty() => stripped,
                    _ => inner,
                };
                pending_code.push_str(inner);
                rest = &after[close + run..];
            }
            None => {
                let after_code = !pending_code.is_empty();
                flush(&mut out, &mut pending_code);
                push_text_between_spans(&mut out, &rest[..open + run], after_code, false);
                rest = after;
            }
        }
    }
    let after_code = !pending_code.is_empty();
    flush(&mut out, &mut pending_code);
    push_text_between_spans(&mut out, rest, after_code, false);
    out
}

/// `text` as [`markdown_inline`] writes it, but for an `@` that touches a code
/// span: there [`markdown_inline`]'s own one-character span would touch the
/// other's fence and make one longer run. An `@` at the edge of its text node
/// has no local part or no domain beside it, so a plain escape is enough.
fn push_text_between_spans(out: &mut String, text: &str, after_code: bool, before_code: bool) {
    let (lead, text) = match text.strip_prefix('@') {
        Some(rest) if after_code => ("\\@", rest),
        _ => ("", text),
    };
    let (text, trail) = match text.strip_suffix('@') {
        Some(rest) if before_code => (rest, "\\@"),
        _ => (text, ""),
    };
    out.push_str(lead);
    out.push_str(&markdown_inline(text));
    out.push_str(trail);
}

/// Where in `text` a backtick run of exactly `len` starts.
fn closing_run(text: &str, len: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'`' {
            let start = i;
            while i < bytes.len() && bytes[i] == b'`' {
                i += 1;
            }
            if i - start == len {
                return Some(start);
            }
        } else {
            i += 1;
        }
    }
    None
}

/// A workflow command's message (GitHub's `escapeData`: `%`, CR, LF), after
/// [`visible`] has made every other control character harmless. Line breaks
/// the caller put between parts stay line breaks inside the annotation.
pub fn github_data(text: &str) -> String {
    text.replace('%', "%25").replace('\r', "%0D").replace('\n', "%0A")
}

/// A workflow command property (`file=`, `title=`): also `:` and `,`, which
/// end properties (GitHub's `escapeProperty`), after [`visible`].
pub fn github_property(text: &str) -> String {
    github_data(&visible(text)).replace(':', "%3A").replace(',', "%2C")
}

/// A line of plain log text in `--format github` or text output (CI logs
/// show either): [`visible`], and never starting with `::` (after blanks),
/// which GitHub would run as a command. A single leading `:` counts too: the line goes on after the text
/// (`ROOT: rejected`), and `:` then `: ` would start one. A leading `./`
/// keeps a relative path the same path.
pub fn github_log_text(text: &str) -> String {
    let text = visible(text);
    if text.trim_start().starts_with(':') || text.starts_with(char::is_whitespace) {
        format!("./{text}")
    } else {
        text.into_owned()
    }
}

/// `value` as pretty JSON with a final newline, every string in it masked
/// ([`mask_for_people`]): a report quotes package data (server URLs,
/// commands, schema errors quoting values), and no output shows a credential.
/// Every [unsafe](is_unsafe) character is written as a `\u` escape (JSON's
/// own, so the data stays the same): a bidi control, a line separator or a
/// zero width space raw in a JSON file reorders or hides what a reviewer
/// reads in it, as in any other output.
pub fn json_text(value: &impl serde::Serialize) -> String {
    let mut value = serde_json::to_value(value).expect("reports serialize to JSON");
    mask_strings(&mut value);
    json_escaped(&serde_json::to_string_pretty(&value).expect("a JSON value serializes")) + "\n"
}

/// `json` (serde_json's output) with every unsafe character but the line
/// breaks between its tokens `\u`-escaped. serde_json escapes C0 controls in
/// strings itself, so a raw unsafe character can only be inside a string,
/// where an escape means the same character.
fn json_escaped(json: &str) -> String {
    if !has_unsafe(json, true) {
        return json.to_string();
    }
    let mut out = String::with_capacity(json.len() + 16);
    for c in json.chars() {
        if c != '\n' && is_unsafe(c) {
            let mut units = [0; 2];
            for unit in c.encode_utf16(&mut units) {
                out.push_str(&format!("\\u{unit:04x}"));
            }
        } else {
            out.push(c);
        }
    }
    out
}

fn mask_strings(value: &mut serde_json::Value) {
    match value {
        serde_json::Value::String(text) => {
            if let Cow::Owned(masked) = mask_for_people(text) {
                *text = masked;
            }
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(mask_strings),
        serde_json::Value::Object(members) => members.values_mut().for_each(mask_strings),
        _ => {}
    }
}

/// `text` (a message, a value a report shows) with every credential shape masked.
pub fn mask_for_people(text: &str) -> Cow<'_, str> {
    crate::redact::mask_credentials(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two code spans side by side, or an `@` between them, would make fences
    /// that touch: one longer run that closes nothing, leaving `a@b.co` live
    /// for GitHub's autolinker (found by `tests/output_escaping_props.rs`).
    #[test]
    fn code_spans_never_touch_another_backtick() {
        let message = "name \"s@e.co`s@e.co\n```\" breaks: set: `@`@\n: =R` not allowed";
        assert_eq!(
            markdown_message(message),
            "name \"s`@`e.co```` s@e.co\\u{a}```\" breaks: set:  ````\\@`@\\u{a}: =R` not allowed"
        );
        assert_eq!(
            markdown_message("x `a``b` y@`c` @`d`@ e"),
            "x ```a``b``` y\\@`c` \\@`d`\\@ e"
        );
    }

    #[test]
    fn a_table_cell_escapes_the_pipes_inside_its_code_spans() {
        // GFM ends a cell at any unescaped pipe, in a code span or not.
        assert_eq!(markdown_cell("tool `a|b` added | gone"), "tool `a\\|b` added \\| gone");
        assert_eq!(markdown_message("tool `a|b` added"), "tool `a|b` added");
    }

    #[test]
    fn control_characters_and_bidi_become_visible() {
        assert_eq!(visible("a\u{1b}[31mb"), "a\\u{1b}[31mb");
        assert_eq!(visible("x\ny\r\tz"), "x\\u{a}y\\u{d}\\u{9}z");
        assert_eq!(visible("ab\u{202e}cd\u{2066}"), "ab\\u{202e}cd\\u{2066}");
        assert_eq!(visible("\u{85}\u{7f}\u{2028}"), "\\u{85}\\u{7f}\\u{2028}");
        assert!(matches!(visible("plain é ✓"), Cow::Borrowed(_)));
    }

    #[test]
    fn text_that_renders_as_nothing_becomes_visible() {
        // "hi" in Unicode tags after a zero width space: invisible in any viewer.
        assert_eq!(
            visible("ok\u{200b}\u{e0068}\u{e0069}"),
            "ok\\u{200b}\\u{e0068}\\u{e0069}"
        );
        // A family emoji is held together by zero width joiners, which stay.
        assert!(matches!(visible("\u{1f468}\u{200d}\u{1f469}"), Cow::Borrowed(_)));
    }

    #[test]
    fn offsets_follow_their_characters() {
        let mut offsets = [1, 2, 3];
        let line = visible_line("a\u{1b}bc", &mut offsets);
        assert_eq!(line, "a\\u{1b}bc");
        assert_eq!(offsets, [1, 7, 8]);
    }

    #[test]
    fn markdown_text_is_inert() {
        let attack = "```[Approved by security](https://evil.example/) ![](https://evil.example/px.png)";
        let out = markdown_inline(attack);
        assert!(!out.contains("](") && !out.contains("https:"), "{out}");
        assert_eq!(markdown_inline("www.evil.example"), "www\\.evil.example");
        assert_eq!(markdown_inline("a@b.c"), "a`@`b.c");
    }

    #[test]
    fn a_rule_quoting_backticks_cannot_open_a_link() {
        let message =
            "`````[Approved by security](https://evil.example/) ![](https://evil.example/px.png)` is not SemVer";
        let out = markdown_message(message);
        // The run closes nothing, so it is text, and so is the rest of the line.
        assert!(out.starts_with("\\`\\`\\`\\`\\`\\["), "{out}");
        assert!(!out.contains("](") && !out.contains("https:"), "{out}");
        assert_eq!(markdown_message("`x*y` is *bad*"), "`x*y` is \\*bad\\*");
        assert_eq!(markdown_message("`a``b` and `` c ``"), "```a``b``` and `c`");
        assert_eq!(markdown_message("open `tick"), "open \\`tick");
    }

    #[test]
    fn json_writes_invisible_and_reordering_characters_as_escapes() {
        let value = serde_json::json!({"a\u{202e}": ["x\u{2028}y\u{200b}\u{7f}\u{85}\u{e0068}", "é ✓\n"]});
        let text = json_text(&value);
        assert!(!text.chars().any(|c| c != '\n' && is_unsafe(c)), "{text}");
        assert!(text.contains(r#""a\u202e""#), "{text}");
        assert!(text.contains(r#""x\u2028y\u200b\u007f\u0085\udb40\udc68""#), "{text}");
        assert_eq!(serde_json::from_str::<serde_json::Value>(&text).unwrap(), value);
    }

    #[test]
    fn code_spans_hold_any_text() {
        assert_eq!(markdown_code("a`b"), "``a`b``");
        assert_eq!(markdown_code("`x"), "`` `x ``");
        assert_eq!(markdown_code("a\nb"), "`a\\u{a}b`");
    }

    #[test]
    fn github_fields_and_log_lines_cannot_forge_commands() {
        assert_eq!(github_property("a,b:c%\n"), "a%2Cb%3Ac%25\\u{a}");
        assert_eq!(github_data("50%: a,b\r\n"), "50%25: a,b%0D%0A");
        assert_eq!(
            github_log_text("x\n::warning file=README.md,line=1::all good"),
            "x\\u{a}::warning file=README.md,line=1::all good"
        );
        assert_eq!(github_log_text("::error::x"), "./::error::x");
        // A root named `:` followed by `: rejected` would be `::`.
        assert_eq!(github_log_text(":"), "./:");
        assert_eq!(github_log_text(" ::error::x"), "./ ::error::x");
    }
}
