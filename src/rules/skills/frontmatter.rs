//! `SKILL.md` frontmatter: the `---` delimiters and the YAML mapping between
//! them, with byte spans into the whole file so diagnostics land on the key or
//! value. The YAML is read by [`super::yaml`] under a small budget (a
//! frontmatter is a few lines), which turns alias bombs and deep nesting into errors.

use serde_json::Value;

use super::yaml::{self, Node};
pub use super::yaml::{Typing, YamlCause, YamlError};
use crate::diag::Diagnostic;
use crate::fix::{Edit, Fix};
use crate::source::Span;

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
    /// When the value is a mapping: its keys that YAML types as something
    /// other than a string (`1: x`), with their span and that kind ("a number").
    pub typed_keys: Vec<(String, Span, &'static str)>,
}

/// The frontmatter mapping, in document order.
#[derive(Debug, Clone, Default)]
pub struct Fields(pub Vec<Field>);

impl Fields {
    pub fn get(&self, key: &str) -> Option<&Field> {
        self.0.iter().find(|field| field.key == key)
    }
}

/// Parses the frontmatter YAML as a mapping with YAML 1.2 core typing (the
/// Agent Skills spec names no YAML version; 1.2 is the current one), within
/// a budget sized for a few dozen lines, so alias bombs, deep nesting and
/// huge documents fail fast.
pub fn parse_fields(yaml: &str) -> Result<Fields, YamlError> {
    parse_fields_with(yaml, Typing::Core)
}

/// [`parse_fields`], and whether YAML 1.1 would type any scalar in it
/// otherwise ([`yaml::read_noting_typing`]): when none, its reading is the same.
pub fn parse_fields_noting_yaml11(yaml: &str) -> Result<(Fields, bool), YamlError> {
    parse_fields_noting(yaml, Typing::Core)
}

/// Parses `yaml` as [`parse_fields`] does, typing plain scalars by `typing`.
pub fn parse_fields_with(yaml: &str, typing: Typing) -> Result<Fields, YamlError> {
    parse_fields_noting(yaml, typing).map(|(fields, _)| fields)
}

/// [`parse_fields_with`], and whether the other typing would type a scalar otherwise.
fn parse_fields_noting(yaml: &str, typing: Typing) -> Result<(Fields, bool), YamlError> {
    let empty = || YamlError {
        message: "the frontmatter is empty".to_string(),
        span: Span::new(0, 0),
        cause: YamlCause::Shape,
    };
    if yaml.trim().is_empty() {
        return Err(empty());
    }
    // A frontmatter of comments only is an empty mapping: its fields are missing, not malformed.
    let (root, typing_matters) = yaml::read_noting_typing(yaml, typing)?;
    let Some(root) = root else {
        return Ok((Fields::default(), typing_matters));
    };
    let Node::Map(members) = root.node else {
        return Err(YamlError {
            message: format!(
                "the YAML is {}, not a mapping of frontmatter fields (`name: ...`)",
                kind(&root.node)
            ),
            span: Span::new(root.span.start, root.span.start),
            cause: YamlCause::Shape,
        });
    };
    let fields = Fields(
        members
            .into_iter()
            .map(|member| Field {
                typed_keys: match &member.value.node {
                    Node::Map(inner) => inner
                        .iter()
                        .filter_map(|m| Some((m.key.clone(), m.key_span, m.key_typed_as?)))
                        .collect(),
                    _ => Vec::new(),
                },
                key: member.key,
                key_span: member.key_span,
                value_span: member.value.span,
                value: member.value.node.into_json(),
            })
            .collect(),
    );
    Ok((fields, typing_matters))
}

fn kind(node: &Node) -> &'static str {
    match node {
        Node::Null => "null",
        Node::Bool(_) => "a boolean",
        Node::Number(_) => "a number",
        Node::String(_) => "a string",
        Node::Seq(_) => "a sequence",
        Node::Map(_) => "a mapping",
    }
}

/// The span (in `yaml`) of the scalar at the JSON Pointer `pointer` into the
/// frontmatter mapping, at any depth (`/metadata/beta`); `None` when the
/// pointer names no scalar. [`Field`] keeps spans of top-level values only;
/// this parses again, which only a fix needs.
pub fn scalar_span(yaml: &str, pointer: &str) -> Option<Span> {
    let root = yaml::read(yaml, Typing::Core).ok()??;
    let mut node = &root;
    for token in pointer.strip_prefix('/')?.split('/') {
        let token = token.replace("~1", "/").replace("~0", "~");
        node = match &node.node {
            Node::Map(members) => members
                .iter()
                .find(|member| member.key == token)
                .map(|member| &member.value)?,
            Node::Seq(items) => items.get(token.parse::<usize>().ok()?)?,
            _ => return None,
        };
    }
    match node.node {
        Node::Seq(_) | Node::Map(_) => None,
        _ => Some(node.span),
    }
}

/// Quotes the plain scalar at `scalar` (a span of `yaml`) whose text is
/// `written`, so that every YAML parser reads it as that string. Safe: the
/// text apcheck checked stays the same (a value YAML 1.2 reads as this
/// string, a mapping key apcheck and JSON keep as its text); the parsers that
/// typed it otherwise now read it too. `None` unless the span holds exactly
/// that text (a plain scalar is its own text), so nothing but the scalar is
/// ever replaced.
pub fn quote_fix(yaml: &str, scalar: Span, placed: Span, written: &str, diagnostic: &Diagnostic) -> Option<Fix> {
    if yaml.get(scalar.start..scalar.end)? != written {
        return None;
    }
    // `place` shifted `placed` from the YAML into the file; shift the scalar alike.
    let shift = diagnostic.span?.start.checked_sub(placed.start)?;
    let quoted = serde_json::to_string(written).ok()?;
    Some(Fix::safe(
        format!("Quote {quoted}, so that every YAML parser reads a string"),
        vec![Edit::replace(
            diagnostic.file.clone()?,
            Span::new(scalar.start + shift, scalar.end + shift),
            quoted,
        )],
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

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
        // YAML 1.1 typing, used before, made `description: yes` a boolean and `1_000` a number.
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
            // A leading-zero decimal is no YAML 1.2 integer, but it is a float; still the number 17.
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
