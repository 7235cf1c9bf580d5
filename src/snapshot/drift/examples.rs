//! What every drift rule's doc shares: each is an error whose fixed example
//! is the consistent snapshot and package below.

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
pub(super) struct DriftRule {
    pub(super) code: &'static str,
    pub(super) name: &'static str,
    pub(super) spec: &'static str,
    pub(super) summary: &'static str,
    pub(super) fix_hint: &'static str,
    pub(super) what: &'static str,
    pub(super) why: &'static str,
    pub(super) failing_snapshot: &'static str,
    pub(super) failing_files: &'static [(&'static str, &'static str)],
}

pub(super) const fn drift_rule(rule: DriftRule) -> Rule {
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
