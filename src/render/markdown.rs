//! Markdown for pull-request comments, the Action's job summary and the page's
//! download: per root, a summary table and the list of findings, each code
//! linking its rule's page. Source lines are never quoted, so a comment cannot
//! leak what a secret rule found.

use std::fmt::Write;

use super::escape::{markdown_code as code, markdown_message};
use super::{Verdicts, count, display_root, location, path_from_root};
use crate::diag::{Diagnostic, UNREACHED_NOTE};
use crate::report::{PackageReport, PluginState};
use crate::rule::doc_url;

pub fn render(reports: &[PackageReport]) -> String {
    let mut out = String::new();
    if reports.len() > 1 {
        render_overview(&mut out, reports);
    }
    for report in reports {
        render_report(&mut out, report);
    }
    out
}

/// One row per root, so a marketplace's verdicts read at a glance before the details.
fn render_overview(out: &mut String, reports: &[PackageReport]) {
    let _ = writeln!(out, "### apcheck: {}\n", count(reports.len(), "plugin", "plugins"));
    let _ = writeln!(
        out,
        "| Root | Plugin | Skills | MCP servers | Findings |\n|---|---|---|---|---|"
    );
    for report in reports {
        let verdicts = Verdicts::of(report);
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} |",
            code(display_root(&report.root)).replace('|', "\\|"),
            verdicts.plugin,
            verdicts.skills.trim_start_matches("skills "),
            verdicts.servers.trim_start_matches("servers "),
            verdicts.findings
        );
    }
    out.push('\n');
}

fn render_report(out: &mut String, report: &PackageReport) {
    let verdicts = Verdicts::of(report);
    let _ = writeln!(out, "### apcheck: {}\n", code(display_root(&report.root)));
    let mut plugin = verdicts.plugin.to_string();
    if report.plugin.state == PluginState::Loaded {
        if let Some(name) = &report.plugin.name {
            plugin.push_str(&format!(" — {}", code(name)));
        }
        if let Some(version) = &report.plugin.version {
            plugin.push_str(&format!(" {}", code(version)));
        }
    }
    let _ = writeln!(out, "| | |\n|---|---|");
    let rows = [
        ("Plugin", plugin),
        ("Skills", verdicts.skills.trim_start_matches("skills ").to_string()),
        (
            "MCP servers",
            verdicts.servers.trim_start_matches("servers ").to_string(),
        ),
        ("Findings", verdicts.findings),
    ];
    for (name, value) in rows {
        let _ = writeln!(out, "| {name} | {} |", value.replace('|', "\\|"));
    }
    out.push('\n');
    out.push_str(&findings(&report.root, &report.diagnostics));
}

/// The findings list of any command (files relative to `root`), or `No findings.`,
/// followed by a blank line.
pub fn findings(root: &str, diagnostics: &[Diagnostic]) -> String {
    let mut out = String::new();
    if diagnostics.is_empty() {
        out.push_str("No findings.\n\n");
        return out;
    }
    for diagnostic in diagnostics {
        let _ = write!(
            out,
            "- **{}** [{}]({})",
            diagnostic.severity.as_str(),
            code(diagnostic.code),
            doc_url(diagnostic.code)
        );
        if let Some(file) = &diagnostic.file {
            let _ = write!(out, " {}", code(&location(&path_from_root(root, file), diagnostic)));
        }
        // A trailing backslash is a hard line break: help and spec get lines of their own.
        let _ = writeln!(out, ": {}\\", markdown_message(&diagnostic.message));
        if diagnostic.unreached {
            let _ = writeln!(out, "  note: {}\\", markdown_message(UNREACHED_NOTE));
        }
        if let Some(hint) = &diagnostic.hint {
            let _ = writeln!(out, "  help: {}\\", markdown_message(hint));
        }
        if let Some(fix) = &diagnostic.fix {
            let _ = writeln!(out, "  fix: {}\\", markdown_message(&super::fix_line(fix)));
        }
        let _ = writeln!(out, "  spec: {}", markdown_message(diagnostic.spec));
    }
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::super::test_support::*;
    use super::*;

    #[test]
    fn summary_table_and_findings_list() {
        let out = render(&[report_with_findings("plugins/demo")]);
        assert!(out.starts_with("### apcheck: `plugins/demo`\n"), "{out}");
        assert!(out.contains("| Plugin | loaded — `demo` `1.0.0` |"), "{out}");
        assert!(out.contains("| Skills | 1 discovered, 0 skipped |"), "{out}");
        assert!(out.contains("| MCP servers | 0 valid, 1 invalid |"), "{out}");
        assert!(out.contains("| Findings | 1 error, 1 warning |"), "{out}");
        assert!(
            out.contains(
                "- **error** [`AP201`](https://apcheck.dev/rules/AP201) `plugins/demo/plugin.json:2:11`: `Bad Name` is not a valid name\\\n  \
                 help: use lowercase letters, digits and hyphens\\\n  spec: Agent Plugins §5.5\n"
            ),
            "{out}"
        );
        assert!(!out.contains("ghp_SECRETSECRET"), "{out}");
    }

    #[test]
    fn a_fix_gets_its_own_line() {
        let mut report = report_with_findings(".");
        report.diagnostics[0] = report.diagnostics[0].clone().with_fix(name_fix());
        let out = render(&[report]);
        assert!(
            out.contains("  fix: Rename the plugin to \"bad-name\" \\(safe\\: apcheck check --fix applies it\\)\\\n"),
            "{out}"
        );
    }

    #[test]
    fn several_roots_get_an_overview_first() {
        let out = render(&[report_with_findings("a|b"), report("c", Vec::new())]);
        assert!(out.starts_with("### apcheck: 2 plugins\n"), "{out}");
        assert!(
            out.contains("| `a\\|b` | loaded | 1 discovered, 0 skipped | 0 valid, 1 invalid | 1 error, 1 warning |"),
            "{out}"
        );
        assert!(out.contains("### apcheck: `c`"), "{out}");
    }

    #[test]
    fn a_clean_root_says_so() {
        let out = render(&[report(".", Vec::new())]);
        assert!(out.contains("No findings."), "{out}");
    }

    #[test]
    fn markdown_in_messages_is_inert() {
        assert_eq!(markdown_message("a *b* <img> `x*y`"), "a \\*b\\* \\<img\\> `x*y`");
        // Was closed with a backtick of our own, which loses sync on a run of three.
        assert_eq!(markdown_message("open `tick"), "open \\`tick");
    }

    #[test]
    fn a_version_holding_a_link_renders_no_link() {
        // The version is shown in a code span, the message quotes it in backticks.
        let version = "```[Approved by security](https://evil.example/) ![](https://evil.example/px.png)";
        let mut report = report_with_findings(".");
        report.plugin.version = Some(version.into());
        report.diagnostics[0].message = format!("`{version}` is not SemVer");
        let out = render(&[report]);
        assert!(out.contains("| Plugin | loaded — `demo` ````"), "{out}");
        let finding = out.lines().find(|l| l.contains("is not SemVer")).unwrap();
        // The one link is the rule's own page.
        let (rule_link, rest) = finding.split_once(") ").unwrap();
        assert_eq!(
            rule_link, "- **error** [`AP201`](https://apcheck.dev/rules/AP201",
            "{finding}"
        );
        assert!(!rest.contains("](") && !rest.contains("https:"), "{finding}");
    }
}
