//! AP2xx: the manifest hop (§5, §8.1, §10). `plugin.json` is read, its
//! `$schema` selects the rules (only 1.0.0 is supported), and the closed schema
//! is checked member by member so every problem carries a pointer and a
//! line:column. Unknown top-level fields and a non-object `extensions` are
//! reported and ignored (§5.2, §8.1); every other violation rejects the plugin
//! and nothing is discovered (§5.3, §11.3). Metadata is checked only by type
//! (§5.4); SemVer is a hint, never a verdict.

mod members;
mod name;
mod schema_id;
mod texts;
mod version;

pub use members::is_reverse_domain;

use serde_json::Value;

use crate::json::json_type;

use crate::diag::{Diagnostic, Severity};
use crate::fix::FixInputs;
use crate::package::Document;
use crate::report::{PluginSection, PluginState};
use crate::rule::{Example, Rule};
use crate::rules::files::{Load, read_json_file};
use crate::tree::Tree;
use texts::{REJECTED, VALID};

pub static MANIFEST_MISSING: Rule = Rule {
    code: "AP201",
    name: "manifest-missing",
    severity: Severity::Error,
    spec: "Agent Plugins §4.1, §5.1",
    summary: "There is no plugin.json at the plugin root",
    fix_hint: Some("Add plugin.json at the root with \"$schema\" and \"name\""),
    doc: rule_doc! {
        what: "Looks for plugin.json at the plugin root; when it is missing, says whether a vendor manifest \
               (.claude-plugin/plugin.json, .codex-plugin/plugin.json, gemini-extension.json) is there instead.",
        why: "A plugin MUST include plugin.json at its root (§4.1) and it is the only portable manifest \
              (§5.1): without it a client rejects the directory, whatever vendor files it holds.",
        failing: Example::Package(&[(".claude-plugin/plugin.json", "{\"name\": \"invoice-ops\"}")]),
        fixed: Example::Package(&[("plugin.json", VALID)]),
    },
};

pub static MANIFEST_NOT_OBJECT: Rule = Rule {
    code: "AP202",
    name: "manifest-not-object",
    severity: Severity::Error,
    spec: "Agent Plugins §5.2",
    summary: "plugin.json is JSON but not an object",
    fix_hint: Some("Make the top level a JSON object"),
    doc: rule_doc! {
        what: "Reports a plugin.json whose top-level value is an array, string, number, boolean or null.",
        why: "The manifest MUST contain a top-level object (§5.2); anything else rejects the plugin.",
        failing: Example::Package(&[("plugin.json", "[\"invoice-ops\"]")]),
        fixed: Example::Package(&[("plugin.json", VALID)]),
    },
};

pub static RULES: &[&Rule] = &[
    &MANIFEST_MISSING,
    &MANIFEST_NOT_OBJECT,
    &schema_id::SCHEMA_MISSING,
    &schema_id::SCHEMA_UNSUPPORTED,
    &members::MANIFEST_UNKNOWN_FIELD,
    &members::EXTENSIONS_NOT_OBJECT,
    &members::MANIFEST_FIELD_TYPE,
    &members::AUTHOR_UNKNOWN_FIELD,
    &name::MANIFEST_NAME_INVALID,
    &members::INLINE_COMPONENT,
    &members::NAME_MISSING,
    &version::VERSION_NOT_SEMVER,
    &members::EXTENSION_NAMESPACE,
];

/// A client's own manifest: named where a portable one is missing (AP201)
/// and pointed out where it sits beside one (AP021).
pub struct VendorManifest {
    /// The entry at the root: the vendor directory, or the file itself.
    pub root_entry: &'static str,
    /// The manifest file inside `root_entry`, or `root_entry` when it is one.
    pub file: &'static str,
    pub client: &'static str,
}

pub const VENDOR_MANIFESTS: &[VendorManifest] = &[
    VendorManifest {
        root_entry: ".claude-plugin",
        file: ".claude-plugin/plugin.json",
        client: "Claude Code",
    },
    VendorManifest {
        root_entry: ".codex-plugin",
        file: ".codex-plugin/plugin.json",
        client: "Codex",
    },
    VendorManifest {
        root_entry: ".cursor-plugin",
        file: ".cursor-plugin/plugin.json",
        client: "Cursor",
    },
    VendorManifest {
        root_entry: "gemini-extension.json",
        file: "gemini-extension.json",
        client: "Gemini CLI",
    },
];

/// Loads `plugin.json` as a conformant client does (§5): any error-level
/// finding here rejects the plugin, and the first one is the reason given.
pub fn load_manifest(
    tree: &Tree,
    inputs: &FixInputs,
    diagnostics: &mut Vec<Diagnostic>,
) -> (PluginSection, Option<Document>) {
    let before = diagnostics.len();
    let mut read = None;
    let mut section = judge_manifest(tree, inputs, diagnostics, &mut read);
    if section.state == PluginState::Rejected {
        section.reason = diagnostics[before..]
            .iter()
            .find(|d| d.severity == Severity::Error)
            .map(|d| d.message.clone());
    }
    (section, read)
}

/// Judges plugin.json, and puts what it holds in `read` when it is an object.
fn judge_manifest(
    tree: &Tree,
    inputs: &FixInputs,
    diagnostics: &mut Vec<Diagnostic>,
    read: &mut Option<Document>,
) -> PluginSection {
    let mut section = PluginSection {
        state: PluginState::Rejected,
        name: None,
        version: None,
        description: None,
        spec: None,
        reason: None,
    };
    let file = match read_json_file(tree, "plugin.json", REJECTED, diagnostics) {
        Load::Loaded(file) => file,
        Load::Failed => return section,
        Load::Absent => {
            diagnostics.push(missing_manifest(tree));
            return section;
        }
    };
    *read = Document::at(&file, "");
    let Value::Object(members) = &file.doc.value else {
        diagnostics.push(file.at_value(
            &MANIFEST_NOT_OBJECT,
            "",
            format!(
                "plugin.json is {}, not an object; {REJECTED}",
                json_type(&file.doc.value)
            ),
        ));
        return section;
    };
    for (field, slot) in [
        ("name", &mut section.name),
        ("version", &mut section.version),
        ("description", &mut section.description),
    ] {
        *slot = members.get(field).and_then(Value::as_str).map(str::to_string);
    }
    let Some(version) = schema_id::select_spec_version(&file, members, diagnostics) else {
        if !members.contains_key("$schema") {
            // Manifests without `$schema` are mostly pre-spec or vendor manifests meant for 1.0.0:
            // checking the rest by the 1.0.0 rules shows everything else between them and loading.
            members::check_members(&file, members, inputs, diagnostics);
        }
        return section;
    };
    section.spec = Some(version.to_string());
    let errors_before = count_errors(diagnostics);
    members::check_members(&file, members, inputs, diagnostics);
    if count_errors(diagnostics) == errors_before {
        section.state = PluginState::Loaded;
    }
    section
}

fn count_errors(diagnostics: &[Diagnostic]) -> usize {
    diagnostics.iter().filter(|d| d.severity == Severity::Error).count()
}

fn missing_manifest(tree: &Tree) -> Diagnostic {
    let vendors: Vec<String> = VENDOR_MANIFESTS
        .iter()
        .filter(|vendor| tree.read(vendor.file).is_some())
        .map(|vendor| format!("`{}` ({})", vendor.file, vendor.client))
        .collect();
    let mut message =
        "There is no `plugin.json` at the plugin root; the directory is rejected (§4.1, §5.1)".to_string();
    if !vendors.is_empty() {
        message.push_str(&format!(
            ". It holds {}: a vendor manifest, which Agent Plugins clients never read, so this is not an Agent Plugins package (§5.1: root plugin.json is the only portable manifest)",
            vendors.join(" and ")
        ));
    }
    Diagnostic::new(&MANIFEST_MISSING, message)
}

/// Helpers shared by the submodules' tests.
#[cfg(test)]
mod testing {
    use super::load_manifest;
    use crate::diag::Diagnostic;
    use crate::fix::FixInputs;
    use crate::report::PluginSection;
    use crate::tree::Tree;

    pub const SCHEMA: &str = "\"$schema\": \"https://agent-plugins.org/schemas/1.0.0/plugin.schema.json\"";

    pub fn load(text: &str) -> (PluginSection, Vec<Diagnostic>) {
        let tree = Tree::from_files([("plugin.json", text)]);
        let mut diagnostics = Vec::new();
        let (section, _) = load_manifest(&tree, &FixInputs::default(), &mut diagnostics);
        (section, diagnostics)
    }

    pub fn codes(diagnostics: &[Diagnostic]) -> Vec<&str> {
        diagnostics.iter().map(|d| d.code).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::testing::{SCHEMA, codes, load};
    use super::*;

    #[test]
    fn minimal_manifest_loads() {
        // §5.2 "Example: minimal manifest".
        let (section, diagnostics) = load(&format!("{{{SCHEMA}, \"name\": \"minimal-plugin\"}}"));
        assert_eq!(section.state, PluginState::Loaded);
        assert_eq!(section.spec.as_deref(), Some("1.0.0"));
        assert_eq!(section.name.as_deref(), Some("minimal-plugin"));
        assert!(diagnostics.is_empty(), "{diagnostics:?}");
        assert_eq!(section.reason, None);
    }

    #[test]
    fn a_rejected_manifest_gives_its_first_error_as_the_reason() {
        // §5.3: an invalid required field rejects the plugin; the report says which, not a guess.
        let (section, diagnostics) = load(&format!("{{{SCHEMA}, \"name\": \"Bad Name\"}}"));
        assert_eq!(section.state, PluginState::Rejected);
        let first_error = diagnostics
            .iter()
            .find(|d| d.severity == Severity::Error)
            .expect("an error");
        assert_eq!(section.reason.as_deref(), Some(first_error.message.as_str()));
    }

    #[test]
    fn full_manifest_from_the_spec_loads() {
        // §5.2 "Example: full manifest".
        let text = format!(
            "{{{SCHEMA}, \"name\": \"plugin-name\", \"version\": \"1.2.0\", \"description\": \"Brief\", \
             \"author\": {{\"name\": \"A\", \"email\": \"a@example.com\", \"url\": \"https://example.com\"}}, \
             \"homepage\": \"https://docs.example.com\", \"repository\": \"https://github.com/x/y\", \
             \"license\": \"MIT\", \"keywords\": [\"k1\", \"k2\"], \
             \"extensions\": {{\"com.example.client\": {{\"setting\": true}}}}}}"
        );
        let (section, diagnostics) = load(&text);
        assert_eq!(section.state, PluginState::Loaded);
        assert!(diagnostics.is_empty(), "{diagnostics:?}");
    }

    #[test]
    fn missing_manifest_names_a_vendor_manifest() {
        // §4.1 item 2, §5.1.
        let tree = Tree::from_files([(".claude-plugin/plugin.json", "{}")]);
        let mut diagnostics = Vec::new();
        let (section, _) = load_manifest(&tree, &FixInputs::default(), &mut diagnostics);
        assert_eq!(section.state, PluginState::Rejected);
        assert_eq!(codes(&diagnostics), ["AP201"]);
        assert!(diagnostics[0].message.contains(".claude-plugin/plugin.json"));
        let mut plain = Vec::new();
        load_manifest(&Tree::new(), &FixInputs::default(), &mut plain);
        assert!(!plain[0].message.contains("vendor"));
    }

    #[test]
    fn non_object_manifest_is_rejected() {
        // §5.2: MUST contain a top-level object.
        let (section, diagnostics) = load("[]");
        assert_eq!(section.state, PluginState::Rejected);
        assert_eq!(codes(&diagnostics), ["AP202"]);
    }
}
