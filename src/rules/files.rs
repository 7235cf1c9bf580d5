//! AP0xx: reading package files. Every hop reads its files through here, so a
//! file that cannot be used (not UTF-8, NUL bytes, cut by a reader limit,
//! unreadable, a FIFO where a file belongs, a JSON syntax error) yields one
//! clear diagnostic on that file, and the caller's failure boundary decides
//! what else stops; the rest of the package is still checked.
//!
//! Byte order marks: RFC 8259 §8.1 lets a JSON parser ignore a BOM, but the
//! parsers clients are built on (JavaScript `JSON.parse`, Python `json.loads`,
//! Go `encoding/json`, serde_json) reject one, and §5.2/§7.2.1 say the file
//! "MUST be JSON". So a BOM in a JSON file is an error with the same
//! consequence as a syntax error (AP002). In `SKILL.md` it is a warning and is
//! skipped (see the skills rules), since YAML allows one at the stream start.

use crate::diag::{Diagnostic, Severity};
use crate::json::parse_document;
use crate::rule::{Example, Rule};
use crate::rules::containment::{Resolution, resolve_within_root};
use crate::source::json::JsonSource;
use crate::source::{LineIndex, Span};
use crate::tree::{Entry, Tree};

const VALID_MANIFEST: &str =
    "{\n  \"$schema\": \"https://agent-plugins.org/schemas/1.0.0/plugin.schema.json\",\n  \"name\": \"demo\"\n}\n";

pub static FILE_NOT_UTF8: Rule = Rule {
    code: "AP001",
    name: "file-not-utf8",
    severity: Severity::Error,
    spec: "RFC 8259 §8.1; YAML 1.2 §5.2",
    summary: "A package file the client reads is not valid UTF-8",
    fix_hint: Some("Save the file as UTF-8"),
    doc: rule_doc! {
        what: "Decodes plugin.json, mcp.json and each SKILL.md as UTF-8 and reports the first invalid byte.",
        why: "JSON exchanged between systems MUST be UTF-8 (RFC 8259 §8.1) and YAML frontmatter is read as \
              Unicode text: a client cannot parse the file, so the manifest is rejected, MCP is disabled, or \
              the skill is skipped.",
        failing: Example::Described(
            "plugin.json saved as Latin-1 with \"description\": \"Caf\\xe9 tools\" (byte 0xE9 is not UTF-8)",
        ),
        fixed: Example::Package(&[(
            "plugin.json",
            "{\n  \"$schema\": \"https://agent-plugins.org/schemas/1.0.0/plugin.schema.json\",\n  \"name\": \"cafe-tools\",\n  \"description\": \"Café tools\"\n}\n",
        )]),
    },
};

pub static JSON_BYTE_ORDER_MARK: Rule = Rule {
    code: "AP002",
    name: "json-byte-order-mark",
    severity: Severity::Error,
    spec: "RFC 8259 §8.1; Agent Plugins §5.2, §7.2.1",
    summary: "A JSON file starts with a UTF-8 byte order mark",
    fix_hint: Some("Save the file as UTF-8 without a BOM"),
    doc: rule_doc! {
        what: "Reports plugin.json or mcp.json starting with the bytes EF BB BF (U+FEFF).",
        why: "RFC 8259 §8.1 only permits a parser to ignore a BOM; JSON.parse, Python's json, Go's \
              encoding/json and serde_json all reject one, so a client treats the file as not JSON: the \
              manifest is rejected (§5.2) or MCP is disabled (§7.2.2).",
        failing: Example::Package(&[(
            "plugin.json",
            "\u{FEFF}{\"$schema\": \"https://agent-plugins.org/schemas/1.0.0/plugin.schema.json\", \"name\": \"demo\"}",
        )]),
        fixed: Example::Package(&[("plugin.json", VALID_MANIFEST)]),
    },
};

pub static FILE_HAS_NUL: Rule = Rule {
    code: "AP003",
    name: "file-has-nul",
    severity: Severity::Error,
    spec: "RFC 8259 §7; YAML 1.2 §5.1",
    summary: "A text file the client reads contains NUL bytes",
    fix_hint: Some("Remove the NUL bytes; the file was probably saved as UTF-16 or corrupted"),
    doc: rule_doc! {
        what: "Reports the first NUL byte in plugin.json, mcp.json or a SKILL.md's frontmatter (in any part \
               of a SKILL.md without one).",
        why: "NUL is not allowed unescaped in JSON nor printable in YAML; it usually means a UTF-16 file or a \
              binary mistaken for text, and clients fail to parse it. A SKILL.md's Markdown body has no format \
              restrictions (Agent Skills specification), so a NUL there skips nothing.",
        failing: Example::Package(&[(
            "plugin.json",
            "{\"$schema\": \"https://agent-plugins.org/schemas/1.0.0/plugin.schema.json\", \"name\": \"demo\"}\0",
        )]),
        fixed: Example::Package(&[("plugin.json", VALID_MANIFEST)]),
    },
};

pub static FILE_TRUNCATED: Rule = Rule {
    code: "AP004",
    name: "file-truncated",
    severity: Severity::Error,
    spec: "Agent Plugins §5.1, §6.1",
    summary: "A file the client reads is larger than the reader's limit and was not checked",
    fix_hint: Some("Make the file smaller, or raise the reader's size limit"),
    doc: rule_doc! {
        what: "Reports plugin.json, mcp.json or a SKILL.md that the reader cut at its per-file or total size limit.",
        why: "Only part of the file was read, so no verdict about it would be honest; the file is treated as \
              unusable and the failure boundary of its component applies.",
        failing: Example::Described("a 100 MB SKILL.md, cut by the reader at 16 MiB"),
        fixed: Example::Package(&[("plugin.json", VALID_MANIFEST)]),
    },
};

pub static FILE_UNREADABLE: Rule = Rule {
    code: "AP005",
    name: "file-unreadable",
    severity: Severity::Error,
    spec: "Agent Plugins §5.1, §6.2",
    summary: "A package path the client needs exists but could not be read",
    fix_hint: Some("Fix the file's permissions"),
    doc: rule_doc! {
        what: "Reports plugin.json, skills/, mcp.json or a SKILL.md that exists but could not be read \
               (permissions, I/O error).",
        why: "A client that cannot read the file cannot load what it declares; the failure boundary of that \
              file applies.",
        failing: Example::Described("plugin.json with mode 000, read by another user"),
        fixed: Example::Package(&[("plugin.json", VALID_MANIFEST)]),
    },
};

pub static NOT_A_REGULAR_FILE: Rule = Rule {
    code: "AP006",
    name: "not-a-regular-file",
    severity: Severity::Error,
    spec: "Agent Plugins §5.1, §6.2",
    summary: "plugin.json or mcp.json is not a regular file (a directory, FIFO, socket, device or link to nothing)",
    fix_hint: Some("Replace it with a regular file"),
    doc: rule_doc! {
        what: "Reports plugin.json or mcp.json resolving to something other than a regular file, or being a \
               symlink to nothing. (A skill's SKILL.md that is not a file is AP317.)",
        why: "A manifest that is not a file rejects the plugin (§5.1). §6.2: a fixed location that is present \
              but does not resolve to the expected kind invalidates that component type, so an mcp.json \
              directory disables MCP for the plugin, and a link to nothing is present, not absent. Reading a \
              FIFO would block a client forever.",
        failing: Example::Package(&[
            ("plugin.json", VALID_MANIFEST),
            ("mcp.json/servers.json", "{\"mcpServers\": {}}"),
        ]),
        fixed: Example::Package(&[
            ("plugin.json", VALID_MANIFEST),
            (
                "mcp.json",
                "{\"$schema\": \"https://agent-plugins.org/schemas/1.0.0/mcp.schema.json\", \"mcpServers\": {}}",
            ),
        ]),
    },
};

pub static TREE_INCOMPLETE: Rule = Rule {
    code: "AP007",
    name: "tree-incomplete",
    severity: Severity::Warning,
    spec: "Agent Plugins §6.1",
    summary: "The reader left entries out or cut files at its limits, so the check is partial",
    fix_hint: Some("Check a smaller tree, or raise the reader's limits"),
    doc: rule_doc! {
        what: "Reports, once per package, how many entries the reader omitted and how many files it cut \
               because a limit on entries, file size or total size was reached, naming the first few.",
        why: "A verdict on a tree that was not fully read must say so: an omitted skill directory is not \
              discovered here but would be by a client.",
        failing: Example::Described("a plugin root holding 200,000 files, read with a 100,000-entry limit"),
        fixed: Example::Package(&[("plugin.json", VALID_MANIFEST)]),
    },
};

pub static JSON_SYNTAX: Rule = Rule {
    code: "AP008",
    name: "json-syntax",
    severity: Severity::Error,
    spec: "RFC 8259; Agent Plugins §5.2, §7.2.2",
    summary: "A JSON file is not valid JSON, or is JSON that apcheck's parser cannot take",
    fix_hint: Some("Fix the syntax at the position shown; comments and trailing commas are not JSON"),
    doc: rule_doc! {
        what: "Parses plugin.json and mcp.json as strict JSON (no comments, no trailing commas) and reports the \
               first error at its line and column. Nesting past 128 (RFC 8259 §9) and unpaired `\\u` \
               surrogates (§8.2), which RFC 8259 leaves to each parser, are reported as not checked.",
        why: "The manifest MUST be JSON (§5.2): a syntax error rejects the plugin. An mcp.json that is not \
              JSON disables MCP for the plugin (§7.2.2). Parsers disagree on the two limits, so a file past \
              apcheck's fails the check rather than pass unread.",
        failing: Example::Package(&[(
            "plugin.json",
            "{\n  \"$schema\": \"https://agent-plugins.org/schemas/1.0.0/plugin.schema.json\",\n  \"name\": \"demo\",\n}\n",
        )]),
        fixed: Example::Package(&[("plugin.json", VALID_MANIFEST)]),
    },
};

pub static JSON_DUPLICATE_KEY: Rule = Rule {
    code: "AP009",
    name: "json-duplicate-key",
    severity: Severity::Warning,
    spec: "RFC 8259 §4",
    summary: "A JSON object repeats a member name",
    fix_hint: Some("Keep one member with that name"),
    doc: rule_doc! {
        what: "Reports every object member whose name already appeared in the same object.",
        why: "RFC 8259 §4: names SHOULD be unique, and parsers disagree on duplicates (most keep the last, \
              some the first, some reject), so two clients may load different values. apcheck checks the \
              last one, as JSON.parse and serde_json keep it.",
        failing: Example::Package(&[(
            "plugin.json",
            "{\n  \"$schema\": \"https://agent-plugins.org/schemas/1.0.0/plugin.schema.json\",\n  \"name\": \"demo\",\n  \"name\": \"demo-two\"\n}\n",
        )]),
        fixed: Example::Package(&[("plugin.json", VALID_MANIFEST)]),
    },
};

pub static RULES: &[&Rule] = &[
    &FILE_NOT_UTF8,
    &JSON_BYTE_ORDER_MARK,
    &FILE_HAS_NUL,
    &FILE_TRUNCATED,
    &FILE_UNREADABLE,
    &NOT_A_REGULAR_FILE,
    &TREE_INCOMPLETE,
    &JSON_SYNTAX,
    &JSON_DUPLICATE_KEY,
];

/// The outcome of reading one package file.
#[derive(Debug)]
pub enum Load<T> {
    /// Nothing at that path (§6.2: an absent fixed location is not an error).
    Absent,
    /// The path is there but unusable; diagnostics were pushed and the caller
    /// applies its failure boundary.
    Failed,
    Loaded(T),
}

/// A package file decoded as UTF-8 text.
#[derive(Debug, Clone)]
pub struct TextFile {
    /// The package-relative path as requested (before following links).
    pub path: String,
    pub text: String,
    pub index: LineIndex,
}

/// Reads `path` as UTF-8 text: containment (§4.1), then the kind of entry,
/// then the bytes (cut by a limit, not UTF-8). A leading BOM and NUL bytes
/// are kept in the text; each format decides about them ([`report_nul`]). `consequence` finishes every
/// diagnostic's sentence with what the client does, e.g. `"the plugin is
/// rejected (§5.2)"`.
pub fn read_text_file(tree: &Tree, path: &str, consequence: &str, diagnostics: &mut Vec<Diagnostic>) -> Load<TextFile> {
    let resolved = match resolve_within_root(tree, path, consequence, diagnostics) {
        // §6.2: a link that resolves to nothing is present, not absent.
        Resolution::Absent => match dangling_link(tree, path) {
            Some(target) => {
                let message = format!(
                    "`{path}` is a symlink to `{target}`, which does not exist, not a regular file; {consequence}"
                );
                diagnostics.push(Diagnostic::new(&NOT_A_REGULAR_FILE, message).in_file(path));
                return Load::Failed;
            }
            None => return Load::Absent,
        },
        Resolution::Refused => return Load::Failed,
        Resolution::Found(resolved) => resolved,
    };
    // One read of the bytes, whether the tree holds them or loads them now
    // (they are dropped with this file, so a package's files are never all held).
    let bytes = match resolved.entry {
        Entry::File(_) | Entry::Unreadable(_) => match tree.file_bytes(&resolved) {
            Ok(bytes) => bytes,
            Err(why) => {
                diagnostics.push(
                    Diagnostic::new(
                        &FILE_UNREADABLE,
                        format!("`{path}` could not be read ({why}); {consequence}"),
                    )
                    .in_file(path),
                );
                return Load::Failed;
            }
        },
        other => {
            diagnostics.push(
                Diagnostic::new(
                    &NOT_A_REGULAR_FILE,
                    format!("`{path}` is {}, not a regular file; {consequence}", describe(other)),
                )
                .in_file(path),
            );
            return Load::Failed;
        }
    };
    if let Some(real_size) = tree.truncated().get(resolved.path) {
        diagnostics.push(
            Diagnostic::new(
                &FILE_TRUNCATED,
                format!(
                    "`{path}` is {real_size} bytes, more than the reader keeps ({} bytes), so it was not checked; {consequence}",
                    bytes.len()
                ),
            )
            .in_file(path),
        );
        return Load::Failed;
    }
    let text = match String::from_utf8(bytes.into_owned()) {
        Ok(text) => text,
        Err(error) => {
            let bytes = error.as_bytes();
            let error = error.utf8_error();
            let valid = std::str::from_utf8(&bytes[..error.valid_up_to()]).unwrap_or_default();
            let index = LineIndex::new(valid);
            let at = Span::new(valid.len(), valid.len());
            diagnostics.push(
                Diagnostic::new(
                    &FILE_NOT_UTF8,
                    format!(
                        "`{path}` is not UTF-8: byte 0x{:02X} at offset {} is invalid; {consequence}",
                        bytes[error.valid_up_to()],
                        error.valid_up_to()
                    ),
                )
                .in_file(path)
                .at_span(valid, &index, at),
            );
            return Load::Failed;
        }
    };
    let index = LineIndex::new(&text);
    Load::Loaded(TextFile {
        path: path.to_string(),
        text,
        index,
    })
}

/// Reports the first NUL byte in `file.text[..end]` (AP003) and returns
/// whether there was one. Each format says how far NUL matters: all of a JSON
/// file, only a SKILL.md's frontmatter (its Markdown body has no format
/// restrictions).
pub fn report_nul(file: &TextFile, end: usize, consequence: &str, diagnostics: &mut Vec<Diagnostic>) -> bool {
    let Some(nul) = file.text[..end].find('\0') else {
        return false;
    };
    diagnostics.push(
        Diagnostic::new(
            &FILE_HAS_NUL,
            format!("`{}` contains a NUL byte at offset {nul}; {consequence}", file.path),
        )
        .in_file(&file.path)
        .at_span(&file.text, &file.index, Span::new(nul, nul + 1)),
    );
    true
}

/// Reads `path` as strict JSON (RFC 8259) with spans: everything
/// [`read_text_file`] checks, then a BOM (AP002), syntax (AP008, at line:col)
/// and duplicate member names (AP009, a warning: the value kept is the last).
/// Shared by the manifest and MCP hops. The source owns its text (hence
/// `'static`), since the hops keep it after the tree's bytes are read.
pub fn read_json_file(
    tree: &Tree,
    path: &str,
    consequence: &str,
    diagnostics: &mut Vec<Diagnostic>,
) -> Load<JsonSource<'static>> {
    let file = match read_text_file(tree, path, consequence, diagnostics) {
        Load::Loaded(file) => file,
        Load::Absent => return Load::Absent,
        Load::Failed => return Load::Failed,
    };
    if report_nul(&file, file.text.len(), consequence, diagnostics) {
        return Load::Failed;
    }
    if file.text.starts_with('\u{FEFF}') {
        diagnostics.push(
            Diagnostic::new(
                &JSON_BYTE_ORDER_MARK,
                format!("`{path}` starts with a byte order mark, which JSON parsers reject; {consequence}"),
            )
            .in_file(path)
            .at_span(&file.text, &file.index, Span::new(0, 3)),
        );
        return Load::Failed;
    }
    let doc = match parse_document(&file.text) {
        Ok(doc) => doc,
        Err(error) => {
            let diagnostic = match error.parser_limit_hint() {
                Some(hint) => Diagnostic::new(
                    &JSON_SYNTAX,
                    format!("`{path}` could not be checked: {}; {consequence}", error.message),
                )
                .with_hint(hint),
                None => Diagnostic::new(
                    &JSON_SYNTAX,
                    format!("`{path}` is not valid JSON: {}; {consequence}", error.message),
                ),
            };
            diagnostics.push(diagnostic.in_file(path).at_span(
                &file.text,
                &file.index,
                Span::new(error.offset, error.offset),
            ));
            return Load::Failed;
        }
    };
    let json = JsonSource {
        path: file.path,
        text: file.text.into(),
        index: file.index,
        doc,
    };
    for duplicate in &json.doc.duplicate_keys {
        let first = json.index.line_col(&json.text, duplicate.first_key_span.start);
        diagnostics.push(
            Diagnostic::new(
                &JSON_DUPLICATE_KEY,
                format!(
                    "`{}` repeats a member name first given at line {}; clients disagree on which value wins (apcheck checks the last)",
                    duplicate.pointer, first.line
                ),
            )
            .in_file(path)
            .at_pointer(&duplicate.pointer)
            .at_span(&json.text, &json.index, duplicate.key_span),
        );
    }
    Load::Loaded(json)
}

/// The target of `path` when `path` itself is a symlink, for a path that
/// resolved to nothing: the package has an entry there, so a fixed location
/// is present but not of the expected kind (§6.2), unlike a path with no entry.
pub fn dangling_link<'t>(tree: &'t Tree, path: &str) -> Option<&'t str> {
    match tree.entry(path) {
        Some(Entry::Symlink(target)) => Some(target),
        _ => None,
    }
}

/// What an entry is, in words: "a directory", "a FIFO".
pub fn describe(entry: &Entry) -> String {
    match entry {
        Entry::File(_) => "a regular file".to_string(),
        Entry::Dir => "a directory".to_string(),
        Entry::Symlink(target) => format!("a symlink to `{target}`"),
        Entry::Other(what) => what.clone(),
        Entry::Unreadable(why) => format!("unreadable ({why})"),
    }
}

/// How many paths a limits report names before "and N more".
const NAMED_PATHS: usize = 3;

/// Reports, once, what the reader left out or cut because of its limits, so a
/// partial check is never silent (AP007).
pub fn report_tree_limits(tree: &Tree, diagnostics: &mut Vec<Diagnostic>) {
    let omitted = tree.omitted();
    let truncated = tree.truncated();
    if omitted.is_empty() && truncated.is_empty() {
        return;
    }
    let mut parts = Vec::new();
    if !omitted.is_empty() {
        let mut limits: Vec<&str> = omitted.values().map(String::as_str).collect();
        limits.sort_unstable();
        limits.dedup();
        parts.push(format!(
            "{} entr{} left out ({}): {}",
            omitted.len(),
            if omitted.len() == 1 { "y" } else { "ies" },
            limits.join(", "),
            name_some(omitted.keys().map(String::as_str), omitted.len())
        ));
    }
    if !truncated.is_empty() {
        parts.push(format!(
            "{} file{} cut at the size limit: {}",
            truncated.len(),
            if truncated.len() == 1 { "" } else { "s" },
            name_some(truncated.keys().map(String::as_str), truncated.len())
        ));
    }
    diagnostics.push(Diagnostic::new(
        &TREE_INCOMPLETE,
        format!(
            "The reader's limits were reached, so this check is partial: {}",
            parts.join("; ")
        ),
    ));
}

fn name_some<'a>(paths: impl Iterator<Item = &'a str>, total: usize) -> String {
    let mut named: Vec<String> = paths.take(NAMED_PATHS).map(|p| format!("`{p}`")).collect();
    if total > NAMED_PATHS {
        named.push(format!("and {} more", total - NAMED_PATHS));
    }
    named.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(tree: &Tree, path: &str) -> (Load<JsonSource<'static>>, Vec<Diagnostic>) {
        let mut diagnostics = Vec::new();
        let load = read_json_file(tree, path, "the plugin is rejected", &mut diagnostics);
        (load, diagnostics)
    }

    fn codes(diagnostics: &[Diagnostic]) -> Vec<&str> {
        diagnostics.iter().map(|d| d.code).collect()
    }

    #[test]
    fn a_link_to_nothing_is_present_not_absent() {
        // §6.2: a fixed location that is present but does not resolve to a
        // regular file makes that component invalid; only no entry is absent.
        let mut tree = Tree::from_files([("plugin.json", "{}")]);
        tree.insert("mcp.json", Entry::Symlink("gone.json".into()));
        let (load, diagnostics) = read(&tree, "mcp.json");
        assert!(matches!(load, Load::Failed));
        assert_eq!(codes(&diagnostics), ["AP006"]);
        assert!(diagnostics[0].message.contains("`gone.json`, which does not exist"));
        let (load, diagnostics) = read(&tree, "other.json");
        assert!(matches!(load, Load::Absent) && diagnostics.is_empty());
    }

    #[test]
    fn invalid_utf8_names_the_byte_and_position() {
        // RFC 8259 §8.1: JSON between systems MUST be UTF-8.
        let tree = Tree::from_files([("plugin.json", b"{\n\"d\": \"Caf\xe9\"}".as_slice())]);
        let (load, diagnostics) = read(&tree, "plugin.json");
        assert!(matches!(load, Load::Failed));
        assert_eq!(codes(&diagnostics), ["AP001"]);
        assert!(diagnostics[0].message.contains("0xE9"));
        assert_eq!((diagnostics[0].line, diagnostics[0].column), (Some(2), Some(10)));
    }

    #[test]
    fn valid_utf8_json_loads() {
        let tree = Tree::from_files([("plugin.json", "{\"d\": \"Café\"}")]);
        let (load, diagnostics) = read(&tree, "plugin.json");
        assert!(matches!(load, Load::Loaded(ref f) if f.doc.value["d"] == "Café"));
        assert!(diagnostics.is_empty());
    }

    #[test]
    fn bom_in_json_is_rejected() {
        // RFC 8259 §8.1 permits ignoring a BOM; the parsers clients use reject it.
        let tree = Tree::from_files([("plugin.json", "\u{FEFF}{}")]);
        let (load, diagnostics) = read(&tree, "plugin.json");
        assert!(matches!(load, Load::Failed));
        assert_eq!(codes(&diagnostics), ["AP002"]);
    }

    #[test]
    fn nul_byte_is_reported_at_its_position() {
        let tree = Tree::from_files([("plugin.json", "{}\n\0")]);
        let (load, diagnostics) = read(&tree, "plugin.json");
        assert!(matches!(load, Load::Failed));
        assert_eq!(codes(&diagnostics), ["AP003"]);
        assert_eq!(diagnostics[0].line, Some(2));
    }

    #[test]
    fn truncated_file_is_not_checked() {
        // A 100 MB file as the reader would leave it: cut, with its real size recorded.
        let mut tree = Tree::from_files([("plugin.json", vec![b' '; 1024])]);
        tree.mark_truncated("plugin.json", 100 * 1024 * 1024);
        let (load, diagnostics) = read(&tree, "plugin.json");
        assert!(matches!(load, Load::Failed));
        assert_eq!(codes(&diagnostics), ["AP004"]);
        assert!(diagnostics[0].message.contains("104857600 bytes"));
    }

    #[test]
    fn unreadable_and_fifo_are_reported() {
        let mut tree = Tree::new();
        tree.insert("plugin.json", Entry::Unreadable("permission denied".into()));
        tree.insert("mcp.json", Entry::Other("a FIFO".into()));
        let (_, unreadable) = read(&tree, "plugin.json");
        assert_eq!(codes(&unreadable), ["AP005"]);
        let (load, fifo) = read(&tree, "mcp.json");
        assert!(matches!(load, Load::Failed));
        assert_eq!(codes(&fifo), ["AP006"]);
        assert!(fifo[0].message.contains("a FIFO"));
    }

    #[test]
    fn directory_is_not_a_regular_file_and_missing_is_absent() {
        let tree = Tree::from_files([("mcp.json/x", "{}")]);
        let (_, diagnostics) = read(&tree, "mcp.json");
        assert_eq!(codes(&diagnostics), ["AP006"]);
        let (load, none) = read(&tree, "plugin.json");
        assert!(matches!(load, Load::Absent));
        assert!(none.is_empty());
    }

    #[test]
    fn syntax_error_is_placed_at_line_and_column() {
        let tree = Tree::from_files([("plugin.json", "{\n  \"a\": 1,\n}")]);
        let (_, diagnostics) = read(&tree, "plugin.json");
        assert_eq!(codes(&diagnostics), ["AP008"]);
        // At the comma to delete, as `fmt` and the page's Format place it.
        assert_eq!((diagnostics[0].line, diagnostics[0].column), (Some(2), Some(9)));
    }

    #[test]
    fn deep_nesting_is_a_syntax_error_not_a_crash() {
        let text = "[".repeat(100_000) + &"]".repeat(100_000);
        let tree = Tree::from_files([("plugin.json", text)]);
        let (_, diagnostics) = read(&tree, "plugin.json");
        assert_eq!(codes(&diagnostics), ["AP008"]);
    }

    #[test]
    fn duplicate_keys_warn_and_still_load() {
        // RFC 8259 §4: names SHOULD be unique.
        let tree = Tree::from_files([("plugin.json", "{\"a\": 1,\n \"a\": 2}")]);
        let (load, diagnostics) = read(&tree, "plugin.json");
        assert!(matches!(load, Load::Loaded(_)));
        assert_eq!(codes(&diagnostics), ["AP009"]);
        assert_eq!(diagnostics[0].line, Some(2));
    }

    #[test]
    fn tree_limits_are_reported_once_never_silently() {
        let mut tree = Tree::from_files([("plugin.json", "{}")]);
        for i in 0..10 {
            tree.mark_omitted(&format!("skills/s{i}"), "max_entries");
        }
        tree.mark_truncated("big.bin", 1 << 30);
        let mut diagnostics = Vec::new();
        report_tree_limits(&tree, &mut diagnostics);
        assert_eq!(codes(&diagnostics), ["AP007"]);
        assert!(diagnostics[0].message.contains("10 entries left out (max_entries)"));
        assert!(diagnostics[0].message.contains("and 7 more"));
        assert!(diagnostics[0].message.contains("1 file cut"));
        let mut clean = Vec::new();
        report_tree_limits(&Tree::from_files([("plugin.json", "{}")]), &mut clean);
        assert!(clean.is_empty());
    }
}
