//! Layout hints: vendor files sitting beside a portable package. They change
//! nothing a conformant client does (it never reads them), which is exactly
//! what a reviewer should be told once: "this file is invisible here".

use crate::diag::{Diagnostic, Severity};
use crate::report::{PluginSection, PluginState};
use crate::rule::{Example, Rule};
use crate::rules::manifest::{VENDOR_MANIFESTS, VendorManifest};
use crate::tree::{Entry, Tree};

const VALID: &str = "{\"$schema\": \"https://agent-plugins.org/schemas/1.0.0/plugin.schema.json\", \"name\": \"demo\"}";

pub static VENDOR_MCP_JSON: Rule = Rule {
    code: "AP020",
    name: "vendor-mcp-json",
    severity: Severity::Info,
    spec: "Agent Plugins §7.2.2",
    summary: "A vendor `.mcp.json` sits in the package; Agent Plugins clients never read it",
    fix_hint: Some("Declare the servers in mcp.json (no leading dot) with the 1.0.0 $schema"),
    doc: rule_doc! {
        what: "Reports a `.mcp.json` at the plugin root, the file some clients read natively.",
        why: "Clients MUST load MCP configuration only from `mcp.json` at the plugin root (§7.2.2): servers \
              declared only in `.mcp.json` never start for an Agent Plugins client.",
        failing: Example::Package(&[("plugin.json", VALID), (".mcp.json", "{\"mcpServers\": {}}")]),
        fixed: Example::Package(&[
            ("plugin.json", VALID),
            (
                "mcp.json",
                "{\"$schema\": \"https://agent-plugins.org/schemas/1.0.0/mcp.schema.json\", \"mcpServers\": {}}",
            ),
        ]),
    },
};

pub static VENDOR_MANIFEST_BESIDE: Rule = Rule {
    code: "AP021",
    name: "vendor-manifest-beside",
    severity: Severity::Info,
    spec: "Agent Plugins §5.1",
    summary: "A vendor manifest sits beside plugin.json; Agent Plugins clients ignore it",
    fix_hint: Some("Keep both in step by hand, or generate the vendor manifest from plugin.json"),
    doc: rule_doc! {
        what: "Reports, once each, vendor manifest directories (`.claude-plugin/`, `.codex-plugin/`, \
               `.cursor-plugin/`) and `gemini-extension.json` beside a plugin.json.",
        why: "Root plugin.json is the only portable manifest; no other file can replace, supplement or \
              override it (§5.1). A field changed only in a vendor manifest changes nothing here.",
        failing: Example::Package(&[
            ("plugin.json", VALID),
            (".claude-plugin/plugin.json", "{\"name\": \"demo\"}"),
        ]),
        fixed: Example::Package(&[("plugin.json", VALID)]),
    },
};

pub static RULES: &[&Rule] = &[&VENDOR_MCP_JSON, &VENDOR_MANIFEST_BESIDE];

/// Points out vendor files beside the package. Without a loaded plugin.json
/// the manifest hop already explained what is missing, so the manifest hint
/// is given only next to a loaded one; `.mcp.json` is told in every case.
pub fn hint_vendor_files(tree: &Tree, plugin: &PluginSection, diagnostics: &mut Vec<Diagnostic>) {
    if tree.entry(".mcp.json").is_some() {
        let also = if tree.entry("mcp.json").is_some() {
            "beside the portable mcp.json"
        } else {
            "and there is no mcp.json, so this package declares no MCP servers for them"
        };
        diagnostics.push(
            Diagnostic::new(
                &VENDOR_MCP_JSON,
                format!("`.mcp.json` is a vendor file that Agent Plugins clients never read (§7.2.2), {also}"),
            )
            .in_file(".mcp.json"),
        );
    }
    if plugin.state != PluginState::Loaded {
        return;
    }
    for VendorManifest {
        root_entry: path,
        client,
        ..
    } in VENDOR_MANIFESTS
    {
        let Some(entry) = tree.entry(path) else { continue };
        let what = if matches!(entry, Entry::Dir) {
            "directory"
        } else {
            "file"
        };
        diagnostics.push(
            Diagnostic::new(
                &VENDOR_MANIFEST_BESIDE,
                format!(
                    "`{path}` is a {client} manifest {what}; Agent Plugins clients read only plugin.json (§5.1), so keep the two in step"
                ),
            )
            .in_file(*path),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::manifest::load_manifest;

    fn hints(files: &[(&str, &str)]) -> Vec<Diagnostic> {
        let tree = Tree::from_files(files.iter().copied());
        let mut diagnostics = Vec::new();
        let (plugin, _) = load_manifest(&tree, &crate::fix::FixInputs::default(), &mut diagnostics);
        let mut hints = Vec::new();
        hint_vendor_files(&tree, &plugin, &mut hints);
        hints
    }

    #[test]
    fn vendor_mcp_json_is_pointed_out_once() {
        // §7.2.2 rule 1: only mcp.json at the root.
        let found = hints(&[("plugin.json", VALID), (".mcp.json", "{}")]);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].code, "AP020");
        assert!(found[0].message.contains("no mcp.json"));
    }

    #[test]
    fn vendor_manifest_dirs_beside_a_loaded_manifest_are_each_told_once() {
        // §5.1: exactly one portable manifest.
        let found = hints(&[
            ("plugin.json", VALID),
            (".claude-plugin/plugin.json", "{}"),
            (".claude-plugin/marketplace.json", "{}"),
            (".codex-plugin/plugin.json", "{}"),
        ]);
        let codes: Vec<_> = found.iter().map(|d| (d.code, d.file.clone().unwrap())).collect();
        assert_eq!(
            codes,
            [
                ("AP021", ".claude-plugin".to_string()),
                ("AP021", ".codex-plugin".to_string())
            ]
        );
    }

    #[test]
    fn clean_package_gets_no_layout_hint() {
        assert!(hints(&[("plugin.json", VALID)]).is_empty());
        // Without a loaded manifest, AP201 already says what the vendor manifest is.
        assert!(hints(&[(".claude-plugin/plugin.json", "{}")]).is_empty());
    }
}
