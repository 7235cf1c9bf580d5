//! What validation would cost, and whether its verdict can be trusted, found
//! before the validator runs: no schema may hold it for minutes, and no
//! verdict may rest on a number rounded to `f64`.
//!
//! The `jsonschema` crate evaluates every branch of `anyOf`, `oneOf` and
//! `allOf` when it collects errors, so a schema whose branches refer back to
//! it does work that doubles with each level of the instance: 22 nested arrays
//! against `{"items": {"oneOf": [{"$ref": "#"}, {"$ref": "#"}, …]}}` took 34 s
//! and 12 GB. Its numeric keywords compare through `f64`, so
//! `{"const": 18446744073709551617}` accepts `18446744073709551616`.
//!
//! A [`Guard`] is built with the compiled schema: the schema as a graph of
//! subschemas, each with the subschemas it applies to the same value (through
//! `allOf`, `$ref`, …) and to the value's members and elements. [`Guard::check`]
//! walks the instance with that graph, counting how many times each subschema
//! would be applied to each value (the validator does not share work between
//! branches, so the counts multiply), and stops when the count passes a budget
//! that grows with the input. The walk itself visits each (subschema, value)
//! pair once, so it is cheap where the validator would not be. On the way it
//! finds numbers that a numeric keyword would compare through `f64` when `f64`
//! cannot order them exactly. Either way the answer is "could not check",
//! never a verdict.

use foldhash::{HashMap, HashMapExt};
use jsonschema::json::{Array, Json, JsonNumber, Node, Object};
use referencing::{Draft, Registry, Resolver};
use serde_json::Value;

use crate::diff::value::compare_numbers;
use crate::pointer::push_token;

/// Schema applications every document may cost, whatever its size.
pub const BASE_BUDGET: u64 = 262_144;
/// Schema applications each byte of the document adds to its budget.
pub const BUDGET_PER_BYTE: u64 = 4;

/// A closure (the subschemas one subschema applies to the same value) larger
/// than this is not kept: a value it reaches is too expensive to check.
const MAX_CLOSURE: usize = 4096;
/// `$ref` chains deeper than this, through in-place applicators only, are too expensive to follow.
const MAX_CHAIN: usize = 512;

/// Why a document gets no verdict.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Stop {
    /// Validating would apply subschemas more often than the document's budget allows.
    TooExpensive { budget: u64 },
    /// A numeric keyword would compare the number at this instance pointer
    /// (or a number of its own) through `f64`, which cannot hold it exactly.
    Inexact { pointer: String },
}

/// The schema as a graph, for [`Guard::check`].
#[derive(Debug, Default)]
pub struct Guard {
    nodes: Vec<GraphNode>,
    /// Per node: every node applied to the same value through it, itself
    /// included, with how many times; `None` where the applicators loop or fan out past [`MAX_CLOSURE`].
    closures: Vec<Option<Vec<(u32, u64)>>>,
    /// Per node: the sum of its closure's counts (saturating; `u64::MAX` for `None`).
    closure_totals: Vec<u64>,
    /// Whether any subschema holds a numeric keyword: then every document is walked.
    numeric: bool,
    /// When no applicator leads back to a subschema it came from: the number
    /// of paths from the root through the graph, which bounds the subschemas
    /// applied to any one value. A document with fewer values than the budget
    /// allows for that many needs no walk.
    paths: Option<u64>,
}

#[derive(Debug, Default)]
struct GraphNode {
    /// Applied to the same value (`allOf`, `anyOf`, `oneOf`, `not`, `if`/`then`/`else`, `$ref`, …).
    same: Vec<u32>,
    /// Applied to the member of that name.
    properties: Vec<(String, u32)>,
    /// Applied to any member (`patternProperties`, `additionalProperties`, `unevaluatedProperties`).
    any_member: Vec<u32>,
    /// Applied to each member name (`propertyNames`).
    names: Vec<u32>,
    /// Applied to the element at an index (`prefixItems`, an array of `items`).
    item_at: Vec<(usize, u32)>,
    /// Applied to any element (`items`, `additionalItems`, `contains`, `unevaluatedItems`).
    any_item: Vec<u32>,
    numbers: Numbers,
}

/// What the subschema's keywords do with numbers.
#[derive(Debug, Default, Clone)]
struct Numbers {
    /// `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum`, `type: integer`.
    orders: bool,
    /// `multipleOf`, by its text.
    multiple_of: Option<String>,
    /// `const` or `enum` with a number anywhere in it.
    equals: bool,
    /// `uniqueItems: true`.
    unique: bool,
    /// One of the keywords' own numbers is not exact in `f64`.
    inexact: bool,
}

impl Numbers {
    fn any(&self) -> bool {
        self.orders || self.multiple_of.is_some() || self.equals || self.unique || self.inexact
    }
}

/// Keywords whose value is one subschema applied to the same value.
const SAME_ONE: &[&str] = &["not", "if", "then", "else"];
/// Keywords whose value is an array of subschemas applied to the same value.
const SAME_MANY: &[&str] = &["allOf", "anyOf", "oneOf"];
/// Keywords whose value is an object of subschemas applied to the same value.
const SAME_MAP: &[&str] = &["dependentSchemas", "dependencies"];

impl Guard {
    /// The graph of `root` (registered at `root_uri`) and of `documents` it may
    /// refer to, read as `draft`. References the registry cannot resolve are
    /// left out: the compiler has refused those schemas already.
    pub fn build(root: &Value, root_uri: &str, documents: &[(String, Value)], draft: Draft) -> Guard {
        let mut builder = Registry::new().draft(draft);
        let mut uris = vec![root_uri.to_string()];
        let entries = std::iter::once((root_uri.to_string(), root.clone())).chain(documents.iter().cloned());
        for (uri, value) in entries {
            if !uris.contains(&uri) {
                uris.push(uri.clone());
            }
            builder = match builder.add(&uri, value) {
                Ok(next) => next,
                Err(_) => return Guard::unbounded(),
            };
        }
        let Ok(registry) = builder.prepare() else {
            return Guard::unbounded();
        };
        let Ok(base) = referencing::uri::from_str(root_uri) else {
            return Guard::unbounded();
        };
        let resolver = registry.resolver(base);
        let Ok(start) = resolver.lookup("") else {
            return Guard::unbounded();
        };
        let mut graph = GraphBuilder {
            draft,
            registry: &registry,
            documents: uris,
            index: HashMap::new(),
            nodes: Vec::new(),
            pending: Vec::new(),
        };
        let (contents, resolver, _) = start.into_inner();
        graph.node(contents, resolver);
        while let Some((value, resolver, at)) = graph.pending.pop() {
            graph.fill(value, resolver, at);
        }
        Guard::of(graph.nodes)
    }

    /// A guard that finds every document too expensive: for a schema whose
    /// graph could not be built, so that it is never trusted blindly.
    fn unbounded() -> Guard {
        Guard {
            nodes: vec![GraphNode::default()],
            closures: vec![None],
            closure_totals: vec![u64::MAX],
            numeric: true,
            paths: None,
        }
    }

    fn of(nodes: Vec<GraphNode>) -> Guard {
        let mut closures: Vec<Closure> = (0..nodes.len()).map(|_| Closure::Unknown).collect();
        for start in 0..nodes.len() {
            closure_of(&nodes, &mut closures, start as u32, 0);
        }
        let closures: Vec<Option<Vec<(u32, u64)>>> = closures
            .into_iter()
            .map(|closure| match closure {
                Closure::Done(list) => Some(list),
                _ => None,
            })
            .collect();
        let closure_totals = closures
            .iter()
            .map(|closure| {
                closure.as_ref().map_or(u64::MAX, |list| {
                    list.iter().fold(0u64, |sum, &(_, n)| sum.saturating_add(n))
                })
            })
            .collect();
        let numeric = nodes.iter().any(|node| node.numbers.any());
        let paths = paths_from_root(&nodes);
        Guard {
            nodes,
            closures,
            closure_totals,
            numeric,
            paths,
        }
    }

    /// The budget of a document of `bytes` bytes.
    pub fn budget(bytes: usize) -> u64 {
        BASE_BUDGET.saturating_add(BUDGET_PER_BYTE.saturating_mul(bytes as u64))
    }

    /// Whether a document of `bytes` bytes could reach the budget or a numeric
    /// keyword: if not, [`Guard::check`] would find nothing and can be skipped.
    pub fn needs_check(&self, bytes: usize) -> bool {
        if self.numeric {
            return true;
        }
        // A document of n bytes holds at most (n + 1) / 2 values (and as many names).
        match self.paths {
            Some(paths) => paths.saturating_mul(bytes as u64 + 1) > Guard::budget(bytes),
            None => true,
        }
    }

    /// Walks the document `root` of `bytes` bytes: `Ok` when validating it is
    /// within its budget and every number its numeric keywords meet is exact.
    pub fn check<'a, F: Json>(&self, root: &F::Node<'a>, bytes: usize) -> Result<(), Stop> {
        if self.nodes.is_empty() {
            return Ok(());
        }
        let mut walk = Walk {
            guard: self,
            spent: 0,
            budget: Guard::budget(bytes),
            pointer: String::new(),
        };
        walk.visit::<F>(root, &[(0, 1)])
    }
}

struct GraphBuilder<'r> {
    draft: Draft,
    registry: &'r Registry<'r>,
    /// The URIs of the documents, for the dynamic references that may land in any of them.
    documents: Vec<String>,
    /// Nodes by the address of their schema value in the registry.
    index: HashMap<usize, u32>,
    nodes: Vec<GraphNode>,
    pending: Vec<(&'r Value, Resolver<'r>, u32)>,
}

impl<'r> GraphBuilder<'r> {
    fn node(&mut self, value: &'r Value, resolver: Resolver<'r>) -> u32 {
        let key = std::ptr::from_ref(value) as usize;
        if let Some(&at) = self.index.get(&key) {
            return at;
        }
        let at = self.nodes.len() as u32;
        self.nodes.push(GraphNode::default());
        self.index.insert(key, at);
        self.pending.push((value, resolver, at));
        at
    }

    fn fill(&mut self, value: &'r Value, resolver: Resolver<'r>, at: u32) {
        let Value::Object(map) = value else {
            return;
        };
        let resolver = resolver
            .in_subresource(self.draft.create_resource_ref(value))
            .unwrap_or(resolver);
        let mut node = GraphNode {
            numbers: numbers_of(map),
            ..GraphNode::default()
        };
        let sub = |value: &'r Value, builder: &mut Self| builder.node(value, resolver.clone());
        for keyword in SAME_ONE {
            if let Some(value) = map.get(*keyword) {
                node.same.push(sub(value, self));
            }
        }
        for keyword in SAME_MANY {
            if let Some(Value::Array(items)) = map.get(*keyword) {
                for item in items {
                    node.same.push(sub(item, self));
                }
            }
        }
        for keyword in SAME_MAP {
            if let Some(Value::Object(members)) = map.get(*keyword) {
                for member in members.values().filter(|v| v.is_object() || v.is_boolean()) {
                    node.same.push(sub(member, self));
                }
            }
        }
        for keyword in ["$ref", "$dynamicRef", "$recursiveRef"] {
            let Some(Value::String(reference)) = map.get(keyword) else {
                continue;
            };
            let mut targets = Vec::new();
            if let Ok(resolved) = resolver.lookup(reference) {
                targets.push(resolved.into_inner());
            }
            // A dynamic reference may land on the anchor of the same name in any
            // document of the dynamic scope: count each of them.
            if keyword != "$ref" {
                let fragment = reference.rsplit_once('#').map_or("", |(_, f)| f);
                for document in self.documents.clone() {
                    let Ok(uri) = referencing::uri::from_str(&document) else {
                        continue;
                    };
                    if let Ok(resolved) = self.registry.resolver(uri).lookup(&format!("#{fragment}")) {
                        targets.push(resolved.into_inner());
                    }
                }
            }
            // One reference applies one of its targets: the same one found twice counts once.
            let mut reached = Vec::new();
            for (contents, target_resolver, _) in targets {
                let target = self.node(contents, target_resolver);
                if !reached.contains(&target) {
                    reached.push(target);
                }
            }
            node.same.extend(reached);
        }
        // The unevaluated keywords apply the in-place branches again to learn
        // what they evaluated: count those twice.
        if map.contains_key("unevaluatedProperties") || map.contains_key("unevaluatedItems") {
            let again = node.same.clone();
            node.same.extend(again);
        }
        if let Some(Value::Object(properties)) = map.get("properties") {
            for (name, value) in properties {
                node.properties.push((name.clone(), sub(value, self)));
            }
        }
        if let Some(Value::Object(patterns)) = map.get("patternProperties") {
            for value in patterns.values() {
                node.any_member.push(sub(value, self));
            }
        }
        for keyword in ["additionalProperties", "unevaluatedProperties"] {
            if let Some(value) = map.get(keyword) {
                node.any_member.push(sub(value, self));
            }
        }
        if let Some(value) = map.get("propertyNames") {
            node.names.push(sub(value, self));
        }
        if let Some(Value::Array(items)) = map.get("prefixItems") {
            for (index, value) in items.iter().enumerate() {
                node.item_at.push((index, sub(value, self)));
            }
        }
        match map.get("items") {
            Some(Value::Array(items)) => {
                for (index, value) in items.iter().enumerate() {
                    node.item_at.push((index, sub(value, self)));
                }
            }
            Some(value) => node.any_item.push(sub(value, self)),
            None => {}
        }
        for keyword in ["additionalItems", "contains", "unevaluatedItems"] {
            if let Some(value) = map.get(keyword) {
                node.any_item.push(sub(value, self));
            }
        }
        self.nodes[at as usize] = node;
    }
}

/// The numeric keywords of a subschema.
fn numbers_of(map: &serde_json::Map<String, Value>) -> Numbers {
    let mut numbers = Numbers::default();
    for keyword in ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"] {
        if let Some(value) = map.get(keyword) {
            numbers.orders = true;
            numbers.inexact |= value.as_number().is_some_and(|n| !exact_in_f64(n.as_str()));
        }
    }
    let integer = |value: &Value| value.as_str() == Some("integer");
    match map.get("type") {
        Some(Value::Array(types)) if types.iter().any(integer) => numbers.orders = true,
        Some(value) if integer(value) => numbers.orders = true,
        _ => {}
    }
    if let Some(Value::Number(multiple)) = map.get("multipleOf") {
        numbers.inexact |= !exact_in_f64(multiple.as_str());
        numbers.multiple_of = Some(multiple.as_str().to_string());
    }
    for keyword in ["const", "enum"] {
        if let Some(value) = map.get(keyword) {
            let mut found = Vec::new();
            numbers_in(value, &mut found);
            numbers.equals |= !found.is_empty();
            numbers.inexact |= found.iter().any(|n| !exact_in_f64(n));
        }
    }
    numbers.unique = map.get("uniqueItems") == Some(&Value::Bool(true));
    numbers
}

fn numbers_in<'v>(value: &'v Value, found: &mut Vec<&'v str>) {
    match value {
        Value::Number(n) => found.push(n.as_str()),
        Value::Array(items) => items.iter().for_each(|item| numbers_in(item, found)),
        Value::Object(members) => members.values().for_each(|member| numbers_in(member, found)),
        _ => {}
    }
}

/// Whether the JSON number `text` is the shortest decimal of the `f64` it
/// reads as. Two such numbers read as different `f64`s when they differ, and
/// in the same order (rounding is monotonic), so the validator's `f64`
/// comparisons of them are exact; `0.99999999999999999999` reads as `1` and
/// is not one, nor is `1e400` (infinite) or `1e-400` (zero).
pub fn exact_in_f64(text: &str) -> bool {
    shortest(text).is_some_and(|shortest| compare_numbers(text, &shortest).is_eq())
}

/// The shortest decimal of the finite `f64` that `text` reads as, written by
/// serde_json (already in the page's wasm, unlike `core`'s float formatting).
fn shortest(text: &str) -> Option<String> {
    let float: f64 = text.parse().ok().filter(|float: &f64| float.is_finite())?;
    serde_json::Number::from_f64(float).map(|number| number.to_string())
}

/// Whether `multipleOf` is decided exactly for `value` and `multiple`: the
/// validator divides the two as integers scaled by powers of ten, exact while
/// they fit in an `i128`; past that it falls back to binary fractions.
fn multiple_of_is_exact(value: &str, multiple: &str) -> bool {
    let (Some(v), Some(m)) = (decimal_shape(value), decimal_shape(multiple)) else {
        return false;
    };
    // Significant digits of each, and the decimal places between them: 10^36 < i128::MAX.
    v.0 + m.0 + v.1.abs_diff(m.1) as usize <= 36
}

/// The significant digits of an exact number and the power of ten of its last one.
fn decimal_shape(text: &str) -> Option<(usize, i64)> {
    let shortest = shortest(text)?;
    let (mantissa, exponent) = shortest.split_once(['e', 'E']).unwrap_or((&shortest, "0"));
    let exponent: i64 = exponent.parse().ok()?;
    let digits = mantissa.trim_start_matches('-').replace('.', "");
    let digits = digits.trim_start_matches('0');
    let fraction = mantissa.split_once('.').map_or(0, |(_, f)| f.len() as i64);
    Some((digits.len(), exponent - fraction))
}

enum Closure {
    Unknown,
    /// On the stack of the walk that computes it: reached again, the applicators loop.
    Open,
    Done(Vec<(u32, u64)>),
    Unbounded,
}

fn closure_of(nodes: &[GraphNode], closures: &mut [Closure], at: u32, depth: usize) -> bool {
    match &closures[at as usize] {
        Closure::Done(_) => return true,
        Closure::Unbounded | Closure::Open => return false,
        Closure::Unknown => {}
    }
    if depth > MAX_CHAIN {
        closures[at as usize] = Closure::Unbounded;
        return false;
    }
    closures[at as usize] = Closure::Open;
    let mut counts: HashMap<u32, u64> = HashMap::new();
    counts.insert(at, 1);
    for &next in &nodes[at as usize].same {
        if !closure_of(nodes, closures, next, depth + 1) {
            closures[at as usize] = Closure::Unbounded;
            return false;
        }
        let Closure::Done(list) = &closures[next as usize] else {
            unreachable!("closure_of returned true");
        };
        for &(node, count) in list {
            let entry = counts.entry(node).or_insert(0);
            *entry = entry.saturating_add(count);
        }
    }
    if counts.len() > MAX_CLOSURE {
        closures[at as usize] = Closure::Unbounded;
        return false;
    }
    closures[at as usize] = Closure::Done(counts.into_iter().collect());
    true
}

/// The number of paths from the root through every edge of the graph, or
/// `None` when an edge leads back (the schema recurses).
fn paths_from_root(nodes: &[GraphNode]) -> Option<u64> {
    fn edges(node: &GraphNode) -> impl Iterator<Item = u32> + '_ {
        node.same
            .iter()
            .chain(node.properties.iter().map(|(_, n)| n))
            .chain(&node.any_member)
            .chain(&node.names)
            .chain(node.item_at.iter().map(|(_, n)| n))
            .chain(&node.any_item)
            .copied()
    }
    // 0 unknown, 1 open, 2 done.
    fn visit(nodes: &[GraphNode], state: &mut [u8], paths: &mut [u64], at: u32, depth: usize) -> bool {
        match state[at as usize] {
            2 => return true,
            1 => return false,
            _ => {}
        }
        if depth > MAX_CHAIN {
            return false;
        }
        state[at as usize] = 1;
        let mut total = 1u64;
        for next in edges(&nodes[at as usize]) {
            if !visit(nodes, state, paths, next, depth + 1) {
                return false;
            }
            total = total.saturating_add(paths[next as usize]);
        }
        state[at as usize] = 2;
        paths[at as usize] = total;
        true
    }
    if nodes.is_empty() {
        return Some(0);
    }
    let mut state = vec![0u8; nodes.len()];
    let mut paths = vec![0u64; nodes.len()];
    visit(nodes, &mut state, &mut paths, 0, 0).then(|| paths[0])
}

struct Walk<'g> {
    guard: &'g Guard,
    spent: u64,
    budget: u64,
    pointer: String,
}

impl Walk<'_> {
    fn spend(&mut self, cost: u64) -> Result<(), Stop> {
        self.spent = self.spent.saturating_add(cost);
        if self.spent > self.budget {
            return Err(Stop::TooExpensive { budget: self.budget });
        }
        Ok(())
    }

    fn inexact(&self) -> Stop {
        Stop::Inexact {
            pointer: self.pointer.clone(),
        }
    }

    /// Visits `value`, to which the `entries` nodes apply as often as each count says.
    fn visit<'a, F: Json>(&mut self, value: &F::Node<'a>, entries: &[(u32, u64)]) -> Result<(), Stop> {
        // No subschema applies here, so none below: nothing to spend or to
        // compare exactly. Most of a big document is such (a snapshot's tool
        // schemas under the snapshot schema, say).
        if entries.is_empty() {
            return Ok(());
        }
        let guard = self.guard;
        let mut applied: HashMap<u32, u64> = HashMap::with_capacity(entries.len() * 2);
        for &(entry, times) in entries {
            let Some(closure) = &guard.closures[entry as usize] else {
                return Err(Stop::TooExpensive { budget: self.budget });
            };
            for &(node, count) in closure {
                let slot = applied.entry(node).or_insert(0);
                *slot = slot.saturating_add(times.saturating_mul(count));
            }
        }
        let cost = applied.values().fold(0u64, |sum, &n| sum.saturating_add(n));
        self.spend(cost)?;
        if guard.numeric {
            self.numbers::<F>(value, &applied)?;
        }
        if let Some(object) = value.as_object() {
            for (name, member) in object.members() {
                let name = name.as_ref();
                let mut next = Vec::new();
                for (&node, &times) in &applied {
                    let node = &guard.nodes[node as usize];
                    next.extend(
                        node.properties
                            .iter()
                            .filter(|(property, _)| property == name)
                            .map(|&(_, target)| (target, times)),
                    );
                    next.extend(node.any_member.iter().map(|&target| (target, times)));
                    for &target in &node.names {
                        self.spend(times.saturating_mul(guard.closure_totals[target as usize]))?;
                    }
                }
                let length = self.pointer.len();
                push_token(&mut self.pointer, name);
                self.visit::<F>(&member, &next)?;
                self.pointer.truncate(length);
            }
        } else if let Some(array) = value.as_array() {
            for (index, element) in array.elements().enumerate() {
                let mut next = Vec::new();
                for (&node, &times) in &applied {
                    let node = &guard.nodes[node as usize];
                    next.extend(
                        node.item_at
                            .iter()
                            .filter(|(at, _)| *at == index)
                            .map(|&(_, target)| (target, times)),
                    );
                    next.extend(node.any_item.iter().map(|&target| (target, times)));
                }
                let length = self.pointer.len();
                self.pointer.push('/');
                self.pointer.push_str(&index.to_string());
                self.visit::<F>(&element, &next)?;
                self.pointer.truncate(length);
            }
        }
        Ok(())
    }

    /// Whether the numeric keywords applied to `value` decide it exactly.
    fn numbers<'a, F: Json>(&self, value: &F::Node<'a>, applied: &HashMap<u32, u64>) -> Result<(), Stop> {
        let nodes = applied.keys().map(|&node| &self.guard.nodes[node as usize].numbers);
        if let Some(number) = value.as_number() {
            let text = number.as_str();
            let exact = exact_in_f64(&text);
            for numbers in nodes {
                let compared = numbers.orders || numbers.equals || numbers.multiple_of.is_some();
                if compared && (numbers.inexact || !exact) {
                    return Err(self.inexact());
                }
                if let Some(multiple) = &numbers.multiple_of
                    && !multiple_of_is_exact(&text, multiple)
                {
                    return Err(self.inexact());
                }
            }
        } else if value.as_object().is_some() || value.as_array().is_some() {
            let is_array = value.as_array().is_some();
            for numbers in nodes {
                let compares = numbers.equals || (numbers.unique && is_array);
                if compares && (numbers.inexact || holds_inexact::<F>(value)) {
                    return Err(self.inexact());
                }
            }
        }
        Ok(())
    }
}

/// Whether a number `f64` cannot hold exactly sits anywhere in `value`.
fn holds_inexact<'a, F: Json>(value: &F::Node<'a>) -> bool {
    if let Some(number) = value.as_number() {
        return !exact_in_f64(&number.as_str());
    }
    if let Some(object) = value.as_object() {
        return object.members().any(|(_, member)| holds_inexact::<F>(&member));
    }
    if let Some(array) = value.as_array() {
        return array.elements().any(|element| holds_inexact::<F>(&element));
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_numbers_are_their_own_shortest_decimal() {
        for exact in [
            "0",
            "-0",
            "1",
            "1.0",
            "0.1",
            "1e3",
            "1.8446744073709552e19",
            "9007199254740992",
            "2.5E-3",
        ] {
            assert!(exact_in_f64(exact), "{exact}");
        }
        for inexact in [
            // 2^64 is a float, but 18446744073709552000, the shortest decimal
            // of that float, is another number that reads as the same float.
            "18446744073709551616",
            "18446744073709551617",
            "9007199254740993",
            "9007199254740993.5",
            "1e400",
            "1e-400",
            "0.99999999999999999999",
            "1.00000000000000000001",
        ] {
            assert!(!exact_in_f64(inexact), "{inexact}");
        }
    }

    #[test]
    fn multiple_of_is_exact_while_it_fits() {
        assert!(multiple_of_is_exact("0.3", "0.1"));
        assert!(multiple_of_is_exact("1e20", "7"));
        assert!(!multiple_of_is_exact("1e300", "0.1"));
    }
}
