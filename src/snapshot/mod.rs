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

pub use lint::{SnapshotCheck, SnapshotLint, check_snapshot, lint_snapshot};
pub use model::Snapshot;
