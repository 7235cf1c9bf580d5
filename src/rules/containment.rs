//! AP1xx: containment (§4.1). Every package path a client discovers, reads or
//! executes must resolve, through any symlinks, to a place inside the plugin
//! root. The tree resolves links as data ([`Tree::resolve`]); this module turns
//! an unresolved path into a diagnostic whose message states the narrowest
//! failure boundary the caller applies (reject the plugin, invalidate a
//! component type, skip a skill, invalidate a server entry, deny the path).

use std::collections::BTreeSet;

use crate::diag::{Diagnostic, Severity};
use crate::rule::{Example, Rule};
use crate::tree::{Entry, Resolved, Tree, Unresolved};

pub static PATH_ESCAPES_ROOT: Rule = Rule {
    code: "AP101",
    name: "path-escapes-root",
    severity: Severity::Error,
    spec: "Agent Plugins §4.1",
    summary: "A package path resolves outside the plugin root through a symlink",
    fix_hint: Some("Copy the target into the package, or point the link at a path inside the plugin root"),
    doc: rule_doc! {
        what: "Follows every symlink on the way to a path the client reads (plugin.json, skills/, each SKILL.md, \
               mcp.json, a server's command or cwd) and reports a path whose filesystem-resolved location is \
               outside the plugin root. A target whose text leaves the root (absolute, or `..` above it) is \
               judged where the filesystem resolves it, as `realpath` does: back inside (the root given \
               through a symlink, a path that leaves and re-enters, a link outside pointing back) is fine.",
        why: "§4.1 requires the resolved path to stay inside the resolved root and sets the narrowest failure \
              boundary: an escaping plugin.json rejects the plugin, an escaping skills/ or mcp.json invalidates \
              that component type (§6.2), an escaping SKILL.md skips that skill (§7.1), an escaping command or \
              cwd invalidates that server (§7.2.2).",
        failing: Example::PackageWithLinks {
            files: &[
                (
                    "plugin.json",
                    "{\"$schema\": \"https://agent-plugins.org/schemas/1.0.0/plugin.schema.json\", \"name\": \"demo\"}",
                ),
                (
                    "shared/review/SKILL.md",
                    "---\nname: review\ndescription: Reviews code. Use when asked for a review.\n---\n",
                ),
            ],
            links: &[("skills", "../shared")],
        },
        fixed: Example::PackageWithLinks {
            files: &[
                (
                    "plugin.json",
                    "{\"$schema\": \"https://agent-plugins.org/schemas/1.0.0/plugin.schema.json\", \"name\": \"demo\"}",
                ),
                (
                    "shared/review/SKILL.md",
                    "---\nname: review\ndescription: Reviews code. Use when asked for a review.\n---\n",
                ),
            ],
            links: &[("skills", "./shared")],
        },
    },
};

pub static SYMLINK_LOOP: Rule = Rule {
    code: "AP102",
    name: "symlink-loop",
    severity: Severity::Error,
    spec: "Agent Plugins §4.1",
    summary: "Following the symlinks of a package path never ends",
    fix_hint: Some("Break the cycle: make one link of the chain point at a real file or directory"),
    doc: rule_doc! {
        what: "Reports a path whose symlinks form a cycle (or a chain of more than 40 links, the Linux limit).",
        why: "Such a path resolves to nothing, so a client cannot confirm it stays inside the root (§4.1); the \
              filesystem answers ELOOP and the client applies the same failure boundary as for an escape.",
        failing: Example::PackageWithLinks {
            files: &[(
                "plugin.json",
                "{\"$schema\": \"https://agent-plugins.org/schemas/1.0.0/plugin.schema.json\", \"name\": \"demo\"}",
            )],
            links: &[("skills", "skills-link"), ("skills-link", "skills")],
        },
        fixed: Example::PackageWithLinks {
            files: &[
                (
                    "plugin.json",
                    "{\"$schema\": \"https://agent-plugins.org/schemas/1.0.0/plugin.schema.json\", \"name\": \"demo\"}",
                ),
                (
                    "real-skills/review/SKILL.md",
                    "---\nname: review\ndescription: Reviews code. Use when asked for a review.\n---\n",
                ),
            ],
            links: &[("skills", "skills-link"), ("skills-link", "real-skills")],
        },
    },
};

pub static LINK_LEAVES_ROOT: Rule = Rule {
    code: "AP103",
    name: "link-leaves-root",
    severity: Severity::Warning,
    spec: "Agent Plugins §4.1",
    summary: "A symlink the loading hops never follow resolves outside the plugin root",
    fix_hint: Some("Copy the target into the package, or remove the link"),
    doc: rule_doc! {
        what: "Reports every other symlink in the package (in a skill's `scripts/` or `references/`, an \
               extension directory) whose resolved target is outside the plugin root. Links on the way to \
               plugin.json, `skills/`, a skill folder, its SKILL.md or mcp.json are AP101 and AP102; one on the \
               way to a server's `command` or `cwd` gets this warning and that server's AP101.",
        why: "A client MUST deny access to any other package path outside the root (§4.1 boundary 5): nothing \
              fails at load time, but a skill that reads or runs a file through the link fails when used, and \
              the link points at files of the user's machine the author did not ship.",
        failing: Example::PackageWithLinks {
            files: &[
                (
                    "plugin.json",
                    "{\"$schema\": \"https://agent-plugins.org/schemas/1.0.0/plugin.schema.json\", \"name\": \"demo\"}",
                ),
                (
                    "skills/review/SKILL.md",
                    "---\nname: review\ndescription: Reviews code. Use when asked for a review.\n---\nSee references/guide.md.\n",
                ),
            ],
            links: &[("skills/review/references", "../../../docs")],
        },
        fixed: Example::PackageWithLinks {
            files: &[
                (
                    "plugin.json",
                    "{\"$schema\": \"https://agent-plugins.org/schemas/1.0.0/plugin.schema.json\", \"name\": \"demo\"}",
                ),
                (
                    "skills/review/SKILL.md",
                    "---\nname: review\ndescription: Reviews code. Use when asked for a review.\n---\nSee references/guide.md.\n",
                ),
                ("docs/guide.md", "# Review guide\n"),
            ],
            links: &[("skills/review/references", "../../docs")],
        },
    },
};

pub static RULES: &[&Rule] = &[&PATH_ESCAPES_ROOT, &SYMLINK_LOOP, &LINK_LEAVES_ROOT];

/// What resolving one package path inside the root established.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Resolution<'t> {
    /// The path resolves inside the root; `resolved.entry` says what it is.
    Found(Resolved<'t>),
    /// Nothing is there (§6.2: an absent fixed location is not an error).
    Absent,
    /// The path escapes the root or loops; a diagnostic was pushed and the
    /// caller applies its failure boundary.
    Refused,
}

/// Resolves `path` inside `tree` and reports why it cannot be used (§4.1).
///
/// `consequence` completes the sentence of the diagnostic with what the client
/// does about it, e.g. `"the plugin is rejected (§4.1)"` or `"MCP is disabled
/// for this plugin (§6.2)"`; the diagnostic is placed on `path`. Shared by every
/// hop, including the MCP configuration's `command` and `cwd` checks.
pub fn resolve_within_root<'t>(
    tree: &'t Tree,
    path: &str,
    consequence: &str,
    diagnostics: &mut Vec<Diagnostic>,
) -> Resolution<'t> {
    match tree.resolve(path) {
        Ok(resolved) => Resolution::Found(resolved),
        Err(unresolved) => match unresolved_diagnostic(tree, path, &unresolved, consequence) {
            Some(diagnostic) => {
                diagnostics.push(diagnostic);
                Resolution::Refused
            }
            None => Resolution::Absent,
        },
    }
}

/// The diagnostic for a path that does not resolve inside the root; `None` for
/// [`Unresolved::Missing`], which is not a containment failure.
pub fn unresolved_diagnostic(
    tree: &Tree,
    path: &str,
    unresolved: &Unresolved,
    consequence: &str,
) -> Option<Diagnostic> {
    let diagnostic = match unresolved {
        Unresolved::Missing => return None,
        Unresolved::Escapes { link } => {
            let how = match tree.entry(link) {
                Some(Entry::Symlink(target)) => format!("through the link `{link}` → `{target}`"),
                _ => "above the root".to_string(),
            };
            Diagnostic::new(
                &PATH_ESCAPES_ROOT,
                format!("`{path}` resolves outside the plugin root {how}; {consequence}"),
            )
        }
        // Not a client's verdict: the reader could not look, so the check says so.
        Unresolved::NotRead { path: unread, why } => return Some(crate::rules::unread::not_read(path, unread, why)),
        Unresolved::Loop { link } => Diagnostic::new(
            &SYMLINK_LOOP,
            format!("`{path}` never resolves: the links starting at `{link}` form a cycle; {consequence}"),
        ),
    };
    Some(diagnostic.in_file(path))
}

/// AP103: every symlink whose own target takes it out of the root (§4.1
/// boundary 5), except the links the loading hops already judge with their
/// own failure boundary. A link that escapes only because a link before it
/// does is left to that one, so each cause is reported once, where it can be
/// fixed.
pub fn report_links_leaving_root(tree: &Tree, diagnostics: &mut Vec<Diagnostic>) {
    let links: Vec<(&str, &String)> = tree
        .entries()
        .filter_map(|(path, entry)| match entry {
            Entry::Symlink(target) => Some((path, target)),
            _ => None,
        })
        .collect();
    if links.is_empty() {
        // The usual package: resolving every path the hops load, twice per
        // skill, took about a tenth of a 50,000-skill check for nothing.
        return;
    }
    let judged = links_judged_by_the_hops(tree);
    for (path, target) in links {
        if judged.contains(path) {
            continue;
        }
        if let Err(Unresolved::Escapes { link }) = tree.resolve(path)
            && link == path
        {
            diagnostics.push(
                Diagnostic::new(
                    &LINK_LEAVES_ROOT,
                    format!(
                        "`{path}` is a symlink to `{target}`, which resolves outside the plugin root; a client \
                         denies access to it and to every path through it (§4.1)"
                    ),
                )
                .in_file(path),
            );
        }
    }
}

/// The links that make a path the hops resolve escape (§4.1 boundaries 1-3):
/// plugin.json, mcp.json, `skills`, each skill folder and its SKILL.md,
/// resolved as the hops resolve them, so a `skills` given through a link is
/// followed as a client follows it.
fn links_judged_by_the_hops(tree: &Tree) -> BTreeSet<String> {
    let mut loaded: Vec<String> = ["plugin.json", "mcp.json", "skills"].map(String::from).to_vec();
    if let Ok(skills) = tree.resolve("skills") {
        for (name, _, _) in tree.children(skills.path) {
            loaded.push(format!("skills/{name}"));
            loaded.push(format!("skills/{name}/SKILL.md"));
        }
    }
    loaded
        .iter()
        .filter_map(|path| match tree.resolve(path) {
            Err(Unresolved::Escapes { link }) => Some(link),
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree(links: &[(&str, &str)]) -> Tree {
        let mut tree = Tree::from_files([("plugin.json", "{}"), ("inside/file", "x")]);
        for (path, target) in links {
            tree.insert(path, Entry::Symlink(target.to_string()));
        }
        tree
    }

    #[test]
    fn escaping_link_is_refused_with_the_link_and_consequence_named() {
        // §4.1: "clients MUST reject package paths that resolve outside it".
        let tree = tree(&[("skills", "../outside/skills")]);
        let mut diagnostics = Vec::new();
        let resolution = resolve_within_root(&tree, "skills", "skills are invalid (§6.2)", &mut diagnostics);
        assert_eq!(resolution, Resolution::Refused);
        assert_eq!(diagnostics[0].code, "AP101");
        assert!(diagnostics[0].message.contains("`skills` → `../outside/skills`"));
        assert!(diagnostics[0].message.ends_with("skills are invalid (§6.2)"));
    }

    #[test]
    fn link_inside_the_root_is_found() {
        let tree = tree(&[("skills", "./inside")]);
        let mut diagnostics = Vec::new();
        let resolution = resolve_within_root(&tree, "skills/file", "x", &mut diagnostics);
        assert!(matches!(resolution, Resolution::Found(r) if r.path == "inside/file"));
        assert!(diagnostics.is_empty());
    }

    #[test]
    fn missing_path_is_absent_without_a_diagnostic() {
        // §6.2: an absent fixed location is not an error.
        let tree = tree(&[]);
        let mut diagnostics = Vec::new();
        assert_eq!(
            resolve_within_root(&tree, "mcp.json", "x", &mut diagnostics),
            Resolution::Absent
        );
        assert!(diagnostics.is_empty());
    }

    #[test]
    fn link_cycle_is_refused_as_a_loop_not_a_hang() {
        let tree = tree(&[("a", "b"), ("b", "a")]);
        let mut diagnostics = Vec::new();
        assert_eq!(
            resolve_within_root(&tree, "a", "denied", &mut diagnostics),
            Resolution::Refused
        );
        assert_eq!(diagnostics[0].code, "AP102");
    }

    #[test]
    fn links_leaving_the_root_off_the_loading_hops_are_reported_once_each() {
        // §4.1 boundary 5: any other package path outside the root is denied.
        let package = tree(&[
            ("skills/a/scripts", "/usr/local/bin"),
            ("skills/a/refs", "../../../.."),
            // Escapes only through `skills/a/scripts`: reported there, not again.
            ("skills/a/tool", "scripts/tool"),
            ("com.example.client/hooks", "../inside"),
            ("skills/b", "/elsewhere"),
            ("skills/c/SKILL.md", "/etc/passwd"),
            ("mcp.json", "../mcp.json"),
            ("loop", "loop"),
        ]);
        let mut diagnostics = Vec::new();
        report_links_leaving_root(&package, &mut diagnostics);
        let files: Vec<_> = diagnostics
            .iter()
            .map(|d| (d.code, d.file.as_deref().unwrap()))
            .collect();
        assert_eq!(files, [("AP103", "skills/a/refs"), ("AP103", "skills/a/scripts")]);
        assert!(
            diagnostics[1]
                .message
                .contains("`skills/a/scripts` is a symlink to `/usr/local/bin`")
        );
        // `skills` through a link: its real folders are the ones the hops judge.
        let package = tree(&[
            ("skills", "real"),
            ("real/b", "/elsewhere"),
            ("real/c/SKILL.md", "../../../passwd"),
            ("real/c/scripts", "/usr/bin"),
        ]);
        let mut diagnostics = Vec::new();
        report_links_leaving_root(&package, &mut diagnostics);
        let files: Vec<_> = diagnostics.iter().map(|d| d.file.as_deref().unwrap()).collect();
        assert_eq!(files, ["real/c/scripts"]);
    }

    #[test]
    fn unresolved_diagnostic_is_none_for_missing() {
        let tree = tree(&[]);
        assert!(unresolved_diagnostic(&tree, "x", &Unresolved::Missing, "c").is_none());
        let escape = Unresolved::Escapes { link: "x".into() };
        assert_eq!(unresolved_diagnostic(&tree, "x", &escape, "c").unwrap().code, "AP101");
    }
}
