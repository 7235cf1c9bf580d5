//! Credentials embedded in MCP configuration (AP5xx).
//!
//! §7.2.1: "Plugins MUST NOT embed credentials or other secrets in `headers`";
//! §9.2: the same for `env`. Both are visible package data. A finding is an
//! error, but it does not make the server invalid: the spec does not list it
//! among the entry-invalidating rules, and a client would still load it.
//!
//! The family only lists its rules here: the detection the MCP checks share
//! and its rules are in `detect`, the others beside the one check that finds them.

pub mod detect;

use crate::rule::Rule;
use crate::rules::mcp;

pub static RULES: &[&Rule] = &[
    &detect::SECRET_AUTHORIZATION,
    &detect::SECRET_TOKEN_SHAPE,
    &detect::SECRET_NAMED_VALUE,
    &detect::SECRET_IN_OTHER_FIELD,
    &mcp::SECRET_IN_URL_QUERY,
    &mcp::SECRET_IN_ARGUMENT,
];
