//! The configuration each open package is checked with: the `apcheck.toml`
//! (or `pyproject.toml` with `[tool.apcheck]`) found by walking up from its
//! plugin root, loaded by the CLI's own loader (`crate::settings`), so the
//! editor shows what `apcheck check ROOT` shows. A configuration that cannot
//! be used is reported to the user (underlined in its file when it has a
//! place there), and the package is checked with the defaults until it is
//! fixed, as if there were none: a typo in `apcheck.toml` must not leave the
//! editor silent.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use apcheck::PackageReport;
use apcheck::config::{ConfigError, FILE_NAMES, Origin, Settings};
use lsp_types::{Diagnostic, DiagnosticSeverity};

use super::position::{Encoding, range_of};
use crate::settings::{self, ConfigArgs, LoadError};

/// The settings of one plugin root.
#[derive(Default)]
pub struct Configuration {
    settings: Settings,
    /// The plugin root relative to the configuration's directory, for the `[[overrides]]` globs.
    root: String,
    /// The configuration file and its text as loaded, for the quick fix
    /// that adds an override to it; `None` when there is none.
    file: Option<(PathBuf, String)>,
}

/// Where a quick fix that hides a finding through the configuration writes.
pub struct IgnoreTarget {
    /// The configuration file; created when `text` is `None`.
    pub path: PathBuf,
    pub text: Option<String>,
    /// The edit of that text.
    pub edit: apcheck::config::ConfigEdit,
}

impl Configuration {
    /// The configuration found above `root`, or the defaults and why it could not be used.
    pub fn load(root: &Path) -> (Configuration, Option<LoadError>) {
        match settings::load(root, &ConfigArgs::default()) {
            Ok(loaded) => {
                // Read here, with the load and off the request loop; the text the
                // settings were parsed from, unless it changed in between, which
                // its watcher reports and a reload follows.
                let file = loaded.settings.file.as_ref().and_then(|file| {
                    let path = PathBuf::from(file);
                    let text = apcheck::disk::read_regular_text(&path).ok()?;
                    Some((path, text))
                });
                let configuration = Configuration {
                    root: loaded.relative(root),
                    settings: loaded.settings,
                    file,
                };
                (configuration, None)
            }
            Err(error) => (Configuration::default(), Some(error)),
        }
    }

    /// Hides and re-levels `report`'s findings as `apcheck check` does.
    pub fn apply(&self, report: &mut PackageReport) {
        self.settings.apply(report, &self.root);
    }

    /// The edit that hides findings of `code` in the package file `relative`
    /// of the plugin at `root`: an `[[overrides]]` entry in the configuration
    /// in use, or in a new `apcheck.toml` at the root when there is none.
    pub fn ignore_target(&self, root: &Path, relative: &str, code: &str) -> Option<IgnoreTarget> {
        let (path, text) = match &self.file {
            Some((path, text)) => (path.clone(), Some(text.clone())),
            None => (root.join(FILE_NAMES[0]), None),
        };
        let file = match self.file {
            Some(_) => apcheck::config::finding_path(&self.root, Some(relative)),
            None => relative.to_string(),
        };
        let edit = apcheck::config::ignore_edit(&path.to_string_lossy(), text.as_deref(), &file, code)?;
        Some(IgnoreTarget { path, text, edit })
    }

    /// What the fixes need from the configuration (`extensions-namespace`), as `check --fix` gets it.
    pub fn fix_inputs(&self) -> apcheck::fix::FixInputs {
        self.settings.fix_inputs()
    }
}

/// Whether `path` names a configuration file (by name: one that does not exist
/// yet, or no longer does, changes what applies too).
pub fn is_config_file(path: &Path) -> bool {
    path.file_name()
        .and_then(|name| name.to_str())
        .is_some_and(|name| FILE_NAMES.contains(&name))
}

/// Where `problem` is underlined: its configuration file and the diagnostic
/// there; `None` for a problem with no place in a file (an unreadable file).
/// Reads the file as it is now (the loader has just read it), so it runs
/// with the load, off the request loop.
pub fn place(problem: &LoadError, encoding: Encoding) -> Option<(PathBuf, Diagnostic)> {
    let LoadError::Invalid(ConfigError {
        origin: Origin::File { path, .. },
        span,
        message,
    }) = problem
    else {
        return None;
    };
    let text = apcheck::disk::read_regular_text(Path::new(path)).unwrap_or_default();
    let span = span.clone().unwrap_or(0..0);
    let diagnostic = Diagnostic {
        range: range_of(&text, span.start, span.end, encoding),
        severity: Some(DiagnosticSeverity::ERROR),
        source: Some("apcheck".into()),
        message: format!("{message}; apcheck checks with the default settings until this is fixed"),
        ..Diagnostic::default()
    };
    Some((PathBuf::from(path), diagnostic))
}

/// The diagnostics of each configuration file, from the `placed` problems of
/// the open packages.
pub fn diagnostics_by_file<'p>(
    placed: impl IntoIterator<Item = &'p (PathBuf, Diagnostic)>,
) -> BTreeMap<PathBuf, Vec<Diagnostic>> {
    let mut by_file: BTreeMap<PathBuf, Vec<Diagnostic>> = BTreeMap::new();
    for (file, diagnostic) in placed {
        let diagnostics = by_file.entry(file.clone()).or_default();
        // Packages below one configuration share its problem.
        if !diagnostics.contains(diagnostic) {
            diagnostics.push(diagnostic.clone());
        }
    }
    by_file
}
