//! What a run's outcome means as a process exit code, one policy for every
//! face that ends in one (the CLI, and the npm package's `apcheck` through
//! the wasm): 0 clean, 1 findings at the failing level (for `diff`, the
//! documents differ; with `--diff`, fixes to apply), 2 the run could not be
//! done as asked (a usage error, an unreadable path, a failed write).

use crate::diag::{Diagnostic, Severity};
use crate::report::PackageReport;

/// A run's outcome, as the exit code says it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// No finding at the failing level.
    Clean,
    /// Findings at error level (or warnings, when they are denied).
    Findings,
    /// A usage error or an I/O failure.
    Failure,
}

impl Exit {
    /// The process exit code.
    pub const fn code(self) -> u8 {
        match self {
            Exit::Clean => 0,
            Exit::Findings => 1,
            Exit::Failure => 2,
        }
    }

    /// [`Exit::Findings`] when `found`, else [`Exit::Clean`].
    pub fn findings_if(found: bool) -> Exit {
        if found { Exit::Findings } else { Exit::Clean }
    }

    /// A failure anywhere decides the run; otherwise `self`.
    pub fn unless_failed(self, failed: bool) -> Exit {
        if failed { Exit::Failure } else { self }
    }
}

/// What fails a check besides errors (`--deny LEVEL`), for every face that
/// takes the flag.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Deny {
    Warnings,
}

impl Deny {
    pub const ALL: [Deny; 1] = [Deny::Warnings];

    pub fn name(self) -> &'static str {
        match self {
            Deny::Warnings => "warnings",
        }
    }

    pub fn from_name(name: &str) -> Option<Deny> {
        Deny::ALL.into_iter().find(|deny| deny.name() == name)
    }
}

/// Whether checked packages fail the run: a rejected plugin or an incomplete
/// check, whatever findings are hidden; a finding at error level; or a
/// warning when `deny` is [`Deny::Warnings`].
pub fn packages_fail(reports: &[PackageReport], deny: Option<Deny>) -> bool {
    let deny_warnings = deny == Some(Deny::Warnings);
    reports.iter().any(|report| {
        let summary = &report.summary;
        report.fails_on_its_own() || summary.errors > 0 || (deny_warnings && summary.warnings > 0)
    })
}

/// Whether checked packages fail a run under `--exit-zero`: findings and a
/// rejected plugin no longer do, but an incomplete check still does, because
/// a part nobody read is not a pass.
pub fn packages_fail_with_exit_zero(reports: &[PackageReport]) -> bool {
    reports.iter().any(PackageReport::is_incomplete)
}

/// The outcome of a command whose findings are `diagnostics`: findings when any is an error.
pub fn for_diagnostics(diagnostics: &[Diagnostic]) -> Exit {
    Exit::findings_if(diagnostics.iter().any(|d| d.severity == Severity::Error))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check_package;
    use crate::tree::Tree;

    #[test]
    fn codes_are_the_documented_ones() {
        assert_eq!([Exit::Clean, Exit::Findings, Exit::Failure].map(Exit::code), [0, 1, 2]);
        assert_eq!(Exit::findings_if(true).unless_failed(true), Exit::Failure);
        assert_eq!(Exit::findings_if(false).unless_failed(false), Exit::Clean);
    }

    #[test]
    fn warnings_fail_a_check_only_when_denied() {
        // §5.2: a manifest without `$schema` is rejected, an error; a duplicate key (RFC 8259 §4) only warns.
        let rejected = check_package("r", &Tree::from_files([("plugin.json", "{\"name\": \"demo\"}")]));
        let warned = check_package(
            "w",
            &Tree::from_files([(
                "plugin.json",
                "{\"$schema\": \"https://agent-plugins.org/schemas/1.0.0/plugin.schema.json\", \"name\": \"demo\", \"name\": \"demo\"}",
            )]),
        );
        assert!(warned.summary.errors == 0 && warned.summary.warnings > 0);
        assert!(packages_fail(std::slice::from_ref(&rejected), None));
        assert!(!packages_fail(std::slice::from_ref(&warned), None));
        assert!(packages_fail(std::slice::from_ref(&warned), Some(Deny::Warnings)));
        assert_eq!(Deny::from_name("warnings"), Some(Deny::Warnings));
        assert_eq!(Deny::from_name("errors"), None);
        assert_eq!(for_diagnostics(&warned.diagnostics), Exit::Clean);
        assert_eq!(for_diagnostics(&rejected.diagnostics), Exit::Findings);
    }

    #[test]
    fn a_rejected_plugin_or_an_incomplete_check_fails_whatever_the_settings_hide() {
        // `ignore = ["AP"]` hides every finding, but not the state.
        let hide_all = crate::config::Settings::parse("apcheck.toml", "ignore = [\"AP\"]\n")
            .unwrap()
            .unwrap();
        let mut rejected = check_package("r", &Tree::from_files([("plugin.json", "{\"name\": \"demo\"}")]));
        let manifest =
            "{\"$schema\": \"https://agent-plugins.org/schemas/1.0.0/plugin.schema.json\", \"name\": \"demo\"}";
        let mut tree = Tree::from_files([("plugin.json", manifest), ("docs/a.md", "x")]);
        tree.mark_unlisted("docs", "permission denied");
        let mut incomplete = check_package("i", &tree);
        for report in [&mut rejected, &mut incomplete] {
            hide_all.apply(report, "");
            assert!(
                report.diagnostics.is_empty() && report.summary.errors == 0,
                "{report:#?}"
            );
            assert!(packages_fail(std::slice::from_ref(report), None), "{report:#?}");
        }
        assert_eq!(incomplete.unread, ["docs"]);
    }
}
