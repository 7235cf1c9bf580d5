//! A JSON document being checked: its name, its text, the line index of that
//! text and the parsed document, so that any rule can place a diagnostic at a
//! JSON Pointer with `file:line:col` and a span. One type for the package files
//! (`rules::files`), the snapshot commands and the live findings.

use std::borrow::Cow;

use crate::diag::Diagnostic;
use crate::json::JsonDoc;
use crate::json::locate::opening_of;
use crate::rule::Rule;
use crate::source::{LineIndex, Span};

/// A parsed JSON file and where its values are. The text is borrowed when
/// the caller holds it, owned when the source outlives the read (package files).
#[derive(Debug, Clone)]
pub struct JsonSource<'t> {
    /// The name diagnostics carry: a package-relative path, or a file as the user named it.
    pub path: String,
    pub text: Cow<'t, str>,
    pub index: LineIndex,
    pub doc: JsonDoc,
}

impl<'t> JsonSource<'t> {
    pub fn new(path: impl Into<String>, text: impl Into<Cow<'t, str>>, doc: JsonDoc) -> Self {
        let text = text.into();
        JsonSource {
            path: path.into(),
            index: LineIndex::new(&text),
            text,
            doc,
        }
    }

    /// A diagnostic for `rule` placed on the value at `pointer` (or its nearest
    /// existing ancestor, for a missing member).
    pub fn at_value(&self, rule: &Rule, pointer: &str, message: impl Into<String>) -> Diagnostic {
        self.at_span(rule, pointer, self.doc.nearest_span(pointer), message)
    }

    /// A diagnostic for `rule` about a member the object at `pointer` lacks,
    /// placed on that object's opening brace: its whole span would underline
    /// the whole document for a root-level gap.
    pub fn at_missing(&self, rule: &Rule, pointer: &str, message: impl Into<String>) -> Diagnostic {
        let span = opening_of(&self.text, self.doc.nearest_span(pointer));
        self.at_span(rule, pointer, span, message)
    }

    /// A diagnostic for `rule` placed on the member name at `pointer` (a key
    /// that should not be there), or on its value when it has no name.
    pub fn at_key(&self, rule: &Rule, pointer: &str, message: impl Into<String>) -> Diagnostic {
        let span = self
            .doc
            .key_span(pointer)
            .unwrap_or_else(|| self.doc.nearest_span(pointer));
        self.at_span(rule, pointer, span, message)
    }

    /// A diagnostic for `rule` where the validator placed a schema violation
    /// (an unexpected member's key, a missing member's opening brace), or on
    /// the value at `pointer` when the validator gave no place.
    pub fn at_schema_error(
        &self,
        rule: &Rule,
        span: Option<Span>,
        pointer: &str,
        message: impl Into<String>,
    ) -> Diagnostic {
        match span {
            Some(span) => self.at_span(rule, pointer, span, message),
            None => self.at_value(rule, pointer, message),
        }
    }

    /// A diagnostic for `rule` on an exact `span` belonging to `pointer`.
    pub fn at_span(&self, rule: &Rule, pointer: &str, span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(rule, message)
            .in_file(&self.path)
            .at_pointer(pointer)
            .at_span(&self.text, &self.index, span)
    }
}
