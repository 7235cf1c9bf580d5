//! `PackageReport`: what a conformant client would load from one plugin root,
//! and why. Its serde shape is the stable JSON of `apcheck check --format json`
//! and of the wasm `check` export; every face renders this one value.

use serde::Serialize;

use crate::diag::{Diagnostic, Severity};
use crate::package::Package;

#[derive(Debug, Clone, Serialize)]
pub struct PackageReport {
    /// The root as the edge named it (a path on disk, a dropped folder's name).
    pub root: String,
    pub plugin: PluginSection,
    pub skills: SkillsSection,
    pub mcp: McpSection,
    /// Sorted by file, then position, then code.
    pub diagnostics: Vec<Diagnostic>,
    pub summary: Summary,
    /// The paths the check could not read (AP005, AP010, AP011; the root
    /// itself is `.`). When there are any, the states above describe only
    /// what could be read: the check is incomplete, and fails, whatever the
    /// settings or the baseline hide.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unread: Vec<String>,
    /// What plugin.json and mcp.json hold, typed and placed: what is read
    /// after the check instead of the files. Not part of the JSON output.
    #[serde(skip)]
    pub package: Package,
}

#[derive(Debug, Clone, Serialize)]
pub struct PluginSection {
    pub state: PluginState,
    pub name: Option<String>,
    pub version: Option<String>,
    pub description: Option<String>,
    /// The Agent Plugins version selected by `$schema` (`"1.0.0"`), if supported.
    pub spec: Option<String>,
    /// Why the manifest is rejected, in one line: its first error. `None` when loaded.
    pub reason: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum PluginState {
    Loaded,
    /// §5.2/§5.3: the manifest is missing, unsupported or invalid; nothing is discovered.
    Rejected,
}

#[derive(Debug, Clone, Serialize)]
pub struct SkillsSection {
    pub state: SkillsState,
    pub entries: Vec<SkillEntry>,
    /// Findings the `apcheck-ignore` comments of the SKILL.md files hid; the
    /// check moves the count to [`Summary::suppressed`].
    #[serde(skip)]
    pub suppressed: usize,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SkillsState {
    /// No `skills` location (§6.2: not an error).
    Absent,
    /// `skills/` resolves to a directory inside the root.
    Valid,
    /// `skills` is present but not a usable directory (§6.2, §4.1).
    Invalid,
    /// The plugin was rejected, so no component was looked at (§5.2).
    NotLoaded,
}

#[derive(Debug, Clone, Serialize)]
pub struct SkillEntry {
    /// The directory name under `skills/`.
    pub dir: String,
    /// The frontmatter `name`, when it could be read.
    pub name: Option<String>,
    pub description: Option<String>,
    /// Package-relative path of the `SKILL.md`.
    pub path: String,
    pub state: SkillState,
    /// Why the skill is skipped, in one line.
    pub reason: Option<String>,
    pub tokens: TokenEstimate,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SkillState {
    Discovered,
    /// §7.1: the skill does not conform and is skipped alone.
    Skipped,
}

/// Rough token counts (about four bytes a token): what the metadata costs in
/// every context, and what the body costs once the skill is used.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct TokenEstimate {
    pub metadata: usize,
    pub body: usize,
}

#[derive(Debug, Clone, Serialize)]
pub struct McpSection {
    pub state: McpState,
    pub servers: Vec<ServerEntry>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum McpState {
    /// No `mcp.json` (§6.2: not an error).
    Absent,
    Loaded,
    /// §6.2, §7.2.2: MCP is off for this plugin; skills go on.
    Disabled,
    /// The plugin was rejected, so no component was looked at (§5.2).
    NotLoaded,
}

#[derive(Debug, Clone, Serialize)]
pub struct ServerEntry {
    pub id: String,
    /// The declared `type`, when it is a string.
    #[serde(rename = "type")]
    pub transport: Option<String>,
    pub state: ServerState,
    pub reason: Option<String>,
    /// For display: the stdio `command` when it is one executable token.
    pub command: Option<String>,
    /// For display: the remote endpoint as scheme, host, port and path; user
    /// information and the query (which may carry credentials) are left out.
    pub url: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ServerState {
    Valid,
    /// §7.2.2: the entry is skipped alone.
    Invalid,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Summary {
    pub errors: usize,
    pub warnings: usize,
    pub infos: usize,
    pub skills_discovered: usize,
    pub skills_skipped: usize,
    pub servers_valid: usize,
    pub servers_invalid: usize,
    /// Findings the configuration hid (`ignore`, `severity = "off"`); not counted above.
    pub ignored: usize,
    /// Findings hidden because the baseline records them; not counted above.
    pub baselined: usize,
    /// Findings hidden by `apcheck-ignore` comments in the files; not counted above.
    pub suppressed: usize,
}

impl PackageReport {
    /// Whether the check could not read all of the package.
    pub fn is_incomplete(&self) -> bool {
        !self.unread.is_empty()
    }

    /// Whether this report fails a run on its state alone: a rejected plugin
    /// or an incomplete check. Settings and baselines choose which findings
    /// are shown; they never make either of these a pass.
    pub fn fails_on_its_own(&self) -> bool {
        self.plugin.state == PluginState::Rejected || self.is_incomplete()
    }

    /// Adds findings made after the check (what `--connect` found, AP45x, as a
    /// client's report of its connections would, §7.2.2 rule 5), in reading
    /// order, and recounts; what settings and the baseline hid stays counted.
    pub fn add_findings(&mut self, more: impl IntoIterator<Item = Diagnostic>) {
        self.diagnostics.extend(more);
        sort_diagnostics(&mut self.diagnostics);
        self.recount();
    }

    /// Counts the findings and verdicts again after some were added or
    /// hidden; the counts of hidden findings are kept for their caller to add to.
    pub fn recount(&mut self) {
        self.summary = Summary {
            ignored: self.summary.ignored,
            baselined: self.summary.baselined,
            suppressed: self.summary.suppressed,
            ..Summary::count(&self.diagnostics, &self.skills, &self.mcp)
        };
    }
}

impl Summary {
    pub fn count(diagnostics: &[Diagnostic], skills: &SkillsSection, mcp: &McpSection) -> Self {
        let by = |s: Severity| diagnostics.iter().filter(|d| d.severity == s).count();
        Summary {
            errors: by(Severity::Error),
            warnings: by(Severity::Warning),
            infos: by(Severity::Info),
            skills_discovered: skills
                .entries
                .iter()
                .filter(|e| e.state == SkillState::Discovered)
                .count(),
            skills_skipped: skills.entries.iter().filter(|e| e.state == SkillState::Skipped).count(),
            servers_valid: mcp.servers.iter().filter(|s| s.state == ServerState::Valid).count(),
            servers_invalid: mcp.servers.iter().filter(|s| s.state == ServerState::Invalid).count(),
            ignored: 0,
            baselined: 0,
            suppressed: 0,
        }
    }
}

/// Orders diagnostics for reading: by file, then position, then code.
pub fn sort_diagnostics(diagnostics: &mut [Diagnostic]) {
    diagnostics.sort_by(|a, b| {
        (a.file.as_deref(), a.line, a.column, a.code).cmp(&(b.file.as_deref(), b.line, b.column, b.code))
    });
}

#[cfg(test)]
mod tests {
    use crate::check_package;
    use crate::diag::Diagnostic;
    use crate::tree::Tree;

    #[test]
    fn findings_added_after_the_check_are_ordered_and_counted_and_hidden_ones_stay_counted() {
        // §5.2: no `$schema` rejects the manifest, one error.
        let mut report = check_package("p", &Tree::from_files([("plugin.json", "{\"name\": \"demo\"}")]));
        report.summary.ignored = 2;
        let errors = report.summary.errors;
        let failed = crate::registry::find("AP450").expect("AP450 is registered");
        report.add_findings([Diagnostic::new(failed, "server `x` failed").in_file("a.json")]);
        assert_eq!(report.summary.errors, errors + 1);
        assert_eq!(report.summary.ignored, 2);
        assert_eq!(report.diagnostics[0].file.as_deref(), Some("a.json"), "sorted by file");
    }
}
