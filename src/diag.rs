//! Diagnostics are data: a stable rule code, a severity, where, what, why and how to fix.
//! Rendering them (text, JSON, SARIF, GitHub, Markdown, HTML) lives in `render`.

use serde::Serialize;

use crate::edit::Fix;
pub use crate::rule::Severity;
use crate::rule::{self, Family, Rule};
use crate::source::{LineIndex, Span};

/// One finding. Field names are the stable JSON shape of `apcheck check --format json`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Diagnostic {
    pub code: &'static str,
    pub severity: Severity,
    /// Package-relative path of the file the finding is about, if any.
    pub file: Option<String>,
    /// RFC 6901 JSON Pointer (for YAML frontmatter: the key path) inside `file`.
    pub pointer: Option<String>,
    pub line: Option<usize>,
    pub column: Option<usize>,
    pub end_line: Option<usize>,
    pub end_column: Option<usize>,
    /// Byte range in `file`, for faces that place markers.
    pub span: Option<Span>,
    pub message: String,
    /// The spec section the rule enforces, e.g. `Agent Plugins §5.5`.
    pub spec: &'static str,
    pub hint: Option<String>,
    /// Edits that fix the finding, when the rule can offer them (see `fix`).
    pub fix: Option<Fix>,
    /// Found in a component (a skill, `mcp.json`) that a client does not
    /// reach, because the manifest was rejected (§5.2): checked anyway, so
    /// that one pass shows every finding, and marked so that nobody reads it
    /// as something a client reported. Absent from JSON when false.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub unreached: bool,
}

/// How every face marks an [`Diagnostic::unreached`] finding.
pub const UNREACHED_NOTE: &str =
    "found in a component that a client does not reach until the manifest loads (plugin.json is rejected, §5.2)";

impl Diagnostic {
    /// A diagnostic for `rule` with `message`; place it with the builder methods.
    pub fn new(rule: &Rule, message: impl Into<String>) -> Self {
        // Built once, not once for each type of message.
        Diagnostic::with_message(rule, message.into())
    }

    fn with_message(rule: &Rule, message: String) -> Self {
        Diagnostic {
            code: rule.code,
            severity: rule.severity,
            file: None,
            pointer: None,
            line: None,
            column: None,
            end_line: None,
            end_column: None,
            span: None,
            message,
            spec: rule.spec,
            hint: rule.fix_hint.map(str::to_string),
            fix: None,
            unreached: false,
        }
    }

    pub fn in_file(mut self, file: impl Into<String>) -> Self {
        self.file = Some(file.into());
        self
    }

    pub fn at_pointer(mut self, pointer: impl Into<String>) -> Self {
        self.pointer = Some(pointer.into());
        self
    }

    /// Places the diagnostic at `span` of `text`, filling line and column.
    pub fn at_span(mut self, text: &str, index: &LineIndex, span: Span) -> Self {
        let start = index.line_col(text, span.start);
        let end = index.line_col(text, span.end);
        self.line = Some(start.line);
        self.column = Some(start.column);
        self.end_line = Some(end.line);
        self.end_column = Some(end.column);
        self.span = Some(span);
        self
    }

    /// The family of the rule that made this finding.
    pub fn family(&self) -> Option<Family> {
        Family::of_code(self.code)
    }

    /// Whether this finding points at a credential ([`Rule::masks_secrets`]).
    pub fn masks_secrets(&self) -> bool {
        rule::masks_secrets(self.code)
    }

    /// Replaces the rule's default fix hint with a specific one.
    pub fn with_hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }

    /// Attaches edits that fix the finding.
    pub fn with_fix(mut self, fix: Fix) -> Self {
        self.fix = Some(fix);
        self
    }
}
