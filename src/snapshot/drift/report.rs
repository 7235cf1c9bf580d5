//! What a drift run yields (rows and findings) and the state every
//! comparison writes to.

use serde::Serialize;

use crate::diag::Diagnostic;
use crate::exit::Exit;
use crate::report::PackageReport;
use crate::rule::Rule;
use crate::source::json::JsonSource;
use crate::tree::path_from_root;

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

/// A difference found: its row, and the diagnostic at `pointer` in the snapshot.
pub(super) struct Difference<'p> {
    pub(super) rule: &'static Rule,
    pub(super) subject: String,
    pub(super) snapshot: Option<String>,
    pub(super) package: Option<String>,
    pub(super) fix: FixSide,
    pub(super) message: String,
    pub(super) pointer: &'p str,
}

pub(super) struct Drift<'a, 'r> {
    pub(super) located: &'a JsonSource<'a>,
    /// The plugin root as the caller named it; package files are shown under it.
    pub(super) root: &'a str,
    pub(super) report: &'r mut DriftReport,
}

impl Drift<'_, '_> {
    pub(super) fn row(&mut self, difference: Difference<'_>) {
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
    pub(super) fn explain(&mut self, package: &PackageReport, keep: impl Fn(&Diagnostic) -> bool) {
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
}
