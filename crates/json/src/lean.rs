//! A lean, read-only document for answering "is this instance valid?" (native
//! builds) and for diffing changes and patches (everywhere) without a
//! `serde_json::Value` tree.
//!
//! A `Value` with `preserve_order` and `arbitrary_precision` costs about nine
//! times its input: an `IndexMap` per object, a `String` per key, string and
//! number. This document is one flat vector of 28-byte slots in document order,
//! each pointing into the text it was scanned from by the exact scanner
//! ([`crate::scan`]); strings are decoded only when read. Each slot
//! keeps its value's text span, so two values spelled alike are known equal
//! in one comparison of bytes, and a change's line is counted from its offset.
//! It implements the `jsonschema` crate's representation traits, so the same
//! compiled schema answers for it (see [`crate::validate`]).
//!
//! It answers only where `serde_json` would accept the text and build the same
//! value; otherwise [`LeanDoc::parse`] returns `None` and the caller takes the
//! `Value` path, which reports exactly what it always did. That excludes:
//! syntax errors, nesting past [`DEPTH_LIMIT`] (serde_json's recursion limit),
//! a duplicate key in an object (serde_json keeps the last value, in the first
//! one's place), a lone surrogate escape (serde_json rejects it), and texts
//! past 4 GiB (offsets are 32-bit).

use foldhash::{HashSet, HashSetExt};
use std::borrow::Cow;
use std::str::FromStr;

use jsonschema::json::{Array, Json, JsonNumber, Node, NodeIdentity, Object};
use jsonschema::types::JsonType;
use serde_json::Value;

use crate::scan::{Sink, decode_key, scan};

/// serde_json's own nesting limit (it refuses a 128th level), so that every
/// text it reads, and every `Value` it writes out again, a lean document reads.
pub const DEPTH_LIMIT: usize = 127;

/// Objects up to this many members are checked for duplicate keys pairwise; larger ones hash.
const PAIRWISE_MEMBERS: u32 = 16;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Null,
    False,
    True,
    Number,
    String,
    Array,
    Object,
}

/// One value. A member's raw key (quotes included) sits in its value's slot.
#[derive(Debug, Clone, Copy)]
struct Slot {
    kind: Kind,
    /// Byte offset and length of the raw key; `NO_KEY` for array elements and the root.
    key_start: u32,
    key_len: u32,
    /// The value's text, brackets or quotes included: what a scalar is read
    /// from, and what tells the diff that two containers are spelled alike.
    start: u32,
    end: u32,
    /// Containers only: the index past the last descendant (the next sibling),
    /// and the number of children.
    next: u32,
    children: u32,
}

const NO_KEY: u32 = u32::MAX;

/// A scanned document: its text and a slot per value, in document order.
#[derive(Debug)]
pub struct LeanDoc<'t> {
    text: &'t str,
    slots: Vec<Slot>,
}

impl<'t> LeanDoc<'t> {
    /// Scans `text` (strict JSON); `None` when the `Value` path must decide (see the module doc).
    pub fn parse(text: &'t str) -> Option<Self> {
        u32::try_from(text.len()).ok()?;
        let mut builder = Builder {
            text,
            slots: Vec::new(),
            open: Vec::new(),
            pending_key: None,
            unsupported: false,
        };
        scan(text, false, &mut builder).ok()?;
        if builder.unsupported || builder.slots.is_empty() {
            return None;
        }
        Some(LeanDoc {
            text,
            slots: builder.slots,
        })
    }

    /// The root value.
    pub fn root(&self) -> LeanNode<'_> {
        LeanNode::Slot(self, 0)
    }

    fn raw(&self, start: u32, end: u32) -> &'t str {
        &self.text[start as usize..end as usize]
    }

    /// The text of the value at `index`.
    fn text_of(&self, index: u32) -> &'t str {
        let slot = self.slot(index);
        self.raw(slot.start, slot.end)
    }

    fn slot(&self, index: u32) -> Slot {
        self.slots[index as usize]
    }

    /// The index after `index` and all its descendants.
    fn next_sibling(&self, index: u32) -> u32 {
        let slot = self.slot(index);
        match slot.kind {
            Kind::Array | Kind::Object => slot.next,
            _ => index + 1,
        }
    }

    fn key(&self, index: u32) -> Option<&'t str> {
        let slot = self.slot(index);
        (slot.key_start != NO_KEY).then(|| self.raw(slot.key_start, slot.key_start + slot.key_len))
    }

    fn children(&self, index: u32) -> Children<'_, 't> {
        Children {
            doc: self,
            next: index + 1,
            left: self.slot(index).children,
        }
    }

    /// The `Value` serde_json would build for the node at `index` (cold paths only:
    /// error messages, `enum`/`const` on containers, `uniqueItems`).
    fn to_value(&self, index: u32) -> Value {
        let slot = self.slot(index);
        match slot.kind {
            Kind::Null => Value::Null,
            Kind::False => Value::Bool(false),
            Kind::True => Value::Bool(true),
            Kind::Number => Value::Number(number(self.raw(slot.start, slot.end))),
            Kind::String => Value::String(decode_string(self.raw(slot.start, slot.end)).into_owned()),
            Kind::Array => Value::Array(self.children(index).map(|child| self.to_value(child)).collect()),
            Kind::Object => Value::Object(
                self.children(index)
                    .map(|child| {
                        let key = self.key(child).map_or(Cow::Borrowed(""), decode_key);
                        (key.into_owned(), self.to_value(child))
                    })
                    .collect(),
            ),
        }
    }
}

/// The indices of a container's children.
struct Children<'d, 't> {
    doc: &'d LeanDoc<'t>,
    next: u32,
    left: u32,
}

impl Iterator for Children<'_, '_> {
    type Item = u32;

    fn next(&mut self) -> Option<u32> {
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        let index = self.next;
        self.next = self.doc.next_sibling(index);
        Some(index)
    }
}

/// A number's raw text as serde_json keeps it (`arbitrary_precision`).
fn number(raw: &str) -> serde_json::Number {
    serde_json::Number::from_str(raw).expect("the scanner accepted it as an RFC 8259 number")
}

/// The contents of a raw string (quotes included), decoded. Lone surrogates
/// never get here: [`Builder`] turns such documents away.
fn decode_string(raw: &str) -> Cow<'_, str> {
    let inner = &raw[1..raw.len() - 1];
    if !inner.contains('\\') {
        return Cow::Borrowed(inner);
    }
    decode_key(raw)
}

/// serde_json refuses a lone surrogate escape, which the scanner lets through.
fn has_lone_surrogate(raw: &str) -> bool {
    // Most strings have no escape: one byte search says so (a substring
    // search per string cost a tenth of a parse in the page).
    let bytes = raw.as_bytes();
    let Some(first_escape) = bytes.iter().position(|&b| b == b'\\') else {
        return false;
    };
    bytes[first_escape..].windows(2).any(|pair| pair == b"\\u") && serde_json::from_str::<String>(raw).is_err()
}

struct Builder<'t> {
    text: &'t str,
    slots: Vec<Slot>,
    /// Open containers, by slot index.
    open: Vec<u32>,
    pending_key: Option<&'t str>,
    unsupported: bool,
}

impl<'t> Builder<'t> {
    fn offset(&self, raw: &str) -> u32 {
        // Every raw token is a slice of `text`, whose length fits in u32.
        (raw.as_ptr() as usize - self.text.as_ptr() as usize) as u32
    }

    /// Pushes a value starting at `start`; a scalar's `end` is known now, a
    /// container's when it closes ([`Sink::end`]).
    fn push(&mut self, kind: Kind, start: u32, end: u32) {
        let (key_start, key_len) = match self.pending_key.take() {
            Some(key) => (self.offset(key), key.len() as u32),
            None => (NO_KEY, 0),
        };
        if let Some(&parent) = self.open.last() {
            self.slots[parent as usize].children += 1;
        }
        self.slots.push(Slot {
            kind,
            key_start,
            key_len,
            start,
            end,
            next: 0,
            children: 0,
        });
    }

    /// Whether two members of the object at `index` have the same key.
    fn has_duplicate_key(&self, index: u32) -> bool {
        let count = self.slots[index as usize].children;
        let keys = (0..count).scan(index + 1, |child, _| {
            let slot = self.slots[*child as usize];
            *child = match slot.kind {
                Kind::Array | Kind::Object => slot.next,
                _ => *child + 1,
            };
            Some(&self.text[slot.key_start as usize..(slot.key_start + slot.key_len) as usize])
        });
        if count <= PAIRWISE_MEMBERS {
            // On the stack: an allocation per object cost more than the comparisons.
            let mut small = [""; PAIRWISE_MEMBERS as usize];
            let mut escaped = false;
            for (slot, key) in small.iter_mut().zip(keys.clone()) {
                escaped |= key.as_bytes().contains(&b'\\');
                *slot = key;
            }
            let small = &small[..count as usize];
            if !escaped {
                return small.iter().enumerate().any(|(i, key)| small[..i].contains(key));
            }
        }
        let mut seen = HashSet::with_capacity(count as usize);
        !keys.into_iter().all(|key| seen.insert(decode_key(key)))
    }
}

impl<'t> Sink<'t> for Builder<'t> {
    fn begin(&mut self, open: u8, at: usize) {
        let kind = if open == b'{' { Kind::Object } else { Kind::Array };
        self.push(kind, at as u32, 0);
        self.open.push(self.slots.len() as u32 - 1);
        if self.open.len() > DEPTH_LIMIT {
            self.unsupported = true;
        }
    }

    fn end(&mut self, close: u8, at: usize) {
        let Some(index) = self.open.pop() else { return };
        let next = self.slots.len() as u32;
        let slot = &mut self.slots[index as usize];
        slot.next = next;
        slot.end = at as u32 + 1;
        if close == b'}' && self.has_duplicate_key(index) {
            self.unsupported = true;
        }
    }

    fn key(&mut self, raw: &'t str) {
        if has_lone_surrogate(raw) {
            self.unsupported = true;
        }
        self.pending_key = Some(raw);
    }

    fn scalar(&mut self, raw: &'t str) {
        let start = self.offset(raw);
        let kind = match raw.as_bytes()[0] {
            b'n' => Kind::Null,
            b'f' => Kind::False,
            b't' => Kind::True,
            b'"' => {
                if has_lone_surrogate(raw) {
                    self.unsupported = true;
                }
                Kind::String
            }
            _ => Kind::Number,
        };
        self.push(kind, start, start + raw.len() as u32);
    }
}

/// The `jsonschema` representation of [`LeanDoc`]s.
pub struct Lean;

/// A value of a [`LeanDoc`], or a bare string (a member name that `propertyNames` validates).
#[derive(Debug, Clone, Copy)]
pub enum LeanNode<'a> {
    Slot(&'a LeanDoc<'a>, u32),
    Name(&'a str),
}

impl Json for Lean {
    type Node<'a> = LeanNode<'a>;
    type PreparedKey = String;
    type StringBuffer = ();

    const ACYCLIC: bool = true;

    fn prepare_key(key: &str) -> String {
        key.to_owned()
    }

    fn with_string_node<T>((): &mut (), string: &str, f: impl FnOnce(LeanNode<'_>) -> T) -> T {
        f(LeanNode::Name(string))
    }
}

impl<'a> LeanNode<'a> {
    /// The byte offset of the value in the document's text (none for a bare name).
    pub(crate) fn start(self) -> Option<usize> {
        match self {
            LeanNode::Slot(doc, index) => Some(doc.slot(index).start as usize),
            LeanNode::Name(_) => None,
        }
    }

    /// The value's text, as written (none for a bare name).
    #[cfg(not(target_arch = "wasm32"))]
    pub fn text(self) -> Option<&'a str> {
        match self {
            LeanNode::Slot(doc, index) => Some(doc.text_of(index)),
            LeanNode::Name(_) => None,
        }
    }

    /// Whether both values are spelled byte for byte alike. Then they are
    /// equal (a lean document has no duplicate keys, the one way equal text
    /// could mean different values); unequal spellings may still be equal.
    pub fn spelled_alike(self, other: LeanNode<'_>) -> bool {
        match (self, other) {
            (LeanNode::Slot(doc, index), LeanNode::Slot(other_doc, other_index)) => {
                doc.text_of(index) == other_doc.text_of(other_index)
            }
            (LeanNode::Name(name), LeanNode::Name(other_name)) => name == other_name,
            _ => false,
        }
    }

    /// The slot and its document, when this is a document value of `kind`.
    fn slot_of(&self, kind: Kind) -> Option<(&'a LeanDoc<'a>, u32, Slot)> {
        match *self {
            LeanNode::Slot(doc, index) if doc.slot(index).kind == kind => Some((doc, index, doc.slot(index))),
            _ => None,
        }
    }
}

impl<'a> Node<'a, Lean> for LeanNode<'a> {
    type Object = LeanObject<'a>;
    type Array = LeanArray<'a>;
    type Number = LeanNumber<'a>;

    fn as_object(&self) -> Option<LeanObject<'a>> {
        self.slot_of(Kind::Object)
            .map(|(doc, index, _)| LeanObject { doc, index })
    }

    fn as_array(&self) -> Option<LeanArray<'a>> {
        self.slot_of(Kind::Array)
            .map(|(doc, index, _)| LeanArray { doc, index })
    }

    fn as_string(&self) -> Option<Cow<'a, str>> {
        match *self {
            LeanNode::Name(name) => Some(Cow::Borrowed(name)),
            LeanNode::Slot(..) => self
                .slot_of(Kind::String)
                .map(|(doc, _, slot)| decode_string(doc.raw(slot.start, slot.end))),
        }
    }

    fn as_number(&self) -> Option<LeanNumber<'a>> {
        self.slot_of(Kind::Number)
            .map(|(doc, _, slot)| LeanNumber(doc.raw(slot.start, slot.end)))
    }

    fn as_boolean(&self) -> Option<bool> {
        match *self {
            LeanNode::Slot(doc, index) => match doc.slot(index).kind {
                Kind::True => Some(true),
                Kind::False => Some(false),
                _ => None,
            },
            LeanNode::Name(_) => None,
        }
    }

    fn is_null(&self) -> bool {
        self.slot_of(Kind::Null).is_some()
    }

    fn json_type(&self) -> JsonType {
        match *self {
            LeanNode::Name(_) => JsonType::String,
            LeanNode::Slot(doc, index) => match doc.slot(index).kind {
                Kind::Null => JsonType::Null,
                Kind::False | Kind::True => JsonType::Boolean,
                Kind::Number => JsonType::Number,
                Kind::String => JsonType::String,
                Kind::Array => JsonType::Array,
                Kind::Object => JsonType::Object,
            },
        }
    }

    fn equals_value(&self, expected: &Value) -> bool {
        // Strings, booleans and null need no tree; numbers and containers compare as the crate does.
        match (self.json_type(), expected) {
            (JsonType::String, Value::String(expected)) => self.as_string().is_some_and(|s| s == expected.as_str()),
            (JsonType::Boolean, Value::Bool(expected)) => self.as_boolean() == Some(*expected),
            (JsonType::Null, Value::Null) => true,
            (JsonType::Number, Value::Number(_))
            | (JsonType::Array, Value::Array(_))
            | (JsonType::Object, Value::Object(_)) => jsonschema::json::cmp::equal(&self.to_value(), expected),
            _ => false,
        }
    }

    fn to_value(&self) -> Cow<'a, Value> {
        Cow::Owned(match *self {
            LeanNode::Slot(doc, index) => doc.to_value(index),
            LeanNode::Name(name) => Value::String(name.to_owned()),
        })
    }

    fn identity(&self) -> Option<NodeIdentity> {
        match *self {
            LeanNode::Slot(doc, index) => Some(NodeIdentity::tagged(std::ptr::from_ref(doc) as usize, index)),
            // A name lives only for one call and the next may reuse its address:
            // no identity, so nothing is remembered about it.
            LeanNode::Name(_) => None,
        }
    }
}

/// An object of a [`LeanDoc`].
pub struct LeanObject<'a> {
    doc: &'a LeanDoc<'a>,
    index: u32,
}

impl<'a> LeanObject<'a> {
    /// The member named `name`, found without gathering the others.
    pub fn member(&self, name: &str) -> Option<LeanNode<'a>> {
        let doc = self.doc;
        doc.children(self.index)
            .find(|&child| {
                let raw = doc.key(child).unwrap_or("\"\"");
                let inner = &raw[1..raw.len() - 1];
                if inner.contains('\\') {
                    decode_key(raw) == name
                } else {
                    inner == name
                }
            })
            .map(|child| LeanNode::Slot(doc, child))
    }
}

impl<'a> Object<'a, Lean> for LeanObject<'a> {
    type Node = LeanNode<'a>;
    type MemberName = Cow<'a, str>;
    type MembersIter = Members<'a>;

    fn len(&self) -> usize {
        self.doc.slot(self.index).children as usize
    }

    fn get(&self, key: &String) -> Option<LeanNode<'a>> {
        self.member(key)
    }

    fn members(&self) -> Members<'a> {
        Members {
            doc: self.doc,
            children: Children {
                doc: self.doc,
                next: self.index + 1,
                left: self.doc.slot(self.index).children,
            },
        }
    }
}

/// The members of a [`LeanObject`], in document order.
pub struct Members<'a> {
    doc: &'a LeanDoc<'a>,
    children: Children<'a, 'a>,
}

impl<'a> Iterator for Members<'a> {
    type Item = (Cow<'a, str>, LeanNode<'a>);

    fn next(&mut self) -> Option<Self::Item> {
        let child = self.children.next()?;
        let key = self.doc.key(child).map_or(Cow::Borrowed(""), decode_key);
        Some((key, LeanNode::Slot(self.doc, child)))
    }
}

/// An array of a [`LeanDoc`].
pub struct LeanArray<'a> {
    doc: &'a LeanDoc<'a>,
    index: u32,
}

impl<'a> Array<'a, Lean> for LeanArray<'a> {
    type Node = LeanNode<'a>;
    type ElementsIter = Elements<'a>;

    fn len(&self) -> usize {
        self.doc.slot(self.index).children as usize
    }

    fn elements(&self) -> Elements<'a> {
        Elements {
            doc: self.doc,
            children: self.doc.children(self.index),
        }
    }
}

/// The elements of a [`LeanArray`], in order.
pub struct Elements<'a> {
    doc: &'a LeanDoc<'a>,
    children: Children<'a, 'a>,
}

impl<'a> Iterator for Elements<'a> {
    type Item = LeanNode<'a>;

    fn next(&mut self) -> Option<LeanNode<'a>> {
        self.children.next().map(|child| LeanNode::Slot(self.doc, child))
    }
}

/// A number by its raw text, read as serde_json's `arbitrary_precision` numbers read theirs.
#[derive(Debug, Clone, Copy)]
pub struct LeanNumber<'a>(&'a str);

impl<'a> LeanNumber<'a> {
    /// The number's text as written, borrowed from the document.
    pub(crate) fn raw(&self) -> &'a str {
        self.0
    }
}

impl JsonNumber for LeanNumber<'_> {
    fn as_u64(&self) -> Option<u64> {
        self.0.parse().ok()
    }

    fn as_i64(&self) -> Option<i64> {
        self.0.parse().ok()
    }

    fn as_f64(&self) -> Option<f64> {
        self.0.parse::<f64>().ok().filter(|float| float.is_finite())
    }

    fn as_str(&self) -> Cow<'_, str> {
        Cow::Borrowed(self.0)
    }

    fn to_number(&self) -> Cow<'_, serde_json::Number> {
        Cow::Owned(number(self.0))
    }

    fn is_integer(&self) -> bool {
        // The crate's own first test, without building a `Number`; the rest is its default.
        self.as_u64().is_some() || self.as_i64().is_some() || jsonschema_is_integer(&self.to_number())
    }
}

/// Whether the crate counts `number` as an integer (drafts 6+: `1.0` is one).
fn jsonschema_is_integer(number: &serde_json::Number) -> bool {
    <serde_json::Number as JsonNumber>::is_integer(number)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn lean_validator(schema: &Value) -> jsonschema::Validator<Lean> {
        jsonschema::options_for::<Lean>().build(schema).expect("a valid schema")
    }

    /// The lean verdict, which must be serde_json's wherever the lean document exists.
    fn verdict(schema: &Value, text: &str) -> Option<bool> {
        let document = LeanDoc::parse(text)?;
        let lean = lean_validator(schema).is_valid(document.root());
        let value: Value = serde_json::from_str(text).expect("serde_json accepts what the lean document does");
        assert_eq!(
            lean,
            jsonschema::validator_for(schema).unwrap().is_valid(&value),
            "{text}"
        );
        Some(lean)
    }

    #[test]
    fn agrees_with_serde_json_on_common_keywords() {
        let schema = json!({
            "type": "object",
            "required": ["name", "version"],
            "properties": {
                "name": {"type": "string", "pattern": "^[a-z][a-z0-9-]*$", "maxLength": 8},
                "version": {"enum": ["1.0.0", "2.0.0"]},
                "n": {"type": "integer", "minimum": 0, "multipleOf": 2},
                "tags": {"type": "array", "items": {"type": "string"}, "uniqueItems": true, "maxItems": 3},
                "nested": {"const": {"a": [1, 2.0]}},
                "flag": {"type": "boolean"},
                "none": {"type": "null"},
            },
            "propertyNames": {"minLength": 1},
            "additionalProperties": false,
        });
        let cases = [
            (r#"{"name":"ok","version":"1.0.0"}"#, true),
            (r#"{"name":"Bad","version":"1.0.0"}"#, false),
            (r#"{"name":"ok"}"#, false),
            (r#"{"name":"toolongname","version":"1.0.0"}"#, false),
            (r#"{"name":"ok","version":"3.0.0"}"#, false),
            (r#"{"name":"ok","version":"1.0.0","n":4.0}"#, true),
            (r#"{"name":"ok","version":"1.0.0","n":3}"#, false),
            (r#"{"name":"ok","version":"1.0.0","n":-2}"#, false),
            (r#"{"name":"ok","version":"1.0.0","n":1e400}"#, false),
            (r#"{"name":"ok","version":"1.0.0","tags":["a","b"]}"#, true),
            (r#"{"name":"ok","version":"1.0.0","tags":["a","a"]}"#, false),
            (r#"{"name":"ok","version":"1.0.0","nested":{"a":[1.0,2]}}"#, true),
            (r#"{"name":"ok","version":"1.0.0","nested":{"a":[1,3]}}"#, false),
            (r#"{"name":"ok","version":"1.0.0","flag":true,"none":null}"#, true),
            (r#"{"name":"ok","version":"1.0.0","flag":null}"#, false),
            (r#"{"name":"ok","version":"1.0.0","":1}"#, false),
            (r#"{"name":"ok","version":"1.0.0","extra":1}"#, false),
            (r#"[1, 2]"#, false),
        ];
        for (text, valid) in cases {
            assert_eq!(verdict(&schema, text), Some(valid), "{text}");
        }
    }

    #[test]
    fn escaped_keys_and_strings_are_decoded() {
        let schema = json!({"required": ["név"], "properties": {"név": {"const": "é\n\u{1F600}"}}});
        assert_eq!(verdict(&schema, r#"{"n\u00e9v": "\u00e9\n\ud83d\ude00"}"#), Some(true));
        assert_eq!(verdict(&schema, r#"{"név": "é\n😀"}"#), Some(true));
        assert_eq!(verdict(&schema, r#"{"n\u00e9v": "e"}"#), Some(false));
        let lengths = json!({"minLength": 2, "maxLength": 2});
        assert_eq!(verdict(&lengths, r#""\u00e9😀""#), Some(true));
        assert_eq!(verdict(&lengths, r#""é""#), Some(false));
    }

    #[test]
    fn numbers_keep_their_text_and_integers_their_meaning() {
        let integer = json!({"type": "integer"});
        for (text, valid) in [
            ("1", true),
            ("1.0", true),
            ("1.5", false),
            ("-0", true),
            ("12345678901234567890123", true),
            ("1e2", true),
        ] {
            assert_eq!(verdict(&integer, text), Some(valid), "{text}");
        }
        let kept = LeanDoc::parse("1.50").unwrap().to_value(0);
        assert_eq!(kept, serde_json::from_str::<Value>("1.50").unwrap());
        assert_eq!(kept.to_string(), "1.50");
    }

    #[test]
    fn to_value_is_what_serde_json_builds() {
        let text = r#"{"b": [1, {"c": null}], "a": "x\"y", "é": true, "\u0041": 1.0e3}"#;
        let document = LeanDoc::parse(text).unwrap();
        let expected: Value = serde_json::from_str(text).unwrap();
        assert_eq!(document.to_value(0), expected);
        assert_eq!(
            serde_json::to_string(&document.to_value(0)).unwrap(),
            serde_json::to_string(&expected).unwrap(),
            "same member order and number text"
        );
    }

    #[test]
    fn leaves_to_the_value_path_what_serde_json_reads_otherwise() {
        // Duplicate keys (also when spelled differently), lone surrogates, deep nesting, bad syntax.
        for text in [
            r#"{"a": 1, "a": 2}"#,
            r#"{"a": 1, "\u0061": 2}"#,
            r#""\ud800""#,
            r#"{"\udc00": 1}"#,
            "{\"a\":1,}",
            "[1] 2",
            "\u{feff}[]",
        ] {
            assert!(LeanDoc::parse(text).is_none(), "{text}");
        }
        let many: String = format!(
            "{{{}}}",
            (0..40)
                .map(|i| format!("\"k{}\":{i}", i % 39))
                .collect::<Vec<_>>()
                .join(",")
        );
        assert!(LeanDoc::parse(&many).is_none(), "a duplicate among many members");
        let distinct: String = format!(
            "{{{}}}",
            (0..40).map(|i| format!("\"k{i}\":{i}")).collect::<Vec<_>>().join(",")
        );
        assert!(LeanDoc::parse(&distinct).is_some());
        let deep = "[".repeat(DEPTH_LIMIT + 1) + &"]".repeat(DEPTH_LIMIT + 1);
        assert!(LeanDoc::parse(&deep).is_none());
        assert!(
            serde_json::from_str::<Value>(&deep).is_err(),
            "serde_json refuses it too"
        );
        let deepest = "[".repeat(DEPTH_LIMIT) + &"]".repeat(DEPTH_LIMIT);
        assert!(LeanDoc::parse(&deepest).is_some());
        assert!(
            serde_json::from_str::<Value>(&deepest).is_ok(),
            "serde_json reads as deep"
        );
        // Surrogate pairs are fine.
        assert!(LeanDoc::parse(r#""\ud83d\ude00""#).is_some());
    }

    /// Six words for a value's key, text and children, and its kind. A
    /// container's text (8 bytes more than the 20 a slot took without it)
    /// lets the diff pass over equal subtrees by their spelling.
    #[test]
    fn a_slot_is_small() {
        assert!(
            std::mem::size_of::<Slot>() <= 28,
            "{} bytes",
            std::mem::size_of::<Slot>()
        );
    }
}
