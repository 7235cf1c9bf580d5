//! `apcheck drift SNAPSHOT PLUGIN`: the snapshot and the packaging files side
//! by side. The package check says what a client would load; every difference
//! from the snapshot is a row naming both values and the side to fix: the
//! snapshot when it is merely stale (rebuild it with `apcheck snapshot`), the
//! package when it is broken or holds runtime state that belongs to a client.

use serde::Serialize;
use serde_json::Value;

use super::lint::check_snapshot;
use super::model::{ConnectionStatus, Snapshot};
use crate::diag::{Diagnostic, Severity};
use crate::exit::Exit;
use crate::json::{JsonDoc, parse::push_token, parse_document};
use crate::report::{McpState, PackageReport, PluginState, ServerState, SkillState, sort_diagnostics};
use crate::rule::Rule;
use crate::rules::unread::{NEEDED_PATH_NOT_READ, PATH_UNREADABLE};
use crate::source::json::JsonSource;
use crate::tree::{Tree, path_from_root};

mod rules;

pub use rules::{
    IDENTITY_DRIFT, IDENTITY_IN_INPUT_SCHEMA, PACKAGE_REJECTED, RULES, RUNTIME_STATE_IN_PACKAGING,
    SERVER_INVALID_IN_PACKAGE, SERVER_SET_DRIFT, SERVER_TYPE_DRIFT, SKILL_METADATA_DRIFT, SKILL_MISSING_FROM_SNAPSHOT,
    SKILL_NOT_IN_PACKAGE, SKILL_SKIPPED_BY_PACKAGE,
};

/// Members only a running client knows; in packaging files they are drift.
const RUNTIME_MEMBERS: &[&str] = &[
    "status",
    "connected",
    "loaded",
    "tools",
    "inputSchema",
    "outputSchema",
    "protocolVersion",
];

/// Which side of a difference to change.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum FixSide {
    /// The snapshot is stale: rebuild it.
    Snapshot,
    /// The packaging files are wrong.
    Package,
}

/// One difference, side by side.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DriftRow {
    pub code: &'static str,
    /// What differs: `plugin.version`, `skill write-weekly-summary`, `server invoice-tools`.
    pub subject: String,
    /// The value in the snapshot; `None` when absent there.
    pub snapshot: Option<String>,
    /// The value in the packaging files; `None` when absent there.
    pub package: Option<String>,
    pub fix: FixSide,
}

#[derive(Debug, Clone, Serialize)]
pub struct DriftReport {
    pub rows: Vec<DriftRow>,
    /// Snapshot lint findings, package findings that explain a row, then the drift.
    pub diagnostics: Vec<Diagnostic>,
    /// What could not be read, so was not compared: the snapshot file when it
    /// is not a valid snapshot, or package paths the check could not read
    /// (`PackageReport::unread`). When any, no rows does not mean "no drift",
    /// and the run fails.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub not_compared: Vec<String>,
}

impl DriftReport {
    pub fn has_drift(&self) -> bool {
        !self.rows.is_empty()
    }

    /// The run's outcome: drift is an error-level finding on its own, and
    /// lint errors count too. What was not compared fails as well: no drift
    /// found over a gap is not "no drift".
    pub fn exit(&self) -> Exit {
        if self.has_drift() || !self.not_compared.is_empty() {
            Exit::Findings
        } else {
            crate::exit::for_diagnostics(&self.diagnostics)
        }
    }
}

/// Compares snapshot `text` (file `name`) with the package in `tree` (root `root`).
pub fn drift(name: &str, text: &str, root: &str, tree: &Tree) -> DriftReport {
    let check = check_snapshot(name, text, Some(tree));
    let mut report = DriftReport {
        rows: Vec::new(),
        diagnostics: check.diagnostics,
        not_compared: Vec::new(),
    };
    let (Some(snapshot), Some(doc)) = (check.snapshot, check.document) else {
        report.not_compared.push(name.to_string());
        return report;
    };
    let located = JsonSource::new(name, text, doc);
    let package = crate::check_package(root, tree);
    report
        .not_compared
        .extend(package.unread.iter().map(|path| path_from_root(root, path)));
    let mut drift = Drift {
        located: &located,
        root,
        report: &mut report,
    };
    // What could not be read is shown with why, so "Not compared" has its errors to see.
    let unread = |d: &Diagnostic| {
        [PATH_UNREADABLE.code, NEEDED_PATH_NOT_READ.code].contains(&d.code)
            || d.file.as_ref().is_some_and(|file| package.unread.contains(file))
    };
    drift.explain(&package, unread);
    if package.plugin.state == PluginState::Rejected {
        let why: Vec<String> = package
            .diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .map(|d| match (&d.file, d.line) {
                (Some(file), Some(line)) => format!("{} in {}:{line}", d.code, path_from_root(root, file)),
                (Some(file), None) => format!("{} in {}", d.code, path_from_root(root, file)),
                _ => d.code.to_string(),
            })
            .collect();
        drift.row(Difference {
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
        drift.explain(&package, |d| d.severity == Severity::Error);
    } else {
        drift.identity(&snapshot, &package);
        drift.skills(&snapshot, &package);
        drift.servers(&snapshot, &package);
        drift.runtime_state(tree);
    }
    drift.identity_in_schemas(&snapshot);
    sort_diagnostics(&mut report.diagnostics);
    report
}

/// A difference found: its row, and the diagnostic at `pointer` in the snapshot.
struct Difference<'p> {
    rule: &'static Rule,
    subject: String,
    snapshot: Option<String>,
    package: Option<String>,
    fix: FixSide,
    message: String,
    pointer: &'p str,
}

struct Drift<'a, 'r> {
    located: &'a JsonSource<'a>,
    /// The plugin root as the caller named it; package files are shown under it.
    root: &'a str,
    report: &'r mut DriftReport,
}

impl Drift<'_, '_> {
    fn row(&mut self, difference: Difference<'_>) {
        let Difference {
            rule,
            subject,
            snapshot,
            package,
            fix,
            message,
            pointer,
        } = difference;
        self.report.rows.push(DriftRow {
            code: rule.code,
            subject,
            snapshot,
            package,
            fix,
        });
        self.report
            .diagnostics
            .push(self.located.at_value(rule, pointer, message));
    }

    /// Adds the package findings that explain a row (why a skill or server is skipped).
    fn explain(&mut self, package: &PackageReport, keep: impl Fn(&Diagnostic) -> bool) {
        let known: Vec<Diagnostic> = package
            .diagnostics
            .iter()
            .filter(|d| keep(d))
            .map(|d| {
                let mut d = d.clone();
                d.file = d.file.map(|file| path_from_root(self.root, &file));
                d
            })
            .collect();
        for diagnostic in known {
            if !self.report.diagnostics.contains(&diagnostic) {
                self.report.diagnostics.push(diagnostic);
            }
        }
    }

    fn identity(&mut self, snapshot: &Snapshot, package: &PackageReport) {
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

    fn skills(&mut self, snapshot: &Snapshot, package: &PackageReport) {
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

    fn servers(&mut self, snapshot: &Snapshot, package: &PackageReport) {
        let disabled = package.mcp.state == McpState::Disabled;
        for (i, server) in snapshot.servers.iter().enumerate() {
            let pointer = format!("/mcpServers/{i}");
            let entry = package.mcp.servers.iter().find(|e| e.id == server.id);
            if disabled && server.status != ConnectionStatus::Skipped {
                self.row(Difference {
                    rule: &SERVER_INVALID_IN_PACKAGE,
                    subject: format!("server {}", server.id),
                    snapshot: Some(server.status.as_str().into()),
                    package: Some("mcp.json disabled".into()),
                    fix: FixSide::Package,
                    message: format!(
                        "server `{}` is in the snapshot but mcp.json is invalid, so MCP is disabled",
                        server.id
                    ),
                    pointer: &pointer,
                });
                self.explain(package, |d| {
                    d.file.as_deref() == Some("mcp.json") && d.severity == Severity::Error
                });
                continue;
            }
            match entry {
                None => self.row(Difference {
                    rule: &SERVER_SET_DRIFT,
                    subject: format!("server {}", server.id),
                    snapshot: Some(server.status.as_str().into()),
                    package: None,
                    fix: FixSide::Snapshot,
                    message: format!("server `{}` is in the snapshot but not in mcp.json", server.id),
                    pointer: &format!("{pointer}/id"),
                }),
                Some(entry) if entry.state == ServerState::Invalid && server.status != ConnectionStatus::Skipped => {
                    let reason = entry.reason.clone().unwrap_or_else(|| "invalid entry".into());
                    self.row(Difference {
                        rule: &SERVER_INVALID_IN_PACKAGE,
                        subject: format!("server {}", server.id),
                        snapshot: Some(server.status.as_str().into()),
                        package: Some(format!("invalid: {reason}")),
                        fix: FixSide::Package,
                        message: format!(
                            "server `{}` is {} in the snapshot but its mcp.json entry is invalid: {reason}",
                            server.id,
                            server.status.as_str()
                        ),
                        pointer: &format!("{pointer}/status"),
                    });
                    let mut entry_pointer = "/mcpServers".to_string();
                    push_token(&mut entry_pointer, &server.id);
                    self.explain(package, |d| {
                        d.file.as_deref() == Some("mcp.json")
                            && d.severity == Severity::Error
                            && d.pointer
                                .as_deref()
                                .is_some_and(|p| p == entry_pointer || p.starts_with(&format!("{entry_pointer}/")))
                    });
                }
                Some(entry) if entry.transport != server.transport && entry.state == ServerState::Valid => {
                    self.row(Difference {
                        rule: &SERVER_TYPE_DRIFT,
                        subject: format!("server {} type", server.id),
                        snapshot: server.transport.clone(),
                        package: entry.transport.clone(),
                        fix: FixSide::Snapshot,
                        message: format!(
                            "server `{}` is {} in the snapshot and {} in mcp.json",
                            server.id,
                            server.transport.as_deref().unwrap_or("(no type)"),
                            entry.transport.as_deref().unwrap_or("(no type)")
                        ),
                        pointer: &format!("{pointer}/type"),
                    })
                }
                Some(_) => {}
            }
        }
        for entry in &package.mcp.servers {
            if snapshot.server(&entry.id).is_none() {
                self.row(Difference {
                    rule: &SERVER_SET_DRIFT,
                    subject: format!("server {}", entry.id),
                    snapshot: None,
                    package: entry.transport.clone(),
                    fix: FixSide::Snapshot,
                    message: format!(
                        "mcp.json declares server `{}` but the snapshot does not list it",
                        entry.id
                    ),
                    pointer: "/mcpServers",
                });
            }
        }
    }

    /// Runtime state typed into plugin.json or mcp.json (the classic drift).
    fn runtime_state(&mut self, tree: &Tree) {
        for file in ["plugin.json", "mcp.json"] {
            let Some(text) = tree.read(file).and_then(|bytes| std::str::from_utf8(bytes).ok()) else {
                continue;
            };
            let Ok(doc) = parse_document(text) else { continue };
            let shown = path_from_root(self.root, file);
            let located = JsonSource::new(&shown, text, doc);
            let doc = &located.doc;
            let mut places: Vec<String> = vec![String::new()];
            let servers = doc.value.get("mcpServers").and_then(Value::as_object);
            if let Some(servers) = servers.filter(|_| file == "mcp.json") {
                for id in servers.keys() {
                    let mut pointer = "/mcpServers".to_string();
                    push_token(&mut pointer, id);
                    places.push(pointer);
                }
            }
            for place in places {
                self.runtime_members(&located, doc, file, &place);
            }
        }
    }

    fn runtime_members(&mut self, located: &JsonSource<'_>, doc: &JsonDoc, file: &str, place: &str) {
        let Some(members) = doc.value.pointer(place).and_then(Value::as_object) else {
            return;
        };
        for key in members.keys().filter(|k| RUNTIME_MEMBERS.contains(&k.as_str())) {
            let mut pointer = place.to_string();
            push_token(&mut pointer, key);
            let message = if key == "tools" {
                format!("{file} has a `tools` list typed in: tools come from the server's tools/list at runtime")
            } else {
                format!(
                    "{file} holds runtime state `{key}` at {}",
                    if place.is_empty() { "the top" } else { place }
                )
            };
            self.report.rows.push(DriftRow {
                code: RUNTIME_STATE_IN_PACKAGING.code,
                subject: format!("{file} {pointer}"),
                snapshot: None,
                package: Some(key.clone()),
                fix: FixSide::Package,
            });
            self.report
                .diagnostics
                .push(located.at_key(&RUNTIME_STATE_IN_PACKAGING, &pointer, message));
        }
    }

    fn identity_in_schemas(&mut self, snapshot: &Snapshot) {
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

#[cfg(test)]
mod tests {
    use super::rules::{MCP_JSON, PLUGIN_JSON, SKILL_MD, SNAPSHOT};
    use super::*;

    fn with_mcp(mcp: &str) -> Tree {
        Tree::from_files([
            ("plugin.json", PLUGIN_JSON),
            ("mcp.json", mcp),
            ("skills/write-weekly-summary/SKILL.md", SKILL_MD),
        ])
    }

    /// Agent Plugins §7.2.1: server entries are closed; `status` written back is runtime state.
    #[test]
    fn runtime_state_in_a_server_entry_is_found_at_its_key() {
        let mcp = "{\"$schema\": \"https://agent-plugins.org/schemas/1.0.0/mcp.schema.json\",\n \"mcpServers\": {\"invoice-tools\": {\"type\": \"streamable-http\", \"url\": \"https://billing.example.com/mcp\",\n   \"status\": \"connected\"}}}";
        let report = drift("snapshot.json", SNAPSHOT, "plugins/invoice-ops", &with_mcp(mcp));
        let row = report
            .rows
            .iter()
            .find(|r| r.code == "AP710")
            .expect("a runtime-state row");
        assert_eq!(row.fix, FixSide::Package);
        assert_eq!(report.exit(), Exit::Findings);
        let finding = report.diagnostics.iter().find(|d| d.code == "AP710").unwrap();
        assert_eq!(finding.file.as_deref(), Some("plugins/invoice-ops/mcp.json"));
        assert_eq!((finding.line, finding.column), (Some(3), Some(4)));
    }

    #[test]
    fn a_clean_pair_has_no_rows_and_no_findings() {
        let report = drift("snapshot.json", SNAPSHOT, "invoice-ops", &with_mcp(MCP_JSON));
        assert!(!report.has_drift(), "{:#?}", report.rows);
        assert!(report.diagnostics.is_empty(), "{:#?}", report.diagnostics);
        assert_eq!(report.exit(), Exit::Clean);
    }

    #[test]
    fn a_package_path_that_could_not_be_read_is_not_compared_and_fails() {
        // "Not compared: … could not be read" used to exit 0: a drift check that missed a path passed.
        let mut tree = with_mcp(MCP_JSON);
        tree.insert("docs", crate::tree::Entry::Dir);
        tree.mark_unlisted("docs", "permission denied");
        let report = drift("snapshot.json", SNAPSHOT, "invoice-ops", &tree);
        assert!(!report.has_drift(), "{:#?}", report.rows);
        assert_eq!(report.not_compared, ["invoice-ops/docs"]);
        assert_eq!(report.exit(), Exit::Findings);
        let why: Vec<(&str, Option<&str>)> = report.diagnostics.iter().map(|d| (d.code, d.file.as_deref())).collect();
        assert_eq!(why, [("AP010", Some("invoice-ops/docs"))]);
    }

    #[test]
    fn an_invalid_snapshot_stops_before_the_package_is_read() {
        let report = drift("snapshot.json", "{", "invoice-ops", &Tree::new());
        assert!(report.rows.is_empty());
        assert_eq!(report.diagnostics[0].code, "AP601");
    }
}
