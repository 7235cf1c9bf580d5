//! What the diff's walk reads of a document: the lean document of
//! [`crate::lean`] (one 28-byte slot per value, borrowing the text), in
//! the CLI and the page alike. A tenth of the memory of a `Value`, several
//! times faster to build in the wasm, and equal subtrees pass by their
//! spelling. `Value`s (pruned, or with a duplicate key resolved) are written
//! out and read back as lean documents ([`super::walk::diff`]), so there is
//! one walk, compiled once. The trait keeps the walk to what it needs of a
//! tree: shapes, members by name, elements by index, texts and offsets;
//! `Value`s implement it too, for the equality and hash of
//! [`super::value`], which the merge patch asks of them.

use std::borrow::Cow;

use serde_json::{Map, Value};

/// A handle to one value of a document.
pub(crate) trait Tree<'v>: Copy {
    /// An object's members, ready for lookups by name.
    type Object: Members<'v, Self>;
    /// An array's elements, by index.
    type Array: Elements<Self>;

    fn shape(self) -> Shape<'v, Self>;

    /// Cheaper than matching [`Tree::shape`] where that would gather members.
    fn is_object(self) -> bool;

    /// Whether `self` and `other` are known equal without looking inside:
    /// the lean tree compares their texts, which skips every tool that did
    /// not change in one `memcmp`. `false` says nothing.
    fn spelled_alike(self, other: Self) -> bool;

    /// The value serde_json builds from the same text: what changes and patch
    /// operations carry, so both trees print the same bytes.
    fn to_value(self) -> Value;

    /// The byte offset of the value in its document's text, when the tree keeps it.
    fn start(self) -> Option<usize>;

    /// An object's member `name` (none for other values): for array keys,
    /// read from every element, where gathering all members would cost more.
    fn member(self, name: &str) -> Option<Self>;
}

/// A value as the diff distinguishes it.
pub(crate) enum Shape<'v, N: Tree<'v>> {
    Null,
    Bool(bool),
    /// The number's text, as written.
    Number(&'v str),
    /// The decoded string.
    String(Cow<'v, str>),
    Array(N::Array),
    Object(N::Object),
}

pub(crate) trait Members<'v, N> {
    fn len(&self) -> usize;
    /// Decoded names and values, in document order.
    fn iter(&self) -> impl Iterator<Item = (Cow<'v, str>, N)> + '_;
    fn get(&self, name: &str) -> Option<N>;
}

pub(crate) trait Elements<N> {
    fn len(&self) -> usize;
    fn at(&self, index: usize) -> N;

    fn iter(&self) -> impl Iterator<Item = N> + '_ {
        (0..self.len()).map(|index| self.at(index))
    }
}

/// `Value`s, for the equality the merge patch asks of them
/// ([`super::value::equal`]); the walk never reads them.
impl<'v> Tree<'v> for &'v Value {
    type Object = &'v Map<String, Value>;
    type Array = &'v [Value];

    fn shape(self) -> Shape<'v, Self> {
        match self {
            Value::Null => Shape::Null,
            Value::Bool(b) => Shape::Bool(*b),
            Value::Number(n) => Shape::Number(n.as_str()),
            Value::String(s) => Shape::String(Cow::Borrowed(s)),
            Value::Array(items) => Shape::Array(items.as_slice()),
            Value::Object(members) => Shape::Object(members),
        }
    }

    fn is_object(self) -> bool {
        Value::is_object(self)
    }

    /// A `Value` keeps no text.
    fn spelled_alike(self, _: Self) -> bool {
        false
    }

    fn to_value(self) -> Value {
        self.clone()
    }

    fn start(self) -> Option<usize> {
        None
    }

    fn member(self, name: &str) -> Option<Self> {
        self.get(name)
    }
}

impl<'v> Members<'v, &'v Value> for &'v Map<String, Value> {
    fn len(&self) -> usize {
        Map::len(self)
    }

    fn iter(&self) -> impl Iterator<Item = (Cow<'v, str>, &'v Value)> + '_ {
        Map::iter(self).map(|(name, value)| (Cow::Borrowed(name.as_str()), value))
    }

    fn get(&self, name: &str) -> Option<&'v Value> {
        Map::get(self, name)
    }
}

impl<'v> Elements<&'v Value> for &'v [Value] {
    fn len(&self) -> usize {
        <[Value]>::len(self)
    }

    fn at(&self, index: usize) -> &'v Value {
        &self[index]
    }
}

/// The lean document as a [`Tree`], through the representation it already
/// offers the `jsonschema` crate.
mod lean {
    use foldhash::HashMap;
    use std::borrow::Cow;

    use jsonschema::json::{Array, Node, Object};
    use jsonschema::types::JsonType;
    use serde_json::Value;

    use super::{Elements, Members, Shape, Tree};
    use crate::lean::LeanNode;

    /// Objects with more members than this get a hash index for lookups by
    /// name (small ones are searched in order: cheaper than hashing).
    const SEARCHED_MEMBERS: usize = 16;

    /// An object's members, gathered once (the document stores them as a run of slots).
    pub struct LeanMembers<'v> {
        members: Vec<(Cow<'v, str>, LeanNode<'v>)>,
        index: Option<HashMap<Cow<'v, str>, usize>>,
    }

    impl<'v> Tree<'v> for LeanNode<'v> {
        type Object = LeanMembers<'v>;
        type Array = Vec<LeanNode<'v>>;

        fn shape(self) -> Shape<'v, Self> {
            match self.json_type() {
                JsonType::Null => Shape::Null,
                JsonType::Boolean => Shape::Bool(self.as_boolean() == Some(true)),
                // The lean document never says `Integer`: every number is a `Number`.
                JsonType::Number | JsonType::Integer => Shape::Number(self.as_number().expect("a number").raw()),
                JsonType::String => Shape::String(self.as_string().expect("a string")),
                JsonType::Array => Shape::Array(self.as_array().expect("an array").elements().collect()),
                JsonType::Object => {
                    let members: Vec<_> = self.as_object().expect("an object").members().collect();
                    let index = (members.len() > SEARCHED_MEMBERS).then(|| {
                        members
                            .iter()
                            .enumerate()
                            .map(|(i, (name, _))| (name.clone(), i))
                            .collect()
                    });
                    Shape::Object(LeanMembers { members, index })
                }
            }
        }

        fn is_object(self) -> bool {
            self.json_type() == JsonType::Object
        }

        fn spelled_alike(self, other: Self) -> bool {
            LeanNode::spelled_alike(self, other)
        }

        fn to_value(self) -> Value {
            Node::to_value(&self).into_owned()
        }

        fn start(self) -> Option<usize> {
            LeanNode::start(self)
        }

        fn member(self, name: &str) -> Option<Self> {
            self.as_object()?.member(name)
        }
    }

    impl<'v> Members<'v, LeanNode<'v>> for LeanMembers<'v> {
        fn len(&self) -> usize {
            self.members.len()
        }

        fn iter(&self) -> impl Iterator<Item = (Cow<'v, str>, LeanNode<'v>)> + '_ {
            self.members.iter().map(|(name, node)| (name.clone(), *node))
        }

        fn get(&self, name: &str) -> Option<LeanNode<'v>> {
            match &self.index {
                Some(index) => index.get(name).map(|&i| self.members[i].1),
                None => self.members.iter().find(|(own, _)| own == name).map(|(_, node)| *node),
            }
        }
    }

    impl<'v> Elements<LeanNode<'v>> for Vec<LeanNode<'v>> {
        fn len(&self) -> usize {
            <[LeanNode<'v>]>::len(self)
        }

        fn at(&self, index: usize) -> LeanNode<'v> {
            self[index]
        }
    }
}
