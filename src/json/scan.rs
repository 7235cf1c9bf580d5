//! The exact JSON scanner every JSON tool builds on: one pass over the bytes
//! that validates (strict RFC 8259 grammar, or JSONC) and reports each token
//! to a [`Sink`] as raw text, so numbers and strings keep the text they were
//! written with. It keeps an explicit stack, no recursion; nesting is capped at
//! [`MAX_DEPTH`] because pretty output grows with the square of the depth (a 1 MB
//! line of `[` would otherwise print terabytes of indentation).
//!
//! Lone surrogate escapes (`"\ud800"`) are grammatical JSON and pass through.

use std::borrow::Cow;
use std::ops::ControlFlow;

use crate::source::LineIndex;

/// Why a text is not JSON, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JsonParseError {
    /// What was expected or found, without the position.
    pub message: String,
    /// 1-based line and column of the error.
    pub line: usize,
    pub column: usize,
    /// Byte offset of the error.
    pub offset: usize,
}

/// The two errors JSONC would accept. Their messages name no option: each face
/// says how to accept them its own way (`fmt --jsonc`, the page's checkbox), or
/// not at all where nothing accepts them (`validate`, `diff`, `check`).
const COMMENTS: &str = "comments are not JSON";
const TRAILING_COMMA: &str = "trailing comma (not JSON)";

impl JsonParseError {
    /// Whether the text would parse as JSONC (comments, trailing commas) up to here.
    pub fn jsonc_accepts(&self) -> bool {
        self.message == COMMENTS || self.message == TRAILING_COMMA
    }
}

impl std::fmt::Display for JsonParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} at line {} column {}", self.message, self.line, self.column)
    }
}

/// The deepest nesting accepted. Real documents stay far below it; serde_json stops at 128.
pub const MAX_DEPTH: usize = 1000;

/// Checks that `text` is strict JSON (or JSONC) without building anything.
pub fn check_syntax(text: &str, jsonc: bool) -> Result<(), JsonParseError> {
    scan(text, jsonc, &mut Discard).map_err(|e| e.locate(text))
}

/// What the scanner reports, in document order; keys and scalars are raw text
/// (slices of the input), brackets come with their byte offset.
pub(crate) trait Sink<'a> {
    fn begin(&mut self, open: u8, at: usize);
    fn end(&mut self, close: u8, at: usize);
    fn key(&mut self, raw: &'a str);
    fn scalar(&mut self, raw: &'a str);
    /// A comma at byte `at` between two items of the innermost of the `open`
    /// containers (outermost first, `true` for an object); never a trailing
    /// comma. Only the parallel formatter's check wants them; breaking stops
    /// the scan there, successfully.
    #[inline(always)]
    fn separator(&mut self, _at: usize, _open: &[bool]) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }
}

/// A sink that keeps nothing: the scan only validates.
pub(crate) struct Discard;

impl<'a> Sink<'a> for Discard {
    fn begin(&mut self, _: u8, _: usize) {}
    fn end(&mut self, _: u8, _: usize) {}
    fn key(&mut self, _: &'a str) {}
    fn scalar(&mut self, _: &'a str) {}
}

/// A syntax error before its line and column are known (they are computed only on failure).
pub(crate) struct ScanError {
    offset: usize,
    message: Cow<'static, str>,
}

impl ScanError {
    pub(crate) fn locate(self, text: &str) -> JsonParseError {
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
    // Always inlined: at the page's opt-level "z" it was a call per byte.
    #[inline(always)]
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
        const EIGHT_SPACES: u64 = u64::from_ne_bytes([b' '; 8]);
        loop {
            match self.peek() {
                Some(b' ' | b'\n' | b'\r' | b'\t') => {
                    self.pos += 1;
                    // A pretty document's indentation, eight spaces at a time:
                    // in the page's wasm a byte at a time was a fifth of a parse.
                    while let Some(word) = self.bytes.get(self.pos..self.pos + 8) {
                        if u64::from_ne_bytes(eight(word)) != EIGHT_SPACES {
                            break;
                        }
                        self.pos += 8;
                    }
                }
                Some(b'/') if self.jsonc => self.skip_comment()?,
                Some(b'/') => return fail(self.pos, COMMENTS),
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

/// The eight bytes of a slice known to hold eight. Not `expect`: at the page's
/// opt-level "z" its panic path kept it a call per word (a third of a diff's
/// parse), where this is inlined; natively both compile to one load.
#[inline(always)]
pub(crate) fn eight(chunk: &[u8]) -> [u8; 8] {
    chunk.try_into().unwrap_or_default()
}

/// The offset of the first byte at or after `i` that ends a plain run inside a
/// string (quote, backslash, control character), or the length of `bytes`.
/// Eight bytes at a time, jumping straight to the stop byte: this is where a
/// formatter of real documents spends most of its time.
#[inline(always)]
fn skip_plain_string_bytes(bytes: &[u8], mut i: usize) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let has_zero = |x: u64| x.wrapping_sub(ONES) & !x & HIGHS;
    while let Some(chunk) = bytes.get(i..i + 8) {
        let word = u64::from_le_bytes(eight(chunk));
        let quote = has_zero(word ^ (ONES * u64::from(b'"')));
        let backslash = has_zero(word ^ (ONES * u64::from(b'\\')));
        // Bytes below 0x20: subtracting 0x20 borrows into the high bit (non-ASCII bytes are excluded).
        let control = word.wrapping_sub(ONES * 0x20) & !word & HIGHS;
        let stops = quote | backslash | control;
        if stops != 0 {
            // A borrow can flag bytes above the first real stop, never below it,
            // so the lowest flag (little-endian: the first byte) is exact.
            return i + (stops.trailing_zeros() / 8) as usize;
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
pub(crate) fn scan<'a>(text: &'a str, jsonc: bool, sink: &mut impl Sink<'a>) -> Result<(), ScanError> {
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
                    // An empty container is a level too: `[` × 1001 then `]` × 1001 is 1001 deep.
                    if open.len() >= MAX_DEPTH {
                        return fail(s.pos, format!("nesting deeper than {MAX_DEPTH} levels"));
                    }
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
                    if open.len() >= MAX_DEPTH {
                        return fail(s.pos, format!("nesting deeper than {MAX_DEPTH} levels"));
                    }
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
                            return fail(comma, TRAILING_COMMA);
                        }
                        s.pos += 1;
                        open.pop();
                        sink.end(close, s.pos - 1);
                        continue;
                    }
                    if sink.separator(comma, &open).is_break() {
                        return Ok(());
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

// Only the native parallel formatter checks and writes from a comma (the page has one thread).
#[cfg(not(target_arch = "wasm32"))]
/// What [`scan_tail`] learnt of the containers open at its comma.
pub(crate) struct Tail {
    /// The kinds of those the tail closes, innermost first (`true` for an object).
    pub closes: Vec<bool>,
    /// The most containers open at once in the tail beyond those open at the comma.
    pub deepest: usize,
}

/// Checks strict JSON `text` after the comma at `comma`, as [`scan`] would
/// if that comma separated two items inside containers it does not know:
/// it learns their kinds as it goes (a key and `:` after a comma mean an
/// object, each closing bracket names its kind). If the containers open at
/// the comma are exactly `closes` (innermost last) and at most
/// [`MAX_DEPTH`] minus `deepest` of them, [`scan`] accepts `text` exactly when
/// it accepts it up to that comma and stops there as a separator (breaking
/// in [`Sink::separator`]): the second half of a check on two threads.
/// `None` when no containers would do or when it cannot tell (anything
/// [`scan`] would reject, a trailing comma); the caller then checks the whole
/// text. `checkpoint` gets every comma between items with the number of the
/// comma's containers closed before it and the containers opened since.
#[cfg(not(target_arch = "wasm32"))]
pub(crate) fn scan_tail(text: &str, comma: usize, checkpoint: &mut impl FnMut(usize, usize, &[bool])) -> Option<Tail> {
    let mut s = Scanner {
        text,
        bytes: text.as_bytes(),
        pos: comma + 1,
        jsonc: false,
    };
    // Containers opened in the tail, and the kinds learnt of the ones below.
    let mut open: Vec<bool> = Vec::new();
    let mut closes: Vec<bool> = Vec::new();
    let mut deepest = 0usize;
    // Whether the innermost container below the tail's own is an object:
    // learnt from an item (`None` right after a closing bracket, before any).
    let mut floor: Option<bool> = None;
    // A value is still to scan (not after a closing bracket or a string element).
    let mut pending = unknown_item(&mut s, &mut floor)?;
    loop {
        if pending {
            match s.skip_space().ok()? {
                Some(open_byte @ (b'{' | b'[')) => {
                    s.pos += 1;
                    let close = if open_byte == b'{' { b'}' } else { b']' };
                    if s.skip_space().ok()? == Some(close) {
                        // An empty container is a level too, as in [`scan`].
                        deepest = deepest.max((open.len() + 1).saturating_sub(closes.len()));
                        s.pos += 1;
                    } else {
                        open.push(open_byte == b'{');
                        deepest = deepest.max(open.len().saturating_sub(closes.len()));
                        if open_byte == b'{' {
                            member_key(&mut s, &mut Discard).ok()?;
                        }
                        continue;
                    }
                }
                Some(b'"') => {
                    s.string().ok()?;
                }
                Some(b'-' | b'0'..=b'9') => {
                    s.number().ok()?;
                }
                Some(b't') => {
                    s.literal("true").ok()?;
                }
                Some(b'f') => {
                    s.literal("false").ok()?;
                }
                Some(b'n') => {
                    s.literal("null").ok()?;
                }
                _ => return None,
            }
        }
        // After a complete value: close containers or move to the next item.
        match (open.last().copied(), s.skip_space().ok()?) {
            (Some(is_object), Some(b',')) => {
                let at = s.pos;
                s.pos += 1;
                let close = if is_object { b'}' } else { b']' };
                if s.skip_space().ok()? == Some(close) {
                    return None;
                }
                checkpoint(at, closes.len(), &open);
                if is_object {
                    member_key(&mut s, &mut Discard).ok()?;
                }
                pending = true;
            }
            (Some(is_object), Some(b)) if b == if is_object { b'}' } else { b']' } => {
                s.pos += 1;
                open.pop();
                pending = false;
            }
            (Some(_), _) => return None,
            // Below the tail's own containers, after an item or a closing bracket.
            (None, Some(b',')) => {
                let at = s.pos;
                s.pos += 1;
                if matches!(s.skip_space().ok()?, Some(b'}' | b']')) {
                    return None;
                }
                checkpoint(at, closes.len(), &open);
                pending = unknown_item(&mut s, &mut floor)?;
            }
            (None, Some(close @ (b'}' | b']'))) => {
                let is_object = close == b'}';
                if floor.is_some_and(|kind| kind != is_object) {
                    return None;
                }
                s.pos += 1;
                closes.push(is_object);
                floor = None;
                pending = false;
            }
            // The end, outside every container: right after a closing bracket.
            (None, None) if floor.is_none() => return Some(Tail { closes, deepest }),
            (None, _) => return None,
        }
    }
}

/// An item right after a comma in a container of unknown kind (`floor`,
/// learnt here, `None` if it disagrees with what was known): a string
/// followed by `:` is a key, so the container is an object; anything else is
/// an array element. Returns whether the item's value is still to scan (not
/// when it was a string element).
#[cfg(not(target_arch = "wasm32"))]
fn unknown_item(s: &mut Scanner<'_>, floor: &mut Option<bool>) -> Option<bool> {
    let is_object = match s.skip_space().ok()? {
        Some(b'"') => {
            s.string().ok()?;
            if s.skip_space().ok()? == Some(b':') {
                s.pos += 1;
                true
            } else {
                if *floor == Some(true) {
                    return None;
                }
                *floor = Some(false);
                return Some(false);
            }
        }
        _ => false,
    };
    if floor.is_some_and(|kind| kind != is_object) {
        return None;
    }
    *floor = Some(is_object);
    Some(true)
}

/// Bytes that end a number or a literal (`true`, `false`, `null`) in checked
/// text: what may follow a value, and `/` for a JSONC comment.
static SCALAR_END: [bool; 256] = {
    let mut table = [false; 256];
    let ends = *b" \t\n\r,]}/";
    let mut i = 0;
    while i < ends.len() {
        table[ends[i] as usize] = true;
        i += 1;
    }
    table
};

/// Reports `text` to `sink` exactly as [`scan`] would, for text that [`scan`]
/// already accepted with the same `jsonc` flag. It validates nothing (no number
/// grammar, no escapes, no control bytes, no depth), so a formatter that checks
/// first pays for the grammar once. Unchecked text gives nonsense tokens but
/// never a slice inside a character: every cut is next to an ASCII byte.
pub(crate) fn replay_checked<'a>(text: &'a str, jsonc: bool, sink: &mut impl Sink<'a>) {
    let start = if jsonc && text.starts_with('\u{feff}') { 3 } else { 0 };
    replay(text, start, Levels::default(), sink);
}

/// [`replay_checked`] from the comma at `at` (one that [`Sink::separator`]
/// reported, with the containers `open` there) to the end of `text`, which
/// may be cut short of the checked document at another such comma: the
/// tokens of one slice of the document, for formatting slices in parallel.
#[cfg(not(target_arch = "wasm32"))]
pub(crate) fn replay_checked_from<'a>(text: &'a str, at: usize, open: &[bool], sink: &mut impl Sink<'a>) {
    let mut levels = Levels::default();
    for &object in open {
        levels.push(object);
    }
    replay(text, at, levels, sink);
}

/// The kinds of the open containers, a bit each (set for an object): the
/// innermost 64 in `inner`, the bits of the outer ones in `outer`.
#[derive(Default)]
struct Levels {
    inner: u64,
    outer: Vec<u64>,
    depth: usize,
}

impl Levels {
    #[inline(always)]
    fn push(&mut self, object: bool) {
        if self.depth > 0 && self.depth.is_multiple_of(64) {
            self.outer.push(self.inner);
            self.inner = 0;
        }
        self.inner = (self.inner << 1) | u64::from(object);
        self.depth += 1;
    }

    #[inline(always)]
    fn pop(&mut self) {
        self.depth = self.depth.saturating_sub(1);
        self.inner >>= 1;
        if self.depth > 0 && self.depth.is_multiple_of(64) {
            self.inner = self.outer.pop().unwrap_or(0);
        }
    }

    fn in_object(&self) -> bool {
        self.inner & 1 == 1
    }
}

fn replay<'a>(text: &'a str, mut pos: usize, mut levels: Levels, sink: &mut impl Sink<'a>) {
    let bytes = text.as_bytes();
    // The next string is an object key: right after `{` or after `,` in an object.
    let mut key_next = false;
    while let Some(&byte) = bytes.get(pos) {
        match byte {
            b' ' | b'\t' | b'\n' | b'\r' => pos += 1,
            b'{' | b'[' => {
                sink.begin(byte, pos);
                pos += 1;
                levels.push(byte == b'{');
                key_next = byte == b'{';
            }
            b'}' | b']' => {
                sink.end(byte, pos);
                pos += 1;
                levels.pop();
                key_next = false;
            }
            b',' => {
                pos += 1;
                key_next = levels.in_object();
            }
            b':' => pos += 1,
            b'"' => {
                let end = skip_checked_string(bytes, pos);
                let raw = text.get(pos..end).unwrap_or_default();
                if key_next {
                    sink.key(raw);
                    key_next = false;
                } else {
                    sink.scalar(raw);
                }
                pos = end;
            }
            b'/' => {
                pos = match bytes.get(pos + 1) {
                    Some(b'*') => text[pos + 2..].find("*/").map_or(bytes.len(), |end| pos + 2 + end + 2),
                    _ => memchr_newline(bytes, pos).unwrap_or(bytes.len()),
                };
            }
            _ => {
                let start = pos;
                pos += 1;
                while bytes.get(pos).is_some_and(|&b| !SCALAR_END[b as usize]) {
                    pos += 1;
                }
                sink.scalar(text.get(start..pos).unwrap_or_default());
            }
        }
    }
}

/// The end (one past the last byte) of the value at `pos` in text that
/// [`scan`] accepted as strict JSON. It looks only at quotes, escapes and
/// brackets, validating nothing: how a reader that knows the text is JSON
/// passes over the values it does not want. Unchecked text gives a wrong
/// end, never a panic.
pub(crate) fn skip_checked_value(bytes: &[u8], pos: usize) -> usize {
    match bytes.get(pos) {
        Some(b'"') => skip_checked_string(bytes, pos),
        Some(b'{' | b'[') => {
            let mut depth = 0_usize;
            let mut i = pos;
            while let Some(&byte) = bytes.get(i) {
                match byte {
                    b'"' => {
                        i = skip_checked_string(bytes, i);
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth = depth.saturating_sub(1);
                        if depth == 0 {
                            return i + 1;
                        }
                    }
                    _ => {}
                }
                i += 1;
            }
            bytes.len()
        }
        _ => {
            let mut i = pos + 1;
            while bytes.get(i).is_some_and(|&b| !SCALAR_END[b as usize]) {
                i += 1;
            }
            i.min(bytes.len())
        }
    }
}

/// The end of the string whose opening quote is at `pos`, in checked text
/// (the end of the text if it is unterminated).
#[inline(always)]
pub(crate) fn skip_checked_string(bytes: &[u8], pos: usize) -> usize {
    let mut end = pos + 1;
    loop {
        end = skip_plain_string_bytes(bytes, end);
        match bytes.get(end) {
            // The escaped byte is ASCII in checked text; `\u` digits are plain.
            Some(b'\\') => end += 2,
            Some(b'"') => return end + 1,
            Some(_) => end += 1,
            None => return bytes.len(),
        }
    }
}

/// The first byte at or after `pos` that is not JSON whitespace.
pub(crate) fn skip_checked_space(bytes: &[u8], mut pos: usize) -> usize {
    while let Some(b' ' | b'\t' | b'\n' | b'\r') = bytes.get(pos) {
        pos += 1;
    }
    pos
}

/// Scans `"key" :` and reports the key.
fn member_key<'a>(s: &mut Scanner<'a>, sink: &mut impl Sink<'a>) -> Result<(), ScanError> {
    // Only the report is per sink: the scanning is compiled once, not once
    // for each of the six sinks.
    sink.key(quoted_key(s)?);
    colon(s)
}

/// Scans `"key"`: its raw text.
fn quoted_key<'a>(s: &mut Scanner<'a>) -> Result<&'a str, ScanError> {
    match s.skip_space()? {
        Some(b'"') => s.string(),
        other => fail(
            s.pos,
            format!("expected a string key in double quotes, found {}", describe(other)),
        ),
    }
}

/// Scans the `:` after a member's key.
fn colon(s: &mut Scanner<'_>) -> Result<(), ScanError> {
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

/// The code points of a raw (quoted, already validated) key, for ordering. Lone
/// surrogates become U+FFFD: they order as that character, which is deterministic.
pub(crate) fn decode_key(raw: &str) -> Cow<'_, str> {
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

    /// Every comma between items, with the containers open there.
    struct Separators(Vec<(usize, Vec<bool>)>);

    impl<'a> Sink<'a> for Separators {
        fn begin(&mut self, _: u8, _: usize) {}
        fn end(&mut self, _: u8, _: usize) {}
        fn key(&mut self, _: &'a str) {}
        fn scalar(&mut self, _: &'a str) {}
        fn separator(&mut self, at: usize, open: &[bool]) -> ControlFlow<()> {
            self.0.push((at, open.to_vec()));
            ControlFlow::Continue(())
        }
    }

    fn tail(text: &str, comma: usize) -> Option<(Vec<bool>, usize)> {
        scan_tail(text, comma, &mut |_, _, _| {}).map(|tail| (tail.closes, tail.deepest))
    }

    /// From every comma between items of a valid document, the tail learns
    /// exactly the containers open there (`[` `{` mixed, keys that look like
    /// values), so the two-thread check joins.
    #[test]
    fn a_tail_learns_the_containers_open_at_its_comma() {
        let text = r#"{"a": [1, "x", {"k": [true, {}], "l": "v,w"}], "b": [[], ["s", 2]], "c": null}"#;
        let mut separators = Separators(Vec::new());
        scan(text, false, &mut separators).unwrap_or_else(|_| panic!("valid"));
        assert_eq!(separators.0.len(), 8);
        for (at, open) in separators.0 {
            let (closes, _) = tail(text, at).unwrap_or_else(|| panic!("tail at {at}"));
            assert_eq!(closes.iter().rev().copied().collect::<Vec<_>>(), open, "at {at}");
        }
        assert_eq!(tail("[1,[[[2]]]]", 2), Some((vec![false], 3)));
    }

    /// What no containers at the comma could make valid, or what only the
    /// full check can judge, is `None`.
    #[test]
    fn a_tail_that_cannot_join_is_none() {
        for (text, comma) in [
            // Nothing but white space may follow the document's last bracket.
            ("[[0,1]],1", 4),
            ("[0,1]]x", 2),
            // A key in an array, an element in an object, a bracket of the other kind.
            ("[0,\"k\":1,2]", 2),
            ("{\"a\":1,\"b\":2,3}", 6),
            ("[0,{\"a\":1}}", 2),
            // Still open at the end, a trailing comma, an error in a value.
            ("[0,1", 2),
            ("[0,1,]", 2),
            ("[0,01]", 2),
        ] {
            assert_eq!(tail(text, comma), None, "{text}");
        }
    }
}
