//! JSON documents: parsing with spans (shared by every check of apcheck), and
//! the toolkit its page and CLI offer on their own: format, schema validation,
//! diff. It knows nothing of Agent Plugins: apcheck reaches it as `apcheck::json`,
//! where it adds the schemas it knows by name and the tools' policy.
//!
//! A crate of its own so that a change in apcheck's rules does not recompile
//! it, and so that no arrow can point from it up into the domain.

pub mod budget;
pub mod diff;
pub mod format;
pub mod lean;
pub mod locate;
pub mod parse;
pub mod pointer;
pub mod scan;
pub mod text;
pub mod validate;

pub use parse::{JsonDoc, JsonParseError, parse_document};

/// The JSON type of `value` with its article ("a string", "an array", "null"),
/// for messages that say what was found instead of what was expected.
pub fn json_type(value: &serde_json::Value) -> &'static str {
    match value {
        serde_json::Value::Null => "null",
        serde_json::Value::Bool(_) => "a boolean",
        serde_json::Value::Number(_) => "a number",
        serde_json::Value::String(_) => "a string",
        serde_json::Value::Array(_) => "an array",
        serde_json::Value::Object(_) => "an object",
    }
}
