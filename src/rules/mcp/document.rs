//! The `mcp.json` document as a whole (§7.2.1, §7.2.2 rule 2, §10.1): any
//! failure here disables MCP for the plugin, and skills go on.

use serde_json::{Map, Value};

use super::text::{child_pointer, excerpt, quoted};
use crate::diag::{Diagnostic, Severity};
use crate::fix::{Applicability, Fix, json_edits};
use crate::json::json_type;
use crate::report::PluginSection;
use crate::rule::{Example, Rule};
use crate::schemas::{MCP_SCHEMA_ID, PLUGIN_SCHEMA_ID};
use crate::source::json::JsonSource;

/// MCP configuration schemas this build implements, with the Agent Plugins version each targets.
const SUPPORTED_MCP_SCHEMAS: &[(&str, &str)] = &[(MCP_SCHEMA_ID, "1.0.0")];

const PLUGIN_JSON: &str = super::text::EXAMPLE_PLUGIN_JSON;

pub static MCP_CONFIG_NOT_OBJECT: Rule = Rule {
    code: "AP401",
    name: "mcp-config-not-object",
    severity: Severity::Error,
    spec: "Agent Plugins §7.2.1",
    summary: "`mcp.json` is not a JSON object; MCP is disabled",
    fix_hint: Some("make the document an object with `$schema` and `mcpServers`"),
    doc: rule_doc! {
        what: "Whether the top-level JSON value of `mcp.json` is an object.",
        why: "§7.2.1: \"`mcp.json` MUST be a JSON object\"; otherwise §7.2.2 rule 2 disables MCP for the plugin.",
        failing: Example::Package(&[
            ("plugin.json", PLUGIN_JSON),
            ("mcp.json", "[\n  {\"type\": \"stdio\", \"command\": \"uvx\"}\n]\n"),
        ]),
        fixed: Example::Package(&[
            ("plugin.json", PLUGIN_JSON),
            (
                "mcp.json",
                "{\n  \"$schema\": \"https://agent-plugins.org/schemas/1.0.0/mcp.schema.json\",\n  \"mcpServers\": {\n    \"tools\": {\"type\": \"stdio\", \"command\": \"uvx\"}\n  }\n}\n",
            ),
        ]),
    },
};

pub static MCP_SCHEMA_MISSING: Rule = Rule {
    code: "AP402",
    name: "mcp-schema-missing",
    severity: Severity::Error,
    spec: "Agent Plugins §7.2.1",
    summary: "`mcp.json` has no string `$schema`; MCP is disabled",
    fix_hint: Some("add \"$schema\": \"https://agent-plugins.org/schemas/1.0.0/mcp.schema.json\""),
    doc: rule_doc! {
        what: "Whether `mcp.json` has the required `$schema` member, as a string.",
        why: "§7.2.1: `$schema` is required and selects the validation rules; without it a client cannot \
              select a supported version and disables MCP for the plugin (§7.2.2 rule 2). Vendor shapes such \
              as a bare `{\"mcpServers\": …}` fail here.",
        failing: Example::Package(&[
            ("plugin.json", PLUGIN_JSON),
            ("mcp.json", "{\n  \"mcpServers\": {}\n}\n"),
        ]),
        fixed: Example::Package(&[
            ("plugin.json", PLUGIN_JSON),
            (
                "mcp.json",
                "{\n  \"$schema\": \"https://agent-plugins.org/schemas/1.0.0/mcp.schema.json\",\n  \"mcpServers\": {}\n}\n",
            ),
        ]),
    },
};

pub static MCP_SCHEMA_UNSUPPORTED: Rule = Rule {
    code: "AP403",
    name: "mcp-schema-unsupported",
    severity: Severity::Error,
    spec: "Agent Plugins §7.2.1, §7.2.2, §10.1",
    summary: "`mcp.json` `$schema` is not a supported MCP schema for the version `plugin.json` targets; MCP is disabled",
    fix_hint: Some("use \"$schema\": \"https://agent-plugins.org/schemas/1.0.0/mcp.schema.json\""),
    doc: rule_doc! {
        what: "Whether `$schema` is the canonical MCP configuration identifier of a supported Agent Plugins \
               version, and the same version `plugin.json` declares. The plugin manifest's identifier, other \
               versions and near-misses (`http://`, a trailing slash) all fail.",
        why: "§7.2.1: clients select rules from a recognized `$schema` and never fetch one; §10.1: the version \
              MUST match `plugin.json`'s. Otherwise §7.2.2 rule 2 disables MCP for the plugin.",
        failing: Example::Package(&[
            ("plugin.json", PLUGIN_JSON),
            (
                "mcp.json",
                "{\n  \"$schema\": \"https://agent-plugins.org/schemas/1.0.0/plugin.schema.json\",\n  \"mcpServers\": {}\n}\n",
            ),
        ]),
        fixed: Example::Package(&[
            ("plugin.json", PLUGIN_JSON),
            (
                "mcp.json",
                "{\n  \"$schema\": \"https://agent-plugins.org/schemas/1.0.0/mcp.schema.json\",\n  \"mcpServers\": {}\n}\n",
            ),
        ]),
    },
};

pub static MCP_UNKNOWN_TOP_LEVEL_FIELD: Rule = Rule {
    code: "AP404",
    name: "mcp-unknown-top-level-field",
    severity: Severity::Error,
    spec: "Agent Plugins §7.2.1",
    summary: "`mcp.json` has a top-level member other than `$schema` and `mcpServers`; MCP is disabled",
    fix_hint: Some("remove the member; `mcp.json` allows only `$schema` and `mcpServers`"),
    doc: rule_doc! {
        what: "Every top-level member of `mcp.json` other than `$schema` and `mcpServers`, each named.",
        why: "§7.2.1: the document has \"no other top-level fields\". Unlike `plugin.json`, an unknown member \
              here is not forgiven: §7.2.2 rule 2 disables MCP for the plugin.",
        failing: Example::Package(&[
            ("plugin.json", PLUGIN_JSON),
            (
                "mcp.json",
                "{\n  \"$schema\": \"https://agent-plugins.org/schemas/1.0.0/mcp.schema.json\",\n  \"mcpServers\": {},\n  \"fallbackServers\": {}\n}\n",
            ),
        ]),
        fixed: Example::Package(&[
            ("plugin.json", PLUGIN_JSON),
            (
                "mcp.json",
                "{\n  \"$schema\": \"https://agent-plugins.org/schemas/1.0.0/mcp.schema.json\",\n  \"mcpServers\": {}\n}\n",
            ),
        ]),
    },
};

pub static MCP_SERVERS_NOT_OBJECT: Rule = Rule {
    code: "AP405",
    name: "mcp-servers-not-object",
    severity: Severity::Error,
    spec: "Agent Plugins §7.2.1",
    summary: "`mcpServers` is missing or not an object; MCP is disabled",
    fix_hint: Some("make `mcpServers` an object keyed by server id (an empty object is valid)"),
    doc: rule_doc! {
        what: "Whether `mcp.json` has `mcpServers` and it is an object whose members are servers. An empty \
               object is valid.",
        why: "§7.2.1: `mcpServers` is required and \"MUST be an object\"; a list of servers or a missing member \
              disables MCP for the plugin (§7.2.2 rule 2).",
        failing: Example::Package(&[
            ("plugin.json", PLUGIN_JSON),
            (
                "mcp.json",
                "{\n  \"$schema\": \"https://agent-plugins.org/schemas/1.0.0/mcp.schema.json\",\n  \"mcpServers\": []\n}\n",
            ),
        ]),
        fixed: Example::Package(&[
            ("plugin.json", PLUGIN_JSON),
            (
                "mcp.json",
                "{\n  \"$schema\": \"https://agent-plugins.org/schemas/1.0.0/mcp.schema.json\",\n  \"mcpServers\": {}\n}\n",
            ),
        ]),
    },
};

/// Checks the top level; returns the servers when MCP stays enabled.
pub(super) fn check_document<'f>(
    file: &'f JsonSource<'f>,
    plugin: &PluginSection,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<&'f Map<String, Value>> {
    let Value::Object(root) = &file.doc.value else {
        diagnostics.push(file.at_value(
            &MCP_CONFIG_NOT_OBJECT,
            "",
            format!("mcp.json must be a JSON object, not {}", json_type(&file.doc.value)),
        ));
        return None;
    };
    let before = diagnostics.len();
    check_schema(file, root.get("$schema"), plugin, diagnostics);
    for key in root
        .keys()
        .filter(|key| !matches!(key.as_str(), "$schema" | "mcpServers"))
    {
        diagnostics.push(file.at_key(
            &MCP_UNKNOWN_TOP_LEVEL_FIELD,
            &child_pointer("", key),
            format!(
                "unknown top-level member {}: mcp.json allows only `$schema` and `mcpServers`",
                quoted(key)
            ),
        ));
    }
    let servers = match root.get("mcpServers") {
        Some(Value::Object(servers)) => Some(servers),
        Some(other) => {
            diagnostics.push(file.at_value(
                &MCP_SERVERS_NOT_OBJECT,
                "/mcpServers",
                format!(
                    "`mcpServers` must be an object keyed by server id, not {}",
                    json_type(other)
                ),
            ));
            None
        }
        None => {
            diagnostics.push(file.at_missing(&MCP_SERVERS_NOT_OBJECT, "", "`mcpServers` is missing"));
            None
        }
    };
    if diagnostics.len() > before {
        if let Some(last) = diagnostics.last_mut() {
            // Say once, on the last document-level finding, what the client does about all of them.
            last.message.push_str("; ");
            last.message.push_str(super::text::DISABLED);
        }
        return None;
    }
    servers
}

fn check_schema(file: &JsonSource, schema: Option<&Value>, plugin: &PluginSection, diagnostics: &mut Vec<Diagnostic>) {
    // The identifier that matches plugin.json's version is what the author
    // meant when mcp.json has none or names the other file's schema; when it
    // names another version, a person should look.
    let matching_id = SUPPORTED_MCP_SCHEMAS
        .iter()
        .find(|(_, version)| plugin.spec.as_deref() == Some(*version))
        .map(|(id, _)| *id);
    let with_fix = |diagnostic: Diagnostic, applicability: Applicability| match matching_id
        .and_then(|id| json_edits::set_member(file, "", "$schema", &json_edits::string_literal(id)).zip(Some(id)))
    {
        Some((edit, id)) => diagnostic.with_fix(Fix {
            message: format!("Set \"$schema\" to \"{id}\""),
            applicability,
            edits: vec![edit],
        }),
        None => diagnostic,
    };
    let schema = match schema {
        Some(Value::String(schema)) => schema,
        Some(other) => {
            diagnostics.push(with_fix(
                file.at_value(
                    &MCP_SCHEMA_MISSING,
                    "/$schema",
                    format!("`$schema` must be a string, not {}", json_type(other)),
                ),
                Applicability::Unsafe,
            ));
            return;
        }
        None => {
            diagnostics.push(with_fix(
                file.at_value(
                    &MCP_SCHEMA_MISSING,
                    "",
                    "`$schema` is missing, so no supported MCP configuration version can be selected",
                ),
                Applicability::Safe,
            ));
            return;
        }
    };
    let plugin_version = plugin.spec.as_deref().unwrap_or("an unknown version");
    let applicability = if schema == PLUGIN_SCHEMA_ID {
        Applicability::Safe
    } else {
        Applicability::Unsafe
    };
    let message = match SUPPORTED_MCP_SCHEMAS.iter().find(|(id, _)| id == schema) {
        Some((_, version)) if plugin.spec.as_deref() == Some(*version) => return,
        Some((_, version)) => format!(
            "mcp.json targets Agent Plugins {version} but plugin.json targets {plugin_version}; the versions must match (§10.1)"
        ),
        None if schema == PLUGIN_SCHEMA_ID => {
            "`$schema` is the plugin.json schema identifier; mcp.json needs the MCP configuration identifier"
                .to_string()
        }
        None => match canonical_mcp_version(schema) {
            Some(version) => format!(
                "mcp.json targets Agent Plugins {version}, which this checker does not support (plugin.json targets {plugin_version})"
            ),
            None => format!(
                "`$schema` {} is not a recognized MCP configuration schema identifier",
                excerpt(schema)
            ),
        },
    };
    diagnostics.push(with_fix(
        file.at_value(&MCP_SCHEMA_UNSUPPORTED, "/$schema", message),
        applicability,
    ));
}

/// The version in a canonical-looking `https://agent-plugins.org/schemas/<version>/mcp.schema.json`.
fn canonical_mcp_version(schema: &str) -> Option<&str> {
    let version = schema
        .strip_prefix("https://agent-plugins.org/schemas/")?
        .strip_suffix("/mcp.schema.json")?;
    (!version.is_empty() && !version.contains('/')).then_some(version)
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{codes, load};
    use crate::report::McpState;

    #[test]
    fn trailing_comma_is_invalid_json_with_position() {
        // §7.2.2 rule 2: not valid JSON → MCP disabled.
        let (section, diagnostics) = load("{\n  \"mcpServers\": {},\n}", &[]);
        assert_eq!(section.state, McpState::Disabled);
        assert_eq!(codes(&diagnostics), ["AP008"]);
        // At the trailing comma itself.
        assert_eq!((diagnostics[0].line, diagnostics[0].column), (Some(2), Some(19)));
    }

    #[test]
    fn array_document_is_not_an_object() {
        let (section, diagnostics) = load("[]", &[]);
        assert_eq!(section.state, McpState::Disabled);
        assert_eq!(codes(&diagnostics), ["AP401"]);
    }

    #[test]
    fn vendor_shape_without_schema_is_disabled() {
        // §7.2.1: `$schema` is required. The nearmiss corpus's `.mcp.json` shape.
        let (section, diagnostics) = load(
            r#"{"mcpServers": {"a": {"type": "http", "url": "https://x.test/mcp"}}}"#,
            &[],
        );
        assert_eq!(section.state, McpState::Disabled);
        assert_eq!(codes(&diagnostics), ["AP402"]);
        assert!(section.servers.is_empty());
    }

    #[test]
    fn plugin_schema_id_and_other_versions_are_unsupported() {
        // §10.1: the MCP `$schema` selects the version; §7.2.1: only recognized identifiers.
        for (schema, expected) in [
            (
                "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json",
                "plugin.json schema",
            ),
            (
                "https://agent-plugins.org/schemas/2.0.0/mcp.schema.json",
                "Agent Plugins 2.0.0",
            ),
            (
                "http://agent-plugins.org/schemas/1.0.0/mcp.schema.json",
                "not a recognized",
            ),
        ] {
            let text = format!(r#"{{"$schema": "{schema}", "mcpServers": {{}}}}"#);
            let (section, diagnostics) = load(&text, &[]);
            assert_eq!(section.state, McpState::Disabled, "{schema}");
            assert_eq!(codes(&diagnostics), ["AP403"], "{schema}");
            assert!(diagnostics[0].message.contains(expected), "{}", diagnostics[0].message);
            assert_eq!(diagnostics[0].pointer.as_deref(), Some("/$schema"));
        }
    }

    #[test]
    fn version_must_match_plugin_json() {
        // §10.1: "the version in its `$schema` value MUST match the version declared by `plugin.json`".
        let text = r#"{"$schema": "https://agent-plugins.org/schemas/1.0.0/mcp.schema.json", "mcpServers": {}}"#;
        let tree = crate::tree::Tree::from_files([("mcp.json", text)]);
        let mut plugin = super::super::test_support::plugin_1_0_0();
        plugin.spec = Some("1.1.0".into());
        let mut diagnostics = Vec::new();
        let (section, _) = super::super::load_mcp(&tree, &plugin, &mut diagnostics);
        assert_eq!(section.state, McpState::Disabled);
        assert_eq!(codes(&diagnostics), ["AP403"]);
        assert!(diagnostics[0].message.contains("plugin.json targets 1.1.0"));
    }

    #[test]
    fn every_extra_top_level_member_is_named() {
        // §7.2.1: "with no other top-level fields".
        let text = "{\n\"$schema\": \"https://agent-plugins.org/schemas/1.0.0/mcp.schema.json\",\n\"mcpServers\": {},\n\"a\": 1,\n\"b~/\": 2\n}";
        let (section, diagnostics) = load(text, &[]);
        assert_eq!(section.state, McpState::Disabled);
        assert_eq!(codes(&diagnostics), ["AP404", "AP404"]);
        assert_eq!(diagnostics[1].pointer.as_deref(), Some("/b~0~1"));
        assert_eq!((diagnostics[0].line, diagnostics[0].column), (Some(4), Some(1)));
    }

    #[test]
    fn servers_missing_or_not_an_object() {
        for text in [
            r#"{"$schema": "https://agent-plugins.org/schemas/1.0.0/mcp.schema.json"}"#,
            r#"{"$schema": "https://agent-plugins.org/schemas/1.0.0/mcp.schema.json", "mcpServers": []}"#,
        ] {
            let (section, diagnostics) = load(text, &[]);
            assert_eq!(section.state, McpState::Disabled);
            assert_eq!(codes(&diagnostics), ["AP405"]);
            assert!(diagnostics[0].message.ends_with(super::super::text::DISABLED));
        }
    }

    #[test]
    fn empty_servers_object_is_valid() {
        // §7.2.1: "An empty `mcpServers` object is valid."
        let (section, diagnostics) = load(
            r#"{"$schema": "https://agent-plugins.org/schemas/1.0.0/mcp.schema.json", "mcpServers": {}}"#,
            &[],
        );
        assert_eq!(section.state, McpState::Loaded);
        assert!(section.servers.is_empty());
        assert!(diagnostics.is_empty());
    }
}
