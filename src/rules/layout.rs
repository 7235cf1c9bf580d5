// PLACEHOLDER (foundation commit): replaced by the package-check work.
use crate::diag::Diagnostic;
use crate::report::PluginSection;
use crate::tree::Tree;
pub fn hint_vendor_files(_tree: &Tree, _plugin: &PluginSection, _diagnostics: &mut Vec<Diagnostic>) {}
