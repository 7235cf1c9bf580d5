//! AP701: a rejected package, which no snapshot can match.

use super::examples::{DriftRule, MCP_JSON, SKILL_MD, SNAPSHOT, drift_rule};
use super::report::{Difference, Drift, FixSide};
use crate::diag::Severity;
use crate::report::PackageReport;
use crate::rule::Rule;
use crate::snapshot::model::Snapshot;
use crate::tree::path_from_root;

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

impl Drift<'_, '_> {
    /// The one row of a rejected package, with the errors that reject it.
    pub(super) fn rejected(&mut self, snapshot: &Snapshot, package: &PackageReport) {
        let why: Vec<String> = package
            .diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .map(|d| match (&d.file, d.line) {
                (Some(file), Some(line)) => format!("{} in {}:{line}", d.code, path_from_root(self.root, file)),
                (Some(file), None) => format!("{} in {}", d.code, path_from_root(self.root, file)),
                _ => d.code.to_string(),
            })
            .collect();
        self.row(Difference {
            rule: &PACKAGE_REJECTED,
            subject: "plugin".into(),
            snapshot: Some(snapshot.plugin.name.clone()),
            package: Some("rejected".into()),
            fix: FixSide::Package,
            message: if why.is_empty() {
                "the package is rejected, so no client holds this snapshot".to_string()
            } else {
                format!(
                    "the package is rejected ({}), so no client holds this snapshot",
                    why.join("; ")
                )
            },
            pointer: "/plugin",
        });
        self.explain(package, |d| d.severity == Severity::Error);
    }
}
