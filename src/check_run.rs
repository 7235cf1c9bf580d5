//! One run of `apcheck check`, with no I/O: the roots checked as their
//! settings say, then the live results, the fixes, the baseline, the render
//! and the exit code, in that order. Each step is a method, and a face does
//! only the I/O between them: the CLI (`src/bin/apcheck/check.rs`) lists the
//! disk, connects to servers, writes fixes and reads baselines; the npm
//! package (`wasm/node.rs` over `npm/`) does the same through Node. So what a
//! run shows and how it exits is decided here once, for both.

use crate::baseline::Baseline;
use crate::config::Settings;
use crate::diag::Diagnostic;
use crate::exit::{Deny, packages_fail, packages_fail_with_exit_zero};
use crate::fix::{Applicability, FixOutcome, fix_tree};
use crate::render::fix::DiffRun;
use crate::render::{self, Format, Options, Sources, statistics};
use crate::report::PackageReport;
use crate::tree::Tree;

/// One plugin root of a run, and how it is checked.
#[derive(Debug, Clone)]
pub struct CheckRoot {
    /// How the output names it: the PATH as given, joined with the path below it.
    pub name: String,
    /// The configuration that applies to it (`apcheck.toml`, the flags).
    pub settings: Settings,
    /// The root relative to its configuration's directory, for the
    /// configuration's globs and the baseline's paths.
    pub relative: String,
}

impl CheckRoot {
    /// The check as configured: the fixes the settings' inputs allow, then the
    /// settings applied to what it found.
    pub fn check(&self, tree: &Tree) -> PackageReport {
        let mut report = crate::check_package_with(&self.name, tree, &self.settings.fix_inputs());
        self.settings.apply(&mut report, &self.relative);
        report
    }
}

/// The roots of one run, each with its tree (kept for the snippets and the
/// fixes) and its report as shown.
#[derive(Debug, Default)]
pub struct CheckRun {
    roots: Vec<CheckRoot>,
    trees: Vec<Tree>,
    reports: Vec<PackageReport>,
}

/// What `--baseline-write` writes, and the line that says so; or, when a
/// check is incomplete, the lines that refuse it (nothing is written).
pub type BaselineWrite = Result<(String, String), Vec<String>>;

impl CheckRun {
    pub fn new() -> CheckRun {
        CheckRun::default()
    }

    /// Checks `tree` as `root`, after the roots already added.
    pub fn add(&mut self, root: CheckRoot, tree: Tree) {
        self.reports.push(root.check(&tree));
        self.trees.push(tree);
        self.roots.push(root);
    }

    /// Checks every root, in parallel where threads exist, in their order.
    pub fn add_all(&mut self, roots: Vec<(CheckRoot, Tree)>) {
        #[cfg(not(target_arch = "wasm32"))]
        let reports: Vec<PackageReport> = {
            use rayon::prelude::*;
            roots.par_iter().map(|(root, tree)| root.check(tree)).collect()
        };
        #[cfg(target_arch = "wasm32")]
        let reports: Vec<PackageReport> = roots.iter().map(|(root, tree)| root.check(tree)).collect();
        self.reports.extend(reports);
        for (root, tree) in roots {
            self.roots.push(root);
            self.trees.push(tree);
        }
    }

    pub fn roots(&self) -> &[CheckRoot] {
        &self.roots
    }

    pub fn trees(&self) -> &[Tree] {
        &self.trees
    }

    pub fn reports(&self) -> &[PackageReport] {
        &self.reports
    }

    /// Adds what `--connect` found at root number `index` (AP45x), shown as its settings say.
    pub fn add_live_findings(&mut self, index: usize, findings: Vec<Diagnostic>) {
        let (root, report) = (&self.roots[index], &mut self.reports[index]);
        report.add_findings(findings);
        root.settings.apply(report, &root.relative);
    }

    /// The fixes `allowed` offers at each root, found by re-checking each
    /// fixed tree as the root is checked (`fix::fix_tree`); nothing changes yet.
    pub fn fixes(&self, allowed: Applicability) -> Vec<FixOutcome> {
        let fix = |(root, tree): (&CheckRoot, &Tree)| fix_tree(tree, allowed, |tree| root.check(tree).diagnostics);
        #[cfg(not(target_arch = "wasm32"))]
        {
            use rayon::prelude::*;
            self.roots.par_iter().zip(&self.trees).map(fix).collect()
        }
        #[cfg(target_arch = "wasm32")]
        {
            self.roots.iter().zip(&self.trees).map(fix).collect()
        }
    }

    /// `--diff`: the `fixed` files as a unified diff of every root (escaped
    /// line by line `for_people`: it goes to a terminal), and its closing line.
    pub fn fix_diff(&self, fixed: &[FixOutcome], for_people: bool) -> DiffRun {
        let names = self.roots.iter().map(|root| root.name.as_str());
        render::fix::diff_run(names.zip(&self.trees), fixed, for_people)
    }

    /// `--fix`, once the face has written `fixed`: the trees take the new
    /// texts and each root is checked again, for what follows.
    pub fn apply_fixes(&mut self, fixed: &[FixOutcome]) {
        for (index, outcome) in fixed.iter().enumerate() {
            outcome.apply_to(&mut self.trees[index]);
            self.reports[index] = self.roots[index].check(&self.trees[index]);
        }
    }

    /// Hides the findings of root number `index` that `baseline` records.
    pub fn apply_baseline(&mut self, index: usize, baseline: &mut Baseline) {
        let root = &self.roots[index];
        baseline.apply(&root.relative, &self.trees[index], &mut self.reports[index]);
    }

    /// `--baseline-write FILE` (as named on the command line): every finding
    /// of the run, recorded.
    pub fn baseline_write(&self, file: &str) -> BaselineWrite {
        let checked = self.roots.iter().zip(&self.trees).zip(&self.reports);
        crate::baseline::write_for(
            checked.map(|((root, tree), report)| (root.relative.as_str(), tree, report)),
            file,
        )
    }

    /// The run's output in `format`, or with `statistics` how many findings
    /// each rule made (JSON for `Format::Json`, else a table).
    pub fn render(&self, format: Format, options: &Options, statistics: bool) -> String {
        match format {
            Format::Json if statistics => statistics::json(&self.reports),
            _ if statistics => statistics::text(&self.reports),
            format => {
                let sources: Vec<&dyn Sources> = self.trees.iter().map(|tree| tree as &dyn Sources).collect();
                render::packages::render(&self.reports, &sources, format, options)
            }
        }
    }

    /// Whether the run fails (exit 1): findings at error level (or warnings
    /// with `deny`); under `exit_zero`, only an incomplete check.
    pub fn fails(&self, exit_zero: bool, deny: Option<Deny>) -> bool {
        if exit_zero {
            packages_fail_with_exit_zero(&self.reports)
        } else {
            packages_fail(&self.reports, deny)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fix::allowed;

    fn root(name: &str) -> CheckRoot {
        CheckRoot {
            name: name.to_string(),
            settings: Settings::default(),
            relative: name.to_string(),
        }
    }

    /// A plugin rejected for its name, which breaks §5.5 (AP209, with an unsafe fix).
    fn misnamed() -> Tree {
        Tree::from_files([(
            "plugin.json",
            r#"{"$schema": "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json", "name": "Bad_Name", "version": "1.0.0", "description": "x"}"#,
        )])
    }

    #[test]
    fn a_run_checks_fixes_rechecks_and_exits_as_its_reports_say() {
        let mut run = CheckRun::new();
        run.add_all(vec![(root("a"), misnamed()), (root("b"), misnamed())]);
        assert_eq!(run.reports().len(), 2);
        assert!(run.fails(false, None));
        assert!(run.fixes(allowed(false)).iter().all(|outcome| outcome.applied == 0));
        let fixed = run.fixes(allowed(true));
        assert!(fixed.iter().all(|outcome| outcome.applied > 0));
        let diff = run.fix_diff(&fixed, false);
        assert!(diff.changes && diff.diff.contains("Bad_Name"), "{}", diff.diff);
        run.apply_fixes(&fixed);
        assert!(!run.fails(false, None), "{:?}", run.reports()[0].diagnostics);
        assert!(run.render(Format::Text, &Options::default(), false).contains("loaded"));
    }

    #[test]
    fn a_baseline_written_from_a_run_hides_its_findings_when_applied() {
        let mut run = CheckRun::new();
        run.add(root("a"), misnamed());
        let (text, said) = run.baseline_write("baseline.json").expect("the check is complete");
        assert!(said.contains("baseline.json"), "{said}");
        let mut baseline = Baseline::parse(&text).unwrap();
        run.apply_baseline(0, &mut baseline);
        assert!(run.reports()[0].diagnostics.is_empty());
        assert_eq!(run.reports()[0].summary.baselined, 1);
    }
}
