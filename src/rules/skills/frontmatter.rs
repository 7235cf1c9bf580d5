//! `SKILL.md` frontmatter: the `---` delimiters and the YAML mapping between
//! them, with byte spans into the whole file so diagnostics land on the key or
//! value. YAML is parsed by serde-saphyr under a small budget (a frontmatter is
//! a few lines), which turns alias bombs and deep nesting into errors.

use std::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};
use serde_saphyr::Spanned;

use crate::source::{ColumnUnit, Span, offset_at};

/// The two parts of a `SKILL.md`, as byte ranges of the file's text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Parts {
    /// The YAML between the delimiter lines.
    pub yaml: Span,
    /// The Markdown after the closing delimiter line.
    pub body: Span,
}

/// Why no frontmatter could be found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SplitError {
    /// The first line is not `---`.
    NoOpening,
    /// No `---` line closes the frontmatter.
    Unclosed,
}

/// Finds the frontmatter starting at byte `start` (after a BOM, if any). The
/// first line must be exactly `---`; the closing line is the next line that is
/// exactly `---`. Trailing spaces and a CR before the line feed are allowed on
/// both (files edited on Windows use CRLF).
pub fn split(text: &str, start: usize) -> Result<Parts, SplitError> {
    let mut lines = LineSpans::new(text, start);
    let (first, _) = lines.next().ok_or(SplitError::NoOpening)?;
    if !is_delimiter(&text[first.start..first.end]) {
        return Err(SplitError::NoOpening);
    }
    let yaml_start = lines.position;
    for (line, next) in lines {
        if is_delimiter(&text[line.start..line.end]) {
            return Ok(Parts {
                yaml: Span::new(yaml_start, line.start),
                body: Span::new(next, text.len()),
            });
        }
    }
    Err(SplitError::Unclosed)
}

fn is_delimiter(line: &str) -> bool {
    line.trim_end_matches([' ', '\t', '\r']) == "---"
}

/// Lines as (span without the line feed, offset of the next line).
struct LineSpans<'a> {
    text: &'a str,
    position: usize,
}

impl<'a> LineSpans<'a> {
    fn new(text: &'a str, start: usize) -> Self {
        LineSpans { text, position: start }
    }
}

impl Iterator for LineSpans<'_> {
    type Item = (Span, usize);

    fn next(&mut self) -> Option<Self::Item> {
        if self.position >= self.text.len() {
            return None;
        }
        let start = self.position;
        let end = self.text[start..].find('\n').map_or(self.text.len(), |i| start + i);
        self.position = (end + 1).min(self.text.len());
        Some((Span::new(start, end), self.position))
    }
}

/// One top-level frontmatter member: its key, and its value as JSON data
/// (YAML scalars, sequences and mappings map onto JSON's), with spans
/// relative to the YAML text.
#[derive(Debug, Clone)]
pub struct Field {
    pub key: String,
    pub key_span: Span,
    pub value: Value,
    pub value_span: Span,
}

/// The frontmatter mapping, in document order.
#[derive(Debug, Clone, Default)]
pub struct Fields(pub Vec<Field>);

impl Fields {
    pub fn get(&self, key: &str) -> Option<&Field> {
        self.0.iter().find(|field| field.key == key)
    }
}

/// Why the YAML is not a mapping of fields, and where (a span of the YAML text).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct YamlError {
    pub message: String,
    pub span: Span,
}

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

/// Parses the frontmatter YAML as a mapping with YAML 1.2 core typing (the
/// Agent Skills spec names no YAML version; 1.2 is the current one), within
/// a budget sized for a few dozen lines, so alias bombs, deep nesting and
/// huge documents fail fast.
pub fn parse_fields(yaml: &str) -> Result<Fields, YamlError> {
    parse_fields_with(yaml, Typing::Core)
}

/// Parses `yaml` as [`parse_fields`] does, typing plain scalars by `typing`.
pub fn parse_fields_with(yaml: &str, typing: Typing) -> Result<Fields, YamlError> {
    if yaml.trim().is_empty() {
        return Err(YamlError {
            message: "the frontmatter is empty".to_string(),
            span: Span::new(0, 0),
        });
    }
    serde_saphyr::from_str_with_options::<Fields>(yaml, options(typing)).map_err(|error| {
        // Error locations carry line and column (characters) but not always a byte offset.
        let offset = error
            .location()
            .filter(|location| location.line() > 0)
            .map_or(0, |location| {
                offset_at(
                    yaml,
                    location.line() as usize,
                    location.column() as usize,
                    ColumnUnit::Chars,
                )
            });
        let full = error.to_string();
        let message = full.rsplit_once(" at line ").map_or(full.as_str(), |(m, _)| m);
        // Drop advice addressed to programmers using the library, not to skill authors.
        let message = message
            .split(", set DuplicateKeyPolicy")
            .next()
            .unwrap_or(message)
            .to_string();
        YamlError {
            message,
            span: Span::new(offset, offset),
        }
    })
}

/// serde-saphyr's options for frontmatter: a budget sized for a few dozen
/// lines, and plain scalars typed by `typing`.
fn options(typing: Typing) -> serde_saphyr::Options {
    let mut options = serde_saphyr::Options::default();
    options.with_snippet = false;
    options.budget = serde_saphyr::budget! {
        max_events: 100_000,
        max_aliases: 1_000,
        max_anchors: 1_000,
        max_depth: 32,
        max_documents: 1,
        max_nodes: 50_000,
        max_total_scalar_bytes: 4 * 1024 * 1024,
    };
    options.alias_limits.max_total_replayed_events = 10_000;
    let core = typing == Typing::Core;
    options.strict_booleans = core;
    options.underscored_numbers_as_strings = core;
    options.legacy_octal_numbers = !core;
    options
}

/// The span (in `yaml`) of the scalar at the JSON Pointer `pointer` into the
/// frontmatter mapping, at any depth (`/metadata/beta`); `None` when the
/// pointer names no scalar. [`Field`] keeps spans of top-level values only;
/// this parses again, which only a fix needs.
pub fn scalar_span(yaml: &str, pointer: &str) -> Option<Span> {
    let root = serde_saphyr::from_str_with_options::<Spanned<Node>>(yaml, options(Typing::Core)).ok()?;
    let mut node = &root;
    for token in pointer.strip_prefix('/')?.split('/') {
        let token = token.replace("~1", "/").replace("~0", "~");
        node = match &node.value {
            Node::Map(members) => members
                .iter()
                .find(|(key, _)| key.value == token)
                .map(|(_, value)| value)?,
            Node::Seq(items) => items.get(token.parse::<usize>().ok()?)?,
            _ => return None,
        };
    }
    match node.value {
        Node::Seq(_) | Node::Map(_) => None,
        _ => Some(span_of(&node.referenced)),
    }
}

/// A YAML node with the span of every nested node (through `Spanned`): the one
/// value type frontmatter is deserialized into, for [`Fields`] and for
/// [`scalar_span`] alike. Each type serde-saphyr deserializes instantiates its
/// deserializer once more in the page's wasm (`serde_json::Value` directly
/// would be a second family: issue 13 §5); [`Node::into_json`] gives the JSON
/// value serde_json's own visitor builds.
enum Node {
    Null,
    Bool(bool),
    Number(Number),
    String(String),
    Seq(Vec<Spanned<Node>>),
    Map(Vec<(Spanned<String>, Spanned<Node>)>),
}

impl Node {
    /// The JSON value, as `serde_json::Value`'s visitor builds it: members in
    /// document order, a repeated key keeping its first place and its last value.
    fn into_json(self) -> Value {
        match self {
            Node::Null => Value::Null,
            Node::Bool(value) => Value::Bool(value),
            Node::Number(number) => Value::Number(number),
            Node::String(text) => Value::String(text),
            Node::Seq(items) => Value::Array(items.into_iter().map(|item| item.value.into_json()).collect()),
            Node::Map(members) => {
                let mut object = Map::new();
                for (key, value) in members {
                    object.insert(key.value, value.value.into_json());
                }
                Value::Object(object)
            }
        }
    }
}

impl<'de> Deserialize<'de> for Node {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(NodeVisitor)
    }
}

struct NodeVisitor;

impl<'de> Visitor<'de> for NodeVisitor {
    type Value = Node;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("any valid JSON value")
    }

    fn visit_bool<E>(self, value: bool) -> Result<Node, E> {
        Ok(Node::Bool(value))
    }

    fn visit_i64<E>(self, value: i64) -> Result<Node, E> {
        Ok(Node::Number(value.into()))
    }

    fn visit_u64<E>(self, value: u64) -> Result<Node, E> {
        Ok(Node::Number(value.into()))
    }

    fn visit_i128<E: de::Error>(self, value: i128) -> Result<Node, E> {
        Number::deserialize(de::value::I128Deserializer::new(value)).map(Node::Number)
    }

    fn visit_u128<E: de::Error>(self, value: u128) -> Result<Node, E> {
        Number::deserialize(de::value::U128Deserializer::new(value)).map(Node::Number)
    }

    fn visit_f64<E>(self, value: f64) -> Result<Node, E> {
        // Not-a-number and the infinities have no JSON number: null, as serde_json reads them.
        Ok(Number::from_f64(value).map_or(Node::Null, Node::Number))
    }

    fn visit_str<E>(self, value: &str) -> Result<Node, E> {
        Ok(Node::String(value.to_string()))
    }

    fn visit_string<E>(self, value: String) -> Result<Node, E> {
        Ok(Node::String(value))
    }

    fn visit_unit<E>(self) -> Result<Node, E> {
        Ok(Node::Null)
    }

    fn visit_none<E>(self) -> Result<Node, E> {
        Ok(Node::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Node, D::Error> {
        Node::deserialize(deserializer)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Node, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element::<Spanned<Node>>()? {
            items.push(item);
        }
        Ok(Node::Seq(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Node, A::Error> {
        let mut members = Vec::new();
        while let Some(key) = map.next_key::<Spanned<String>>()? {
            members.push((key, map.next_value::<Spanned<Node>>()?));
        }
        Ok(Node::Map(members))
    }
}

fn span_of(location: &serde_saphyr::Location) -> Span {
    let span = location.span();
    match (span.byte_offset(), span.byte_len()) {
        (Some(offset), Some(len)) => Span::new(offset as usize, (offset + len) as usize),
        _ => Span::new(0, 0),
    }
}

impl<'de> Deserialize<'de> for Fields {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(FieldsVisitor)
    }
}

struct FieldsVisitor;

impl<'de> Visitor<'de> for FieldsVisitor {
    type Value = Fields;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("a mapping of frontmatter fields (`name: ...`)")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Fields, A::Error> {
        let mut fields = Vec::new();
        while let Some(key) = map.next_key::<Spanned<String>>()? {
            let value = map.next_value::<Spanned<Node>>()?;
            fields.push(Field {
                key_span: span_of(&key.referenced),
                key: key.value,
                value_span: span_of(&value.referenced),
                value: value.value.into_json(),
            });
        }
        Ok(Fields(fields))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Field values come from [`Node`], not from deserializing
    /// `serde_json::Value` itself (one deserializer family in the wasm): they
    /// must be the values serde_json's own visitor builds, for every scalar
    /// type, nesting, alias, merge key and tag, in both typings.
    #[test]
    fn field_values_are_what_serde_json_reads() {
        let documents = [
            "name: a\ndescription: \"quoted: yes\"\n",
            "n: 1\nbig: 18446744073709551616\nneg: -9223372036854775809\nf: 1.5\nexp: 1e400\ninf: .inf\nnan: .nan\n",
            "hex: 0x1F\noct: 0o17\nlegacy: 017\nunderscore: 1_000\nyes: yes\nno: off\ny: y\n",
            "nulls: ~\nempty:\nword: null\nbool: True\n",
            "metadata:\n  beta: true\n  list: [1, two, {three: 3}]\n  nested: {a: {b: [null, 2.0]}}\n",
            "base: &base {a: 1, b: 2}\nuse: *base\nmerged:\n  <<: *base\n  b: 3\n",
            "tagged: !!str 123\nflt: !!float 1\nseq: !!seq [a]\nlong: |\n  line one\n  line two\n",
            "metadata: {a: 1, a: 2}\n",
        ];
        for yaml in documents {
            for typing in [Typing::Core, Typing::Yaml11] {
                let expected = serde_saphyr::from_str_with_options::<Value>(yaml, options(typing));
                let fields = parse_fields_with(yaml, typing);
                match (expected, fields) {
                    (Ok(expected), Ok(fields)) => {
                        let read: Map<String, Value> =
                            fields.0.into_iter().map(|field| (field.key, field.value)).collect();
                        assert_eq!(Value::Object(read), expected, "{yaml:?} {typing:?}");
                    }
                    (Err(_), Err(_)) => {}
                    (expected, fields) => panic!("{yaml:?} {typing:?}: {expected:?} vs {:?}", fields.map(|_| ())),
                }
            }
        }
    }

    #[test]
    fn splits_lf_and_crlf_frontmatter() {
        let text = "---\nname: a\n---\n# Body\n";
        let parts = split(text, 0).unwrap();
        assert_eq!(&text[parts.yaml.start..parts.yaml.end], "name: a\n");
        assert_eq!(&text[parts.body.start..parts.body.end], "# Body\n");
        let crlf = "---\r\nname: a\r\n---\r\nbody";
        let parts = split(crlf, 0).unwrap();
        assert_eq!(&crlf[parts.yaml.start..parts.yaml.end], "name: a\r\n");
        assert_eq!(&crlf[parts.body.start..parts.body.end], "body");
    }

    #[test]
    fn missing_or_unclosed_delimiters_are_errors() {
        assert_eq!(split("# Title\n---\nname: a\n---\n", 0), Err(SplitError::NoOpening));
        assert_eq!(split("\n---\nname: a\n---\n", 0), Err(SplitError::NoOpening));
        assert_eq!(split("---\nname: a\n", 0), Err(SplitError::Unclosed));
        assert_eq!(split("", 0), Err(SplitError::NoOpening));
        assert!(split("---\n---", 0).is_ok());
    }

    #[test]
    fn fields_keep_order_values_and_spans() {
        let yaml = "name: pdf\ndescription: \"Does PDFs\"\nmetadata:\n  version: \"1.0\"\n";
        let fields = parse_fields(yaml).unwrap();
        let keys: Vec<_> = fields.0.iter().map(|f| f.key.as_str()).collect();
        assert_eq!(keys, ["name", "description", "metadata"]);
        let description = fields.get("description").unwrap();
        assert_eq!(description.value, "Does PDFs");
        assert_eq!(
            &yaml[description.key_span.start..description.key_span.end],
            "description"
        );
        assert!(yaml[description.value_span.start..].starts_with("\"Does PDFs\""));
        assert_eq!(fields.get("metadata").unwrap().value["version"], "1.0");
    }

    #[test]
    fn scalars_are_located_at_any_depth() {
        let yaml = "name: a\nmetadata:\n  tags: [beta, \"yes\", on]\n  nested: {x: 017}\n";
        let at = |pointer: &str| scalar_span(yaml, pointer).map(|span| &yaml[span.start..span.end]);
        assert_eq!(at("/name"), Some("a"));
        assert_eq!(at("/metadata/tags/2"), Some("on"));
        assert_eq!(at("/metadata/tags/1"), Some("\"yes\""));
        assert_eq!(at("/metadata/nested/x"), Some("017"));
        assert_eq!(at("/metadata"), None, "a mapping is not a scalar");
        assert_eq!(at("/metadata/tags/9"), None);
        assert_eq!(at("/missing"), None);
    }

    #[test]
    fn yaml_errors_have_positions() {
        // A colon in an unquoted value is the most common real mistake.
        let yaml = "name: a\ndescription: Use when: things happen\n";
        let error = parse_fields(yaml).unwrap_err();
        assert_eq!(error.span.start, yaml.find(": things").unwrap(), "{error:?}");
        assert!(!error.message.contains("at line"), "{}", error.message);
        let not_mapping = parse_fields("- a\n- b\n").unwrap_err();
        assert!(not_mapping.message.contains("mapping"), "{}", not_mapping.message);
        assert!(parse_fields("  \n").is_err());
        let duplicate = parse_fields("name: a\nname: b\n").unwrap_err();
        assert_eq!(duplicate.message, "duplicate mapping key: name");
        let odd_keys = parse_fields("1: one\ntrue: yes\n").unwrap();
        assert_eq!(odd_keys.0[0].key, "1");
        assert!(parse_fields("? [a, b]\n: c\n").is_err());
    }

    #[test]
    fn plain_scalars_are_typed_by_yaml_1_2_core() {
        // Issue 9 §5: YAML 1.1 typing made `description: yes` a boolean and `1_000` a number.
        let yaml = "a: yes\nb: y\nc: on\nd: no\ne: 1_000\nf: true\ng: 42\nh: 017\ni: False\n";
        let fields = parse_fields(yaml).unwrap();
        let values: Vec<&Value> = fields.0.iter().map(|f| &f.value).collect();
        let expected = [
            serde_json::json!("yes"),
            serde_json::json!("y"),
            serde_json::json!("on"),
            serde_json::json!("no"),
            serde_json::json!("1_000"),
            serde_json::json!(true),
            serde_json::json!(42),
            // serde-saphyr reads a leading-zero decimal as a float; still the number 17.
            serde_json::json!(17.0),
            serde_json::json!(false),
        ];
        assert_eq!(values, expected.iter().collect::<Vec<_>>());
        let yaml11 = parse_fields_with(yaml, Typing::Yaml11).unwrap();
        let values: Vec<&Value> = yaml11.0.iter().map(|f| &f.value).collect();
        let expected = [
            serde_json::json!(true),
            serde_json::json!(true),
            serde_json::json!(true),
            serde_json::json!(false),
            serde_json::json!(1000),
            serde_json::json!(true),
            serde_json::json!(42),
            serde_json::json!(15),
            serde_json::json!(false),
        ];
        assert_eq!(values, expected.iter().collect::<Vec<_>>());
    }

    #[test]
    fn alias_bomb_fails_fast() {
        let mut yaml = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x]\n");
        for i in 1..10 {
            let prev = i - 1;
            yaml.push_str(&format!(
                "a{i}: &a{i} [*a{prev}, *a{prev}, *a{prev}, *a{prev}, *a{prev}, *a{prev}, *a{prev}, *a{prev}, *a{prev}]\n"
            ));
        }
        // 9^10 nodes if expanded: the replay budget stops it long before.
        assert!(parse_fields(&yaml).is_err());
    }
}
