//! The core's answers in protocol shape: findings as LSP diagnostics, hovers,
//! completions and quick fixes. What they say is `apcheck::assist`'s; this
//! converts offsets to positions, files to URIs and answers to LSP types.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::str::FromStr;

use apcheck::assist::finding_tags;
use apcheck::assist::findings::{editor_message, hover_at, quick_fixes, shown_in};
use apcheck::assist::schema_help::{CompletionKind, JsonDocument, complete as complete_json};
use apcheck::{Diagnostic, PackageReport, Severity};
use lsp_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, CodeActionResponse, CodeDescription, CompletionItemKind,
    CompletionList, CompletionResponse, CompletionTextEdit, CreateFile, Diagnostic as LspDiagnostic,
    DiagnosticSeverity, DiagnosticTag, DocumentChangeOperation, DocumentChanges, Documentation, Hover, HoverContents,
    MarkupContent, MarkupKind, NumberOrString, OneOf, OptionalVersionedTextDocumentIdentifier, Position, Range,
    ResourceOp, TextDocumentEdit, TextEdit, Uri, WorkspaceEdit,
};
use serde_json::json;

use super::packages::Package;
use super::position::{Encoding, Lines, offset_at, range_of, uri_of};

/// One open file of a package, for a request about it.
pub struct Context<'s> {
    pub package: &'s Package,
    pub relative: &'s str,
    /// The plugin root, for the URIs of the files a fix edits.
    pub root: &'s Path,
    pub encoding: Encoding,
    pub rule_docs: &'s str,
    /// Whether the client applies a workspace edit that creates a file.
    pub can_create_files: bool,
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
    // Each file's lines are found once, however many findings it has.
    let mut lines: BTreeMap<&str, Lines<'_>> = BTreeMap::new();
    for diagnostic in &report.diagnostics {
        let file = shown_in(diagnostic);
        let file_lines = lines
            .entry(file)
            .or_insert_with(|| Lines::new(package.text(file).unwrap_or(""), encoding));
        let converted = lsp_diagnostic(report, diagnostic, file_lines, rule_docs);
        by_file.entry(file.to_string()).or_default().push(converted);
    }
    by_file
}

/// One finding in protocol shape: code, doc link, § in the message and in
/// `data.spec`, `Unnecessary` for ignored input, and the skipped component.
fn lsp_diagnostic(
    report: &PackageReport,
    diagnostic: &Diagnostic,
    lines: &Lines<'_>,
    rule_docs: &str,
) -> LspDiagnostic {
    let tags = finding_tags(report, diagnostic);
    let message = editor_message(diagnostic, &tags);
    LspDiagnostic {
        range: range_in(lines, diagnostic),
        severity: Some(match diagnostic.severity {
            Severity::Error => DiagnosticSeverity::ERROR,
            Severity::Warning => DiagnosticSeverity::WARNING,
            Severity::Info => DiagnosticSeverity::INFORMATION,
        }),
        code: Some(NumberOrString::String(diagnostic.code.to_string())),
        code_description: Uri::from_str(&format!("{rule_docs}{}", diagnostic.code))
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
    }
}

/// Where a finding sits: its byte span, else its line and column, else the file's start.
fn range_in(lines: &Lines<'_>, diagnostic: &Diagnostic) -> Range {
    if let Some(span) = diagnostic.span.filter(|span| span.end <= lines.len()) {
        return lines.range(span.start, span.end);
    }
    match (diagnostic.line, diagnostic.column) {
        (Some(line), column) => {
            let start = lines.position_of_line_column(line, column.unwrap_or(1));
            let end = match (diagnostic.end_line, diagnostic.end_column) {
                (Some(end_line), Some(end_column)) => lines.position_of_line_column(end_line, end_column),
                _ => start,
            };
            Range::new(start, end)
        }
        (None, _) => Range::default(),
    }
}

/// On a finding's range: the rule doc of each finding there. On a manifest or
/// MCP configuration key: what the schema and the spec say about it.
pub fn hover(context: Context<'_>, position: Position) -> Option<Hover> {
    let text = context.package.text(context.relative)?;
    let offset = offset_at(text, position, context.encoding);
    let report = context.package.checked.as_ref().map(|(_, report)| report);
    let hover = hover_at(report, context.relative, text, offset)?;
    Some(Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value: hover.markdown,
        }),
        range: hover
            .span
            .map(|span| range_of(text, span.start, span.end, context.encoding)),
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

/// A quick fix for each finding in `range` that carries fix edits: the safe
/// ones preferred, the unsafe ones offered with their title saying so. The
/// edits may touch other files of the package; each is placed in its file's
/// text as last checked.
// `WorkspaceEdit::changes` is keyed by `Uri`, whose lazily parsed parts look
// mutable to clippy; its hash and equality are its text, which never changes.
#[allow(clippy::mutable_key_type)]
pub fn code_actions(context: Context<'_>, range: Range) -> Option<CodeActionResponse> {
    let (_, report) = context.package.checked.as_ref()?;
    let lines = Lines::new(context.package.text(context.relative)?, context.encoding);
    let mut actions = Vec::new();
    for quick in quick_fixes(report, context.relative) {
        let (diagnostic, fix) = (quick.diagnostic, quick.fix);
        let at = range_in(&lines, diagnostic);
        if at.end < range.start || range.end < at.start {
            continue;
        }
        let mut changes: HashMap<Uri, Vec<TextEdit>> = HashMap::new();
        for edit in &fix.edits {
            let Some(edited) = context.package.text(&edit.file) else {
                continue;
            };
            let replaced = range_of(edited, edit.span.start, edit.span.end, context.encoding);
            changes
                .entry(uri_of(&context.root.join(&edit.file)))
                .or_default()
                .push(TextEdit::new(replaced, edit.replacement.clone()));
        }
        actions.push(CodeActionOrCommand::CodeAction(CodeAction {
            title: quick.title(),
            kind: Some(CodeActionKind::QUICKFIX),
            diagnostics: Some(vec![lsp_diagnostic(report, diagnostic, &lines, context.rule_docs)]),
            edit: Some(WorkspaceEdit {
                changes: Some(changes),
                ..WorkspaceEdit::default()
            }),
            is_preferred: Some(quick.preferred()),
            ..CodeAction::default()
        }));
    }
    actions.extend(ignore_actions(&context, report, &lines, range));
    Some(actions)
}

/// For the findings in `range` of a JSON file, which has no comments to hold
/// an `apcheck-ignore`: a quick fix per code that hides it in this file
/// through an `[[overrides]]` entry of the configuration in use (created as
/// `apcheck.toml` at the plugin root when there is none). None while the
/// configuration has a problem: the package is then checked with the
/// defaults, and a new file would hide the broken one.
#[allow(clippy::mutable_key_type)]
fn ignore_actions(
    context: &Context<'_>,
    report: &PackageReport,
    lines: &Lines<'_>,
    range: Range,
) -> Vec<CodeActionOrCommand> {
    let package = context.package;
    if !context.relative.ends_with(".json") || package.config_problem.is_some() {
        return Vec::new();
    }
    let mut offered: Vec<&str> = Vec::new();
    let mut actions = Vec::new();
    for diagnostic in &report.diagnostics {
        let at = range_in(lines, diagnostic);
        if diagnostic.file.as_deref() != Some(context.relative)
            || at.end < range.start
            || range.end < at.start
            || offered.contains(&diagnostic.code)
        {
            continue;
        }
        offered.push(diagnostic.code);
        let Some(target) = package
            .configuration
            .ignore_target(context.root, context.relative, diagnostic.code)
        else {
            continue;
        };
        let uri = uri_of(&target.path);
        let text = target.text.as_deref().unwrap_or_default();
        let edit = TextEdit::new(
            range_of(text, target.edit.span.start, target.edit.span.end, context.encoding),
            target.edit.replacement,
        );
        let workspace_edit = match target.text {
            Some(_) => WorkspaceEdit {
                changes: Some(HashMap::from([(uri, vec![edit])])),
                ..WorkspaceEdit::default()
            },
            None if context.can_create_files => WorkspaceEdit {
                document_changes: Some(DocumentChanges::Operations(vec![
                    DocumentChangeOperation::Op(ResourceOp::Create(CreateFile {
                        uri: uri.clone(),
                        options: None,
                        annotation_id: None,
                    })),
                    DocumentChangeOperation::Edit(TextDocumentEdit {
                        text_document: OptionalVersionedTextDocumentIdentifier { uri, version: None },
                        edits: vec![OneOf::Left(edit)],
                    }),
                ])),
                ..WorkspaceEdit::default()
            },
            None => continue,
        };
        let config_name = target.path.file_name().map_or_else(
            || target.path.display().to_string(),
            |name| name.to_string_lossy().into_owned(),
        );
        actions.push(CodeActionOrCommand::CodeAction(CodeAction {
            title: format!("Ignore {} in this file ({config_name})", diagnostic.code),
            kind: Some(CodeActionKind::QUICKFIX),
            diagnostics: Some(vec![lsp_diagnostic(report, diagnostic, lines, context.rule_docs)]),
            edit: Some(workspace_edit),
            is_preferred: Some(false),
            ..CodeAction::default()
        }));
    }
    actions
}
