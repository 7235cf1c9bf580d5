//! Capability snapshots: what a client holds after loading a plugin (identity,
//! skill metadata, server status, tool contracts), kept by teams as a CI
//! fixture. This module builds them from a package report and `tools/list`
//! captures, lints them (AP6xx), compares them with the packaging files
//! (AP7xx), reports the changes between two of them (AP8xx) and checks
//! `tools/call` arguments against them (AP9xx). All sans-IO: text in, data out.
//!
//! Decisions (the schema, `schemas/apcheck/snapshot-1.schema.json`, says the same):
//! - Identity: `$id` `urn:apcheck:schema:snapshot:1`; a snapshot may carry it as `$schema`.
//! - `status`: `connected`, `failed` (§7.2.2 rule 5), `skipped` (invalid entry or
//!   unsupported transport, rules 3-4), `not-connected` (valid, not attempted).
//! - `loaded`: only `metadata`; anything more is AP603.
//! - Closed objects, except `extensions` (reverse-domain namespaces, as §8.1) on the
//!   root, plugin, skills and servers; tools are open, so every MCP Tool field is kept.
//! - Order as written by `apcheck snapshot`: skills by name, servers by id, tools by
//!   server then name; members in schema order; schemas as the server sent them.
//! - Change levels follow SemVer (§10.2); below 1.0.0 the Cargo rule applies.
//! - Schema changes are judged for callers: narrowing an `inputSchema` or widening an
//!   `outputSchema` is breaking; what cannot be proven harmless counts as breaking.

pub mod build;
pub mod call;
pub mod changes;
pub mod drift;
pub mod lint;
pub mod model;
pub mod page;
pub mod schema;
pub mod schema_diff;
pub mod tools_list;

pub use lint::{SnapshotCheck, check_snapshot};
pub use model::Snapshot;

use crate::diag::Diagnostic;
use crate::json::JsonDoc;
use crate::rule::Rule;
use crate::source::{LineIndex, Span};

/// A JSON file being checked: places diagnostics at pointers of its text.
pub(crate) struct Located<'a> {
    pub name: &'a str,
    pub text: &'a str,
    pub doc: &'a JsonDoc,
    index: LineIndex,
}

impl<'a> Located<'a> {
    pub fn new(name: &'a str, text: &'a str, doc: &'a JsonDoc) -> Self {
        Located {
            name,
            text,
            doc,
            index: LineIndex::new(text),
        }
    }

    /// A diagnostic on the value at `pointer` (or its nearest existing ancestor).
    pub fn at(&self, rule: &Rule, message: impl Into<String>, pointer: &str) -> Diagnostic {
        self.at_span(rule, message, pointer, self.doc.nearest_span(pointer))
    }

    /// A diagnostic on the member name at `pointer` (a key that should not be there).
    pub fn at_key(&self, rule: &Rule, message: impl Into<String>, pointer: &str) -> Diagnostic {
        let span = self
            .doc
            .key_span(pointer)
            .unwrap_or_else(|| self.doc.nearest_span(pointer));
        self.at_span(rule, message, pointer, span)
    }

    /// A diagnostic on an exact `span` belonging to `pointer`.
    pub fn at_span(&self, rule: &Rule, message: impl Into<String>, pointer: &str, span: Span) -> Diagnostic {
        Diagnostic::new(rule, message)
            .in_file(self.name)
            .at_pointer(pointer)
            .at_span(self.text, &self.index, span)
    }
}
