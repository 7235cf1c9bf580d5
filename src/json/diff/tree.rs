//! What the walk reads of a document, so that one walk serves two trees:
//! serde_json's `Value` (the page, and the merge and unified views, which need
//! whole documents) and, natively, the lean document of [`crate::json::lean`]
//! (one 20-byte slot per value, borrowing the text), which the CLI's change
//! lists and patches use: a tenth of the memory. In the wasm only the `Value`
//! tree exists, so the walk is compiled once there.

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

    /// The value serde_json builds from the same text: what changes and patch
    /// operations carry, so both trees print the same bytes.
    fn to_value(self) -> Value;
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

    fn to_value(self) -> Value {
        self.clone()
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
#[cfg(not(target_arch = "wasm32"))]
mod lean {
    use std::borrow::Cow;
    use std::collections::HashMap;

    use jsonschema::json::{Array, Node, Object};
    use jsonschema::types::JsonType;
    use serde_json::Value;

    use super::{Elements, Members, Shape, Tree};
    use crate::json::lean::LeanNode;

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

        fn to_value(self) -> Value {
            Node::to_value(&self).into_owned()
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
