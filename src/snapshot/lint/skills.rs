//! Skills in a snapshot: held as metadata only (AP603), expected when the
//! plugin has some (AP607), and not mistaken for tools (AP610).

use std::collections::BTreeMap;

use serde_json::Value;

use super::examples::VALID;
use crate::diag::{Diagnostic, Severity};
use crate::json::parse::push_token;
use crate::rule::{Example, Rule};
use crate::snapshot::model::Snapshot;
use crate::source::json::JsonSource;
use crate::tree::{Entry, Tree};

pub static SKILL_BODY_IN_SNAPSHOT: Rule = Rule {
    code: "AP603",
    name: "skill-body-in-snapshot",
    severity: Severity::Error,
    spec: "Agent Plugins §7.1",
    summary: "A snapshot holds a skill's body, not just its metadata",
    fix_hint: Some(
        "Keep only name, description, path and `\"loaded\": \"metadata\"`; the body is read when the skill is used.",
    ),
    doc: rule_doc! {
        what: "That every skill is held as metadata only: `loaded` is `metadata`, and no member (`body`, `instructions`, `content`, or any string that is SKILL.md text) carries the skill's body.",
        why: "Clients put skill metadata into every context and read a body only when the skill is used. A snapshot that holds bodies records the regression of loading every runbook into every conversation.",
        failing: Example::Snapshot(
            r#"{"plugin": {"name": "invoice-ops", "spec": "1.0.0"}, "mcpServers": [], "tools": [],
  "skills": [{"name": "write-weekly-summary", "description": "Turn invoice query results into the weekly summary.",
              "path": "skills/write-weekly-summary/SKILL.md", "loaded": "full",
              "body": "---\nname: write-weekly-summary\n---\n# Steps\n1. Query the week."}]}"#,
        ),
        fixed: Example::Snapshot(VALID),
    },
};

pub static NO_SKILLS: Rule = Rule {
    code: "AP607",
    name: "no-skills-discovered",
    severity: Severity::Info,
    spec: "Agent Plugins §7.1",
    summary: "The plugin loaded but no skill was discovered",
    fix_hint: Some("Is SKILL.md one level too deep? Discovery looks only at skills/<dir>/SKILL.md."),
    doc: rule_doc! {
        what: "A snapshot with no skills and no MCP servers (or, given the package, with no skills while skills/ exists).",
        why: "Clients do not search deeper than skills/<dir>/SKILL.md (§7.1), so a nested SKILL.md loads nothing without any error.",
        failing: Example::Snapshot(
            r#"{"plugin": {"name": "invoice-ops", "spec": "1.0.0"}, "skills": [], "mcpServers": [], "tools": []}"#,
        ),
        fixed: Example::Snapshot(VALID),
    },
};

pub static TOOL_IS_SKILL_SCRIPT: Rule = Rule {
    code: "AP610",
    name: "tool-is-skill-script",
    severity: Severity::Warning,
    spec: "Agent Plugins §7.1",
    summary: "A tool is named like a script attached to a skill",
    fix_hint: Some("Scripts under skills/*/scripts/ belong to their skill and are run by it; they are not MCP tools."),
    doc: rule_doc! {
        what: "Given the package, tools whose name equals a file (with or without its extension) under skills/*/scripts/.",
        why: "A skill's scripts are attachments the skill's instructions run; listing one as an MCP tool means a contract nobody serves.",
        failing: Example::Drift {
            snapshot: DEPLOY_SNAPSHOT_WITH_SCRIPT_TOOL,
            files: DEPLOY_PACKAGE,
        },
        fixed: Example::Drift {
            snapshot: DEPLOY_SNAPSHOT,
            files: DEPLOY_PACKAGE,
        },
    },
};

/// A package whose skill carries a script, for AP610's examples.
const DEPLOY_PACKAGE: &[(&str, &str)] = &[
    (
        "plugin.json",
        r#"{"$schema": "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json", "name": "deploy-kit", "version": "1.0.0"}"#,
    ),
    (
        "mcp.json",
        r#"{"$schema": "https://agent-plugins.org/schemas/1.0.0/mcp.schema.json", "mcpServers": {"deploy-api": {"type": "streamable-http", "url": "https://deploy.example.com/mcp"}}}"#,
    ),
    (
        "skills/deploy/SKILL.md",
        "---\nname: deploy\ndescription: Deploy the service. Use when the user asks to ship a release.\n---\nRun scripts/rollback.sh if the health check fails.\n",
    ),
    ("skills/deploy/scripts/rollback.sh", "#!/bin/sh\n"),
];

const DEPLOY_SNAPSHOT_WITH_SCRIPT_TOOL: &str = r#"{"plugin": {"name": "deploy-kit", "version": "1.0.0", "spec": "1.0.0"},
  "skills": [{"name": "deploy", "description": "Deploy the service. Use when the user asks to ship a release.", "path": "skills/deploy/SKILL.md", "loaded": "metadata"}],
  "mcpServers": [{"id": "deploy-api", "type": "streamable-http", "status": "connected"}],
  "tools": [{"name": "start_deploy", "server": "deploy-api", "inputSchema": {"type": "object"}},
            {"name": "rollback", "server": "deploy-api", "inputSchema": {"type": "object"}}]}"#;

const DEPLOY_SNAPSHOT: &str = r#"{"plugin": {"name": "deploy-kit", "version": "1.0.0", "spec": "1.0.0"},
  "skills": [{"name": "deploy", "description": "Deploy the service. Use when the user asks to ship a release.", "path": "skills/deploy/SKILL.md", "loaded": "metadata"}],
  "mcpServers": [{"id": "deploy-api", "type": "streamable-http", "status": "connected"}],
  "tools": [{"name": "start_deploy", "server": "deploy-api", "inputSchema": {"type": "object"}}]}"#;

/// Members that carry a skill's body when someone puts it into a snapshot.
const BODY_MEMBERS: &[&str] = &["body", "instructions", "content", "markdown", "text", "skillMd", "raw"];

/// AP603 on the raw value (before the schema, whose closed objects would only
/// say "unexpected member"). Returns the pointers of the skills it flagged.
pub(super) fn check_skill_bodies(located: &JsonSource<'_>, diagnostics: &mut Vec<Diagnostic>) -> Vec<String> {
    let mut flagged = Vec::new();
    let Some(skills) = located.doc.value.get("skills").and_then(Value::as_array) else {
        return flagged;
    };
    for (i, skill) in skills.iter().enumerate() {
        let Some(members) = skill.as_object() else { continue };
        let pointer = format!("/skills/{i}");
        let name = members.get("name").and_then(Value::as_str).unwrap_or("?");
        let before = diagnostics.len();
        if let Some(loaded) = members.get("loaded").filter(|l| l.as_str() != Some("metadata")) {
            diagnostics.push(located.at_value(
                &SKILL_BODY_IN_SNAPSHOT,
                &format!("{pointer}/loaded"),
                format!("skill `{name}` is held as `loaded: {loaded}`; a client holds only its metadata"),
            ));
        }
        for (key, value) in members {
            let mut member = pointer.clone();
            push_token(&mut member, key);
            if BODY_MEMBERS.contains(&key.as_str()) {
                diagnostics.push(located.at_key(
                    &SKILL_BODY_IN_SNAPSHOT,
                    &member,
                    format!("skill `{name}` carries its body in `{key}`"),
                ));
            } else if let Some(found) = find_skill_text(value, &mut member) {
                diagnostics.push(located.at_value(
                    &SKILL_BODY_IN_SNAPSHOT,
                    &found,
                    format!("skill `{name}` holds SKILL.md text in `{found}`"),
                ));
            }
        }
        if diagnostics.len() > before {
            flagged.push(pointer);
        }
    }
    flagged
}

/// The pointer of a string under `value` that is SKILL.md text (frontmatter and body).
fn find_skill_text(value: &Value, pointer: &mut String) -> Option<String> {
    match value {
        Value::String(text) => looks_like_skill_md(text).then(|| pointer.clone()),
        Value::Array(items) => items.iter().enumerate().find_map(|(i, item)| {
            let len = pointer.len();
            push_token(pointer, &i.to_string());
            let found = find_skill_text(item, pointer);
            pointer.truncate(len);
            found
        }),
        Value::Object(members) => members.iter().find_map(|(key, item)| {
            let len = pointer.len();
            push_token(pointer, key);
            let found = find_skill_text(item, pointer);
            pointer.truncate(len);
            found
        }),
        _ => None,
    }
}

/// A YAML frontmatter block with a `name:` or `description:` line, as SKILL.md starts.
fn looks_like_skill_md(text: &str) -> bool {
    let Some(rest) = text.trim_start_matches('\u{feff}').strip_prefix("---") else {
        return false;
    };
    let Some(end) = rest.find("\n---") else { return false };
    rest[..end]
        .lines()
        .any(|line| line.starts_with("name:") || line.starts_with("description:"))
}

/// AP607: no skill, where the plugin was meant to have some.
pub(super) fn check_no_skills(
    located: &JsonSource<'_>,
    snapshot: &Snapshot,
    package: Option<&Tree>,
    out: &mut Vec<Diagnostic>,
) {
    if snapshot.skills.is_empty() && skills_expected(snapshot, package) {
        out.push(located.at_value(&NO_SKILLS, "/skills", "no skill was discovered"));
    }
}

/// Whether an empty skill list deserves a hint: with the package, when
/// skills/ exists (something was meant to load); without it, when the
/// plugin offers nothing at all.
fn skills_expected(snapshot: &Snapshot, package: Option<&Tree>) -> bool {
    match package {
        Some(tree) => tree.entry("skills").is_some(),
        None => snapshot.servers.is_empty(),
    }
}

/// AP610: tools named as a skill script of the package `tree`.
pub(super) fn check_script_tools(
    located: &JsonSource<'_>,
    snapshot: &Snapshot,
    tree: &Tree,
    out: &mut Vec<Diagnostic>,
) {
    let scripts = skill_scripts(tree);
    for (i, tool) in snapshot.tools.iter().enumerate() {
        if let Some(path) = scripts.get(tool.name.as_str()) {
            out.push(located.at_value(
                &TOOL_IS_SKILL_SCRIPT,
                &format!("/tools/{i}/name"),
                format!("tool `{}` has the name of the skill script `{path}`", tool.name),
            ));
        }
    }
}

/// Files under `skills/*/scripts/`, by file name and by stem, to their path.
fn skill_scripts(tree: &Tree) -> BTreeMap<&str, &str> {
    let mut scripts = BTreeMap::new();
    for (path, entry) in tree.descendants("skills") {
        let parts: Vec<&str> = path.split('/').collect();
        if parts.len() >= 4 && parts[2] == "scripts" && matches!(entry, Entry::File(_) | Entry::Symlink(_)) {
            let file = parts[parts.len() - 1];
            scripts.insert(file, path);
            if let Some((stem, _)) = file.rsplit_once('.').filter(|(stem, _)| !stem.is_empty()) {
                scripts.entry(stem).or_insert(path);
            }
        }
    }
    scripts
}
