//! The YAML reader behind `SKILL.md` frontmatter: granit-parser's event stream
//! folded into one spanned [`Node`] tree. Building the tree here, instead of
//! through a serde deserializer, keeps the page's wasm small (serde-saphyr,
//! which it replaced, took 360 KB of it) and puts every YAML decision in one
//! place: how plain scalars are typed (YAML 1.2 core or 1.1), tags, anchors
//! and aliases, `<<` merge keys, duplicate keys and the budget that turns
//! alias bombs and deep nesting into errors.

use std::collections::HashSet;
use std::hash::Hash;

use granit_parser::{Event, Marker, Parser, ScalarStyle, ScanError, Tag};
use serde_json::{Map, Number, Value};

use crate::source::{ColumnUnit, Span, offset_at};

/// How plain (unquoted) scalars are typed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Typing {
    /// YAML 1.2's core schema, which js-yaml and most current parsers follow:
    /// only `true`/`false` (any case form) are booleans, `yes`, `y`, `on`,
    /// `no` are strings, and so is `1_000`.
    Core,
    /// YAML 1.1's types, which PyYAML and go-yaml v2 still apply: `yes`, `on`,
    /// `y` are booleans, `1_000` is a number, `017` is octal.
    Yaml11,
}

impl Typing {
    fn other(self) -> Typing {
        match self {
            Typing::Core => Typing::Yaml11,
            Typing::Yaml11 => Typing::Core,
        }
    }
}

/// Why the YAML could not be read, and where (a span of the YAML text).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct YamlError {
    pub message: String,
    pub span: Span,
    pub cause: YamlCause,
}

/// What kind of problem a [`YamlError`] is: each calls for different advice,
/// so the rule that reports it words the hint by this.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum YamlCause {
    /// The scanner or parser's own error: the text is not YAML. Usually a
    /// plain value holding `: ` or starting with an indicator, which quoting fixes.
    Syntax,
    /// YAML, but not fields JSON can hold: several documents, a key that is
    /// not a string, a key given twice, a bad merge, a tagged scalar its tag
    /// rejects, a float JSON has no number for, an alias inside its own anchor,
    /// or a root that is not a mapping.
    Shape,
    /// Over one of the reader's budgets (events, anchors, aliases, depth,
    /// scalar bytes): refused before it costs more.
    Limit,
}

/// A node with its span in the YAML text: for a scalar its token (quotes
/// included), for a collection its opening (`[`, `{` or the first entry), for
/// an alias the `*name` token.
#[derive(Debug, Clone, PartialEq)]
pub struct Spanned {
    pub node: Node,
    pub span: Span,
}

/// A YAML node, with scalars already typed into JSON's kinds.
#[derive(Debug, Clone, PartialEq)]
pub enum Node {
    Null,
    Bool(bool),
    Number(Number),
    String(String),
    Seq(Vec<Spanned>),
    /// Members in document order.
    Map(Vec<Member>),
}

/// One member of a mapping. The key is kept as its text, which is what a
/// JSON object and every client in use make of it.
#[derive(Debug, Clone, PartialEq)]
pub struct Member {
    pub key: String,
    pub key_span: Span,
    /// What YAML types the key as when that is not a string (`1:` is a
    /// number, `true:` a boolean): `Some("a number")`, else `None`.
    pub key_typed_as: Option<&'static str>,
    pub value: Spanned,
}

impl Node {
    /// The JSON value: members in document order (keys are unique: a repeated
    /// key is an error, and merged keys never repeat an explicit one).
    pub fn into_json(self) -> Value {
        match self {
            Node::Null => Value::Null,
            Node::Bool(value) => Value::Bool(value),
            Node::Number(number) => Value::Number(number),
            Node::String(text) => Value::String(text),
            Node::Seq(items) => Value::Array(items.into_iter().map(|item| item.node.into_json()).collect()),
            Node::Map(members) => {
                let mut object = Map::new();
                for member in members {
                    object.insert(member.key, member.value.node.into_json());
                }
                Value::Object(object)
            }
        }
    }

    /// Nodes and scalar bytes in this subtree: what replaying it through an alias costs.
    fn cost(&self) -> (usize, usize) {
        match self {
            Node::String(text) => (1, text.len()),
            Node::Seq(items) => items.iter().fold((1, 0), |(nodes, bytes), item| {
                let (n, b) = item.node.cost();
                (nodes + n, bytes + b)
            }),
            Node::Map(members) => members.iter().fold((1, 0), |(nodes, bytes), member| {
                let (n, b) = member.value.node.cost();
                (nodes + 1 + n, bytes + member.key.len() + b)
            }),
            _ => (1, 0),
        }
    }
}

/// Limits sized for a frontmatter of a few dozen lines, so that hostile input
/// fails fast instead of expanding: a chain of aliases can describe 9^10
/// nodes in 400 bytes.
const MAX_EVENTS: usize = 100_000;
const MAX_DEPTH: usize = 32;
const MAX_ANCHORS: usize = 1_000;
const MAX_ALIASES: usize = 1_000;
/// Nodes that aliases may copy in, in total.
const MAX_REPLAYED_NODES: usize = 10_000;
/// Scalar bytes, read or copied in by aliases.
const MAX_SCALAR_BYTES: usize = 4 * 1024 * 1024;

/// Reads `yaml` as one document (an empty stream is `None`), typing plain scalars by `typing`.
pub fn read(yaml: &str, typing: Typing) -> Result<Option<Spanned>, YamlError> {
    read_noting_typing(yaml, typing).map(|(root, _)| root)
}

/// [`read`], and whether the other [`Typing`] would type any scalar
/// otherwise (or refuse it): when none would, reading the text again with
/// it gives the same document, so a check comparing the two can skip that.
pub fn read_noting_typing(yaml: &str, typing: Typing) -> Result<(Option<Spanned>, bool), YamlError> {
    let mut reader = Reader {
        yaml,
        parser: Parser::new_from_str(yaml),
        typing,
        events: 0,
        anchors: Vec::new(),
        aliases: 0,
        replayed_nodes: 0,
        scalar_bytes: 0,
        typing_matters: false,
    };
    let mut root = None;
    loop {
        let (event, span) = reader.next()?;
        match event {
            Event::StreamStart | Event::DocumentEnd => {}
            Event::StreamEnd => return Ok((root, reader.typing_matters)),
            Event::DocumentStart(..) if root.is_some() => {
                return Err(reader.error(
                    YamlCause::Shape,
                    "the frontmatter holds more than one YAML document",
                    span.start,
                ));
            }
            Event::DocumentStart(..) => {
                let (event, span) = reader.next()?;
                match event {
                    Event::DocumentEnd => {}
                    event => root = Some(reader.node(event, span, 0)?),
                }
            }
            event => {
                return Err(reader.error(
                    YamlCause::Syntax,
                    format!("unexpected YAML event {event:?}"),
                    span.start,
                ));
            }
        }
    }
}

struct Reader<'a> {
    yaml: &'a str,
    parser: Parser<'a, granit_parser::StrInput<'a>>,
    typing: Typing,
    events: usize,
    /// Completed anchored nodes by anchor id, in definition order.
    anchors: Vec<(usize, Spanned)>,
    aliases: usize,
    replayed_nodes: usize,
    scalar_bytes: usize,
    /// Whether a scalar read so far is typed otherwise by the other [`Typing`].
    typing_matters: bool,
}

impl<'a> Reader<'a> {
    fn next(&mut self) -> Result<(Event<'a>, granit_parser::Span), YamlError> {
        let (event, span) = match self.parser.next_event() {
            Some(Ok(next)) => next,
            Some(Err(error)) => return Err(self.scan_error(&error)),
            None => return Err(self.error(YamlCause::Syntax, "the YAML ends unexpectedly", Marker::new(0, 1, 0))),
        };
        self.events += 1;
        if self.events > MAX_EVENTS {
            return Err(self.error(
                YamlCause::Limit,
                format!("the YAML is too large: more than {MAX_EVENTS} events"),
                span.start,
            ));
        }
        Ok((event, span))
    }

    fn node(&mut self, event: Event<'a>, span: granit_parser::Span, depth: usize) -> Result<Spanned, YamlError> {
        let at = self.span(span);
        let (node, anchor) = match event {
            Event::Scalar(text, style, anchor, tag) => {
                self.charge_bytes(text.len(), span.start)?;
                let node = self.scalar(&text, style, tag.as_deref(), span.start, self.typing)?;
                // Typing decides only plain and tagged scalars.
                if !self.typing_matters && (style == ScalarStyle::Plain || tag.is_some()) {
                    let other = self.scalar(&text, style, tag.as_deref(), span.start, self.typing.other());
                    self.typing_matters = other.as_ref().ok() != Some(&node);
                }
                (node, anchor)
            }
            Event::SequenceStart(_, anchor, _) => {
                let depth = self.deeper(depth, span.start)?;
                let mut items = Vec::new();
                loop {
                    let (event, span) = self.next()?;
                    if let Event::SequenceEnd = event {
                        break;
                    }
                    items.push(self.node(event, span, depth)?);
                }
                (Node::Seq(items), anchor)
            }
            Event::MappingStart(_, anchor, _) => {
                let depth = self.deeper(depth, span.start)?;
                (self.mapping(depth)?, anchor)
            }
            Event::Alias(id) => {
                let node = self.alias(id, span.start)?;
                return Ok(Spanned { node, span: at });
            }
            event => {
                return Err(self.error(
                    YamlCause::Syntax,
                    format!("unexpected YAML event {event:?}"),
                    span.start,
                ));
            }
        };
        let spanned = Spanned { node, span: at };
        if anchor != 0 {
            if self.anchors.len() >= MAX_ANCHORS {
                return Err(self.error(
                    YamlCause::Limit,
                    format!("the YAML defines more than {MAX_ANCHORS} anchors"),
                    span.start,
                ));
            }
            self.anchors.push((anchor, spanned.clone()));
        }
        Ok(spanned)
    }

    /// The members of a mapping whose start event was just read. `<<` merges
    /// the members of a mapping (or of a list of mappings) that the mapping
    /// does not set itself, after its own members, earlier sources first.
    fn mapping(&mut self, depth: usize) -> Result<Node, YamlError> {
        let mut members: Vec<Member> = Vec::new();
        let mut merged: Vec<Member> = Vec::new();
        let mut own_keys = KeySet::default();
        let mut merged_keys = KeySet::default();
        loop {
            let (event, span) = self.next()?;
            let (key, key_typed_as, is_merge) = match event {
                Event::MappingEnd => break,
                Event::Scalar(text, style, _, tag) => {
                    if tag.is_none() && style == ScalarStyle::Plain && is_null(&text) {
                        return Err(self.error(
                            YamlCause::Shape,
                            "a mapping key must be a string, not null",
                            span.start,
                        ));
                    }
                    let is_merge = text == "<<"
                        && style == ScalarStyle::Plain
                        && tag.as_deref().is_none_or(|tag| tag.is_yaml_core_schema_tag("merge"));
                    // A key whose tag or typing makes it something else than a
                    // string is noted, not refused: its text is what clients use.
                    let typed_as = |typing| match self.scalar(&text, style, tag.as_deref(), span.start, typing) {
                        Ok(Node::Bool(_)) => Some("a boolean"),
                        Ok(Node::Number(_)) => Some("a number"),
                        _ => None,
                    };
                    let (typed_as, other) = (typed_as(self.typing), typed_as(self.typing.other()));
                    self.typing_matters |= typed_as != other;
                    (text.into_owned(), typed_as.filter(|_| !is_merge), is_merge)
                }
                Event::Alias(id) => match self.alias(id, span.start)? {
                    Node::String(text) => (text, None, false),
                    Node::Null => (String::new(), None, false),
                    Node::Bool(value) => (value.to_string(), Some("a boolean"), false),
                    Node::Number(number) => (number.to_string(), Some("a number"), false),
                    _ => {
                        return Err(self.error(
                            YamlCause::Shape,
                            "a mapping key must be a scalar, not a collection",
                            span.start,
                        ));
                    }
                },
                _ => {
                    return Err(self.error(
                        YamlCause::Shape,
                        "a mapping key must be a scalar, not a collection",
                        span.start,
                    ));
                }
            };
            let key_span = self.span(span);
            let (event, value_span) = self.next()?;
            let value = self.node(event, value_span, depth)?;
            if is_merge {
                let sources = match value.node {
                    Node::Seq(items) => items,
                    node => vec![Spanned { node, span: value.span }],
                };
                for source in sources {
                    let Node::Map(source_members) = source.node else {
                        return Err(YamlError {
                            message: "a merge key `<<` takes a mapping or a list of mappings".to_string(),
                            span: Span::new(source.span.start, source.span.start),
                            cause: YamlCause::Shape,
                        });
                    };
                    for member in source_members {
                        if merged_keys.insert(member.key.clone()) {
                            merged.push(member);
                        }
                    }
                }
                continue;
            }
            if !own_keys.insert(key.clone()) {
                return Err(YamlError {
                    message: format!("duplicate mapping key: {key}"),
                    span: Span::new(key_span.start, key_span.start),
                    cause: YamlCause::Shape,
                });
            }
            members.push(Member {
                key,
                key_span,
                key_typed_as,
                value,
            });
        }
        members.extend(merged.into_iter().filter(|member| !own_keys.contains(&member.key)));
        Ok(Node::Map(members))
    }

    /// A copy of the anchored node `id`, charged against the replay budget
    /// before it is made.
    fn alias(&mut self, id: usize, at: Marker) -> Result<Node, YamlError> {
        self.aliases += 1;
        if self.aliases > MAX_ALIASES {
            return Err(self.error(
                YamlCause::Limit,
                format!("the YAML uses more than {MAX_ALIASES} aliases"),
                at,
            ));
        }
        let Some((_, target)) = self.anchors.iter().rev().find(|(anchor, _)| *anchor == id) else {
            // The parser resolves names to ids; an id not yet complete is an alias inside its own anchor.
            return Err(self.error(YamlCause::Shape, "an alias refers to the node that contains it", at));
        };
        let (nodes, bytes) = target.node.cost();
        self.replayed_nodes += nodes;
        if self.replayed_nodes > MAX_REPLAYED_NODES {
            return Err(self.error(
                YamlCause::Limit,
                format!("aliases expand to more than {MAX_REPLAYED_NODES} nodes (an alias bomb?)"),
                at,
            ));
        }
        let node = target.node.clone();
        self.charge_bytes(bytes, at)?;
        Ok(node)
    }

    fn deeper(&self, depth: usize, at: Marker) -> Result<usize, YamlError> {
        if depth >= MAX_DEPTH {
            return Err(self.error(
                YamlCause::Limit,
                format!("the YAML nests deeper than {MAX_DEPTH} levels"),
                at,
            ));
        }
        Ok(depth + 1)
    }

    fn charge_bytes(&mut self, bytes: usize, at: Marker) -> Result<(), YamlError> {
        self.scalar_bytes += bytes;
        if self.scalar_bytes > MAX_SCALAR_BYTES {
            return Err(self.error(
                YamlCause::Limit,
                format!("the YAML's scalars exceed {MAX_SCALAR_BYTES} bytes"),
                at,
            ));
        }
        Ok(())
    }

    /// A scalar typed by its tag, or, without one, by its style and [`Typing`]:
    /// quoted and block scalars are strings; plain ones are null, a boolean, an
    /// integer, a float or else a string.
    fn scalar(
        &self,
        text: &str,
        style: ScalarStyle,
        tag: Option<&Tag>,
        at: Marker,
        typing: Typing,
    ) -> Result<Node, YamlError> {
        let invalid = |kind: &str| self.error(YamlCause::Shape, format!("invalid {kind}: {text:?}"), at);
        match tag.map(scalar_tag) {
            Some(ScalarTag::Null) => return Ok(Node::Null),
            Some(ScalarTag::Bool) => return boolean(text, typing).map(Node::Bool).ok_or_else(|| invalid("boolean")),
            Some(ScalarTag::Int) => return integer(trim(text), typing).ok_or_else(|| invalid("integer")),
            Some(ScalarTag::Float) => return self.finite(text, float(text).ok_or_else(|| invalid("float"))?, at),
            Some(ScalarTag::Str) => return Ok(Node::String(text.to_string())),
            Some(ScalarTag::Other) | None => {}
        }
        if style != ScalarStyle::Plain {
            return Ok(Node::String(text.to_string()));
        }
        if is_null(text) {
            return Ok(Node::Null);
        }
        if let Some(value) = boolean(text, typing) {
            return Ok(Node::Bool(value));
        }
        let trimmed = trim(text);
        let unsigned = trimmed.strip_prefix(['+', '-']).unwrap_or(trimmed);
        // Kept as text: upper-case radix prefixes, signed not-a-number, and
        // (YAML 1.2 has no digit separators) underscored numbers.
        if matches!(unsigned.as_bytes(), [b'0', b'X' | b'O' | b'B', ..])
            || is_nan(unsigned) && unsigned.len() < trimmed.len()
            || typing == Typing::Core && trimmed.contains('_')
        {
            return Ok(Node::String(text.to_string()));
        }
        if let Some(node) = integer(trimmed, typing) {
            return Ok(node);
        }
        match float(text) {
            Some(value) => self.finite(text, value, at),
            None => Ok(Node::String(text.to_string())),
        }
    }

    /// JSON has no not-a-number or infinities, so a field cannot hold one.
    fn finite(&self, text: &str, value: f64, at: Marker) -> Result<Node, YamlError> {
        Number::from_f64(value).map(Node::Number).ok_or_else(|| {
            self.error(
                YamlCause::Shape,
                format!("the float `{}` is not finite: JSON has no such number", trim(text)),
                at,
            )
        })
    }

    fn span(&self, span: granit_parser::Span) -> Span {
        Span::new(self.offset(span.start), self.offset(span.end))
    }

    fn offset(&self, marker: Marker) -> usize {
        marker
            .byte_offset()
            .unwrap_or_else(|| offset_at(self.yaml, marker.line().max(1), marker.col() + 1, ColumnUnit::Chars))
    }

    fn error(&self, cause: YamlCause, message: impl Into<String>, at: Marker) -> YamlError {
        let offset = self.offset(at);
        YamlError {
            message: message.into(),
            span: Span::new(offset, offset),
            cause,
        }
    }

    fn scan_error(&self, error: &ScanError) -> YamlError {
        self.error(YamlCause::Syntax, error.info(), *error.marker())
    }
}

/// The keys of one mapping seen so far, hashed with std's randomly keyed
/// SipHash. A scan of the earlier keys per key made a 48,000-key mapping take
/// seconds; a hash an author could predict would let crafted keys collide and
/// be scanned all the same.
struct KeySet<K = String>(HashSet<K>);

impl<K> Default for KeySet<K> {
    fn default() -> Self {
        KeySet(HashSet::new())
    }
}

impl<K: Hash + Eq> KeySet<K> {
    /// Adds `key`: false when the mapping had it already.
    fn insert(&mut self, key: K) -> bool {
        self.0.insert(key)
    }

    fn contains(&self, key: &K) -> bool {
        self.0.contains(key)
    }
}

fn boolean(text: &str, typing: Typing) -> Option<bool> {
    let text = trim(text);
    match typing {
        Typing::Core => match text {
            "true" | "True" | "TRUE" => Some(true),
            "false" | "False" | "FALSE" => Some(false),
            _ => None,
        },
        Typing::Yaml11 => {
            let is = |words: [&str; 4]| words.iter().any(|word| text.eq_ignore_ascii_case(word));
            if is(["true", "yes", "y", "on"]) {
                Some(true)
            } else if is(["false", "no", "n", "off"]) {
                Some(false)
            } else {
                None
            }
        }
    }
}

/// An integer that fits 64 bits: decimal (no redundant leading zero) or
/// `0x`/`0o`/`0b`; YAML 1.1 also reads a leading `0` as octal and allows
/// `_` between digits.
fn integer(text: &str, typing: Typing) -> Option<Node> {
    let yaml11 = typing == Typing::Yaml11;
    let (negative, rest) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    let prefixed = |prefix: &str| {
        let digits = rest.strip_prefix(prefix)?;
        Some(if yaml11 {
            digits.strip_prefix('_').unwrap_or(digits)
        } else {
            digits
        })
    };
    let (radix, digits) = if let Some(digits) = prefixed("0x") {
        (16, digits)
    } else if let Some(digits) = prefixed("0o") {
        (8, digits)
    } else if let Some(digits) = prefixed("0b") {
        (2, digits)
    } else if yaml11 && rest.len() > 1 && rest.starts_with('0') {
        let digits = &rest[1..];
        (8, digits.strip_prefix('_').unwrap_or(digits))
    } else if rest.len() > 1 && rest.starts_with('0') {
        return None;
    } else {
        (10, rest)
    };
    let magnitude = digits_value(digits, radix)?;
    if negative {
        let value = if magnitude == 1 << 63 {
            i64::MIN
        } else {
            -i64::try_from(magnitude).ok()?
        };
        Some(Node::Number(value.into()))
    } else {
        Some(Node::Number(u64::try_from(magnitude).ok()?.into()))
    }
}

/// What a scalar's tag asks for; [`ScalarTag::Other`] (custom tags, `!!merge`
/// and the like) types the scalar as if it had no tag.
enum ScalarTag {
    Null,
    Bool,
    Int,
    Float,
    /// `!!str`, `!!binary`, `!!timestamp` and the non-specific `!`: the text as written.
    Str,
    Other,
}

fn scalar_tag(tag: &Tag) -> ScalarTag {
    let name = if let Some(suffix) = tag.suffix_in_namespace("tag:yaml.org,2002:") {
        suffix
            .strip_prefix('!')
            .map(str::to_string)
            .unwrap_or_else(|| suffix.into_owned())
    } else if let Some(suffix) = tag.suffix_in_namespace("!") {
        match suffix.as_ref() {
            "" | "!" => return ScalarTag::Str,
            name => name.strip_prefix('!').unwrap_or(name).to_string(),
        }
    } else {
        return ScalarTag::Other;
    };
    match name.as_str() {
        "null" => ScalarTag::Null,
        "bool" => ScalarTag::Bool,
        "int" => ScalarTag::Int,
        "float" => ScalarTag::Float,
        "str" | "binary" | "timestamp" => ScalarTag::Str,
        _ => ScalarTag::Other,
    }
}

/// The padding scalar conversion ignores (line breaks appear in block scalars).
fn trim(text: &str) -> &str {
    text.trim_matches([' ', '\t', '\r', '\n'])
}

fn is_null(text: &str) -> bool {
    matches!(text, "" | "~" | "null" | "Null" | "NULL")
}

fn is_nan(text: &str) -> bool {
    matches!(text.strip_prefix(['+', '-']).unwrap_or(text), ".nan" | ".NaN" | ".NAN")
}

/// Digits in `radix` with single `_` separators between them; `None` on
/// anything else or beyond 64 bits' magnitude.
fn digits_value(digits: &str, radix: u32) -> Option<u128> {
    let bytes = digits.as_bytes();
    let mut value: u128 = 0;
    let mut any = false;
    for (index, &byte) in bytes.iter().enumerate() {
        if byte == b'_' {
            let between =
                index > 0 && bytes[index - 1] != b'_' && bytes.get(index + 1).is_some_and(|&next| next != b'_');
            if !between {
                return None;
            }
            continue;
        }
        let digit = char::from(byte).to_digit(radix)?;
        value = value.checked_mul(u128::from(radix))?.checked_add(u128::from(digit))?;
        if value > u128::from(u64::MAX) + 1 {
            return None;
        }
        any = true;
    }
    any.then_some(value)
}

/// A float in YAML 1.2's spellings (`.inf`, `-.Inf`, `.nan`, and decimal or
/// exponent forms); a numeral beyond f64's range is infinite.
fn float(text: &str) -> Option<f64> {
    let text = trim(text);
    let (negative, unsigned) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    };
    match unsigned {
        ".nan" | ".NaN" | ".NAN" => return Some(f64::NAN),
        ".inf" | ".Inf" | ".INF" => return Some(if negative { f64::NEG_INFINITY } else { f64::INFINITY }),
        _ => {}
    }
    // Rust also parses `inf`, `nan` and `infinity`, which YAML keeps as strings:
    // only numeral shapes count.
    if !unsigned.starts_with(|c: char| c.is_ascii_digit() || c == '.') {
        return None;
    }
    text.parse::<f64>().ok().filter(|value| !value.is_nan())
}

#[cfg(test)]
mod tests {
    use std::fmt::Write;
    use std::path::{Path, PathBuf};

    use proptest::prelude::*;
    use sha2::{Digest, Sha256};

    use super::*;
    use crate::rule::Example;

    /// What a reading is, as one text: every member's key, value and spans
    /// down the tree, or the error and its offset.
    fn render(yaml: &str, typing: Typing) -> String {
        fn node(out: &mut String, indent: usize, spanned: &Spanned) {
            let at = format!("@{}-{}", spanned.span.start, spanned.span.end);
            match &spanned.node {
                Node::Seq(items) => {
                    writeln!(out, "seq{at}").unwrap();
                    for item in items {
                        write!(out, "{:indent$}- ", "", indent = indent + 2).unwrap();
                        node(out, indent + 2, item);
                    }
                }
                Node::Map(members) => {
                    writeln!(out, "map{at}").unwrap();
                    for member in members {
                        write!(
                            out,
                            "{:indent$}{:?}@{}-{}: ",
                            "",
                            member.key,
                            member.key_span.start,
                            member.key_span.end,
                            indent = indent + 2
                        )
                        .unwrap();
                        node(out, indent + 2, &member.value);
                    }
                }
                scalar => writeln!(out, "{}{at}", scalar.clone().into_json()).unwrap(),
            }
        }
        let mut out = String::new();
        match read(yaml, typing) {
            Ok(Some(root)) => node(&mut out, 0, &root),
            Ok(None) => out.push_str("no document\n"),
            Err(error) => writeln!(out, "error@{}: {}", error.span.start, error.message).unwrap(),
        }
        out
    }

    /// Edge cases with what the reader must make of them, in YAML 1.2 core
    /// typing and then YAML 1.1 typing. They were first checked against
    /// serde-saphyr, which read frontmatter before this reader:
    /// every value and span agreed; the messages are this reader's own, and a
    /// scalar reached through an alias or `<<` is located at its own text
    /// (which a fix can edit), not at the `*alias`.
    #[test]
    fn edge_cases_read_as_expected() {
        let cases: &[(&str, &str, &str)] = &[
            (
                "n: 1\nbig: 18446744073709551616\nneg: -9223372036854775809\nf: 1.5\n",
                "map@0-0\n  \"n\"@0-1: 1@3-4\n  \"big\"@5-8: 1.8446744073709552e+19@10-30\n  \"neg\"@31-34: -9.223372036854776e+18@36-56\n  \"f\"@57-58: 1.5@60-63\n",
                "same",
            ),
            (
                "exp: 1e400\n",
                "error@5: the float `1e400` is not finite: JSON has no such number\n",
                "same",
            ),
            (
                "x: -.inf\n",
                "error@3: the float `-.inf` is not finite: JSON has no such number\n",
                "same",
            ),
            (
                "hex: 0x1F\noct: 0o17\nlegacy: 017\nunderscore: 1_000\nyes: yes\nno: off\ny: y\n",
                "map@0-0\n  \"hex\"@0-3: 31@5-9\n  \"oct\"@10-13: 15@15-19\n  \"legacy\"@20-26: 17.0@28-31\n  \"underscore\"@32-42: \"1_000\"@44-49\n  \"yes\"@50-53: \"yes\"@55-58\n  \"no\"@59-61: \"off\"@63-66\n  \"y\"@67-68: \"y\"@70-71\n",
                "map@0-0\n  \"hex\"@0-3: 31@5-9\n  \"oct\"@10-13: 15@15-19\n  \"legacy\"@20-26: 15@28-31\n  \"underscore\"@32-42: 1000@44-49\n  \"yes\"@50-53: true@55-58\n  \"no\"@59-61: false@63-66\n  \"y\"@67-68: true@70-71\n",
            ),
            (
                "a: -0\nb: +5\nc: -017\nd: 0b101\ne: 0X1F\nf: +.nan\nh: .5\ni: 1.\nj: 1e5\nk: inf\nl: nan\nn: -0.0\no: 00\n",
                "map@0-0\n  \"a\"@0-1: 0@3-5\n  \"b\"@6-7: 5@9-11\n  \"c\"@12-13: -17.0@15-19\n  \"d\"@20-21: 5@23-28\n  \"e\"@29-30: \"0X1F\"@32-36\n  \"f\"@37-38: \"+.nan\"@40-45\n  \"h\"@46-47: 0.5@49-51\n  \"i\"@52-53: 1.0@55-57\n  \"j\"@58-59: 100000.0@61-64\n  \"k\"@65-66: \"inf\"@68-71\n  \"l\"@72-73: \"nan\"@75-78\n  \"n\"@79-80: -0.0@82-86\n  \"o\"@87-88: 0.0@90-92\n",
                "map@0-0\n  \"a\"@0-1: 0@3-5\n  \"b\"@6-7: 5@9-11\n  \"c\"@12-13: -15@15-19\n  \"d\"@20-21: 5@23-28\n  \"e\"@29-30: \"0X1F\"@32-36\n  \"f\"@37-38: \"+.nan\"@40-45\n  \"h\"@46-47: 0.5@49-51\n  \"i\"@52-53: 1.0@55-57\n  \"j\"@58-59: 100000.0@61-64\n  \"k\"@65-66: \"inf\"@68-71\n  \"l\"@72-73: \"nan\"@75-78\n  \"n\"@79-80: -0.0@82-86\n  \"o\"@87-88: 0@90-92\n",
            ),
            (
                "a: 0_17\nb: 1__0\nc: 9223372036854775808\nd: -9223372036854775808\ne: 18446744073709551615\n",
                "map@0-0\n  \"a\"@0-1: \"0_17\"@3-7\n  \"b\"@8-9: \"1__0\"@11-15\n  \"c\"@16-17: 9223372036854775808@19-38\n  \"d\"@39-40: -9223372036854775808@42-62\n  \"e\"@63-64: 18446744073709551615@66-86\n",
                "map@0-0\n  \"a\"@0-1: 15@3-7\n  \"b\"@8-9: \"1__0\"@11-15\n  \"c\"@16-17: 9223372036854775808@19-38\n  \"d\"@39-40: -9223372036854775808@42-62\n  \"e\"@63-64: 18446744073709551615@66-86\n",
            ),
            (
                "nulls: ~\nempty:\nword: null\nbool: True\nq: 'null'\n",
                "map@0-0\n  \"nulls\"@0-5: null@7-8\n  \"empty\"@9-14: null@14-14\n  \"word\"@16-20: null@22-26\n  \"bool\"@27-31: true@33-37\n  \"q\"@38-39: \"null\"@41-47\n",
                "same",
            ),
            (
                "a: !!int 0x10\nc: !!null x\nd: ! 12\ne: !custom 12\nf: !!str 1\nh: !!int '12'\ni: !!float 1\nj: !!bool True\n",
                "map@0-0\n  \"a\"@0-1: 16@9-13\n  \"c\"@14-15: null@24-25\n  \"d\"@26-27: \"12\"@31-33\n  \"e\"@34-35: 12@45-47\n  \"f\"@48-49: \"1\"@57-58\n  \"h\"@59-60: 12@68-72\n  \"i\"@73-74: 1.0@84-85\n  \"j\"@86-87: true@96-100\n",
                "same",
            ),
            (
                "a: !!bool yes\n",
                "error@10: invalid boolean: \"yes\"\n",
                "map@0-0\n  \"a\"@0-1: true@10-13\n",
            ),
            ("a: !!int x\n", "error@9: invalid integer: \"x\"\n", "same"),
            (
                "base: &base {a: 1, b: 2}\nuse: *base\nmerged:\n  <<: *base\n  b: 3\n",
                "map@0-0\n  \"base\"@0-4: map@12-13\n    \"a\"@13-14: 1@16-17\n    \"b\"@19-20: 2@22-23\n  \"use\"@25-28: map@30-35\n    \"a\"@13-14: 1@16-17\n    \"b\"@19-20: 2@22-23\n  \"merged\"@36-42: map@46-46\n    \"b\"@58-59: 3@61-62\n    \"a\"@13-14: 1@16-17\n",
                "same",
            ),
            (
                "m:\n  <<: [{a: 1}, {a: 2, b: 3}]\n  c: 4\n",
                "map@0-0\n  \"m\"@0-1: map@5-5\n    \"c\"@34-35: 4@37-38\n    \"a\"@11-12: 1@14-15\n    \"b\"@25-26: 3@28-29\n",
                "same",
            ),
            (
                "m:\n  <<: 1\n",
                "error@9: a merge key `<<` takes a mapping or a list of mappings\n",
                "same",
            ),
            (
                "a: &x 1\nb: *x\n*x : c\n",
                "map@0-0\n  \"a\"@0-1: 1@6-7\n  \"b\"@8-9: 1@11-13\n  \"1\"@14-16: \"c\"@19-20\n",
                "same",
            ),
            (
                "a: *nope\n",
                "error@3: while parsing node, found unknown anchor\n",
                "same",
            ),
            (
                "a: &a [*a]\n",
                "error@7: an alias refers to the node that contains it\n",
                "same",
            ),
            ("name: a\nname: b\n", "error@8: duplicate mapping key: name\n", "same"),
            (
                "metadata: {a: 1, a: 2}\n",
                "error@17: duplicate mapping key: a\n",
                "same",
            ),
            ("~: x\n", "error@0: a mapping key must be a string, not null\n", "same"),
            (
                "? [a, b]\n: c\n",
                "error@2: a mapping key must be a scalar, not a collection\n",
                "same",
            ),
            (
                "1: one\ntrue: yes\n",
                "map@0-0\n  \"1\"@0-1: \"one\"@3-6\n  \"true\"@7-11: \"yes\"@13-16\n",
                "map@0-0\n  \"1\"@0-1: \"one\"@3-6\n  \"true\"@7-11: true@13-16\n",
            ),
            ("- a\n- b\n", "seq@0-0\n  - \"a\"@2-3\n  - \"b\"@6-7\n", "same"),
            ("# only a comment\n", "no document\n", "same"),
            (
                "a: 1\n...\nb: 2\n",
                "error@9: the frontmatter holds more than one YAML document\n",
                "same",
            ),
            (
                "name: a\ndescription: Use when: things happen\n",
                "error@29: mapping values are not allowed in this context\n",
                "same",
            ),
            (
                "a: \"\\u00e9\\x41\"\nb: 'it''s'\nc: >\n  folded\n  text\n\nd: |-\n  keep\n",
                "map@0-0\n  \"a\"@0-1: \"éA\"@3-15\n  \"b\"@16-17: \"it's\"@19-26\n  \"c\"@27-28: \"folded text\\n\"@34-49\n  \"d\"@49-50: \"keep\"@57-62\n",
                "same",
            ),
        ];
        let depth_32 = format!("a: {}1{}\n", "[".repeat(31), "]".repeat(31));
        let depth_33 = format!("a: {}1{}\n", "[".repeat(32), "]".repeat(32));
        assert!(
            render(&depth_32, Typing::Core).starts_with("map"),
            "32 levels are allowed"
        );
        assert_eq!(
            render(&depth_33, Typing::Core),
            "error@34: the YAML nests deeper than 32 levels\n"
        );
        for (yaml, core, yaml11) in cases {
            assert_eq!(render(yaml, Typing::Core), *core, "{yaml:?} in YAML 1.2 core");
            let yaml11 = if *yaml11 == "same" { core } else { yaml11 };
            assert_eq!(render(yaml, Typing::Yaml11), *yaml11, "{yaml:?} in YAML 1.1");
            if core != yaml11 {
                let noted = read_noting_typing(yaml, Typing::Core).map(|(_, matters)| matters);
                assert!(noted.unwrap_or(true), "{yaml:?} reads otherwise in YAML 1.1");
            }
        }
    }

    /// Every SKILL.md frontmatter of the shared corpus and of the rule docs'
    /// examples, read in both typings, against the fingerprints recorded in
    /// `tests/data/frontmatter-yaml.txt` (checked against serde-saphyr when
    /// this reader replaced it). A changed reading prints its new rendering:
    /// if the change is intended, run with `APCHECK_BLESS=1` to record it.
    #[test]
    fn corpus_frontmatters_read_as_recorded() {
        let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut documents: Vec<(String, String)> = Vec::new();
        // The shared folder as every other corpus test finds it: `APCHECK_SHARED`, else beside the clone.
        let shared = std::env::var_os("APCHECK_SHARED").map_or_else(|| manifest.join("../shared"), PathBuf::from);
        let corpus = shared.join("corpus");
        let mut files = Vec::new();
        walk(&corpus, &mut files);
        for file in files.iter().filter(|file| file.ends_with("SKILL.md")) {
            let Ok(text) = std::fs::read_to_string(file) else {
                continue;
            };
            let name = file.strip_prefix(&corpus).unwrap().display().to_string();
            documents.push((name, text));
        }
        for rule in crate::registry::all() {
            for (label, example) in [("failing", &rule.doc.failing), ("fixed", &rule.doc.fixed)] {
                let files = match example {
                    Example::Package(files) | Example::PackageWithLinks { files, .. } => *files,
                    _ => &[],
                };
                for (path, text) in files.iter().filter(|(path, _)| path.ends_with("SKILL.md")) {
                    documents.push((format!("{} {label} {path}", rule.code), text.to_string()));
                }
            }
        }
        assert!(
            documents.len() > 900,
            "the shared corpus is missing: {} documents",
            documents.len()
        );
        let mut lines = Vec::new();
        let mut readings = std::collections::HashMap::new();
        for (name, text) in &documents {
            let start = if text.starts_with('\u{feff}') { 3 } else { 0 };
            let Ok(parts) = super::super::frontmatter::split(text, start) else {
                continue;
            };
            let yaml = &text[parts.yaml.start..parts.yaml.end];
            let reading = format!("{}{}", render(yaml, Typing::Core), render(yaml, Typing::Yaml11));
            let digest = Sha256::digest(reading.as_bytes());
            let hex: String = digest[..8].iter().map(|byte| format!("{byte:02x}")).collect();
            lines.push(format!("{hex} {name}"));
            readings.insert(name.clone(), reading);
        }
        lines.sort();
        lines.dedup();
        let recorded_path = manifest.join("tests/data/frontmatter-yaml.txt");
        let actual = lines.join("\n") + "\n";
        if std::env::var_os("APCHECK_BLESS").is_some() {
            std::fs::write(&recorded_path, &actual).unwrap();
        }
        let recorded = std::fs::read_to_string(&recorded_path).unwrap();
        let recorded: std::collections::HashSet<&str> = recorded.lines().collect();
        let changed: Vec<&String> = lines.iter().filter(|line| !recorded.contains(line.as_str())).collect();
        for line in &changed {
            let name = line.split_once(' ').unwrap().1;
            eprintln!("changed: {name}\n{}", readings[name]);
        }
        assert!(
            changed.is_empty(),
            "{} frontmatters read differently from the record",
            changed.len()
        );
        assert_eq!(recorded.len(), lines.len(), "documents left the corpus: re-record");
    }

    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else { return };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                walk(&path, out);
            } else {
                out.push(path);
            }
        }
    }

    /// Duplicate keys were found by a scan of the keys before, so
    /// a mapping as large as the event budget allows took seconds; hashed, it
    /// is instant, and the duplicate at its end is still found where it is.
    #[test]
    fn a_mapping_as_large_as_the_budget_allows_is_read_in_linear_time() {
        let keys = MAX_EVENTS / 2 - 10;
        let mut yaml = String::from("metadata:\n");
        for i in 0..keys {
            writeln!(yaml, "  k{i}: {i}").unwrap();
        }
        let (node, _) = read_noting_typing(&yaml, Typing::Core).unwrap();
        let Node::Map(top) = node.unwrap().node else {
            panic!("a mapping")
        };
        let Node::Map(metadata) = &top[0].value.node else {
            panic!("a mapping")
        };
        assert_eq!(metadata.len(), keys);
        yaml.push_str("  k7: again\n");
        let error = read(&yaml, Typing::Core).unwrap_err();
        assert_eq!(error.message, "duplicate mapping key: k7");
        assert_eq!(error.span.start, yaml.len() - "k7: again\n".len());
    }

    /// A key compared with other keys through `Eq`, counted per thread.
    struct Counted(String);

    impl std::hash::Hash for Counted {
        fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
            self.0.hash(state);
        }
    }

    thread_local! {
        static COMPARISONS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
    }

    impl PartialEq for Counted {
        fn eq(&self, other: &Self) -> bool {
            COMPARISONS.with(|count| count.set(count.get() + 1));
            self.0 == other.0
        }
    }

    impl Eq for Counted {}

    /// The test above, counted rather than timed: finding whether a key is new
    /// compares it with about one other key, not with every earlier one (a
    /// scan makes n²/2 comparisons for n keys, 8 million here).
    #[test]
    fn a_mappings_keys_are_told_apart_with_few_comparisons_each() {
        const KEYS: usize = 4096;
        let mut seen = KeySet::default();
        COMPARISONS.with(|count| count.set(0));
        for i in 0..KEYS {
            assert!(seen.insert(Counted(format!("k{i}"))));
        }
        for i in 0..KEYS {
            assert!(seen.contains(&Counted(format!("k{i}"))));
            assert!(!seen.insert(Counted(format!("k{i}"))), "k{i} is a duplicate");
        }
        assert!(!seen.contains(&Counted("absent".into())));
        // Each repeated key must meet itself at least once (2 × KEYS); hash
        // collisions of the probed slots add a few percent.
        let comparisons = COMPARISONS.with(std::cell::Cell::get);
        assert!((2 * KEYS..3 * KEYS).contains(&comparisons), "{comparisons} comparisons");
    }

    /// A merged key the mapping sets itself is its own; merged keys keep the first source's value.
    #[test]
    fn merged_keys_yield_to_the_mappings_own_and_to_earlier_sources() {
        let yaml = "a: &a {x: 1, y: 1}\nb: &b {y: 2, z: 2}\nc:\n  <<: [*a, *b]\n  x: 3\n";
        let Node::Map(top) = read(yaml, Typing::Core).unwrap().unwrap().node else {
            panic!("a mapping")
        };
        let Node::Map(c) = &top[2].value.node else {
            panic!("a mapping")
        };
        let pairs: Vec<(&str, String)> = c
            .iter()
            .map(|m| (m.key.as_str(), format!("{:?}", m.value.node)))
            .collect();
        assert_eq!(pairs.iter().map(|p| p.0).collect::<Vec<_>>(), ["x", "y", "z"]);
        assert!(
            pairs[0].1.contains('3') && pairs[1].1.contains('1') && pairs[2].1.contains('2'),
            "{pairs:?}"
        );
    }

    /// The alias bomb of the YAML spec's warnings, nine deep: it stops at the
    /// replay budget, having copied at most that many nodes.
    #[test]
    fn alias_bombs_stop_at_the_replay_budget() {
        let mut yaml = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x]\n");
        for i in 1..10 {
            let previous = format!("*a{}", i - 1);
            writeln!(yaml, "a{i}: &a{i} [{}]", [previous.as_str(); 9].join(", ")).unwrap();
        }
        let error = read(&yaml, Typing::Core).unwrap_err();
        assert!(error.message.contains("alias bomb"), "{}", error.message);
    }

    proptest! {
        /// Untrusted frontmatter: any text, and YAML-looking text made of the
        /// syntax's own pieces, is read or refused without a panic, and the
        /// reading stays within the budget whatever the aliases say.
        #[test]
        fn any_input_is_read_or_refused(
            text in prop_oneof![
                any::<String>(),
                proptest::collection::vec(
                    prop_oneof![
                        Just("a"), Just("b: "), Just("&x "), Just("*x"), Just("[ "), Just("]"), Just("{"), Just("}"),
                        Just(", "), Just("\n"), Just("  "), Just("- "), Just("<<: "), Just("? "), Just(": "), Just("!!str "),
                        Just("!!int "), Just("'q'"), Just("\"d\\n\""), Just("|\n"), Just("# c"), Just("---\n"), Just("1e9"),
                        Just("0x1"), Just("~"), Just("&y [*x, *x, *x]"), Just("yes"), Just("On"), Just("tRUE"),
                        Just("017"), Just("1_000"), Just("0x_1"), Just("!!bool "),
                    ],
                    0..40,
                ).prop_map(|pieces| pieces.concat()),
            ],
            typing in prop_oneof![Just(Typing::Core), Just(Typing::Yaml11)],
        ) {
            // Saying that the other typing changes nothing is what lets a check skip reading again.
            if let Ok((root, false)) = read_noting_typing(&text, typing) {
                prop_assert_eq!(read(&text, typing.other()), Ok(root));
            }
            if let Ok(Some(root)) = read(&text, typing) {
                let (nodes, bytes) = root.node.cost();
                prop_assert!(nodes <= MAX_EVENTS + MAX_REPLAYED_NODES);
                prop_assert!(bytes <= MAX_SCALAR_BYTES);
                let spans_in_text = |span: Span| span.start <= span.end && span.end <= text.len();
                prop_assert!(spans_in_text(root.span));
            }
        }
    }
}
