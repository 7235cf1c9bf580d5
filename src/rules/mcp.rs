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

mod command;
mod cwd;
mod document;
mod env;
mod headers;
mod location;
mod package_path;
mod placeholders;
mod server;
mod url;

use crate::diag::Diagnostic;
use crate::json::JsonDoc;
use crate::report::{McpSection, McpState, PluginSection};
use crate::rules::Rule;
use crate::source::{LineIndex, Span};
use crate::tree::Tree;

/// The `plugin.json` every rule example ships beside its `mcp.json`.
const EXAMPLE_PLUGIN_JSON: &str =
    "{\n  \"$schema\": \"https://agent-plugins.org/schemas/1.0.0/plugin.schema.json\",\n  \"name\": \"demo\"\n}\n";

/// The MCP configuration path, fixed by §6.1 and §7.2.1.
pub const MCP_PATH: &str = "mcp.json";

pub static RULES: &[&Rule] = &[
    &location::MCP_CONFIG_WRONG_KIND,
    &document::MCP_CONFIG_INVALID_JSON,
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
    &server::MCP_SERVER_FIELD_MISSING,
    &server::MCP_SERVER_FIELD_TYPE,
    &server::MCP_SSE_DEPRECATED,
    &command::MCP_COMMAND_NOT_A_TOKEN,
    &package_path::MCP_PATH_ESCAPES,
    &package_path::MCP_PATH_MISSING,
    &package_path::MCP_PATH_WRONG_KIND,
    &cwd::MCP_CWD_FORM,
    &env::MCP_ENV_RESERVED,
    &url::MCP_URL_INVALID,
    &url::MCP_URL_USERINFO,
    &url::MCP_URL_FRAGMENT,
    &url::MCP_URL_INSECURE,
    &headers::MCP_HEADER_NAME_INVALID,
    &headers::MCP_HEADER_VALUE_INVALID,
    &headers::MCP_HEADER_DUPLICATE,
    &placeholders::MCP_PLACEHOLDER_LITERAL,
];

/// Loads `mcp.json` as a conformant client would (called only when the plugin loaded).
pub fn load_mcp(tree: &Tree, plugin: &PluginSection, diagnostics: &mut Vec<Diagnostic>) -> McpSection {
    let disabled = McpSection {
        state: McpState::Disabled,
        servers: Vec::new(),
    };
    let text = match location::read_config(tree, diagnostics) {
        location::Config::Absent => {
            return McpSection {
                state: McpState::Absent,
                servers: Vec::new(),
            };
        }
        location::Config::Unusable => return disabled,
        location::Config::Text(text) => text,
    };
    let Some(file) = McpFile::parse(&text, diagnostics) else {
        return disabled;
    };
    let Some(servers) = document::check_document(&file, plugin, diagnostics) else {
        return disabled;
    };
    McpSection {
        state: McpState::Loaded,
        servers: servers
            .iter()
            .map(|(id, value)| server::check_server(&file, tree, id, value, diagnostics))
            .collect(),
    }
}

/// The parsed `mcp.json` with what every finding needs to name its place.
struct McpFile<'t> {
    text: &'t str,
    index: LineIndex,
    json: JsonDoc,
}

impl<'t> McpFile<'t> {
    fn parse(text: &'t str, diagnostics: &mut Vec<Diagnostic>) -> Option<Self> {
        let index = LineIndex::new(text);
        match crate::json::parse_document(text) {
            Ok(json) => Some(McpFile { text, index, json }),
            Err(error) => {
                let at = Span::new(error.offset, error.offset);
                diagnostics.push(
                    Diagnostic::new(
                        &document::MCP_CONFIG_INVALID_JSON,
                        format!("mcp.json is not valid JSON: {}", error.message),
                    )
                    .in_file(MCP_PATH)
                    .at_span(text, &index, at),
                );
                None
            }
        }
    }

    /// A finding about the value at `pointer` (or its nearest existing ancestor).
    fn at_value(&self, rule: &Rule, message: impl Into<String>, pointer: &str) -> Diagnostic {
        let span = self.json.nearest_span(pointer);
        Diagnostic::new(rule, message)
            .in_file(MCP_PATH)
            .at_pointer(pointer)
            .at_span(self.text, &self.index, span)
    }

    /// A finding about the member name at `pointer` (an unknown or duplicate key).
    fn at_key(&self, rule: &Rule, message: impl Into<String>, pointer: &str) -> Diagnostic {
        let span = self
            .json
            .key_span(pointer)
            .unwrap_or_else(|| self.json.nearest_span(pointer));
        Diagnostic::new(rule, message)
            .in_file(MCP_PATH)
            .at_pointer(pointer)
            .at_span(self.text, &self.index, span)
    }
}

/// `parent` extended by the member `token`, escaped per RFC 6901.
fn child_pointer(parent: &str, token: &str) -> String {
    let mut pointer = parent.to_string();
    crate::json::parse::push_token(&mut pointer, token);
    pointer
}

/// Quotes a name for a message; names are short and never secrets (values may be).
fn quoted(name: &str) -> String {
    format!("{name:?}")
}

/// A user-supplied, non-secret text for a message: quoted, and cut when long.
fn excerpt(text: &str) -> String {
    const MAX_CHARS: usize = 80;
    match text.char_indices().nth(MAX_CHARS) {
        Some((cut, _)) => format!("{:?}…", &text[..cut]),
        None => format!("{text:?}"),
    }
}

/// The JSON type of `value`, with its article, for messages.
fn json_type(value: &serde_json::Value) -> &'static str {
    match value {
        serde_json::Value::Null => "null",
        serde_json::Value::Bool(_) => "a boolean",
        serde_json::Value::Number(_) => "a number",
        serde_json::Value::String(_) => "a string",
        serde_json::Value::Array(_) => "an array",
        serde_json::Value::Object(_) => "an object",
    }
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
        let section = super::load_mcp(tree, &plugin_1_0_0(), &mut diagnostics);
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
