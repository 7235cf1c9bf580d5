//! The packages the editor has files open in: each plugin root's tree as read
//! from disk, the unsaved buffers laid over it, and the last report. A change
//! to any buffer re-checks the whole package, so a `plugin.json` edit updates
//! the findings shown in `mcp.json` and the skills too. Each package is
//! checked with the configuration found above its root.
//!
//! A package's files and configuration are read on a thread of their own
//! (a root can be slow to read, or in `/proc`), and land in the request loop
//! as a [`Loaded`]: the loop never waits on the disk.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::time::Instant;

use apcheck::PackageReport;
use apcheck::assist::with_buffers;
use apcheck::disk::read_tree;
use apcheck::tree::{Limits, Tree};
use crossbeam_channel::{Receiver, Sender, unbounded};
use lsp_types::Diagnostic;

use super::config::{self, Configuration};
use super::position::Encoding;
use crate::settings::LoadError;

pub struct Package {
    /// The tree as last read from disk (empty until the first read lands).
    disk: Tree,
    /// Whether a read has landed: until then the package is not checked.
    pub ready: bool,
    /// The read in flight, by number, if any.
    loading: Option<u64>,
    /// Whether the disk changed again while a read was in flight, so another is due after it.
    reload: bool,
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
    /// Where that problem is underlined, if it has a place in a file.
    pub config_placed: Option<(PathBuf, Diagnostic)>,
}

/// What a read of a package found.
pub struct Loaded {
    root: PathBuf,
    number: u64,
    disk: Tree,
    configuration: Configuration,
    config_problem: Option<LoadError>,
    config_placed: Option<(PathBuf, Diagnostic)>,
}

impl Loaded {
    fn read(root: PathBuf, number: u64, encoding: Encoding) -> Loaded {
        let (configuration, config_problem) = Configuration::load(&root);
        let config_placed = config_problem
            .as_ref()
            .and_then(|problem| config::place(problem, encoding));
        Loaded {
            disk: read_disk(&root),
            root,
            number,
            configuration,
            config_problem,
            config_placed,
        }
    }

    pub fn root(&self) -> &Path {
        &self.root
    }
}

impl Package {
    fn unread() -> Package {
        Package {
            disk: Tree::default(),
            ready: false,
            loading: None,
            reload: false,
            overlay: BTreeMap::new(),
            checked: None,
            published: BTreeSet::new(),
            due: None,
            configuration: Configuration::default(),
            config_problem: None,
            config_placed: None,
        }
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
pub struct Packages {
    pub by_root: BTreeMap<PathBuf, Package>,
    /// Where reads land, for the request loop to wait on.
    pub loaded: Receiver<Loaded>,
    finished: Sender<Loaded>,
    reads: u64,
    /// For the configuration problems' places.
    encoding: Encoding,
}

impl Packages {
    pub fn new(encoding: Encoding) -> Packages {
        let (finished, loaded) = unbounded();
        Packages {
            by_root: BTreeMap::new(),
            loaded,
            finished,
            reads: 0,
            encoding,
        }
    }

    /// The package of `root`; the first time, its read starts.
    pub fn open(&mut self, root: &Path) -> &mut Package {
        if !self.by_root.contains_key(root) {
            self.by_root.insert(root.to_path_buf(), Package::unread());
            self.reread(root);
        }
        self.by_root.get_mut(root).expect("inserted above")
    }

    /// Reads the files and configuration of the package at `root` again (a
    /// save, a configuration change), on a thread of its own; with one read
    /// in flight already, the next starts when it lands.
    pub fn reread(&mut self, root: &Path) {
        let Some(package) = self.by_root.get_mut(root) else {
            return;
        };
        if package.loading.is_some() {
            package.reload = true;
            return;
        }
        self.reads += 1;
        package.loading = Some(self.reads);
        let (finished, root, number, encoding) = (self.finished.clone(), root.to_path_buf(), self.reads, self.encoding);
        std::thread::spawn(move || {
            // The loop may have ended meanwhile.
            let _ = finished.send(Loaded::read(root, number, encoding));
        });
    }

    /// Takes in a read: `true` when it is the one its package waited for
    /// (not one of a package closed, or reopened, since), which is then due
    /// for a check.
    pub fn land(&mut self, loaded: Loaded) -> bool {
        let Some(package) = self.by_root.get_mut(&loaded.root) else {
            return false;
        };
        if package.loading != Some(loaded.number) {
            return false;
        }
        package.disk = loaded.disk;
        package.configuration = loaded.configuration;
        package.config_problem = loaded.config_problem;
        package.config_placed = loaded.config_placed;
        package.ready = true;
        package.loading = None;
        package.due = Some(Instant::now());
        if std::mem::take(&mut package.reload) {
            self.reread(&loaded.root);
        }
        true
    }

    /// The earliest pending re-check of a package that can be checked.
    pub fn next_due(&self) -> Option<Instant> {
        self.by_root
            .values()
            .filter(|package| package.ready)
            .filter_map(|package| package.due)
            .min()
    }
}
