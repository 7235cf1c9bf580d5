//! The packages the editor has files open in: each plugin root's tree as read
//! from disk, the unsaved buffers laid over it, and the last report. A change
//! to any buffer re-checks the whole package, so a `plugin.json` edit updates
//! the findings shown in `mcp.json` and the skills too. Each package is
//! checked with the configuration found above its root.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::time::Instant;

use apcheck::PackageReport;
use apcheck::assist::with_buffers;
use apcheck::disk::read_tree;
use apcheck::tree::{Limits, Tree};

use super::config::Configuration;
use crate::settings::LoadError;

pub struct Package {
    /// The tree as last read from disk.
    disk: Tree,
    /// Unsaved buffers by package-relative path.
    pub overlay: BTreeMap<String, String>,
    /// The tree checked last (disk + overlay), for positions and snippets, and its report.
    pub checked: Option<(Tree, PackageReport)>,
    /// Package-relative files that have findings published in the editor.
    pub published: BTreeSet<String>,
    /// When the pending re-check is due, after the debounce.
    pub due: Option<Instant>,
    /// The settings its findings are shown with.
    pub configuration: Configuration,
    /// Why the configuration above it could not be used, if it could not.
    pub config_problem: Option<LoadError>,
}

impl Package {
    pub fn read(root: &Path) -> Package {
        let (configuration, config_problem) = Configuration::load(root);
        Package {
            disk: read_disk(root),
            overlay: BTreeMap::new(),
            checked: None,
            published: BTreeSet::new(),
            due: None,
            configuration,
            config_problem,
        }
    }

    /// Loads the configuration above `root` again (a configuration file changed).
    pub fn reconfigure(&mut self, root: &Path) {
        (self.configuration, self.config_problem) = Configuration::load(root);
    }

    /// Reads the disk tree again (after a save, or a change the editor saw on disk).
    pub fn reread(&mut self, root: &Path) {
        self.disk = read_disk(root);
    }

    /// The disk tree with every unsaved buffer over it (`assist::with_buffers`).
    pub fn effective_tree(&self) -> Tree {
        with_buffers(
            &self.disk,
            self.overlay.iter().map(|(path, text)| (path.as_str(), text.as_str())),
        )
    }

    /// The text of a package file as last checked (an open buffer or the disk file).
    pub fn text(&self, relative: &str) -> Option<&str> {
        if let Some(text) = self.overlay.get(relative) {
            return Some(text);
        }
        let (tree, _) = self.checked.as_ref()?;
        tree.read(relative).and_then(|bytes| std::str::from_utf8(bytes).ok())
    }
}

/// A root that cannot be read (deleted, no permission) checks as an empty
/// tree: the buffers still get their findings, and the manifest's absence is one.
fn read_disk(root: &Path) -> Tree {
    read_tree(root, Limits::default()).unwrap_or_default()
}

/// The packages by plugin root.
#[derive(Default)]
pub struct Packages {
    pub by_root: BTreeMap<PathBuf, Package>,
}

impl Packages {
    /// The package of `root`, read from disk the first time it is needed.
    pub fn open(&mut self, root: &Path) -> &mut Package {
        self.by_root
            .entry(root.to_path_buf())
            .or_insert_with(|| Package::read(root))
    }

    /// The earliest pending re-check.
    pub fn next_due(&self) -> Option<Instant> {
        self.by_root.values().filter_map(|package| package.due).min()
    }
}
