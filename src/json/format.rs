//! Pretty-printing and minifying JSON, keeping the text of every number and
//! string exactly as written.
//!
//! One pass over the bytes both validates (strict RFC 8259 grammar, or JSONC
//! with `jsonc`) and writes, so a 100 MB document formats at memory speed and
//! `1.0`, `1e3` or a 20-digit integer come out unchanged: values never go
//! through a number type. The scanner keeps an explicit stack, no recursion;
//! nesting is capped at [`MAX_DEPTH`] because pretty output grows with the square
//! of the depth (a 1 MB line of `[` would otherwise print terabytes of indentation).
//! `sort_keys` builds a flat tree of
//! borrowed tokens, sorts members by key (code points), and replays it.
//!
//! Strings are copied as written: a valid JSON string needs no re-escaping, and
//! keeping `\u00e9` as `\u00e9` keeps the diff against the original small.
//! Lone surrogate escapes (`"\ud800"`) are grammatical JSON and pass through.

use std::borrow::Cow;

use crate::json::parse::{JsonParseError, pointer_tokens};
use crate::source::{LineIndex, Span};

/// The deepest nesting accepted. Real documents stay far below it; serde_json stops at 128.
pub const MAX_DEPTH: usize = 1000;

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
/// error, naming what was expected and where.
pub fn format(text: &str, options: &FormatOptions) -> Result<String, JsonParseError> {
    // Pretty output of a minified document can triple; reserving that costs only
    // address space (untouched pages are never committed) and saves reallocations.
    let capacity = match options.layout {
        Layout::Pretty(_) => text.len() * 3 + 16,
        Layout::Minify => text.len() + 1,
    };
    let mut writer = Writer::new(options.layout, capacity);
    if options.sort_keys {
        let mut tree = TreeBuilder::default();
        scan(text, options.jsonc, &mut tree).map_err(|e| e.locate(text))?;
        tree.sort_and_replay(&mut writer);
    } else {
        scan(text, options.jsonc, &mut writer).map_err(|e| e.locate(text))?;
    }
    let mut out = writer.out;
    out.push(b'\n');
    // Cannot fail: the writer copies whole `&str` slices and ASCII only.
    Ok(String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()))
}

/// Checks that `text` is strict JSON (or JSONC) without building anything.
pub fn check_syntax(text: &str, jsonc: bool) -> Result<(), JsonParseError> {
    scan(text, jsonc, &mut Discard).map_err(|e| e.locate(text))
}

/// The byte span of the value at `pointer` in the strict JSON `text`, found by
/// one scan that builds nothing; `None` if the text is not JSON or nothing is there.
/// Cheaper than a span tree when only a few places of a document are wanted.
pub fn find_value_span(text: &str, pointer: &str) -> Option<Span> {
    let mut finder = SpanFinder {
        text,
        target: pointer_tokens(pointer)?,
        frames: Vec::new(),
        matched: 0,
        pending_key: None,
        open_match: None,
        found: None,
    };
    scan(text, false, &mut finder).ok()?;
    finder.found
}

/// Follows the scan's path and records where the target pointer's value is.
struct SpanFinder<'a> {
    text: &'a str,
    target: Vec<String>,
    /// Open containers: whether each is an array, and its next element index.
    frames: Vec<(bool, usize)>,
    /// How many leading open containers lie on the target's path.
    matched: usize,
    pending_key: Option<&'a str>,
    /// The depth and start of the target container once it opened.
    open_match: Option<(usize, usize)>,
    found: Option<Span>,
}

impl SpanFinder<'_> {
    /// Whether the value starting now extends the target path: `Some(true)` when
    /// it is the target itself, `Some(false)` when it is on the way there.
    fn step(&mut self) -> Option<bool> {
        let depth = self.frames.len();
        let token: Cow<'_, str> = match self.frames.last_mut() {
            None => Cow::Borrowed(""),
            Some((true, next)) => {
                *next += 1;
                Cow::Owned((*next - 1).to_string())
            }
            Some((false, _)) => self.pending_key.take().map_or(Cow::Borrowed(""), decode_key),
        };
        // A later duplicate key overwrites an earlier find: serde_json keeps the last value too.
        if self.matched != depth {
            return None;
        }
        if depth == 0 {
            return Some(self.target.is_empty());
        }
        (self.target.get(depth - 1).map(String::as_str) == Some(token.as_ref())).then_some(self.target.len() == depth)
    }
}

impl<'a> Sink<'a> for SpanFinder<'a> {
    fn begin(&mut self, open: u8, at: usize) {
        match self.step() {
            Some(true) => self.open_match = Some((self.frames.len(), at)),
            Some(false) => self.matched += 1,
            None => {}
        }
        self.frames.push((open == b'[', 0));
    }

    fn end(&mut self, _: u8, at: usize) {
        self.frames.pop();
        self.matched = self.matched.min(self.frames.len());
        if let Some((depth, start)) = self.open_match
            && depth == self.frames.len()
        {
            self.found = Some(Span::new(start, at + 1));
            self.open_match = None;
        }
    }

    fn key(&mut self, raw: &'a str) {
        self.pending_key = Some(raw);
    }

    fn scalar(&mut self, raw: &'a str) {
        if self.step() == Some(true) {
            let start = raw.as_ptr() as usize - self.text.as_ptr() as usize;
            self.found = Some(Span::new(start, start + raw.len()));
        }
    }
}

/// What the scanner reports, in document order; keys and scalars are raw text
/// (slices of the input), brackets come with their byte offset.
trait Sink<'a> {
    fn begin(&mut self, open: u8, at: usize);
    fn end(&mut self, close: u8, at: usize);
    fn key(&mut self, raw: &'a str);
    fn scalar(&mut self, raw: &'a str);
}

struct Discard;

impl<'a> Sink<'a> for Discard {
    fn begin(&mut self, _: u8, _: usize) {}
    fn end(&mut self, _: u8, _: usize) {}
    fn key(&mut self, _: &'a str) {}
    fn scalar(&mut self, _: &'a str) {}
}

/// A syntax error before its line and column are known (they are computed only on failure).
struct ScanError {
    offset: usize,
    message: Cow<'static, str>,
}

impl ScanError {
    fn locate(self, text: &str) -> JsonParseError {
        let at = LineIndex::new(text).line_col(text, self.offset);
        JsonParseError {
            message: self.message.into_owned(),
            line: at.line,
            column: at.column,
            offset: self.offset,
        }
    }
}

fn fail<T>(offset: usize, message: impl Into<Cow<'static, str>>) -> Result<T, ScanError> {
    Err(ScanError {
        offset,
        message: message.into(),
    })
}

/// Bytes that end the fast run inside a string: the quote, the backslash, control characters.
static STRING_STOP: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 0x20 {
        table[b] = true;
        b += 1;
    }
    table[b'"' as usize] = true;
    table[b'\\' as usize] = true;
    table
};

struct Scanner<'a> {
    text: &'a str,
    bytes: &'a [u8],
    pos: usize,
    jsonc: bool,
}

impl<'a> Scanner<'a> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    /// Skips whitespace (and, in JSONC, comments); returns the next byte.
    #[inline(always)]
    fn skip_space(&mut self) -> Result<Option<u8>, ScanError> {
        // Most calls find a token right away (always, in minified input).
        match self.peek() {
            Some(b) if b > b' ' && b != b'/' => Ok(Some(b)),
            _ => self.skip_space_run(),
        }
    }

    fn skip_space_run(&mut self) -> Result<Option<u8>, ScanError> {
        loop {
            match self.peek() {
                Some(b' ' | b'\n' | b'\r' | b'\t') => self.pos += 1,
                Some(b'/') if self.jsonc => self.skip_comment()?,
                Some(b'/') => return fail(self.pos, "comments are not JSON (use --jsonc to accept them)"),
                other => return Ok(other),
            }
        }
    }

    fn skip_comment(&mut self) -> Result<(), ScanError> {
        let start = self.pos;
        match self.bytes.get(self.pos + 1) {
            Some(b'/') => {
                self.pos = memchr_newline(self.bytes, self.pos).unwrap_or(self.bytes.len());
                Ok(())
            }
            Some(b'*') => match self.text[self.pos + 2..].find("*/") {
                Some(end) => {
                    self.pos += 2 + end + 2;
                    Ok(())
                }
                None => fail(start, "unterminated block comment"),
            },
            _ => fail(start, "expected '//' or '/*' to start a comment"),
        }
    }

    /// Scans a string starting at its opening quote; returns its raw text, quotes included.
    #[inline]
    fn string(&mut self) -> Result<&'a str, ScanError> {
        let start = self.pos;
        let mut i = self.pos + 1;
        loop {
            i = skip_plain_string_bytes(self.bytes, i);
            match self.bytes.get(i) {
                Some(b'"') => {
                    self.pos = i + 1;
                    return Ok(&self.text[start..self.pos]);
                }
                Some(b'\\') => i = self.escape(i)?,
                Some(_) => {
                    return fail(
                        i,
                        "control character in string (it must be escaped, e.g. \\n or \\u0000)",
                    );
                }
                None => return fail(start, "unterminated string"),
            }
        }
    }

    /// Checks the escape at `i` (a backslash); returns the offset after it.
    fn escape(&self, i: usize) -> Result<usize, ScanError> {
        match self.bytes.get(i + 1) {
            Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => Ok(i + 2),
            Some(b'u') => {
                let digits = self.bytes.get(i + 2..i + 6).unwrap_or(&[]);
                if digits.len() == 4 && digits.iter().all(u8::is_ascii_hexdigit) {
                    Ok(i + 6)
                } else {
                    fail(i, "expected four hex digits after \\u")
                }
            }
            _ => fail(
                i,
                "invalid escape (JSON allows \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)",
            ),
        }
    }

    /// Scans a number per RFC 8259 §6; returns its raw text.
    #[inline]
    fn number(&mut self) -> Result<&'a str, ScanError> {
        let start = self.pos;
        let mut i = start;
        if self.bytes.get(i) == Some(&b'-') {
            i += 1;
        }
        match self.bytes.get(i) {
            Some(b'0') => {
                i += 1;
                if self.bytes.get(i).is_some_and(u8::is_ascii_digit) {
                    return fail(i - 1, "numbers must not have leading zeros");
                }
            }
            Some(b'1'..=b'9') => i = self.digits(i),
            _ => return fail(start, "expected a digit"),
        }
        if self.bytes.get(i) == Some(&b'.') {
            if !self.bytes.get(i + 1).is_some_and(u8::is_ascii_digit) {
                return fail(i + 1, "expected a digit after the decimal point");
            }
            i = self.digits(i + 1);
        }
        if let Some(b'e' | b'E') = self.bytes.get(i) {
            i += 1;
            if let Some(b'+' | b'-') = self.bytes.get(i) {
                i += 1;
            }
            if !self.bytes.get(i).is_some_and(u8::is_ascii_digit) {
                return fail(i, "expected a digit in the exponent");
            }
            i = self.digits(i);
        }
        self.pos = i;
        Ok(&self.text[start..i])
    }

    fn digits(&self, mut i: usize) -> usize {
        while self.bytes.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        i
    }

    fn literal(&mut self, word: &'static str) -> Result<&'a str, ScanError> {
        let start = self.pos;
        if self.bytes[start..].starts_with(word.as_bytes()) {
            self.pos += word.len();
            Ok(&self.text[start..self.pos])
        } else {
            fail(start, format!("expected a value (did you mean '{word}'?)"))
        }
    }
}

/// The offset of the first byte at or after `i` that ends a plain run inside a
/// string (quote, backslash, control character). Eight bytes at a time: this is
/// where a formatter of real documents spends most of its time.
fn skip_plain_string_bytes(bytes: &[u8], mut i: usize) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let has_zero = |x: u64| x.wrapping_sub(ONES) & !x & HIGHS;
    while let Some(chunk) = bytes.get(i..i + 8) {
        let word = u64::from_le_bytes(chunk.try_into().expect("eight bytes"));
        let quote = has_zero(word ^ (ONES * u64::from(b'"')));
        let backslash = has_zero(word ^ (ONES * u64::from(b'\\')));
        // Bytes below 0x20: subtracting 0x20 borrows into the high bit (non-ASCII bytes are excluded).
        let control = word.wrapping_sub(ONES * 0x20) & !word & HIGHS;
        if quote | backslash | control != 0 {
            break;
        }
        i += 8;
    }
    while i < bytes.len() && !STRING_STOP[bytes[i] as usize] {
        i += 1;
    }
    i
}

fn memchr_newline(bytes: &[u8], from: usize) -> Option<usize> {
    bytes[from..].iter().position(|&b| b == b'\n').map(|i| from + i)
}

fn describe(byte: Option<u8>) -> String {
    match byte {
        None => "the end of the input".to_string(),
        Some(b) if b.is_ascii_graphic() => format!("'{}'", b as char),
        Some(b) if b.is_ascii() => format!("byte 0x{b:02x}"),
        Some(_) => "a non-ASCII character".to_string(),
    }
}

/// Validates `text` and reports it to `sink`, iteratively (depth costs heap, never stack).
fn scan<'a>(text: &'a str, jsonc: bool, sink: &mut impl Sink<'a>) -> Result<(), ScanError> {
    let mut s = Scanner {
        text,
        bytes: text.as_bytes(),
        pos: 0,
        jsonc,
    };
    if text.starts_with('\u{feff}') {
        if !jsonc {
            return fail(
                0,
                "byte order mark at the start (RFC 8259 §8.1: JSON text must not begin with one)",
            );
        }
        s.pos = 3;
    }
    // true for an object, false for an array
    let mut open: Vec<bool> = Vec::new();
    'value: loop {
        let next = s.skip_space()?;
        match next {
            Some(b'{') => {
                s.pos += 1;
                sink.begin(b'{', s.pos - 1);
                if s.skip_space()? == Some(b'}') {
                    s.pos += 1;
                    sink.end(b'}', s.pos - 1);
                } else {
                    open.push(true);
                    if open.len() > MAX_DEPTH {
                        return fail(s.pos, format!("nesting deeper than {MAX_DEPTH} levels"));
                    }
                    member_key(&mut s, sink)?;
                    continue 'value;
                }
            }
            Some(b'[') => {
                s.pos += 1;
                sink.begin(b'[', s.pos - 1);
                if s.skip_space()? == Some(b']') {
                    s.pos += 1;
                    sink.end(b']', s.pos - 1);
                } else {
                    open.push(false);
                    if open.len() > MAX_DEPTH {
                        return fail(s.pos, format!("nesting deeper than {MAX_DEPTH} levels"));
                    }
                    continue 'value;
                }
            }
            Some(b'"') => sink.scalar(s.string()?),
            Some(b'-' | b'0'..=b'9') => sink.scalar(s.number()?),
            Some(b't') => sink.scalar(s.literal("true")?),
            Some(b'f') => sink.scalar(s.literal("false")?),
            Some(b'n') => sink.scalar(s.literal("null")?),
            other => return fail(s.pos, format!("expected a value, found {}", describe(other))),
        }
        // After a complete value: close containers or move to the next member.
        loop {
            let Some(&is_object) = open.last() else {
                let after = s.skip_space()?;
                if after.is_some() {
                    return fail(s.pos, format!("unexpected {} after the document", describe(after)));
                }
                return Ok(());
            };
            let (close, what) = if is_object {
                (b'}', "expected ',' or '}' after object member")
            } else {
                (b']', "expected ',' or ']' after array element")
            };
            match s.skip_space()? {
                Some(b',') => {
                    let comma = s.pos;
                    s.pos += 1;
                    if s.skip_space()? == Some(close) {
                        if !s.jsonc {
                            return fail(comma, "trailing comma (not JSON; use --jsonc to accept it)");
                        }
                        s.pos += 1;
                        open.pop();
                        sink.end(close, s.pos - 1);
                        continue;
                    }
                    if is_object {
                        member_key(&mut s, sink)?;
                    }
                    continue 'value;
                }
                Some(b) if b == close => {
                    s.pos += 1;
                    open.pop();
                    sink.end(close, s.pos - 1);
                }
                other => return fail(s.pos, format!("{what}, found {}", describe(other))),
            }
        }
    }
}

/// Scans `"key" :` and reports the key.
fn member_key<'a>(s: &mut Scanner<'a>, sink: &mut impl Sink<'a>) -> Result<(), ScanError> {
    match s.skip_space()? {
        Some(b'"') => sink.key(s.string()?),
        other => {
            return fail(
                s.pos,
                format!("expected a string key in double quotes, found {}", describe(other)),
            );
        }
    }
    match s.skip_space()? {
        Some(b':') => {
            s.pos += 1;
            Ok(())
        }
        other => fail(
            s.pos,
            format!("expected ':' after object key, found {}", describe(other)),
        ),
    }
}

/// Writes the reported document in the chosen layout.
struct Writer {
    /// Only whole `&str` slices and ASCII go in, so it is always UTF-8.
    out: Vec<u8>,
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
            out: Vec::with_capacity(capacity),
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
        self.out.extend_from_slice(&self.newline.as_bytes()[..wanted]);
    }

    fn before_value(&mut self) {
        if self.after_key {
            self.after_key = false;
            return;
        }
        if self.depth > 0 {
            if !self.first {
                self.out.push(b',');
            }
            self.line_break();
        }
        self.first = false;
    }
}

impl<'a> Sink<'a> for Writer {
    fn begin(&mut self, open: u8, _: usize) {
        self.before_value();
        self.out.push(open);
        self.depth += 1;
        self.first = true;
    }

    fn end(&mut self, close: u8, _: usize) {
        self.depth -= 1;
        if !self.first {
            self.line_break();
        }
        self.out.push(close);
        self.first = false;
    }

    fn key(&mut self, raw: &'a str) {
        if !self.first {
            self.out.push(b',');
        }
        self.line_break();
        self.out.extend_from_slice(raw.as_bytes());
        let colon: &[u8] = if self.layout == Layout::Minify { b":" } else { b": " };
        self.out.extend_from_slice(colon);
        self.first = false;
        self.after_key = true;
    }

    fn scalar(&mut self, raw: &'a str) {
        self.before_value();
        self.out.extend_from_slice(raw.as_bytes());
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

/// The code points of a raw (quoted, already validated) key, for ordering. Lone
/// surrogates become U+FFFD: they order as that character, which is deterministic.
fn decode_key(raw: &str) -> Cow<'_, str> {
    let inner = &raw[1..raw.len() - 1];
    if !inner.contains('\\') {
        return Cow::Borrowed(inner);
    }
    let mut units: Vec<u16> = Vec::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            let mut buffer = [0u16; 2];
            units.extend_from_slice(c.encode_utf16(&mut buffer));
            continue;
        }
        let unit = match chars.next() {
            Some('b') => 0x08,
            Some('f') => 0x0c,
            Some('n') => 0x0a,
            Some('r') => 0x0d,
            Some('t') => 0x09,
            Some('u') => {
                let hex: String = chars.by_ref().take(4).collect();
                u16::from_str_radix(&hex, 16).unwrap_or(0xfffd)
            }
            Some(other) => other as u16,
            None => 0xfffd,
        };
        units.push(unit);
    }
    Cow::Owned(String::from_utf16_lossy(&units))
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert!(strict.message.contains("--jsonc"));
        assert!(error("[1,]").message.contains("trailing comma"));
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
    fn value_spans_are_found_by_pointer() {
        let text = r#"{"a": [1, {"b~/": "x", "c": [true]}], "d\u0065": null, "e": {}}"#;
        let at = |pointer: &str| find_value_span(text, pointer).map(|span| &text[span.start..span.end]);
        assert_eq!(at(""), Some(text));
        assert_eq!(at("/a/0"), Some("1"));
        assert_eq!(at("/a/1/b~0~1"), Some("\"x\""));
        assert_eq!(at("/a/1/c"), Some("[true]"));
        assert_eq!(at("/a/1"), Some(r#"{"b~/": "x", "c": [true]}"#));
        assert_eq!(at("/de"), Some("null"));
        assert_eq!(at("/e"), Some("{}"));
        assert_eq!(at("/a/2"), None);
        assert_eq!(at("/x"), None);
        let duplicated = r#"{"k": 1, "k": [2]}"#;
        let last = find_value_span(duplicated, "/k").unwrap();
        assert_eq!(&duplicated[last.start..last.end], "[2]");
    }

    #[test]
    fn unterminated_input_is_an_error() {
        for text in ["{", "[1,", "{\"a\":", "\"abc", "[\"\\u12\"]", "{\"a\":1,"] {
            assert!(format(text, &FormatOptions::default()).is_err(), "{text}");
        }
    }
}
