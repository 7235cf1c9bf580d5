//! The core's answers in protocol shape: findings as LSP diagnostics, hovers,
//! completions and quick fixes.

use std::collections::BTreeMap;
use std::str::FromStr;

use apcheck::assist::schema_help::{CompletionKind, JsonDocument, complete as complete_json, key_doc_at};
use apcheck::assist::{finding_tags, rule_markdown};
use apcheck::{Diagnostic, Severity};
use lsp_types::{
    CodeDescription, CompletionItemKind, CompletionList, CompletionResponse, CompletionTextEdit,
    Diagnostic as LspDiagnostic, DiagnosticSeverity, DiagnosticTag, Documentation, Hover, HoverContents, MarkupContent,
    MarkupKind, NumberOrString, Position, Range, TextEdit, Uri,
};
use serde_json::json;

use super::packages::Package;
use super::position::{Encoding, offset_at, position_of_line_column, range_of};

/// One open file of a package, for a request about it.
pub struct Context<'s> {
    pub package: &'s Package,
    pub relative: &'s str,
    pub encoding: Encoding,
}

/// The package's findings as LSP diagnostics, by package-relative file.
/// Findings placed in no file belong to the manifest, where a client starts.
pub fn diagnostics_by_file(
    package: &Package,
    encoding: Encoding,
    rule_docs: &str,
) -> BTreeMap<String, Vec<LspDiagnostic>> {
    let mut by_file: BTreeMap<String, Vec<LspDiagnostic>> = BTreeMap::new();
    let Some((_, report)) = &package.checked else {
        return by_file;
    };
    for diagnostic in &report.diagnostics {
        let file = diagnostic.file.clone().unwrap_or_else(|| "plugin.json".to_string());
        let text = package.text(&file).unwrap_or("");
        let tags = finding_tags(report, diagnostic);
        let mut message = format!("{} ({})", diagnostic.message, diagnostic.spec);
        if let Some(skipped) = &tags.skipped {
            message.push_str(&format!("; {skipped}"));
        }
        if let Some(hint) = &diagnostic.hint {
            message.push_str(&format!("\nfix: {hint}"));
        }
        by_file.entry(file).or_default().push(LspDiagnostic {
            range: range_in(text, diagnostic, encoding),
            severity: Some(match diagnostic.severity {
                Severity::Error => DiagnosticSeverity::ERROR,
                Severity::Warning => DiagnosticSeverity::WARNING,
                Severity::Info => DiagnosticSeverity::INFORMATION,
            }),
            code: Some(NumberOrString::String(diagnostic.code.to_string())),
            code_description: Uri::from_str(&format!("{rule_docs}#rules/{}", diagnostic.code))
                .ok()
                .map(|href| CodeDescription { href }),
            source: Some("apcheck".into()),
            message,
            related_information: None,
            tags: tags.ignored_input.then(|| vec![DiagnosticTag::UNNECESSARY]),
            data: Some(json!({
                "spec": diagnostic.spec,
                "pointer": diagnostic.pointer,
                "skipped": tags.skipped,
            })),
        });
    }
    by_file
}

/// Where a finding sits: its byte span, else its line and column, else the file's start.
fn range_in(text: &str, diagnostic: &Diagnostic, encoding: Encoding) -> Range {
    if let Some(span) = diagnostic.span.filter(|span| span.end <= text.len()) {
        return range_of(text, span.start, span.end, encoding);
    }
    match (diagnostic.line, diagnostic.column) {
        (Some(line), column) => {
            let start = position_of_line_column(text, line, column.unwrap_or(1), encoding);
            let end = match (diagnostic.end_line, diagnostic.end_column) {
                (Some(end_line), Some(end_column)) => position_of_line_column(text, end_line, end_column, encoding),
                _ => start,
            };
            Range::new(start, end)
        }
        (None, _) => Range::default(),
    }
}

/// The findings of the context's file whose range holds `offset`.
fn findings_at<'s>(context: &Context<'s>, offset: usize) -> Vec<&'s Diagnostic> {
    let Some((_, report)) = &context.package.checked else {
        return Vec::new();
    };
    report
        .diagnostics
        .iter()
        .filter(|d| d.file.as_deref().unwrap_or("plugin.json") == context.relative)
        .filter(|d| d.span.is_some_and(|span| span.start <= offset && offset <= span.end))
        .collect()
}

/// On a finding's range: the rule doc of each finding there. On a manifest or
/// MCP configuration key: what the schema and the spec say about it.
pub fn hover(context: Context<'_>, position: Position) -> Option<Hover> {
    let text = context.package.text(context.relative)?;
    let offset = offset_at(text, position, context.encoding);
    let mut sections: Vec<String> = Vec::new();
    let mut range = None;
    if let Some(document) = JsonDocument::of(context.relative) {
        if let Some((span, doc)) = key_doc_at(document, text, offset) {
            sections.push(doc.markdown());
            range = Some(range_of(text, span.start, span.end, context.encoding));
        }
    }
    let mut shown: Vec<&str> = Vec::new();
    for finding in findings_at(&context, offset) {
        if shown.contains(&finding.code) {
            continue;
        }
        shown.push(finding.code);
        if let Some(rule) = apcheck::registry::find(finding.code) {
            sections.push(format!("{}\n\n{}", finding.message, rule_markdown(rule)));
        }
        if range.is_none() {
            range = finding
                .span
                .map(|span| range_of(text, span.start, span.end, context.encoding));
        }
    }
    (!sections.is_empty()).then(|| Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value: sections.join("\n\n---\n\n"),
        }),
        range,
    })
}

/// Manifest keys, `$schema` and `type` values and server fields, from the closed schemas.
pub fn complete(context: Context<'_>, position: Position) -> Option<CompletionResponse> {
    let document = JsonDocument::of(context.relative)?;
    let text = context.package.text(context.relative)?;
    let offset = offset_at(text, position, context.encoding);
    let completions = complete_json(document, text, offset);
    let replace = range_of(
        text,
        completions.replace.start,
        completions.replace.end,
        context.encoding,
    );
    let items = completions
        .items
        .into_iter()
        .map(|item| lsp_types::CompletionItem {
            label: item.label,
            kind: Some(match item.kind {
                CompletionKind::Key => CompletionItemKind::PROPERTY,
                CompletionKind::Value => CompletionItemKind::VALUE,
            }),
            detail: Some(item.detail),
            documentation: Some(Documentation::MarkupContent(MarkupContent {
                kind: MarkupKind::Markdown,
                value: item.documentation,
            })),
            // The replaced range starts with the quote, so the client filters by it too.
            filter_text: Some(item.insert.clone()),
            text_edit: Some(CompletionTextEdit::Edit(TextEdit::new(replace, item.insert))),
            ..lsp_types::CompletionItem::default()
        })
        .collect();
    Some(CompletionResponse::List(CompletionList {
        is_incomplete: false,
        items,
    }))
}
