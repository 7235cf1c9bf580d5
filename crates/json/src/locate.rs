//! Where every value of a JSON text is: a tree of byte spans mirroring the
//! document, built by the exact scanner ([`crate::scan`]) in one pass, so
//! a JSON Pointer maps to a span and then to `line:col`.
//!
//! The tree is one flat vector of 40-byte nodes in document order, each
//! knowing where its subtree ends: member names are read from the text when a
//! pointer is looked up (so lookups take the text), not each held decoded. A
//! 10,000-tool snapshot's tree is a third of what a node per value with its
//! own member list and decoded keys took.
//!
//! Object members keep document order and every duplicate; a lookup takes the
//! last one, as serde_json keeps the last value. Objects and arrays with many
//! children get an index while they are built, so lookups and duplicate
//! detection stay linear in the document (a 160,000-member object would
//! otherwise be quadratic).

// foldhash, not SipHash: these maps are only looked up, never iterated, so
// the hasher shows in no output. Natively its seed comes from address-space
// randomization and the clock. The page's wasm has neither, so there the seed
// is the same on every load: a document crafted against it can slow these
// lookups in the user's own tab, but cannot change what they find.
use foldhash::{HashMap, HashMapExt};
use std::borrow::Cow;
use std::fmt::Write as _;

use crate::pointer::{pointer_tokens, push_token};
use crate::scan::{
    JsonParseError, Sink, decode_key, scan, skip_checked_space, skip_checked_string, skip_checked_value,
};
use crate::text::Span;

/// Above this many children a container is indexed; below, a walk is faster.
const INDEX_FROM: usize = 16;

/// The spans of a strict JSON text's values, keys and duplicate members.
#[derive(Debug, Clone)]
pub struct SpanTree {
    /// Node 0 is the root; a node's children follow it, each subtree contiguous.
    nodes: Vec<SpanNode>,
    /// Containers with more than [`INDEX_FROM`] children, by node.
    indexes: HashMap<usize, ChildIndex>,
    duplicates: Vec<DuplicateKey>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DuplicateKey {
    /// Pointer of the member (the one whose value is kept).
    pub pointer: String,
    /// Span of the later, repeated key.
    pub key_span: Span,
    /// Span of the first occurrence's key.
    pub first_key_span: Span,
}

#[derive(Debug, Clone)]
struct SpanNode {
    span: Span,
    /// The member name, quotes included; empty for the root and array elements
    /// (a written name is at least its two quotes).
    key_span: Span,
    /// The node after this one's subtree: its next sibling when it has one.
    after: usize,
}

#[derive(Debug, Clone)]
enum ChildIndex {
    /// Each member name's last node.
    Members(HashMap<Box<str>, usize>),
    /// Each element's node.
    Elements(Vec<usize>),
}

impl SpanTree {
    /// Scans the strict JSON `text`; fails with the scanner's syntax error.
    pub fn parse(text: &str) -> Result<SpanTree, JsonParseError> {
        Self::parse_with(text, false)
    }

    /// Scans `text`, as JSONC (comments, trailing commas) when `jsonc`.
    pub fn parse_with(text: &str, jsonc: bool) -> Result<SpanTree, JsonParseError> {
        let mut builder = Builder {
            text,
            nodes: Vec::new(),
            indexes: HashMap::new(),
            duplicates: Vec::new(),
            open: Vec::new(),
            pending_key: None,
        };
        scan(text, jsonc, &mut builder).map_err(|e| e.locate(text))?;
        Ok(SpanTree {
            nodes: builder.nodes,
            indexes: builder.indexes,
            duplicates: builder.duplicates,
        })
    }

    /// Members whose key appeared earlier in the same object, in document order.
    pub fn duplicate_keys(&self) -> &[DuplicateKey] {
        &self.duplicates
    }

    /// Consumes the tree's list of duplicate members.
    pub fn take_duplicate_keys(&mut self) -> Vec<DuplicateKey> {
        std::mem::take(&mut self.duplicates)
    }

    /// The node at `pointer` in `text`, the text the tree was parsed from.
    fn node(&self, text: &str, pointer: &str) -> Option<&SpanNode> {
        let mut at = 0;
        self.nodes.first()?;
        for token in pointer_tokens(pointer)? {
            at = self.child(text, at, &token)?;
        }
        Some(&self.nodes[at])
    }

    /// The child of `parent` named by the pointer token `token`.
    fn child(&self, text: &str, parent: usize, token: &str) -> Option<usize> {
        let index = self.indexes.get(&parent);
        match text.as_bytes().get(self.nodes[parent].span.start) {
            Some(b'{') => match index {
                Some(ChildIndex::Members(members)) => members.get(token).copied(),
                _ => children(&self.nodes, parent, self.nodes[parent].after)
                    .filter(|&child| key_of(text, &self.nodes[child]) == token)
                    .last(),
            },
            Some(b'[') => {
                let position = token.parse::<usize>().ok()?;
                match index {
                    Some(ChildIndex::Elements(elements)) => elements.get(position).copied(),
                    _ => children(&self.nodes, parent, self.nodes[parent].after).nth(position),
                }
            }
            _ => None,
        }
    }

    /// The span of the value at `pointer` in `text`, the text the tree was parsed from.
    pub fn value_span(&self, text: &str, pointer: &str) -> Option<Span> {
        self.node(text, pointer).map(|node| node.span)
    }

    /// The span of the member name at `pointer` (for object members), else of the value.
    pub fn key_span(&self, text: &str, pointer: &str) -> Option<Span> {
        self.node(text, pointer).map(|node| {
            if node.key_span.start == node.key_span.end {
                node.span
            } else {
                node.key_span
            }
        })
    }

    /// The span of the value at `pointer`, or of its nearest existing ancestor
    /// (for "missing member" findings, which point at the object that lacks it).
    pub fn nearest_span(&self, text: &str, pointer: &str) -> Span {
        let mut pointer = pointer;
        loop {
            if let Some(span) = self.value_span(text, pointer) {
                return span;
            }
            match pointer.rfind('/') {
                Some(i) => pointer = &pointer[..i],
                None => return self.nodes.first().map_or_else(Span::default, |root| root.span),
            }
        }
    }
}

/// The children of `parent` among `nodes` before `end`: closed subtrees, each
/// stepped over by its `after`.
fn children(nodes: &[SpanNode], parent: usize, end: usize) -> impl Iterator<Item = usize> + '_ {
    let mut next = parent + 1;
    std::iter::from_fn(move || {
        let child = next;
        (child < end).then(|| {
            next = nodes[child].after;
            child
        })
    })
}

/// The decoded member name of `node`.
fn key_of<'t>(text: &'t str, node: &SpanNode) -> Cow<'t, str> {
    match text.get(node.key_span.start..node.key_span.end) {
        Some(raw) if raw.len() >= 2 => decode_key(raw),
        _ => Cow::Borrowed(""),
    }
}

/// Builds the tree from the scanner's tokens.
struct Builder<'a> {
    text: &'a str,
    nodes: Vec<SpanNode>,
    indexes: HashMap<usize, ChildIndex>,
    duplicates: Vec<DuplicateKey>,
    /// Open containers, outermost first.
    open: Vec<OpenContainer>,
    pending_key: Option<&'a str>,
}

struct OpenContainer {
    node: usize,
    /// Children so far.
    count: usize,
    /// The latest child's node.
    last: usize,
    /// Past [`INDEX_FROM`] members: each name's first and last node.
    members: Option<HashMap<Box<str>, (usize, usize)>>,
    /// Past [`INDEX_FROM`] elements: each element's node.
    elements: Option<Vec<usize>>,
}

impl Builder<'_> {
    fn offset(&self, raw: &str) -> usize {
        raw.as_ptr() as usize - self.text.as_ptr() as usize
    }

    /// Adds a node under the innermost open container.
    fn push(&mut self, span: Span) -> usize {
        let node = self.nodes.len();
        let key_span = match (self.open.is_empty(), self.pending_key.take()) {
            (false, Some(raw)) => {
                let start = self.offset(raw);
                Span::new(start, start + raw.len())
            }
            _ => Span::default(),
        };
        self.nodes.push(SpanNode {
            span,
            key_span,
            after: node + 1,
        });
        let Some(parent) = self.open.last_mut() else {
            return node;
        };
        parent.count += 1;
        parent.last = node;
        let first = if self.text.as_bytes().get(self.nodes[parent.node].span.start) == Some(&b'{') {
            first_with_key(self.text, &self.nodes, parent, node)
        } else {
            if let Some(elements) = &mut parent.elements {
                elements.push(node);
            } else if parent.count > INDEX_FROM {
                parent.elements = Some(children(&self.nodes, parent.node, node + 1).collect());
            }
            None
        };
        if let Some(first) = first {
            let duplicate = DuplicateKey {
                pointer: self.pointer_of_last_child(),
                key_span,
                first_key_span: self.nodes[first].key_span,
            };
            self.duplicates.push(duplicate);
        }
        node
    }

    /// The pointer of the child just added to the innermost open container.
    fn pointer_of_last_child(&self) -> String {
        let mut pointer = String::new();
        for container in &self.open {
            if self.text.as_bytes().get(self.nodes[container.node].span.start) == Some(&b'{') {
                push_token(&mut pointer, &key_of(self.text, &self.nodes[container.last]));
            } else {
                // Writing to a String cannot fail.
                let _ = write!(pointer, "/{}", container.count.saturating_sub(1));
            }
        }
        pointer
    }
}

/// For the member `node` just added to the open object `parent`: the first
/// earlier member with its name, if any; keeps the object's index.
fn first_with_key(text: &str, nodes: &[SpanNode], parent: &mut OpenContainer, node: usize) -> Option<usize> {
    let key = key_of(text, &nodes[node]);
    if let Some(members) = &mut parent.members {
        return match members.get_mut(&*key) {
            Some((first, last)) => {
                *last = node;
                Some(*first)
            }
            None => {
                members.insert(key.into(), (node, node));
                None
            }
        };
    }
    let first = children(nodes, parent.node, node).find(|&child| key_of(text, &nodes[child]) == key);
    if parent.count > INDEX_FROM {
        let mut members: HashMap<Box<str>, (usize, usize)> = HashMap::with_capacity(parent.count * 2);
        for child in children(nodes, parent.node, node + 1) {
            members
                .entry(key_of(text, &nodes[child]).into())
                .and_modify(|(_, last)| *last = child)
                .or_insert((child, child));
        }
        parent.members = Some(members);
    }
    first
}

impl<'a> Sink<'a> for Builder<'a> {
    fn begin(&mut self, _: u8, at: usize) {
        let node = self.push(Span::new(at, at));
        self.open.push(OpenContainer {
            node,
            count: 0,
            last: node,
            members: None,
            elements: None,
        });
    }

    fn end(&mut self, _: u8, at: usize) {
        if let Some(container) = self.open.pop() {
            let after = self.nodes.len();
            let node = &mut self.nodes[container.node];
            node.span.end = at + 1;
            node.after = after;
            let index = match (container.members, container.elements) {
                (Some(members), _) => Some(ChildIndex::Members(
                    members.into_iter().map(|(key, (_, last))| (key, last)).collect(),
                )),
                (None, Some(elements)) => Some(ChildIndex::Elements(elements)),
                (None, None) => None,
            };
            if let Some(index) = index {
                self.indexes.insert(container.node, index);
            }
        }
    }

    fn key(&mut self, raw: &'a str) {
        self.pending_key = Some(raw);
    }

    fn scalar(&mut self, raw: &'a str) {
        let start = self.offset(raw);
        self.push(Span::new(start, start + raw.len()));
    }
}

/// The opening brace (or bracket) of the container whose value spans `span`:
/// where a finding about a member the object lacks belongs, since marking the
/// whole object would underline the whole document for a root-level gap.
/// `span` itself when it is no container.
pub fn opening_of(text: &str, span: Span) -> Span {
    match text.as_bytes().get(span.start) {
        Some(b'{' | b'[') => Span::new(span.start, span.start + 1),
        _ => span,
    }
}

/// The span of the member name (quotes included) written before the value at
/// `value` in the strict JSON `text`: the key an "unexpected member" finding
/// points at. `None` when no `"key":` precedes it (an array element, the root).
pub fn key_before(text: &str, value: Span) -> Option<Span> {
    let bytes = text.as_bytes();
    let before_value = bytes.get(..value.start)?;
    let colon = before_value.iter().rposition(|b| !b" \t\r\n".contains(b))?;
    if bytes[colon] != b':' {
        return None;
    }
    let close = bytes[..colon].iter().rposition(|b| !b" \t\r\n".contains(b))?;
    if bytes[close] != b'"' {
        return None;
    }
    // Inside a string a quote is escaped by an odd run of backslashes before
    // it; the first unescaped one going back opens the key.
    let mut at = close;
    while let Some(quote) = bytes[..at].iter().rposition(|&b| b == b'"') {
        let backslashes = bytes[..quote].iter().rev().take_while(|&&b| b == b'\\').count();
        if backslashes % 2 == 0 {
            return Some(Span::new(quote, close + 1));
        }
        at = quote;
    }
    None
}

/// The span of the value at each of `pointers` (or, where nothing is there, of
/// its nearest existing ancestor) in the strict JSON `text`, in one scan that
/// builds no tree: only the values on the way to a wanted pointer are looked
/// at, so memory is the pointers plus the nesting depth, however big the
/// document. A diff locates its few changes in two 12 MB snapshots this way,
/// where a [`SpanTree`] would hold every node of both.
///
/// Lookups agree with [`SpanTree::nearest_span`]: of duplicate members the last
/// one counts.
pub fn nearest_spans(text: &str, pointers: &[&str]) -> Result<Vec<Span>, JsonParseError> {
    let mut finder = Finder {
        text,
        wanted: wanted_paths(pointers),
        path: String::new(),
        frames: Vec::new(),
        pending_key: None,
    };
    scan(text, false, &mut finder).map_err(|e| e.locate(text))?;
    Ok(nearest_of_each(&finder.wanted, pointers))
}

/// [`nearest_spans`] in a text that [`scan`] already accepted as strict JSON
/// (a diff's documents, just parsed). It walks down the wanted paths only and
/// passes over every other value by its quotes and brackets, validating
/// nothing: in the page, a third of the time of a scan on 15 MB snapshots.
/// Unchecked text gives wrong spans, never a panic.
pub fn nearest_spans_in_checked(text: &str, pointers: &[&str]) -> Vec<Span> {
    let mut walker = Walker {
        text,
        wanted: wanted_paths(pointers),
        path: String::new(),
    };
    walker.value(skip_checked_space(text.as_bytes(), 0));
    nearest_of_each(&walker.wanted, pointers)
}

/// Every pointer of `pointers` and every ancestor of one, nothing found yet.
fn wanted_paths<'p>(pointers: &[&'p str]) -> HashMap<&'p str, Option<Span>> {
    let mut wanted = HashMap::new();
    for pointer in pointers {
        for (end, _) in pointer.match_indices('/') {
            wanted.insert(&pointer[..end], None);
        }
        wanted.insert(*pointer, None);
    }
    wanted
}

fn nearest_of_each(found: &HashMap<&str, Option<Span>>, pointers: &[&str]) -> Vec<Span> {
    let root = found.get("").copied().flatten().unwrap_or_default();
    pointers
        .iter()
        .map(|pointer| nearest_found(found, pointer, root))
        .collect()
}

/// Walks down `pointer` while each step was found inside its parent's span: a
/// span outside it was left by an earlier duplicate member, which does not count.
fn nearest_found(found: &HashMap<&str, Option<Span>>, pointer: &str, root: Span) -> Span {
    let mut best = root;
    let steps = pointer
        .match_indices('/')
        .map(|(end, _)| end)
        .skip(1)
        .chain([pointer.len()]);
    for end in steps.filter(|_| !pointer.is_empty()) {
        match found.get(&pointer[..end]).copied().flatten() {
            Some(span) if span.start >= best.start && span.end <= best.end => best = span,
            _ => break,
        }
    }
    best
}

/// The walk of [`nearest_spans_in_checked`]: recursive, but only along the
/// wanted paths, which are no deeper than the document the diff parsed.
struct Walker<'t, 'p> {
    text: &'t str,
    wanted: HashMap<&'p str, Option<Span>>,
    /// The pointer of the value being walked.
    path: String,
}

impl Walker<'_, '_> {
    /// Passes over the value at `pos`, whose pointer is `path`, recording its
    /// span (and walking into it) when it is wanted; returns its end.
    fn value(&mut self, pos: usize) -> usize {
        let bytes = self.text.as_bytes();
        if !self.wanted.contains_key(self.path.as_str()) {
            return skip_checked_value(bytes, pos);
        }
        let end = match bytes.get(pos) {
            Some(b'{') => self.members(pos),
            Some(b'[') => self.elements(pos),
            _ => skip_checked_value(bytes, pos),
        };
        if let Some(slot) = self.wanted.get_mut(self.path.as_str()) {
            *slot = Some(Span::new(pos, end));
        }
        end
    }

    /// The object at `open`; of duplicate members, the last one's spans stay.
    fn members(&mut self, open: usize) -> usize {
        let bytes = self.text.as_bytes();
        let parent = self.path.len();
        let mut i = skip_checked_space(bytes, open + 1);
        while bytes.get(i) == Some(&b'"') {
            let key_end = skip_checked_string(bytes, i);
            let raw = self
                .text
                .get(i..key_end)
                .filter(|raw| raw.len() >= 2 && raw.ends_with('"'))
                .unwrap_or("\"\"");
            push_token(&mut self.path, &decode_key(raw));
            // Past the key, the colon and the spaces around it.
            i = skip_checked_space(bytes, skip_checked_space(bytes, key_end) + 1);
            i = skip_checked_space(bytes, self.value(i));
            self.path.truncate(parent);
            if bytes.get(i) != Some(&b',') {
                break;
            }
            i = skip_checked_space(bytes, i + 1);
        }
        (i + 1).min(bytes.len())
    }

    /// The array at `open`.
    fn elements(&mut self, open: usize) -> usize {
        let bytes = self.text.as_bytes();
        let parent = self.path.len();
        let mut i = skip_checked_space(bytes, open + 1);
        let mut index = 0_usize;
        while bytes.get(i).is_some_and(|&b| b != b']') {
            // Writing to a String cannot fail.
            let _ = write!(self.path, "/{index}");
            i = skip_checked_space(bytes, self.value(i));
            self.path.truncate(parent);
            if bytes.get(i) != Some(&b',') {
                break;
            }
            i = skip_checked_space(bytes, i + 1);
            index += 1;
        }
        (i + 1).min(bytes.len())
    }
}

/// The scan's state for [`nearest_spans`].
struct Finder<'a, 'p> {
    text: &'a str,
    /// Every wanted pointer and ancestor, with the span found for it.
    wanted: HashMap<&'p str, Option<Span>>,
    /// The pointer of the innermost open container that is on a wanted path.
    path: String,
    /// One per open container: whether it is on a wanted path (then `path`
    /// is its pointer), and for arrays the next element's index.
    frames: Vec<Frame>,
    pending_key: Option<&'a str>,
}

struct Frame {
    tracked: bool,
    /// `path`'s length at this container.
    path_len: usize,
    next_index: Option<usize>,
    start: usize,
}

impl<'a> Finder<'a, '_> {
    /// Extends `path` to the value starting now; whether that value is wanted.
    fn enter(&mut self) -> bool {
        let key = self.pending_key.take();
        let Some(parent) = self.frames.last_mut() else {
            return self.wanted.contains_key("");
        };
        if !parent.tracked {
            if let Some(index) = &mut parent.next_index {
                *index += 1;
            }
            return false;
        }
        self.path.truncate(parent.path_len);
        match (&mut parent.next_index, key) {
            (Some(index), _) => {
                self.path.push('/');
                self.path.push_str(&index.to_string());
                *index += 1;
            }
            (None, Some(raw)) => push_token(&mut self.path, &decode_key(raw)),
            (None, None) => return false,
        }
        self.wanted.contains_key(self.path.as_str())
    }

    fn record(&mut self, span: Span) {
        if let Some(slot) = self.wanted.get_mut(self.path.as_str()) {
            *slot = Some(span);
        }
    }

    fn offset(&self, raw: &str) -> usize {
        raw.as_ptr() as usize - self.text.as_ptr() as usize
    }
}

impl<'a> Sink<'a> for Finder<'a, '_> {
    fn begin(&mut self, open: u8, at: usize) {
        let tracked = self.enter();
        self.frames.push(Frame {
            tracked,
            path_len: self.path.len(),
            next_index: (open == b'[').then_some(0),
            start: at,
        });
    }

    fn end(&mut self, _: u8, at: usize) {
        if let Some(frame) = self.frames.pop()
            && frame.tracked
        {
            self.path.truncate(frame.path_len);
            self.record(Span::new(frame.start, at + 1));
        }
    }

    fn key(&mut self, raw: &'a str) {
        self.pending_key = Some(raw);
    }

    fn scalar(&mut self, raw: &'a str) {
        if self.enter() {
            let start = self.offset(raw);
            self.record(Span::new(start, start + raw.len()));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn value_spans_are_found_by_pointer() {
        let text = r#"{"a": [1, {"b~/": "x", "c": [true]}], "d\u0065": null, "e": {}}"#;
        let tree = SpanTree::parse(text).unwrap();
        let at = |pointer: &str| tree.value_span(text, pointer).map(|span| &text[span.start..span.end]);
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
        let tree = SpanTree::parse(duplicated).unwrap();
        let last = tree.value_span(duplicated, "/k").unwrap();
        assert_eq!(&duplicated[last.start..last.end], "[2]");
    }

    #[test]
    fn jsonc_members_given_twice_are_found() {
        let text = "{\"a\": 1, // one\n \"a\": 2,}";
        assert!(SpanTree::parse(text).is_err());
        let tree = SpanTree::parse_with(text, true).unwrap();
        let [duplicate] = tree.duplicate_keys() else {
            panic!("one duplicate")
        };
        assert_eq!(
            (
                duplicate.pointer.as_str(),
                &text[duplicate.key_span.start..duplicate.key_span.end]
            ),
            ("/a", "\"a\"")
        );
        assert_eq!(duplicate.key_span.start, 17);
    }

    #[test]
    fn keys_and_opening_braces_are_found_from_a_value() {
        let text = r#"{"a\"\\": {"b" :  [1], "c":2}, "d": "x"}"#;
        let tree = SpanTree::parse(text).unwrap();
        let key =
            |pointer: &str| key_before(text, tree.value_span(text, pointer).unwrap()).map(|s| &text[s.start..s.end]);
        assert_eq!(key("/a\"\\"), Some(r#""a\"\\""#));
        assert_eq!(key("/a\"\\/b"), Some(r#""b""#));
        assert_eq!(key("/a\"\\/c"), Some(r#""c""#));
        assert_eq!(key("/d"), Some(r#""d""#));
        assert_eq!(key(""), None);
        assert_eq!(key_before("[1]", Span::new(1, 2)), None);
        let brace = opening_of(text, tree.value_span(text, "").unwrap());
        assert_eq!(brace, Span::new(0, 1));
        let scalar = tree.value_span(text, "/d").unwrap();
        assert_eq!(opening_of(text, scalar), scalar);
    }

    #[test]
    fn duplicates_are_found_in_small_and_indexed_objects() {
        let mut members: Vec<String> = (0..40).map(|i| format!("\"k{i}\": {i}")).collect();
        members.push("\"k3\": \"again\"".to_string());
        members.push("\"k39\": [\"last\"]".to_string());
        let text = format!(
            "{{\"small\": {{\"a\": 1, \"a\": 2}}, \"big\": {{{}}}}}",
            members.join(", ")
        );
        let tree = SpanTree::parse(&text).unwrap();
        let pointers: Vec<&str> = tree.duplicate_keys().iter().map(|d| d.pointer.as_str()).collect();
        assert_eq!(pointers, ["/small/a", "/big/k3", "/big/k39"]);
        let first = tree.duplicate_keys()[1].first_key_span;
        assert_eq!(&text[first.start..first.end], "\"k3\"");
        let kept = tree.value_span(&text, "/big/k39").unwrap();
        assert_eq!(&text[kept.start..kept.end], "[\"last\"]");
        let kept = tree.value_span(&text, "/big/k3").unwrap();
        assert_eq!(&text[kept.start..kept.end], "\"again\"");
    }

    #[test]
    fn one_scan_finds_the_same_spans_as_the_tree() {
        let text = r#"{"a": [1, {"b~/": "x", "c": [true]}], "d\u0065": null, "k": {"z": 1}, "k": {"y": [2]}}"#;
        let pointers = [
            "",
            "/a/1/b~0~1",
            "/a/1/c/0",
            "/a/5",
            "/de",
            "/k/y/0",
            "/k/z",
            "/nope/deeper",
            "bad",
        ];
        let tree = SpanTree::parse(text).unwrap();
        let expected: Vec<Span> = pointers.iter().map(|p| tree.nearest_span(text, p)).collect();
        assert_eq!(nearest_spans(text, &pointers).unwrap(), expected);
        assert_eq!(nearest_spans_in_checked(text, &pointers), expected);
        let pretty = crate::format::format(text, &Default::default()).unwrap();
        let tree = SpanTree::parse(&pretty).unwrap();
        let expected: Vec<Span> = pointers.iter().map(|p| tree.nearest_span(&pretty, p)).collect();
        assert_eq!(nearest_spans_in_checked(&pretty, &pointers), expected);
        let at = |span: Span| &text[span.start..span.end];
        let spans = nearest_spans(text, &pointers).unwrap();
        // `/k/z` is only in the first of two `k` members; the last one counts.
        assert_eq!(at(spans[6]), r#"{"y": [2]}"#);
        assert_eq!(at(spans[5]), "2");
        assert!(nearest_spans("[1,", &["/0"]).is_err());
        // Text that is not JSON gives the checked walk no panic, whatever it finds.
        for broken in [
            "[1,",
            "{\"a\"",
            "{\"",
            "{\"é",
            "{\"a\\\"é",
            "[[[",
            "\"",
            "{\"a\":}",
            "]",
            "}{",
        ] {
            nearest_spans_in_checked(broken, &["/0", "/a/b", ""]);
        }
        assert_eq!(nearest_spans("[]", &[]).unwrap(), Vec::<Span>::new());
    }

    #[test]
    fn a_huge_object_is_linear() {
        // Quadratic duplicate detection took a minute on this; linear, it is instant.
        let members: Vec<String> = (0..160_000).map(|i| format!("\"x{i}\":{i}")).collect();
        let text = format!("{{{}}}", members.join(","));
        let tree = SpanTree::parse(&text).unwrap();
        assert!(tree.duplicate_keys().is_empty());
        let span = tree.value_span(&text, "/x159999").unwrap();
        assert_eq!(&text[span.start..span.end], "159999");
    }
}
