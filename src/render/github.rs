//! GitHub Actions workflow commands: one `::error`/`::warning`/`::notice`
//! annotation per diagnostic, with the file path prefixed by the root as given
//! on the command line so it resolves in the repository, then a plain summary
//! line per root for the log.

use std::fmt::Write;

use super::escape::{github_data, github_log_text, github_property, visible};
use super::{Verdicts, display_root, path_from_root};
use crate::diag::{Diagnostic, Severity, UNREACHED_NOTE};
use crate::report::PackageReport;

pub fn render(reports: &[PackageReport]) -> String {
    let mut out = String::new();
    for report in reports {
        out.push_str(&annotations(&report.root, &report.diagnostics));
    }
    for report in reports {
        let verdicts = Verdicts::of(report);
        let _ = writeln!(
            out,
            "{}: {} — {} — {} — {}",
            github_log_text(display_root(&report.root)),
            verdicts.plugin,
            verdicts.skills,
            verdicts.servers,
            verdicts.findings
        );
    }
    out
}

/// One annotation line per diagnostic, files relative to `root`: for every
/// command's findings.
pub fn annotations(root: &str, diagnostics: &[Diagnostic]) -> String {
    let mut out = String::new();
    for diagnostic in diagnostics {
        out.push_str(&annotation(root, diagnostic));
        out.push('\n');
    }
    out
}

/// A line of plain text for the log, which can never be read as a workflow command.
pub fn log_line(text: &str) -> String {
    github_log_text(text) + "\n"
}

fn annotation(root: &str, diagnostic: &Diagnostic) -> String {
    let command = match diagnostic.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "notice",
    };
    let mut properties: Vec<(&str, String)> = Vec::new();
    if let Some(file) = &diagnostic.file {
        properties.push(("file", path_from_root(root, file).trim_start_matches("./").to_string()));
        let positions = [
            ("line", diagnostic.line),
            ("col", diagnostic.column),
            ("endLine", diagnostic.end_line),
            ("endColumn", diagnostic.end_column),
        ];
        for (name, value) in positions {
            if let Some(value) = value {
                properties.push((name, value.to_string()));
            }
        }
    }
    properties.push(("title", diagnostic.code.to_string()));
    let properties: Vec<String> = properties
        .iter()
        .map(|(name, value)| format!("{name}={}", github_property(value)))
        .collect();
    let mut message = visible(&diagnostic.message).into_owned();
    if diagnostic.unreached {
        message.push_str("\nnote: ");
        message.push_str(UNREACHED_NOTE);
    }
    if let Some(hint) = &diagnostic.hint {
        message.push_str("\nhelp: ");
        message.push_str(&visible(hint));
    }
    if let Some(fix) = &diagnostic.fix {
        message.push_str("\nfix: ");
        message.push_str(&visible(&super::fix_line(fix)));
    }
    message.push_str("\nspec: ");
    message.push_str(diagnostic.spec);
    format!("::{command} {}::{}", properties.join(","), github_data(&message))
}

#[cfg(test)]
mod tests {
    use super::super::test_support::*;
    use super::*;

    #[test]
    fn annotations_point_into_the_repository() {
        let out = render(&[report_with_findings("plugins/demo")]);
        let first = out.lines().next().unwrap();
        assert_eq!(
            first,
            "::error file=plugins/demo/plugin.json,line=2,col=11,endLine=2,endColumn=21,title=AP201::\
             `Bad Name` is not a valid name%0Ahelp: use lowercase letters, digits and hyphens%0Aspec: Agent Plugins §5.5"
        );
        assert!(
            out.lines()
                .nth(1)
                .unwrap()
                .starts_with("::warning file=plugins/demo/mcp.json,")
        );
        assert!(out.ends_with("1 error, 1 warning\n"));
    }

    #[test]
    fn a_fix_is_named_in_the_annotation() {
        let mut report = report_with_findings(".");
        report.diagnostics[0] = report.diagnostics[0].clone().with_fix(name_fix());
        let out = render(&[report]);
        assert!(
            out.contains("%0Afix: Rename the plugin to \"bad-name\" (safe: apcheck check --fix applies it)%0Aspec:"),
            "{out}"
        );
    }

    #[test]
    fn root_dot_is_left_out_of_the_path() {
        let out = render(&[report_with_findings("./")]);
        assert!(out.starts_with("::error file=plugin.json,"), "{out}");
    }

    #[test]
    fn a_root_name_cannot_forge_an_annotation() {
        // A directory name with a newline and a workflow command, which would start an annotation of its own.
        let forged = "x\n::warning file=README.md,line=1::all good";
        let mut report = report_with_findings(forged);
        report.diagnostics[0].message = "m\u{1b}[2J\n::error::forged".into();
        let out = render(&[report]);
        for line in out.lines() {
            assert!(!line.contains('\u{1b}'), "{line}");
            let is_ours = line.starts_with("::error file=") || line.starts_with("::warning file=");
            assert!(is_ours || !line.trim_start().starts_with("::"), "{line}");
        }
        assert!(
            out.contains("file=x\\u{a}%3A%3Awarning file=README.md%2Cline=1%3A%3Aall good/plugin.json"),
            "{out}"
        );
        let dotted = render(&[report_with_findings("::error::x")]);
        assert!(
            dotted.lines().last().unwrap().starts_with("./::error::x: loaded"),
            "{dotted}"
        );
    }
}
