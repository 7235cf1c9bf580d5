//! The closed member set of §5.2, member by member: unknown and inline
//! fields (ignored, reported), types and the `author` object (fatal), and
//! `extensions` (§8.1: a non-object is ignored, a non-object member value is
//! fatal, a namespace that is not reverse-domain gets a warning).

use serde_json::{Map, Value};

use crate::diag::{Diagnostic, Severity};
use crate::fix::{Edit, Fix, FixInputs, json_edits};
use crate::json::parse::push_token;
use crate::rule::{Example, Rule};
use crate::source::json::JsonSource;

use super::texts::{REJECTED, VALID};
use super::{name, version};
use crate::json::json_type;

pub static MANIFEST_UNKNOWN_FIELD: Rule = Rule {
    code: "AP205",
    name: "manifest-unknown-field",
    severity: Severity::Warning,
    spec: "Agent Plugins §5.2",
    summary: "plugin.json has a top-level field the schema does not define; it is ignored",
    fix_hint: Some("Remove it, or move client-specific data under \"extensions\" in a reverse-domain namespace"),
    doc: rule_doc! {
        what: "Reports each top-level member other than $schema, name, version, description, author, \
               homepage, repository, license, keywords and extensions.",
        why: "The schema is closed: clients MUST report and ignore each unknown field and continue loading, \
              and MUST NOT give it meaning (§5.2). Data that matters to a client belongs in `extensions` (§8.1).",
        failing: Example::Package(&[(
            "plugin.json",
            "{\"$schema\": \"https://agent-plugins.org/schemas/1.0.0/plugin.schema.json\", \"name\": \"invoice-ops\", \"category\": \"finance\"}",
        )]),
        fixed: Example::Package(&[(
            "plugin.json",
            "{\"$schema\": \"https://agent-plugins.org/schemas/1.0.0/plugin.schema.json\", \"name\": \"invoice-ops\", \"keywords\": [\"finance\"]}",
        )]),
    },
};

pub static EXTENSIONS_NOT_OBJECT: Rule = Rule {
    code: "AP206",
    name: "extensions-not-object",
    severity: Severity::Warning,
    spec: "Agent Plugins §8.1",
    summary: "`extensions` is not an object; it is ignored",
    fix_hint: Some("Make \"extensions\" an object keyed by reverse-domain namespaces"),
    doc: rule_doc! {
        what: "Reports an `extensions` member whose value is not a JSON object.",
        why: "§8.1: a client MUST report and ignore a non-object `extensions` and continue loading, so any \
              client-specific data in it is lost.",
        failing: Example::Package(&[(
            "plugin.json",
            "{\"$schema\": \"https://agent-plugins.org/schemas/1.0.0/plugin.schema.json\", \"name\": \"invoice-ops\", \"extensions\": \"com.example.client\"}",
        )]),
        fixed: Example::Package(&[(
            "plugin.json",
            "{\"$schema\": \"https://agent-plugins.org/schemas/1.0.0/plugin.schema.json\", \"name\": \"invoice-ops\", \"extensions\": {\"com.example.client\": {}}}",
        )]),
    },
};

pub static MANIFEST_FIELD_TYPE: Rule = Rule {
    code: "AP207",
    name: "manifest-field-type",
    severity: Severity::Error,
    spec: "Agent Plugins §5.2, §5.4, §8.1",
    summary: "A plugin.json field has the wrong JSON type",
    fix_hint: None,
    doc: rule_doc! {
        what: "Checks the type of every defined member: strings for $schema, name, version, description, \
               homepage, repository, license and the author's name, email and url; an object for author; an \
               array of strings for keywords; an object for each `extensions` member.",
        why: "Every schema violation other than an unknown field or a non-object `extensions` is fatal: the \
              client rejects the plugin and discovers none of its components (§5.2, §11.3).",
        failing: Example::Package(&[(
            "plugin.json",
            "{\"$schema\": \"https://agent-plugins.org/schemas/1.0.0/plugin.schema.json\", \"name\": \"invoice-ops\", \"version\": 2}",
        )]),
        fixed: Example::Package(&[(
            "plugin.json",
            "{\"$schema\": \"https://agent-plugins.org/schemas/1.0.0/plugin.schema.json\", \"name\": \"invoice-ops\", \"version\": \"2.0.0\"}",
        )]),
    },
};

pub static AUTHOR_UNKNOWN_FIELD: Rule = Rule {
    code: "AP208",
    name: "author-unknown-field",
    severity: Severity::Error,
    spec: "Agent Plugins §5.4",
    summary: "`author` has a member other than name, email and url",
    fix_hint: Some("Keep only \"name\", \"email\" and \"url\" in \"author\""),
    doc: rule_doc! {
        what: "Reports each member of `author` other than name, email and url.",
        why: "The author object MAY contain only those three fields; any other makes the manifest invalid \
              (§5.4), and the plugin is rejected — unlike unknown top-level fields, which are only ignored.",
        failing: Example::Package(&[(
            "plugin.json",
            "{\"$schema\": \"https://agent-plugins.org/schemas/1.0.0/plugin.schema.json\", \"name\": \"invoice-ops\", \"author\": {\"name\": \"Ada\", \"handle\": \"@ada\"}}",
        )]),
        fixed: Example::Package(&[(
            "plugin.json",
            "{\"$schema\": \"https://agent-plugins.org/schemas/1.0.0/plugin.schema.json\", \"name\": \"invoice-ops\", \"author\": {\"name\": \"Ada\", \"url\": \"https://example.com/ada\"}}",
        )]),
    },
};

pub static INLINE_COMPONENT: Rule = Rule {
    code: "AP210",
    name: "inline-component",
    severity: Severity::Warning,
    spec: "Agent Plugins §6.1, §7.2.1",
    summary: "plugin.json declares components inline; clients ignore them",
    fix_hint: None,
    doc: rule_doc! {
        what: "Reports top-level `skills`, `mcpServers`, `hooks`, `commands`, `agents` and similar members, \
               the vendor shapes real packages carry over.",
        why: "plugin.json cannot override the fixed locations or contain inline component configuration \
              (§6.1); MCP servers are read only from mcp.json (§7.2.1). As unknown fields they are ignored \
              (§5.2), so what they declare never loads. A client's own data (`hooks`, `commands`, `agents`, \
              `lspServers`) belongs under its reverse-domain namespace in `extensions` (§8.1): given that \
              namespace (`--extensions-namespace`), an unsafe fix moves it there.",
        failing: Example::Package(&[(
            "plugin.json",
            "{\"$schema\": \"https://agent-plugins.org/schemas/1.0.0/plugin.schema.json\", \"name\": \"invoice-ops\", \"hooks\": {\"PreToolUse\": []}}",
        )]),
        fixed: Example::Package(&[(
            "plugin.json",
            "{\"$schema\": \"https://agent-plugins.org/schemas/1.0.0/plugin.schema.json\", \"name\": \"invoice-ops\", \"extensions\": {\"com.example.client\": {\"hooks\": {\"PreToolUse\": []}}}}",
        )]),
    },
};

pub static NAME_MISSING: Rule = Rule {
    code: "AP211",
    name: "name-missing",
    severity: Severity::Error,
    spec: "Agent Plugins §5.3",
    summary: "plugin.json has no name",
    fix_hint: Some("Add \"name\": lowercase letters, digits, `-` and `.`"),
    doc: rule_doc! {
        what: "Reports a manifest without the required `name` member.",
        why: "A missing required field rejects the plugin (§5.3).",
        failing: Example::Package(&[(
            "plugin.json",
            "{\"$schema\": \"https://agent-plugins.org/schemas/1.0.0/plugin.schema.json\"}",
        )]),
        fixed: Example::Package(&[("plugin.json", VALID)]),
    },
};

pub static EXTENSION_NAMESPACE: Rule = Rule {
    code: "AP213",
    name: "extension-namespace",
    severity: Severity::Warning,
    spec: "Agent Plugins §8, §8.1",
    summary: "An `extensions` member name is not a reverse-domain namespace",
    fix_hint: Some("Name it after a domain the client controls, reversed: \"com.example.client\""),
    doc: rule_doc! {
        what: "Checks that each member name of `extensions` looks like a reverse-domain identifier: two or \
               more dot-separated labels of letters, digits and inner hyphens.",
        why: "Client-specific data MUST sit under a reverse-domain namespace (§8); a bare name like `claude` \
              can collide between clients. The plugin loads, since clients ignore namespaces they do not \
              implement (§8.1), but none is expected to claim this one, so its data is ignored.",
        failing: Example::Package(&[(
            "plugin.json",
            "{\"$schema\": \"https://agent-plugins.org/schemas/1.0.0/plugin.schema.json\", \"name\": \"invoice-ops\", \"extensions\": {\"claude\": {}}}",
        )]),
        fixed: Example::Package(&[(
            "plugin.json",
            "{\"$schema\": \"https://agent-plugins.org/schemas/1.0.0/plugin.schema.json\", \"name\": \"invoice-ops\", \"extensions\": {\"com.anthropic.claude-code\": {}}}",
        )]),
    },
};

/// Top-level members that vendor formats use for inline components, and where
/// Agent Plugins puts that component instead.
const INLINE_COMPONENTS: &[(&str, &str)] = &[
    (
        "skills",
        "skills are discovered only from `skills/<name>/SKILL.md` (§6.1, §7.1)",
    ),
    (
        "mcpServers",
        "MCP servers are read only from `mcp.json` at the root (§7.2.1)",
    ),
    ("mcp", "MCP servers are read only from `mcp.json` at the root (§7.2.1)"),
    (
        "hooks",
        "hooks are not an Agent Plugins component; a client's own hooks belong under its namespace in `extensions` or its extension directory (§8)",
    ),
    (
        "commands",
        "commands are not an Agent Plugins component; a client's own commands belong under its namespace in `extensions` or its extension directory (§8)",
    ),
    (
        "agents",
        "agents are not an Agent Plugins component; a client's own agents belong under its namespace in `extensions` or its extension directory (§8)",
    ),
    (
        "lspServers",
        "LSP servers are not an Agent Plugins component; put them under a client namespace (§8)",
    ),
    (
        "components",
        "components are discovered only from their fixed locations (§6.1)",
    ),
];

/// The inline keys whose data is a client's own, so it can keep it under that
/// client's namespace in `extensions` (§8.1); the others name Agent Plugins
/// components, which have fixed locations instead.
const MOVABLE_TO_EXTENSIONS: &[&str] = &["hooks", "commands", "agents", "lspServers"];

const STRING_FIELDS: &[&str] = &["version", "description", "homepage", "repository", "license"];

const AUTHOR_FIELDS: &[&str] = &["name", "email", "url"];

pub(super) fn check_members(
    file: &JsonSource,
    members: &Map<String, Value>,
    inputs: &FixInputs,
    diagnostics: &mut Vec<Diagnostic>,
) {
    if !members.contains_key("name") {
        diagnostics.push(file.at_missing(&NAME_MISSING, "", format!("plugin.json has no `name`; {REJECTED}")));
    }
    for (key, value) in members {
        let mut pointer = String::new();
        push_token(&mut pointer, key);
        match key.as_str() {
            "$schema" => {}
            "name" => match value.as_str() {
                Some(name) => name::check_name(file, name, diagnostics),
                None => diagnostics.push(wrong_type(file, &pointer, "a string", value)),
            },
            "author" => check_author(file, value, diagnostics),
            "keywords" => check_keywords(file, value, diagnostics),
            "extensions" => check_extensions(file, value, diagnostics),
            field if STRING_FIELDS.contains(&field) => match value.as_str() {
                Some(version) if field == "version" => version::check_version(file, &pointer, version, diagnostics),
                Some(_) => {}
                None => diagnostics.push(wrong_type(file, &pointer, "a string", value)),
            },
            other => diagnostics.push(unknown_field(file, members, &pointer, other, inputs)),
        }
    }
}

fn unknown_field(
    file: &JsonSource,
    members: &Map<String, Value>,
    pointer: &str,
    key: &str,
    inputs: &FixInputs,
) -> Diagnostic {
    match INLINE_COMPONENTS.iter().find(|(inline, _)| *inline == key) {
        Some((_, where_instead)) => {
            let diagnostic = file.at_key(
                &INLINE_COMPONENT,
                pointer,
                format!("`{key}` in plugin.json is ignored: {where_instead}"),
            );
            if !MOVABLE_TO_EXTENSIONS.contains(&key) {
                return diagnostic.with_hint(format!("Remove `{key}` from plugin.json; {where_instead}"));
            }
            match move_to_extensions_fix(file, members, pointer, key, inputs) {
                Some(fix) => diagnostic
                    .with_hint(format!("Move `{key}` under its client's namespace in `extensions`"))
                    .with_fix(fix),
                None if inputs.extensions_namespace.is_none() => diagnostic.with_hint(format!(
                    "Move `{key}` under its client's namespace in `extensions` (§8.1), or remove it. No fix \
                     is offered without that namespace, which only you know: `--unsafe-fixes \
                     --extensions-namespace com.example.client` (or `extensions-namespace` in apcheck.toml) \
                     moves it there"
                )),
                None => diagnostic.with_hint(format!(
                    "Move `{key}` under its client's namespace in `extensions` (§8.1) by hand: `extensions` \
                     is not an object yet, or that namespace already holds a `{key}` or is not an object"
                )),
            }
        }
        None => file.at_key(
            &MANIFEST_UNKNOWN_FIELD,
            pointer,
            format!("`{key}` is not a manifest field; clients report and ignore it (§5.2)"),
        ),
    }
}

/// Moves the top-level member `key` (at `pointer`) to
/// `extensions.<namespace>.<key>`, keeping its value's text. Unsafe: the
/// namespace is the user's guess at which client the data is for. None without
/// a namespace, or where the move would overwrite or need another fix first
/// (a non-object `extensions` is AP206's).
fn move_to_extensions_fix(
    file: &JsonSource,
    members: &Map<String, Value>,
    pointer: &str,
    key: &str,
    inputs: &FixInputs,
) -> Option<Fix> {
    let namespace = inputs.extensions_namespace.as_deref()?;
    let value_text = {
        let span = file.doc.value_span(pointer)?;
        file.text.get(span.start..span.end)?
    };
    let quoted = json_edits::string_literal;
    let edits = match members.get("extensions") {
        None => {
            let extensions = format!("{{{}: {{{}: {value_text}}}}}", quoted(namespace), quoted(key));
            if members.len() == 1 {
                let member = json_edits::member_span(file, pointer)?;
                vec![Edit::replace(
                    &file.path,
                    member,
                    format!("\"extensions\": {extensions}"),
                )]
            } else {
                // Appended last rather than in the member's place, so that two
                // moved keys insert at one offset, which `fix_tree` never
                // applies in the same pass: the second then joins the first's
                // namespace instead of writing a second `extensions`.
                vec![
                    json_edits::remove_member(file, pointer)?,
                    json_edits::insert_last_member(file, "", "extensions", &extensions)?,
                ]
            }
        }
        Some(Value::Object(namespaces)) => {
            let mut namespace_pointer = "/extensions".to_string();
            push_token(&mut namespace_pointer, namespace);
            let insert = match namespaces.get(namespace) {
                None => json_edits::insert_first_member(
                    file,
                    "/extensions",
                    namespace,
                    &format!("{{{}: {value_text}}}", quoted(key)),
                )?,
                Some(Value::Object(data)) if !data.contains_key(key) => {
                    json_edits::insert_first_member(file, &namespace_pointer, key, value_text)?
                }
                // Already there, or not an object: which to keep is the author's call.
                Some(_) => return None,
            };
            vec![json_edits::remove_member(file, pointer)?, insert]
        }
        Some(_) => return None,
    };
    Some(Fix::unsafe_(
        format!("Move `{key}` to `extensions.{namespace}.{key}`"),
        edits,
    ))
}

fn wrong_type(file: &JsonSource, pointer: &str, expected: &str, value: &Value) -> Diagnostic {
    file.at_value(
        &MANIFEST_FIELD_TYPE,
        pointer,
        format!("`{pointer}` must be {expected}, found {}; {REJECTED}", json_type(value)),
    )
}

fn check_author(file: &JsonSource, value: &Value, diagnostics: &mut Vec<Diagnostic>) {
    let Value::Object(author) = value else {
        diagnostics.push(wrong_type(file, "/author", "an object", value));
        return;
    };
    for (key, member) in author {
        let mut pointer = "/author".to_string();
        push_token(&mut pointer, key);
        if !AUTHOR_FIELDS.contains(&key.as_str()) {
            diagnostics.push(file.at_key(
                &AUTHOR_UNKNOWN_FIELD,
                &pointer,
                format!("`author` may hold only name, email and url, not `{key}` (§5.4); {REJECTED}"),
            ));
        } else if !member.is_string() {
            diagnostics.push(wrong_type(file, &pointer, "a string", member));
        }
    }
}

fn check_keywords(file: &JsonSource, value: &Value, diagnostics: &mut Vec<Diagnostic>) {
    let Value::Array(keywords) = value else {
        diagnostics.push(wrong_type(file, "/keywords", "an array of strings", value));
        return;
    };
    for (i, keyword) in keywords.iter().enumerate() {
        if !keyword.is_string() {
            diagnostics.push(wrong_type(file, &format!("/keywords/{i}"), "a string", keyword));
        }
    }
}

fn check_extensions(file: &JsonSource, value: &Value, diagnostics: &mut Vec<Diagnostic>) {
    let Value::Object(namespaces) = value else {
        let diagnostic = file.at_value(
            &EXTENSIONS_NOT_OBJECT,
            "/extensions",
            format!(
                "`extensions` is {}, not an object; clients report and ignore it and keep loading (§8.1)",
                json_type(value)
            ),
        );
        diagnostics.push(match extensions_fix(file, value) {
            Some(fix) => diagnostic.with_fix(fix),
            None => diagnostic,
        });
        return;
    };
    // §8.1: member values are objects; their contents belong to each client and are not validated.
    for (namespace, data) in namespaces {
        let mut pointer = "/extensions".to_string();
        push_token(&mut pointer, namespace);
        if !data.is_object() {
            diagnostics.push(wrong_type(file, &pointer, "an object (§8.1)", data));
        } else if !is_reverse_domain(namespace) {
            diagnostics.push(file.at_key(
                &EXTENSION_NAMESPACE,
                &pointer,
                format!(
                    "`{namespace}` is not a reverse-domain namespace such as `com.example.client` (§8 MUST), \
                     so no client is expected to read it"
                ),
            ));
        }
    }
}

/// A non-object `extensions` that names namespaces (`"com.example.client"` or a
/// list of them) becomes an object with an empty entry for each: what it
/// meant, safely. Anything else is data no client reads; removing it is
/// offered as unsafe, since the author may want to move it somewhere first.
fn extensions_fix(file: &JsonSource, value: &Value) -> Option<Fix> {
    let names: Option<Vec<&str>> = match value {
        Value::String(name) => Some(vec![name.as_str()]),
        Value::Array(items) if !items.is_empty() => items.iter().map(Value::as_str).collect(),
        _ => None,
    };
    match names.filter(|names| names.iter().all(|name| is_reverse_domain(name))) {
        Some(names) => {
            let members: Vec<String> = names
                .iter()
                .map(|name| format!("{}: {{}}", json_edits::string_literal(name)))
                .collect();
            let edit = json_edits::replace_value(file, "/extensions", format!("{{{}}}", members.join(", ")))?;
            Some(Fix::safe(
                "Make \"extensions\" an object with an entry for each namespace",
                vec![edit],
            ))
        }
        None => Some(Fix::unsafe_(
            "Remove \"extensions\", which clients ignore",
            vec![json_edits::remove_member(file, "/extensions")?],
        )),
    }
}

/// Two or more dot-separated labels of ASCII letters, digits and inner hyphens.
pub fn is_reverse_domain(namespace: &str) -> bool {
    let label = |part: &str| {
        !part.is_empty()
            && part.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
            && !part.starts_with('-')
            && !part.ends_with('-')
    };
    namespace.split('.').count() >= 2 && namespace.split('.').all(label)
}

#[cfg(test)]
mod tests {
    use super::super::testing::{SCHEMA, codes, load};
    use super::*;
    use crate::report::PluginState;

    #[test]
    fn unknown_fields_and_non_object_extensions_only_warn() {
        // §5.2 and §8.1: the two non-fatal exceptions.
        let text = format!("{{{SCHEMA}, \"name\": \"x\", \"category\": \"y\", \"extensions\": [1]}}");
        let (section, diagnostics) = load(&text);
        assert_eq!(section.state, PluginState::Loaded);
        assert_eq!(codes(&diagnostics), ["AP205", "AP206"]);
        let category = &diagnostics[0];
        assert_eq!(category.pointer.as_deref(), Some("/category"));
        assert_eq!(category.column, Some(text.find("\"category\"").unwrap() + 1));
    }

    #[test]
    fn inline_components_point_to_fixed_locations() {
        // §6.1: no inline component configuration; §7.2.1: MCP only from mcp.json.
        let (section, diagnostics) = load(&format!(
            "{{{SCHEMA}, \"name\": \"x\", \"skills\": \"./skills\", \"mcpServers\": {{}}}}"
        ));
        assert_eq!(section.state, PluginState::Loaded);
        assert_eq!(codes(&diagnostics), ["AP210", "AP210"]);
        assert!(diagnostics[1].message.contains("mcp.json"));
    }

    #[test]
    fn type_violations_reject_with_pointers() {
        // §5.2: every other violation is fatal.
        let (section, diagnostics) = load(&format!(
            "{{{SCHEMA}, \"name\": \"x\", \"version\": 1, \"author\": {{\"name\": 2, \"handle\": \"h\"}}, \
             \"keywords\": [\"a\", 3], \"extensions\": {{\"com.example\": true}}}}"
        ));
        assert_eq!(section.state, PluginState::Rejected);
        let pointers: Vec<_> = diagnostics
            .iter()
            .map(|d| (d.code, d.pointer.clone().unwrap()))
            .collect();
        assert_eq!(
            pointers,
            [
                ("AP207", "/version".to_string()),
                ("AP207", "/author/name".to_string()),
                ("AP208", "/author/handle".to_string()),
                ("AP207", "/keywords/1".to_string()),
                ("AP207", "/extensions/com.example".to_string()),
            ]
        );
        let (_, author) = load(&format!("{{{SCHEMA}, \"name\": \"x\", \"author\": \"Ada\"}}"));
        assert_eq!(codes(&author), ["AP207"]);
    }

    #[test]
    fn missing_and_empty_name_reject() {
        // §5.3: missing, wrong type or empty required field.
        let (section, missing) = load(&format!("{{{SCHEMA}}}"));
        assert_eq!(section.state, PluginState::Rejected);
        assert_eq!(codes(&missing), ["AP211"]);
        let (_, empty) = load(&format!("{{{SCHEMA}, \"name\": \"\"}}"));
        assert_eq!(codes(&empty), ["AP209"]);
        assert!(empty[0].message.contains("length is 0"));
        let (_, number) = load(&format!("{{{SCHEMA}, \"name\": 7}}"));
        assert_eq!(codes(&number), ["AP207"]);
    }

    #[test]
    fn metadata_formats_never_reject() {
        // §5.4: not SemVer, not a URL, not SPDX: still loads.
        let (section, diagnostics) = load(&format!(
            "{{{SCHEMA}, \"name\": \"x\", \"version\": \"v1\", \"homepage\": \"docs\", \"license\": \"Mine\"}}"
        ));
        assert_eq!(section.state, PluginState::Loaded);
        assert_eq!(codes(&diagnostics), ["AP212"]);
    }

    #[test]
    fn extension_namespaces_should_be_reverse_domain() {
        // §8: client-specific data under a reverse-domain namespace; §8.1: never fatal.
        let (section, diagnostics) = load(&format!(
            "{{{SCHEMA}, \"name\": \"x\", \"extensions\": {{\"claude\": {{}}, \"com.openai.codex\": {{}}}}}}"
        ));
        assert_eq!(section.state, PluginState::Loaded);
        assert_eq!(codes(&diagnostics), ["AP213"]);
        assert_eq!(diagnostics[0].pointer.as_deref(), Some("/extensions/claude"));
        for bad in ["claude", "com..x", ".com.x", "com.-x", "com.x y"] {
            assert!(!is_reverse_domain(bad), "{bad}");
        }
        assert!(is_reverse_domain("com.anthropic.claude-code"));
    }
}
