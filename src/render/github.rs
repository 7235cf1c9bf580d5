//! GitHub Actions workflow commands: one `::error`/`::warning`/`::notice`
//! annotation per diagnostic, with the file path prefixed by the root as given
//! on the command line so it resolves in the repository, then a plain summary
//! line per root for the log.

use std::fmt::Write;

use super::{Verdicts, display_root, path_from_root};
use crate::diag::{Diagnostic, Severity};
use crate::report::PackageReport;

pub fn render(reports: &[PackageReport]) -> String {
    let mut out = String::new();
    for report in reports {
        for diagnostic in &report.diagnostics {
            out.push_str(&annotation(&report.root, diagnostic));
            out.push('\n');
        }
    }
    for report in reports {
        let verdicts = Verdicts::of(report);
        let _ = writeln!(
            out,
            "{}: {} — {} — {} — {}",
            display_root(&report.root),
            verdicts.plugin,
            verdicts.skills,
            verdicts.servers,
            verdicts.findings
        );
    }
    out
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
        .map(|(name, value)| format!("{name}={}", escape_property(value)))
        .collect();
    let mut message = diagnostic.message.clone();
    if let Some(hint) = &diagnostic.hint {
        message.push_str("\nhelp: ");
        message.push_str(hint);
    }
    if let Some(fix) = &diagnostic.fix {
        message.push_str("\nfix: ");
        message.push_str(&super::fix_line(fix));
    }
    message.push_str("\nspec: ");
    message.push_str(diagnostic.spec);
    format!("::{command} {}::{}", properties.join(","), escape_data(&message))
}

/// The message part: `%`, CR and LF are encoded (GitHub's `escapeData`).
fn escape_data(text: &str) -> String {
    text.replace('%', "%25").replace('\r', "%0D").replace('\n', "%0A")
}

/// A property value: also `:` and `,`, which delimit properties (GitHub's `escapeProperty`).
fn escape_property(text: &str) -> String {
    escape_data(text).replace(':', "%3A").replace(',', "%2C")
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
    fn delimiters_are_escaped() {
        assert_eq!(escape_property("a,b:c%\n"), "a%2Cb%3Ac%25%0A");
        assert_eq!(escape_data("50%: a,b\r\n"), "50%25: a,b%0D%0A");
    }
}
