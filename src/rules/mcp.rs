//! Hop 4: MCP servers from `mcp.json` (§6.2, §7.2, §9).
//!
//! Three failure boundaries, narrowest first, exactly as §7.2.2 draws them:
//! a location that is not a regular file or a document that is not a valid
//! 1.0.0 configuration disables MCP for the plugin (skills go on); a server
//! entry that breaks a rule is skipped alone; everything else (a missing
//! bundled file, a deprecated transport, a literal secret) is reported while
//! the server still loads, because a client would still load it.

/// An example `mcp.json` (for rule docs) holding the server members given as one literal.
macro_rules! example_mcp_json {
    ($servers:literal) => {
        concat!(
            "{\n  \"$schema\": \"https://agent-plugins.org/schemas/1.0.0/mcp.schema.json\",\n  \"mcpServers\": {\n",
            $servers,
            "\n  }\n}\n"
        )
    };
}

mod args;
mod command;
pub mod config;
mod cwd;
mod document;
mod entry;
mod env;
mod headers;
mod package_path;
pub mod placeholders;
mod server;
mod text;
mod url;

pub use args::SECRET_IN_ARGUMENT;
pub use command::split_command_line;
pub use config::{CheckedCwd, CwdForm, RemoteConfig, ServerConfig, StdioConfig, Transport};
pub use url::SECRET_IN_URL_QUERY;

use serde_json::{Map, Value};

use crate::diag::Diagnostic;
use crate::package::{Document, Location, McpDocument, Secret, Server, members_at};
use crate::report::{McpSection, McpState, PluginSection};
use crate::rule::Rule;
use crate::rules::files::{Load, read_json_file};
use crate::source::json::JsonSource;
use crate::tree::Tree;
use text::DISABLED;

/// The MCP configuration path, fixed by §6.1 and §7.2.1.
pub const MCP_PATH: &str = "mcp.json";

pub static RULES: &[&Rule] = &[
    &document::MCP_CONFIG_NOT_OBJECT,
    &document::MCP_SCHEMA_MISSING,
    &document::MCP_SCHEMA_UNSUPPORTED,
    &document::MCP_UNKNOWN_TOP_LEVEL_FIELD,
    &document::MCP_SERVERS_NOT_OBJECT,
    &server::MCP_SERVER_NOT_OBJECT,
    &server::MCP_SERVER_TYPE_MISSING,
    &server::MCP_SERVER_TYPE_UNKNOWN,
    &server::MCP_SERVER_UNKNOWN_FIELD,
    &server::MCP_SERVER_FOREIGN_FIELD,
    &entry::MCP_SERVER_FIELD_MISSING,
    &entry::MCP_SERVER_FIELD_TYPE,
    &server::MCP_SSE_DEPRECATED,
    &command::MCP_COMMAND_NOT_A_TOKEN,
    &package_path::MCP_PATH_MISSING,
    &package_path::MCP_PATH_WRONG_KIND,
    &cwd::MCP_CWD_FORM,
    &cwd::MCP_CWD_ESCAPES_DATA,
    &env::MCP_ENV_RESERVED,
    &env::MCP_ENV_NAME_UNPORTABLE,
    &url::MCP_URL_INVALID,
    &url::MCP_URL_USERINFO,
    &url::MCP_URL_FRAGMENT,
    &url::MCP_URL_INSECURE,
    &headers::MCP_HEADER_NAME_INVALID,
    &headers::MCP_HEADER_VALUE_INVALID,
    &headers::MCP_HEADER_DUPLICATE,
    &headers::MCP_HEADER_CLIENT_MANAGED,
    &placeholders::MCP_PLACEHOLDER_LITERAL,
];

/// Loads `mcp.json` as a conformant client would (called only when the plugin
/// loaded), with what the file holds, typed: each valid server's configuration.
pub fn load_mcp(
    tree: &Tree,
    plugin: &PluginSection,
    diagnostics: &mut Vec<Diagnostic>,
) -> (McpSection, Option<McpDocument>) {
    let disabled = McpSection {
        state: McpState::Disabled,
        servers: Vec::new(),
    };
    // §6.2: absent is not an error; a location that escapes, loops, is not a
    // regular file or is not JSON disables MCP (§4.1 boundary 2, §7.2.2 rule 2).
    let file = match read_json_file(tree, MCP_PATH, DISABLED, diagnostics) {
        Load::Absent => {
            let absent = McpSection {
                state: McpState::Absent,
                servers: Vec::new(),
            };
            return (absent, None);
        }
        Load::Failed => return (disabled, None),
        Load::Loaded(file) => file,
    };
    let mut read = read_document(&file);
    let Some(servers) = document::check_document(&file, plugin, diagnostics) else {
        return (disabled, read);
    };
    let mut entries = Vec::with_capacity(servers.len());
    // `read` lists the same `mcpServers` members in the same order.
    let mut typed = read.as_mut().map(|read| read.servers.iter_mut());
    for (id, value) in servers {
        let (entry, config) = server::check_server(&file, tree, id, value, diagnostics);
        if let Some(server) = typed.as_mut().and_then(Iterator::next).filter(|s| s.id == *id) {
            server.config = config;
        }
        entries.push(entry);
    }
    let section = McpSection {
        state: McpState::Loaded,
        servers: entries,
    };
    (section, read)
}

/// What `file` holds, whether or not it is a valid configuration: its
/// members, and every entry of `mcpServers` with the values that may be
/// credentials. `None` when it is not an object.
fn read_document(file: &JsonSource<'_>) -> Option<McpDocument> {
    let document = Document::at(file, "")?;
    let entries = file.doc.value.get("mcpServers").and_then(Value::as_object);
    let servers = entries
        .into_iter()
        .flatten()
        .map(|(id, value)| {
            let pointer = text::child_pointer("/mcpServers", id);
            let server = value.as_object();
            let text = |key: &str| server.and_then(|s| s.get(key)).and_then(Value::as_str);
            Server {
                id: id.clone(),
                location: Location::of_key(file, &pointer),
                members: members_at(file, &pointer).unwrap_or_default(),
                transport: text("type").and_then(Transport::from_type),
                config: None,
                secrets: configured_secrets(server),
            }
        })
        .collect();
    Some(McpDocument { document, servers })
}

/// The values of a server entry that may be credentials: `env` and
/// `headers` values and the `url`, as written. Their readers (`--connect`,
/// `snapshot --failed`) are native, so the page's wasm keeps none (as
/// `server::launchable` keeps no configuration), but the npm package's, which
/// runs `snapshot --failed`.
#[cfg(any(not(target_arch = "wasm32"), feature = "node"))]
fn configured_secrets(server: Option<&Map<String, Value>>) -> Vec<Secret> {
    let mut secrets = Vec::new();
    for field in ["env", "headers"] {
        let members = server.and_then(|s| s.get(field)).and_then(Value::as_object);
        for (name, value) in members.into_iter().flatten() {
            if let Some(value) = value.as_str() {
                secrets.push(Secret::Named {
                    name: name.clone(),
                    value: value.to_string(),
                });
            }
        }
    }
    let url = server.and_then(|s| s.get("url")).and_then(Value::as_str);
    secrets.extend(url.map(|url| Secret::Url(url.to_string())));
    secrets
}

#[cfg(all(target_arch = "wasm32", not(feature = "node")))]
fn configured_secrets(_: Option<&Map<String, Value>>) -> Vec<Secret> {
    Vec::new()
}

#[cfg(test)]
mod test_support {
    use crate::diag::Diagnostic;
    use crate::report::{McpSection, PluginSection, PluginState};
    use crate::tree::Tree;

    pub fn plugin_1_0_0() -> PluginSection {
        PluginSection {
            state: PluginState::Loaded,
            name: Some("example".into()),
            version: None,
            description: None,
            spec: Some("1.0.0".into()),
            reason: None,
        }
    }

    /// Loads `mcp_json` as the package's `mcp.json` next to `extra` files.
    pub fn load(mcp_json: &str, extra: &[(&str, &str)]) -> (McpSection, Vec<Diagnostic>) {
        let mut files = vec![("mcp.json", mcp_json)];
        files.extend_from_slice(extra);
        let tree = Tree::from_files(files);
        load_tree(&tree)
    }

    pub fn load_tree(tree: &Tree) -> (McpSection, Vec<Diagnostic>) {
        let mut diagnostics = Vec::new();
        let (section, _) = super::load_mcp(tree, &plugin_1_0_0(), &mut diagnostics);
        (section, diagnostics)
    }

    /// An `mcp.json` with one server `s` whose configuration is `server`.
    pub fn one_server(server: &str) -> String {
        format!(
            "{{\n  \"$schema\": \"https://agent-plugins.org/schemas/1.0.0/mcp.schema.json\",\n  \"mcpServers\": {{\n    \"s\": {server}\n  }}\n}}"
        )
    }

    pub fn codes(diagnostics: &[Diagnostic]) -> Vec<&'static str> {
        diagnostics.iter().map(|d| d.code).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::test_support::{codes, load_tree};
    use crate::report::McpState;
    use crate::tree::{Entry, Tree};

    #[test]
    fn absent_mcp_json_is_not_an_error() {
        // §6.2: "If a fixed component location is absent, the client MUST NOT treat that as an error."
        let (section, diagnostics) = load_tree(&Tree::from_files([("plugin.json", "{}")]));
        assert_eq!(section.state, McpState::Absent);
        assert!(diagnostics.is_empty());
    }

    #[test]
    fn wrong_kinds_and_escapes_disable_mcp() {
        // §6.2: present but not a regular file; §4.1 boundary 2: resolves outside the root or loops.
        for (entry, code) in [
            (Entry::Dir, "AP006"),
            (Entry::Symlink("../outside/mcp.json".into()), "AP101"),
            (Entry::Symlink("mcp.json".into()), "AP102"),
            (Entry::File(vec![b'{', 0xff, b'}']), "AP001"),
        ] {
            let mut tree = Tree::new();
            tree.insert("mcp.json", entry);
            let (section, diagnostics) = load_tree(&tree);
            assert_eq!(section.state, McpState::Disabled, "{code}");
            assert_eq!(codes(&diagnostics), [code]);
            assert!(
                diagnostics[0].message.ends_with(super::DISABLED),
                "{}",
                diagnostics[0].message
            );
        }
    }

    #[test]
    fn link_to_a_file_inside_the_root_is_followed() {
        let mut tree = Tree::from_files([(
            "config/mcp.json",
            r#"{"$schema": "https://agent-plugins.org/schemas/1.0.0/mcp.schema.json", "mcpServers": {}}"#,
        )]);
        tree.insert("mcp.json", Entry::Symlink("config/mcp.json".into()));
        let (section, diagnostics) = load_tree(&tree);
        assert_eq!(section.state, McpState::Loaded);
        assert!(diagnostics.is_empty(), "{diagnostics:?}");
    }
}
