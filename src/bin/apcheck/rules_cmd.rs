//! `apcheck rules` and `apcheck explain CODE`: the registry's docs, as text or JSON.

use std::process::ExitCode;

use apcheck::registry;
use apcheck::rule::Rule;

use crate::output::{self, DocFormat};

#[derive(clap::Args)]
pub struct RulesArgs {
    /// `json` prints the registry as the page reads it.
    #[arg(long, value_enum, default_value_t = DocFormat::Text)]
    format: DocFormat,
}

#[derive(clap::Args)]
pub struct ExplainArgs {
    /// A rule code (`AP201`) or name (`manifest-name-invalid`).
    code: String,
    #[arg(long, value_enum, default_value_t = DocFormat::Text)]
    format: DocFormat,
}

pub fn rules(args: RulesArgs) -> ExitCode {
    let all: Vec<&Rule> = registry::all().collect();
    let text = match args.format {
        DocFormat::Json => to_json(&all) + "\n",
        DocFormat::Text => rules_table(&all),
    };
    output::print(&text).map_or_else(|code| code, |()| ExitCode::from(output::EXIT_CLEAN))
}

pub fn explain(args: ExplainArgs) -> ExitCode {
    let Some(rule) = registry::find(&args.code) else {
        return output::fail(format!("no rule named `{}`; `apcheck rules` lists them", args.code));
    };
    let text = match args.format {
        DocFormat::Json => to_json(rule) + "\n",
        DocFormat::Text => registry::explain_text(rule),
    };
    output::print(&text).map_or_else(|code| code, |()| ExitCode::from(output::EXIT_CLEAN))
}

fn to_json(value: &impl serde::Serialize) -> String {
    // Rules are static strings and enums: serializing cannot fail.
    serde_json::to_string_pretty(value).expect("rules serialize to JSON")
}

/// One rule a line, columns aligned to their widest cell, under a header.
fn rules_table(all: &[&Rule]) -> String {
    let header = ["CODE", "SEVERITY", "NAME", "SPEC", "SUMMARY"];
    let rows: Vec<[&str; 5]> = all
        .iter()
        .map(|rule| [rule.code, rule.severity.as_str(), rule.name, rule.spec, rule.summary])
        .collect();
    let mut widths = header.map(|cell| cell.chars().count());
    for row in &rows {
        for (width, cell) in widths.iter_mut().zip(row) {
            *width = (*width).max(cell.chars().count());
        }
    }
    let mut out = String::new();
    for row in std::iter::once(&header).chain(&rows) {
        let mut line = String::new();
        for (column, cell) in row.iter().enumerate() {
            if column + 1 == row.len() {
                line.push_str(cell);
            } else {
                let pad = widths[column] - cell.chars().count();
                line.push_str(cell);
                line.push_str(&" ".repeat(pad + 2));
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}
