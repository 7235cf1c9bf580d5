//! `$schema` selects the rules (§5.2, §10.1): only canonical identifiers this
//! build supports are accepted, and a near miss is named for what it is.

use serde_json::{Map, Value};

use crate::diag::{Diagnostic, Severity};
use crate::fix::{Applicability, Fix, json_edits};
use crate::rule::{Example, Rule};
use crate::schemas::{MCP_SCHEMA_ID, PLUGIN_SCHEMA_ID, SUPPORTED_SPEC_VERSIONS};
use crate::source::json::JsonSource;

use super::texts::{REJECTED, VALID};
use crate::json::json_type;

pub static SCHEMA_MISSING: Rule = Rule {
    code: "AP203",
    name: "schema-missing",
    severity: Severity::Error,
    spec: "Agent Plugins §5.2, §5.3",
    summary: "plugin.json has no $schema",
    fix_hint: Some("Add \"$schema\": \"https://agent-plugins.org/schemas/1.0.0/plugin.schema.json\""),
    doc: rule_doc! {
        what: "Reports a manifest without the required `$schema` member.",
        why: "`$schema` is required and selects the rules a client validates with (§5.2); without it a \
              client cannot know the package targets Agent Plugins and rejects it (§5.3). Pre-spec and \
              vendor manifests usually lack it.",
        failing: Example::Package(&[("plugin.json", "{\"name\": \"invoice-ops\"}")]),
        fixed: Example::Package(&[("plugin.json", VALID)]),
    },
};

pub static SCHEMA_UNSUPPORTED: Rule = Rule {
    code: "AP204",
    name: "schema-unsupported",
    severity: Severity::Error,
    spec: "Agent Plugins §5.2, §10.1",
    summary: "plugin.json's $schema is not a supported Agent Plugins version",
    fix_hint: Some("Use \"https://agent-plugins.org/schemas/1.0.0/plugin.schema.json\""),
    doc: rule_doc! {
        what: "Compares `$schema` with the canonical identifiers this build supports (1.0.0 only) and names \
               what was found: another version, an http:// variant, the mcp.json schema, a vendor schema.",
        why: "A client that does not support the declared version MUST reject the plugin and MUST NOT fetch \
              the schema (§5.2); identifiers are exact strings, so a near miss is another version.",
        failing: Example::Package(&[(
            "plugin.json",
            "{\"$schema\": \"https://agent-plugins.org/schemas/9.9.9/plugin.schema.json\", \"name\": \"invoice-ops\"}",
        )]),
        fixed: Example::Package(&[("plugin.json", VALID)]),
    },
};

/// §5.2: `$schema` selects the rules; returns the supported spec version.
pub(super) fn select_spec_version(
    file: &JsonSource,
    members: &Map<String, Value>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<&'static str> {
    let supported = SUPPORTED_SPEC_VERSIONS
        .iter()
        .map(|(id, _)| format!("`{id}`"))
        .collect::<Vec<_>>()
        .join(", ");
    let Some(declared) = members.get("$schema") else {
        let diagnostic = file.at_missing(
            &SCHEMA_MISSING,
            "",
            format!("plugin.json has no `$schema`, so no Agent Plugins version is declared; {REJECTED}. Supported: {supported}"),
        );
        diagnostics.push(with_schema_fix(diagnostic, file, Applicability::Safe));
        return None;
    };
    let Some(id) = declared.as_str() else {
        let diagnostic = file.at_value(
            &SCHEMA_UNSUPPORTED,
            "/$schema",
            format!(
                "`$schema` is {}, not an identifier string; {REJECTED}",
                json_type(declared)
            ),
        );
        diagnostics.push(with_schema_fix(diagnostic, file, Applicability::Unsafe));
        return None;
    };
    if let Some((_, version)) = SUPPORTED_SPEC_VERSIONS.iter().find(|(known, _)| *known == id) {
        return Some(version);
    }
    // A near miss of the 1.0.0 identifier can only have meant it; another
    // version or a vendor schema may mean the manifest was written for other rules.
    let near_miss = id == MCP_SCHEMA_ID
        || id.trim().eq_ignore_ascii_case(PLUGIN_SCHEMA_ID)
        || id.trim_end_matches('#') == PLUGIN_SCHEMA_ID
        || id.strip_prefix("http://") == PLUGIN_SCHEMA_ID.strip_prefix("https://");
    let why = if id == MCP_SCHEMA_ID {
        "that is the mcp.json schema, not the manifest's".to_string()
    } else if id.trim().eq_ignore_ascii_case(PLUGIN_SCHEMA_ID) || id.trim_end_matches('#') == PLUGIN_SCHEMA_ID {
        "identifiers are exact strings, and this one differs from the canonical one only in case, spaces or a trailing `#`"
            .to_string()
    } else if id.strip_prefix("http://") == PLUGIN_SCHEMA_ID.strip_prefix("https://") {
        "identifiers are exact strings and the canonical one uses https".to_string()
    } else if let Some(version) = id
        .strip_prefix("https://agent-plugins.org/schemas/")
        .and_then(|rest| rest.strip_suffix("/plugin.schema.json"))
    {
        format!("Agent Plugins {version} is not supported by this build")
    } else {
        "it is not an Agent Plugins manifest schema (a vendor or unknown schema)".to_string()
    };
    let diagnostic = file.at_value(
        &SCHEMA_UNSUPPORTED,
        "/$schema",
        format!("`$schema` is `{id}`: {why}; {REJECTED}. Supported: {supported}"),
    );
    let applicability = if near_miss {
        Applicability::Safe
    } else {
        Applicability::Unsafe
    };
    diagnostics.push(with_schema_fix(diagnostic, file, applicability));
    None
}

/// `diagnostic` with the fix that declares Agent Plugins 1.0.0, the one version this build supports.
fn with_schema_fix(diagnostic: Diagnostic, file: &JsonSource, applicability: Applicability) -> Diagnostic {
    match json_edits::set_member(file, "", "$schema", &json_edits::string_literal(PLUGIN_SCHEMA_ID)) {
        Some(edit) => diagnostic.with_fix(Fix {
            message: format!("Set \"$schema\" to \"{PLUGIN_SCHEMA_ID}\""),
            applicability,
            edits: vec![edit],
        }),
        None => diagnostic,
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{codes, load};
    use crate::report::PluginState;
    use crate::schemas::PLUGIN_SCHEMA_ID;

    #[test]
    fn missing_schema_rejects() {
        // §5.3: `$schema` is required.
        let (section, diagnostics) = load("{\"name\": \"x\"}");
        assert_eq!(section.state, PluginState::Rejected);
        assert_eq!(codes(&diagnostics), ["AP203"]);
        assert_eq!(diagnostics[0].line, Some(1));
        // A pre-spec manifest also hears about its inline components, and stays rejected.
        let (section, vendor) = load("{\"name\": \"x\", \"skills\": \"./skills\"}");
        assert_eq!(section.state, PluginState::Rejected);
        assert_eq!(codes(&vendor), ["AP203", "AP210"]);
    }

    #[test]
    fn every_unsupported_schema_rejects_naming_what_was_found() {
        // §5.2: an unsupported version MUST be rejected and SHOULD be reported.
        for (id, expect) in [
            (
                "https://agent-plugins.org/schemas/1.1.0/plugin.schema.json",
                "1.1.0 is not supported",
            ),
            (
                "https://agent-plugins.org/schemas/2.0.0/plugin.schema.json",
                "2.0.0 is not supported",
            ),
            (
                "http://agent-plugins.org/schemas/1.0.0/plugin.schema.json",
                "uses https",
            ),
            (
                "https://agent-plugins.org/schemas/1.0.0/mcp.schema.json",
                "mcp.json schema",
            ),
            ("https://json.schemastore.org/claude-code-plugin.json", "vendor"),
            (
                "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json ",
                "exact strings",
            ),
            (
                "https://Agent-Plugins.org/schemas/1.0.0/plugin.schema.json",
                "exact strings",
            ),
            (
                "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json#",
                "exact strings",
            ),
        ] {
            let (section, diagnostics) = load(&format!("{{\"$schema\": \"{id}\", \"name\": \"x\"}}"));
            assert_eq!(section.state, PluginState::Rejected, "{id}");
            assert_eq!(codes(&diagnostics), ["AP204"], "{id}");
            assert!(diagnostics[0].message.contains(expect), "{}", diagnostics[0].message);
            assert!(diagnostics[0].message.contains(PLUGIN_SCHEMA_ID));
        }
        let (_, not_string) = load("{\"$schema\": 1, \"name\": \"x\"}");
        assert_eq!(codes(&not_string), ["AP204"]);
    }
}
