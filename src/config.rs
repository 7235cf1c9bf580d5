//! Configuration: `apcheck.toml`, or `[tool.apcheck]` in `pyproject.toml`,
//! merged with the command line's flags into [`Settings`] that decide which
//! findings are shown and at what severity (after Ruff).
//!
//! Sans-IO: text in, settings out. Finding the file (walking up from each
//! checked path) is the edge's job; the language server and the CLI share this.
//!
//! - `select`, `extend-select`, `ignore`: rule codes or code prefixes (`AP3`,
//!   `AP31`, `AP314`, `AP` for all). The longest matching prefix decides; on a
//!   tie `ignore` wins. Nothing selected means everything.
//! - `severity = { AP205 = "error", AP314 = "off" }`: per code or prefix.
//! - `[[overrides]] paths = ["plugins/legacy/**"]` with the same keys, for the
//!   files those globs match (relative to the configuration's directory).
//! - `exclude = ["vendor/**"]`: plugin roots not looked at in a collection.
//! - `baseline = "apcheck-baseline.json"`: findings recorded there are hidden.
//! - `extensions-namespace = "com.example.client"`: where the unsafe fix moves
//!   a vendor `hooks` (or `commands`, `agents`, `lspServers`) key, under
//!   `extensions`; without it that fix is not offered.
//!
//! Settings never change what a client would do. A rule that decides a spec
//! state ([`Rule::decides_state`]) can be hidden, but its severity cannot be
//! lowered below error, and hiding it leaves the plugin rejected, the skill
//! skipped or the server invalid.

use std::collections::BTreeMap;
use std::ops::Range;

use globset::{Glob, GlobSet, GlobSetBuilder};
use serde::Deserialize;
use toml::Spanned;

use crate::diag::Severity;
use crate::fix::FixInputs;
use crate::registry;
use crate::report::PackageReport;
use crate::rule::Rule;
use crate::source::LineIndex;

/// The configuration file names, in the order they are looked for in each directory.
pub const FILE_NAMES: [&str; 2] = ["apcheck.toml", "pyproject.toml"];

/// What a severity setting asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    Off,
    Set(Severity),
}

impl Level {
    fn parse(text: &str) -> Option<Level> {
        Some(match text {
            "off" => Level::Off,
            "info" => Level::Set(Severity::Info),
            "warning" => Level::Set(Severity::Warning),
            "error" => Level::Set(Severity::Error),
            _ => return None,
        })
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Level::Off => "off",
            Level::Set(severity) => severity.as_str(),
        }
    }
}

/// Where a setting came from, for `apcheck config --show` and errors.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    Default,
    /// `path:line:col` of the value in a configuration file.
    File {
        path: String,
        line: usize,
        column: usize,
    },
    /// A command-line flag, e.g. `--ignore`.
    Flag(&'static str),
}

impl std::fmt::Display for Origin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Origin::Default => f.write_str("default"),
            Origin::File { path, line, column } => write!(f, "{path}:{line}:{column}"),
            Origin::Flag(flag) => write!(f, "{flag}"),
        }
    }
}

/// A usage error in a configuration, at its place: exit 2 at the CLI.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigError {
    pub origin: Origin,
    /// The byte range of the offending text in the configuration file (none for a flag),
    /// so an editor can underline it.
    pub span: Option<Range<usize>>,
    pub message: String,
}

impl std::fmt::Display for ConfigError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.origin, self.message)
    }
}

/// A value with where it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sourced<T> {
    pub value: T,
    pub origin: Origin,
}

/// The rule selection keys, shared by the top level and each override.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Selection {
    pub select: Option<Sourced<Vec<String>>>,
    pub extend_select: Vec<Sourced<String>>,
    pub ignore: Vec<Sourced<String>>,
    /// By code or prefix.
    pub severity: BTreeMap<String, Sourced<Level>>,
}

/// An `[[overrides]]` table: a selection for the files its globs match.
#[derive(Debug, Clone)]
pub struct Override {
    pub paths: Sourced<Vec<String>>,
    matcher: GlobSet,
    pub selection: Selection,
}

/// Everything that decides what a check shows, merged from a file and flags.
#[derive(Debug, Clone, Default)]
pub struct Settings {
    /// The configuration file, as the edge named it, if one was used.
    pub file: Option<String>,
    pub selection: Selection,
    pub overrides: Vec<Override>,
    pub exclude: Option<Sourced<Vec<String>>>,
    exclude_matcher: Option<GlobSet>,
    pub baseline: Option<Sourced<String>>,
    /// The namespace the unsafe fix moves a vendor `hooks` key to, under `extensions`.
    pub extensions_namespace: Option<Sourced<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawConfig {
    select: Option<Spanned<Vec<Spanned<String>>>>,
    extend_select: Option<Vec<Spanned<String>>>,
    ignore: Option<Vec<Spanned<String>>>,
    severity: Option<BTreeMap<Spanned<String>, Spanned<String>>>,
    exclude: Option<Spanned<Vec<Spanned<String>>>>,
    baseline: Option<Spanned<String>>,
    extensions_namespace: Option<Spanned<String>>,
    overrides: Option<Vec<RawOverride>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawOverride {
    paths: Spanned<Vec<Spanned<String>>>,
    select: Option<Spanned<Vec<Spanned<String>>>>,
    extend_select: Option<Vec<Spanned<String>>>,
    ignore: Option<Vec<Spanned<String>>>,
    severity: Option<BTreeMap<Spanned<String>, Spanned<String>>>,
}

#[derive(Deserialize)]
struct Pyproject {
    tool: Option<PyprojectTool>,
}

#[derive(Deserialize)]
struct PyprojectTool {
    apcheck: Option<RawConfig>,
}

/// Where positions in one configuration text are named from.
struct Place<'t> {
    path: &'t str,
    text: &'t str,
    index: LineIndex,
}

impl Place<'_> {
    fn origin(&self, span: Range<usize>) -> Origin {
        let at = self.index.line_col(self.text, span.start);
        Origin::File {
            path: self.path.to_string(),
            line: at.line,
            column: at.column,
        }
    }

    fn error(&self, span: Range<usize>, message: impl Into<String>) -> ConfigError {
        ConfigError {
            origin: self.origin(span.clone()),
            span: Some(span),
            message: message.into(),
        }
    }
}

impl Settings {
    /// The settings of the configuration `text` read from `path`; `None` for a
    /// `pyproject.toml` without `[tool.apcheck]`, which is not an apcheck configuration.
    pub fn parse(path: &str, text: &str) -> Result<Option<Settings>, ConfigError> {
        let place = Place {
            path,
            text,
            index: LineIndex::new(text),
        };
        let syntax = |error: toml::de::Error| place.error(error.span().unwrap_or(0..0), error.message().trim());
        let raw = if is_pyproject(path) {
            match toml::from_str::<Pyproject>(text)
                .map_err(syntax)?
                .tool
                .and_then(|tool| tool.apcheck)
            {
                Some(raw) => raw,
                None => return Ok(None),
            }
        } else {
            toml::from_str::<RawConfig>(text).map_err(syntax)?
        };
        let mut settings = Settings {
            file: Some(path.to_string()),
            selection: selection(&place, raw.select, raw.extend_select, raw.ignore, raw.severity)?,
            ..Settings::default()
        };
        if let Some(exclude) = raw.exclude {
            settings.exclude_matcher = Some(glob_set(&place, exclude.get_ref())?);
            settings.exclude = Some(Sourced {
                value: exclude.get_ref().iter().map(|g| g.get_ref().clone()).collect(),
                origin: place.origin(exclude.span()),
            });
        }
        settings.baseline = raw.baseline.map(|baseline| Sourced {
            origin: place.origin(baseline.span()),
            value: baseline.into_inner(),
        });
        if let Some(namespace) = raw.extensions_namespace {
            let value =
                namespace_value(namespace.get_ref()).map_err(|message| place.error(namespace.span(), message))?;
            settings.extensions_namespace = Some(Sourced {
                value,
                origin: place.origin(namespace.span()),
            });
        }
        for raw in raw.overrides.unwrap_or_default() {
            settings.overrides.push(Override {
                matcher: glob_set(&place, raw.paths.get_ref())?,
                paths: Sourced {
                    value: raw.paths.get_ref().iter().map(|g| g.get_ref().clone()).collect(),
                    origin: place.origin(raw.paths.span()),
                },
                selection: selection(&place, raw.select, raw.extend_select, raw.ignore, raw.severity)?,
            });
        }
        Ok(Some(settings))
    }

    /// Applies the command line's `--select` (replacing), `--extend-select`
    /// and `--ignore` (adding) and `--severity CODE=LEVEL` (overriding).
    pub fn with_flags(
        mut self,
        select: &[String],
        extend_select: &[String],
        ignore: &[String],
        severity: &[String],
    ) -> Result<Settings, ConfigError> {
        let flag_error = |flag: &'static str, message: String| ConfigError {
            origin: Origin::Flag(flag),
            span: None,
            message,
        };
        let checked = |flag: &'static str, code: &str| -> Result<String, ConfigError> {
            selector(code).map_err(|message| flag_error(flag, message))
        };
        if !select.is_empty() {
            let codes = select
                .iter()
                .map(|code| checked("--select", code))
                .collect::<Result<_, _>>()?;
            self.selection.select = Some(Sourced {
                value: codes,
                origin: Origin::Flag("--select"),
            });
        }
        // A flag is a later layer: it overrides the file's entries it covers
        // (`--extend-select AP3` shows AP314 even if the file ignores it).
        for code in extend_select {
            let code = checked("--extend-select", code)?;
            self.selection
                .ignore
                .retain(|ignored| !ignored.value.starts_with(&code));
            self.selection.extend_select.push(Sourced {
                value: code,
                origin: Origin::Flag("--extend-select"),
            });
        }
        for code in ignore {
            let code = checked("--ignore", code)?;
            self.selection
                .extend_select
                .retain(|selected| !selected.value.starts_with(&code));
            if let Some(select) = &mut self.selection.select {
                select
                    .value
                    .retain(|selected| !selected.starts_with(&code) || selected == &code);
            }
            self.selection.ignore.push(Sourced {
                value: code,
                origin: Origin::Flag("--ignore"),
            });
        }
        for setting in severity {
            let Some((code, level)) = setting.split_once('=') else {
                return Err(flag_error("--severity", format!("`{setting}` is not CODE=LEVEL")));
            };
            let code = checked("--severity", code.trim())?;
            let level = level_for(&code, level.trim()).map_err(|message| flag_error("--severity", message))?;
            self.selection.severity.insert(
                code,
                Sourced {
                    value: level,
                    origin: Origin::Flag("--severity"),
                },
            );
        }
        Ok(self)
    }

    /// Applies `--extensions-namespace`, which overrides the configuration's.
    pub fn with_extensions_namespace(mut self, namespace: Option<&str>) -> Result<Settings, ConfigError> {
        if let Some(namespace) = namespace {
            let origin = Origin::Flag("--extensions-namespace");
            let value = namespace_value(namespace).map_err(|message| ConfigError {
                origin: origin.clone(),
                span: None,
                message,
            })?;
            self.extensions_namespace = Some(Sourced { value, origin });
        }
        Ok(self)
    }

    /// What the check needs from these settings to offer the fixes that need an input.
    pub fn fix_inputs(&self) -> FixInputs {
        FixInputs {
            extensions_namespace: self
                .extensions_namespace
                .as_ref()
                .map(|namespace| namespace.value.clone()),
        }
    }

    /// Whether the plugin root at `path` (relative to the configuration's
    /// directory, `/`-separated) is excluded from a collection.
    pub fn excludes(&self, path: &str) -> bool {
        self.exclude_matcher.as_ref().is_some_and(|set| set.is_match(path))
    }

    /// What the settings make of a finding of `code` in the file at `path`
    /// (relative to the configuration's directory): `None` when it is hidden.
    pub fn severity_of(&self, code: &str, default: Severity, path: &str) -> Option<Severity> {
        let mut selected = self.selection.selects(code);
        let mut level = self.selection.level(code);
        for over in self.overrides.iter().filter(|over| over.matcher.is_match(path)) {
            if let Some(choice) = over.selection.choice(code) {
                selected = choice;
            }
            if let Some(over_level) = over.selection.level(code) {
                level = Some(over_level);
            }
        }
        let decides_state = || registry::find(code).is_some_and(Rule::decides_state);
        match (selected, level) {
            (false, _) | (_, Some(Level::Off)) => None,
            (true, Some(Level::Set(severity))) if severity >= default || !decides_state() => Some(severity),
            (true, _) => Some(default),
        }
    }

    /// Hides and re-levels `report`'s findings; `root` is the plugin root
    /// relative to the configuration's directory. The states (rejected,
    /// skipped, invalid) are left as the check decided them. Returns how many
    /// findings were hidden.
    pub fn apply(&self, report: &mut PackageReport, root: &str) -> usize {
        let before = report.diagnostics.len();
        report.diagnostics.retain_mut(|diagnostic| {
            let path = finding_path(root, diagnostic.file.as_deref());
            match self.severity_of(diagnostic.code, diagnostic.severity, &path) {
                Some(severity) => {
                    diagnostic.severity = severity;
                    true
                }
                None => false,
            }
        });
        let hidden = before - report.diagnostics.len();
        report.recount();
        report.summary.ignored += hidden;
        hidden
    }

    /// The merged settings with where each came from: `apcheck config --show`.
    pub fn show(&self) -> String {
        let mut out = String::new();
        let file = self.file.as_deref().unwrap_or("none (defaults)");
        out.push_str(&format!("# configuration file: {file}\n"));
        out.push_str(&self.selection.show(""));
        match &self.exclude {
            Some(exclude) => out.push_str(&format!("exclude = {}  # {}\n", list(&exclude.value), exclude.origin)),
            None => out.push_str("exclude = []  # default\n"),
        }
        match &self.baseline {
            Some(baseline) => out.push_str(&format!("baseline = {:?}  # {}\n", baseline.value, baseline.origin)),
            None => out.push_str("# baseline: none  # default\n"),
        }
        match &self.extensions_namespace {
            Some(namespace) => out.push_str(&format!(
                "extensions-namespace = {:?}  # {}\n",
                namespace.value, namespace.origin
            )),
            None => out.push_str("# extensions-namespace: none (no fix moves vendor keys)  # default\n"),
        }
        for over in &self.overrides {
            out.push_str(&format!(
                "\n[[overrides]]\npaths = {}  # {}\n",
                list(&over.paths.value),
                over.paths.origin
            ));
            out.push_str(&over.selection.show("override "));
        }
        out
    }
}

/// Where the settings place a finding: its package-relative `file` under the
/// plugin `root` (both relative to the configuration's directory), or the
/// root itself for a finding in no file.
pub fn finding_path(root: &str, file: Option<&str>) -> String {
    match (file, root) {
        (Some(file), "") => file.to_string(),
        (Some(file), root) => format!("{}/{file}", root.trim_end_matches('/')),
        (None, root) => root.to_string(),
    }
}

/// One replacement in a configuration text: the bytes `span` become `replacement`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigEdit {
    pub span: Range<usize>,
    pub replacement: String,
}

/// The edit of the configuration file `path` (its `text`, or `None` when it
/// does not exist yet) that hides the findings of `code` in the file at
/// `file` (relative to the configuration's directory): what a JSON file,
/// which has no comments to hold an `apcheck-ignore`, gets instead. The code
/// joins the `ignore` of an `[[overrides]]` entry for exactly that file, or a
/// new entry is appended; everything else in the text is left as written.
/// Each candidate is read back as any configuration is, and the first that
/// hides the code is chosen, so `None` means no such edit works (a text that
/// does not parse, `overrides` written as an inline array).
pub fn ignore_edit(path: &str, text: Option<&str>, file: &str, code: &str) -> Option<ConfigEdit> {
    let code = registry::find(code)?.code;
    let text = text.unwrap_or_default();
    // The path as a glob that matches it alone, whatever characters it holds.
    let glob = globset::escape(file);
    // A JSON string is a TOML basic string: the same escapes, none TOML lacks.
    let quoted = |value: &str| serde_json::Value::from(value).to_string();
    let overrides = if is_pyproject(path) {
        toml::from_str::<Pyproject>(text)
            .ok()?
            .tool
            .and_then(|tool| tool.apcheck)
            .and_then(|config| config.overrides)
    } else {
        toml::from_str::<RawConfig>(text).ok()?.overrides
    };
    let joined = overrides.iter().flatten().find_map(|over| {
        let paths = over.paths.get_ref();
        let only_this = paths.len() == 1 && paths[0].get_ref() == &glob;
        let last = over
            .ignore
            .as_ref()
            .and_then(|ignore| ignore.last())
            .filter(|_| only_this)?;
        Some(ConfigEdit {
            span: last.span().end..last.span().end,
            replacement: format!(", {}", quoted(code)),
        })
    });
    let header = if is_pyproject(path) {
        "[[tool.apcheck.overrides]]"
    } else {
        "[[overrides]]"
    };
    let separator = match text {
        "" => "",
        text if text.ends_with('\n') => "\n",
        _ => "\n\n",
    };
    let appended = ConfigEdit {
        span: text.len()..text.len(),
        replacement: format!(
            "{separator}{header}\npaths = [{}]\nignore = [{}]\n",
            quoted(&glob),
            quoted(code)
        ),
    };
    joined.into_iter().chain([appended]).find(|edit| {
        let mut edited = text.to_string();
        edited.replace_range(edit.span.clone(), &edit.replacement);
        matches!(Settings::parse(path, &edited), Ok(Some(settings)) if settings.severity_of(code, Severity::Error, file).is_none())
    })
}

fn is_pyproject(path: &str) -> bool {
    path.rsplit(['/', '\\']).next() == Some("pyproject.toml")
}

impl Selection {
    /// Whether `code` is shown by this selection alone (nothing selected = all).
    fn selects(&self, code: &str) -> bool {
        self.choice(code).unwrap_or(self.select.is_none())
    }

    /// The decision of the longest matching prefix, if any matches: `ignore` wins a tie.
    fn choice(&self, code: &str) -> Option<bool> {
        let matching = |prefix: &str| code.starts_with(prefix).then_some(prefix.len());
        let selected = self
            .select
            .iter()
            .flat_map(|select| select.value.iter().map(String::as_str))
            .chain(self.extend_select.iter().map(|s| s.value.as_str()))
            .filter_map(matching)
            .max();
        let ignored = self.ignore.iter().filter_map(|s| matching(&s.value)).max();
        match (selected, ignored) {
            (None, None) => None,
            (Some(_), None) => Some(true),
            (None, Some(_)) => Some(false),
            (Some(selected), Some(ignored)) => Some(selected > ignored),
        }
    }

    /// The severity set for the longest prefix of `code`, if any.
    fn level(&self, code: &str) -> Option<Level> {
        self.severity
            .iter()
            .filter(|(prefix, _)| code.starts_with(prefix.as_str()))
            .max_by_key(|(prefix, _)| prefix.len())
            .map(|(_, level)| level.value)
    }

    fn show(&self, what: &str) -> String {
        let mut out = String::new();
        match &self.select {
            Some(select) => out.push_str(&format!("select = {}  # {}\n", list(&select.value), select.origin)),
            None if what.is_empty() => out.push_str("select = [\"AP\"]  # default: every rule\n"),
            None => {}
        }
        for (key, values) in [("extend-select", &self.extend_select), ("ignore", &self.ignore)] {
            if values.is_empty() && what.is_empty() {
                out.push_str(&format!("{key} = []  # default\n"));
            }
            for value in values {
                out.push_str(&format!("{key} += {:?}  # {}\n", value.value, value.origin));
            }
        }
        for (code, level) in &self.severity {
            out.push_str(&format!(
                "severity.{code} = {:?}  # {}\n",
                level.value.as_str(),
                level.origin
            ));
        }
        out
    }
}

/// A namespace for `extensions` as §8 asks for it: reverse-domain, so that
/// moving data there does not trade one finding (AP210) for another (AP213).
fn namespace_value(namespace: &str) -> Result<String, String> {
    if crate::rules::manifest::is_reverse_domain(namespace) {
        Ok(namespace.to_string())
    } else {
        Err(format!(
            "`{namespace}` is not a reverse-domain namespace such as `com.example.client` (Agent Plugins §8)"
        ))
    }
}

fn list(values: &[String]) -> String {
    format!("{values:?}")
}

fn selection(
    place: &Place,
    select: Option<Spanned<Vec<Spanned<String>>>>,
    extend_select: Option<Vec<Spanned<String>>>,
    ignore: Option<Vec<Spanned<String>>>,
    severity: Option<BTreeMap<Spanned<String>, Spanned<String>>>,
) -> Result<Selection, ConfigError> {
    let code =
        |value: &Spanned<String>| selector(value.get_ref()).map_err(|message| place.error(value.span(), message));
    let sourced = |value: &Spanned<String>| -> Result<Sourced<String>, ConfigError> {
        Ok(Sourced {
            value: code(value)?,
            origin: place.origin(value.span()),
        })
    };
    let mut out = Selection::default();
    if let Some(select) = select {
        out.select = Some(Sourced {
            value: select.get_ref().iter().map(code).collect::<Result<_, _>>()?,
            origin: place.origin(select.span()),
        });
    }
    for value in extend_select.iter().flatten() {
        out.extend_select.push(sourced(value)?);
    }
    for value in ignore.iter().flatten() {
        out.ignore.push(sourced(value)?);
    }
    for (key, level) in severity.unwrap_or_default() {
        let code = code(&key)?;
        let value = level_for(&code, level.get_ref()).map_err(|message| place.error(level.span(), message))?;
        out.severity.insert(
            code,
            Sourced {
                value,
                origin: place.origin(level.span()),
            },
        );
    }
    Ok(out)
}

/// `text` as a code prefix that names at least one rule (`AP3`, `ap314` → `AP314`).
fn selector(text: &str) -> Result<String, String> {
    let code = text.trim().to_ascii_uppercase();
    if code.len() >= 2 && registry::all().any(|rule| rule.code.starts_with(&code)) {
        Ok(code)
    } else {
        Err(format!(
            "`{text}` is not a rule code or code prefix (`apcheck rules` lists them)"
        ))
    }
}

/// The level `text` names for `code`, refusing to lower a rule that decides a
/// spec state by its code: hiding it is allowed, calling it a warning would be
/// untrue. A prefix lowers only the rules under it that decide nothing.
fn level_for(code: &str, text: &str) -> Result<Level, String> {
    let level = Level::parse(text)
        .ok_or_else(|| format!("`{text}` is not a severity: use \"off\", \"info\", \"warning\" or \"error\""))?;
    if let Level::Set(severity) = level
        && severity < Severity::Error
        && registry::find(code).is_some_and(Rule::decides_state)
    {
        return Err(format!(
            "{code} decides what a client loads, so it stays an error; use \"off\" to hide it (the verdict stays)"
        ));
    }
    Ok(level)
}

fn glob_set(place: &Place, globs: &[Spanned<String>]) -> Result<GlobSet, ConfigError> {
    let mut builder = GlobSetBuilder::new();
    for glob in globs {
        let parsed = Glob::new(glob.get_ref())
            .map_err(|error| place.error(glob.span(), format!("bad glob `{}`: {}", glob.get_ref(), error.kind())))?;
        builder.add(parsed);
    }
    builder
        .build()
        .map_err(|error| place.error(0..0, format!("bad glob: {error}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Settings {
        Settings::parse("apcheck.toml", text).unwrap().unwrap()
    }

    fn error(text: &str) -> String {
        Settings::parse("apcheck.toml", text).unwrap_err().to_string()
    }

    #[test]
    fn the_longest_prefix_decides_and_ignore_wins_a_tie() {
        let settings =
            parse("select = [\"AP2\", \"AP3\"]\nignore = [\"AP3\", \"AP209\"]\nextend-select = [\"AP314\"]\n");
        let shown = |code| settings.severity_of(code, Severity::Warning, "plugin.json").is_some();
        assert!(shown("AP205"));
        assert!(!shown("AP209"));
        assert!(!shown("AP309"));
        assert!(shown("AP314"));
        assert!(!shown("AP401"), "not selected");
        let all = parse("ignore = [\"AP314\"]");
        assert!(all.severity_of("AP401", Severity::Error, "mcp.json").is_some());
        assert!(all.severity_of("AP314", Severity::Info, "skills/a/SKILL.md").is_none());
    }

    #[test]
    fn severity_re_levels_or_hides() {
        let settings = parse("[severity]\nAP205 = \"error\"\nAP314 = \"off\"\nAP3 = \"info\"\n");
        assert_eq!(
            settings.severity_of("AP205", Severity::Warning, "p"),
            Some(Severity::Error)
        );
        assert_eq!(settings.severity_of("AP314", Severity::Warning, "p"), None);
        assert_eq!(
            settings.severity_of("AP313", Severity::Warning, "p"),
            Some(Severity::Info)
        );
        // A prefix lowers only what decides nothing: AP309 skips the skill.
        assert_eq!(
            settings.severity_of("AP309", Severity::Error, "p"),
            Some(Severity::Error)
        );
    }

    #[test]
    fn overrides_apply_to_the_paths_they_match() {
        let settings = parse("[[overrides]]\npaths = [\"plugins/legacy/**\"]\nignore = [\"AP3\"]\n");
        assert!(
            settings
                .severity_of("AP313", Severity::Warning, "plugins/legacy/a/skills/x/SKILL.md")
                .is_none()
        );
        assert!(
            settings
                .severity_of("AP313", Severity::Warning, "plugins/new/skills/x/SKILL.md")
                .is_some()
        );
    }

    #[test]
    fn errors_name_file_line_and_column() {
        assert_eq!(
            error("select = [\"AP2\",\n  \"AP999x\"]\n"),
            "apcheck.toml:2:3: `AP999x` is not a rule code or code prefix (`apcheck rules` lists them)"
        );
        assert!(
            error("exclude = [\"a/[b\"]").starts_with("apcheck.toml:1:12: bad glob `a/[b`"),
            "{}",
            error("exclude = [\"a/[b\"]")
        );
        assert!(
            error("ignore = \"AP3\"").starts_with("apcheck.toml:1:10: "),
            "{}",
            error("ignore = \"AP3\"")
        );
        assert!(
            error("colour = true").starts_with("apcheck.toml:1:1: unknown field `colour`"),
            "{}",
            error("colour = true")
        );
        assert!(error("[severity]\nAP205 = \"loud\"").starts_with("apcheck.toml:2:9: `loud` is not a severity"));
    }

    #[test]
    fn errors_carry_the_span_of_the_offending_text() {
        let text = "ignore = [\"AP314\", \"XX9\"]\n";
        let error = Settings::parse("apcheck.toml", text).unwrap_err();
        assert_eq!(&text[error.span.clone().unwrap()], "\"XX9\"");
        let flag = Settings::default()
            .with_flags(&[], &[], &["XX9".into()], &[])
            .unwrap_err();
        assert_eq!(flag.span, None);
    }

    #[test]
    fn a_rule_that_decides_a_state_can_be_hidden_but_not_lowered() {
        let lowered = error("[severity]\nAP209 = \"warning\"");
        assert!(lowered.contains("AP209 decides what a client loads"), "{lowered}");
        assert!(Settings::parse("apcheck.toml", "[severity]\nAP209 = \"off\"").is_ok());
    }

    #[test]
    fn pyproject_is_read_only_under_tool_apcheck() {
        let none = Settings::parse("pyproject.toml", "[project]\nname = \"x\"\n").unwrap();
        assert!(none.is_none());
        let some = Settings::parse(
            "a/pyproject.toml",
            "[project]\nname = \"x\"\n[tool.apcheck]\nignore = [\"AP314\"]\n",
        )
        .unwrap()
        .unwrap();
        assert_eq!(some.selection.ignore[0].origin.to_string(), "a/pyproject.toml:4:11");
    }

    #[test]
    fn flags_add_to_the_file_and_show_says_where_each_value_came_from() {
        let settings = parse("ignore = [\"AP314\"]\n")
            .with_flags(&["AP3".into()], &[], &["AP313".into()], &["AP205=error".into()])
            .unwrap();
        let shown = settings.show();
        assert!(shown.contains("select = [\"AP3\"]  # --select"), "{shown}");
        assert!(shown.contains("ignore += \"AP314\"  # apcheck.toml:1:11"), "{shown}");
        assert!(shown.contains("ignore += \"AP313\"  # --ignore"), "{shown}");
        assert!(shown.contains("severity.AP205 = \"error\"  # --severity"), "{shown}");
        let bad = Settings::default()
            .with_flags(&[], &[], &["XX1".into()], &[])
            .unwrap_err();
        assert_eq!(bad.origin, Origin::Flag("--ignore"));
    }

    #[test]
    fn the_extensions_namespace_is_reverse_domain_and_a_flag_overrides_it() {
        let settings = parse("extensions-namespace = \"com.example.client\"\n");
        assert_eq!(
            settings.fix_inputs().extensions_namespace.as_deref(),
            Some("com.example.client")
        );
        assert!(
            settings
                .show()
                .contains("extensions-namespace = \"com.example.client\"  # apcheck.toml:1:24")
        );
        assert_eq!(
            error("extensions-namespace = \"claude\""),
            "apcheck.toml:1:24: `claude` is not a reverse-domain namespace such as `com.example.client` (Agent Plugins §8)"
        );
        let flagged = settings.with_extensions_namespace(Some("dev.acme.cli")).unwrap();
        assert_eq!(
            flagged.fix_inputs().extensions_namespace.as_deref(),
            Some("dev.acme.cli")
        );
        let bad = Settings::default().with_extensions_namespace(Some("acme")).unwrap_err();
        assert_eq!(bad.origin, Origin::Flag("--extensions-namespace"));
        assert_eq!(Settings::default().fix_inputs(), FixInputs::default());
    }

    /// `text` with `edit` made.
    fn edited(text: &str, edit: &ConfigEdit) -> String {
        let mut out = text.to_string();
        out.replace_range(edit.span.clone(), &edit.replacement);
        out
    }

    #[test]
    fn ignoring_a_code_in_one_file_creates_extends_or_appends_an_override() {
        let hidden =
            |text: &str, file: &str, code: &str| parse(text).severity_of(code, Severity::Warning, file).is_none();
        // No configuration yet: the whole file.
        let created = ignore_edit("apcheck.toml", None, "plugins/a/mcp.json", "AP205").unwrap();
        assert_eq!(created.span, 0..0);
        assert_eq!(
            created.replacement,
            "[[overrides]]\npaths = [\"plugins/a/mcp.json\"]\nignore = [\"AP205\"]\n"
        );
        // A file without a final line break keeps its text and gets a blank line first.
        let text = "ignore = [\"AP314\"]  # kept as written";
        let appended = edited(
            text,
            &ignore_edit("apcheck.toml", Some(text), "plugin.json", "AP205").unwrap(),
        );
        assert!(
            appended.starts_with("ignore = [\"AP314\"]  # kept as written\n\n[[overrides]]\n"),
            "{appended}"
        );
        assert!(hidden(&appended, "plugin.json", "AP205"));
        assert!(!hidden(&appended, "mcp.json", "AP205"), "only that file");
        // An entry for exactly that file gets the code in its list.
        let text = "[[overrides]]\npaths = [\"plugin.json\"]\nignore = [\"AP205\"]  # legacy\n";
        let joined = edited(
            text,
            &ignore_edit("apcheck.toml", Some(text), "plugin.json", "AP210").unwrap(),
        );
        assert_eq!(
            joined,
            "[[overrides]]\npaths = [\"plugin.json\"]\nignore = [\"AP205\", \"AP210\"]  # legacy\n"
        );
        // In pyproject.toml, under [tool.apcheck].
        let text = "[project]\nname = \"x\"\n";
        let pyproject = edited(
            text,
            &ignore_edit("pyproject.toml", Some(text), "plugin.json", "AP205").unwrap(),
        );
        assert!(pyproject.ends_with("\n[[tool.apcheck.overrides]]\npaths = [\"plugin.json\"]\nignore = [\"AP205\"]\n"));
        let settings = Settings::parse("pyproject.toml", &pyproject).unwrap().unwrap();
        assert!(
            settings
                .severity_of("AP205", Severity::Warning, "plugin.json")
                .is_none()
        );
    }

    #[test]
    fn an_ignore_edit_is_one_that_reads_back_hiding_the_code() {
        // Glob characters in the path are escaped, so the entry matches that file alone.
        let edit = ignore_edit("apcheck.toml", None, "p[1]/mcp.json", "AP401").unwrap();
        assert!(
            edit.replacement.contains("\"p[[]1[]]/mcp.json\""),
            "{}",
            edit.replacement
        );
        let settings = parse(&edit.replacement);
        assert!(
            settings
                .severity_of("AP401", Severity::Error, "p[1]/mcp.json")
                .is_none()
        );
        assert!(settings.severity_of("AP401", Severity::Error, "p1/mcp.json").is_some());
        // A later entry selects the code again for that file: joining the first
        // entry would hide nothing, so a new entry goes last, where it wins.
        let text = "[[overrides]]\npaths = [\"plugin.json\"]\nignore = [\"AP313\"]\n\n[[overrides]]\npaths = [\"**\"]\nextend-select = [\"AP205\"]\n";
        let edit = ignore_edit("apcheck.toml", Some(text), "plugin.json", "AP205").unwrap();
        assert_eq!(edit.span, text.len()..text.len());
        // `overrides` as an inline array cannot take a `[[overrides]]` table; a broken text takes nothing.
        let inline = "overrides = [{ paths = [\"x\"], ignore = [\"AP3\"] }]\n";
        assert_eq!(ignore_edit("apcheck.toml", Some(inline), "plugin.json", "AP205"), None);
        assert_eq!(
            ignore_edit("apcheck.toml", Some("ignore = ["), "plugin.json", "AP205"),
            None
        );
        assert_eq!(
            ignore_edit("apcheck.toml", None, "plugin.json", "AP999"),
            None,
            "no such rule"
        );
    }
}
