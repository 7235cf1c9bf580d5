//! The JSON toolkit (`crates/json`, the `apcheck-json` crate) under the path
//! the rest of apcheck names it by, `crate::json::…`, with the two parts that
//! know apcheck's own documents and so stay here: the schemas known by name
//! (`builtin`, the Agent Plugins and MCP schemas) and the tools' policy
//! (`tools`, which offers them).

pub use apcheck_json::*;

pub mod builtin;
pub mod tools;
