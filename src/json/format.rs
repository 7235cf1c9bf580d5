//! Pretty-printing and minifying JSON, keeping the text of every number and
//! string exactly as written.
//!
//! The scanner ([`crate::json::scan`]) validates and reports tokens as raw
//! text; the writer lays them out in the same pass (one pass over the input,
//! no check before), so a 100 MB document formats at memory speed and `1.0`,
//! `1e3` or a 20-digit integer come out unchanged: values never go through a
//! number type. `sort_keys` builds a flat tree of
//! borrowed tokens, sorts members by key (code points), and replays it.
//!
//! Strings are copied as written: a valid JSON string needs no re-escaping, and
//! keeping `\u00e9` as `\u00e9` keeps the diff against the original small.

use std::borrow::Cow;

use crate::json::parse::JsonParseError;
use crate::json::scan::{Sink, decode_key, scan};

/// How to lay the document out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// One member or element per line, indented by this unit per level.
    Pretty(Indent),
    /// No whitespace at all.
    Minify,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Indent {
    Spaces(u8),
    Tab,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FormatOptions {
    pub layout: Layout,
    /// Order object members by key (Unicode code points); stable for duplicate keys.
    pub sort_keys: bool,
    /// Accept `//` and `/* */` comments and trailing commas; the output is plain JSON without them.
    pub jsonc: bool,
}

impl Default for FormatOptions {
    fn default() -> Self {
        FormatOptions {
            layout: Layout::Pretty(Indent::Spaces(2)),
            sort_keys: false,
            jsonc: false,
        }
    }
}

/// Formats `text`; the result ends with a newline. Fails with the first syntax
/// error, naming what was expected and where, and then nothing was written:
/// the output is whole or absent, which is what lets `apcheck fmt` format in
/// one pass and still print nothing for a broken document.
pub fn format(text: &str, options: &FormatOptions) -> Result<String, JsonParseError> {
    // Pretty output of a minified document can triple; reserving that costs only
    // address space (untouched pages are never committed) and saves reallocations.
    let capacity = match options.layout {
        Layout::Pretty(_) => text.len() * 3 + 16,
        Layout::Minify => text.len() + 1,
    };
    let mut writer = Writer::new(options.layout, capacity);
    write_document(text, options, &mut writer)?;
    let mut out = writer.out;
    out.push('\n');
    Ok(out)
}

fn write_document(text: &str, options: &FormatOptions, writer: &mut Writer) -> Result<(), JsonParseError> {
    if options.sort_keys {
        let mut tree = TreeBuilder::default();
        scan(text, options.jsonc, &mut tree).map_err(|e| e.locate(text))?;
        tree.sort_and_replay(writer);
    } else {
        scan(text, options.jsonc, writer).map_err(|e| e.locate(text))?;
    }
    Ok(())
}

/// Writes the reported document in the chosen layout.
struct Writer {
    /// Whole `&str` slices of the input and ASCII punctuation: a `String` from
    /// the start, so the output is never checked for UTF-8 again.
    out: String,
    layout: Layout,
    /// `"\n"` followed by enough indentation for the deepest level seen so far.
    newline: String,
    unit: usize,
    depth: usize,
    /// Nothing written yet in the innermost open container.
    first: bool,
    /// The next value is a member's value, written right after its key.
    after_key: bool,
}

impl Writer {
    fn new(layout: Layout, capacity: usize) -> Self {
        let (unit_text, unit) = match layout {
            Layout::Pretty(Indent::Tab) => ("\t", 1),
            Layout::Pretty(Indent::Spaces(n)) => (" ", usize::from(n)),
            Layout::Minify => ("", 0),
        };
        Writer {
            out: String::with_capacity(capacity),
            layout,
            newline: format!("\n{}", unit_text.repeat(unit * 16)),
            unit,
            depth: 0,
            first: true,
            after_key: false,
        }
    }

    fn line_break(&mut self) {
        if self.layout == Layout::Minify {
            return;
        }
        let wanted = 1 + self.unit * self.depth;
        if self.newline.len() < wanted {
            let fill = if matches!(self.layout, Layout::Pretty(Indent::Tab)) {
                '\t'
            } else {
                ' '
            };
            self.newline
                .extend(std::iter::repeat_n(fill, wanted * 2 - self.newline.len()));
        }
        // The indentation is ASCII, so any length is a character boundary.
        self.out.push_str(&self.newline[..wanted]);
    }

    fn before_value(&mut self) {
        if self.after_key {
            self.after_key = false;
            return;
        }
        if self.depth > 0 {
            if !self.first {
                self.out.push(',');
            }
            self.line_break();
        }
        self.first = false;
    }
}

impl<'a> Sink<'a> for Writer {
    fn begin(&mut self, open: u8, _: usize) {
        self.before_value();
        self.out.push(char::from(open));
        self.depth += 1;
        self.first = true;
    }

    fn end(&mut self, close: u8, _: usize) {
        self.depth -= 1;
        if !self.first {
            self.line_break();
        }
        self.out.push(char::from(close));
        self.first = false;
    }

    fn key(&mut self, raw: &'a str) {
        if !self.first {
            self.out.push(',');
        }
        self.line_break();
        self.out.push_str(raw);
        self.out
            .push_str(if self.layout == Layout::Minify { ":" } else { ": " });
        self.first = false;
        self.after_key = true;
    }

    fn scalar(&mut self, raw: &'a str) {
        self.before_value();
        self.out.push_str(raw);
    }
}

/// A flat tree of the document's tokens, for reordering members before writing.
#[derive(Default)]
struct TreeBuilder<'a> {
    nodes: Vec<Node<'a>>,
    /// Open containers, by node index.
    open: Vec<usize>,
    pending_key: Option<&'a str>,
}

struct Node<'a> {
    key: Option<&'a str>,
    kind: NodeKind<'a>,
}

enum NodeKind<'a> {
    Scalar(&'a str),
    Container { open: u8, close: u8, children: Vec<usize> },
}

impl<'a> TreeBuilder<'a> {
    fn push(&mut self, kind: NodeKind<'a>) -> usize {
        let index = self.nodes.len();
        self.nodes.push(Node {
            key: self.pending_key.take(),
            kind,
        });
        if let Some(&parent) = self.open.last()
            && let NodeKind::Container { children, .. } = &mut self.nodes[parent].kind
        {
            children.push(index);
        }
        index
    }

    fn sort_and_replay(mut self, writer: &mut Writer) {
        let keys: Vec<Option<Cow<'a, str>>> = self.nodes.iter().map(|n| n.key.map(decode_key)).collect();
        for node in &mut self.nodes {
            if let NodeKind::Container {
                open: b'{', children, ..
            } = &mut node.kind
            {
                children.sort_by(|&a, &b| keys[a].cmp(&keys[b]));
            }
        }
        if self.nodes.is_empty() {
            return;
        }
        // (node, next child to write); an explicit stack, as documents may nest deeply.
        let mut stack: Vec<(usize, usize)> = Vec::new();
        let mut visit = Some(0);
        loop {
            if let Some(index) = visit.take() {
                let node = &self.nodes[index];
                if let Some(key) = node.key {
                    writer.key(key);
                }
                match &node.kind {
                    NodeKind::Scalar(raw) => writer.scalar(raw),
                    NodeKind::Container { open, .. } => {
                        writer.begin(*open, 0);
                        stack.push((index, 0));
                    }
                }
            }
            let Some((index, next)) = stack.last_mut() else { return };
            let NodeKind::Container { close, children, .. } = &self.nodes[*index].kind else {
                // Only containers are pushed; nothing to close otherwise.
                stack.pop();
                continue;
            };
            if let Some(&child) = children.get(*next) {
                *next += 1;
                visit = Some(child);
            } else {
                writer.end(*close, 0);
                stack.pop();
            }
        }
    }
}

impl<'a> Sink<'a> for TreeBuilder<'a> {
    fn begin(&mut self, open: u8, _: usize) {
        let close = if open == b'{' { b'}' } else { b']' };
        let index = self.push(NodeKind::Container {
            open,
            close,
            children: Vec::new(),
        });
        self.open.push(index);
    }

    fn end(&mut self, _: u8, _: usize) {
        self.open.pop();
    }

    fn key(&mut self, raw: &'a str) {
        self.pending_key = Some(raw);
    }

    fn scalar(&mut self, raw: &'a str) {
        self.push(NodeKind::Scalar(raw));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::scan::MAX_DEPTH;

    fn pretty(text: &str) -> String {
        format(text, &FormatOptions::default()).unwrap()
    }

    fn error(text: &str) -> JsonParseError {
        format(text, &FormatOptions::default()).unwrap_err()
    }

    #[test]
    fn pretty_prints_like_two_space_indent() {
        assert_eq!(
            pretty(r#"{"a":[1,{"b":null}],"c":{},"d":[]}"#),
            "{\n  \"a\": [\n    1,\n    {\n      \"b\": null\n    }\n  ],\n  \"c\": {},\n  \"d\": []\n}\n"
        );
        assert_eq!(pretty("  7 "), "7\n");
    }

    #[test]
    fn numbers_and_strings_keep_their_text() {
        let text = r#"[1.0, 1e3, -0.5E-7, 123456789012345678901234567890, "\u00e9\/", "é"]"#;
        let minified = format(
            text,
            &FormatOptions {
                layout: Layout::Minify,
                ..Default::default()
            },
        )
        .unwrap();
        assert_eq!(
            minified,
            "[1.0,1e3,-0.5E-7,123456789012345678901234567890,\"\\u00e9\\/\",\"é\"]\n"
        );
    }

    #[test]
    fn indent_can_be_four_spaces_or_tab() {
        let four = FormatOptions {
            layout: Layout::Pretty(Indent::Spaces(4)),
            ..Default::default()
        };
        assert_eq!(format("[1]", &four).unwrap(), "[\n    1\n]\n");
        let tab = FormatOptions {
            layout: Layout::Pretty(Indent::Tab),
            ..Default::default()
        };
        assert_eq!(format("{\"a\":[1]}", &tab).unwrap(), "{\n\t\"a\": [\n\t\t1\n\t]\n}\n");
    }

    #[test]
    fn sort_keys_orders_by_code_point_at_every_level() {
        let sorted = FormatOptions {
            layout: Layout::Minify,
            sort_keys: true,
            jsonc: false,
        };
        let text = r#"{"b":1,"a":{"z":[{"y":1,"x":2}],"\u0041":0},"é":2,"e":3}"#;
        assert_eq!(
            format(text, &sorted).unwrap(),
            "{\"a\":{\"\\u0041\":0,\"z\":[{\"x\":2,\"y\":1}]},\"b\":1,\"e\":3,\"é\":2}\n"
        );
    }

    #[test]
    fn errors_say_what_was_expected_and_where() {
        let missing_comma = error("{\n  \"a\": 1\n  \"b\": 2\n}");
        assert_eq!((missing_comma.line, missing_comma.column), (3, 3));
        assert_eq!(
            missing_comma.message,
            "expected ',' or '}' after object member, found '\"'"
        );
        let array = error("[1 2]");
        assert!(array.message.starts_with("expected ',' or ']' after array element"));
        assert!(error("{\"a\" 1}").message.starts_with("expected ':' after object key"));
        assert!(error("[01]").message.contains("leading zeros"));
        assert!(error("[1.]").message.contains("after the decimal point"));
        assert!(error("\"a\tb\"").message.contains("control character"));
        assert!(error("\"\\x\"").message.contains("invalid escape"));
        assert!(error("[tru]").message.contains("'true'"));
        assert!(error("[1] 2").message.contains("after the document"));
        assert!(error("").message.contains("end of the input"));
        assert!(error("{'a': 1}").message.contains("string key"));
    }

    #[test]
    fn comments_and_trailing_commas_need_jsonc() {
        let text = "{\n  // who\n  \"a\": [1, 2,], /* note */\n}";
        let strict = error(text);
        assert_eq!(strict.line, 2);
        // The message names no option: each face says how it accepts JSONC.
        assert!(strict.jsonc_accepts() && !strict.message.contains("--jsonc"));
        assert!(error("[1,]").message.contains("trailing comma") && error("[1,]").jsonc_accepts());
        let jsonc = FormatOptions {
            layout: Layout::Minify,
            jsonc: true,
            ..Default::default()
        };
        assert_eq!(format(text, &jsonc).unwrap(), "{\"a\":[1,2]}\n");
        assert!(
            format("[1, /* open", &jsonc)
                .unwrap_err()
                .message
                .contains("unterminated")
        );
    }

    #[test]
    fn nesting_is_capped_not_a_crash() {
        let sorted = FormatOptions {
            sort_keys: true,
            ..Default::default()
        };
        let deepest = "[".repeat(MAX_DEPTH) + &"]".repeat(MAX_DEPTH);
        assert!(format(&deepest, &FormatOptions::default()).is_ok());
        assert!(format(&deepest, &sorted).is_ok());
        let too_deep = "[".repeat(200_000) + &"]".repeat(200_000);
        let error = format(&too_deep, &sorted).unwrap_err();
        assert!(error.message.contains("nesting deeper than"), "{}", error.message);
    }

    #[test]
    fn unterminated_input_is_an_error() {
        for text in ["{", "[1,", "{\"a\":", "\"abc", "[\"\\u12\"]", "{\"a\":1,"] {
            assert!(format(text, &FormatOptions::default()).is_err(), "{text}");
        }
    }
}
