//! The plugin's identity: `name`, `version` and `spec` against plugin.json
//! (AP702), and identity pasted into a tool's `inputSchema` (AP711).

use serde_json::Value;

use super::examples::{DriftRule, PACKAGE, drift_rule};
use super::report::{Difference, Drift, FixSide};
use crate::report::PackageReport;
use crate::rule::Rule;
use crate::snapshot::model::Snapshot;

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

impl Drift<'_, '_> {
    pub(super) fn identity(&mut self, snapshot: &Snapshot, package: &PackageReport) {
        let pairs = [
            ("name", Some(snapshot.plugin.name.clone()), package.plugin.name.clone()),
            (
                "version",
                snapshot.plugin.version.clone(),
                package.plugin.version.clone(),
            ),
            ("spec", Some(snapshot.plugin.spec.clone()), package.plugin.spec.clone()),
        ];
        for (member, in_snapshot, in_package) in pairs {
            if in_snapshot != in_package {
                let show = |v: &Option<String>| v.clone().unwrap_or_else(|| "(none)".into());
                self.row(Difference {
                    rule: &IDENTITY_DRIFT,
                    subject: format!("plugin.{member}"),
                    snapshot: in_snapshot.clone(),
                    package: in_package.clone(),
                    fix: FixSide::Snapshot,
                    message: format!(
                        "plugin.{member} is {} in the snapshot and {} in plugin.json",
                        show(&in_snapshot),
                        show(&in_package)
                    ),
                    pointer: &format!("/plugin/{member}"),
                });
            }
        }
    }

    pub(super) fn identity_in_schemas(&mut self, snapshot: &Snapshot) {
        for (i, tool) in snapshot.tools.iter().enumerate() {
            let Some(schema) = tool.input_schema().and_then(Value::as_object) else {
                continue;
            };
            for member in ["name", "version"].into_iter().filter(|m| schema.contains_key(*m)) {
                let value = schema[member].to_string();
                self.row(Difference {
                    rule: &IDENTITY_IN_INPUT_SCHEMA,
                    subject: format!("tool {} inputSchema.{member}", tool.qualified_name()),
                    snapshot: Some(value.clone()),
                    package: None,
                    fix: FixSide::Snapshot,
                    message: format!(
                        "the inputSchema of `{}` has a top-level `{member}` ({value}), which is not a schema keyword",
                        tool.qualified_name()
                    ),
                    pointer: &format!("/tools/{i}/inputSchema/{member}"),
                });
            }
        }
    }
}
