//! Structural diff of two JSON documents.
//!
//! Object members match by name. Arrays match by a key when the caller
//! configures one for their path and every element has a unique one (for
//! example tools by `name`), with moves detected; otherwise by a longest common subsequence of
//! element hashes, so an insertion in the middle is one insertion. Numbers
//! compare by value (`1` equals `1.0`), strings by code points.
//!
//! One walk yields both the list of changes (for people) and an RFC 6902 patch
//! (for machines) whose operations apply in sequence: an array is restructured
//! (removals, insertions, moves) before its elements are descended into, so
//! every nested path is the element's position in B.

pub mod ignore;
pub mod merge;
mod model;
pub mod patch;
mod sequence;
mod tree;
pub mod unified;
pub mod value;
mod walk;

use serde::Serialize;
use serde_json::Value;

use std::borrow::Cow;

use crate::format::{FormatOptions, format};
use crate::lean::LeanDoc;
use crate::locate::{nearest_spans, nearest_spans_in_checked};
use crate::parse::{JsonParseError, parse_document};
use crate::scan::{check_syntax, eight};

pub use ignore::{IgnorePattern, prune};
pub use model::{ArrayKey, ArrayMatch, Change, ChangeKind, Diff, DiffOptions, Matching};
pub use patch::{PatchKind, PatchOp};
pub use walk::diff;

/// What `compare` needs beyond the two texts.
#[derive(Debug, Clone, Default)]
pub struct CompareOptions {
    /// The user's array keys, tried first.
    pub array_keys: Vec<ArrayKey>,
    /// The caller's own keys for the documents it knows, tried after the
    /// user's (this crate knows no document's shape; apcheck passes its
    /// snapshot and `tools/list` keys unless told to leave them out).
    pub default_keys: Vec<ArrayKey>,
    pub ignore: Vec<IgnorePattern>,
}

/// Which list of [`CompareOptions::parse`] held an entry that does not parse;
/// each face names it its own way (`--array-key`, `arrayKeys`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CompareOption {
    ArrayKeys,
    Ignore,
}

impl CompareOptions {
    /// The options from their text, as every face takes them: array keys as
    /// `[PATH=]KEY`, ignored parts as pointers with `*`. The first entry that
    /// does not parse is the error, with the list it is in.
    pub fn parse(
        array_keys: &[String],
        default_keys: Vec<ArrayKey>,
        ignore: &[String],
    ) -> Result<Self, (CompareOption, String)> {
        Ok(CompareOptions {
            array_keys: array_keys
                .iter()
                .map(|spec| ArrayKey::parse(spec))
                .collect::<Result<_, _>>()
                .map_err(|message| (CompareOption::ArrayKeys, message))?,
            default_keys,
            ignore: ignore
                .iter()
                .map(|pattern| IgnorePattern::parse(pattern))
                .collect::<Result<_, _>>()
                .map_err(|message| (CompareOption::Ignore, message))?,
        })
    }
}

/// Which of the two documents a problem is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Side {
    A,
    B,
}

/// One of the two documents is not JSON.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DocumentError {
    pub side: Side,
    pub error: JsonParseError,
}

/// Two parsed documents (with ignored parts pruned) and their differences.
#[derive(Debug, Clone)]
pub struct Comparison {
    pub a: Value,
    pub b: Value,
    pub diff: Diff,
}

/// Parses both texts, prunes what `options.ignore` names, and diffs them:
/// as lean documents of the texts when nothing is pruned and those read them
/// as serde_json does, else through the `Value`s (see [`diff`]).
pub fn compare(a_text: &str, b_text: &str, options: &CompareOptions) -> Result<Comparison, DocumentError> {
    let (a, b) = parse_both(a_text, b_text);
    let mut a = a.map_err(|error| DocumentError { side: Side::A, error })?;
    let mut b = b.map_err(|error| DocumentError { side: Side::B, error })?;
    prune(&mut a, &options.ignore);
    prune(&mut b, &options.ignore);
    let diff = lean_diff(a_text, b_text, options).unwrap_or_else(|| diff(&a, &b, &diff_options(options)));
    Ok(Comparison { a, b, diff })
}

/// [`compare`]'s differences alone, for a face that needs no whole document
/// afterwards (changes and patches, not merge patches or canonical texts).
/// They come from lean documents of the texts alone ([`crate::lean`]: a
/// tenth of the memory of two `Value` trees, and in the page's wasm a third of
/// the time), wherever those read the texts as serde_json does and nothing is
/// to be pruned; otherwise from [`compare`]. Both give the same changes and
/// patch, byte for byte, and the same lines.
pub fn compare_changes(a_text: &str, b_text: &str, options: &CompareOptions) -> Result<Diff, DocumentError> {
    if let Some(diff) = lean_diff(a_text, b_text, options) {
        return Ok(diff);
    }
    compare(a_text, b_text, options).map(|comparison| comparison.diff)
}

/// The diff of two lean documents, when both texts make one and nothing is pruned.
fn lean_diff(a_text: &str, b_text: &str, options: &CompareOptions) -> Option<Diff> {
    if !options.ignore.is_empty() {
        return None;
    }
    let (a, b) = parse_both_lean(a_text, b_text);
    Some(walk::diff_trees((a?).root(), (b?).root(), &diff_options(options)))
}

#[cfg(not(target_arch = "wasm32"))]
fn parse_both_lean<'t>(a_text: &'t str, b_text: &'t str) -> (Option<LeanDoc<'t>>, Option<LeanDoc<'t>>) {
    std::thread::scope(|scope| {
        let a = scope.spawn(|| LeanDoc::parse(a_text));
        let b = LeanDoc::parse(b_text);
        (a.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)), b)
    })
}

#[cfg(target_arch = "wasm32")]
fn parse_both_lean<'t>(a_text: &'t str, b_text: &'t str) -> (Option<LeanDoc<'t>>, Option<LeanDoc<'t>>) {
    (LeanDoc::parse(a_text), LeanDoc::parse(b_text))
}

/// The user's array keys, then the caller's defaults.
fn diff_options(options: &CompareOptions) -> DiffOptions {
    let mut array_keys = options.array_keys.clone();
    array_keys.extend(options.default_keys.iter().cloned());
    DiffOptions { array_keys }
}

type Parsed = Result<Value, JsonParseError>;

/// Parses the two documents side by side where threads exist (half the wall
/// time on big snapshots), one after the other in the browser.
#[cfg(not(target_arch = "wasm32"))]
fn parse_both(a_text: &str, b_text: &str) -> (Parsed, Parsed) {
    std::thread::scope(|scope| {
        let a = scope.spawn(|| parse_value(a_text));
        let b = parse_value(b_text);
        let a = a.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        (a, b)
    })
}

#[cfg(target_arch = "wasm32")]
fn parse_both(a_text: &str, b_text: &str) -> (Parsed, Parsed) {
    (parse_value(a_text), parse_value(b_text))
}

/// serde_json alone on the fast path; on failure, the formatter's scanner words
/// the error (it says what was expected), else serde_json's own (nesting limit).
fn parse_value(text: &str) -> Result<Value, JsonParseError> {
    apcheck_hot::parse_value(text).or_else(|_| {
        check_syntax(text, false)?;
        parse_document(text).map(|doc| doc.value)
    })
}

/// The canonical pretty form of a compared document (2-space indent, keys
/// sorted), from its own text when nothing was pruned so numbers keep their text.
pub fn canonical_text(text: &str, value: &Value, pruned: bool) -> String {
    let options = FormatOptions {
        sort_keys: true,
        ..FormatOptions::default()
    };
    let source = if pruned {
        Cow::Owned(value.to_string())
    } else {
        Cow::Borrowed(text)
    };
    format(&source, &options).unwrap_or_else(|_| value.to_string())
}

/// Fills in the lines of every change in `a_text` and `b_text`, the texts the
/// changes came from (so both are JSON). From the offsets the walk kept
/// ([`Diff::starts`]) when it read lean documents: one count of newlines up
/// to the last of them. Otherwise one walk of each text that passes over
/// every value off the changed paths ([`nearest_spans_in_checked`]). No tree
/// of either document is built, and no column is counted (a column would
/// count characters from the line start, which on a minified document is the
/// whole text).
pub fn locate(diff: &mut Diff, a_text: &str, b_text: &str) {
    fn old_pointer(change: &Change) -> Option<&str> {
        match change.kind {
            ChangeKind::Removed => Some(change.path.as_str()),
            ChangeKind::Added => None,
            _ => Some(change.old_path.as_deref().unwrap_or(&change.path)),
        }
    }
    fn new_pointer(change: &Change) -> Option<&str> {
        (change.kind != ChangeKind::Removed).then_some(change.path.as_str())
    }
    let changes = &mut diff.changes;
    let (old_lines, new_lines) = if diff.starts.len() == changes.len() {
        let starts = &diff.starts;
        (
            lines_from_starts(a_text, starts.iter().filter_map(|[old, _]| *old)),
            lines_from_starts(b_text, starts.iter().filter_map(|[_, new]| *new)),
        )
    } else {
        (
            lines_in_checked(a_text, changes.iter().filter_map(old_pointer).collect()),
            lines_in_checked(b_text, changes.iter().filter_map(new_pointer).collect()),
        )
    };
    let (mut old_lines, mut new_lines) = (old_lines.into_iter(), new_lines.into_iter());
    for change in changes.iter_mut() {
        change.old_line = old_pointer(change).and_then(|_| old_lines.next());
        change.new_line = new_pointer(change).and_then(|_| new_lines.next());
    }
}

/// The 1-based line of the value at each pointer (or its nearest ancestor) in
/// the JSON `text`; an error when `text` is not JSON, unless it is on one line.
pub fn lines_of<'p>(text: &str, pointers: impl Iterator<Item = &'p str>) -> Result<Vec<usize>, JsonParseError> {
    let pointers: Vec<&str> = pointers.collect();
    if on_one_line(text) {
        return Ok(vec![1; pointers.len()]);
    }
    let spans = nearest_spans(text, &pointers)?;
    Ok(lines_at(text, spans.iter().map(|span| span.start)))
}

/// [`lines_of`] for a text known to be JSON.
fn lines_in_checked(text: &str, pointers: Vec<&str>) -> Vec<usize> {
    if on_one_line(text) {
        return vec![1; pointers.len()];
    }
    let spans = nearest_spans_in_checked(text, &pointers);
    lines_at(text, spans.iter().map(|span| span.start))
}

/// The lines of values starting at `starts` in `text`.
fn lines_from_starts(text: &str, starts: impl Iterator<Item = usize>) -> Vec<usize> {
    if on_one_line(text) {
        return vec![1; starts.count()];
    }
    lines_at(text, starts)
}

/// Whether every value of `text` is on its first line (a minified document):
/// then no value needs finding to know its line.
fn on_one_line(text: &str) -> bool {
    !text.trim_end().as_bytes().contains(&b'\n')
}

/// The 1-based line of each byte offset, counting newlines once up to the last
/// offset (in offset order), so many offsets cost one pass over the text.
fn lines_at(text: &str, offsets: impl Iterator<Item = usize>) -> Vec<usize> {
    let mut order: Vec<(usize, usize)> = offsets.enumerate().map(|(i, offset)| (offset, i)).collect();
    order.sort_unstable();
    let bytes = text.as_bytes();
    let mut lines = vec![1; order.len()];
    let (mut at, mut line) = (0, 1);
    for (offset, i) in order {
        let offset = offset.min(bytes.len());
        line += count_newlines(&bytes[at..offset]);
        at = offset;
        lines[i] = line;
    }
    lines
}

/// The line feeds in `bytes`, eight bytes at a time: on a 15 MB snapshot in
/// the page, a byte loop costs more than finding the changed values.
fn count_newlines(bytes: &[u8]) -> usize {
    const LOW_SEVEN: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    let mut words = bytes.chunks_exact(8);
    let mut count = 0;
    for word in &mut words {
        let word = u64::from_le_bytes(eight(word));
        let zero_where_newline = word ^ (u64::from(b'\n') * 0x0101_0101_0101_0101);
        // The high bit of each byte that is zero, exactly (no borrow between bytes).
        let zeros = !(((zero_where_newline & LOW_SEVEN) + LOW_SEVEN) | zero_where_newline | LOW_SEVEN);
        count += zeros.count_ones() as usize;
    }
    count + words.remainder().iter().filter(|&&b| b == b'\n').count()
}

#[cfg(test)]
mod tests;
