//! Matching the elements of two arrays: by key with moves, or by a longest
//! common subsequence of element hashes.

use std::collections::HashMap;

use serde_json::Value;
use similar::{Algorithm, DiffOp, capture_diff_slices};

use super::{ArrayKey, ChangeKind, PatchOp, Paths, Walker, value};
use crate::json::parse::pointer_tokens;

/// Above this many element pairs, unkeyed arrays pair by position: Myers' diff
/// of two large, mostly different arrays is quadratic, and a diff must not hang.
const SEQUENCE_PAIR_LIMIT: usize = 100_000_000;

pub(super) fn diff_arrays(walker: &mut Walker<'_>, a: &[Value], b: &[Value], at: &mut Paths) {
    let keyed = walker
        .options
        .array_keys
        .iter()
        .filter(|key| key_applies(key, &at.b))
        .find_map(|key| Keys::of(key, a, b));
    match keyed {
        Some(keys) => by_key(walker, a, b, &keys, at),
        None if a.len().saturating_mul(b.len()) <= SEQUENCE_PAIR_LIMIT => by_sequence(walker, a, b, at),
        None => by_position(walker, a, b, at),
    }
}

fn key_applies(key: &ArrayKey, pointer: &str) -> bool {
    let Some(pattern) = &key.path else { return true };
    let Some(tokens) = pointer_tokens(pointer) else {
        return false;
    };
    pattern.len() == tokens.len() && pattern.iter().zip(&tokens).all(|(p, t)| p == "*" || p == t)
}

/// Every element's key, when the key identifies each element of both arrays.
struct Keys<'k> {
    fields: &'k [String],
    a: Vec<String>,
    b: Vec<String>,
}

impl<'k> Keys<'k> {
    fn of(key: &'k ArrayKey, a: &[Value], b: &[Value]) -> Option<Self> {
        let a_keys = unique_keys(&key.fields, a)?;
        let b_keys = unique_keys(&key.fields, b)?;
        Some(Keys {
            fields: &key.fields,
            a: a_keys,
            b: b_keys,
        })
    }

    /// `[name=echo]` or `[server=x,name=echo]`, from the element itself.
    fn label(&self, element: &Value) -> String {
        let parts: Vec<String> = self
            .fields
            .iter()
            .map(|field| match &element[field] {
                Value::String(s) => format!("{field}={s}"),
                other => format!("{field}={other}"),
            })
            .collect();
        format!("[{}]", parts.join(","))
    }
}

fn unique_keys(fields: &[String], items: &[Value]) -> Option<Vec<String>> {
    let mut keys = Vec::with_capacity(items.len());
    let mut seen = std::collections::HashSet::with_capacity(items.len());
    for item in items {
        let mut key = String::new();
        for field in fields {
            match item.get(field)? {
                Value::String(s) => key.push_str(s),
                scalar @ (Value::Number(_) | Value::Bool(_)) => key.push_str(&scalar.to_string()),
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

fn element_paths(at: &Paths, a_index: Option<usize>, b_index: usize, label: &str) -> Paths {
    let mut paths = at.clone();
    if let Some(a_index) = a_index {
        paths.a.push('/');
        paths.a.push_str(&a_index.to_string());
    }
    paths.b.push('/');
    paths.b.push_str(&b_index.to_string());
    paths.label.push_str(label);
    paths
}

/// Keyed matching. The patch removes deleted elements (highest index first),
/// then walks B's order inserting new elements and moving displaced ones, and
/// only then descends into matched pairs at their B index.
fn by_key(walker: &mut Walker<'_>, a: &[Value], b: &[Value], keys: &Keys<'_>, at: &mut Paths) {
    let a_index: HashMap<&str, usize> = keys.a.iter().enumerate().map(|(i, k)| (k.as_str(), i)).collect();
    let b_keys: std::collections::HashSet<&str> = keys.b.iter().map(String::as_str).collect();
    let matched: Vec<Option<usize>> = keys.b.iter().map(|k| a_index.get(k.as_str()).copied()).collect();
    let stable = longest_increasing(&matched, a.len());

    let deleted: Vec<usize> = (0..a.len()).filter(|&i| !b_keys.contains(keys.a[i].as_str())).collect();
    for &i in deleted.iter().rev() {
        walker.diff.patch.push(PatchOp::remove(format!("{}/{i}", at.b)));
    }
    for &i in &deleted {
        walker.record_removal(&element_paths(at, Some(i), i, &keys.label(&a[i])), &a[i]);
    }

    // Ids: an A index for kept elements, `a.len() + j` for B's new element j.
    let mut current: Vec<usize> = (0..a.len()).filter(|&i| b_keys.contains(keys.a[i].as_str())).collect();
    for (j, new) in b.iter().enumerate() {
        let target = matched[j].unwrap_or(a.len() + j);
        if let Some(i) = matched[j].filter(|&i| !stable[i]) {
            let paths = element_paths(at, Some(i), j, &keys.label(new));
            walker.record(ChangeKind::Moved, &paths, None, None);
        }
        if current.get(j) == Some(&target) {
            continue;
        }
        match matched[j] {
            None => {
                walker.diff.patch.push(PatchOp::add(format!("{}/{j}", at.b), new));
                current.insert(j, target);
                let paths = element_paths(at, None, j, &keys.label(new));
                walker.record(ChangeKind::Added, &paths, None, Some(new));
            }
            Some(i) if stable[i] => {
                // Elements ahead of a stable one are moved later in B: park them at the end.
                while current.get(j).is_some_and(|&id| id != target) {
                    let parked = current.remove(j);
                    current.push(parked);
                    let last = current.len() - 1;
                    walker
                        .diff
                        .patch
                        .push(PatchOp::relocate(format!("{}/{j}", at.b), format!("{}/{last}", at.b)));
                }
            }
            Some(_) => {
                let Some(from) = current.iter().position(|&id| id == target) else {
                    continue;
                };
                current.remove(from);
                current.insert(j, target);
                walker
                    .diff
                    .patch
                    .push(PatchOp::relocate(format!("{}/{from}", at.b), format!("{}/{j}", at.b)));
            }
        }
    }

    for (j, new) in b.iter().enumerate() {
        if let Some(i) = matched[j] {
            let mut paths = element_paths(at, Some(i), j, &keys.label(new));
            walker.walk(&a[i], new, &mut paths);
        }
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
fn by_sequence(walker: &mut Walker<'_>, a: &[Value], b: &[Value], at: &mut Paths) {
    let a_hashes: Vec<u64> = a.iter().map(value::hash).collect();
    let b_hashes: Vec<u64> = b.iter().map(value::hash).collect();
    for op in capture_diff_slices(Algorithm::Myers, &a_hashes, &b_hashes) {
        match op {
            DiffOp::Equal {
                old_index,
                new_index,
                len,
            } => {
                // Equal hashes; walking finds nothing unless two values collided.
                for k in 0..len {
                    walk_pair(walker, a, b, old_index + k, new_index + k, at);
                }
            }
            DiffOp::Delete {
                old_index,
                old_len,
                new_index,
            } => remove_run(walker, a, old_index..old_index + old_len, new_index, at),
            DiffOp::Insert { new_index, new_len, .. } => insert_run(walker, b, new_index..new_index + new_len, at),
            DiffOp::Replace {
                old_index,
                old_len,
                new_index,
                new_len,
            } => {
                let paired = old_len.min(new_len);
                for k in 0..paired {
                    walk_pair(walker, a, b, old_index + k, new_index + k, at);
                }
                remove_run(
                    walker,
                    a,
                    old_index + paired..old_index + old_len,
                    new_index + paired,
                    at,
                );
                insert_run(walker, b, new_index + paired..new_index + new_len, at);
            }
        }
    }
}

/// Pairs elements by index: the fallback for very large unkeyed arrays.
fn by_position(walker: &mut Walker<'_>, a: &[Value], b: &[Value], at: &mut Paths) {
    let paired = a.len().min(b.len());
    for k in 0..paired {
        walk_pair(walker, a, b, k, k, at);
    }
    remove_run(walker, a, paired..a.len(), paired, at);
    insert_run(walker, b, paired..b.len(), at);
}

fn walk_pair(walker: &mut Walker<'_>, a: &[Value], b: &[Value], i: usize, j: usize, at: &Paths) {
    let mut paths = element_paths(at, Some(i), j, &format!("/{j}"));
    walker.walk(&a[i], &b[j], &mut paths);
}

/// Removes A's elements `run`, which now sit at `position` one after another.
fn remove_run(walker: &mut Walker<'_>, a: &[Value], run: std::ops::Range<usize>, position: usize, at: &Paths) {
    for i in run {
        walker.diff.patch.push(PatchOp::remove(format!("{}/{position}", at.b)));
        walker.record_removal(&element_paths(at, Some(i), i, &format!("/{i}")), &a[i]);
    }
}

fn insert_run(walker: &mut Walker<'_>, b: &[Value], run: std::ops::Range<usize>, at: &Paths) {
    for j in run {
        walker.added(&element_paths(at, None, j, &format!("/{j}")), &b[j]);
    }
}
