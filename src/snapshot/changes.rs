//! `apcheck changes OLD NEW`: what a change to a snapshot fixture means for
//! the plugin's users, for code review. Tools added, removed, renamed; input
//! and output schema changes classified for callers; skills and servers added,
//! removed, changed. The highest level is held against the `plugin.version`
//! bump (§10.2): breaking without a major bump is an error, a feature without
//! a minor bump a warning. For 0.y.z versions the Cargo convention applies:
//! a `y` bump is major, a `z` bump covers features and fixes.

use std::collections::{BTreeMap, VecDeque};

use foldhash::HashMap;
use serde::Serialize;
use serde_json::Value;

#[cfg(not(target_arch = "wasm32"))]
use jsonschema::json::{Array, Node};
#[cfg(not(target_arch = "wasm32"))]
use serde::Deserialize;

#[cfg(not(target_arch = "wasm32"))]
use super::lint::check_scanned;
use super::lint::{SnapshotCheck, check_snapshot};
use super::model::{ConnectionStatus, SkillMetadata, Snapshot, Tool};
use super::schema_diff::{Level, diff_input_schema, diff_output_schema};
use crate::diag::{Diagnostic, Severity};
use crate::json::diff::value;
#[cfg(not(target_arch = "wasm32"))]
use crate::json::lean::{LeanDoc, LeanNode};
use crate::rule::{Example, Family, Rule};
use crate::source::json::JsonSource;

const OLD: &str = r#"{"plugin": {"name": "invoice-ops", "version": "1.2.0", "spec": "1.0.0"}, "skills": [],
  "mcpServers": [{"id": "invoice-tools", "type": "streamable-http", "status": "connected"}],
  "tools": [{"name": "query_invoices", "server": "invoice-tools",
             "inputSchema": {"type": "object", "required": ["week"], "properties": {"week": {"type": "string"}, "status": {"type": "string", "enum": ["open", "paid", "overdue"]}}}}]}"#;

pub static BREAKING_WITHOUT_MAJOR: Rule = Rule {
    code: "AP801",
    name: "breaking-change-without-major-bump",
    severity: Severity::Error,
    spec: "Agent Plugins §10.2",
    summary: "A breaking change ships without a major version bump",
    fix_hint: Some("Bump the major version in plugin.json (and rebuild the snapshot), or make the change compatible."),
    doc: rule_doc! {
        what: "Changes that break existing callers or users (a tool removed or renamed, a new required argument, a removed enum value, a stricter bound, a skill or server removed) while `plugin.version` does not change its major segment.",
        why: "§10.2 reserves the major segment for breaking changes; clients and users use the version to judge whether an update is safe to take.",
        failing: Example::Changes {
            old: OLD,
            new: r#"{"plugin": {"name": "invoice-ops", "version": "1.3.0", "spec": "1.0.0"}, "skills": [],
  "mcpServers": [{"id": "invoice-tools", "type": "streamable-http", "status": "connected"}],
  "tools": [{"name": "query_invoices", "server": "invoice-tools",
             "inputSchema": {"type": "object", "required": ["week"], "properties": {"week": {"type": "string"}, "status": {"type": "string", "enum": ["open", "paid"]}}}}]}"#,
        },
        fixed: Example::Changes {
            old: OLD,
            new: r#"{"plugin": {"name": "invoice-ops", "version": "2.0.0", "spec": "1.0.0"}, "skills": [],
  "mcpServers": [{"id": "invoice-tools", "type": "streamable-http", "status": "connected"}],
  "tools": [{"name": "query_invoices", "server": "invoice-tools",
             "inputSchema": {"type": "object", "required": ["week"], "properties": {"week": {"type": "string"}, "status": {"type": "string", "enum": ["open", "paid"]}}}}]}"#,
        },
    },
};

pub static FEATURE_WITHOUT_MINOR: Rule = Rule {
    code: "AP802",
    name: "feature-without-minor-bump",
    severity: Severity::Warning,
    spec: "Agent Plugins §10.2",
    summary: "A backward-compatible addition ships without a minor version bump",
    fix_hint: Some("Bump the minor version in plugin.json so clients see there is something new."),
    doc: rule_doc! {
        what: "Additions that old callers can ignore (a new tool, skill or server, a new optional argument, a widened enum) with only a patch bump or none.",
        why: "§10.2: minor for backward-compatible features; clients use the version to decide whether caches are stale.",
        failing: Example::Changes {
            old: OLD,
            new: r#"{"plugin": {"name": "invoice-ops", "version": "1.2.1", "spec": "1.0.0"}, "skills": [],
  "mcpServers": [{"id": "invoice-tools", "type": "streamable-http", "status": "connected"}],
  "tools": [{"name": "query_invoices", "server": "invoice-tools",
             "inputSchema": {"type": "object", "required": ["week"], "properties": {"week": {"type": "string"}, "status": {"type": "string", "enum": ["open", "paid", "overdue", "void"]}}}}]}"#,
        },
        fixed: Example::Changes {
            old: OLD,
            new: r#"{"plugin": {"name": "invoice-ops", "version": "1.3.0", "spec": "1.0.0"}, "skills": [],
  "mcpServers": [{"id": "invoice-tools", "type": "streamable-http", "status": "connected"}],
  "tools": [{"name": "query_invoices", "server": "invoice-tools",
             "inputSchema": {"type": "object", "required": ["week"], "properties": {"week": {"type": "string"}, "status": {"type": "string", "enum": ["open", "paid", "overdue", "void"]}}}}]}"#,
        },
    },
};

pub static VERSION_NOT_SEMVER: Rule = Rule {
    code: "AP803",
    name: "changes-version-not-semver",
    severity: Severity::Warning,
    spec: "Agent Plugins §10.2",
    summary: "The plugin version is missing or not SemVer, so changes cannot be held against it",
    fix_hint: Some("Give plugin.json a Semantic Versioning `version` such as 1.2.0."),
    doc: rule_doc! {
        what: "That both snapshots carry a `plugin.version` that parses as Semantic Versioning 2.0.0 (with \
               numbers up to 2^64 − 1, the parser's limit; the message gives the parser's reason).",
        why: "§10.2: plugins SHOULD use SemVer. Without it, nobody (client, reviewer or this check) can tell a breaking update from a fix.",
        failing: Example::Changes {
            old: OLD,
            new: r#"{"plugin": {"name": "invoice-ops", "version": "2026-03", "spec": "1.0.0"}, "skills": [],
  "mcpServers": [{"id": "invoice-tools", "type": "streamable-http", "status": "connected"}],
  "tools": [{"name": "query_invoices", "server": "invoice-tools",
             "inputSchema": {"type": "object", "required": ["week"], "properties": {"week": {"type": "string"}, "status": {"type": "string", "enum": ["open", "paid", "overdue"]}}}}]}"#,
        },
        fixed: Example::Changes { old: OLD, new: OLD },
    },
};

pub static VERSION_DECREASED: Rule = Rule {
    code: "AP804",
    name: "version-decreased",
    severity: Severity::Error,
    spec: "Agent Plugins §10.2",
    summary: "The new snapshot's plugin version is lower than the old one's",
    fix_hint: Some("Versions only go up; check that OLD and NEW are in the right order."),
    doc: rule_doc! {
        what: "That the new `plugin.version` is not lower than the old one in SemVer precedence.",
        why: "Clients compare versions to find updates (§10.2); a lower version looks like a downgrade and is not offered.",
        failing: Example::Changes {
            old: OLD,
            new: r#"{"plugin": {"name": "invoice-ops", "version": "1.1.0", "spec": "1.0.0"}, "skills": [],
  "mcpServers": [{"id": "invoice-tools", "type": "streamable-http", "status": "connected"}],
  "tools": [{"name": "query_invoices", "server": "invoice-tools",
             "inputSchema": {"type": "object", "required": ["week"], "properties": {"week": {"type": "string"}, "status": {"type": "string", "enum": ["open", "paid", "overdue"]}}}}]}"#,
        },
        fixed: Example::Changes { old: OLD, new: OLD },
    },
};

pub static CHANGE_WITHOUT_BUMP: Rule = Rule {
    code: "AP805",
    name: "change-without-version-bump",
    severity: Severity::Warning,
    spec: "Agent Plugins §10.2",
    summary: "The snapshot changed but the plugin version did not",
    fix_hint: Some("Bump at least the patch version so clients can tell their cache is stale."),
    doc: rule_doc! {
        what: "Patch-level changes (a tool or skill description, a schema annotation) under an unchanged `plugin.version`.",
        why: "§10.2: clients may use the version to decide whether caches are stale; an unchanged version keeps the old descriptions in front of the model.",
        failing: Example::Changes {
            old: OLD,
            new: r#"{"plugin": {"name": "invoice-ops", "version": "1.2.0", "spec": "1.0.0"}, "skills": [],
  "mcpServers": [{"id": "invoice-tools", "type": "streamable-http", "status": "connected"}],
  "tools": [{"name": "query_invoices", "server": "invoice-tools", "description": "Query invoices by ISO week.",
             "inputSchema": {"type": "object", "required": ["week"], "properties": {"week": {"type": "string"}, "status": {"type": "string", "enum": ["open", "paid", "overdue"]}}}}]}"#,
        },
        fixed: Example::Changes {
            old: OLD,
            new: r#"{"plugin": {"name": "invoice-ops", "version": "1.2.1", "spec": "1.0.0"}, "skills": [],
  "mcpServers": [{"id": "invoice-tools", "type": "streamable-http", "status": "connected"}],
  "tools": [{"name": "query_invoices", "server": "invoice-tools", "description": "Query invoices by ISO week.",
             "inputSchema": {"type": "object", "required": ["week"], "properties": {"week": {"type": "string"}, "status": {"type": "string", "enum": ["open", "paid", "overdue"]}}}}]}"#,
        },
    },
};

pub static RULES: &[&Rule] = &[
    &BREAKING_WITHOUT_MAJOR,
    &FEATURE_WITHOUT_MINOR,
    &VERSION_NOT_SEMVER,
    &VERSION_DECREASED,
    &CHANGE_WITHOUT_BUMP,
];

/// One change between the two snapshots.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Change {
    /// `tool-added`, `tool-removed`, `tool-renamed`, `tool-input-schema`,
    /// `tool-output-schema`, `tool-description`, `tool-metadata`, `skill-added`,
    /// `skill-removed`, `skill-description`, `skill-path`, `server-added`,
    /// `server-removed`, `server-type`, `plugin-name`, `plugin-spec`.
    pub kind: &'static str,
    /// What changed: `server/tool`, a skill name, a server id.
    pub subject: String,
    pub level: Level,
    pub detail: String,
    /// Which snapshot and where the change shows: `new` for additions and
    /// changes, `old` for removals.
    #[serde(skip)]
    location: (Side, String),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Side {
    Old,
    New,
}

/// The change report: every change, the level they demand, the bump made.
#[derive(Debug, Clone, Serialize)]
pub struct ChangeReport {
    pub old_version: Option<String>,
    pub new_version: Option<String>,
    pub changes: Vec<Change>,
    /// The highest level among the changes; `None` when nothing changed.
    pub required: Option<Level>,
    /// The level of the version bump; `None` when unchanged or not SemVer.
    pub bump: Option<Level>,
    /// Whether the bump is at least the level the changes need (§10.2): true
    /// when nothing changed, `None` when the snapshots could not be compared.
    pub bump_covers_changes: Option<bool>,
    /// Lint findings in either snapshot, then the version verdict.
    pub diagnostics: Vec<Diagnostic>,
    /// The files that could not be read as snapshots (their errors are in
    /// `diagnostics`): when any, nothing was compared, and `required: None`
    /// does not mean "no changes".
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub not_compared: Vec<String>,
}

impl ChangeReport {
    /// Whether the version bump covers the changes: no finding of the change
    /// family (AP8xx) holds the changes against the version.
    pub fn bump_covers_changes(&self) -> bool {
        !self.diagnostics.iter().any(|d| d.family() == Some(Family::Changes))
    }
}

/// Compares snapshot `old_text` (file `old_name`) with `new_text`.
pub fn compare(old_name: &str, old_text: &str, new_name: &str, new_text: &str) -> ChangeReport {
    let (old_check, new_check) = lint_pair(old_name, old_text, new_name, new_text);
    let mut diagnostics: Vec<Diagnostic> = old_check
        .diagnostics
        .into_iter()
        .chain(new_check.diagnostics)
        .filter(|d| d.severity == Severity::Error)
        .collect();
    let invalid = [
        (old_name, old_check.snapshot.is_none()),
        (new_name, new_check.snapshot.is_none()),
    ];
    let (Some(old), Some(new), Some(old_doc), Some(new_doc)) = (
        old_check.snapshot,
        new_check.snapshot,
        old_check.document,
        new_check.document,
    ) else {
        let not_compared = invalid
            .into_iter()
            .filter(|(_, invalid)| *invalid)
            .map(|(name, _)| name.to_string())
            .collect();
        return ChangeReport {
            old_version: None,
            new_version: None,
            changes: Vec::new(),
            required: None,
            bump: None,
            bump_covers_changes: None,
            diagnostics,
            not_compared,
        };
    };
    let changes = snapshot_changes(&old, &new);
    let required = changes.iter().map(|c| c.level).max();
    let docs = Docs {
        old: JsonSource::new(old_name, old_text, old_doc),
        new: JsonSource::new(new_name, new_text, new_doc),
    };
    let bump = judge_versions(&old, &new, &changes, required, &docs, &mut diagnostics);
    ChangeReport {
        old_version: old.plugin.version.clone(),
        new_version: new.plugin.version.clone(),
        changes,
        required,
        bump,
        // `None` (no SemVer bump) orders below every level.
        bump_covers_changes: Some(bump >= required),
        diagnostics,
        not_compared: Vec::new(),
    }
}

/// Lints both snapshots, keeping their models and not their values.
#[cfg(target_arch = "wasm32")]
fn lint_pair(old_name: &str, old_text: &str, new_name: &str, new_text: &str) -> (SnapshotCheck, SnapshotCheck) {
    (
        without_value(check_snapshot(old_name, old_text, None)),
        without_value(check_snapshot(new_name, new_text, None)),
    )
}

/// Lints both snapshots, keeping their models and not their values. A
/// snapshot of the schema's shape is linted from a lean document
/// ([`check_scanned`]), and its model then holds the members of only the
/// tools the comparison reads (see [`read_compared_tools`]): two models of
/// every tool's members were most of the memory held.
#[cfg(not(target_arch = "wasm32"))]
fn lint_pair(old_name: &str, old_text: &str, new_name: &str, new_text: &str) -> (SnapshotCheck, SnapshotCheck) {
    let (mut old, old_lean) = lint_scanned(old_name, old_text);
    let (mut new, new_lean) = lint_scanned(new_name, new_text);
    if let (Some(old_model), Some(new_model)) = (&mut old.snapshot, &mut new.snapshot) {
        read_compared_tools(old_model, old_lean.as_ref(), new_model, new_lean.as_ref());
    }
    (old, new)
}

/// The lint of one snapshot and, when its model's tools hold only their name
/// and server, the lean document their members are read from.
#[cfg(not(target_arch = "wasm32"))]
fn lint_scanned<'t>(name: &str, text: &'t str) -> (SnapshotCheck, Option<LeanDoc<'t>>) {
    if let Some(lean) = LeanDoc::parse(text)
        && let Some(check) = check_scanned(name, text, &lean, None)
    {
        return (without_value(check), Some(lean));
    }
    (without_value(check_snapshot(name, text, None)), None)
}

/// Reads the members of the tools that [`snapshot_changes`] compares into
/// the models whose tools hold only name and server (those with a lean
/// document): a tool without a counterpart (removed, added, maybe renamed),
/// and a tool spelled otherwise than its counterpart, and so its
/// counterpart. The others stay as they are: a tool spelled byte for byte as
/// its counterpart has no change, and two tools without members compare
/// alike too. A model without a lean document holds every member already;
/// against it every tool of the other model is read.
#[cfg(not(target_arch = "wasm32"))]
fn read_compared_tools(
    old: &mut Snapshot,
    old_lean: Option<&LeanDoc<'_>>,
    new: &mut Snapshot,
    new_lean: Option<&LeanDoc<'_>>,
) {
    let (old_nodes, new_nodes) = (old_lean.map(tool_nodes), new_lean.map(tool_nodes));
    let mut read_old = vec![false; old.tools.len()];
    let mut read_new = vec![false; new.tools.len()];
    let counterparts: Vec<Option<usize>> = {
        let (old_by_key, new_by_key) = (tool_index(old), tool_index(new));
        for (read, tool) in read_old.iter_mut().zip(&old.tools) {
            *read = !new_by_key.contains_key(&(tool.server.as_str(), tool.name.as_str()));
        }
        new.tools
            .iter()
            .map(|tool| old_by_key.get(&(tool.server.as_str(), tool.name.as_str())).copied())
            .collect()
    };
    for (i, counterpart) in counterparts.iter().enumerate() {
        match *counterpart {
            None => read_new[i] = true,
            Some(j) => {
                let alike = match (&old_nodes, &new_nodes) {
                    (Some(old_nodes), Some(new_nodes)) => old_nodes[j].spelled_alike(new_nodes[i]),
                    _ => false,
                };
                read_old[j] |= !alike;
            }
        }
    }
    for (read, counterpart) in read_new.iter_mut().zip(&counterparts) {
        *read |= counterpart.is_some_and(|j| read_old[j]);
    }
    for (tools, nodes, read) in [
        (&mut old.tools, old_nodes, read_old),
        (&mut new.tools, new_nodes, read_new),
    ] {
        let Some(nodes) = nodes else { continue };
        for ((tool, node), read) in tools.iter_mut().zip(nodes).zip(read) {
            if read {
                *tool = Tool::deserialize(node.to_value().into_owned()).expect("its lint read its name and server");
            }
        }
    }
}

/// The tools of a snapshot that [`check_scanned`] has read.
#[cfg(not(target_arch = "wasm32"))]
fn tool_nodes<'a>(lean: &'a LeanDoc<'a>) -> Vec<LeanNode<'a>> {
    let tools = lean.root().as_object().and_then(|root| root.member("tools"));
    tools
        .and_then(|tools| tools.as_array())
        .map(|tools| tools.elements().collect())
        .unwrap_or_default()
}

/// The report places its findings by the documents' spans alone (the models
/// hold what is compared), so each parsed value is freed as soon as its lint
/// is done: with two 10,000-tool snapshots, the values are the most memory held.
fn without_value(mut check: SnapshotCheck) -> SnapshotCheck {
    if let Some(document) = &mut check.document {
        document.value = Value::Null;
    }
    check
}

struct Docs<'a> {
    old: JsonSource<'a>,
    new: JsonSource<'a>,
}

impl Docs<'_> {
    fn at_value(&self, rule: &Rule, (side, pointer): &(Side, String), message: String) -> Diagnostic {
        match side {
            Side::Old => self.old.at_value(rule, pointer, message),
            Side::New => self.new.at_value(rule, pointer, message),
        }
    }
}

fn judge_versions(
    old: &Snapshot,
    new: &Snapshot,
    changes: &[Change],
    required: Option<Level>,
    docs: &Docs,
    out: &mut Vec<Diagnostic>,
) -> Option<Level> {
    let version_at = (Side::New, "/plugin/version".to_string());
    let parse = |v: &Option<String>| match v.as_deref() {
        Some(v) => semver::Version::parse(v).map_err(|error| format!("`{v}`: {error}")),
        None => Err("no version".to_string()),
    };
    let (old_version, new_version) = match (parse(&old.plugin.version), parse(&new.plugin.version)) {
        (Ok(old_version), Ok(new_version)) => (old_version, new_version),
        (old_parsed, new_parsed) => {
            let shown = |v: &Option<String>| v.clone().unwrap_or_else(|| "(none)".into());
            // The parser's own reason: "not SemVer" would be false of a
            // version whose numbers are only past what it compares (u64).
            let reasons: Vec<String> = [old_parsed.err(), new_parsed.err()].into_iter().flatten().collect();
            let mut message = format!(
                "plugin.version {} → {} cannot be compared as Semantic Versioning ({})",
                shown(&old.plugin.version),
                shown(&new.plugin.version),
                reasons.join("; ")
            );
            if let Some(required) = required {
                message.push_str(&format!(
                    "; {} change(s) needing a {} bump cannot be checked",
                    changes.len(),
                    required.as_str()
                ));
            }
            out.push(docs.at_value(&VERSION_NOT_SEMVER, &version_at, message));
            return None;
        }
    };
    // SemVer 2.0.0 §10: build metadata does not take part in precedence.
    if new_version.cmp_precedence(&old_version) == std::cmp::Ordering::Less {
        out.push(docs.at_value(
            &VERSION_DECREASED,
            &version_at,
            format!("plugin.version went down from {old_version} to {new_version}"),
        ));
        return None;
    }
    let bump = bump_level(&old_version, &new_version);
    let shown_bump = bump.map_or("no bump", Level::as_str);
    for change in changes {
        let rule = match change.level {
            Level::Major if bump < Some(Level::Major) => &BREAKING_WITHOUT_MAJOR,
            Level::Minor if bump < Some(Level::Minor) => &FEATURE_WITHOUT_MINOR,
            Level::Patch if bump.is_none() => &CHANGE_WITHOUT_BUMP,
            _ => continue,
        };
        out.push(docs.at_value(
            rule,
            &change.location,
            format!(
                "{} ({}); plugin.version {old_version} → {new_version} is {shown_bump}",
                change.detail,
                change.level.as_str()
            ),
        ));
    }
    bump
}

/// The level a version bump covers; `None` when the versions are equal.
/// Below 1.0.0 the leftmost non-zero segment is the major one (Cargo's rule).
pub fn bump_level(old: &semver::Version, new: &semver::Version) -> Option<Level> {
    let segments = |v: &semver::Version| [v.major, v.minor, v.patch];
    let (a, b) = (segments(old), segments(new));
    let first_change = (0..3).find(|&i| a[i] != b[i]);
    let Some(changed) = first_change else {
        // A pre-release step is a patch-level bump; build metadata alone is none (SemVer 2.0.0 §10).
        return (old.cmp_precedence(new) != std::cmp::Ordering::Equal).then_some(Level::Patch);
    };
    let leading = a.iter().position(|&s| s != 0).unwrap_or(2);
    Some(match changed.saturating_sub(leading.min(changed)) {
        0 => Level::Major,
        1 => Level::Minor,
        _ => Level::Patch,
    })
}

/// Every change from `old` to `new`, in review order: plugin, tools, skills, servers.
pub fn snapshot_changes(old: &Snapshot, new: &Snapshot) -> Vec<Change> {
    let mut changes = Vec::new();
    let change = |kind, subject: String, level, detail: String, location: (Side, String)| Change {
        kind,
        subject,
        level,
        detail,
        location,
    };
    if old.plugin.name != new.plugin.name {
        changes.push(change(
            "plugin-name",
            new.plugin.name.clone(),
            Level::Major,
            format!("plugin renamed from `{}` to `{}`", old.plugin.name, new.plugin.name),
            (Side::New, "/plugin/name".into()),
        ));
    }
    if old.plugin.spec != new.plugin.spec {
        changes.push(change(
            "plugin-spec",
            new.plugin.name.clone(),
            Level::Major,
            format!(
                "targets Agent Plugins {} instead of {}",
                new.plugin.spec, old.plugin.spec
            ),
            (Side::New, "/plugin/spec".into()),
        ));
    }
    tool_changes(old, new, &mut changes);
    skill_changes(old, new, &mut changes);
    server_changes(old, new, &mut changes);
    changes
}

/// Tools by `(server, name)`, so comparing two 10,000-tool snapshots stays linear-ish.
fn tool_index(snapshot: &Snapshot) -> BTreeMap<(&str, &str), usize> {
    snapshot
        .tools
        .iter()
        .enumerate()
        .map(|(i, t)| ((t.server.as_str(), t.name.as_str()), i))
        .collect()
}

fn tool_changes(old: &Snapshot, new: &Snapshot, out: &mut Vec<Change>) {
    let (old_by_key, new_by_key) = (tool_index(old), tool_index(new));
    let removed: Vec<(usize, &Tool)> = old
        .tools
        .iter()
        .enumerate()
        .filter(|(_, t)| !new_by_key.contains_key(&(t.server.as_str(), t.name.as_str())))
        .collect();
    let added: Vec<(usize, &Tool)> = new
        .tools
        .iter()
        .enumerate()
        .filter(|(_, t)| !old_by_key.contains_key(&(t.server.as_str(), t.name.as_str())))
        .collect();
    // Same server, same input schema, new name: a rename, not a removal and an
    // addition. The added tools by server and schema hash, in order, so each
    // removed one takes the first untaken match without scanning them all.
    let mut candidates: HashMap<(&str, Option<u64>), VecDeque<usize>> = HashMap::default();
    for (position, (_, tool)) in added.iter().enumerate() {
        candidates.entry(rename_key(tool)).or_default().push_back(position);
    }
    let mut renamed = vec![false; added.len()];
    let servers = new.servers_by_id();
    for (old_index, gone) in removed {
        let renamed_to = candidates.get_mut(&rename_key(gone)).and_then(|bucket| {
            let at = bucket
                .iter()
                .position(|&p| added[p].1.input_schema() == gone.input_schema())?;
            bucket.remove(at)
        });
        match renamed_to {
            Some(position) => {
                renamed[position] = true;
                let (new_index, tool) = added[position];
                out.push(Change {
                    kind: "tool-renamed",
                    subject: tool.qualified_name(),
                    level: Level::Major,
                    detail: format!("tool `{}` renamed to `{}`", gone.qualified_name(), tool.name),
                    location: (Side::New, format!("/tools/{new_index}/name")),
                });
            }
            None => out.push(Change {
                kind: "tool-removed",
                subject: gone.qualified_name(),
                level: Level::Major,
                detail: match servers.get(gone.server.as_str()).map(|s| s.status) {
                    // The contract may be unchanged; the new capture just did not reach the server.
                    Some(status) if status != ConnectionStatus::Connected => format!(
                        "tool `{}` removed (server `{}` is `{}` in the new snapshot)",
                        gone.qualified_name(),
                        gone.server,
                        status.as_str()
                    ),
                    _ => format!("tool `{}` removed", gone.qualified_name()),
                },
                location: (Side::Old, format!("/tools/{old_index}")),
            }),
        }
    }
    for (&(new_index, tool), _) in added.iter().zip(renamed).filter(|(_, renamed)| !renamed) {
        out.push(Change {
            kind: "tool-added",
            subject: tool.qualified_name(),
            level: Level::Minor,
            detail: format!("tool `{}` added", tool.qualified_name()),
            location: (Side::New, format!("/tools/{new_index}")),
        });
    }
    for (new_index, tool) in new.tools.iter().enumerate() {
        let Some(before) = old_by_key
            .get(&(tool.server.as_str(), tool.name.as_str()))
            .map(|&i| &old.tools[i])
        else {
            continue;
        };
        changed_tool(before, tool, new_index, out);
    }
}

/// What a rename keeps: the server and the input schema (by a hash that equal schemas share).
fn rename_key(tool: &Tool) -> (&str, Option<u64>) {
    (tool.server.as_str(), tool.input_schema().map(value::hash))
}

fn changed_tool(before: &Tool, after: &Tool, index: usize, out: &mut Vec<Change>) {
    let subject = after.qualified_name();
    let null = Value::Null;
    for (member, kind, diff) in [
        (
            "inputSchema",
            "tool-input-schema",
            diff_input_schema as fn(&Value, &Value) -> _,
        ),
        ("outputSchema", "tool-output-schema", diff_output_schema),
    ] {
        let (a, b) = (before.fields.get(member), after.fields.get(member));
        let schema_changes = match (a, b) {
            (Some(a), Some(b)) => diff(a, b),
            (None, None) => Vec::new(),
            (a, b) => vec![super::schema_diff::SchemaChange {
                at: String::new(),
                pointer: String::new(),
                // A result schema added promises more; removed, callers lose structure.
                level: if b.is_some() { Level::Minor } else { Level::Major },
                description: format!("`{member}` {}", if a.is_none() { "added" } else { "removed" }),
            }],
        };
        for schema_change in schema_changes {
            let pointer = format!("/tools/{index}/{member}{}", schema_change.pointer);
            out.push(Change {
                kind,
                subject: subject.clone(),
                level: schema_change.level,
                detail: format!("`{subject}`: {}", schema_change.description),
                location: (Side::New, pointer),
            });
        }
    }
    let mut keys: Vec<&String> = before.fields.keys().chain(after.fields.keys()).collect();
    keys.sort();
    keys.dedup();
    for key in keys {
        if key == "inputSchema" || key == "outputSchema" {
            continue;
        }
        let (a, b) = (
            before.fields.get(key).unwrap_or(&null),
            after.fields.get(key).unwrap_or(&null),
        );
        if a == b {
            continue;
        }
        // Words the model reads are fixes; behaviour hints (`annotations`, `execution`) are features,
        // unless a way of calling the tool that worked no longer does.
        let (kind, level, detail) = match key.as_str() {
            "title" | "description" | "icons" => ("tool-description", Level::Patch, format!("`{key}` changed")),
            "execution" if !task_modes(b).contains_all(task_modes(a)) => (
                "tool-metadata",
                Level::Major,
                format!(
                    "`execution.taskSupport` changed from {} to {}: a caller that {} can no longer call it",
                    task_support(a),
                    task_support(b),
                    if task_modes(a).plain && !task_modes(b).plain {
                        "does not use tasks"
                    } else {
                        "uses tasks"
                    }
                ),
            ),
            _ => ("tool-metadata", Level::Minor, format!("`{key}` changed")),
        };
        out.push(Change {
            kind,
            subject: subject.clone(),
            level,
            detail: format!("`{subject}`: {detail}"),
            location: (Side::New, format!("/tools/{index}")),
        });
    }
}

/// How a tool may be called (MCP 2025-11-25 `ToolExecution.taskSupport`):
/// plainly, as a task, or either.
#[derive(Clone, Copy)]
struct TaskModes {
    plain: bool,
    task: bool,
}

impl TaskModes {
    fn contains_all(self, other: TaskModes) -> bool {
        (self.plain || !other.plain) && (self.task || !other.task)
    }
}

/// `taskSupport` as written, `"forbidden"` (MCP's default) when absent.
fn task_support(execution: &Value) -> &str {
    execution
        .get("taskSupport")
        .and_then(Value::as_str)
        .unwrap_or("forbidden")
}

fn task_modes(execution: &Value) -> TaskModes {
    match task_support(execution) {
        "required" => TaskModes {
            plain: false,
            task: true,
        },
        "optional" => TaskModes {
            plain: true,
            task: true,
        },
        _ => TaskModes {
            plain: true,
            task: false,
        },
    }
}

/// Skills by name, the first of a duplicated name (AP608 reports the others).
fn skills_by_name(snapshot: &Snapshot) -> HashMap<&str, &SkillMetadata> {
    let mut skills = HashMap::default();
    for skill in &snapshot.skills {
        skills.entry(skill.name.as_str()).or_insert(skill);
    }
    skills
}

fn skill_changes(old: &Snapshot, new: &Snapshot, out: &mut Vec<Change>) {
    let (old_skills, new_skills) = (skills_by_name(old), skills_by_name(new));
    for (i, skill) in old.skills.iter().enumerate() {
        if !new_skills.contains_key(skill.name.as_str()) {
            out.push(Change {
                kind: "skill-removed",
                subject: skill.name.clone(),
                level: Level::Major,
                detail: format!("skill `{}` removed", skill.name),
                location: (Side::Old, format!("/skills/{i}")),
            });
        }
    }
    for (i, skill) in new.skills.iter().enumerate() {
        let Some(before) = old_skills.get(skill.name.as_str()) else {
            out.push(Change {
                kind: "skill-added",
                subject: skill.name.clone(),
                level: Level::Minor,
                detail: format!("skill `{}` added", skill.name),
                location: (Side::New, format!("/skills/{i}")),
            });
            continue;
        };
        if before.description != skill.description {
            // The description is what a model reads to decide when to use the skill.
            out.push(Change {
                kind: "skill-description",
                subject: skill.name.clone(),
                level: Level::Minor,
                detail: format!(
                    "skill `{}`: description changed (the discovery surface changed)",
                    skill.name
                ),
                location: (Side::New, format!("/skills/{i}/description")),
            });
        }
        if before.path != skill.path {
            out.push(Change {
                kind: "skill-path",
                subject: skill.name.clone(),
                level: Level::Patch,
                detail: format!("skill `{}` moved from {} to {}", skill.name, before.path, skill.path),
                location: (Side::New, format!("/skills/{i}/path")),
            });
        }
    }
}

fn server_changes(old: &Snapshot, new: &Snapshot, out: &mut Vec<Change>) {
    let (old_servers, new_servers) = (old.servers_by_id(), new.servers_by_id());
    for (i, server) in old.servers.iter().enumerate() {
        if !new_servers.contains_key(server.id.as_str()) {
            out.push(Change {
                kind: "server-removed",
                subject: server.id.clone(),
                level: Level::Major,
                detail: format!("server `{}` removed", server.id),
                location: (Side::Old, format!("/mcpServers/{i}")),
            });
        }
    }
    for (i, server) in new.servers.iter().enumerate() {
        match old_servers.get(server.id.as_str()) {
            None => out.push(Change {
                kind: "server-added",
                subject: server.id.clone(),
                level: Level::Minor,
                detail: format!("server `{}` added", server.id),
                location: (Side::New, format!("/mcpServers/{i}")),
            }),
            Some(before) if before.transport != server.transport => out.push(Change {
                kind: "server-type",
                subject: server.id.clone(),
                level: Level::Major,
                detail: format!(
                    "server `{}` type changed from {} to {} (a client may support only one transport)",
                    server.id,
                    before.transport.as_deref().unwrap_or("none"),
                    server.transport.as_deref().unwrap_or("none")
                ),
                location: (Side::New, format!("/mcpServers/{i}/type")),
            }),
            Some(_) => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn version(v: &str) -> semver::Version {
        semver::Version::parse(v).unwrap()
    }

    #[test]
    fn bump_levels_follow_semver_and_cargo_below_one() {
        assert_eq!(bump_level(&version("1.2.0"), &version("2.0.0")), Some(Level::Major));
        assert_eq!(bump_level(&version("1.2.0"), &version("1.3.0")), Some(Level::Minor));
        assert_eq!(bump_level(&version("1.2.0"), &version("1.2.1")), Some(Level::Patch));
        assert_eq!(bump_level(&version("1.2.0"), &version("1.2.0")), None);
        assert_eq!(
            bump_level(&version("1.2.0"), &version("1.2.0+ci.7")),
            None,
            "build metadata"
        );
        assert_eq!(
            bump_level(&version("1.2.0+b"), &version("1.2.0+a")),
            None,
            "build metadata"
        );
        assert_eq!(
            bump_level(&version("1.2.0-rc.1"), &version("1.2.0")),
            Some(Level::Patch)
        );
        assert_eq!(bump_level(&version("0.3.1"), &version("0.4.0")), Some(Level::Major));
        assert_eq!(bump_level(&version("0.3.1"), &version("0.3.2")), Some(Level::Minor));
        assert_eq!(bump_level(&version("0.0.3"), &version("0.0.4")), Some(Level::Major));
        assert_eq!(
            bump_level(&version("1.0.0-rc.1"), &version("1.0.0")),
            Some(Level::Patch)
        );
    }

    #[test]
    fn a_same_schema_new_name_is_a_rename() {
        let new = OLD.replace("\"query_invoices\"", "\"list_invoices\"");
        let report = compare("old.json", OLD, "new.json", &new);
        let kinds: Vec<_> = report.changes.iter().map(|c| c.kind).collect();
        assert_eq!(kinds, ["tool-renamed"]);
        assert_eq!(report.diagnostics[0].code, "AP801");
        assert_eq!(report.diagnostics[0].file.as_deref(), Some("new.json"));
    }

    /// Each removed tool is renamed to the first added one of its server with
    /// its schema, in order; a schema that differs only in how a number is
    /// written is a different schema here, as it always was.
    #[test]
    fn many_renames_pair_in_order() {
        let snapshot = |names: &[String]| {
            let tools: Vec<String> = names
                .iter()
                .map(|name| {
                    let maximum = if name == "b1" { "1.0" } else { "1" };
                    format!(r#"{{"name": "{name}", "server": "s", "inputSchema": {{"type": "object", "maximum": {maximum}}}}}"#)
                })
                .collect();
            format!(
                r#"{{"plugin": {{"name": "p", "version": "1.0.0", "spec": "1.0.0"}}, "skills": [],
                  "mcpServers": [{{"id": "s", "type": "stdio", "status": "connected"}}], "tools": [{}]}}"#,
                tools.join(",")
            )
        };
        let names = |prefix: &str| (0..3_000).map(|i| format!("{prefix}{i}")).collect::<Vec<_>>();
        let report = compare("old.json", &snapshot(&names("a")), "new.json", &snapshot(&names("b")));
        let renames: Vec<_> = report.changes.iter().filter(|c| c.kind == "tool-renamed").collect();
        assert_eq!(renames.len(), 2_999);
        assert_eq!(renames[0].detail, "tool `s/a0` renamed to `b0`");
        assert_eq!(renames[1].detail, "tool `s/a1` renamed to `b2`");
        assert_eq!(renames[2_998].detail, "tool `s/a2998` renamed to `b2999`");
        let rest: Vec<_> = report
            .changes
            .iter()
            .filter(|c| c.kind != "tool-renamed")
            .map(|c| &c.detail)
            .collect();
        assert_eq!(rest, ["tool `s/a2999` removed", "tool `s/b1` added"]);
    }

    #[test]
    fn removals_point_into_the_old_snapshot() {
        let new = r#"{"plugin": {"name": "invoice-ops", "version": "2.0.0", "spec": "1.0.0"}, "skills": [],
          "mcpServers": [{"id": "invoice-tools", "type": "streamable-http", "status": "connected"}],
          "tools": [{"name": "other", "server": "invoice-tools", "inputSchema": {"type": "object"}}]}"#;
        let report = compare("old.json", OLD, "new.json", new);
        let kinds: Vec<_> = report.changes.iter().map(|c| c.kind).collect();
        assert_eq!(kinds, ["tool-removed", "tool-added"]);
        assert_eq!(report.required, Some(Level::Major));
        assert_eq!(report.bump, Some(Level::Major));
        assert_eq!(report.bump_covers_changes, Some(true));
        assert!(report.diagnostics.is_empty(), "{:#?}", report.diagnostics);
    }

    #[test]
    fn the_report_says_whether_the_bump_covers_the_changes() {
        // §10.2: a removed tool needs a major bump; 1.2.0 → 1.3.0 is only minor.
        let new = OLD
            .replace("\"query_invoices\"", "\"list_invoices\"")
            .replace("1.2.0", "1.3.0");
        let report = compare("old.json", OLD, "new.json", &new);
        assert_eq!(report.required, Some(Level::Major), "{report:#?}");
        assert_eq!(report.bump_covers_changes, Some(false));
        assert_eq!(
            compare("old.json", OLD, "new.json", OLD).bump_covers_changes,
            Some(true)
        );
        assert_eq!(
            compare("old.json", "not json", "new.json", OLD).bump_covers_changes,
            None
        );
    }

    #[test]
    fn tools_gone_with_their_server_say_so() {
        let mut new: serde_json::Value = serde_json::from_str(OLD).unwrap();
        new["mcpServers"][0]["status"] = "failed".into();
        new["tools"] = serde_json::json!([]);
        let report = compare("old.json", OLD, "new.json", &new.to_string());
        assert!(
            report.changes[0].detail.contains("is `failed` in the new snapshot"),
            "{report:#?}"
        );
    }

    #[test]
    fn a_tool_that_now_requires_tasks_is_a_breaking_change() {
        let with_tasks = |support: &str| {
            OLD.replace(
                "\"inputSchema\"",
                &format!("\"execution\": {{\"taskSupport\": \"{support}\"}}, \"inputSchema\""),
            )
        };
        let level = |old: &str, new: &str| compare("old.json", old, "new.json", new).changes[0].level;
        assert_eq!(level(&with_tasks("forbidden"), &with_tasks("required")), Level::Major);
        assert_eq!(
            level(OLD, &with_tasks("required")),
            Level::Major,
            "forbidden by default"
        );
        assert_eq!(level(&with_tasks("optional"), &with_tasks("forbidden")), Level::Major);
        assert_eq!(level(&with_tasks("forbidden"), &with_tasks("optional")), Level::Minor);
        assert_eq!(level(&with_tasks("required"), &with_tasks("optional")), Level::Minor);
    }

    #[test]
    fn build_metadata_neither_lowers_nor_bumps_a_version() {
        // SemVer 2.0.0 §10: build metadata is ignored for precedence.
        let old = OLD.replace("\"1.2.0\"", "\"1.2.0+build.10\"");
        let new = OLD.replace("\"1.2.0\"", "\"1.2.0+build.2\"");
        let report = compare("old.json", &old, "new.json", &new);
        assert!(report.diagnostics.is_empty(), "{:#?}", report.diagnostics);
        assert_eq!(report.bump, None);
    }

    #[test]
    fn a_version_past_what_the_parser_compares_is_not_called_non_semver() {
        let new = OLD.replace("\"1.2.0\"", "\"18446744073709551616.0.0\"");
        let report = compare("old.json", OLD, "new.json", &new);
        assert_eq!(report.diagnostics[0].code, "AP803");
        let message = &report.diagnostics[0].message;
        assert!(
            message.contains("cannot be compared") && message.contains("u64"),
            "{message}"
        );
    }

    /// The comparison reads the members of only the tools spelled otherwise
    /// than their counterpart, or without one; its changes are those of the
    /// whole models, including against a snapshot only the whole check reads
    /// (one with a duplicate key), and between tools listed twice.
    #[test]
    fn the_tools_compared_are_read_and_the_others_need_not_be() {
        let snapshot = |tools: &[&str]| {
            format!(
                r#"{{"plugin": {{"name": "p", "version": "1.0.0", "spec": "1.0.0"}}, "skills": [],
                  "mcpServers": [{{"id": "s", "type": "stdio", "status": "connected"}}], "tools": [{}]}}"#,
                tools.join(",")
            )
        };
        let tool = |name: &str, rest: &str| format!(r#"{{"name": "{name}", "server": "s", {rest}}}"#);
        let (same, spaced) = (
            tool("same", r#""inputSchema": {"type": "object"}"#),
            tool("same", r#""inputSchema": {"type":"object"}"#),
        );
        let described = tool("twice", r#""description": "Old.", "inputSchema": {"type": "object"}"#);
        let redescribed = tool("twice", r#""description": "New.", "inputSchema": {"type": "object"}"#);
        let required = tool("req", r#""inputSchema": {"type": "object", "required": ["a"]}"#);
        let unrequired = tool("req", r#""inputSchema": {"type": "object"}"#);
        let old_name = tool("before", r#""inputSchema": {"type": "object", "minimum": 3}"#);
        let new_name = tool("after", r#""inputSchema": {"type": "object", "minimum": 3}"#);
        let removed = tool("removed", r#""inputSchema": {"type": "object", "maximum": 1}"#);
        let added = tool("added", r#""inputSchema": {"type": "object", "maximum": 2}"#);
        let old = snapshot(&[&same, &described, &required, &old_name, &removed, &described]);
        let new = snapshot(&[&added, &spaced, &redescribed, &unrequired, &described, &new_name]);
        let with_duplicate_key = new.replacen(r#""skills": []"#, r#""skills": [], "skills": []"#, 1);
        let model = |text: &str| check_snapshot("s.json", text, None).snapshot.expect("a snapshot");
        for (old, new) in [
            (&old, &new),
            (&new, &old),
            (&old, &with_duplicate_key),
            (&with_duplicate_key, &old),
        ] {
            let expected = snapshot_changes(&model(old), &model(new));
            assert!(expected.len() >= 4, "{expected:#?}");
            assert_eq!(compare("old.json", old, "new.json", new).changes, expected);
        }
    }

    #[test]
    fn an_invalid_snapshot_stops_the_comparison() {
        let report = compare("old.json", OLD, "new.json", "{");
        assert!(report.changes.is_empty());
        assert_eq!(report.diagnostics[0].code, "AP601");
    }
}
