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

use crate::text::LineIndex;

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
    check_keeping_marks(text, jsonc).map(drop)
}

/// [`check_syntax`], which also returns the writing pass's stage 1 (the
/// [`Blocks`] from the start, a `u64` of marks per 64 bytes) when the
/// bitmask check ([`quick_check`]) decided: strict JSON, valid.
pub(crate) fn check_keeping_marks(text: &str, jsonc: bool) -> Result<Option<Vec<u64>>, JsonParseError> {
    // The bitmask check decides most texts; the scan, the rest and every error.
    if !jsonc {
        let mut marks = Vec::with_capacity(text.len() / 64 + 1);
        if quick_check(text, &mut |_, _| {}, &mut |block| marks.push(block)) {
            return Ok(Some(marks));
        }
    }
    scan(text, jsonc, &mut Discard).map_err(|e| e.locate(text))?;
    Ok(None)
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
    /// Inlined natively (a tenth off the check of a big document); in the
    /// page's wasm it would be compiled once per sink.
    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    #[cfg_attr(target_arch = "wasm32", inline)]
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

    /// Scans a number per RFC 8259 §6; returns its raw text. Inlined natively, as [`Self::string`].
    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    #[cfg_attr(target_arch = "wasm32", inline)]
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

    /// The end of the run of digits at `i`: eight bytes at a time, so that
    /// a number's digits take no branch each.
    #[inline(always)]
    fn digits(&self, mut i: usize) -> usize {
        const HIGH_NIBBLES: u64 = 0xf0f0_f0f0_f0f0_f0f0;
        const THREES: u64 = 0x3030_3030_3030_3030;
        const SIXES: u64 = 0x0606_0606_0606_0606;
        while let Some(chunk) = self.bytes.get(i..i + 8) {
            let word = u64::from_le_bytes(eight(chunk));
            // A digit's high nibble is 3, and still is with 6 added. Adding
            // carries out of a byte only from 0xfa up, itself no digit, into
            // the bytes after it: the first flagged byte is exact.
            let others = ((word & HIGH_NIBBLES) ^ THREES) | ((word.wrapping_add(SIXES) & HIGH_NIBBLES) ^ THREES);
            if others != 0 {
                return i + (others.trailing_zeros() / 8) as usize;
            }
            i += 8;
        }
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
/// Sixteen bytes at a time with SSE2 (every x86_64 has it), eight at a time in
/// a `u64` elsewhere (the page's wasm), jumping straight to the stop byte:
/// this is where a formatter of real documents spends most of its time, in
/// the check and in the writing pass alike.
#[inline(always)]
fn skip_plain_string_bytes(bytes: &[u8], i: usize) -> usize {
    #[cfg(target_arch = "x86_64")]
    let i = match sse2::skip_plain_string_bytes(bytes, i) {
        Ok(stop) => return stop,
        Err(tail) => tail,
    };
    skip_plain_string_words(bytes, i)
}

/// The fallback of [`skip_plain_string_bytes`], and its tail on x86_64 (the
/// last fifteen bytes or fewer).
#[inline(always)]
fn skip_plain_string_words(bytes: &[u8], mut i: usize) -> usize {
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

/// Sixteen bytes at a time, for the hot runs of the scanner and the writing
/// pass. SSE2 is part of the x86_64 baseline, so no detection is needed.
#[cfg(target_arch = "x86_64")]
mod sse2 {
    use std::arch::x86_64::{
        __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_min_epu8, _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8,
    };

    /// [`super::skip_plain_string_bytes`] while sixteen bytes remain: the
    /// first stop byte, or (`Err`) the offset where fewer than sixteen are left.
    #[inline(always)]
    pub(super) fn skip_plain_string_bytes(bytes: &[u8], mut i: usize) -> Result<usize, usize> {
        while let Some(chunk) = bytes.get(i..i + 16) {
            // SAFETY: SSE2 is enabled on every x86_64 target, and the load
            // reads the sixteen bytes of `chunk`, unaligned.
            let mask = unsafe {
                let v = _mm_loadu_si128(chunk.as_ptr().cast::<__m128i>());
                // A byte of at most 0x1f is its own minimum with 0x1f (unsigned).
                let control = _mm_cmpeq_epi8(_mm_min_epu8(v, _mm_set1_epi8(0x1f)), v);
                let quote = _mm_cmpeq_epi8(v, _mm_set1_epi8(b'"' as i8));
                let backslash = _mm_cmpeq_epi8(v, _mm_set1_epi8(b'\\' as i8));
                _mm_movemask_epi8(_mm_or_si128(_mm_or_si128(quote, backslash), control)) as u32
            };
            if mask != 0 {
                return Ok(i + mask.trailing_zeros() as usize);
            }
            i += 16;
        }
        Err(i)
    }
}

/// Stage 1 of the writing pass over checked strict JSON, after simdjson:
/// 64 bytes at a time, a bit per byte, the places outside strings where the
/// writer acts: the structural bytes `{}[]:,` and the first byte of each run
/// of white space. Strings, numbers and literals are the runs between them,
/// copied whole, so the writer never looks at their bytes. In-string regions
/// come from the prefix XOR of the unescaped quotes; a quote is escaped when
/// an odd run of backslashes precedes it, even across a block boundary.
///
/// Only for text that [`scan`] accepted as strict JSON: outside strings such
/// text holds nothing but white space, structural bytes, quotes and the
/// ASCII of numbers and literals, which the byte tests below rely on.
/// Unchecked text gives nonsense, never a panic, and every reported byte is
/// ASCII (so cutting the text next to one stays on a character boundary).
pub(crate) struct Blocks<'a> {
    bytes: &'a [u8],
    /// The offset of the next block.
    at: usize,
    /// All ones when the previous block ended inside a string.
    in_string: u64,
    /// 1 when the previous block ended with an unescaped backslash.
    escaped: u64,
    /// 1 when the previous block ended with white space outside strings.
    space: u64,
}

/// One classified block: its offset and the bits of the bytes the writer
/// acts on (past the end of the text, white space).
pub(crate) struct Block {
    pub at: usize,
    pub marks: u64,
}

impl<'a> Blocks<'a> {
    /// The blocks of `bytes` from `at`, which is outside any string.
    pub(crate) fn new(bytes: &'a [u8], at: usize) -> Self {
        Blocks {
            bytes,
            at,
            in_string: 0,
            escaped: 0,
            space: 0,
        }
    }
}

impl Iterator for Blocks<'_> {
    type Item = Block;

    #[inline(always)]
    fn next(&mut self) -> Option<Block> {
        let rest = self.bytes.get(self.at..)?;
        let classes = match rest.first_chunk::<64>() {
            Some(block) => classify(block),
            None if rest.is_empty() => return None,
            None => {
                // The last block, padded with white space.
                let mut block = [b' '; 64];
                block[..rest.len()].copy_from_slice(rest);
                classify(&block)
            }
        };
        let escaped = escaped_bits(classes.backslash, &mut self.escaped);
        let inside = prefix_xor(classes.quote & !escaped) ^ self.in_string;
        // The top bit, broadcast: whether the block ends inside a string.
        self.in_string = 0_u64.wrapping_sub(inside >> 63);
        let space = classes.space & !inside;
        let space_starts = space & !((space << 1) | self.space);
        self.space = space >> 63;
        let at = self.at;
        self.at += 64;
        Some(Block {
            at,
            marks: (classes.structural & !inside) | space_starts,
        })
    }
}

/// Whether `text` is strict JSON, decided from stage 1's bitmasks (after
/// simdjson): 64 bytes at a time, the strings are found from the unescaped
/// quotes and checked whole (no control byte in them, each escape one of
/// JSON's), and a small state machine walks the rest one event at a time
/// (a structural byte, the opening quote of a string, the first byte of a
/// number or literal, which is checked there). `true` only for text
/// [`scan`] accepts; `false` for any it rejects, and perhaps for some it
/// accepts (a byte order mark, nesting near [`MAX_DEPTH`]): the caller then
/// scans, for the verdict and the exact error. `comma` gets each comma
/// between items with the containers open there (as [`Sink::separator`]),
/// whatever the verdict, and `marks` each block's [`Block::marks`], as
/// [`Blocks`] from the start finds them, while the verdict stands.
#[inline(always)]
pub(crate) fn quick_check(text: &str, comma: &mut impl FnMut(usize, &OpenLevels), marks: &mut impl FnMut(u64)) -> bool {
    let bytes = text.as_bytes();
    let mut open = OpenLevels {
        bits: [0; MAX_DEPTH.div_ceil(64)],
        depth: 0,
    };
    // The innermost open container is an object.
    let mut in_object = false;
    let mut state = State::Value;
    let (mut in_string, mut escaped_carry, mut other_carry, mut space_carry) = (0_u64, 0_u64, 0_u64, 0_u64);
    let mut at = 0;
    while at < bytes.len() {
        let rest = &bytes[at..];
        let classes = match rest.first_chunk::<64>() {
            Some(block) => classify(block),
            None => {
                let mut block = [b' '; 64];
                block[..rest.len()].copy_from_slice(rest);
                classify(&block)
            }
        };
        let escaped = escaped_bits(classes.backslash, &mut escaped_carry);
        let quotes = classes.quote & !escaped;
        let inside = prefix_xor(quotes) ^ in_string;
        in_string = 0_u64.wrapping_sub(inside >> 63);
        // Control bytes in strings, any but white space outside them, a backslash outside.
        if (classes.control & (inside | !classes.white)) | (classes.backslash & !inside) != 0 {
            return false;
        }
        let space = classes.space & !inside;
        marks((classes.structural & !inside) | (space & !((space << 1) | space_carry)));
        space_carry = space >> 63;
        let mut escapes = classes.backslash & !escaped;
        while escapes != 0 {
            let i = at + escapes.trailing_zeros() as usize;
            escapes &= escapes - 1;
            let valid = match bytes.get(i + 1) {
                Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => true,
                Some(b'u') => bytes
                    .get(i + 2..i + 6)
                    .is_some_and(|digits| digits.iter().all(u8::is_ascii_hexdigit)),
                _ => false,
            };
            if !valid {
                return false;
            }
        }
        let other = !(inside | classes.structural | classes.white | classes.quote);
        let scalars = other & !((other << 1) | other_carry);
        other_carry = other >> 63;
        let mut events = (classes.structural & !inside) | (quotes & inside) | scalars;
        while events != 0 {
            let i = at + events.trailing_zeros() as usize;
            events &= events - 1;
            let byte = bytes.get(i).copied().unwrap_or(b' ');
            // By state first: after a key or a value, one or three bytes may come.
            state = match (state, byte) {
                (State::Colon, b':') => State::Value,
                (State::Key | State::KeyOrClose, b'"') => State::Colon,
                (State::After, b',') if open.depth > 0 => {
                    comma(i, &open);
                    if in_object { State::Key } else { State::Value }
                }
                (State::After | State::KeyOrClose, b'}') if in_object && open.depth > 0 => {
                    open.depth -= 1;
                    in_object = open.depth > 0 && open.is_object(open.depth - 1);
                    State::After
                }
                (State::After | State::ValueOrClose, b']') if !in_object && open.depth > 0 => {
                    open.depth -= 1;
                    in_object = open.depth > 0 && open.is_object(open.depth - 1);
                    State::After
                }
                (State::Value | State::ValueOrClose, b'"') => State::After,
                (State::Value | State::ValueOrClose, b'{' | b'[') if open.depth < MAX_DEPTH => {
                    in_object = byte == b'{';
                    let (word, bit) = (open.depth / 64, open.depth % 64);
                    open.bits[word] = (open.bits[word] & !(1 << bit)) | (u64::from(in_object) << bit);
                    open.depth += 1;
                    if in_object {
                        State::KeyOrClose
                    } else {
                        State::ValueOrClose
                    }
                }
                (State::Value | State::ValueOrClose, _) => {
                    let end = match byte {
                        b't' if bytes[i..].starts_with(b"true") => i + 4,
                        b'f' if bytes[i..].starts_with(b"false") => i + 5,
                        b'n' if bytes[i..].starts_with(b"null") => i + 4,
                        b'-' | b'0'..=b'9' => {
                            let mut scanner = Scanner {
                                text,
                                bytes,
                                pos: i,
                                jsonc: false,
                            };
                            match scanner.number() {
                                Ok(_) => scanner.pos,
                                Err(_) => return false,
                            }
                        }
                        _ => return false,
                    };
                    // The scalar is the whole run up to the next event or white space.
                    if !matches!(
                        bytes.get(end),
                        None | Some(b' ' | b'\t' | b'\n' | b'\r' | b',' | b':' | b'[' | b']' | b'{' | b'}' | b'"')
                    ) {
                        return false;
                    }
                    State::After
                }
                _ => return false,
            };
        }
        at += 64;
    }
    in_string == 0 && state == State::After && open.depth == 0
}

/// Where [`quick_check`] stands between two events.
#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    /// A value is next (at the start, after `:`, after `,` in an array).
    Value,
    /// A value or `]`, right after `[`.
    ValueOrClose,
    /// A key or `}`, right after `{`.
    KeyOrClose,
    /// A key, after `,` in an object.
    Key,
    /// `:`, after a key.
    Colon,
    /// `,` or a closing bracket, after a value (at depth 0, nothing but the end).
    After,
}

/// The containers [`quick_check`] has open, a bit each (set for an object).
pub(crate) struct OpenLevels {
    bits: [u64; MAX_DEPTH.div_ceil(64)],
    depth: usize,
}

impl OpenLevels {
    #[inline(always)]
    fn is_object(&self, level: usize) -> bool {
        self.bits[level / 64] >> (level % 64) & 1 == 1
    }

    /// Outermost first, `true` for an object, as [`Sink::separator`] has them.
    #[cfg(test)]
    fn to_vec(&self) -> Vec<bool> {
        (0..self.depth).map(|level| self.is_object(level)).collect()
    }
}

/// A block's bytes of each class, a bit per byte (bit `i` for byte `i`).
#[derive(Debug, PartialEq, Eq)]
struct Classes {
    quote: u64,
    backslash: u64,
    /// `{}[]:,` outside strings (inside them, any byte that tests alike).
    structural: u64,
    /// Bytes up to 0x20: white space outside strings.
    space: u64,
    /// Bytes below 0x20 (only the check wants them, and [`Classes::white`]).
    control: u64,
    /// The four bytes of JSON white space, exactly.
    white: u64,
}

/// The bytes that follow an unescaped backslash (simdjson's branchless
/// `find_escaped`): a run of backslashes that starts on an even bit escapes
/// the byte after it when its length is odd, and the same for odd starts
/// with the parity flipped. `carry` is 1 when the previous block's last
/// backslash escapes this block's first byte, and is updated for the next.
#[inline(always)]
fn escaped_bits(backslash: u64, carry: &mut u64) -> u64 {
    const EVEN: u64 = 0x5555_5555_5555_5555;
    // A backslash escaped by the previous block's is no escape itself.
    let backslash = backslash & !*carry;
    let follows_escape = (backslash << 1) | *carry;
    let odd_starts = backslash & !EVEN & !follows_escape;
    let (even_starts, overflow) = odd_starts.overflowing_add(backslash);
    *carry = u64::from(overflow);
    (EVEN ^ (even_starts << 1)) & follows_escape
}

/// Each bit set when an odd number of bits at or below it are set in `bits`.
#[inline(always)]
fn prefix_xor(mut bits: u64) -> u64 {
    bits ^= bits << 1;
    bits ^= bits << 2;
    bits ^= bits << 4;
    bits ^= bits << 8;
    bits ^= bits << 16;
    bits ^= bits << 32;
    bits
}

/// [`Classes`] of a block, sixteen bytes at a time with SSE2.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn classify(block: &[u8; 64]) -> Classes {
    use std::arch::x86_64::{
        __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_min_epu8, _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8,
    };
    let mut classes = Classes {
        quote: 0,
        backslash: 0,
        structural: 0,
        space: 0,
        control: 0,
        white: 0,
    };
    for (k, chunk) in block.chunks_exact(16).enumerate() {
        // SAFETY: SSE2 is enabled on every x86_64 target, and the load
        // reads the sixteen bytes of `chunk`, unaligned.
        let [quote, backslash, structural, space, control, white] = unsafe {
            let v = _mm_loadu_si128(chunk.as_ptr().cast::<__m128i>());
            let is = |byte: u8| _mm_cmpeq_epi8(v, _mm_set1_epi8(byte as i8));
            // `[` `]` `{` `}` are the bytes of the JSON alphabet outside
            // strings that OR 0x26 turns into 0x7f.
            let brackets = _mm_cmpeq_epi8(_mm_or_si128(v, _mm_set1_epi8(0x26)), _mm_set1_epi8(0x7f));
            let structural = _mm_or_si128(brackets, _mm_or_si128(is(b','), is(b':')));
            // A byte of at most 0x20 is its own minimum with 0x20 (unsigned).
            let space = _mm_cmpeq_epi8(_mm_min_epu8(v, _mm_set1_epi8(0x20)), v);
            let control = _mm_cmpeq_epi8(_mm_min_epu8(v, _mm_set1_epi8(0x1f)), v);
            let white = _mm_or_si128(_mm_or_si128(is(b' '), is(b'\t')), _mm_or_si128(is(b'\n'), is(b'\r')));
            [is(b'"'), is(b'\\'), structural, space, control, white].map(|m| u64::from(_mm_movemask_epi8(m) as u16))
        };
        classes.quote |= quote << (16 * k);
        classes.backslash |= backslash << (16 * k);
        classes.structural |= structural << (16 * k);
        classes.space |= space << (16 * k);
        classes.control |= control << (16 * k);
        classes.white |= white << (16 * k);
    }
    classes
}

/// [`Classes`] of a block, eight bytes at a time in a `u64` (the page's wasm).
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn classify(block: &[u8; 64]) -> Classes {
    words::classify(block)
}

/// The portable classifier, also compiled natively for the tests.
#[cfg(any(test, not(target_arch = "x86_64")))]
mod words {
    use super::{Classes, eight};

    const ONES: u64 = 0x0101_0101_0101_0101;
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    const HIGHS: u64 = 0x8080_8080_8080_8080;

    /// 0x80 in each byte of `word` that is zero, exactly (no borrows).
    #[inline(always)]
    fn zeros(word: u64) -> u64 {
        !(((word & LOW7) + LOW7) | word) & HIGHS
    }

    #[inline(always)]
    fn equal(word: u64, byte: u8) -> u64 {
        zeros(word ^ (ONES * u64::from(byte)))
    }

    /// The high bits of a word's bytes, packed into its low eight bits.
    #[inline(always)]
    fn pack(highs: u64) -> u64 {
        ((highs >> 7).wrapping_mul(0x0102_0408_1020_4080)) >> 56
    }

    #[inline(always)]
    pub(super) fn classify(block: &[u8; 64]) -> Classes {
        let mut classes = Classes {
            quote: 0,
            backslash: 0,
            structural: 0,
            space: 0,
            control: 0,
            white: 0,
        };
        for (k, chunk) in block.chunks_exact(8).enumerate() {
            let word = u64::from_le_bytes(eight(chunk));
            let brackets = equal(word | (ONES * 0x26), 0x7f);
            let structural = brackets | equal(word, b',') | equal(word, b':');
            // Bytes up to 0x20: adding 0x5f to the low seven bits reaches
            // the high bit from 0x21 on; non-ASCII bytes have it already.
            let space = !(((word & LOW7) + ONES * 0x5f) | word) & HIGHS;
            // Below 0x20: the same with 0x60.
            let control = !(((word & LOW7) + ONES * 0x60) | word) & HIGHS;
            let white = equal(word, b' ') | equal(word, b'\t') | equal(word, b'\n') | equal(word, b'\r');
            classes.control |= pack(control) << (8 * k);
            classes.white |= pack(white) << (8 * k);
            classes.quote |= pack(equal(word, b'"')) << (8 * k);
            classes.backslash |= pack(equal(word, b'\\')) << (8 * k);
            classes.structural |= pack(structural) << (8 * k);
            classes.space |= pack(space) << (8 * k);
        }
        classes
    }
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

/// Scans `"key"`: its raw text. Inlined natively, as [`Scanner::string`].
#[cfg_attr(not(target_arch = "wasm32"), inline(always))]
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
#[cfg_attr(not(target_arch = "wasm32"), inline(always))]
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

/// Valid documents whose quotes, backslash runs, multibyte characters and
/// white space fall on every side of a 64-byte boundary once shifted.
#[cfg(test)]
pub(crate) fn boundary_documents() -> Vec<String> {
    let backslashes = |n: usize| "\\".repeat(n);
    vec![
        // Escaped quotes after runs of 1 to 9 backslashes (odd: the quote
        // is escaped; even: the backslashes are, and the quote ends the string).
        format!(
            "[{}]",
            (0..10)
                .map(|n| format!(
                    "\"{}{}\"",
                    backslashes(2 * (n / 2)),
                    if n % 2 == 1 { "\\\"" } else { "" }
                ))
                .collect::<Vec<_>>()
                .join(",")
        ),
        r#"["\\\"", "\\", "\"", "a\\\\\"b", "{}[]:, x", "\u0022\\u"]"#.to_string(),
        format!(
            "[\"{}\", \"{}\\\"{}\"]",
            backslashes(130),
            backslashes(64),
            backslashes(62)
        ),
        "[\"é😀ü\", \"😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀\", {\"ключ\": \"значение\"}]".to_string(),
        "{\r\n\t\"a\" :\t[ 1 , 2.5e-3 , true ,\n null ] ,\n        \"b\":{ }, \"c\" : [\n ]\n}\n".to_string(),
        "7".to_string(),
        "  \"\"  ".to_string(),
        "[]".to_string(),
    ]
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

    /// Stage 1 byte by byte: the structural bytes and the first byte of
    /// each run of white space, outside strings.
    fn marks_one_by_one(bytes: &[u8]) -> Vec<usize> {
        let mut marks = Vec::new();
        let (mut in_string, mut escaped, mut space) = (false, false, false);
        for (i, &byte) in bytes.iter().enumerate() {
            let was_space = std::mem::replace(&mut space, false);
            if in_string {
                match byte {
                    _ if escaped => escaped = false,
                    b'\\' => escaped = true,
                    b'"' => in_string = false,
                    _ => {}
                }
                continue;
            }
            match byte {
                b'"' => in_string = true,
                b'{' | b'}' | b'[' | b']' | b':' | b',' => marks.push(i),
                b' ' | b'\t' | b'\n' | b'\r' => {
                    if !was_space {
                        marks.push(i);
                    }
                    space = true;
                }
                _ => {}
            }
        }
        marks
    }

    fn marks_by_blocks(bytes: &[u8]) -> Vec<usize> {
        Blocks::new(bytes, 0)
            .flat_map(|block| {
                (0..64)
                    .filter(move |bit| block.marks >> bit & 1 == 1)
                    .map(move |bit| block.at + bit)
            })
            // Past the end is white space padding.
            .filter(|&at| at < bytes.len())
            .collect()
    }

    /// Each document shifted by 0 to 70 bytes of leading white space, so
    /// each of its bytes sits at every place in a block, including the last.
    #[test]
    fn stage1_marks_what_a_byte_by_byte_scan_finds_across_block_boundaries() {
        for document in boundary_documents() {
            assert!(check_syntax(&document, false).is_ok(), "{document}");
            for shift in 0..70 {
                let text = format!("{}{document}", " \n\t\r".repeat(18).get(..shift).unwrap_or_default());
                assert_eq!(
                    marks_by_blocks(text.as_bytes()),
                    marks_one_by_one(text.as_bytes()),
                    "{shift}: {text:?}"
                );
            }
        }
    }

    /// Stage 1 reads bytes, not characters: invalid UTF-8 (which `&str`
    /// never holds) inside a string is as inert as any other non-ASCII byte,
    /// and no reported byte is non-ASCII.
    #[test]
    fn stage1_reports_only_ascii_even_in_invalid_utf8() {
        for shift in 0..70 {
            let mut bytes = vec![b' '; shift];
            bytes.extend_from_slice(b"[\"\xff\xfe{\xc3\", \"\xe2\x82\", \"\\\xc3\xa9\", \"\x80:,\"]");
            let marks = marks_by_blocks(&bytes);
            assert_eq!(marks, marks_one_by_one(&bytes), "{shift}");
            assert!(marks.iter().all(|&at| bytes[at].is_ascii()));
        }
    }

    /// The escape bits against a byte-by-byte reading, for backslash runs of
    /// every length ending at every place of two blocks (the carry between them).
    #[test]
    fn escaped_bits_follow_odd_runs_of_backslashes_across_blocks() {
        for start in 0..128_usize {
            for length in 0..(129 - start).min(70) {
                let backslashes: u128 = if length == 0 {
                    0
                } else {
                    (u128::MAX >> (128 - length)) << start
                };
                let mut carry = 0;
                let low = escaped_bits(backslashes as u64, &mut carry);
                let high = escaped_bits((backslashes >> 64) as u64, &mut carry);
                let mut expected: u128 = 0;
                let mut escaping = false;
                for bit in 0..128 {
                    if escaping {
                        expected |= 1 << bit;
                        escaping = false;
                    } else {
                        escaping = backslashes >> bit & 1 == 1;
                    }
                }
                assert_eq!(u128::from(low) | (u128::from(high) << 64), expected, "{start} {length}");
                assert_eq!(carry, u64::from(escaping), "{start} {length}");
            }
        }
    }

    #[test]
    fn prefix_xor_is_the_parity_of_the_bits_at_or_below() {
        for bits in [0_u64, 1, 0b1001, 0x8000_0000_0000_0001, u64::MAX, 0x0123_4567_89ab_cdef] {
            let expected = (0..64).fold(0_u64, |mask, bit| {
                mask | (u64::from((bits & (u64::MAX >> (63 - bit))).count_ones() % 2) << bit)
            });
            assert_eq!(prefix_xor(bits), expected, "{bits:x}");
        }
    }

    /// The page's classifier and the SSE2 one agree on every byte value.
    #[test]
    fn the_portable_classifier_agrees_with_the_native_one() {
        for first in (0..=255_u8).step_by(64) {
            let block: [u8; 64] = std::array::from_fn(|i| first.wrapping_add(i as u8));
            assert_eq!(words::classify(&block), classify(&block), "{first}");
        }
    }

    /// A run of digits ends at the first other byte, wherever it sits in
    /// the eight bytes read at once (non-ASCII ones too).
    #[test]
    fn a_run_of_digits_ends_at_the_first_other_byte() {
        for length in 1..20 {
            for after in ["", ",", "]", ".5", "e3", "é", "😀", ":", "/", "0a"] {
                let text = format!("{}{after}", "7".repeat(length));
                let scanner = Scanner {
                    text: &text,
                    bytes: text.as_bytes(),
                    pos: 0,
                    jsonc: false,
                };
                let expected = text.bytes().take_while(u8::is_ascii_digit).count();
                assert_eq!(scanner.digits(0), expected, "{text}");
            }
        }
    }

    /// The string skip stops at the first quote, backslash or control byte,
    /// wherever it sits in the sixteen or eight bytes read at once.
    #[test]
    fn the_string_skip_stops_at_the_first_stop_byte() {
        for length in 0..40 {
            for stop in [b'"', b'\\', b'\n', 0x1f, 0] {
                let mut bytes = "é".repeat(20).into_bytes()[..length].to_vec();
                bytes.push(stop);
                bytes.extend_from_slice(b" \" tail");
                assert_eq!(skip_plain_string_bytes(&bytes, 0), length, "{length} {stop}");
                assert_eq!(skip_plain_string_bytes(&bytes[..length], 0), length);
            }
        }
    }

    fn quick(text: &str) -> bool {
        quick_check(text, &mut |_, _| {}, &mut |_| {})
    }

    /// The bitmask check accepts only what the scan accepts: every boundary
    /// document shifted across a block, and each with every byte replaced
    /// by each byte the grammar turns on (or cut short there), agree with
    /// the scan wherever the quick check says yes; and it says yes to the
    /// valid ones, so the scan runs only for errors.
    #[test]
    fn the_quick_check_accepts_only_what_the_scan_accepts() {
        let mut documents = boundary_documents();
        documents.extend(
            [
                r#"{"a": [1, -0.5e+3, 0, 1E9, true, false, null, "x\u00e9\n\/"], "": {}, "b": [[], [{}]]}"#,
                "[1.0,2e-3,-7]",
                "\"\\u12ab\"",
                "-0",
                "  {\"k\" : \"v\" }\r\n",
            ]
            .map(String::from),
        );
        let replacements = b"{}[]:,\"\\ \t\n\x01\x1f0123456789-+.eEtrufalsn/xY_y\x7f";
        for document in &documents {
            for shift in [0, 1, 7, 63] {
                let text = format!("{}{document}", " ".repeat(shift));
                assert!(quick(&text), "{text:?}");
                // The marks it keeps are the writing pass's stage 1.
                let kept = check_keeping_marks(&text, false).ok().flatten();
                let found: Vec<u64> = Blocks::new(text.as_bytes(), 0).map(|block| block.marks).collect();
                assert_eq!(kept, Some(found), "{text:?}");
                let bytes = text.as_bytes();
                for at in 0..bytes.len() {
                    let cut = &text[..(0..=at).rev().find(|&i| text.is_char_boundary(i)).unwrap_or(0)];
                    assert!(!quick(cut) || scan(cut, false, &mut Discard).is_ok(), "{cut:?}");
                    if !bytes[at].is_ascii() {
                        continue;
                    }
                    for &byte in replacements {
                        let mut mutated = bytes.to_vec();
                        mutated[at] = byte;
                        let mutated = String::from_utf8(mutated).unwrap_or_default();
                        let (quick, scanned) = (quick(&mutated), scan(&mutated, false, &mut Discard).is_ok());
                        assert!(!quick || scanned, "{mutated:?}");
                        assert_eq!(check_syntax(&mutated, false).is_ok(), scanned, "{mutated:?}");
                    }
                }
            }
        }
    }

    /// Nesting at the cap, a byte order mark, trailing commas: the quick
    /// check's verdicts, and `check_syntax`'s errors are the scan's.
    #[test]
    fn the_quick_check_at_the_edges() {
        let deepest = "[".repeat(MAX_DEPTH) + &"]".repeat(MAX_DEPTH);
        assert!(quick(&deepest));
        let too_deep = "[".repeat(MAX_DEPTH + 1) + &"]".repeat(MAX_DEPTH + 1);
        assert!(!quick(&too_deep));
        let objects = "{\"a\":".repeat(MAX_DEPTH - 1) + "{}" + &"}".repeat(MAX_DEPTH - 1);
        assert!(quick(&objects));
        for text in [
            "\u{feff}[]",
            "[1,]",
            "{\"a\":1,}",
            "",
            " ",
            "[1 2]",
            "\"a",
            "[\"\\\"]",
            "01",
            "1.",
            "--1",
            "[tru]",
            "{1:2}",
            "{\"a\"}",
            "[]]",
            "[[]",
            "\"\\u12g4\"",
            "\"\t\"",
            "[1,\n2]x",
            "nul",
            "truefalse",
            "1 2",
        ] {
            assert!(!quick(text), "{text:?}");
            assert_eq!(
                check_syntax(text, false).unwrap_err(),
                scan(text, false, &mut Discard).unwrap_err().locate(text),
                "{text:?}"
            );
        }
        // The commas it reports are the scan's separators.
        let text = r#"{"a": [1, "x", {"k": [true, {}], "l": "v,w"}], "b": [[], ["s", 2]], "c": null}"#;
        let mut separators = Separators(Vec::new());
        scan(text, false, &mut separators).unwrap_or_else(|_| panic!("valid"));
        let mut commas = Vec::new();
        let mut marks = Vec::new();
        assert!(quick_check(
            text,
            &mut |at, open: &OpenLevels| commas.push((at, open.to_vec())),
            &mut |block| marks.push(block)
        ));
        assert_eq!(commas, separators.0);
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
