//! The loading pipeline of §11.1: root and path containment → manifest →
//! skills → MCP servers. Each hop takes what the previous one established and
//! returns states plus diagnostics; a rejected manifest stops everything after
//! it (§5.2), a failed component stops only that component (§11.3). After a
//! rejected manifest the later hops are still checked, for their findings
//! alone (marked [`Diagnostic::unreached`]); their states stay "not loaded".

use crate::diag::Diagnostic;
use crate::fix::FixInputs;
use crate::package::Package;
use crate::report::{
    McpSection, McpState, PackageReport, PluginSection, PluginState, SkillsSection, SkillsState, Summary,
    sort_diagnostics,
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
    let (plugin, manifest) = rules::manifest::load_manifest(tree, inputs, &mut diagnostics);
    // Only a manifest that was read and rejected for what it says: when it is
    // missing or unreadable, the package is not known to be a plugin at all.
    let manifest_read = tree.read("plugin.json").is_some();
    let (skills, (mcp, mcp_read)) = if plugin.state == PluginState::Loaded {
        (
            rules::skills::discover_skills(tree, &mut diagnostics),
            rules::mcp::load_mcp(tree, &plugin, &mut diagnostics),
        )
    } else {
        // A client stops here and loads nothing (§5.2). The later hops are
        // still checked, so that an author sees every finding in one pass,
        // but what they would load is dropped and their findings are marked.
        let mut unreached = Vec::new();
        let mut suppressed = 0;
        if manifest_read {
            suppressed = rules::skills::discover_skills(tree, &mut unreached).suppressed;
            // A manifest rejected for its `$schema` names no version; mcp.json is
            // then judged against the newest version this checker supports,
            // not flagged for failing to match a version nobody named.
            let newest = crate::schemas::SUPPORTED_SPEC_VERSIONS
                .last()
                .map(|(_, version)| version.to_string());
            let assumed = PluginSection {
                spec: plugin.spec.clone().or(newest),
                ..plugin.clone()
            };
            rules::mcp::load_mcp(tree, &assumed, &mut unreached);
        }
        diagnostics.extend(unreached.into_iter().map(|mut diagnostic| {
            diagnostic.unreached = true;
            diagnostic
        }));
        (
            SkillsSection {
                state: SkillsState::NotLoaded,
                entries: Vec::new(),
                suppressed,
            },
            (
                McpSection {
                    state: McpState::NotLoaded,
                    servers: Vec::new(),
                },
                None,
            ),
        )
    };
    rules::containment::report_links_leaving_root(tree, &mut diagnostics);
    rules::layout::hint_vendor_files(tree, &plugin, &mut diagnostics);
    let unread = rules::unread::report_unreadable_paths(tree, &mut diagnostics);
    sort_diagnostics(&mut diagnostics);
    let summary = Summary {
        suppressed: skills.suppressed,
        ..Summary::count(&diagnostics, &skills, &mcp)
    };
    PackageReport {
        root: root.to_string(),
        plugin,
        skills,
        mcp,
        diagnostics,
        summary,
        unread,
        package: Package {
            manifest,
            mcp: mcp_read,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::{McpState, SkillsState};

    #[test]
    fn a_rejected_manifest_loads_nothing_but_every_hop_is_still_checked() {
        // §5.2: no `$schema`, so the plugin is rejected and nothing loads. The
        // skill's name mismatch (§7.1) and the server's missing command (§6.2)
        // are reported in the same pass, marked as not reached.
        let tree = Tree::from_files([
            ("plugin.json", "{\"name\": \"demo\"}"),
            (
                "skills/pdf/SKILL.md",
                "---\nname: pdf-tools\ndescription: Extracts text from PDF files. Use when the user works with PDFs.\n---\n",
            ),
            (
                "mcp.json",
                "{\"$schema\": \"https://agent-plugins.org/schemas/1.0.0/mcp.schema.json\", \"mcpServers\": {\"a\": {\"type\": \"stdio\"}}}",
            ),
        ]);
        let report = check_package("demo", &tree);
        assert_eq!(report.plugin.state, PluginState::Rejected);
        assert_eq!(report.skills.state, SkillsState::NotLoaded);
        assert_eq!(report.mcp.state, McpState::NotLoaded);
        assert_eq!(report.summary.skills_discovered + report.summary.servers_valid, 0);
        let codes: Vec<(&str, bool)> = report.diagnostics.iter().map(|d| (d.code, d.unreached)).collect();
        assert!(codes.contains(&("AP203", false)), "{codes:?}");
        assert!(codes.contains(&("AP309", true)), "{codes:?}");
        assert!(
            codes
                .iter()
                .any(|(code, unreached)| code.starts_with("AP4") && *unreached),
            "{codes:?}"
        );
        // Only what the manifest rejected counts against a version nobody named: no AP403.
        assert!(!codes.iter().any(|(code, _)| *code == "AP403"), "{codes:?}");
        let json = serde_json::to_value(&report.diagnostics).unwrap();
        assert!(json.as_array().unwrap().iter().any(|d| d["unreached"] == true));
        assert!(json.as_array().unwrap().iter().any(|d| d.get("unreached").is_none()));
    }

    #[test]
    fn an_unreadable_or_missing_manifest_checks_no_later_hop() {
        let missing = check_package("p", &Tree::from_files([("skills/a/SKILL.md", "---\nname: b\n---\n")]));
        assert!(
            missing.diagnostics.iter().all(|d| !d.unreached),
            "{:#?}",
            missing.diagnostics
        );
    }

    #[test]
    fn findings_hidden_by_comments_are_counted_whether_or_not_the_plugin_loads() {
        // Agent Skills `name`: `b` is not the directory `a` (AP309).
        let skill = "---\nname: b\ndescription: Does x. Use when y.\n---\n<!-- apcheck-ignore AP309 -->\n";
        for manifest in [
            "{\"$schema\": \"https://agent-plugins.org/schemas/1.0.0/plugin.schema.json\", \"name\": \"demo\"}",
            "{\"name\": \"demo\"}",
        ] {
            let tree = Tree::from_files([("plugin.json", manifest), ("skills/a/SKILL.md", skill)]);
            let report = check_package("demo", &tree);
            assert_eq!(report.summary.suppressed, 1, "{manifest}");
            assert!(
                report.diagnostics.iter().all(|d| d.code != "AP309"),
                "{:#?}",
                report.diagnostics
            );
        }
    }
}
