//! What a rule is: its code, severity, spec section and doc with examples.
//! A leaf: it imports nothing from the crate, so `diag` and every rule family
//! can depend on it while the registry (`registry`), which sees every family,
//! sits above them all.
//!
//! Code families (never reused), as [`Family`] reads them:
//! - `AP0xx` files and JSON documents
//! - `AP1xx` containment (§4.1)
//! - `AP2xx` manifest (§5, §8.1, §10)
//! - `AP3xx` skills (§6, §7.1, Agent Skills)
//! - `AP4xx` MCP configuration (§7.2, §9)
//! - `AP5xx` secrets in packaging (§7.2.1, §9.2)
//! - `AP6xx` capability snapshot lint
//! - `AP7xx` drift between a snapshot and its package
//! - `AP8xx` changes between two snapshots (§10.2)
//! - `AP9xx` `tools/call` arguments against a snapshot

use serde::Serialize;

/// Where the rule pages are published: the rule with code `AP209` has its page
/// at this base followed by `AP209`, generated from the registry into
/// `docs/rules/AP209.md` (`tests/rule_docs.rs`). SARIF's `helpUri`, the
/// language server's doc links and the Markdown findings (the Action's job
/// summary) all link there; the VS Code extension's default is this too.
pub const DOCS_BASE_URL: &str = "https://apcheck.dev/rules/";

/// The page of the rule with `code`, under [`DOCS_BASE_URL`].
pub fn doc_url(code: &str) -> String {
    format!("{DOCS_BASE_URL}{code}")
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Informational: a hint that changes nothing a client does.
    Info,
    /// The package loads, but something is ignored or will surprise someone.
    Warning,
    /// A client rejects or skips something because of this.
    Error,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

/// The family of a rule: the hundreds of its code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Family {
    Files,
    Containment,
    Manifest,
    Skills,
    Mcp,
    Secrets,
    SnapshotLint,
    Drift,
    Changes,
    Call,
}

impl Family {
    /// Every family, in code order.
    pub const ALL: [Family; 10] = [
        Family::Files,
        Family::Containment,
        Family::Manifest,
        Family::Skills,
        Family::Mcp,
        Family::Secrets,
        Family::SnapshotLint,
        Family::Drift,
        Family::Changes,
        Family::Call,
    ];

    /// The family of `code` (`AP5xx` → secrets), or `None` for a string that
    /// is not a rule code. The one place a code's digits are read.
    pub fn of_code(code: &str) -> Option<Family> {
        let digits = code.strip_prefix("AP")?;
        if digits.len() != 3 || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        Some(Family::ALL[usize::from(digits.as_bytes()[0] - b'0')])
    }
}

#[derive(Debug, Serialize)]
pub struct Rule {
    /// Stable code, e.g. `AP201`.
    pub code: &'static str,
    /// Stable kebab-case name, e.g. `manifest-name-invalid`.
    pub name: &'static str,
    pub severity: Severity,
    /// The section enforced, e.g. `Agent Plugins §5.5`.
    pub spec: &'static str,
    /// One line: what the rule finds.
    pub summary: &'static str,
    /// The default fix hint attached to each diagnostic.
    pub fix_hint: Option<&'static str>,
    pub doc: RuleDoc,
}

impl Rule {
    /// The family the rule's code places it in.
    pub fn family(&self) -> Family {
        // Every registered code parses: the registry's tests check it.
        Family::of_code(self.code).unwrap_or_else(|| panic!("`{}` is not a rule code", self.code))
    }

    /// Whether the rule's findings point at a credential: renderers then never
    /// quote the span in clear, and mask it wherever another finding quotes
    /// the same lines. Every such rule is a secret rule (AP5xx).
    pub fn masks_secrets(&self) -> bool {
        masks_secrets(self.code)
    }

    /// Whether a finding of this rule decides a spec state: the plugin is
    /// rejected, MCP disabled, a skill skipped or a server invalid. The
    /// configuration can hide such a finding but never lower it, and hiding it
    /// leaves the state as it is. These are the errors of the package families
    /// (AP0xx-AP4xx), except the few errors a client still loads past.
    pub fn decides_state(&self) -> bool {
        self.severity == Severity::Error
            && matches!(
                self.family(),
                Family::Files | Family::Containment | Family::Manifest | Family::Skills | Family::Mcp
            )
            && !DECIDE_NOTHING.contains(&self.code)
    }
}

/// Errors of the package families that decide no state: AP423 leaves its
/// server loaded (a client starts it and fails at run time, §7.2.2 rule 5, not
/// rule 3), and AP030 belongs to `apcheck validate`, which loads no package.
const DECIDE_NOTHING: &[&str] = &["AP030", "AP423"];

/// [`Rule::masks_secrets`] for the rule with `code`, for faces that hold only a
/// diagnostic's code.
pub fn masks_secrets(code: &str) -> bool {
    Family::of_code(code) == Some(Family::Secrets)
}

/// Builds a rule's [`RuleDoc`]: `rule_doc! { what: .., why: .., failing: .., fixed: .. }`.
///
/// The page's wasm (wasm32 without the npm package's `node` feature) leaves
/// the two examples out: they are about 48 KB of a wasm held to 3.00 MB, yet
/// compress to 4 KB, so they travel beside the wasm instead. `tests/rule_docs.rs`
/// writes them from this registry to `www/src/generated/rule-examples.json` (and
/// fails when that file is stale); the page's worker puts them back into the
/// answers of `rules()` and `explain()` (www/src/ruledocs.js). Everywhere else
/// they are compiled in, and the registry's tests run them.
#[cfg(not(all(target_arch = "wasm32", not(feature = "node"))))]
macro_rules! rule_doc {
    (what: $what:expr, why: $why:expr, failing: $failing:expr, fixed: $fixed:expr $(,)?) => {
        $crate::rule::RuleDoc {
            what: $what,
            why: $why,
            failing: $failing,
            fixed: $fixed,
        }
    };
}

/// The page's [`rule_doc!`]: the examples are left out (see the other definition).
#[cfg(all(target_arch = "wasm32", not(feature = "node")))]
macro_rules! rule_doc {
    (what: $what:expr, why: $why:expr, failing: $failing:expr, fixed: $fixed:expr $(,)?) => {
        $crate::rule::RuleDoc {
            what: $what,
            why: $why,
            // Each example stays type-checked, in a closure that is never
            // called, so nothing of it is compiled into the wasm.
            failing: {
                let _ = || $failing;
                $crate::rule::Example::Described($crate::rule::EXAMPLE_IN_PAGE_DATA)
            },
            fixed: {
                let _ = || $fixed;
                $crate::rule::Example::Described($crate::rule::EXAMPLE_IN_PAGE_DATA)
            },
        }
    };
}

/// What the page's wasm holds in place of a rule example (see [`rule_doc!`]).
#[cfg(all(target_arch = "wasm32", not(feature = "node")))]
pub const EXAMPLE_IN_PAGE_DATA: &str = "(in www/src/generated/rule-examples.json)";

/// The four parts of every rule doc (after Ruff and Biome).
#[derive(Debug, Serialize)]
pub struct RuleDoc {
    /// What it checks.
    pub what: &'static str,
    /// Why it matters: what a conformant client does with such input.
    pub why: &'static str,
    /// An input that triggers the rule.
    pub failing: Example,
    /// The same input, fixed: it does not trigger the rule.
    pub fixed: Example,
}

/// A rule example. The registry runs every example as a test, so the docs cannot rot.
#[derive(Debug, Serialize)]
#[serde(tag = "kind", content = "files", rename_all = "kebab-case")]
pub enum Example {
    /// A plugin root given as `(path, contents)` files, checked with `check_package`.
    Package(&'static [(&'static str, &'static str)]),
    /// A plugin root with symbolic links: files, and `(link path, target)` pairs.
    PackageWithLinks {
        files: &'static [(&'static str, &'static str)],
        links: &'static [(&'static str, &'static str)],
    },
    /// An input no text can show (bytes that are not UTF-8, a FIFO, a reader
    /// limit), in words; the unit tests beside the rule build it.
    Described(&'static str),
    /// A capability snapshot's text, linted by `snapshot::check_snapshot`.
    Snapshot(&'static str),
    /// A snapshot and the plugin root it claims to describe, compared by `snapshot::drift`.
    Drift {
        snapshot: &'static str,
        files: &'static [(&'static str, &'static str)],
    },
    /// Two snapshots, before and after a change, compared by `snapshot::changes`.
    Changes { old: &'static str, new: &'static str },
    /// A snapshot, a tool name and `tools/call` arguments, checked by `snapshot::call`.
    Call {
        snapshot: &'static str,
        tool: &'static str,
        arguments: &'static str,
    },
    /// A JSON Schema and a document, validated as `apcheck validate` does.
    Validate {
        schema: &'static str,
        document: &'static str,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn families_are_read_from_the_hundreds_of_the_code() {
        assert_eq!(Family::of_code("AP001"), Some(Family::Files));
        assert_eq!(Family::of_code("AP505"), Some(Family::Secrets));
        assert_eq!(Family::of_code("AP999"), Some(Family::Call));
        for not_a_code in ["AP5", "AP5001", "XP501", "AP5x1", ""] {
            assert_eq!(Family::of_code(not_a_code), None, "{not_a_code}");
        }
        assert!(masks_secrets("AP501"));
        assert!(!masks_secrets("AP401"));
    }
}
