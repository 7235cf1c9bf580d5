//! AP2xx: the manifest hop (§5, §8.1, §10). `plugin.json` is read, its
//! `$schema` selects the rules (only 1.0.0 is supported), and the closed schema
//! is checked member by member so every problem carries a pointer and a
//! line:column. Unknown top-level fields and a non-object `extensions` are
//! reported and ignored (§5.2, §8.1); every other violation rejects the plugin
//! and nothing is discovered (§5.3, §11.3). Metadata is checked only by type
//! (§5.4); SemVer is a hint, never a verdict.

use serde_json::{Map, Value};

use crate::diag::{Diagnostic, Severity};
use crate::json::parse::push_token;
use crate::report::{PluginSection, PluginState};
use crate::rules::files::{JsonFile, Load, read_json_file};
use crate::rules::{Example, Rule, RuleDoc};
use crate::schemas::{MCP_SCHEMA_ID, PLUGIN_SCHEMA_ID, SUPPORTED_SPEC_VERSIONS};
use crate::tree::Tree;

const VALID: &str = "{\n  \"$schema\": \"https://agent-plugins.org/schemas/1.0.0/plugin.schema.json\",\n  \"name\": \"invoice-ops\"\n}\n";

pub static MANIFEST_MISSING: Rule = Rule {
    code: "AP201",
    name: "manifest-missing",
    severity: Severity::Error,
    spec: "Agent Plugins §4.1, §5.1",
    summary: "There is no plugin.json at the plugin root",
    fix_hint: Some("Add plugin.json at the root with \"$schema\" and \"name\""),
    doc: RuleDoc {
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
    doc: RuleDoc {
        what: "Reports a plugin.json whose top-level value is an array, string, number, boolean or null.",
        why: "The manifest MUST contain a top-level object (§5.2); anything else rejects the plugin.",
        failing: Example::Package(&[("plugin.json", "[\"invoice-ops\"]")]),
        fixed: Example::Package(&[("plugin.json", VALID)]),
    },
};

pub static SCHEMA_MISSING: Rule = Rule {
    code: "AP203",
    name: "schema-missing",
    severity: Severity::Error,
    spec: "Agent Plugins §5.2, §5.3",
    summary: "plugin.json has no $schema",
    fix_hint: Some("Add \"$schema\": \"https://agent-plugins.org/schemas/1.0.0/plugin.schema.json\""),
    doc: RuleDoc {
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
    doc: RuleDoc {
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

pub static MANIFEST_UNKNOWN_FIELD: Rule = Rule {
    code: "AP205",
    name: "manifest-unknown-field",
    severity: Severity::Warning,
    spec: "Agent Plugins §5.2",
    summary: "plugin.json has a top-level field the schema does not define; it is ignored",
    fix_hint: Some("Remove it, or move client-specific data under \"extensions\" in a reverse-domain namespace"),
    doc: RuleDoc {
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
    doc: RuleDoc {
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
    doc: RuleDoc {
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
    doc: RuleDoc {
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

pub static MANIFEST_NAME_INVALID: Rule = Rule {
    code: "AP209",
    name: "manifest-name-invalid",
    severity: Severity::Error,
    spec: "Agent Plugins §5.5",
    summary: "The plugin name breaks a §5.5 constraint",
    fix_hint: None,
    doc: RuleDoc {
        what: "Checks `name` against each §5.5 constraint and names the ones that fail: length (1-64), \
               character set (a-z, 0-9, `-`, `.`), start and end (alphanumeric), repetition (no `--`, `..`).",
        why: "An invalid required field rejects the plugin (§5.3): nothing in it is discovered.",
        failing: Example::Package(&[(
            "plugin.json",
            "{\"$schema\": \"https://agent-plugins.org/schemas/1.0.0/plugin.schema.json\", \"name\": \"Invoice-Ops\"}",
        )]),
        fixed: Example::Package(&[("plugin.json", VALID)]),
    },
};

pub static INLINE_COMPONENT: Rule = Rule {
    code: "AP210",
    name: "inline-component",
    severity: Severity::Warning,
    spec: "Agent Plugins §6.1, §7.2.1",
    summary: "plugin.json declares components inline; clients ignore them",
    fix_hint: None,
    doc: RuleDoc {
        what: "Reports top-level `skills`, `mcpServers`, `hooks`, `commands`, `agents` and similar members, \
               the vendor shapes real packages carry over.",
        why: "plugin.json cannot override the fixed locations or contain inline component configuration \
              (§6.1); MCP servers are read only from mcp.json (§7.2.1). As unknown fields they are ignored \
              (§5.2), so what they declare never loads.",
        failing: Example::Package(&[(
            "plugin.json",
            "{\"$schema\": \"https://agent-plugins.org/schemas/1.0.0/plugin.schema.json\", \"name\": \"invoice-ops\", \"skills\": \"./skills/\"}",
        )]),
        fixed: Example::Package(&[("plugin.json", VALID)]),
    },
};

pub static NAME_MISSING: Rule = Rule {
    code: "AP211",
    name: "name-missing",
    severity: Severity::Error,
    spec: "Agent Plugins §5.3",
    summary: "plugin.json has no name",
    fix_hint: Some("Add \"name\": lowercase letters, digits, `-` and `.`"),
    doc: RuleDoc {
        what: "Reports a manifest without the required `name` member.",
        why: "A missing required field rejects the plugin (§5.3).",
        failing: Example::Package(&[(
            "plugin.json",
            "{\"$schema\": \"https://agent-plugins.org/schemas/1.0.0/plugin.schema.json\"}",
        )]),
        fixed: Example::Package(&[("plugin.json", VALID)]),
    },
};

pub static VERSION_NOT_SEMVER: Rule = Rule {
    code: "AP212",
    name: "version-not-semver",
    severity: Severity::Info,
    spec: "Agent Plugins §5.4, §10.2",
    summary: "`version` is not Semantic Versioning (a recommendation, never a rejection)",
    fix_hint: Some("Use MAJOR.MINOR.PATCH, e.g. \"1.2.0\""),
    doc: RuleDoc {
        what: "Reports a string `version` that is not a SemVer 2.0.0 version.",
        why: "Plugins SHOULD use SemVer (§10.2) so clients can compare versions for updates; clients MUST NOT \
              reject a manifest for it (§5.4), so this is only a hint.",
        failing: Example::Package(&[(
            "plugin.json",
            "{\"$schema\": \"https://agent-plugins.org/schemas/1.0.0/plugin.schema.json\", \"name\": \"invoice-ops\", \"version\": \"v1.2\"}",
        )]),
        fixed: Example::Package(&[(
            "plugin.json",
            "{\"$schema\": \"https://agent-plugins.org/schemas/1.0.0/plugin.schema.json\", \"name\": \"invoice-ops\", \"version\": \"1.2.0\"}",
        )]),
    },
};

pub static RULES: &[&Rule] = &[
    &MANIFEST_MISSING,
    &MANIFEST_NOT_OBJECT,
    &SCHEMA_MISSING,
    &SCHEMA_UNSUPPORTED,
    &MANIFEST_UNKNOWN_FIELD,
    &EXTENSIONS_NOT_OBJECT,
    &MANIFEST_FIELD_TYPE,
    &AUTHOR_UNKNOWN_FIELD,
    &MANIFEST_NAME_INVALID,
    &INLINE_COMPONENT,
    &NAME_MISSING,
    &VERSION_NOT_SEMVER,
];

const REJECTED: &str = "the plugin is rejected and none of its components are loaded (§5.2)";

/// Vendor manifests found where a portable one is missing, and whose they are.
pub const VENDOR_MANIFESTS: &[(&str, &str)] = &[
    (".claude-plugin/plugin.json", "Claude Code"),
    (".codex-plugin/plugin.json", "Codex"),
    (".cursor-plugin/plugin.json", "Cursor"),
    ("gemini-extension.json", "Gemini CLI"),
];

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

const STRING_FIELDS: &[&str] = &["version", "description", "homepage", "repository", "license"];
const AUTHOR_FIELDS: &[&str] = &["name", "email", "url"];

/// Loads `plugin.json` as a conformant client does (§5): any error-level
/// finding here rejects the plugin.
pub fn load_manifest(tree: &Tree, diagnostics: &mut Vec<Diagnostic>) -> PluginSection {
    let mut section = PluginSection {
        state: PluginState::Rejected,
        name: None,
        version: None,
        description: None,
        spec: None,
    };
    let file = match read_json_file(tree, "plugin.json", REJECTED, diagnostics) {
        Load::Loaded(file) => file,
        Load::Failed => return section,
        Load::Absent => {
            diagnostics.push(missing_manifest(tree));
            return section;
        }
    };
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
    let Some(version) = select_spec_version(&file, members, diagnostics) else {
        return section;
    };
    section.spec = Some(version.to_string());
    let errors_before = count_errors(diagnostics);
    check_members(&file, members, diagnostics);
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
        .filter(|(path, _)| tree.read(path).is_some())
        .map(|(path, client)| format!("`{path}` ({client})"))
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

/// §5.2: `$schema` selects the rules; returns the supported spec version.
fn select_spec_version(
    file: &JsonFile,
    members: &Map<String, Value>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<&'static str> {
    let supported = SUPPORTED_SPEC_VERSIONS
        .iter()
        .map(|(id, _)| format!("`{id}`"))
        .collect::<Vec<_>>()
        .join(", ");
    let Some(declared) = members.get("$schema") else {
        diagnostics.push(file.at_value(
            &SCHEMA_MISSING,
            "",
            format!("plugin.json has no `$schema`, so no Agent Plugins version is declared; {REJECTED}. Supported: {supported}"),
        ));
        return None;
    };
    let Some(id) = declared.as_str() else {
        diagnostics.push(file.at_value(
            &SCHEMA_UNSUPPORTED,
            "/$schema",
            format!(
                "`$schema` is {}, not an identifier string; {REJECTED}",
                json_type(declared)
            ),
        ));
        return None;
    };
    if let Some((_, version)) = SUPPORTED_SPEC_VERSIONS.iter().find(|(known, _)| *known == id) {
        return Some(version);
    }
    let why = if id == MCP_SCHEMA_ID {
        "that is the mcp.json schema, not the manifest's".to_string()
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
    diagnostics.push(file.at_value(
        &SCHEMA_UNSUPPORTED,
        "/$schema",
        format!("`$schema` is `{id}`: {why}; {REJECTED}. Supported: {supported}"),
    ));
    None
}

fn check_members(file: &JsonFile, members: &Map<String, Value>, diagnostics: &mut Vec<Diagnostic>) {
    if !members.contains_key("name") {
        diagnostics.push(file.at_value(&NAME_MISSING, "", format!("plugin.json has no `name`; {REJECTED}")));
    }
    for (key, value) in members {
        let mut pointer = String::new();
        push_token(&mut pointer, key);
        match key.as_str() {
            "$schema" => {}
            "name" => match value.as_str() {
                Some(name) => check_name(file, name, diagnostics),
                None => diagnostics.push(wrong_type(file, &pointer, "a string", value)),
            },
            "author" => check_author(file, value, diagnostics),
            "keywords" => check_keywords(file, value, diagnostics),
            "extensions" => check_extensions(file, value, diagnostics),
            field if STRING_FIELDS.contains(&field) => match value.as_str() {
                Some(version) if field == "version" && !is_semver(version) => diagnostics.push(file.at_value(
                    &VERSION_NOT_SEMVER,
                    &pointer,
                    format!("`version` \"{version}\" is not Semantic Versioning; clients still load it (§5.4)"),
                )),
                Some(_) => {}
                None => diagnostics.push(wrong_type(file, &pointer, "a string", value)),
            },
            other => diagnostics.push(unknown_field(file, &pointer, other)),
        }
    }
}

fn unknown_field(file: &JsonFile, pointer: &str, key: &str) -> Diagnostic {
    match INLINE_COMPONENTS.iter().find(|(inline, _)| *inline == key) {
        Some((_, where_instead)) => file
            .at_key(
                &INLINE_COMPONENT,
                pointer,
                format!("`{key}` in plugin.json is ignored: {where_instead}"),
            )
            .with_hint(format!("Remove `{key}` from plugin.json; {where_instead}")),
        None => file.at_key(
            &MANIFEST_UNKNOWN_FIELD,
            pointer,
            format!("`{key}` is not a manifest field; clients report and ignore it (§5.2)"),
        ),
    }
}

fn wrong_type(file: &JsonFile, pointer: &str, expected: &str, value: &Value) -> Diagnostic {
    file.at_value(
        &MANIFEST_FIELD_TYPE,
        pointer,
        format!("`{pointer}` must be {expected}, found {}; {REJECTED}", json_type(value)),
    )
}

fn check_author(file: &JsonFile, value: &Value, diagnostics: &mut Vec<Diagnostic>) {
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

fn check_keywords(file: &JsonFile, value: &Value, diagnostics: &mut Vec<Diagnostic>) {
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

fn check_extensions(file: &JsonFile, value: &Value, diagnostics: &mut Vec<Diagnostic>) {
    let Value::Object(namespaces) = value else {
        diagnostics.push(file.at_value(
            &EXTENSIONS_NOT_OBJECT,
            "/extensions",
            format!(
                "`extensions` is {}, not an object; clients report and ignore it and keep loading (§8.1)",
                json_type(value)
            ),
        ));
        return;
    };
    // §8.1: member values are objects; their contents belong to each client and are not validated.
    for (namespace, data) in namespaces {
        if !data.is_object() {
            let mut pointer = "/extensions".to_string();
            push_token(&mut pointer, namespace);
            diagnostics.push(wrong_type(file, &pointer, "an object (§8.1)", data));
        }
    }
}

/// §5.5, constraint by constraint, so the message says which failed.
fn check_name(file: &JsonFile, name: &str, diagnostics: &mut Vec<Diagnostic>) {
    let failures = name_violations(name);
    if failures.is_empty() {
        return;
    }
    let mut diagnostic = file.at_value(
        &MANIFEST_NAME_INVALID,
        "/name",
        format!(
            "Plugin name \"{name}\" breaks §5.5: {}; {REJECTED}",
            failures.join("; ")
        ),
    );
    if let Some(fixed) = suggest_name(name) {
        diagnostic = diagnostic.with_hint(format!("Use \"{fixed}\""));
    }
    diagnostics.push(diagnostic);
}

/// Each §5.5 constraint `name` fails, in words.
pub fn name_violations(name: &str) -> Vec<String> {
    let mut failures = Vec::new();
    let length = name.chars().count();
    if !(1..=64).contains(&length) {
        failures.push(format!("length is {length}, not 1-64"));
    }
    let mut bad: Vec<char> = name
        .chars()
        .filter(|c| !matches!(c, 'a'..='z' | '0'..='9' | '-' | '.'))
        .collect();
    bad.dedup();
    if !bad.is_empty() {
        let shown: String = bad.iter().take(8).collect();
        failures.push(format!(
            "character set: `{shown}` not allowed (only lowercase a-z, 0-9, `-` and `.`)"
        ));
    }
    let alphanumeric = |c: Option<char>| c.is_some_and(|c| c.is_ascii_lowercase() || c.is_ascii_digit());
    if length > 0 && !(alphanumeric(name.chars().next()) && alphanumeric(name.chars().last())) {
        failures.push("start and end: the first and last characters must be a-z or 0-9".to_string());
    }
    if name.contains("--") || name.contains("..") {
        failures.push("repetition: `--` and `..` are not allowed".to_string());
    }
    failures
}

/// A conforming name close to `name`, if one can be made.
fn suggest_name(name: &str) -> Option<String> {
    let mut fixed = String::new();
    for c in name.chars().flat_map(char::to_lowercase) {
        let c = if c.is_ascii_lowercase() || c.is_ascii_digit() || c == '.' {
            c
        } else {
            '-'
        };
        if (c == '-' || c == '.') && fixed.ends_with(['-', '.']) {
            continue;
        }
        fixed.push(c);
    }
    let fixed: String = fixed.trim_matches(['-', '.']).chars().take(64).collect();
    let fixed = fixed.trim_end_matches(['-', '.']).to_string();
    (!fixed.is_empty() && name_violations(&fixed).is_empty()).then_some(fixed)
}

/// SemVer 2.0.0: MAJOR.MINOR.PATCH, optional `-pre.release` and `+build`.
fn is_semver(version: &str) -> bool {
    let (rest, build) = match version.split_once('+') {
        Some((rest, build)) => (rest, Some(build)),
        None => (version, None),
    };
    let (core, pre) = match rest.split_once('-') {
        Some((core, pre)) => (core, Some(pre)),
        None => (rest, None),
    };
    let numeric = |part: &str| {
        !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit()) && (part == "0" || !part.starts_with('0'))
    };
    let identifier = |part: &str| !part.is_empty() && part.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-');
    let parts: Vec<&str> = core.split('.').collect();
    parts.len() == 3
        && parts.iter().all(|p| numeric(p))
        && pre.is_none_or(|pre| {
            pre.split('.')
                .all(|p| identifier(p) && (!p.bytes().all(|b| b.is_ascii_digit()) || numeric(p)))
        })
        && build.is_none_or(|build| build.split('.').all(identifier))
}

/// "a string", "an array", … for messages.
pub fn json_type(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SCHEMA: &str = "\"$schema\": \"https://agent-plugins.org/schemas/1.0.0/plugin.schema.json\"";

    fn load(text: &str) -> (PluginSection, Vec<Diagnostic>) {
        let tree = Tree::from_files([("plugin.json", text)]);
        let mut diagnostics = Vec::new();
        let section = load_manifest(&tree, &mut diagnostics);
        (section, diagnostics)
    }

    fn codes(diagnostics: &[Diagnostic]) -> Vec<&str> {
        diagnostics.iter().map(|d| d.code).collect()
    }

    #[test]
    fn minimal_manifest_loads() {
        // §5.2 "Example: minimal manifest".
        let (section, diagnostics) = load(&format!("{{{SCHEMA}, \"name\": \"minimal-plugin\"}}"));
        assert_eq!(section.state, PluginState::Loaded);
        assert_eq!(section.spec.as_deref(), Some("1.0.0"));
        assert_eq!(section.name.as_deref(), Some("minimal-plugin"));
        assert!(diagnostics.is_empty(), "{diagnostics:?}");
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
        let section = load_manifest(&tree, &mut diagnostics);
        assert_eq!(section.state, PluginState::Rejected);
        assert_eq!(codes(&diagnostics), ["AP201"]);
        assert!(diagnostics[0].message.contains(".claude-plugin/plugin.json"));
        let mut plain = Vec::new();
        load_manifest(&Tree::new(), &mut plain);
        assert!(!plain[0].message.contains("vendor"));
    }

    #[test]
    fn non_object_manifest_is_rejected() {
        // §5.2: MUST contain a top-level object.
        let (section, diagnostics) = load("[]");
        assert_eq!(section.state, PluginState::Rejected);
        assert_eq!(codes(&diagnostics), ["AP202"]);
    }

    #[test]
    fn missing_schema_rejects() {
        // §5.3: `$schema` is required.
        let (section, diagnostics) = load("{\"name\": \"x\"}");
        assert_eq!(section.state, PluginState::Rejected);
        assert_eq!(codes(&diagnostics), ["AP203"]);
        assert_eq!(diagnostics[0].line, Some(1));
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
    fn name_messages_say_which_constraint_failed() {
        // §5.5 valid and invalid examples.
        for valid in ["my-plugin", "acme.tools", "lint3r", "a"] {
            assert!(name_violations(valid).is_empty(), "{valid}");
        }
        for (invalid, constraint) in [
            ("My-Plugin", "character set"),
            ("-start", "start and end"),
            ("has--double", "repetition"),
            ("too.many..dots", "repetition"),
            ("", "length"),
        ] {
            let failures = name_violations(invalid).join("; ");
            assert!(failures.contains(constraint), "{invalid}: {failures}");
        }
        assert!(name_violations(&"a".repeat(65))[0].contains("length is 65"));
        assert_eq!(suggest_name("Invoice-Ops").as_deref(), Some("invoice-ops"));
        assert_eq!(suggest_name("Bad--Plugin").as_deref(), Some("bad-plugin"));
    }

    #[test]
    fn invoice_ops_uppercase_rejects_with_a_suggestion() {
        let (section, diagnostics) = load(&format!("{{{SCHEMA}, \"name\": \"Invoice-Ops\"}}"));
        assert_eq!(section.state, PluginState::Rejected);
        assert_eq!(codes(&diagnostics), ["AP209"]);
        assert_eq!(diagnostics[0].hint.as_deref(), Some("Use \"invoice-ops\""));
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
    fn semver_follows_the_grammar() {
        for good in ["1.2.0", "0.0.1-alpha.1", "1.0.0+build.5", "1.0.0-rc-1+x"] {
            assert!(is_semver(good), "{good}");
        }
        for bad in ["1.2", "v1.2.0", "01.2.3", "1.2.3-", "1.2.3-01", "1.2.3+"] {
            assert!(!is_semver(bad), "{bad}");
        }
    }
}
