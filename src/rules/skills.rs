//! AP3xx: the skills hop (§6, §7.1, Agent Skills). Only immediate children of
//! `skills/` holding a path named exactly `SKILL.md` that resolves to a
//! regular file are skills; nothing deeper is searched. Each skill is checked
//! against the Agent Skills frontmatter rules; a non-conforming one is skipped
//! alone with its reason, and the others go on (§7.1, §11.3).
//!
//! Token estimates are bytes / 4, rounded up (a common rule of thumb for
//! English text with BPE tokenizers): `metadata` counts the `name` and
//! `description` values, which every context carries; `body` counts the
//! Markdown after the frontmatter, loaded when the skill is used.

mod frontmatter;

use std::collections::BTreeSet;

use serde_json::Value;

use crate::diag::{Diagnostic, Severity};
use crate::report::{SkillEntry, SkillState, SkillsSection, SkillsState, TokenEstimate};
use crate::rules::containment::{Resolution, resolve_within_root};
use crate::rules::files::{Load, TextFile, describe, read_text_file};
use crate::rules::{Example, Rule, RuleDoc};
use crate::source::Span;
use crate::tree::{Entry, Tree};

use frontmatter::{Fields, SplitError};

const PLUGIN: &str =
    "{\"$schema\": \"https://agent-plugins.org/schemas/1.0.0/plugin.schema.json\", \"name\": \"demo\"}";
const GOOD_SKILL: &str = "---\nname: pdf-tools\ndescription: Extracts text and tables from PDF files. Use when the user works with PDFs.\n---\n# PDF tools\n";

pub static SKILLS_NOT_DIRECTORY: Rule = Rule {
    code: "AP301",
    name: "skills-not-directory",
    severity: Severity::Error,
    spec: "Agent Plugins §6.2",
    summary: "`skills` exists but is not a directory; no skill of this plugin loads",
    fix_hint: Some("Make `skills/` a directory holding one folder per skill"),
    doc: RuleDoc {
        what: "Reports a `skills` path that resolves to a file, FIFO or other non-directory.",
        why: "A fixed location that does not resolve to the expected kind makes that component type invalid; \
              the client keeps loading the other types (§6.2).",
        failing: Example::Package(&[("plugin.json", PLUGIN), ("skills", "pdf-tools")]),
        fixed: Example::Package(&[("plugin.json", PLUGIN), ("skills/pdf-tools/SKILL.md", GOOD_SKILL)]),
    },
};

pub static SKILL_MD_CASE: Rule = Rule {
    code: "AP302",
    name: "skill-md-case",
    severity: Severity::Warning,
    spec: "Agent Plugins §7.1",
    summary: "A skill folder has `skill.md` (or another casing) but no `SKILL.md`; it is not discovered",
    fix_hint: Some("Rename the file to exactly `SKILL.md`"),
    doc: RuleDoc {
        what: "Reports a folder under skills/ without `SKILL.md` that holds the same name in another case.",
        why: "Discovery looks for a path named exactly `SKILL.md` (§7.1); on a case-sensitive filesystem \
              `skill.md` is another file, so the skill is installed but never shows up.",
        failing: Example::Package(&[("plugin.json", PLUGIN), ("skills/pdf-tools/skill.md", GOOD_SKILL)]),
        fixed: Example::Package(&[("plugin.json", PLUGIN), ("skills/pdf-tools/SKILL.md", GOOD_SKILL)]),
    },
};

pub static SKILL_MD_TOO_DEEP: Rule = Rule {
    code: "AP303",
    name: "skill-md-too-deep",
    severity: Severity::Warning,
    spec: "Agent Plugins §7.1",
    summary: "A folder under skills/ has no SKILL.md of its own, only deeper ones; nothing in it is discovered",
    fix_hint: Some("Move each skill folder up so that its SKILL.md is at skills/<name>/SKILL.md"),
    doc: RuleDoc {
        what: "Reports an immediate child of skills/ without SKILL.md that has SKILL.md files further down \
               (a category folder, a nested repository layout).",
        why: "Clients MUST NOT search deeper descendants (§7.1): skills grouped in sub-folders are installed \
              but never discovered. This is the first cause of \"installed, but nothing shows up\".",
        failing: Example::Package(&[
            ("plugin.json", PLUGIN),
            ("skills/documents/pdf-tools/SKILL.md", GOOD_SKILL),
        ]),
        fixed: Example::Package(&[("plugin.json", PLUGIN), ("skills/pdf-tools/SKILL.md", GOOD_SKILL)]),
    },
};

pub static STRAY_SKILL_MD: Rule = Rule {
    code: "AP304",
    name: "stray-skill-md",
    severity: Severity::Info,
    spec: "Agent Plugins §6.1, §7.1",
    summary: "SKILL.md files outside skills/<name>/ are never discovered",
    fix_hint: Some("If they are meant as skills of this plugin, move them to skills/<name>/SKILL.md"),
    doc: RuleDoc {
        what: "Counts, once per package, SKILL.md files anywhere other than skills/<name>/SKILL.md (at the \
               root, in vendor folders, nested inside a skill) and names the first few.",
        why: "Skills are discovered only from the fixed location (§6.1), one level deep (§7.1). Copies for \
              other clients are fine; a skill meant for this plugin in the wrong place silently never loads.",
        failing: Example::Package(&[("plugin.json", PLUGIN), ("SKILL.md", GOOD_SKILL)]),
        fixed: Example::Package(&[("plugin.json", PLUGIN), ("skills/pdf-tools/SKILL.md", GOOD_SKILL)]),
    },
};

pub static SKILL_BYTE_ORDER_MARK: Rule = Rule {
    code: "AP305",
    name: "skill-byte-order-mark",
    severity: Severity::Warning,
    spec: "Agent Skills (SKILL.md format); YAML 1.2 §5.2",
    summary: "SKILL.md starts with a byte order mark",
    fix_hint: Some("Save SKILL.md as UTF-8 without a BOM"),
    doc: RuleDoc {
        what: "Reports a SKILL.md starting with U+FEFF. apcheck skips the mark and reads the frontmatter.",
        why: "YAML allows a BOM at the start of a stream, but a client that tests whether the file starts with \
              `---` before parsing finds no frontmatter and skips the skill.",
        failing: Example::Package(&[
            ("plugin.json", PLUGIN),
            (
                "skills/pdf-tools/SKILL.md",
                "\u{FEFF}---\nname: pdf-tools\ndescription: Extracts text from PDF files. Use when the user works with PDFs.\n---\n",
            ),
        ]),
        fixed: Example::Package(&[("plugin.json", PLUGIN), ("skills/pdf-tools/SKILL.md", GOOD_SKILL)]),
    },
};

pub static FRONTMATTER_MISSING: Rule = Rule {
    code: "AP306",
    name: "frontmatter-missing",
    severity: Severity::Error,
    spec: "Agent Skills (SKILL.md format); Agent Plugins §7.1",
    summary: "SKILL.md does not start with a `---` frontmatter block, or the block is not closed",
    fix_hint: Some("Start the file with `---`, the name and description lines, then `---`"),
    doc: RuleDoc {
        what: "Checks that the first line of SKILL.md is `---` and that a later line `---` closes the block \
               (CRLF line ends are accepted).",
        why: "SKILL.md MUST contain YAML frontmatter followed by Markdown; without it there is no name or \
              description, so the skill does not conform and is skipped (§7.1).",
        failing: Example::Package(&[
            ("plugin.json", PLUGIN),
            ("skills/pdf-tools/SKILL.md", "# PDF tools\n\nname: pdf-tools\n"),
        ]),
        fixed: Example::Package(&[("plugin.json", PLUGIN), ("skills/pdf-tools/SKILL.md", GOOD_SKILL)]),
    },
};

pub static FRONTMATTER_YAML: Rule = Rule {
    code: "AP307",
    name: "frontmatter-yaml",
    severity: Severity::Error,
    spec: "Agent Skills (SKILL.md format); Agent Plugins §7.1",
    summary: "The frontmatter is not a YAML mapping",
    fix_hint: Some("Quote values that contain `: ` or start with a special character"),
    doc: RuleDoc {
        what: "Parses the frontmatter as YAML (duplicate keys rejected, aliases and depth bounded) and \
               requires a mapping of fields; reports the error at its line and column.",
        why: "A client that cannot read the frontmatter cannot know the skill's name or description, so the \
              skill is skipped (§7.1). The usual cause is an unquoted value containing `: `.",
        failing: Example::Package(&[
            ("plugin.json", PLUGIN),
            (
                "skills/pdf-tools/SKILL.md",
                "---\nname: pdf-tools\ndescription: Extracts PDF text. Use when: the user has PDFs.\n---\n",
            ),
        ]),
        fixed: Example::Package(&[
            ("plugin.json", PLUGIN),
            (
                "skills/pdf-tools/SKILL.md",
                "---\nname: pdf-tools\ndescription: \"Extracts PDF text. Use when: the user has PDFs.\"\n---\n",
            ),
        ]),
    },
};

pub static SKILL_NAME_INVALID: Rule = Rule {
    code: "AP308",
    name: "skill-name-invalid",
    severity: Severity::Error,
    spec: "Agent Skills (name); Agent Plugins §7.1",
    summary: "The skill's `name` is missing or breaks the Agent Skills name rules",
    fix_hint: None,
    doc: RuleDoc {
        what: "Checks `name`: present, a string, 1-64 characters, only a-z, 0-9 and `-`, no leading, trailing \
               or doubled hyphen; the message names each rule that fails.",
        why: "A skill whose name does not conform is skipped (§7.1).",
        failing: Example::Package(&[
            ("plugin.json", PLUGIN),
            (
                "skills/pdf-tools/SKILL.md",
                "---\nname: PDF_Tools\ndescription: Extracts text from PDF files. Use when the user works with PDFs.\n---\n",
            ),
        ]),
        fixed: Example::Package(&[("plugin.json", PLUGIN), ("skills/pdf-tools/SKILL.md", GOOD_SKILL)]),
    },
};

pub static SKILL_NAME_MISMATCH: Rule = Rule {
    code: "AP309",
    name: "skill-name-mismatch",
    severity: Severity::Error,
    spec: "Agent Skills (name); Agent Plugins §7.1",
    summary: "The skill's `name` differs from its directory name",
    fix_hint: None,
    doc: RuleDoc {
        what: "Compares `name` with the name of the folder under skills/.",
        why: "The name MUST match the parent directory name; a skill that does not conform is skipped (§7.1).",
        failing: Example::Package(&[("plugin.json", PLUGIN), ("skills/pdf/SKILL.md", GOOD_SKILL)]),
        fixed: Example::Package(&[("plugin.json", PLUGIN), ("skills/pdf-tools/SKILL.md", GOOD_SKILL)]),
    },
};

pub static SKILL_DESCRIPTION_INVALID: Rule = Rule {
    code: "AP310",
    name: "skill-description-invalid",
    severity: Severity::Error,
    spec: "Agent Skills (description); Agent Plugins §7.1",
    summary: "The skill's `description` is missing, not a string, empty or longer than 1024 characters",
    fix_hint: Some("Say what the skill does and when to use it, in at most 1024 characters"),
    doc: RuleDoc {
        what: "Checks `description`: present, a string, 1-1024 characters, not blank.",
        why: "The description is how an agent decides to use the skill; one that does not conform makes the \
              skill skipped (§7.1).",
        failing: Example::Package(&[
            ("plugin.json", PLUGIN),
            ("skills/pdf-tools/SKILL.md", "---\nname: pdf-tools\n---\n# PDF tools\n"),
        ]),
        fixed: Example::Package(&[("plugin.json", PLUGIN), ("skills/pdf-tools/SKILL.md", GOOD_SKILL)]),
    },
};

pub static SKILL_FIELD_INVALID: Rule = Rule {
    code: "AP311",
    name: "skill-field-invalid",
    severity: Severity::Error,
    spec: "Agent Skills (frontmatter); Agent Plugins §7.1",
    summary: "An optional frontmatter field has the wrong type or length",
    fix_hint: None,
    doc: RuleDoc {
        what: "Checks `license` (a string), `compatibility` (a string of 1-500 characters), `metadata` (a \
               mapping) and `allowed-tools` (a string, or a list as some clients accept).",
        why: "A skill whose frontmatter does not conform is skipped (§7.1).",
        failing: Example::Package(&[
            ("plugin.json", PLUGIN),
            (
                "skills/pdf-tools/SKILL.md",
                "---\nname: pdf-tools\ndescription: Extracts text from PDF files. Use when the user works with PDFs.\ncompatibility: \"\"\n---\n",
            ),
        ]),
        fixed: Example::Package(&[
            ("plugin.json", PLUGIN),
            (
                "skills/pdf-tools/SKILL.md",
                "---\nname: pdf-tools\ndescription: Extracts text from PDF files. Use when the user works with PDFs.\ncompatibility: Requires poppler-utils\n---\n",
            ),
        ]),
    },
};

pub static SKILL_FIELD_LOOSE_TYPE: Rule = Rule {
    code: "AP312",
    name: "skill-field-loose-type",
    severity: Severity::Warning,
    spec: "Agent Skills (metadata, allowed-tools)",
    summary: "A `metadata` value or `allowed-tools` is not the string the spec asks for",
    fix_hint: Some("Quote the value, e.g. version: \"1.0\"; write allowed-tools as one space-separated string"),
    doc: RuleDoc {
        what: "Reports `metadata` values that are numbers, booleans or null instead of strings, and an \
               `allowed-tools` list instead of a space-separated string.",
        why: "The spec asks for strings; clients in use read these leniently and do not skip the skill, but \
              YAML turns `version: 1.10` into the number 1.1, so the value a client sees may not be the one \
              written. apcheck warns rather than skip (see the README).",
        failing: Example::Package(&[
            ("plugin.json", PLUGIN),
            (
                "skills/pdf-tools/SKILL.md",
                "---\nname: pdf-tools\ndescription: Extracts text from PDF files. Use when the user works with PDFs.\nmetadata:\n  version: 1.10\n---\n",
            ),
        ]),
        fixed: Example::Package(&[
            ("plugin.json", PLUGIN),
            (
                "skills/pdf-tools/SKILL.md",
                "---\nname: pdf-tools\ndescription: Extracts text from PDF files. Use when the user works with PDFs.\nmetadata:\n  version: \"1.10\"\n---\n",
            ),
        ]),
    },
};

pub static SKILL_UNKNOWN_FIELD: Rule = Rule {
    code: "AP313",
    name: "skill-unknown-field",
    severity: Severity::Warning,
    spec: "Agent Skills (frontmatter)",
    summary: "The frontmatter has a field Agent Skills does not define",
    fix_hint: Some("Move it under `metadata`, which holds client-specific properties"),
    doc: RuleDoc {
        what: "Reports each frontmatter key other than name, description, license, compatibility, metadata \
               and allowed-tools.",
        why: "Unknown keys mean something to one client at most; the reference validator rejects them, others \
              ignore them. `metadata` is the place for additional properties.",
        failing: Example::Package(&[
            ("plugin.json", PLUGIN),
            (
                "skills/pdf-tools/SKILL.md",
                "---\nname: pdf-tools\ndescription: Extracts text from PDF files. Use when the user works with PDFs.\nversion: \"1.0\"\n---\n",
            ),
        ]),
        fixed: Example::Package(&[
            ("plugin.json", PLUGIN),
            (
                "skills/pdf-tools/SKILL.md",
                "---\nname: pdf-tools\ndescription: Extracts text from PDF files. Use when the user works with PDFs.\nmetadata:\n  version: \"1.0\"\n---\n",
            ),
        ]),
    },
};

pub static SKILL_DESCRIPTION_HINT: Rule = Rule {
    code: "AP314",
    name: "skill-description-hint",
    severity: Severity::Info,
    spec: "Agent Skills (description)",
    summary: "The description may not help an agent pick the skill",
    fix_hint: Some("Say what the skill does and when to use it: \"Extracts … Use when …\""),
    doc: RuleDoc {
        what: "Reads the description as an agent would and flags three patterns: it says what but never when \
               (no \"when\" or \"use for\" trigger), it reads like an identifier (`invoice-ops-skill-v2`), or \
               it is a first-person slogan (\"I help you …\").",
        why: "Agents see only name and description before choosing a skill; the spec asks that it describe \
              what the skill does and when to use it, with keywords for the tasks it fits.",
        failing: Example::Package(&[
            ("plugin.json", PLUGIN),
            (
                "skills/pdf-tools/SKILL.md",
                "---\nname: pdf-tools\ndescription: Helps with PDFs.\n---\n",
            ),
        ]),
        fixed: Example::Package(&[("plugin.json", PLUGIN), ("skills/pdf-tools/SKILL.md", GOOD_SKILL)]),
    },
};

pub static SKILL_BODY_LARGE: Rule = Rule {
    code: "AP315",
    name: "skill-body-large",
    severity: Severity::Info,
    spec: "Agent Skills (progressive disclosure)",
    summary: "The SKILL.md body is over about 5000 tokens or 500 lines",
    fix_hint: Some("Move reference material to files under references/ and link them from SKILL.md"),
    doc: RuleDoc {
        what: "Estimates the body at bytes / 4 tokens and counts its lines.",
        why: "The whole body is loaded when the skill is used; the spec recommends under 5000 tokens and 500 \
              lines, with details in separate files loaded on demand.",
        failing: Example::Described("a SKILL.md whose body is 30 KB of API reference in one file"),
        fixed: Example::Package(&[("plugin.json", PLUGIN), ("skills/pdf-tools/SKILL.md", GOOD_SKILL)]),
    },
};

pub static RULES: &[&Rule] = &[
    &SKILLS_NOT_DIRECTORY,
    &SKILL_MD_CASE,
    &SKILL_MD_TOO_DEEP,
    &STRAY_SKILL_MD,
    &SKILL_BYTE_ORDER_MARK,
    &FRONTMATTER_MISSING,
    &FRONTMATTER_YAML,
    &SKILL_NAME_INVALID,
    &SKILL_NAME_MISMATCH,
    &SKILL_DESCRIPTION_INVALID,
    &SKILL_FIELD_INVALID,
    &SKILL_FIELD_LOOSE_TYPE,
    &SKILL_UNKNOWN_FIELD,
    &SKILL_DESCRIPTION_HINT,
    &SKILL_BODY_LARGE,
];

const SKILLS_INVALID: &str = "no skill of this plugin loads; other components still do (§6.2)";
const SKIPPED: &str = "the skill is skipped; other skills still load (§7.1)";
const BODY_TOKEN_BUDGET: usize = 5000;
const BODY_LINE_BUDGET: usize = 500;
/// How many paths the stray summary names before "and N more".
const NAMED_PATHS: usize = 3;

/// Discovers the skills of a loaded plugin (§6.1, §7.1) and checks each one.
pub fn discover_skills(tree: &Tree, diagnostics: &mut Vec<Diagnostic>) -> SkillsSection {
    let mut section = SkillsSection {
        state: SkillsState::Absent,
        entries: Vec::new(),
    };
    // Folders under skills/ already explained one by one (AP302, AP303).
    let mut explained: BTreeSet<String> = BTreeSet::new();
    match resolve_within_root(tree, "skills", SKILLS_INVALID, diagnostics) {
        Resolution::Absent => {}
        Resolution::Refused => section.state = SkillsState::Invalid,
        Resolution::Found(resolved) => match resolved.entry {
            Entry::Dir => {
                section.state = SkillsState::Valid;
                for (name, _, _) in tree.children(resolved.path) {
                    if let Some(entry) = check_skill_dir(tree, resolved.path, name, &mut explained, diagnostics) {
                        section.entries.push(entry);
                    }
                }
            }
            other => {
                section.state = SkillsState::Invalid;
                diagnostics.push(
                    Diagnostic::new(
                        &SKILLS_NOT_DIRECTORY,
                        format!("`skills` is {}, not a directory; {SKILLS_INVALID}", describe(other)),
                    )
                    .in_file("skills"),
                );
            }
        },
    }
    report_stray_skill_files(tree, &explained, diagnostics);
    section
}

/// One immediate child of `skills/`: a skill entry when it holds a `SKILL.md`
/// that is (or claims to be) a file; otherwise a hint at most.
fn check_skill_dir(
    tree: &Tree,
    skills_dir: &str,
    name: &str,
    explained: &mut BTreeSet<String>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<SkillEntry> {
    let path = format!("skills/{name}/SKILL.md");
    let mut entry = SkillEntry {
        dir: name.to_string(),
        name: None,
        description: None,
        path: path.clone(),
        state: SkillState::Skipped,
        reason: None,
        tokens: TokenEstimate::default(),
    };
    let before = diagnostics.len();
    match resolve_within_root(tree, &path, SKIPPED, diagnostics) {
        Resolution::Refused => {
            entry.reason = first_error(&diagnostics[before..]);
            return Some(entry);
        }
        Resolution::Absent => {
            explain_missing_skill_md(tree, &format!("{skills_dir}/{name}"), name, explained, diagnostics);
            return None;
        }
        Resolution::Found(resolved) if !matches!(resolved.entry, Entry::File(_) | Entry::Unreadable(_)) => {
            // §7.1: only a SKILL.md resolving to a regular file makes a skill.
            diagnostics.push(
                Diagnostic::new(
                    &crate::rules::files::NOT_A_REGULAR_FILE,
                    format!(
                        "`{path}` is {}, so `skills/{name}` is not a skill (§7.1)",
                        describe(resolved.entry)
                    ),
                )
                .in_file(&path),
            );
            return None;
        }
        Resolution::Found(_) => {}
    }
    let file = match read_text_file(tree, &path, SKIPPED, diagnostics) {
        Load::Loaded(file) => file,
        Load::Absent | Load::Failed => {
            entry.reason = first_error(&diagnostics[before..]);
            return Some(entry);
        }
    };
    check_skill_file(&file, name, &mut entry, diagnostics);
    entry.reason = first_error(&diagnostics[before..]);
    if entry.reason.is_none() {
        entry.state = SkillState::Discovered;
    }
    Some(entry)
}

fn first_error(diagnostics: &[Diagnostic]) -> Option<String> {
    diagnostics
        .iter()
        .find(|d| d.severity == Severity::Error)
        .map(|d| d.message.clone())
}

/// A folder under skills/ without SKILL.md: say why, if a near miss explains it.
fn explain_missing_skill_md(
    tree: &Tree,
    real_dir: &str,
    name: &str,
    explained: &mut BTreeSet<String>,
    diagnostics: &mut Vec<Diagnostic>,
) {
    if let Some((other, _, _)) = tree
        .children(real_dir)
        .find(|(file, _, _)| file.eq_ignore_ascii_case("SKILL.md"))
    {
        diagnostics.push(
            Diagnostic::new(
                &SKILL_MD_CASE,
                format!("`skills/{name}/{other}` is not discovered: the file must be named exactly `SKILL.md` (§7.1)"),
            )
            .in_file(format!("skills/{name}/{other}")),
        );
        explained.insert(format!("{real_dir}/"));
        return;
    }
    let deeper: Vec<&str> = tree
        .descendants(real_dir)
        .filter(|(path, _)| is_skill_md_name(path))
        .map(|(path, _)| path)
        .collect();
    if let Some(first) = deeper.first() {
        let found = match deeper.len() {
            1 => format!("`{first}` below it is"),
            n => format!("`{first}` and {} more below it are", n - 1),
        };
        diagnostics.push(
            Diagnostic::new(
                &SKILL_MD_TOO_DEEP,
                format!(
                    "`skills/{name}` has no SKILL.md of its own; {found} never discovered, because clients do not search deeper than skills/<name>/ (§7.1)"
                ),
            )
            .in_file(format!("skills/{name}")),
        );
        explained.insert(format!("{real_dir}/"));
    }
}

fn is_skill_md_name(path: &str) -> bool {
    path.rsplit('/')
        .next()
        .is_some_and(|file| file.eq_ignore_ascii_case("SKILL.md"))
}

/// One summary of SKILL.md files that discovery never reaches (AP304): one
/// line per package, not one per file, because vendor copies of a whole skill
/// tree are common (hundreds of files) and a line each would bury the rest.
fn report_stray_skill_files(tree: &Tree, explained: &BTreeSet<String>, diagnostics: &mut Vec<Diagnostic>) {
    let stray: Vec<&str> = tree
        .entries()
        .filter(|(path, entry)| matches!(entry, Entry::File(_) | Entry::Symlink(_)) && is_skill_md_name(path))
        .map(|(path, _)| path)
        .filter(|path| !is_discovery_position(path) && !explained.iter().any(|dir| path.starts_with(dir.as_str())))
        .collect();
    let Some(first) = stray.first() else { return };
    let mut named: Vec<String> = stray.iter().take(NAMED_PATHS).map(|p| format!("`{p}`")).collect();
    if stray.len() > NAMED_PATHS {
        named.push(format!("and {} more", stray.len() - NAMED_PATHS));
    }
    let count = if stray.len() == 1 {
        "1 SKILL.md file is".to_string()
    } else {
        format!("{} SKILL.md files are", stray.len())
    };
    diagnostics.push(
        Diagnostic::new(
            &STRAY_SKILL_MD,
            format!(
                "{count} outside skills/<name>/SKILL.md and never discovered (§6.1, §7.1): {}",
                named.join(", ")
            ),
        )
        .in_file(*first),
    );
}

/// `skills/<name>/SKILL.md`, exactly: where discovery looks.
fn is_discovery_position(path: &str) -> bool {
    let mut parts = path.split('/');
    matches!(
        (parts.next(), parts.next(), parts.next(), parts.next()),
        (Some("skills"), Some(_), Some("SKILL.md"), None)
    )
}

/// Frontmatter and body of one SKILL.md; fills the entry, pushes diagnostics.
fn check_skill_file(file: &TextFile, dir: &str, entry: &mut SkillEntry, diagnostics: &mut Vec<Diagnostic>) {
    let text = file.text.as_str();
    let start = if text.starts_with('\u{FEFF}') {
        diagnostics.push(
            Diagnostic::new(
                &SKILL_BYTE_ORDER_MARK,
                "SKILL.md starts with a byte order mark; clients that look for `---` at the first byte find no frontmatter",
            )
            .in_file(&file.path)
            .at_span(text, &file.index, Span::new(0, 3)),
        );
        3
    } else {
        0
    };
    let parts = match frontmatter::split(text, start) {
        Ok(parts) => parts,
        Err(error) => {
            let what = match error {
                SplitError::NoOpening => "SKILL.md does not start with a `---` line, so it has no frontmatter",
                SplitError::Unclosed => {
                    "the frontmatter opened by `---` on line 1 is never closed by another `---` line"
                }
            };
            diagnostics.push(
                Diagnostic::new(&FRONTMATTER_MISSING, format!("{what}; {SKIPPED}"))
                    .in_file(&file.path)
                    .at_span(text, &file.index, Span::new(start, start)),
            );
            return;
        }
    };
    let body = &text[parts.body.start..parts.body.end];
    entry.tokens.body = estimate_tokens(body);
    let yaml = &text[parts.yaml.start..parts.yaml.end];
    let shift = |span: Span| Span::new(span.start + parts.yaml.start, span.end + parts.yaml.start);
    let fields = match frontmatter::parse_fields(yaml) {
        Ok(fields) => fields,
        Err(error) => {
            diagnostics.push(
                Diagnostic::new(
                    &FRONTMATTER_YAML,
                    format!("the frontmatter is not a YAML mapping: {}; {SKIPPED}", error.message),
                )
                .in_file(&file.path)
                .at_span(text, &file.index, shift(error.span)),
            );
            return;
        }
    };
    let place = |rule: &Rule, pointer: &str, span: Span, message: String| {
        Diagnostic::new(rule, message)
            .in_file(&file.path)
            .at_pointer(pointer)
            .at_span(text, &file.index, shift(span))
    };
    check_fields(&fields, dir, entry, &place, diagnostics);
    entry.tokens.metadata = estimate_tokens(entry.name.as_deref().unwrap_or_default())
        + estimate_tokens(entry.description.as_deref().unwrap_or_default());
    let lines = body.lines().count();
    if entry.tokens.body > BODY_TOKEN_BUDGET || lines > BODY_LINE_BUDGET {
        diagnostics.push(
            Diagnostic::new(
                &SKILL_BODY_LARGE,
                format!(
                    "the body is about {} tokens in {lines} lines; the whole of it is loaded when the skill is used (recommended: under {BODY_TOKEN_BUDGET} tokens and {BODY_LINE_BUDGET} lines)",
                    entry.tokens.body
                ),
            )
            .in_file(&file.path)
            .at_span(text, &file.index, Span::new(parts.body.start, parts.body.start)),
        );
    }
}

/// Bytes / 4, rounded up.
fn estimate_tokens(text: &str) -> usize {
    text.len().div_ceil(4)
}

type Place<'a> = dyn Fn(&Rule, &str, Span, String) -> Diagnostic + 'a;

fn check_fields(fields: &Fields, dir: &str, entry: &mut SkillEntry, place: &Place, diagnostics: &mut Vec<Diagnostic>) {
    let whole = Span::new(0, 0);
    match fields.get("name") {
        None => diagnostics.push(place(
            &SKILL_NAME_INVALID,
            "",
            whole,
            format!("`name` is missing; {SKIPPED}"),
        )),
        Some(field) => match field.value.as_str() {
            None => diagnostics.push(place(
                &SKILL_NAME_INVALID,
                "/name",
                field.value_span,
                format!("`name` must be a string, found {}; {SKIPPED}", kind(&field.value)),
            )),
            Some(name) => {
                entry.name = Some(name.to_string());
                let failures = skill_name_violations(name);
                if !failures.is_empty() {
                    diagnostics.push(place(
                        &SKILL_NAME_INVALID,
                        "/name",
                        field.value_span,
                        format!(
                            "skill name \"{name}\" breaks the Agent Skills rules: {}; {SKIPPED}",
                            failures.join("; ")
                        ),
                    ));
                } else if name != dir {
                    diagnostics.push(
                        place(
                            &SKILL_NAME_MISMATCH,
                            "/name",
                            field.value_span,
                            format!("skill name \"{name}\" differs from its directory `skills/{dir}`; {SKIPPED}"),
                        )
                        .with_hint(format!("Rename the directory to `skills/{name}`, or set `name: {dir}`")),
                    );
                }
            }
        },
    }
    match fields.get("description") {
        None => diagnostics.push(place(
            &SKILL_DESCRIPTION_INVALID,
            "",
            whole,
            format!("`description` is missing; {SKIPPED}"),
        )),
        Some(field) => match field.value.as_str() {
            None => diagnostics.push(place(
                &SKILL_DESCRIPTION_INVALID,
                "/description",
                field.value_span,
                format!(
                    "`description` must be a string, found {}; {SKIPPED}",
                    kind(&field.value)
                ),
            )),
            Some(description) => {
                entry.description = Some(description.to_string());
                let length = description.chars().count();
                if description.trim().is_empty() {
                    diagnostics.push(place(
                        &SKILL_DESCRIPTION_INVALID,
                        "/description",
                        field.value_span,
                        format!("`description` is empty; {SKIPPED}"),
                    ));
                } else if length > 1024 {
                    diagnostics.push(place(
                        &SKILL_DESCRIPTION_INVALID,
                        "/description",
                        field.value_span,
                        format!("`description` is {length} characters, more than 1024; {SKIPPED}"),
                    ));
                } else if let Some(advice) = description_advice(description, entry.name.as_deref()) {
                    diagnostics.push(place(&SKILL_DESCRIPTION_HINT, "/description", field.value_span, advice));
                }
            }
        },
    }
    for field in &fields.0 {
        let pointer = format!("/{}", field.key.replace('~', "~0").replace('/', "~1"));
        let invalid = |message: String| place(&SKILL_FIELD_INVALID, &pointer, field.value_span, message);
        match (field.key.as_str(), &field.value) {
            ("name" | "description", _) | ("license", Value::String(_)) => {}
            ("license", other) => diagnostics.push(invalid(format!(
                "`license` must be a string, found {}; {SKIPPED}",
                kind(other)
            ))),
            ("compatibility", Value::String(text)) => {
                let length = text.chars().count();
                if !(1..=500).contains(&length) {
                    diagnostics.push(invalid(format!(
                        "`compatibility` is {length} characters; it must be 1-500 when present; {SKIPPED}"
                    )));
                }
            }
            ("compatibility", other) => diagnostics.push(invalid(format!(
                "`compatibility` must be a string, found {}; {SKIPPED}",
                kind(other)
            ))),
            ("metadata", Value::Object(members)) => {
                for (key, value) in members {
                    if !value.is_string() {
                        diagnostics.push(place(
                            &SKILL_FIELD_LOOSE_TYPE,
                            &format!("/metadata/{}", key.replace('~', "~0").replace('/', "~1")),
                            field.value_span,
                            format!(
                                "`metadata.{key}` is {}, not a string; clients may see a different value than written",
                                kind(value)
                            ),
                        ));
                    }
                }
            }
            ("metadata", other) => diagnostics.push(invalid(format!(
                "`metadata` must be a mapping of strings, found {}; {SKIPPED}",
                kind(other)
            ))),
            ("allowed-tools", Value::String(_)) => {}
            ("allowed-tools", Value::Array(items)) if items.iter().all(Value::is_string) => {
                diagnostics.push(place(
                    &SKILL_FIELD_LOOSE_TYPE,
                    &pointer,
                    field.value_span,
                    "`allowed-tools` is a list; the spec asks for one space-separated string".to_string(),
                ));
            }
            ("allowed-tools", other) => diagnostics.push(invalid(format!(
                "`allowed-tools` must be a space-separated string, found {}; {SKIPPED}",
                kind(other)
            ))),
            (key, _) => diagnostics.push(place(
                &SKILL_UNKNOWN_FIELD,
                &pointer,
                field.key_span,
                format!("`{key}` is not an Agent Skills field; move it under `metadata`"),
            )),
        }
    }
}

/// The Agent Skills name rules `name` breaks, in words.
fn skill_name_violations(name: &str) -> Vec<String> {
    let mut failures = Vec::new();
    let length = name.chars().count();
    if !(1..=64).contains(&length) {
        failures.push(format!("length is {length}, not 1-64"));
    }
    let mut bad: Vec<char> = name
        .chars()
        .filter(|c| !matches!(c, 'a'..='z' | '0'..='9' | '-'))
        .collect();
    bad.dedup();
    if !bad.is_empty() {
        let shown: String = bad.iter().take(8).collect();
        failures.push(format!("`{shown}` not allowed (only lowercase a-z, 0-9 and `-`)"));
    }
    if name.starts_with('-') || name.ends_with('-') {
        failures.push("must not start or end with `-`".to_string());
    }
    if name.contains("--") {
        failures.push("must not contain `--`".to_string());
    }
    failures
}

/// Discovery-surface advice for a valid description, if any applies.
fn description_advice(description: &str, name: Option<&str>) -> Option<String> {
    let trimmed = description.trim();
    let lower = trimmed.to_lowercase();
    let words: Vec<&str> = lower.split_whitespace().collect();
    if words.len() == 1 && (trimmed.contains(['-', '_']) || Some(trimmed) == name) {
        return Some(format!(
            "the description \"{trimmed}\" reads like an identifier; agents choose skills by what the description says the skill does and when to use it"
        ));
    }
    let first = words.first().copied().unwrap_or_default();
    if matches!(first, "i" | "i'm" | "we" | "we're" | "my" | "our" | "let")
        || lower.starts_with("your ")
        || lower.starts_with("the best")
        || lower.starts_with("the ultimate")
    {
        return Some(
            "the description reads like a slogan; say in the third person what the skill does and when to use it"
                .to_string(),
        );
    }
    const TRIGGERS: &[&str] = &[
        "when",
        "whenever",
        "use for",
        "use to",
        "use this",
        "use it",
        "use if",
        "if the user",
        "trigger",
    ];
    if !TRIGGERS.iter().any(|trigger| lower.contains(trigger)) {
        return Some(
            "the description says what the skill does but not when to use it; add a trigger such as \"Use when …\""
                .to_string(),
        );
    }
    None
}

fn kind(value: &Value) -> &'static str {
    crate::rules::manifest::json_type(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn discover(files: &[(&str, &str)]) -> (SkillsSection, Vec<Diagnostic>) {
        discover_tree(&Tree::from_files(files.iter().copied()))
    }

    fn discover_tree(tree: &Tree) -> (SkillsSection, Vec<Diagnostic>) {
        let mut diagnostics = Vec::new();
        let section = discover_skills(tree, &mut diagnostics);
        (section, diagnostics)
    }

    fn codes(diagnostics: &[Diagnostic]) -> Vec<&str> {
        diagnostics.iter().map(|d| d.code).collect()
    }

    fn skill(frontmatter: &str) -> String {
        format!("---\n{frontmatter}\n---\n# Body\n")
    }

    #[test]
    fn valid_skill_is_discovered_with_tokens() {
        // §7.1, Agent Skills minimal example.
        let (section, diagnostics) = discover(&[("skills/pdf-tools/SKILL.md", GOOD_SKILL)]);
        assert_eq!(section.state, SkillsState::Valid);
        assert!(diagnostics.is_empty(), "{diagnostics:?}");
        let entry = &section.entries[0];
        assert_eq!(entry.state, SkillState::Discovered);
        assert_eq!(entry.name.as_deref(), Some("pdf-tools"));
        assert_eq!(entry.path, "skills/pdf-tools/SKILL.md");
        assert_eq!(entry.tokens.body, "# PDF tools\n".len().div_ceil(4));
        assert!(entry.tokens.metadata > 10);
    }

    #[test]
    fn absent_skills_is_not_an_error() {
        // §6.2: an absent fixed location is not an error.
        let (section, diagnostics) = discover(&[("plugin.json", "{}")]);
        assert_eq!(section.state, SkillsState::Absent);
        assert!(diagnostics.is_empty());
    }

    #[test]
    fn skills_file_makes_the_component_invalid() {
        // §6.2: present but not a directory.
        let (section, diagnostics) = discover(&[("skills", "x")]);
        assert_eq!(section.state, SkillsState::Invalid);
        assert_eq!(codes(&diagnostics), ["AP301"]);
    }

    #[test]
    fn escaping_skill_md_is_skipped_and_others_load() {
        // §4.1 boundary 3: skip that skill.
        let mut tree = Tree::from_files([(
            "skills/ok/SKILL.md",
            skill("name: ok\ndescription: Does x. Use when y."),
        )]);
        tree.insert(
            "skills/escaping/SKILL.md",
            Entry::Symlink("../../../outside/SKILL.md".into()),
        );
        let (section, diagnostics) = discover_tree(&tree);
        assert_eq!(codes(&diagnostics), ["AP101"]);
        let states: Vec<_> = section.entries.iter().map(|e| (e.dir.as_str(), e.state)).collect();
        assert_eq!(
            states,
            [("escaping", SkillState::Skipped), ("ok", SkillState::Discovered)]
        );
        assert!(
            section.entries[0]
                .reason
                .as_deref()
                .unwrap()
                .contains("outside the plugin root")
        );
    }

    #[test]
    fn skill_md_directory_is_not_a_skill() {
        let (section, diagnostics) = discover(&[("skills/a/SKILL.md/x", "")]);
        assert!(section.entries.is_empty());
        assert_eq!(codes(&diagnostics), ["AP006"]);
    }

    #[test]
    fn wrong_case_and_deeper_skill_md_are_explained_once() {
        // §7.1: exactly `SKILL.md`, no recursion.
        let (section, diagnostics) = discover(&[
            ("skills/lower/skill.md", GOOD_SKILL),
            ("skills/group/one/SKILL.md", GOOD_SKILL),
            ("skills/group/two/SKILL.md", GOOD_SKILL),
            ("skills/assets/logo.png", ""),
        ]);
        assert!(section.entries.is_empty());
        assert_eq!(codes(&diagnostics), ["AP303", "AP302"]);
        assert!(diagnostics[0].message.contains("and 1 more"));
    }

    #[test]
    fn stray_skill_md_files_are_summarized_once() {
        let mut files = vec![("skills/pdf-tools/SKILL.md".to_string(), GOOD_SKILL.to_string())];
        for i in 0..456 {
            files.push((format!("providers/claude/skills/s{i}/SKILL.md"), GOOD_SKILL.to_string()));
        }
        files.push(("skills/pdf-tools/nested/SKILL.md".to_string(), GOOD_SKILL.to_string()));
        let (section, diagnostics) = discover_tree(&Tree::from_files(files));
        assert_eq!(section.entries.len(), 1);
        assert_eq!(codes(&diagnostics), ["AP304"]);
        assert!(diagnostics[0].message.starts_with("457 SKILL.md files"));
        assert!(diagnostics[0].message.contains("and 454 more"));
    }

    #[test]
    fn frontmatter_must_open_and_close() {
        let (section, diagnostics) =
            discover(&[("skills/a/SKILL.md", "# A\n"), ("skills/b/SKILL.md", "---\nname: b\n")]);
        assert_eq!(codes(&diagnostics), ["AP306", "AP306"]);
        assert!(section.entries.iter().all(|e| e.state == SkillState::Skipped));
        assert!(diagnostics[1].message.contains("never closed"));
    }

    #[test]
    fn crlf_and_bom_are_handled_deliberately() {
        let crlf = "---\r\nname: a\r\ndescription: Does x. Use when y.\r\n---\r\nBody\r\n";
        let (section, diagnostics) = discover(&[("skills/a/SKILL.md", crlf)]);
        assert!(diagnostics.is_empty(), "{diagnostics:?}");
        assert_eq!(section.entries[0].state, SkillState::Discovered);
        let bom = format!("\u{FEFF}{}", skill("name: a\ndescription: Does x. Use when y."));
        let (section, diagnostics) = discover(&[("skills/a/SKILL.md", bom.as_str())]);
        assert_eq!(codes(&diagnostics), ["AP305"]);
        assert_eq!(section.entries[0].state, SkillState::Discovered);
    }

    #[test]
    fn yaml_error_points_into_the_file() {
        let text = skill("name: a\ndescription: Does x. Use when: y happens");
        let (section, diagnostics) = discover(&[("skills/a/SKILL.md", text.as_str())]);
        assert_eq!(codes(&diagnostics), ["AP307"]);
        assert_eq!(diagnostics[0].line, Some(3));
        assert_eq!(section.entries[0].state, SkillState::Skipped);
    }

    #[test]
    fn name_rules_and_directory_match() {
        // Agent Skills `name`: invalid examples from the spec.
        for (name, expect) in [
            ("PDF-Processing", "not allowed"),
            ("-pdf", "start or end"),
            ("pdf--processing", "--"),
        ] {
            let text = skill(&format!("name: {name}\ndescription: Does x. Use when y."));
            let (_, diagnostics) = discover(&[(format!("skills/{name}/SKILL.md").as_str(), text.as_str())]);
            assert_eq!(codes(&diagnostics), ["AP308"], "{name}");
            assert!(diagnostics[0].message.contains(expect), "{}", diagnostics[0].message);
            assert_eq!(diagnostics[0].line, Some(2));
        }
        let mismatch = skill("name: jira-sprint-dashboard\ndescription: Does x. Use when y.");
        let (section, diagnostics) = discover(&[("skills/jira-sprint-dashboard-canvas/SKILL.md", mismatch.as_str())]);
        assert_eq!(codes(&diagnostics), ["AP309"]);
        assert!(section.entries[0].reason.as_deref().unwrap().contains("differs"));
        let (_, missing) = discover(&[("skills/a/SKILL.md", skill("description: Does x. Use when y.").as_str())]);
        assert_eq!(codes(&missing), ["AP308"]);
        assert_eq!(skill_name_violations(&"a".repeat(65)).len(), 1);
    }

    #[test]
    fn description_rules() {
        let long = format!("name: a\ndescription: {}", "x ".repeat(600));
        for (frontmatter, expect) in [
            ("name: a", "missing"),
            ("name: a\ndescription: \"\"", "empty"),
            ("name: a\ndescription: [x]", "must be a string"),
            (long.as_str(), "more than 1024"),
        ] {
            let (section, diagnostics) = discover(&[("skills/a/SKILL.md", skill(frontmatter).as_str())]);
            assert_eq!(codes(&diagnostics), ["AP310"], "{frontmatter}");
            assert!(diagnostics[0].message.contains(expect));
            assert_eq!(section.entries[0].state, SkillState::Skipped);
        }
    }

    #[test]
    fn optional_fields_are_typed() {
        let base = "name: a\ndescription: Does x. Use when y.";
        for (extra, code, state) in [
            ("license: 3", "AP311", SkillState::Skipped),
            ("compatibility: \"\"", "AP311", SkillState::Skipped),
            ("metadata: [a]", "AP311", SkillState::Skipped),
            ("allowed-tools: {a: b}", "AP311", SkillState::Skipped),
            ("metadata:\n  version: 1.0", "AP312", SkillState::Discovered),
            ("allowed-tools: [Read, Bash]", "AP312", SkillState::Discovered),
            ("user_invocable: true", "AP313", SkillState::Discovered),
        ] {
            let (section, diagnostics) =
                discover(&[("skills/a/SKILL.md", skill(&format!("{base}\n{extra}")).as_str())]);
            assert_eq!(codes(&diagnostics), [code], "{extra}");
            assert_eq!(section.entries[0].state, state, "{extra}");
        }
        let all = "license: MIT\ncompatibility: Needs git\nmetadata:\n  author: x\nallowed-tools: Read Bash(git:*)";
        let (_, clean) = discover(&[("skills/a/SKILL.md", skill(&format!("{base}\n{all}")).as_str())]);
        assert!(clean.is_empty(), "{clean:?}");
    }

    #[test]
    fn unknown_field_warning_names_the_key_at_its_position() {
        let (_, diagnostics) = discover(&[(
            "skills/a/SKILL.md",
            skill("name: a\ndescription: Does x. Use when y.\nversion: \"1\"").as_str(),
        )]);
        assert_eq!(codes(&diagnostics), ["AP313"]);
        assert!(diagnostics[0].message.contains("`version`"));
        assert_eq!((diagnostics[0].line, diagnostics[0].column), (Some(4), Some(1)));
    }

    #[test]
    fn discovery_hints() {
        assert!(
            description_advice("Helps with PDFs.", Some("pdf"))
                .unwrap()
                .contains("when")
        );
        assert!(
            description_advice("invoice-ops-skill-v2", Some("x"))
                .unwrap()
                .contains("identifier")
        );
        assert!(
            description_advice("I help you ship faster when you code.", None)
                .unwrap()
                .contains("slogan")
        );
        assert!(description_advice("Extracts PDF text. Use when the user has PDFs.", None).is_none());
    }

    #[test]
    fn large_body_gets_a_progressive_disclosure_hint() {
        let text = format!(
            "{}{}",
            skill("name: a\ndescription: Does x. Use when y."),
            "line\n".repeat(600)
        );
        let (section, diagnostics) = discover(&[("skills/a/SKILL.md", text.as_str())]);
        assert_eq!(codes(&diagnostics), ["AP315"]);
        assert_eq!(section.entries[0].state, SkillState::Discovered);
    }

    #[test]
    fn alias_bomb_in_frontmatter_is_a_yaml_error() {
        let mut yaml = String::from("name: a\ndescription: x\nl0: &l0 [x, x, x, x, x, x, x, x, x]\n");
        for i in 1..10 {
            let p = i - 1;
            yaml.push_str(&format!(
                "l{i}: &l{i} [*l{p}, *l{p}, *l{p}, *l{p}, *l{p}, *l{p}, *l{p}, *l{p}, *l{p}]\n"
            ));
        }
        let (section, diagnostics) = discover(&[("skills/a/SKILL.md", skill(&yaml).as_str())]);
        assert_eq!(codes(&diagnostics), ["AP307"]);
        assert_eq!(section.entries[0].state, SkillState::Skipped);
    }

    #[test]
    fn five_hundred_skills_are_discovered_without_quadratic_work() {
        let files: Vec<(String, String)> = (0..500)
            .map(|i| {
                (
                    format!("skills/skill-{i}/SKILL.md"),
                    skill(&format!(
                        "name: skill-{i}\ndescription: Does thing {i}. Use when {i} is needed."
                    )),
                )
            })
            .collect();
        let (section, diagnostics) = discover_tree(&Tree::from_files(files));
        assert_eq!(section.entries.len(), 500);
        assert!(diagnostics.is_empty());
    }
}
