//! The `apcheck` binary end to end, in one test crate (as ripgrep's
//! tests/tests.rs): each integration-test file is a binary of its own that
//! links the whole dependency tree, so the CLI tests share one binary, one
//! link, and one way to run the CLI (`support::apcheck`). The tests of all
//! modules run in parallel threads of this one process, so each one works in
//! its own temporary directory and leaves the process environment alone.
//!
//! `cargo test --test cli` runs them all; `cargo test --test cli fix::` one module.
//!
//! Left out: tests/live.rs (`--connect` against real MCP servers). It needs
//! the npm packages (`npm ci`), takes the longest, and asserts wall-clock
//! times (a server's timeout and no more) and that no server process is left
//! behind; in here, every other CLI test would compete with it for the CPU
//! and a missing `node_modules` would be a failure of `--test cli`. The
//! library-level tests (corpus, lsp, parallel_check, unreadable, ...) do not
//! run the binary and stay where they are.

mod support;

mod action;
mod baseline;
mod check;
mod config;
mod fix;
mod json;
mod new;
mod output_safety;
mod port;
mod shell;
mod skill_bodies;
mod snapshot;
mod special_files;
mod suppression;
