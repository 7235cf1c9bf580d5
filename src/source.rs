//! The texts being checked: where a byte is (line:column, from the JSON
//! toolkit's `text` module, re-exported so every diagnostic names one type),
//! the invisible characters a rule looks for, and a JSON document with its
//! name and index.

pub use apcheck_json::text::{ColumnUnit, LineCol, LineIndex, Span, offset_at};

pub mod invisible;
pub mod json;
