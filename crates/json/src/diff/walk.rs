//! The walk of two documents that yields both the changes and the patch.
//! Objects match members by name; arrays match their elements by key with
//! moves, or by a longest common subsequence of element hashes. One file,
//! because the walk and the array matching call each other.

use foldhash::{HashMap, HashSet, HashSetExt};
use std::borrow::Cow;

use serde_json::Value;
use similar::DiffOp;

use super::model::{ArrayKey, ArrayMatch, Change, ChangeKind, Diff, DiffOptions, Matching};
use super::patch::PatchOp;
use super::sequence::myers_ops;
use super::tree::{Elements, Members, Shape, Tree};
use super::value;
use crate::lean::LeanDoc;
use crate::parse::push_token;

/// Compares `a` with `b`, values serde_json read (nesting within its limit),
/// through their compact texts: the one walk there is reads lean documents.
/// The changes carry no offsets ([`Diff::starts`]): these texts are not the
/// documents' own.
pub fn diff(a: &Value, b: &Value, options: &DiffOptions) -> Diff {
    let (a_text, b_text) = (a.to_string(), b.to_string());
    let lean = |text| {
        LeanDoc::parse(text).expect(
            "serde_json writes what a lean document reads: no duplicate key, no lone surrogate, its own nesting limit",
        )
    };
    let (a_doc, b_doc) = (lean(&a_text), lean(&b_text));
    let mut diff = diff_trees(a_doc.root(), b_doc.root(), options);
    diff.starts.clear();
    diff
}

/// The changes and patch that turn `a` into `b`, where each change keeps where
/// its values start in the texts the documents were read from.
pub(crate) fn diff_trees<'v, N: Tree<'v>>(a: N, b: N, options: &DiffOptions) -> Diff {
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
    Member(Cow<'v, str>),
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
    fn push_member(&mut self, key: Cow<'v, str>) {
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
                    Segment::Member(key) => token.as_str() == key.as_ref(),
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
    /// Counts one array at `at` matched `by` (`key`: the members, for `Key`);
    /// a first one is listed at `position`.
    fn note_matching(&mut self, at: &Paths<'_>, by: Matching, key: &[String], position: usize) {
        let path = at.pattern();
        match self
            .diff
            .arrays
            .iter_mut()
            .find(|m| m.path == path && m.by == by && m.key == key)
        {
            Some(seen) => seen.count += 1,
            None => self.diff.arrays.insert(
                position,
                ArrayMatch {
                    path,
                    by,
                    key: key.to_vec(),
                    count: 1,
                },
            ),
        }
    }

    fn walk<'v, N: Tree<'v>>(&mut self, a: N, b: N, at: &mut Paths<'v>) {
        if a.spelled_alike(b) {
            return;
        }
        match (a.shape(), b.shape()) {
            (Shape::Object(left), Shape::Object(right)) => {
                // Two versions of an object mostly name the same members in the
                // same order: those are walked side by side, without a hash
                // lookup per member (the changes come in the same order).
                if left.len() == right.len() && left.iter().zip(right.iter()).all(|((l, _), (r, _))| l == r) {
                    for ((key, old), (_, new)) in left.iter().zip(right.iter()) {
                        at.push_member(key);
                        self.walk(old, new, at);
                        at.pop();
                    }
                    return;
                }
                let mut kept = 0;
                for (key, old) in left.iter() {
                    let new = right.get(&key);
                    at.push_member(key);
                    match new {
                        Some(new) => {
                            kept += 1;
                            self.walk(old, new, at);
                        }
                        None => self.removed(at, old),
                    }
                    at.pop();
                }
                // Names are unique, so when every member of B was kept, none was added.
                if kept < right.len() {
                    for (key, new) in right.iter() {
                        if left.get(&key).is_none() {
                            at.push_member(key);
                            self.added(at, new);
                            at.pop();
                        }
                    }
                }
            }
            (Shape::Array(left), Shape::Array(right)) => diff_arrays::<N>(self, &left, &right, at),
            _ if value::trees_equal(a, b) => {}
            _ => {
                self.diff.patch.push(PatchOp::replace(at.b(), b.to_value()));
                self.record(ChangeKind::Changed, at, Some(a), Some(b));
            }
        }
    }

    fn added<'v, N: Tree<'v>>(&mut self, at: &Paths<'_>, new: N) {
        self.diff.patch.push(PatchOp::add(at.b(), new.to_value()));
        self.record(ChangeKind::Added, at, None, Some(new));
    }

    /// A removed object member (array elements are removed by index, see `arrays`).
    fn removed<'v, N: Tree<'v>>(&mut self, at: &Paths<'_>, old: N) {
        self.diff.patch.push(PatchOp::remove(at.b()));
        self.record_removal(at, old);
    }

    fn record_removal<'v, N: Tree<'v>>(&mut self, at: &Paths<'_>, old: N) {
        self.diff.starts.push([old.start(), None]);
        self.diff.changes.push(Change {
            kind: ChangeKind::Removed,
            path: at.a(),
            old_path: None,
            label: at.label(),
            old: Some(old.to_value()),
            new: None,
            old_line: None,
            new_line: None,
        });
    }

    /// Records a change of `old` into `new` (either absent for an addition or
    /// a removal; for a move, where the element was and is).
    fn record<'v, N: Tree<'v>>(&mut self, kind: ChangeKind, at: &Paths<'_>, old: Option<N>, new: Option<N>) {
        let path = at.b();
        let old_path = Some(at.a()).filter(|a| *a != path && kind != ChangeKind::Added);
        self.diff
            .starts
            .push([old.and_then(Tree::start), new.and_then(Tree::start)]);
        self.diff.changes.push(Change {
            kind,
            path,
            old_path,
            label: at.label(),
            // A move carries no values: they are where they were, elsewhere.
            old: old.filter(|_| kind != ChangeKind::Moved).map(Tree::to_value),
            new: new.filter(|_| kind != ChangeKind::Moved).map(Tree::to_value),
            old_line: None,
            new_line: None,
        });
    }
}

/// Above this many element pairs, unkeyed arrays pair by position: Myers' diff
/// of two large, mostly different arrays is quadratic, and a diff must not hang.
const SEQUENCE_PAIR_LIMIT: usize = 100_000_000;

fn diff_arrays<'v, N: Tree<'v>>(walker: &mut Walker<'_>, a: &N::Array, b: &N::Array, at: &mut Paths<'v>) {
    let keyed = walker
        .options
        .array_keys
        .iter()
        .filter(|key| key.path.as_ref().is_none_or(|pattern| at.matches(pattern)))
        .find_map(|key| Keys::of::<N>(key, a, b));
    // Arrays are noted only where something in them differs: an equal array
    // matters to no one, and the lean walk never looks inside one.
    let changes_before = walker.diff.changes.len();
    if let Some(keys) = keyed {
        // Listed before the arrays inside it, as the walk meets them.
        let position = walker.diff.arrays.len();
        by_key::<N>(walker, a, b, &keys, at);
        if walker.diff.changes.len() > changes_before {
            walker.note_matching(at, Matching::Key, keys.fields, position);
        }
        return;
    }
    let by = if a.len().saturating_mul(b.len()) <= SEQUENCE_PAIR_LIMIT {
        by_sequence::<N>(walker, a, b, at);
        Matching::Sequence
    } else {
        by_position::<N>(walker, a, b, at);
        Matching::Position
    };
    // Only where a key would have named the elements and something differs.
    let objects = |items: &N::Array| items.len() > 0 && items.iter().all(Tree::is_object);
    if walker.diff.changes.len() > changes_before && (objects(a) || objects(b)) {
        let position = walker.diff.arrays.len();
        walker.note_matching(at, by, &[], position);
    }
}

/// Every element's key, when the key identifies each element of both arrays.
struct Keys<'k> {
    fields: &'k [String],
    a: Vec<String>,
    b: Vec<String>,
}

impl<'k> Keys<'k> {
    fn of<'v, N: Tree<'v>>(key: &'k ArrayKey, a: &N::Array, b: &N::Array) -> Option<Self> {
        let a_keys = unique_keys::<N>(&key.fields, a)?;
        let b_keys = unique_keys::<N>(&key.fields, b)?;
        Some(Keys {
            fields: &key.fields,
            a: a_keys,
            b: b_keys,
        })
    }

    /// `[name=echo]` or `[server=x,name=echo]`, from the element itself.
    fn label<'v, N: Tree<'v>>(&self, element: N) -> String {
        let parts: Vec<String> = self
            .fields
            .iter()
            .map(|field| match element.member(field) {
                Some(member) => match member.shape() {
                    Shape::String(s) => format!("{field}={s}"),
                    _ => format!("{field}={}", member.to_value()),
                },
                None => format!("{field}={}", Value::Null),
            })
            .collect();
        format!("[{}]", parts.join(","))
    }
}

fn unique_keys<'v, N: Tree<'v>>(fields: &[String], items: &N::Array) -> Option<Vec<String>> {
    let mut keys = Vec::with_capacity(items.len());
    let mut seen = HashSet::with_capacity(items.len());
    for item in items.iter() {
        if !item.is_object() {
            return None;
        }
        let mut key = String::new();
        for field in fields {
            let member = item.member(field)?;
            match member.shape() {
                Shape::String(s) => key.push_str(&s),
                // As serde_json spells the number, which is not always as written
                // (`1E3` is `1e+3`): keys that serde_json reads alike are one key.
                Shape::Number(_) => key.push_str(&member.to_value().to_string()),
                Shape::Bool(b) => key.push_str(if b { "true" } else { "false" }),
                _ => return None,
            }
            key.push('\u{0}');
        }
        if !seen.insert(key.clone()) {
            return None;
        }
        keys.push(key);
    }
    Some(keys)
}

/// Keyed matching. The patch removes deleted elements (highest index first),
/// then walks B's order inserting new elements and moving displaced ones, and
/// only then descends into matched pairs at their B index.
fn by_key<'v, N: Tree<'v>>(walker: &mut Walker<'_>, a: &N::Array, b: &N::Array, keys: &Keys<'_>, at: &mut Paths<'v>) {
    let a_index: HashMap<&str, usize> = keys.a.iter().enumerate().map(|(i, k)| (k.as_str(), i)).collect();
    let b_keys: HashSet<&str> = keys.b.iter().map(String::as_str).collect();
    let matched: Vec<Option<usize>> = keys.b.iter().map(|k| a_index.get(k.as_str()).copied()).collect();
    let stable = longest_increasing(&matched, a.len());
    let array = at.b();

    let deleted: Vec<usize> = (0..a.len()).filter(|&i| !b_keys.contains(keys.a[i].as_str())).collect();
    for &i in deleted.iter().rev() {
        walker.diff.patch.push(PatchOp::remove(format!("{array}/{i}")));
    }
    for &i in &deleted {
        at.push_element(Some(i), i, Some(keys.label(a.at(i))));
        walker.record_removal(at, a.at(i));
        at.pop();
    }

    // B's elements before `j` are in place; `pending` holds the kept A elements
    // after them, in their current order.
    let kept: Vec<usize> = (0..a.len()).filter(|&i| b_keys.contains(keys.a[i].as_str())).collect();
    let mut pending = Pending::new(a.len(), &kept);
    for (j, new) in b.iter().enumerate() {
        if let Some(i) = matched[j].filter(|&i| !stable[i]) {
            at.push_element(Some(i), j, Some(keys.label(new)));
            walker.record(ChangeKind::Moved, at, Some(a.at(i)), Some(new));
            at.pop();
        }
        if let Some(i) = matched[j]
            && pending.front() == Some(i)
        {
            pending.pop_front();
            continue;
        }
        match matched[j] {
            None => {
                walker
                    .diff
                    .patch
                    .push(PatchOp::add(format!("{array}/{j}"), new.to_value()));
                at.push_element(None, j, Some(keys.label(new)));
                walker.record(ChangeKind::Added, at, None, Some(new));
                at.pop();
            }
            Some(i) if stable[i] => {
                // Elements ahead of a stable one are moved later in B: park them at the end.
                while pending.front().is_some_and(|id| id != i) {
                    pending.park_front();
                    let last = j + pending.len() - 1;
                    let op = PatchOp::relocate(format!("{array}/{j}"), format!("{array}/{last}"));
                    walker.diff.patch.push(op);
                }
                pending.pop_front();
            }
            Some(i) => {
                let Some(offset) = pending.remove(i) else {
                    continue;
                };
                let op = PatchOp::relocate(format!("{array}/{}", j + offset), format!("{array}/{j}"));
                walker.diff.patch.push(op);
            }
        }
    }

    for (j, new) in b.iter().enumerate() {
        if let Some(i) = matched[j] {
            let old = a.at(i);
            // Before the label is made: most kept elements did not change.
            if old.spelled_alike(new) {
                continue;
            }
            at.push_element(Some(i), j, Some(keys.label(new)));
            walker.walk(old, new, at);
            at.pop();
        }
    }
}

/// The kept A elements not yet placed, in their current order: taken from the
/// front, parked at the back, or removed from anywhere with their offset from
/// the front. A Fenwick tree over slots counts the live ones, so each step is
/// O(log n) and a reversed 40,000-element array is not quadratic.
struct Pending {
    /// The A index in each slot; a parked element takes a new slot at the back.
    slots: Vec<usize>,
    live: Vec<bool>,
    /// The current slot of each A index.
    slot_of: Vec<usize>,
    /// Fenwick tree of `live`.
    counts: Vec<usize>,
    /// No live slot before this one.
    first: usize,
    len: usize,
}

impl Pending {
    fn new(a_len: usize, kept: &[usize]) -> Self {
        // Each element is parked at most once, so twice the slots suffice: only
        // elements ahead of the stable one being placed are parked, and those are
        // never stable (stable elements keep their order), so a parked element sits
        // behind every stable one still pending and is placed by a move.
        let capacity = kept.len() * 2;
        let mut pending = Pending {
            slots: Vec::with_capacity(capacity),
            live: Vec::with_capacity(capacity),
            slot_of: vec![usize::MAX; a_len],
            counts: vec![0; capacity + 1],
            first: 0,
            len: 0,
        };
        for &id in kept {
            pending.push_back(id);
        }
        pending
    }

    fn len(&self) -> usize {
        self.len
    }

    fn push_back(&mut self, id: usize) {
        let slot = self.slots.len();
        self.slots.push(id);
        self.live.push(true);
        self.slot_of[id] = slot;
        self.add(slot, 1);
        self.len += 1;
    }

    fn front(&mut self) -> Option<usize> {
        while self.first < self.slots.len() && !self.live[self.first] {
            self.first += 1;
        }
        (self.first < self.slots.len()).then(|| self.slots[self.first])
    }

    fn pop_front(&mut self) {
        if let Some(id) = self.front() {
            self.kill(id);
        }
    }

    fn park_front(&mut self) {
        if let Some(id) = self.front() {
            self.kill(id);
            self.push_back(id);
        }
    }

    /// Removes `id`; returns how many live elements were ahead of it.
    fn remove(&mut self, id: usize) -> Option<usize> {
        let slot = *self.slot_of.get(id)?;
        if slot == usize::MAX || !self.live[slot] {
            return None;
        }
        let ahead = self.prefix(slot);
        self.kill(id);
        Some(ahead)
    }

    fn kill(&mut self, id: usize) {
        let slot = self.slot_of[id];
        self.live[slot] = false;
        self.slot_of[id] = usize::MAX;
        self.add(slot, usize::MAX); // wrapping −1
        self.len -= 1;
    }

    fn add(&mut self, slot: usize, delta: usize) {
        let mut i = slot + 1;
        while i < self.counts.len() {
            self.counts[i] = self.counts[i].wrapping_add(delta);
            i += i & i.wrapping_neg();
        }
    }

    /// Live slots before `slot`.
    fn prefix(&self, slot: usize) -> usize {
        let mut sum = 0usize;
        let mut i = slot;
        while i > 0 {
            sum = sum.wrapping_add(self.counts[i]);
            i &= i - 1;
        }
        sum
    }
}

/// `stable[i]`: A element `i` keeps its relative order, being on a longest
/// increasing run of A indices taken in B's order; every other match moved.
fn longest_increasing(matched: &[Option<usize>], a_len: usize) -> Vec<bool> {
    let sequence: Vec<usize> = matched.iter().flatten().copied().collect();
    // tails[k]: index into `sequence` of the smallest tail of a run of length k + 1.
    let mut tails: Vec<usize> = Vec::new();
    let mut previous: Vec<Option<usize>> = vec![None; sequence.len()];
    for (position, &value) in sequence.iter().enumerate() {
        let length = tails.partition_point(|&t| sequence[t] < value);
        previous[position] = length.checked_sub(1).map(|k| tails[k]);
        if length == tails.len() {
            tails.push(position);
        } else {
            tails[length] = position;
        }
    }
    let mut stable = vec![false; a_len];
    let mut cursor = tails.last().copied();
    while let Some(position) = cursor {
        stable[sequence[position]] = true;
        cursor = previous[position];
    }
    stable
}

/// Unkeyed matching by a longest common subsequence of element hashes.
fn by_sequence<'v, N: Tree<'v>>(walker: &mut Walker<'_>, a: &N::Array, b: &N::Array, at: &mut Paths<'v>) {
    let a_hashes: Vec<u64> = a.iter().map(value::tree_hash).collect();
    let b_hashes: Vec<u64> = b.iter().map(value::tree_hash).collect();
    for op in myers_ops(&a_hashes, &b_hashes) {
        match op {
            DiffOp::Equal {
                old_index,
                new_index,
                len,
            } => {
                // Equal hashes; walking finds nothing unless two values collided.
                for k in 0..len {
                    walk_pair::<N>(walker, a, b, old_index + k, new_index + k, at);
                }
            }
            DiffOp::Delete {
                old_index,
                old_len,
                new_index,
            } => remove_run::<N>(walker, a, old_index..old_index + old_len, new_index, at),
            DiffOp::Insert { new_index, new_len, .. } => insert_run::<N>(walker, b, new_index..new_index + new_len, at),
            DiffOp::Replace {
                old_index,
                old_len,
                new_index,
                new_len,
            } => {
                let paired = old_len.min(new_len);
                for k in 0..paired {
                    walk_pair::<N>(walker, a, b, old_index + k, new_index + k, at);
                }
                remove_run::<N>(
                    walker,
                    a,
                    old_index + paired..old_index + old_len,
                    new_index + paired,
                    at,
                );
                insert_run::<N>(walker, b, new_index + paired..new_index + new_len, at);
            }
        }
    }
}

/// Pairs elements by index: the fallback for very large unkeyed arrays.
fn by_position<'v, N: Tree<'v>>(walker: &mut Walker<'_>, a: &N::Array, b: &N::Array, at: &mut Paths<'v>) {
    let paired = a.len().min(b.len());
    for k in 0..paired {
        walk_pair::<N>(walker, a, b, k, k, at);
    }
    remove_run::<N>(walker, a, paired..a.len(), paired, at);
    insert_run::<N>(walker, b, paired..b.len(), at);
}

fn walk_pair<'v, N: Tree<'v>>(
    walker: &mut Walker<'_>,
    a: &N::Array,
    b: &N::Array,
    i: usize,
    j: usize,
    at: &mut Paths<'v>,
) {
    at.push_element(Some(i), j, None);
    walker.walk(a.at(i), b.at(j), at);
    at.pop();
}

/// Removes A's elements `run`, which now sit at `position` one after another.
fn remove_run<'v, N: Tree<'v>>(
    walker: &mut Walker<'_>,
    a: &N::Array,
    run: std::ops::Range<usize>,
    position: usize,
    at: &mut Paths<'_>,
) {
    if run.is_empty() {
        return;
    }
    let array = at.b();
    for i in run {
        walker.diff.patch.push(PatchOp::remove(format!("{array}/{position}")));
        at.push_element(Some(i), i, None);
        walker.record_removal(at, a.at(i));
        at.pop();
    }
}

fn insert_run<'v, N: Tree<'v>>(walker: &mut Walker<'_>, b: &N::Array, run: std::ops::Range<usize>, at: &mut Paths<'_>) {
    for j in run {
        at.push_element(None, j, None);
        walker.added(at, b.at(j));
        at.pop();
    }
}
