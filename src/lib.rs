//! apcheck: check Agent Plugins 1.0.0 packages and capability snapshots, and
//! diff them, entirely on the user's device. This crate is the sans-IO core;
//! the CLI (`src/bin/apcheck`) and the wasm face (`wasm`) are thin edges.

pub mod assist;
pub mod baseline;
pub mod check_run;
pub mod collection;
pub mod commands;
pub mod config;
pub mod diag;
#[cfg(not(target_arch = "wasm32"))]
pub mod disk;
pub mod edit;
pub mod exit;
pub mod fix;
pub mod hops;
pub mod json;
#[cfg(not(target_arch = "wasm32"))]
pub mod live;
pub mod package;
#[cfg(any(not(target_arch = "wasm32"), feature = "node"))]
pub mod port;
pub mod redact;
pub mod registry;
pub mod render;
pub mod report;
#[macro_use]
pub mod rule;
pub mod rules;
#[cfg(any(not(target_arch = "wasm32"), feature = "node"))]
pub mod scaffold;
pub mod schemas;
pub mod snapshot;
pub mod source;
pub mod tree;

#[cfg(target_arch = "wasm32")]
pub mod wasm;

pub use diag::{Diagnostic, Severity};
pub use hops::{check_package, check_package_with};
pub use report::PackageReport;
pub use tree::{Entry, Tree};
