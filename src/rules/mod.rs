//! The package rule families, each a module with its checks, its `static Rule`s
//! and its `RULES` list (the registry, `crate::registry`, gathers them):
//! - `AP0xx` files and JSON documents (`documents`: `apcheck validate`'s findings)
//! - `AP1xx` containment (§4.1)
//! - `AP2xx` manifest (§5, §8.1, §10)
//! - `AP3xx` skills (§6, §7.1, Agent Skills)
//! - `AP4xx` MCP configuration (§7.2, §9)
//! - `AP45x` live connections (`--connect`, §7.2.2 rule 5)
//! - `AP5xx` secrets in packaging (§7.2.1, §9.2)
//!
//! The snapshot families (AP6xx-AP9xx) live in `crate::snapshot`.

pub mod containment;
pub mod documents;
pub mod files;
pub mod layout;
// What `--connect` found: the page never connects, so it leaves these out;
// the npm package keeps them, so its `rules` and `explain` list what the CLI's do.
#[cfg(any(not(target_arch = "wasm32"), feature = "node"))]
pub mod live;
pub mod manifest;
pub mod mcp;
pub mod secrets;
pub mod skills;
pub mod unread;
