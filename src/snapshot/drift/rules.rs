//! The drift rules (AP7xx): their codes, words and examples. Every drift rule
//! is an error whose fixed example is the consistent snapshot and package
//! below; the engine that finds drift is `drift.rs`.

use crate::diag::Severity;
use crate::rule::{Example, Rule};

pub(super) const PLUGIN_JSON: &str = r#"{"$schema": "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json", "name": "invoice-ops", "version": "1.2.0"}"#;
pub(super) const MCP_JSON: &str = r#"{"$schema": "https://agent-plugins.org/schemas/1.0.0/mcp.schema.json", "mcpServers": {"invoice-tools": {"type": "streamable-http", "url": "https://billing.example.com/mcp"}}}"#;
pub(super) const SKILL_MD: &str = "---\nname: write-weekly-summary\ndescription: Turn invoice query results into the weekly summary.\n---\n# Weekly summary\n";
pub(super) const PACKAGE: &[(&str, &str)] = &[
    ("plugin.json", PLUGIN_JSON),
    ("mcp.json", MCP_JSON),
    ("skills/write-weekly-summary/SKILL.md", SKILL_MD),
];
pub(super) const SNAPSHOT: &str = r#"{"plugin": {"name": "invoice-ops", "version": "1.2.0", "spec": "1.0.0"},
  "skills": [{"name": "write-weekly-summary", "description": "Turn invoice query results into the weekly summary.",
              "path": "skills/write-weekly-summary/SKILL.md", "loaded": "metadata"}],
  "mcpServers": [{"id": "invoice-tools", "type": "streamable-http", "status": "not-connected"}], "tools": []}"#;

/// A drift rule's own words and failing example; every drift rule is an
/// error, and its fixed example is the same snapshot and package: the
/// consistent pair below.
struct DriftRule {
    code: &'static str,
    name: &'static str,
    spec: &'static str,
    summary: &'static str,
    fix_hint: &'static str,
    what: &'static str,
    why: &'static str,
    failing_snapshot: &'static str,
    failing_files: &'static [(&'static str, &'static str)],
}

const fn drift_rule(rule: DriftRule) -> Rule {
    Rule {
        code: rule.code,
        name: rule.name,
        severity: Severity::Error,
        spec: rule.spec,
        summary: rule.summary,
        fix_hint: Some(rule.fix_hint),
        doc: rule_doc! {
            what: rule.what,
            why: rule.why,
            failing: Example::Drift {
                snapshot: rule.failing_snapshot,
                files: rule.failing_files,
            },
            fixed: Example::Drift {
                snapshot: SNAPSHOT,
                files: PACKAGE,
            },
        },
    }
}

pub static PACKAGE_REJECTED: Rule = drift_rule(DriftRule {
    code: "AP701",
    name: "drift-package-rejected",
    spec: "Agent Plugins §5.2",
    summary: "The snapshot describes a plugin its package makes clients reject",
    fix_hint: "Fix plugin.json (see the package findings): no client holds a snapshot of a rejected plugin.",
    what: "That the package the snapshot claims to describe loads at all.",
    why: "§5.2, §11.3: a manifest violation is fatal; the client discovers and executes nothing, so every line of the snapshot is fiction.",
    failing_snapshot: SNAPSHOT,
    failing_files: &[
        (
            "plugin.json",
            r#"{"$schema": "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json", "name": "Invoice-Ops", "version": "1.2.0"}"#,
        ),
        ("mcp.json", MCP_JSON),
        ("skills/write-weekly-summary/SKILL.md", SKILL_MD),
    ],
});

pub static IDENTITY_DRIFT: Rule = drift_rule(DriftRule {
    code: "AP702",
    name: "drift-identity",
    spec: "Agent Plugins §5.3, §5.4, §10.1",
    summary: "The snapshot's plugin name, version or spec differs from plugin.json",
    fix_hint: "Rebuild the snapshot with `apcheck snapshot` if plugin.json is right; otherwise fix plugin.json.",
    what: "`plugin.name`, `plugin.version` and `plugin.spec` against plugin.json's `name`, `version` and `$schema`.",
    why: "Clients use name and version to identify a plugin and decide on updates (§10.2); a fixture with another identity tests another release.",
    failing_snapshot: r#"{"plugin": {"name": "invoice-ops", "version": "1.1.0", "spec": "1.0.0"},
  "skills": [{"name": "write-weekly-summary", "description": "Turn invoice query results into the weekly summary.",
              "path": "skills/write-weekly-summary/SKILL.md", "loaded": "metadata"}],
  "mcpServers": [{"id": "invoice-tools", "type": "streamable-http", "status": "not-connected"}], "tools": []}"#,
    failing_files: PACKAGE,
});

pub static SKILL_MISSING_FROM_SNAPSHOT: Rule = drift_rule(DriftRule {
    code: "AP703",
    name: "drift-skill-missing-from-snapshot",
    spec: "Agent Plugins §7.1",
    summary: "The package discovers a skill the snapshot does not hold",
    fix_hint: "Rebuild the snapshot with `apcheck snapshot`, or remove the skill directory if it should not ship.",
    what: "Every skill the package check discovers appears in the snapshot's `skills`.",
    why: "Clients discover every conforming skills/<dir>/SKILL.md (§7.1); a skill missing from the fixture ships untested.",
    failing_snapshot: r#"{"plugin": {"name": "invoice-ops", "version": "1.2.0", "spec": "1.0.0"}, "skills": [],
  "mcpServers": [{"id": "invoice-tools", "type": "streamable-http", "status": "not-connected"}], "tools": []}"#,
    failing_files: PACKAGE,
});

pub static SKILL_NOT_IN_PACKAGE: Rule = drift_rule(DriftRule {
    code: "AP704",
    name: "drift-skill-not-in-package",
    spec: "Agent Plugins §7.1",
    summary: "The snapshot holds a skill the package does not have",
    fix_hint: "Remove the skill from the snapshot (rebuild it), or add skills/<name>/SKILL.md to the package.",
    what: "Every snapshot skill has a SKILL.md the package check finds.",
    why: "Clients discover skills only from skills/<dir>/SKILL.md (§7.1); a skill only the snapshot knows is never loaded.",
    failing_snapshot: r#"{"plugin": {"name": "invoice-ops", "version": "1.2.0", "spec": "1.0.0"},
  "skills": [{"name": "write-weekly-summary", "description": "Turn invoice query results into the weekly summary.",
              "path": "skills/write-weekly-summary/SKILL.md", "loaded": "metadata"},
             {"name": "close-month", "description": "Close the month.", "path": "skills/close-month/SKILL.md", "loaded": "metadata"}],
  "mcpServers": [{"id": "invoice-tools", "type": "streamable-http", "status": "not-connected"}], "tools": []}"#,
    failing_files: PACKAGE,
});

pub static SKILL_SKIPPED_BY_PACKAGE: Rule = drift_rule(DriftRule {
    code: "AP705",
    name: "drift-skill-skipped",
    spec: "Agent Plugins §7.1",
    summary: "The snapshot holds a skill that the package check skips",
    fix_hint: "Fix the skill's SKILL.md (see the package findings): clients skip it.",
    what: "Snapshot skills whose SKILL.md the package check finds but skips as non-conforming.",
    why: "§7.1: a skill that does not conform to Agent Skills is skipped; the snapshot claims a capability no client has.",
    failing_snapshot: SNAPSHOT,
    failing_files: &[
        ("plugin.json", PLUGIN_JSON),
        ("mcp.json", MCP_JSON),
        (
            "skills/write-weekly-summary/SKILL.md",
            "---\nname: Write Weekly Summary\n---\n# Weekly summary\n",
        ),
    ],
});

pub static SKILL_METADATA_DRIFT: Rule = drift_rule(DriftRule {
    code: "AP706",
    name: "drift-skill-metadata",
    spec: "Agent Plugins §7.1",
    summary: "A skill's description or path differs between snapshot and SKILL.md",
    fix_hint: "Rebuild the snapshot with `apcheck snapshot` if SKILL.md is right.",
    what: "Each snapshot skill's `description` and `path` against the SKILL.md the package check reads.",
    why: "The description is what a model reads to choose a skill; a fixture with another description tests another discovery surface.",
    failing_snapshot: r#"{"plugin": {"name": "invoice-ops", "version": "1.2.0", "spec": "1.0.0"},
  "skills": [{"name": "write-weekly-summary", "description": "Summarise invoices.",
              "path": "skills/write-weekly-summary/SKILL.md", "loaded": "metadata"}],
  "mcpServers": [{"id": "invoice-tools", "type": "streamable-http", "status": "not-connected"}], "tools": []}"#,
    failing_files: PACKAGE,
});

pub static SERVER_SET_DRIFT: Rule = drift_rule(DriftRule {
    code: "AP707",
    name: "drift-server-set",
    spec: "Agent Plugins §7.2.1",
    summary: "The snapshot's servers and mcp.json's servers differ",
    fix_hint: "Rebuild the snapshot with `apcheck snapshot` if mcp.json is right; otherwise fix mcp.json.",
    what: "The ids of `mcpServers` in the snapshot against the server entries of mcp.json.",
    why: "Servers come only from mcp.json (§7.2.1); a server on one side only is untested or imaginary.",
    failing_snapshot: r#"{"plugin": {"name": "invoice-ops", "version": "1.2.0", "spec": "1.0.0"},
  "skills": [{"name": "write-weekly-summary", "description": "Turn invoice query results into the weekly summary.",
              "path": "skills/write-weekly-summary/SKILL.md", "loaded": "metadata"}],
  "mcpServers": [{"id": "billing", "type": "streamable-http", "status": "not-connected"}], "tools": []}"#,
    failing_files: PACKAGE,
});

pub static SERVER_INVALID_IN_PACKAGE: Rule = drift_rule(DriftRule {
    code: "AP708",
    name: "drift-server-invalid",
    spec: "Agent Plugins §7.2.2",
    summary: "The snapshot uses a server that mcp.json makes invalid",
    fix_hint: "Fix the entry in mcp.json (see the package findings): clients skip it.",
    what: "Snapshot servers, other than `skipped` ones, whose mcp.json entry is invalid or whose mcp.json is disabled.",
    why: "§7.2.2: an invalid entry is skipped alone and an invalid mcp.json disables MCP; the snapshot claims a server no client starts.",
    failing_snapshot: SNAPSHOT,
    failing_files: &[
        ("plugin.json", PLUGIN_JSON),
        (
            "mcp.json",
            r#"{"$schema": "https://agent-plugins.org/schemas/1.0.0/mcp.schema.json", "mcpServers": {"invoice-tools": {"url": "https://billing.example.com/mcp"}}}"#,
        ),
        ("skills/write-weekly-summary/SKILL.md", SKILL_MD),
    ],
});

pub static SERVER_TYPE_DRIFT: Rule = drift_rule(DriftRule {
    code: "AP709",
    name: "drift-server-type",
    spec: "Agent Plugins §7.2.1",
    summary: "A server's transport differs between snapshot and mcp.json",
    fix_hint: "Rebuild the snapshot with `apcheck snapshot` if mcp.json is right.",
    what: "Each snapshot server's `type` against its mcp.json entry.",
    why: "A client uses the declared transport for its first connection (§7.2.1); a fixture with another transport tests another connection.",
    failing_snapshot: r#"{"plugin": {"name": "invoice-ops", "version": "1.2.0", "spec": "1.0.0"},
  "skills": [{"name": "write-weekly-summary", "description": "Turn invoice query results into the weekly summary.",
              "path": "skills/write-weekly-summary/SKILL.md", "loaded": "metadata"}],
  "mcpServers": [{"id": "invoice-tools", "type": "sse", "status": "not-connected"}], "tools": []}"#,
    failing_files: PACKAGE,
});

pub static RUNTIME_STATE_IN_PACKAGING: Rule = drift_rule(DriftRule {
    code: "AP710",
    name: "runtime-state-in-packaging",
    spec: "Agent Plugins §5.2, §7.2.1",
    summary: "plugin.json or mcp.json holds runtime state (status, tools, schemas)",
    fix_hint: "Remove it from the packaging: clients learn status and tools at runtime; keep them in the snapshot.",
    what: "Members that only a running client knows (`status`, `connected`, `loaded`, `tools`, `inputSchema`, `outputSchema`, `protocolVersion`) at the top of plugin.json or mcp.json or in an mcp.json server entry.",
    why: "The manifest is closed (§5.2) and server entries are closed variants (§7.2.1): such members are ignored at best and invalidate the server at worst, and a tool list typed into the manifest is never what the server offers.",
    failing_snapshot: SNAPSHOT,
    failing_files: &[
        (
            "plugin.json",
            r#"{"$schema": "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json", "name": "invoice-ops", "version": "1.2.0", "tools": [{"name": "query_invoices"}]}"#,
        ),
        ("mcp.json", MCP_JSON),
        ("skills/write-weekly-summary/SKILL.md", SKILL_MD),
    ],
});

pub static IDENTITY_IN_INPUT_SCHEMA: Rule = drift_rule(DriftRule {
    code: "AP711",
    name: "identity-in-input-schema",
    spec: "MCP server/tools (Tool.inputSchema)",
    summary: "A tool's inputSchema holds `name` or `version` members, manifest data pasted into a contract",
    fix_hint: "Remove `name`/`version` from the schema's top level; describe arguments under `properties`.",
    what: "Top-level `name` or `version` members in a snapshot tool's `inputSchema`. They are not JSON Schema keywords, so they constrain nothing.",
    why: "The plugin's identity lives in plugin.json; pasted into a tool contract it only shows that manifest and contract were edited by hand together.",
    failing_snapshot: r#"{"plugin": {"name": "invoice-ops", "version": "1.2.0", "spec": "1.0.0"},
  "skills": [{"name": "write-weekly-summary", "description": "Turn invoice query results into the weekly summary.",
              "path": "skills/write-weekly-summary/SKILL.md", "loaded": "metadata"}],
  "mcpServers": [{"id": "invoice-tools", "type": "streamable-http", "status": "connected"}],
  "tools": [{"name": "query_invoices", "server": "invoice-tools", "inputSchema": {"type": "object", "name": "invoice-ops", "version": "1.2.0"}}]}"#,
    failing_files: PACKAGE,
});

pub static RULES: &[&Rule] = &[
    &PACKAGE_REJECTED,
    &IDENTITY_DRIFT,
    &SKILL_MISSING_FROM_SNAPSHOT,
    &SKILL_NOT_IN_PACKAGE,
    &SKILL_SKIPPED_BY_PACKAGE,
    &SKILL_METADATA_DRIFT,
    &SERVER_SET_DRIFT,
    &SERVER_INVALID_IN_PACKAGE,
    &SERVER_TYPE_DRIFT,
    &RUNTIME_STATE_IN_PACKAGING,
    &IDENTITY_IN_INPUT_SCHEMA,
];
