//! Structural diff of two JSON documents.
//!
//! Object members match by name. Arrays match by a key when one is configured
//! for their path and every element has a unique one (tools by `name`, servers
//! by `id`), with moves detected; otherwise by a longest common subsequence of
//! element hashes, so an insertion in the middle is one insertion. Numbers
//! compare by value (`1` equals `1.0`), strings by code points.
//!
//! One walk yields both the list of changes (for people) and an RFC 6902 patch
//! (for machines) whose operations apply in sequence: an array is restructured
//! (removals, insertions, moves) before its elements are descended into, so
//! every nested path is the element's position in B.

mod arrays;
pub mod ignore;
pub mod merge;
pub mod patch;
mod sequence;
pub mod unified;
pub mod value;

use serde::Serialize;
use serde_json::Value;

use std::borrow::Cow;

use crate::json::format::{FormatOptions, format};
use crate::json::locate::nearest_spans;
use crate::json::parse::{JsonParseError, parse_document, push_token};
use crate::json::scan::check_syntax;

pub use ignore::{IgnorePattern, prune};
pub use patch::{PatchKind, PatchOp};

/// Which member identifies the elements of the arrays at a path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArrayKey {
    /// The arrays' pointer (tokens may be `*`); `None` for every array.
    pub path: Option<Vec<String>>,
    /// The identifying members; several make a compound key (`server+name`).
    pub fields: Vec<String>,
}

impl ArrayKey {
    /// Parses `name`, `/tools=name` or `/tools=server+name`.
    pub fn parse(spec: &str) -> Result<Self, String> {
        let (path, fields) = match spec.rsplit_once('=') {
            Some((path, fields)) => {
                let tokens = crate::json::parse::pointer_tokens(path)
                    .ok_or_else(|| format!("`{path}` is not a JSON Pointer (it must start with '/')"))?;
                (Some(tokens), fields)
            }
            None => (None, spec),
        };
        let fields: Vec<String> = fields.split('+').map(str::to_string).collect();
        if fields.iter().any(String::is_empty) {
            return Err(format!("`{spec}` names no key member"));
        }
        Ok(ArrayKey { path, fields })
    }

    fn at(path: &str, fields: &[&str]) -> Self {
        ArrayKey {
            path: crate::json::parse::pointer_tokens(path),
            fields: fields.iter().map(|f| f.to_string()).collect(),
        }
    }
}

/// The keys for capability snapshots and `tools/list` results (bare, or as a
/// JSON-RPC response, or one kept under a name), tried after the user's: the first key unique in both arrays wins (tools by `name`, then by
/// `server+name` when two servers offer the same name).
pub fn default_array_keys() -> Vec<ArrayKey> {
    vec![
        ArrayKey::at("/tools", &["name"]),
        ArrayKey::at("/tools", &["server", "name"]),
        ArrayKey::at("/result/tools", &["name"]),
        // A JSON-RPC response kept under a name, as captures of a session are.
        ArrayKey::at("/*/result/tools", &["name"]),
        ArrayKey::at("/skills", &["name"]),
        ArrayKey::at("/mcpServers", &["id"]),
        // Anywhere else, objects that all carry a unique `name` (or `id`) are matched by it.
        ArrayKey {
            path: None,
            fields: vec!["name".into()],
        },
        ArrayKey {
            path: None,
            fields: vec!["id".into()],
        },
    ]
}

#[derive(Debug, Clone, Default)]
pub struct DiffOptions {
    /// Tried in order; put the user's before [`default_array_keys`].
    pub array_keys: Vec<ArrayKey>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ChangeKind {
    Added,
    Removed,
    Changed,
    Moved,
}

/// One difference, located in both documents.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Change {
    pub kind: ChangeKind,
    /// Pointer in B (in A for a removal).
    pub path: String,
    /// Pointer in A, when it differs from `path` (an element that moved or was
    /// matched by key at another index).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub old_path: Option<String>,
    /// `path` with keyed elements named: `/tools[name=echo]/description`.
    pub label: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub old: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub new: Option<Value>,
    /// 1-based lines in A and B, when located (see [`locate`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub old_line: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub new_line: Option<usize>,
}

/// The differences and the patch that turns A into B.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Diff {
    pub changes: Vec<Change>,
    pub patch: Vec<PatchOp>,
    /// How the arrays that matter were matched (see [`ArrayMatch`]); for the
    /// page, which shows the key used and warns when matching fell back to positions.
    #[serde(skip)]
    pub arrays: Vec<ArrayMatch>,
}

/// How arrays were matched: for every path pattern, the keyed ones, and the
/// unkeyed arrays of objects that differ (there a key would name the elements).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ArrayMatch {
    /// The arrays' pointer in B, element indices as `*`: `/tools`, `/tools/*/icons`.
    pub path: String,
    pub by: Matching,
    /// The key members, for [`Matching::Key`].
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub key: Vec<String>,
    /// How many arrays at `path` were matched this way.
    pub count: usize,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Matching {
    /// By a key member unique in both arrays, with moves.
    Key,
    /// By a longest common subsequence of whole elements: a changed element is
    /// paired with the one at its position.
    Sequence,
    /// Pairwise by index (arrays too big for the subsequence).
    Position,
}

impl Diff {
    pub fn is_empty(&self) -> bool {
        self.changes.is_empty()
    }

    /// How many changes of each kind: added, removed, changed, moved.
    pub fn counts(&self) -> [usize; 4] {
        let count = |kind| self.changes.iter().filter(|c| c.kind == kind).count();
        [
            count(ChangeKind::Added),
            count(ChangeKind::Removed),
            count(ChangeKind::Changed),
            count(ChangeKind::Moved),
        ]
    }
}

/// Compares `a` with `b`.
pub fn diff(a: &Value, b: &Value, options: &DiffOptions) -> Diff {
    let mut walker = Walker {
        options,
        diff: Diff::default(),
    };
    walker.walk(a, b, &mut Paths::default());
    walker.diff
}

/// One step of the walk from the root.
#[derive(Debug, Clone)]
enum Segment<'v> {
    Member(&'v str),
    /// An array element: its index in A (none for an added one) and in B, and
    /// for keyed arrays the label that names it (`[name=echo]`).
    Element {
        a: Option<usize>,
        b: usize,
        key: Option<String>,
    },
}

/// Where the walk is, as a stack of steps; pointers are rendered only when a
/// change is recorded, so walking equal parts allocates nothing.
#[derive(Debug, Default)]
struct Paths<'v> {
    segments: Vec<Segment<'v>>,
}

impl<'v> Paths<'v> {
    fn push_member(&mut self, key: &'v str) {
        self.segments.push(Segment::Member(key));
    }

    fn push_element(&mut self, a: Option<usize>, b: usize, key: Option<String>) {
        self.segments.push(Segment::Element { a, b, key });
    }

    fn pop(&mut self) {
        self.segments.pop();
    }

    /// The pointer in B, which is also where the patch finds the value.
    fn b(&self) -> String {
        self.render(|out, segment| match segment {
            Segment::Member(key) => push_token(out, key),
            Segment::Element { b, .. } => push_index(out, *b),
        })
    }

    /// The pointer in A (B's index for an element A does not have).
    fn a(&self) -> String {
        self.render(|out, segment| match segment {
            Segment::Member(key) => push_token(out, key),
            Segment::Element { a, b, .. } => push_index(out, a.unwrap_or(*b)),
        })
    }

    fn label(&self) -> String {
        self.render(|out, segment| match segment {
            Segment::Member(key) => push_token(out, key),
            Segment::Element { key: Some(key), .. } => out.push_str(key),
            Segment::Element { b, .. } => push_index(out, *b),
        })
    }

    fn render(&self, mut step: impl FnMut(&mut String, &Segment<'v>)) -> String {
        let mut out = String::new();
        for segment in &self.segments {
            step(&mut out, segment);
        }
        out
    }

    /// The B pointer with every element index as `*`.
    fn pattern(&self) -> String {
        self.render(|out, segment| match segment {
            Segment::Member(key) => push_token(out, key),
            Segment::Element { .. } => out.push_str("/*"),
        })
    }

    /// Whether the B pointer matches `pattern`, whose tokens may be `*`.
    fn matches(&self, pattern: &[String]) -> bool {
        pattern.len() == self.segments.len()
            && pattern
                .iter()
                .zip(&self.segments)
                .all(|(token, segment)| match segment {
                    _ if token == "*" => true,
                    Segment::Member(key) => token == key,
                    Segment::Element { b, .. } => token.parse::<usize>().is_ok_and(|i| i == *b),
                })
    }
}

fn push_index(out: &mut String, index: usize) {
    out.push('/');
    out.push_str(&index.to_string());
}

struct Walker<'o> {
    options: &'o DiffOptions,
    diff: Diff,
}

impl Walker<'_> {
    /// Counts one array at `at` matched `by` (`key`: the members, for `Key`).
    fn note_matching(&mut self, at: &Paths<'_>, by: Matching, key: &[String]) {
        let path = at.pattern();
        match self
            .diff
            .arrays
            .iter_mut()
            .find(|m| m.path == path && m.by == by && m.key == key)
        {
            Some(seen) => seen.count += 1,
            None => self.diff.arrays.push(ArrayMatch {
                path,
                by,
                key: key.to_vec(),
                count: 1,
            }),
        }
    }

    fn walk<'v>(&mut self, a: &'v Value, b: &'v Value, at: &mut Paths<'v>) {
        match (a, b) {
            (Value::Object(left), Value::Object(right)) => {
                for (key, old) in left {
                    at.push_member(key);
                    match right.get(key) {
                        Some(new) => self.walk(old, new, at),
                        None => self.removed(at, old),
                    }
                    at.pop();
                }
                for (key, new) in right.iter().filter(|(key, _)| !left.contains_key(*key)) {
                    at.push_member(key);
                    self.added(at, new);
                    at.pop();
                }
            }
            (Value::Array(left), Value::Array(right)) => arrays::diff_arrays(self, left, right, at),
            _ if value::equal(a, b) => {}
            _ => {
                self.diff.patch.push(PatchOp::replace(at.b(), b));
                self.record(ChangeKind::Changed, at, Some(a), Some(b));
            }
        }
    }

    fn added(&mut self, at: &Paths<'_>, new: &Value) {
        self.diff.patch.push(PatchOp::add(at.b(), new));
        self.record(ChangeKind::Added, at, None, Some(new));
    }

    /// A removed object member (array elements are removed by index, see `arrays`).
    fn removed(&mut self, at: &Paths<'_>, old: &Value) {
        self.diff.patch.push(PatchOp::remove(at.b()));
        self.record_removal(at, old);
    }

    fn record_removal(&mut self, at: &Paths<'_>, old: &Value) {
        self.diff.changes.push(Change {
            kind: ChangeKind::Removed,
            path: at.a(),
            old_path: None,
            label: at.label(),
            old: Some(old.clone()),
            new: None,
            old_line: None,
            new_line: None,
        });
    }

    fn record(&mut self, kind: ChangeKind, at: &Paths<'_>, old: Option<&Value>, new: Option<&Value>) {
        let path = at.b();
        let old_path = Some(at.a()).filter(|a| *a != path && kind != ChangeKind::Added);
        self.diff.changes.push(Change {
            kind,
            path,
            old_path,
            label: at.label(),
            old: old.cloned(),
            new: new.cloned(),
            old_line: None,
            new_line: None,
        });
    }
}

/// What `compare` needs beyond the two texts.
#[derive(Debug, Clone, Default)]
pub struct CompareOptions {
    /// The user's array keys, tried before [`default_array_keys`].
    pub array_keys: Vec<ArrayKey>,
    /// Leave out the snapshot and `tools/list` defaults.
    pub no_default_keys: bool,
    pub ignore: Vec<IgnorePattern>,
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

/// Parses both texts, prunes what `options.ignore` names, and diffs them.
pub fn compare(a_text: &str, b_text: &str, options: &CompareOptions) -> Result<Comparison, DocumentError> {
    let (a, b) = parse_both(a_text, b_text);
    let mut a = a.map_err(|error| DocumentError { side: Side::A, error })?;
    let mut b = b.map_err(|error| DocumentError { side: Side::B, error })?;
    prune(&mut a, &options.ignore);
    prune(&mut b, &options.ignore);
    let mut array_keys = options.array_keys.clone();
    if !options.no_default_keys {
        array_keys.extend(default_array_keys());
    }
    let diff = diff(&a, &b, &DiffOptions { array_keys });
    Ok(Comparison { a, b, diff })
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
    serde_json::from_str(text).or_else(|_| {
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

/// Fills in the lines of every change, located in the two texts by one scan
/// each ([`nearest_spans`]): no tree of either document is built, and no
/// column is counted (a column would count characters from the line start,
/// which on a minified document is the whole text).
pub fn locate(changes: &mut [Change], a_text: &str, b_text: &str) -> Result<(), JsonParseError> {
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
    let old_lines = lines_of(a_text, changes.iter().filter_map(old_pointer))?;
    let new_lines = lines_of(b_text, changes.iter().filter_map(new_pointer))?;
    let (mut old_lines, mut new_lines) = (old_lines.into_iter(), new_lines.into_iter());
    for change in changes.iter_mut() {
        change.old_line = old_pointer(change).and_then(|_| old_lines.next());
        change.new_line = new_pointer(change).and_then(|_| new_lines.next());
    }
    Ok(())
}

/// The 1-based line of the value at each pointer (or its nearest ancestor) in `text`.
pub fn lines_of<'p>(text: &str, pointers: impl Iterator<Item = &'p str>) -> Result<Vec<usize>, JsonParseError> {
    let pointers: Vec<&str> = pointers.collect();
    let spans = nearest_spans(text, &pointers)?;
    Ok(lines_at(text, spans.iter().map(|span| span.start)))
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
        line += bytes[at..offset].iter().filter(|&&b| b == b'\n').count();
        at = offset;
        lines[i] = line;
    }
    lines
}

#[cfg(test)]
mod tests;
