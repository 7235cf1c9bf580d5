//! The loading pipeline of §11.1: root and path containment → manifest →
//! skills → MCP servers. Each hop takes what the previous one established and
//! returns states plus diagnostics; a rejected manifest stops everything after
//! it (§5.2), a failed component stops only that component (§11.3).

use crate::diag::Diagnostic;
use crate::fix::FixInputs;
use crate::report::{
    McpSection, McpState, PackageReport, PluginState, SkillsSection, SkillsState, Summary, sort_diagnostics,
};
use crate::rules;
use crate::tree::Tree;

/// Checks one plugin root exactly as a conformant client would load it.
pub fn check_package(root: &str, tree: &Tree) -> PackageReport {
    check_package_with(root, tree, &FixInputs::default())
}

/// [`check_package`], offering also the fixes that need `inputs` (the
/// findings are the same whatever `inputs` say).
pub fn check_package_with(root: &str, tree: &Tree, inputs: &FixInputs) -> PackageReport {
    let mut diagnostics: Vec<Diagnostic> = Vec::new();
    rules::files::report_tree_limits(tree, &mut diagnostics);
    let plugin = rules::manifest::load_manifest(tree, inputs, &mut diagnostics);
    let (skills, mcp) = if plugin.state == PluginState::Loaded {
        (
            rules::skills::discover_skills(tree, &mut diagnostics),
            rules::mcp::load_mcp(tree, &plugin, &mut diagnostics),
        )
    } else {
        (
            SkillsSection {
                state: SkillsState::NotLoaded,
                entries: Vec::new(),
            },
            McpSection {
                state: McpState::NotLoaded,
                servers: Vec::new(),
            },
        )
    };
    rules::containment::report_links_leaving_root(tree, &mut diagnostics);
    rules::layout::hint_vendor_files(tree, &plugin, &mut diagnostics);
    let unread = rules::unread::report_unreadable_paths(tree, &mut diagnostics);
    sort_diagnostics(&mut diagnostics);
    let summary = Summary::count(&diagnostics, &skills, &mcp);
    PackageReport {
        root: root.to_string(),
        plugin,
        skills,
        mcp,
        diagnostics,
        summary,
        unread,
    }
}
