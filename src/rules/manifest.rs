// PLACEHOLDER (foundation commit): replaced by the package-check work.
use crate::diag::Diagnostic;
use crate::report::{PluginSection, PluginState};
use crate::tree::Tree;
pub fn load_manifest(_tree: &Tree, _diagnostics: &mut Vec<Diagnostic>) -> PluginSection {
    PluginSection {
        state: PluginState::Rejected,
        name: None,
        version: None,
        description: None,
        spec: None,
    }
}
