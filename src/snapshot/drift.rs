//! `apcheck drift SNAPSHOT PLUGIN`: the snapshot and the packaging files side
//! by side. The package check says what a client would load; every difference
//! from the snapshot is a row naming both values and the side to fix: the
//! snapshot when it is merely stale (rebuild it with `apcheck snapshot`), the
//! package when it is broken or holds runtime state that belongs to a client.
//!
//! Each comparison sits with the rules it finds, one file per subject
//! (`package`, `identity`, `skills`, `servers`, `runtime`); what they share is
//! below them (`report`, `examples`).

use super::lint::{SnapshotCheck, check_snapshot};
use crate::diag::Diagnostic;
use crate::report::{PackageReport, PluginState, sort_diagnostics};
use crate::rule::Rule;
use crate::rules::unread::{NEEDED_PATH_NOT_READ, PATH_UNREADABLE};
use crate::source::json::JsonSource;
use crate::tree::{Tree, path_from_root};

mod examples;
mod identity;
mod package;
mod report;
mod runtime;
mod servers;
mod skills;

use report::Drift;
pub use report::{DriftReport, DriftRow, FixSide};

pub static RULES: &[&Rule] = &[
    &package::PACKAGE_REJECTED,
    &identity::IDENTITY_DRIFT,
    &skills::SKILL_MISSING_FROM_SNAPSHOT,
    &skills::SKILL_NOT_IN_PACKAGE,
    &skills::SKILL_SKIPPED_BY_PACKAGE,
    &skills::SKILL_METADATA_DRIFT,
    &servers::SERVER_SET_DRIFT,
    &servers::SERVER_INVALID_IN_PACKAGE,
    &servers::SERVER_TYPE_DRIFT,
    &runtime::RUNTIME_STATE_IN_PACKAGING,
    &identity::IDENTITY_IN_INPUT_SCHEMA,
];

/// Compares snapshot `text` (file `name`) with the package in `tree` (root `root`).
pub fn drift(name: &str, text: &str, root: &str, tree: &Tree) -> DriftReport {
    let check = check_snapshot(name, text, Some(tree));
    // An invalid snapshot stops the run before the package is checked.
    let package = (check.snapshot.is_some() && check.document.is_some()).then(|| crate::check_package(root, tree));
    compare(name, text, check, root, package.as_ref())
}

/// [`drift`] with the package already checked: `package` is what
/// `check_package(root, tree)` returned. The package side is read from it
/// alone; `tree` serves the snapshot's own checks (its skill paths).
pub fn drift_checked(name: &str, text: &str, root: &str, tree: &Tree, package: &PackageReport) -> DriftReport {
    compare(name, text, check_snapshot(name, text, Some(tree)), root, Some(package))
}

/// The comparison once both sides are read: the snapshot as its lint left
/// it, and the package as the check typed it (`None` when the snapshot
/// stopped the run first).
fn compare(name: &str, text: &str, check: SnapshotCheck, root: &str, package: Option<&PackageReport>) -> DriftReport {
    let mut report = DriftReport {
        rows: Vec::new(),
        diagnostics: check.diagnostics,
        not_compared: Vec::new(),
    };
    let (Some(snapshot), Some(doc), Some(package)) = (check.snapshot, check.document, package) else {
        report.not_compared.push(name.to_string());
        return report;
    };
    let located = JsonSource::new(name, text, doc);
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
    drift.explain(package, unread);
    if package.plugin.state == PluginState::Rejected {
        drift.rejected(&snapshot, package);
    } else {
        drift.identity(&snapshot, package);
        drift.skills(&snapshot, package);
        drift.servers(&snapshot, package);
        drift.runtime_state(&package.package);
    }
    drift.identity_in_schemas(&snapshot);
    sort_diagnostics(&mut report.diagnostics);
    report
}

#[cfg(test)]
mod tests {
    use super::examples::{MCP_JSON, PLUGIN_JSON, SKILL_MD, SNAPSHOT};
    use super::*;
    use crate::exit::Exit;

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
