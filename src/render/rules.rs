//! `apcheck rules` and `apcheck explain`'s documents: the registry as an
//! aligned table or as the JSON the page reads, and a rule's text doc
//! (`registry::explain_text`) made safe to print.

use crate::registry;
use crate::render::escape::visible;
use crate::rule::Rule;

/// `apcheck explain`'s text, for the CLI and the page: each line escaped, since
/// the examples show the very characters some rules are about (AP318, AP614).
pub fn explain(rule: &Rule) -> String {
    registry::explain_text(rule)
        .lines()
        .map(|line| visible(line).into_owned() + "\n")
        .collect()
}

/// Rules, or one rule, as pretty JSON with a final newline.
pub fn json(value: &impl serde::Serialize) -> String {
    // Rules are static strings and enums: serializing cannot fail.
    serde_json::to_string_pretty(value).expect("rules serialize to JSON") + "\n"
}

/// One rule a line, columns aligned to their widest cell, under a header.
pub fn table(all: &[&Rule]) -> String {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn explain_shows_hidden_characters_as_escapes() {
        let text = explain(registry::find("AP614").unwrap());
        assert!(text.contains("Query invoices.\\u{e0052}\\u{e0065}"), "{text}");
        assert!(!text.chars().any(crate::source::invisible::is_invisible));
        assert_eq!(
            explain(registry::find("AP209").unwrap()),
            registry::explain_text(registry::find("AP209").unwrap())
        );
    }

    #[test]
    fn the_table_aligns_every_column_under_its_header() {
        let all: Vec<&Rule> = registry::all().collect();
        let out = table(&all);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), all.len() + 1);
        let column = lines[0].find("SEVERITY").unwrap();
        for (line, rule) in lines[1..].iter().zip(&all) {
            assert!(line.starts_with(rule.code), "{line}");
            assert_eq!(
                &line[column..column + rule.severity.as_str().len()],
                rule.severity.as_str(),
                "{line}"
            );
        }
    }

    #[test]
    fn the_json_is_the_registry_the_page_reads() {
        let rule = registry::find("AP201").unwrap();
        let value: serde_json::Value = serde_json::from_str(&json(rule)).unwrap();
        assert_eq!(value["code"], "AP201");
    }
}
