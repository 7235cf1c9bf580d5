// PLACEHOLDER (foundation commit): replaced by the MCP-configuration work.
use crate::diag::Diagnostic;
use crate::report::{McpSection, McpState, PluginSection};
use crate::tree::Tree;
pub fn load_mcp(_tree: &Tree, _plugin: &PluginSection, _diagnostics: &mut Vec<Diagnostic>) -> McpSection {
    McpSection {
        state: McpState::Absent,
        servers: Vec::new(),
    }
}
