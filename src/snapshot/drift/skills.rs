//! Skills: the snapshot's against what the package check discovers (AP703-AP706).

use super::examples::{DriftRule, MCP_JSON, PACKAGE, PLUGIN_JSON, SNAPSHOT, drift_rule};
use super::report::{Difference, Drift, FixSide};
use crate::report::{PackageReport, SkillState};
use crate::rule::Rule;
use crate::snapshot::model::Snapshot;

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

impl Drift<'_, '_> {
    pub(super) fn skills(&mut self, snapshot: &Snapshot, package: &PackageReport) {
        let entries = &package.skills.entries;
        for (i, skill) in snapshot.skills.iter().enumerate() {
            let pointer = format!("/skills/{i}");
            let matching = entries
                .iter()
                .find(|e| e.name.as_deref() == Some(skill.name.as_str()) || e.path == skill.path);
            match matching {
                None => self.row(Difference {
                    rule: &SKILL_NOT_IN_PACKAGE,
                    subject: format!("skill {}", skill.name),
                    snapshot: Some(skill.path.clone()),
                    package: None,
                    fix: FixSide::Snapshot,
                    message: format!(
                        "skill `{}` is in the snapshot but the package has no such skill",
                        skill.name
                    ),
                    pointer: &pointer,
                }),
                Some(entry) if entry.state == SkillState::Skipped => {
                    let reason = entry.reason.clone().unwrap_or_else(|| "does not conform".into());
                    self.row(Difference {
                        rule: &SKILL_SKIPPED_BY_PACKAGE,
                        subject: format!("skill {}", skill.name),
                        snapshot: Some("metadata".into()),
                        package: Some(format!("skipped: {reason}")),
                        fix: FixSide::Package,
                        message: format!(
                            "skill `{}` is in the snapshot but clients skip it: {reason}",
                            skill.name
                        ),
                        pointer: &pointer,
                    });
                    let path = entry.path.clone();
                    self.explain(package, |d| d.file.as_deref() == Some(path.as_str()));
                }
                Some(entry) => {
                    if entry.name.as_deref() != Some(skill.name.as_str()) {
                        self.row(Difference {
                            rule: &SKILL_METADATA_DRIFT,
                            subject: format!("skill {} name", skill.name),
                            snapshot: Some(skill.name.clone()),
                            package: entry.name.clone(),
                            fix: FixSide::Snapshot,
                            message: format!(
                                "skill at {} is named `{}` in the snapshot and `{}` in SKILL.md",
                                skill.path,
                                skill.name,
                                entry.name.as_deref().unwrap_or("")
                            ),
                            pointer: &format!("{pointer}/name"),
                        });
                    }
                    if entry.description.as_deref() != Some(skill.description.as_str()) {
                        self.row(Difference {
                            rule: &SKILL_METADATA_DRIFT,
                            subject: format!("skill {} description", skill.name),
                            snapshot: Some(skill.description.clone()),
                            package: entry.description.clone(),
                            fix: FixSide::Snapshot,
                            message: format!("skill `{}` has another description in SKILL.md", skill.name),
                            pointer: &format!("{pointer}/description"),
                        });
                    }
                    if entry.path != skill.path {
                        self.row(Difference {
                            rule: &SKILL_METADATA_DRIFT,
                            subject: format!("skill {} path", skill.name),
                            snapshot: Some(skill.path.clone()),
                            package: Some(entry.path.clone()),
                            fix: FixSide::Snapshot,
                            message: format!("skill `{}` lives at {}, not {}", skill.name, entry.path, skill.path),
                            pointer: &format!("{pointer}/path"),
                        });
                    }
                }
            }
        }
        for entry in entries.iter().filter(|e| e.state == SkillState::Discovered) {
            let listed = snapshot
                .skills
                .iter()
                .any(|s| Some(s.name.as_str()) == entry.name.as_deref() || s.path == entry.path);
            if !listed {
                let name = entry.name.clone().unwrap_or_else(|| entry.dir.clone());
                self.row(Difference {
                    rule: &SKILL_MISSING_FROM_SNAPSHOT,
                    subject: format!("skill {name}"),
                    snapshot: None,
                    package: Some(entry.path.clone()),
                    fix: FixSide::Snapshot,
                    message: format!(
                        "the package discovers skill `{name}` ({}) but the snapshot does not hold it",
                        entry.path
                    ),
                    pointer: "/skills",
                });
            }
        }
    }
}
