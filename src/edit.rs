//! Fixes as data: a [`Fix`] is a list of byte-range [`Edit`]s that a rule
//! attaches to its diagnostic. A leaf, so that `diag` can carry fixes while
//! `fix` (which applies them and re-checks a tree) sits above `diag`.

use serde::{Deserialize, Serialize};

use crate::source::Span;

/// Whether a fix may be applied without a person looking at it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Applicability {
    /// Keeps what the author meant: `apcheck check --fix` applies it.
    Safe,
    /// Guesses what the author meant (which of two names is right, a
    /// namespace): applied only with `--unsafe-fixes`, offered by editors.
    Unsafe,
}

impl Applicability {
    pub fn as_str(self) -> &'static str {
        match self {
            Applicability::Safe => "safe",
            Applicability::Unsafe => "unsafe",
        }
    }
}

/// One replacement in one file: the bytes `span` of `file` become `replacement`.
/// An empty span inserts.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Edit {
    /// Package-relative path, as in [`Diagnostic::file`].
    pub file: String,
    /// The byte range replaced, in the file's text as checked.
    pub span: Span,
    pub replacement: String,
}

impl Edit {
    pub fn replace(file: impl Into<String>, span: Span, replacement: impl Into<String>) -> Self {
        Edit {
            file: file.into(),
            span,
            replacement: replacement.into(),
        }
    }

    pub fn insert(file: impl Into<String>, at: usize, text: impl Into<String>) -> Self {
        Edit::replace(file, Span::new(at, at), text)
    }

    pub fn delete(file: impl Into<String>, span: Span) -> Self {
        Edit::replace(file, span, String::new())
    }
}

/// A rule's offer to fix its finding: applied whole or not at all.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Fix {
    /// What the fix does, in one imperative line: `Rename the plugin to "invoice-ops"`.
    pub message: String,
    pub applicability: Applicability,
    /// Non-overlapping edits, in any order.
    pub edits: Vec<Edit>,
}

impl Fix {
    pub fn safe(message: impl Into<String>, edits: Vec<Edit>) -> Self {
        Fix {
            message: message.into(),
            applicability: Applicability::Safe,
            edits,
        }
    }

    pub fn unsafe_(message: impl Into<String>, edits: Vec<Edit>) -> Self {
        Fix {
            message: message.into(),
            applicability: Applicability::Unsafe,
            edits,
        }
    }

    /// The files the fix touches, in order, each once.
    pub fn files(&self) -> Vec<&str> {
        let mut files: Vec<&str> = self.edits.iter().map(|edit| edit.file.as_str()).collect();
        files.sort_unstable();
        files.dedup();
        files
    }
}
