//! Pretty-printing and minifying JSON, keeping the text of every number and
//! string exactly as written.
//!
//! The scanner ([`crate::scan`]) validates and reports tokens as raw
//! text; the writer lays them out in the same pass, so a 100 MB document formats
//! at memory speed and `1.0`, `1e3` or a 20-digit integer come out unchanged:
//! values never go through a number type. `sort_keys` builds a flat tree of
//! borrowed tokens, sorts members by key (code points), and replays it.
//! Streaming checks the whole text first, then writes strict JSON in a
//! trusting pass that classifies 64 bytes at a time and copies each token
//! as one slice (`write_strict`); JSONC is replayed token by token. On one
//! thread the check is the bitmask one (`scan::quick_check`), which keeps
//! each block's marks (an eighth of the text's size) so that the writing
//! pass does not classify the text again.
//!
//! Strings are copied as written: a valid JSON string needs no re-escaping, and
//! keeping `\u00e9` as `\u00e9` keeps the diff against the original small.

use std::borrow::Cow;

use crate::parse::JsonParseError;
use crate::scan::{Block, Blocks, Sink, decode_key, replay_checked, scan, skip_checked_space};

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
    let mut writer = Writer::new(text, options.layout, None);
    write_document(text, options, &mut writer)?;
    writer.put_byte(b'\n');
    let mut out = writer.out;
    out.truncate(writer.len);
    // Cannot fail: the writer copies whole `&str` slices and ASCII only.
    Ok(String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()))
}

/// Bytes [`format_streaming`] hands over at a time when it writes on one
/// thread: big enough that each hand-over is one cheap write, small enough to
/// stay in the cache.
pub const STREAM_CHUNK: usize = 256 * 1024;

/// Formats `text` as [`format`] does, handing the output to `emit` in pieces
/// (each whole UTF-8, the last ending with the newline) instead of holding it:
/// a 100 MB document pretty-prints in a few fixed buffers. The text is checked
/// first, so on a syntax error nothing was emitted.
///
/// Natively, a document of more than [`PARALLEL_SLICE`] bytes is written on
/// every core, a slice each (see [`format_streaming_in_slices`]); the page's
/// wasm has one thread and writes in pieces of [`STREAM_CHUNK`].
pub fn format_streaming(
    text: &str,
    options: &FormatOptions,
    emit: &mut dyn FnMut(&[u8]),
) -> Result<(), JsonParseError> {
    if options.sort_keys {
        // Sorting scans the whole text into its tree before writing anything.
        let mut writer = Writer::new(text, options.layout, Some(emit));
        write_document(text, options, &mut writer)?;
        writer.put_byte(b'\n');
        writer.flush();
        return Ok(());
    }
    // The plain layout writes as it goes, so the text is checked first; the
    // writing pass then only cuts tokens, trusting the grammar.
    #[cfg(not(target_arch = "wasm32"))]
    return parallel::format_streaming(text, options, PARALLEL_SLICE, writing_threads(), emit);
    #[cfg(target_arch = "wasm32")]
    {
        let marks = crate::scan::check_keeping_marks(text, options.jsonc)?;
        write_checked(text, options, marks, emit);
        Ok(())
    }
}

/// Writes checked `text` in the plain layout on the calling thread, in
/// pieces of [`STREAM_CHUNK`], from the check's stage 1 `marks` if it kept them.
fn write_checked(text: &str, options: &FormatOptions, marks: Option<Vec<u64>>, emit: &mut dyn FnMut(&[u8])) {
    let mut writer = Writer::new(text, options.layout, Some(emit));
    if options.jsonc {
        replay_checked(text, true, &mut writer);
    } else if let Some(marks) = marks {
        let blocks = marks.iter().enumerate().map(|(k, &marks)| Block { at: 64 * k, marks });
        write_strict_blocks(text, 0, blocks, &mut writer);
    } else {
        write_strict(text, 0, &mut writer);
    }
    writer.put_byte(b'\n');
    writer.flush();
}

/// Input bytes between the starts of two slices the parallel writer formats
/// on different threads: each thread holds about two slices' output (twice
/// the input when pretty), whatever the size of the document.
#[cfg(not(target_arch = "wasm32"))]
pub const PARALLEL_SLICE: usize = 1 << 20;

/// More threads than this would wait on the one thread that emits.
#[cfg(not(target_arch = "wasm32"))]
const MAX_WRITING_THREADS: usize = 8;

/// The threads [`format_streaming`] formats on: the machine's cores, at most [`MAX_WRITING_THREADS`].
#[cfg(not(target_arch = "wasm32"))]
pub fn writing_threads() -> usize {
    std::thread::available_parallelism()
        .map_or(1, usize::from)
        .min(MAX_WRITING_THREADS)
}

/// [`format_streaming`] without `sort_keys`, with the document cut into
/// slices about `slice_bytes` apart, formatted on `threads` threads and
/// emitted in order, one piece per slice: the same bytes as [`format`]
/// returns. A document with a single slice (or `threads` below 2) is written
/// on the calling thread. Tests give small slices so that small documents
/// take the parallel path.
#[cfg(not(target_arch = "wasm32"))]
pub fn format_streaming_in_slices(
    text: &str,
    options: &FormatOptions,
    slice_bytes: usize,
    threads: usize,
    emit: &mut dyn FnMut(&[u8]),
) -> Result<(), JsonParseError> {
    if options.sort_keys {
        return format_streaming(text, options, emit);
    }
    parallel::format_streaming(text, options, slice_bytes, threads, emit)
}

fn write_document(text: &str, options: &FormatOptions, writer: &mut Writer<'_, '_>) -> Result<(), JsonParseError> {
    if options.sort_keys {
        let mut tree = TreeBuilder::default();
        scan(text, options.jsonc, &mut tree).map_err(|e| e.locate(text))?;
        tree.sort_and_replay(writer);
    } else {
        scan(text, options.jsonc, writer).map_err(|e| e.locate(text))?;
    }
    Ok(())
}

/// Room to reserve for the output of `input` bytes: the output of a pretty
/// document is about twice the minified input.
fn output_estimate(input: usize, layout: Layout) -> usize {
    input.saturating_mul(if layout == Layout::Minify { 1 } else { 2 })
}

/// Where a streaming writer hands its chunks.
type Emit<'e> = &'e mut dyn FnMut(&[u8]);

/// A copy of at most this many bytes is one fixed-size block move (what
/// follows the copied bytes in the block is overwritten by the next write),
/// instead of a `memcpy` call per token.
const BLOCK: usize = 32;

/// `bytes` followed by zeros, as a block [`Writer::put`] can copy whole.
const fn padded(bytes: &[u8]) -> [u8; BLOCK] {
    let mut block = [0; BLOCK];
    let mut i = 0;
    while i < bytes.len() {
        block[i] = bytes[i];
        i += 1;
    }
    block
}

const PRETTY_COLON: [u8; BLOCK] = padded(b": ");
const MINIFIED_COLON: [u8; BLOCK] = padded(b":");

/// Appends `bytes` to `out[..*len]`, which `padded` starts with: when it
/// runs on for a block, a short `bytes` is copied as that block.
#[inline(always)]
fn put_into(out: &mut Vec<u8>, len: &mut usize, bytes: &[u8], padded: &[u8]) {
    let end = *len + bytes.len();
    if end + 2 * BLOCK > out.len() {
        out.resize((end + 2 * BLOCK) * 2, 0);
    }
    let block: Option<&[u8; BLOCK]> = padded.first_chunk();
    let room: Option<&mut [u8; BLOCK]> = out.get_mut(*len..).and_then(|room| room.first_chunk_mut());
    match (block, room) {
        // Arrays, so the copy is a fixed-size move whatever the inliner does.
        (Some(block), Some(room)) if bytes.len() <= BLOCK => *room = *block,
        // 2.4 KB of the page's wasm, where the size budget is tight.
        #[cfg(target_arch = "wasm32")]
        _ => out[*len..end].copy_from_slice(bytes),
        #[cfg(not(target_arch = "wasm32"))]
        _ => {
            // Two blocks for a token up to twice as long (many strings are):
            // a tenth off the writing pass of the benchmark's records.
            let blocks: Option<&[u8; 2 * BLOCK]> = padded.first_chunk();
            let room: Option<&mut [u8; 2 * BLOCK]> = out.get_mut(*len..).and_then(|room| room.first_chunk_mut());
            match (blocks, room) {
                (Some(blocks), Some(room)) if bytes.len() <= 2 * BLOCK => *room = *blocks,
                _ => out[*len..end].copy_from_slice(bytes),
            }
        }
    }
    *len = end;
}

/// Appends `byte` to `out[..*len]`.
#[inline(always)]
fn put_byte_into(out: &mut Vec<u8>, len: &mut usize, byte: u8) {
    if *len + BLOCK > out.len() {
        out.resize((*len + BLOCK) * 2, 0);
    }
    out[*len] = byte;
    *len += 1;
}

/// Writes the reported document in the chosen layout.
struct Writer<'t, 'e> {
    /// The document: tokens are slices of it, so the bytes after a short token
    /// are there to fill its block.
    text: &'t [u8],
    /// The output so far is `out[..len]`; the rest is room for blocks. Only
    /// whole `&str` slices and ASCII go in, so `out[..len]` is always UTF-8.
    out: Vec<u8>,
    len: usize,
    /// Where full chunks of `out` go when streaming; `None` keeps everything in `out`.
    emit: Option<Emit<'e>>,
    /// `",\n"` and enough indentation for the deepest level seen so far, and
    /// a block more (just `","` and the block when minifying): a separator is
    /// one copy of a part of it.
    separator: Vec<u8>,
    /// The length of the separator at depth 0: `",\n"` or `","`.
    line_start: usize,
    /// Indentation bytes per level, and the byte they are made of.
    unit: usize,
    fill: u8,
    /// What follows a key, `": "` or `":"`, and its length.
    colon: &'static [u8; BLOCK],
    colon_len: usize,
    depth: usize,
    /// Nothing written yet in the innermost open container.
    first: bool,
    /// The next value is a member's value, written right after its key.
    after_key: bool,
}

impl<'t, 'e> Writer<'t, 'e> {
    fn new(text: &'t str, layout: Layout, emit: Option<Emit<'e>>) -> Self {
        // Streaming flushes at STREAM_CHUNK; in memory the buffer grows.
        let capacity = if emit.is_some() {
            STREAM_CHUNK
        } else {
            output_estimate(text.len(), layout)
        };
        Self::with_buffer(text, layout, emit, vec![0; capacity + 2 * BLOCK])
    }

    /// A writer whose output goes into `out` (its length is the room the
    /// writer has before it grows it, its bytes are overwritten).
    fn with_buffer(text: &'t str, layout: Layout, emit: Option<Emit<'e>>, out: Vec<u8>) -> Self {
        let (fill, unit) = match layout {
            Layout::Pretty(Indent::Tab) => (b'\t', 1),
            Layout::Pretty(Indent::Spaces(n)) => (b' ', usize::from(n)),
            Layout::Minify => (b' ', 0),
        };
        let pretty = layout != Layout::Minify;
        let line_start = if pretty { 2 } else { 1 };
        let mut separator = b",\n"[..line_start].to_vec();
        separator.resize(line_start + unit * 16 + BLOCK, fill);
        Writer {
            text: text.as_bytes(),
            out,
            len: 0,
            emit,
            separator,
            line_start,
            unit,
            fill,
            colon: if pretty { &PRETTY_COLON } else { &MINIFIED_COLON },
            colon_len: if pretty { 2 } else { 1 },
            depth: 0,
            first: true,
            after_key: false,
        }
    }

    /// Hands the output to `emit` when streaming. Called between tokens, so
    /// every chunk ends on a token boundary and is whole UTF-8.
    fn flush(&mut self) {
        if let Some(emit) = &mut self.emit {
            emit(&self.out[..self.len]);
            self.len = 0;
        }
    }

    #[inline]
    fn flush_if_full(&mut self) {
        if self.len >= STREAM_CHUNK {
            self.flush();
        }
    }

    /// Appends `bytes`, which `padded` starts with (see [`put_into`]).
    #[inline(always)]
    fn put(&mut self, bytes: &[u8], padded: &[u8]) {
        put_into(&mut self.out, &mut self.len, bytes, padded);
    }

    #[inline(always)]
    fn put_byte(&mut self, byte: u8) {
        put_byte_into(&mut self.out, &mut self.len, byte);
    }

    /// Appends a token, a slice of the document (or of anything else).
    #[inline(always)]
    fn put_token(&mut self, raw: &str) {
        let raw = raw.as_bytes();
        let offset = (raw.as_ptr() as usize).wrapping_sub(self.text.as_ptr() as usize);
        let rest = match self.text.get(offset..) {
            Some(rest) if rest.as_ptr() == raw.as_ptr() => rest,
            _ => raw,
        };
        self.put(raw, rest);
    }

    /// Appends what goes before an item of the innermost container (`first`:
    /// the first one) or, at `close`, before its closing bracket: a comma for
    /// an item that is not the first, then (pretty) a line break and the
    /// indentation of `depth`. One copy of a part of `separator`.
    #[inline(always)]
    fn write_separator(&mut self, close: bool) {
        let wanted = self.line_start + self.unit * self.depth;
        if self.separator.len() < wanted + BLOCK {
            self.separator.resize((wanted + BLOCK) * 2, self.fill);
        }
        let from = usize::from(self.first || close);
        let separator = std::mem::take(&mut self.separator);
        self.put(&separator[from..wanted], &separator[from..]);
        self.separator = separator;
    }

    #[inline(always)]
    fn before_value(&mut self) {
        if self.after_key {
            self.after_key = false;
            return;
        }
        if self.depth > 0 {
            self.write_separator(false);
        }
        self.first = false;
    }
}

impl<'a> Sink<'a> for Writer<'_, '_> {
    #[inline(always)]
    fn begin(&mut self, open: u8, _: usize) {
        self.before_value();
        self.put_byte(open);
        self.depth += 1;
        self.first = true;
    }

    #[inline(always)]
    fn end(&mut self, close: u8, _: usize) {
        self.depth -= 1;
        if !self.first {
            self.write_separator(true);
        }
        self.put_byte(close);
        self.first = false;
        self.flush_if_full();
    }

    #[inline(always)]
    fn key(&mut self, raw: &'a str) {
        self.write_separator(false);
        self.put_token(raw);
        let colon = self.colon;
        self.put(&colon[..self.colon_len], colon);
        self.first = false;
        self.after_key = true;
    }

    #[inline(always)]
    fn scalar(&mut self, raw: &'a str) {
        self.before_value();
        self.put_token(raw);
        self.flush_if_full();
    }
}

/// Writes strict JSON `text`, which [`scan`] accepted, from byte `from` (its
/// start, or a comma between two items with `writer.depth` containers open,
/// see [`Sink::separator`]) to its end, as the writer's [`Sink`] would from
/// the tokens [`replay_checked`] reports: the same bytes. Stage 1
/// ([`Blocks`]) marks the structural bytes and the white space outside
/// strings, 64 bytes at a time; a string, number or literal is the run
/// between two marks and is copied whole, and the layout is written at each
/// structural byte. Neither keys and values nor objects and arrays need
/// telling apart here: a key is followed by `:`, and every item by `,` or
/// its container's closing bracket.
fn write_strict(text: &str, from: usize, writer: &mut Writer<'_, '_>) {
    write_strict_blocks(text, from, Blocks::new(text.as_bytes(), from), writer);
}

/// [`write_strict`] with its stage 1 given: `blocks` are those of
/// [`Blocks`] from `from` (kept by the check, [`crate::scan::check_keeping_marks`]).
#[inline(always)]
fn write_strict_blocks(text: &str, from: usize, blocks: impl Iterator<Item = Block>, writer: &mut Writer<'_, '_>) {
    let bytes = text.as_bytes();
    // The writer's state in locals, so that it stays in registers (through
    // the writer, every copy stored and reloaded its length).
    let mut out = std::mem::take(&mut writer.out);
    let mut len = writer.len;
    let mut separator = std::mem::take(&mut writer.separator);
    let (line_start, unit, fill) = (writer.line_start, writer.unit, writer.fill);
    let (colon, colon_len) = (writer.colon, writer.colon_len);
    // `separator[..line]` is `",\n"` and the indentation of the innermost
    // open container's items; without its comma, what goes before its first.
    let mut depth = writer.depth;
    let mut line = line_start + unit * depth;
    if separator.len() < line + BLOCK {
        separator.resize((line + BLOCK) * 2, fill);
    }
    // A bracket was just opened: its first line is written before its first
    // item, or not at all when it is empty.
    let mut opened = false;
    // Where the text after the last mark starts: the next token, after white space.
    let mut run = from;
    for block in blocks {
        let mut marks = block.marks;
        while marks != 0 {
            let bit = marks.trailing_zeros() as usize;
            marks &= marks - 1;
            let at = block.at + bit;
            if at > run {
                let start = skip_checked_space(bytes, run);
                if let Some(token) = bytes.get(start..at).filter(|token| !token.is_empty()) {
                    if opened {
                        put_into(&mut out, &mut len, &separator[1..line], &separator[1..]);
                        opened = false;
                    }
                    put_into(&mut out, &mut len, token, &bytes[start..]);
                }
            }
            run = at + 1;
            match bytes.get(at).copied().unwrap_or(b' ') {
                open @ (b'{' | b'[') => {
                    if opened {
                        put_into(&mut out, &mut len, &separator[1..line], &separator[1..]);
                    }
                    put_byte_into(&mut out, &mut len, open);
                    depth += 1;
                    line += unit;
                    if separator.len() < line + BLOCK {
                        separator.resize((line + BLOCK) * 2, fill);
                    }
                    opened = true;
                }
                close @ (b'}' | b']') => {
                    depth = depth.saturating_sub(1);
                    line = line_start + unit * depth;
                    if !opened {
                        put_into(&mut out, &mut len, &separator[1..line], &separator[1..]);
                    }
                    opened = false;
                    put_byte_into(&mut out, &mut len, close);
                    if len >= STREAM_CHUNK
                        && let Some(emit) = &mut writer.emit
                    {
                        emit(&out[..len]);
                        len = 0;
                    }
                }
                b',' => {
                    put_into(&mut out, &mut len, &separator[..line], &separator);
                    if len >= STREAM_CHUNK
                        && let Some(emit) = &mut writer.emit
                    {
                        emit(&out[..len]);
                        len = 0;
                    }
                }
                b':' => put_into(&mut out, &mut len, &colon[..colon_len], colon),
                // The first byte of white space: it ended the run before it.
                _ => {}
            }
        }
    }
    // The last token: a document that is a scalar, or the first item of a
    // slice that ends with it (at a checkpoint's comma).
    let start = skip_checked_space(bytes, run);
    if let Some(token) = bytes.get(start..).filter(|token| !token.is_empty()) {
        if opened {
            put_into(&mut out, &mut len, &separator[1..line], &separator[1..]);
        }
        put_into(&mut out, &mut len, token, token);
    }
    writer.out = out;
    writer.len = len;
    writer.separator = separator;
    writer.depth = depth;
}

/// The plain layout on every core: the check records a checkpoint at a comma
/// every `slice_bytes` or so (the containers open there are all a writer
/// needs to start at it), then each thread formats whole slices into its own
/// buffers, taking every `threads`-th slice, and the calling thread emits
/// them in document order. A thread is at most one finished slice ahead of
/// the one being emitted, so memory stays a few slices' output per thread.
#[cfg(not(target_arch = "wasm32"))]
mod parallel {
    use std::ops::ControlFlow;
    use std::sync::mpsc::{Receiver, Sender, channel, sync_channel};

    use super::{BLOCK, FormatOptions, JsonParseError, Writer, output_estimate, write_checked, write_strict};
    use crate::scan::{MAX_DEPTH, Sink, check_keeping_marks, replay_checked, replay_checked_from, scan, scan_tail};

    /// A comma between two items, and the containers open there (outermost
    /// first, `true` for an object).
    struct Checkpoint {
        at: usize,
        open: Vec<bool>,
    }

    /// The check's sink: keeps the first comma past every `spacing` bytes,
    /// and stops at the comma at `stop` (where the other thread's check began).
    struct Checkpoints {
        spacing: usize,
        next: usize,
        list: Vec<Checkpoint>,
        stop: Option<usize>,
        stopped: bool,
    }

    impl Checkpoints {
        fn new(spacing: usize, stop: Option<usize>) -> Self {
            Checkpoints {
                spacing,
                next: spacing,
                list: Vec::new(),
                stop,
                stopped: false,
            }
        }

        fn add(&mut self, at: usize, open: impl FnOnce() -> Vec<bool>) {
            if at >= self.next {
                self.list.push(Checkpoint { at, open: open() });
                self.next = at + self.spacing;
            }
        }
    }

    impl<'a> Sink<'a> for Checkpoints {
        fn begin(&mut self, _: u8, _: usize) {}
        fn end(&mut self, _: u8, _: usize) {}
        fn key(&mut self, _: &'a str) {}
        fn scalar(&mut self, _: &'a str) {}

        #[inline(always)]
        fn separator(&mut self, at: usize, open: &[bool]) -> ControlFlow<()> {
            if self.stop == Some(at) {
                self.list.push(Checkpoint {
                    at,
                    open: open.to_vec(),
                });
                self.stopped = true;
                return ControlFlow::Break(());
            }
            self.add(at, || open.to_vec());
            ControlFlow::Continue(())
        }
    }

    /// Checks `text` and returns the checkpoints `spacing` bytes apart. A
    /// strict document of two slices or more is checked on two threads,
    /// from its start and from a comma near its middle (see [`scan_tail`]);
    /// when the two do not join up (that comma was inside a string, or either
    /// half has an error) the first thread's check is the whole check, or the
    /// whole text is checked again on one thread: the errors are always
    /// those of [`scan`].
    fn check(text: &str, jsonc: bool, spacing: usize, threads: usize) -> Result<Vec<Checkpoint>, JsonParseError> {
        let middle = text.len() / 2;
        let split = !jsonc && threads >= 2 && text.len() >= 2 * spacing;
        let comma = text.as_bytes()[middle..]
            .iter()
            .position(|&b| b == b',')
            .map(|i| middle + i)
            .filter(|_| split);
        let Some(comma) = comma else {
            let mut whole = Checkpoints::new(spacing, None);
            scan(text, jsonc, &mut whole).map_err(|e| e.locate(text))?;
            return Ok(whole.list);
        };
        let mut head = Checkpoints::new(spacing, Some(comma));
        let (head_checked, tail) = std::thread::scope(|scope| {
            let tail = scope.spawn(|| {
                // Checkpoints as `Checkpoints` keeps them, their containers
                // told as (how many of the comma's are closed, opened since).
                let mut next = comma + spacing;
                let mut relative = Vec::new();
                let tail = scan_tail(text, comma, &mut |at, closed, open: &[bool]| {
                    if at >= next {
                        relative.push((at, closed, open.to_vec()));
                        next = at + spacing;
                    }
                });
                tail.map(|tail| (tail, relative))
            });
            let head_checked = scan(text, false, &mut head);
            // A panic in the tail's check is a bug; passing it on is the scope's join.
            (head_checked, tail.join().unwrap_or(None))
        });
        head_checked.map_err(|e| e.locate(text))?;
        if !head.stopped {
            // The comma was inside a string: the first thread checked everything.
            return Ok(head.list);
        }
        let at_comma = head
            .list
            .last()
            .map(|checkpoint| checkpoint.open.clone())
            .unwrap_or_default();
        let joined = tail.filter(|(tail, _)| {
            tail.closes.iter().rev().eq(at_comma.iter()) && at_comma.len() + tail.deepest <= MAX_DEPTH
        });
        let Some((_, relative)) = joined else {
            let mut whole = Checkpoints::new(spacing, None);
            scan(text, false, &mut whole).map_err(|e| e.locate(text))?;
            return Ok(whole.list);
        };
        let mut list = head.list;
        list.extend(relative.into_iter().map(|(at, closed, opened)| {
            let mut open = at_comma[..at_comma.len() - closed].to_vec();
            open.extend(opened);
            Checkpoint { at, open }
        }));
        Ok(list)
    }

    /// A formatted slice: the output is `bytes[..len]` (the rest is room the
    /// writer used for its block copies).
    struct Piece {
        bytes: Vec<u8>,
        len: usize,
    }

    pub(super) fn format_streaming(
        text: &str,
        options: &FormatOptions,
        slice_bytes: usize,
        threads: usize,
        emit: &mut dyn FnMut(&[u8]),
    ) -> Result<(), JsonParseError> {
        if threads < 2 {
            // No checkpoints to keep: the plain check.
            let marks = check_keeping_marks(text, options.jsonc)?;
            write_checked(text, options, marks, emit);
            return Ok(());
        }
        let checkpoints = check(text, options.jsonc, slice_bytes.max(1), threads)?;
        if checkpoints.is_empty() {
            write_checked(text, options, None, emit);
            return Ok(());
        }
        let slices = checkpoints.len() + 1;
        let threads = threads.min(slices);
        std::thread::scope(|scope| {
            let mut finished: Vec<Receiver<Piece>> = Vec::with_capacity(threads);
            let mut recycle: Vec<Sender<Piece>> = Vec::with_capacity(threads);
            for first in 0..threads {
                // Capacity 1: a thread waits once it is a slice ahead.
                let (done, finished_here) = sync_channel::<Piece>(1);
                let (recycle_here, returned) = channel::<Piece>();
                let checkpoints = &checkpoints;
                scope.spawn(move || {
                    for slice in (first..slices).step_by(threads) {
                        let reused = returned.try_recv().ok().map(|piece| piece.bytes);
                        let piece = format_slice(text, options, checkpoints, slice, reused);
                        if done.send(piece).is_err() {
                            return;
                        }
                    }
                });
                finished.push(finished_here);
                recycle.push(recycle_here);
            }
            for slice in 0..slices {
                let Ok(piece) = finished[slice % threads].recv() else {
                    // The thread panicked; the scope passes its panic on.
                    return;
                };
                emit(&piece.bytes[..piece.len]);
                // A thread that has no slice left has dropped its receiver.
                let _ = recycle[slice % threads].send(piece);
            }
        });
        Ok(())
    }

    /// Formats slice `index`: from the start of the document (the first) or
    /// from checkpoint `index - 1`, to the next checkpoint or the end and its
    /// newline (the last).
    fn format_slice(
        text: &str,
        options: &FormatOptions,
        checkpoints: &[Checkpoint],
        index: usize,
        reused: Option<Vec<u8>>,
    ) -> Piece {
        let start = index.checked_sub(1).map(|previous| &checkpoints[previous]);
        let end = checkpoints.get(index).map_or(text.len(), |checkpoint| checkpoint.at);
        let slice = &text[..end];
        let buffer = reused.unwrap_or_else(|| {
            let from = start.map_or(0, |checkpoint| checkpoint.at);
            vec![0; output_estimate(end - from, options.layout) + 2 * BLOCK]
        });
        let mut writer = Writer::with_buffer(text, options.layout, None, buffer);
        match start {
            None if !options.jsonc => write_strict(slice, 0, &mut writer),
            Some(checkpoint) if !options.jsonc => {
                writer.depth = checkpoint.open.len();
                write_strict(slice, checkpoint.at, &mut writer);
            }
            None => replay_checked(slice, options.jsonc, &mut writer),
            Some(checkpoint) => {
                // Inside containers, after an item: the comma is the writer's to place.
                writer.depth = checkpoint.open.len();
                writer.first = false;
                replay_checked_from(slice, checkpoint.at, &checkpoint.open, &mut writer);
            }
        }
        if end == text.len() {
            writer.put_byte(b'\n');
        }
        Piece {
            bytes: writer.out,
            len: writer.len,
        }
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

    fn sort_and_replay(mut self, writer: &mut Writer<'_, '_>) {
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
    use crate::scan::MAX_DEPTH;

    fn pretty(text: &str) -> String {
        format(text, &FormatOptions::default()).unwrap()
    }

    fn error(text: &str) -> JsonParseError {
        format(text, &FormatOptions::default()).unwrap_err()
    }

    fn streamed(text: &str, options: &FormatOptions) -> Result<(String, usize), JsonParseError> {
        let mut out = Vec::new();
        let mut chunks = 0;
        format_streaming(text, options, &mut |chunk: &[u8]| {
            assert!(std::str::from_utf8(chunk).is_ok(), "every chunk is whole UTF-8");
            out.extend_from_slice(chunk);
            chunks += 1;
        })?;
        Ok((String::from_utf8(out).unwrap(), chunks))
    }

    #[test]
    fn streaming_writes_what_format_returns_in_chunks() {
        let element = r#"{"name":"\u00e9t\u00e9 ünïcode","n":[1.50,-2e3,true,null],"z":{"b":1,"a":2}}"#;
        let big = format!("[{}]", vec![element; 20_000].join(","));
        for options in [
            FormatOptions::default(),
            FormatOptions {
                layout: Layout::Minify,
                ..Default::default()
            },
            FormatOptions {
                sort_keys: true,
                ..Default::default()
            },
        ] {
            let (text, chunks) = streamed(&big, &options).unwrap();
            assert_eq!(text, format(&big, &options).unwrap(), "{options:?}");
            assert!(chunks > 1, "{options:?}: {chunks} chunk(s)");
        }
        assert_eq!(
            streamed("7", &FormatOptions::default()).unwrap(),
            ("7\n".to_string(), 1)
        );
    }

    /// The streamed pretty output comes from the trusting second pass: it must
    /// cut every token as the validating scan does, in every corner of the grammar.
    #[test]
    fn streaming_cuts_tokens_as_the_validating_scan_does() {
        let deep = format!("{}0{}", "[{\"k\":".repeat(70), "}]".repeat(70));
        let texts = [
            r#"{"a,b:c}": "x\"]}, {\\", "\u00e9\"": [1e-3, -0, 2.5E+7, true, false, null], "": {}}"#,
            "  [ [] , {} , [ { } ] ]  ",
            deep.as_str(),
            "-12.5e3",
            "\"\\\\\"",
        ];
        for text in texts {
            for layout in [
                Layout::Minify,
                Layout::Pretty(Indent::Spaces(4)),
                Layout::Pretty(Indent::Tab),
            ] {
                let options = FormatOptions {
                    layout,
                    ..Default::default()
                };
                assert_eq!(
                    streamed(text, &options).unwrap().0,
                    format(text, &options).unwrap(),
                    "{text}"
                );
            }
        }
        let jsonc = FormatOptions {
            jsonc: true,
            ..Default::default()
        };
        let commented =
            "\u{feff}// head\n{ /* a } */ \"a\": [1, 2, /* ] */ ], // , \"b\": 1\n \"c\" /* : */ : {\"d\": null,},\n}";
        assert_eq!(
            streamed(commented, &jsonc).unwrap().0,
            format(commented, &jsonc).unwrap()
        );
        assert_eq!(
            format(commented, &jsonc).unwrap(),
            "{\n  \"a\": [\n    1,\n    2\n  ],\n  \"c\": {\n    \"d\": null\n  }\n}\n"
        );
    }

    /// The writing pass reads 64 bytes at a time (`scan::Blocks`): each
    /// document, shifted so that its quotes, backslash runs, multibyte
    /// characters and white space cross a block boundary at every place,
    /// is written as the validating scan's writer writes it, on one thread
    /// and in parallel slices.
    #[test]
    fn the_writing_pass_is_exact_across_block_boundaries() {
        for document in crate::scan::boundary_documents() {
            for shift in 0..70 {
                let text = format!("{}{document}", " \n\t\r".repeat(18).get(..shift).unwrap_or_default());
                for layout in [
                    Layout::Minify,
                    Layout::Pretty(Indent::Spaces(2)),
                    Layout::Pretty(Indent::Tab),
                ] {
                    let options = FormatOptions {
                        layout,
                        ..Default::default()
                    };
                    let expected = format(&text, &options).unwrap();
                    assert_eq!(streamed(&text, &options).unwrap().0, expected, "{shift} {text:?}");
                    assert_eq!(sliced(&text, &options, 1, 2).0, expected, "{shift} {text:?}");
                    // One thread: from the marks the bitmask check kept.
                    assert_eq!(sliced(&text, &options, 1, 1).0, expected, "{shift} {text:?}");
                }
            }
        }
        // Longer than one chunk, so that the chunks break between tokens.
        let long = format!(
            "[{}]",
            vec![r#"{"k\"\\": ["\\\"", 1e5, {}], "😀": "x"}"#; 20_000].join(" ,\n")
        );
        let (out, chunks) = streamed(&long, &FormatOptions::default()).unwrap();
        assert_eq!(out, format(&long, &FormatOptions::default()).unwrap());
        assert!(chunks > 1);
    }

    /// The writing pass trusts the check, but text it was never meant to
    /// see gives nonsense, not a panic.
    #[test]
    fn the_writing_pass_survives_unchecked_text() {
        for text in ["]]]}", "}{", "\"abc", "[1,2", "1 2", "]\"x", "[\\\"]", ",,:", "\"\\"] {
            for layout in [Layout::Minify, Layout::Pretty(Indent::Spaces(2))] {
                let mut writer = Writer::new(text, layout, None);
                write_strict(text, 0, &mut writer);
                assert!(std::str::from_utf8(&writer.out[..writer.len]).is_ok(), "{text}");
            }
        }
    }

    fn sliced(text: &str, options: &FormatOptions, slice_bytes: usize, threads: usize) -> (String, usize) {
        let mut out = Vec::new();
        let mut pieces = 0;
        format_streaming_in_slices(text, options, slice_bytes, threads, &mut |piece: &[u8]| {
            assert!(std::str::from_utf8(piece).is_ok(), "every piece is whole UTF-8");
            out.extend_from_slice(piece);
            pieces += 1;
        })
        .unwrap();
        (String::from_utf8(out).unwrap(), pieces)
    }

    /// Slices a few bytes long put a checkpoint at nearly every comma: each
    /// slice starts inside containers of both kinds, past 64 levels (where
    /// the replay keeps the outer levels apart), before comments and BOMs.
    #[test]
    fn parallel_slices_write_what_format_returns() {
        let deep = format!("{}0,\"j\":[1,2]{}", "[{\"k\":".repeat(70), "}]".repeat(70));
        let texts = [
            r#"{"a,b:c}": "x\"]}, {\\", "\u00e9\"": [1e-3, -0, 2.5E+7, true, false, null], "": {}, "z": [[1, 2], {"y": [3]}]}"#,
            "  [ [] , {} , [ { } ] , 1 ]  ",
            deep.as_str(),
            "[\"ünïcode\", \"😀\", \"é\"]",
        ];
        let layouts = [
            Layout::Minify,
            Layout::Pretty(Indent::Spaces(2)),
            Layout::Pretty(Indent::Tab),
        ];
        for text in texts {
            for layout in layouts {
                let options = FormatOptions {
                    layout,
                    ..Default::default()
                };
                let expected = format(text, &options).unwrap();
                for (slice_bytes, threads) in [(1, 2), (3, 3), (16, 2), (1, 1)] {
                    assert_eq!(
                        sliced(text, &options, slice_bytes, threads).0,
                        expected,
                        "{text} {slice_bytes} {threads}"
                    );
                }
            }
        }
        let jsonc = FormatOptions {
            jsonc: true,
            ..Default::default()
        };
        let commented = "\u{feff}// head\n{ /* a } */ \"a\": [1, 2, /* ] */ ], // , \"b\": 1\n \"c\" /* : */ : {\"d\": null,},\n \"e\": 0}";
        assert_eq!(sliced(commented, &jsonc, 1, 2).0, format(commented, &jsonc).unwrap());
    }

    #[test]
    fn parallel_slices_are_emitted_one_piece_each() {
        let text = format!("[{}]", vec!["{\"a\":[1,2]}"; 1000].join(","));
        // Each slice ends at the first comma 100 bytes past its start, and
        // commas are at most 8 bytes apart here.
        let (out, pieces) = sliced(&text, &FormatOptions::default(), 100, 2);
        assert_eq!(out, pretty(&text));
        assert!(
            (text.len() / 108..=text.len() / 100 + 1).contains(&pieces),
            "{pieces} pieces"
        );
        // Without a checkpoint (the whole document is shorter than a slice) it is written serially.
        assert_eq!(
            sliced("[1,2]", &FormatOptions::default(), 100, 2),
            ("[\n  1,\n  2\n]\n".to_string(), 1)
        );
    }

    #[test]
    fn parallel_slices_emit_nothing_before_a_syntax_error() {
        let broken = format!("[{}, oops]", vec!["\"padding padding\""; 5_000].join(","));
        let mut emitted = 0;
        let error = format_streaming_in_slices(&broken, &FormatOptions::default(), 64, 2, &mut |piece: &[u8]| {
            emitted += piece.len()
        })
        .unwrap_err();
        assert_eq!(emitted, 0);
        assert_eq!(error, format(&broken, &FormatOptions::default()).unwrap_err());
    }

    #[test]
    fn streaming_emits_nothing_before_a_syntax_error() {
        let broken = format!("[{}, oops]", vec!["\"padding padding\""; 50_000].join(","));
        let mut emitted = 0;
        let error = format_streaming(&broken, &FormatOptions::default(), &mut |chunk: &[u8]| {
            emitted += chunk.len()
        })
        .unwrap_err();
        assert_eq!(emitted, 0);
        assert_eq!(error, format(&broken, &FormatOptions::default()).unwrap_err());
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
        // An empty innermost container counts: one more level is refused, array or object.
        for (open, close) in [("[", "]"), ("{\"a\":", "}")] {
            let one_more = format!("[{}{}]", open.repeat(MAX_DEPTH - 1), close.repeat(MAX_DEPTH - 1)).replacen(
                &format!("{open}{close}"),
                &format!("{open}[]{close}"),
                1,
            );
            let error = format(&one_more, &FormatOptions::default()).unwrap_err();
            assert!(error.message.contains("nesting deeper than"), "{}", error.message);
        }
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
