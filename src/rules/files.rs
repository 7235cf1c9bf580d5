// PLACEHOLDER (foundation commit): replaced by the package-check work.
use crate::diag::Diagnostic;
use crate::tree::Tree;
pub fn report_tree_limits(_tree: &Tree, _diagnostics: &mut Vec<Diagnostic>) {}
