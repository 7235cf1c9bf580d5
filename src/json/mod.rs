//! JSON documents: parsing with spans (shared by every check), and the toolkit
//! the page and CLI offer on their own: format, schema validation, diff.

pub mod builtin;
pub mod diff;
pub mod format;
pub mod parse;
pub mod validate;

pub use parse::{JsonDoc, JsonParseError, parse_document};
