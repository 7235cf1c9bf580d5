//! The in-memory package tree: what a plugin root holds, as data.
//!
//! Every face builds one of these at its edge (the CLI with `lstat`, the page
//! from a drop, tests from literals) and every check reads only this, so the
//! same code decides for all of them. Paths are relative to the plugin root,
//! `/`-separated, without `.` or `..` components; the root itself is `""`.
//!
//! Symlinks are stored as their target text and resolved here, inside the
//! tree, never on a real filesystem: that is how §4.1 containment is decided
//! identically everywhere ("the filesystem-resolved path MUST remain within
//! the filesystem-resolved plugin root").

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};
use std::ops::Bound;
#[cfg(not(target_arch = "wasm32"))]
use std::sync::{Arc, OnceLock};

/// One entry of the tree, as `lstat` would describe it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Entry {
    /// A regular file and its bytes (possibly truncated, see [`Tree::truncated`]).
    /// A file the edge listed without reading ([`Tree::insert_deferred`]) has
    /// no bytes here: read it through [`Tree::file_bytes`] or [`Tree::read`].
    File(Vec<u8>),
    Dir,
    /// A symbolic link and its target text, unresolved.
    Symlink(String),
    /// Anything else: a FIFO, a socket, a device. The text says why.
    Other(String),
    /// An entry that exists but could not be read; the text says why.
    Unreadable(String),
}

/// Why a path did not resolve to an entry inside the root.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unresolved {
    /// Nothing exists at the path (after following links inside the root).
    Missing,
    /// Following `link` leads outside the plugin root (§4.1).
    Escapes { link: String },
    /// Following links did not terminate (a cycle, or too many hops).
    Loop { link: String },
    /// The reader could not look at `path` (a directory it could not list, an
    /// entry a limit left out), so whether the requested path exists is unknown.
    /// `why` completes "`path` …", e.g. "could not be listed (permission denied)".
    NotRead { path: String, why: String },
}

/// A path resolved inside the root: the final real path and its entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Resolved<'t> {
    pub path: &'t str,
    pub entry: &'t Entry,
    /// Whether any symlink was followed on the way.
    pub via_link: bool,
}

/// The most symlinks followed while resolving one path, as Linux's `MAXSYMLINKS`.
const MAX_LINK_HOPS: usize = 40;

/// Reads the bytes of the files a tree lists but does not hold (see
/// [`Tree::insert_deferred`]). The disk edge implements it, so the core stays
/// sans-IO and a check holds one file's bytes at a time, not the package's.
pub trait FileLoader: Send + Sync {
    /// At most the first `keep` bytes of the file at the root-relative
    /// `path`, or why it could not be read (as an I/O error says it).
    fn load(&self, path: &str, keep: usize) -> Result<Vec<u8>, String>;
}

/// A file listed without its bytes. Native only, as is every edge that
/// lists without reading (the page holds what was dropped), so the wasm stays small.
#[cfg(not(target_arch = "wasm32"))]
#[derive(Debug, Clone)]
struct Deferred {
    /// How many bytes the edge's limits let a read keep.
    keep: usize,
    /// Set once the file was opened: `None` when it could be read, else the
    /// [`Entry::Unreadable`] that reading it eagerly would have stored.
    opened: OnceLock<Option<Entry>>,
    /// The bytes, once a face asked to keep them ([`Tree::read`]: snippets, fixes, baselines).
    kept: OnceLock<Option<Vec<u8>>>,
}

/// The loader of a tree's deferred files.
#[cfg(not(target_arch = "wasm32"))]
#[derive(Clone)]
struct Loader(Arc<dyn FileLoader>);

#[cfg(not(target_arch = "wasm32"))]
impl std::fmt::Debug for Loader {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("FileLoader")
    }
}

/// Limits the edges apply while building a tree; hitting one is reported, never silent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    pub max_entries: usize,
    pub max_file_bytes: usize,
    pub max_total_bytes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_entries: 100_000,
            max_file_bytes: 16 * 1024 * 1024,
            max_total_bytes: 256 * 1024 * 1024,
        }
    }
}

/// The entries, keyed by path. Parent directories that were never inserted
/// themselves are implied by their descendants' keys rather than stored: a
/// path of k components then costs its own length, not k copies of its
/// prefixes (a zip entry with 32,000 components would otherwise need
/// gigabytes).
#[derive(Debug, Clone, Default)]
pub struct Tree {
    entries: BTreeMap<String, Entry>,
    /// Files whose bytes were cut at [`Limits::max_file_bytes`], with their real size.
    truncated: BTreeMap<String, u64>,
    /// Paths left out because a limit was reached, and which limit.
    omitted: BTreeMap<String, String>,
    /// Directories whose listing failed (`""` is the root), and why.
    unlisted: BTreeMap<String, String>,
    /// Paths in an unlisted directory that were looked up by name and are not there.
    absent: BTreeSet<String>,
    /// Links whose target leaves the root in its text (absolute, or `..`
    /// above the root) but which the filesystem resolves to a path inside the
    /// root: link → that path. Only the edge can know (the way back in may
    /// pass through directories and links outside the package).
    landings: BTreeMap<String, String>,
    /// Regular files listed without their bytes, which `loader` reads on demand.
    #[cfg(not(target_arch = "wasm32"))]
    deferred: BTreeMap<String, Deferred>,
    #[cfg(not(target_arch = "wasm32"))]
    loader: Option<Loader>,
}

impl Tree {
    pub fn new() -> Self {
        Tree::default()
    }

    /// Builds a tree of regular files from `(path, contents)` pairs (tests, pasted text).
    pub fn from_files<P: AsRef<str>, C: AsRef<[u8]>>(files: impl IntoIterator<Item = (P, C)>) -> Self {
        let mut tree = Tree::new();
        for (path, contents) in files {
            tree.insert(path.as_ref(), Entry::File(contents.as_ref().to_vec()));
        }
        tree
    }

    /// Inserts an entry; its parent directories are implied. A path that is
    /// not a clean relative path (empty, absolute, `.` or `..` components) is
    /// ignored, because no edge can produce one for a real package. Costs the
    /// path's length (times a logarithm), however deep it is.
    pub fn insert(&mut self, path: &str, entry: Entry) {
        let Some(path) = clean_relative(path) else { return };
        #[cfg(not(target_arch = "wasm32"))]
        self.deferred.remove(&path);
        self.entries.insert(path, entry);
    }

    /// Inserts a regular file whose bytes the tree's [`FileLoader`] reads
    /// when they are asked for, at most `keep` of them (the edge's limits).
    /// Inserting an entry at the same path later replaces it.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn insert_deferred(&mut self, path: &str, keep: usize) {
        let Some(path) = clean_relative(path) else { return };
        self.entries.insert(path.clone(), Entry::File(Vec::new()));
        self.deferred.insert(
            path,
            Deferred {
                keep,
                opened: OnceLock::new(),
                kept: OnceLock::new(),
            },
        );
    }

    /// Sets who reads the bytes of deferred files.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn set_loader(&mut self, loader: Arc<dyn FileLoader>) {
        self.loader = Some(Loader(loader));
    }

    /// Records that a file was cut from `real_size` bytes by a reader limit.
    pub fn mark_truncated(&mut self, path: &str, real_size: u64) {
        self.truncated.insert(path.to_string(), real_size);
    }

    /// Records that `path` was left out of the tree because of `limit`.
    pub fn mark_omitted(&mut self, path: &str, limit: &str) {
        self.omitted.insert(path.to_string(), limit.to_string());
    }

    /// Records that the directory `dir` (`""` for the root) exists but could
    /// not be listed, and why: its entries are known only where they were
    /// looked up by name.
    pub fn mark_unlisted(&mut self, dir: &str, why: &str) {
        self.unlisted.insert(dir.to_string(), why.to_string());
    }

    /// Records that `path`, in a directory that could not be listed, was
    /// looked up by name and does not exist.
    pub fn mark_absent(&mut self, path: &str) {
        self.absent.insert(path.to_string());
    }

    /// Records that the link at `link`, whose target text leaves the root
    /// (see [`target_leaves_root`]), resolves on the filesystem to `inside`, a
    /// path relative to the filesystem-resolved root (§4.1 item 3 judges that
    /// resolved path, not the text). Without this, such a link escapes.
    pub fn mark_link_lands_inside(&mut self, link: &str, inside: &str) {
        self.landings.insert(link.to_string(), inside.to_string());
    }

    pub fn truncated(&self) -> &BTreeMap<String, u64> {
        &self.truncated
    }

    /// Paths left out by a limit, and the limit, in path order.
    pub fn omitted(&self) -> &BTreeMap<String, String> {
        &self.omitted
    }

    /// Directories that could not be listed, and why, in path order.
    pub fn unlisted(&self) -> &BTreeMap<String, String> {
        &self.unlisted
    }

    /// The entries left out by a limit directly inside `dir` (`""` for the root).
    pub fn omitted_in<'t>(&'t self, dir: &str) -> impl Iterator<Item = (&'t str, &'t str)> + 't {
        let prefix = dir_prefix(dir);
        let skip = prefix.len();
        self.omitted
            .range(prefix.clone()..)
            .take_while(move |(p, _)| p.starts_with(&prefix))
            .filter(move |(p, _)| !p[skip..].contains('/'))
            .map(|(p, limit)| (p.as_str(), limit.as_str()))
    }

    /// How many entries were inserted (implied parent directories are not counted).
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The entry at exactly `path`, without following links (like `lstat`);
    /// a directory implied by deeper entries is a [`Entry::Dir`].
    pub fn entry(&self, path: &str) -> Option<&Entry> {
        self.entries
            .get(path)
            .or_else(|| (!path.is_empty() && self.has_descendants(path)).then_some(&DIR))
    }

    fn has_descendants(&self, dir: &str) -> bool {
        let prefix = dir_prefix(dir);
        self.entries
            .range::<str, _>((Bound::Included(prefix.as_str()), Bound::Unbounded))
            .next()
            .is_some_and(|(p, _)| p.starts_with(&prefix))
    }

    /// Every inserted entry, in path order (implied parent directories are not listed).
    pub fn entries(&self) -> impl Iterator<Item = (&str, &Entry)> {
        self.entries.iter().map(|(p, e)| (p.as_str(), e))
    }

    /// The immediate children of the directory at `dir` (`""` for the root),
    /// as `(name, full path, entry)`, in name order. Does not follow links.
    pub fn children<'t>(&'t self, dir: &str) -> impl Iterator<Item = (&'t str, &'t str, &'t Entry)> + 't {
        let prefix = dir_prefix(dir);
        let skip = prefix.len();
        let mut children = Vec::new();
        let mut from = Bound::Included(prefix.clone());
        while let Some((path, entry)) = self.entries.range((from, Bound::Unbounded)).next() {
            if !path.starts_with(&prefix) {
                break;
            }
            let rest = &path[skip..];
            match rest.find('/') {
                None => {
                    children.push((rest, path.as_str(), entry));
                    from = Bound::Excluded(path.clone());
                }
                Some(slash) => {
                    // A deeper entry implies its directory; jump past everything below
                    // it (every key under `child/` sorts before `child0`, '0' being '/' + 1).
                    let child = &path[..skip + slash];
                    if !self.entries.contains_key(child) {
                        children.push((&rest[..slash], child, &DIR));
                    }
                    from = Bound::Included(format!("{child}0"));
                }
            }
        }
        // Keys order `a-b` before `a/x`, so an implied `a` can come after `a-b`.
        children.sort_unstable_by_key(|(name, _, _)| *name);
        children.into_iter()
    }

    /// Every inserted entry below `dir` at any depth (not following links).
    pub fn descendants<'t>(&'t self, dir: &str) -> impl Iterator<Item = (&'t str, &'t Entry)> + 't {
        let prefix = dir_prefix(dir);
        self.entries
            .range(prefix.clone()..)
            .take_while(move |(p, _)| p.starts_with(&prefix))
            .map(|(p, e)| (p.as_str(), e))
    }

    /// Why nothing is known about `path`, if the reader did not look: it was
    /// left out by a limit, or it sits in a directory that could not be listed
    /// and was not found by name either.
    fn not_read(&self, path: &str) -> Option<Unresolved> {
        if let Some(limit) = self.omitted.get(path) {
            return Some(Unresolved::NotRead {
                path: path.to_string(),
                why: format!("was left out at the reader's `{limit}` limit"),
            });
        }
        let parent = path.rfind('/').map_or("", |slash| &path[..slash]);
        let why = self.unlisted.get(parent)?;
        (!self.absent.contains(path)).then(|| Unresolved::NotRead {
            path: parent.to_string(),
            why: format!("could not be listed ({why})"),
        })
    }

    /// Resolves `path` the way the filesystem would (`realpath`), following
    /// every symlink (in intermediate components and at the end) inside the
    /// tree. A link whose target text leaves the root (absolute, or `..` above
    /// it) continues where the edge found it lands inside the root
    /// ([`Tree::mark_link_lands_inside`]: a root given through a symlink, a
    /// path that leaves and re-enters, a chain through a link outside); with
    /// no such landing it makes the path [`Unresolved::Escapes`]. A path the
    /// reader could not look at is [`Unresolved::NotRead`], never
    /// [`Unresolved::Missing`].
    pub fn resolve(&self, path: &str) -> Result<Resolved<'_>, Unresolved> {
        let mut pending: Vec<String> = split_components(path).rev().map(str::to_string).collect();
        // The real path so far, and where each of its components starts, so
        // that `..` and links cost the component, not the whole path.
        let mut current = String::new();
        let mut starts: Vec<usize> = Vec::new();
        let mut hops = 0;
        let mut via_link = false;
        while let Some(component) = pending.pop() {
            match component.as_str() {
                "" | "." => continue,
                ".." => {
                    let Some(start) = starts.pop() else {
                        return Err(Unresolved::Escapes { link: path.to_string() });
                    };
                    current.truncate(start.saturating_sub(1));
                    continue;
                }
                _ => {}
            }
            starts.push(if current.is_empty() { 0 } else { current.len() + 1 });
            if !current.is_empty() {
                current.push('/');
            }
            current.push_str(&component);
            match self.entry(&current) {
                None => return Err(self.not_read(&current).unwrap_or(Unresolved::Missing)),
                Some(Entry::Symlink(target)) => {
                    hops += 1;
                    if hops > MAX_LINK_HOPS {
                        return Err(Unresolved::Loop { link: current });
                    }
                    via_link = true;
                    let parent_depth = starts.len() - 1;
                    let next = if target_leaves_root(parent_depth, target) {
                        // Outside the tree only the edge knows where a path lands.
                        let Some(inside) = self.landings.get(&current) else {
                            return Err(Unresolved::Escapes { link: current });
                        };
                        current.clear();
                        starts.clear();
                        inside
                    } else {
                        let start = starts.pop().unwrap_or(0);
                        current.truncate(start.saturating_sub(1));
                        target
                    };
                    for part in split_components(next).rev() {
                        pending.push(part.to_string());
                    }
                }
                Some(entry) if !pending.iter().all(|c| c.is_empty() || c == ".") => match self.settled(&current, entry)
                {
                    // A component that cannot be looked into: what lies below it is unknown.
                    Entry::Unreadable(why) => {
                        return Err(Unresolved::NotRead {
                            path: current,
                            why: format!("could not be read ({why})"),
                        });
                    }
                    // A non-directory in the middle of a path: ENOTDIR, which is "not there".
                    Entry::File(_) | Entry::Other(_) => return Err(Unresolved::Missing),
                    Entry::Dir | Entry::Symlink(_) => {}
                },
                Some(_) => {}
            }
        }
        let (path, entry) = match self.entries.get_key_value(&current) {
            Some((p, e)) => (p.as_str(), e),
            None if current.is_empty() => ("", &DIR),
            None => match self.implied_dir_key(&current) {
                Some(key) => (key, &DIR),
                None => return Err(Unresolved::Missing),
            },
        };
        Ok(Resolved { path, entry, via_link })
    }

    /// `dir` borrowed from a descendant's key, for a directory that is only implied.
    fn implied_dir_key(&self, dir: &str) -> Option<&str> {
        let prefix = dir_prefix(dir);
        let (key, _) = self.entries.range(prefix.clone()..).next()?;
        key.starts_with(&prefix).then(|| &key[..dir.len()])
    }

    /// The bytes of the regular file `path` resolves to, if it does (and, for
    /// a deferred file, if it can be read); a deferred file's bytes are kept
    /// from then on, for the faces that quote them.
    pub fn read(&self, path: &str) -> Option<&[u8]> {
        let resolved = self.resolve(path).ok()?;
        let Entry::File(bytes) = resolved.entry else {
            return None;
        };
        #[cfg(not(target_arch = "wasm32"))]
        if let Some(deferred) = self.deferred.get(resolved.path) {
            return deferred
                .kept
                .get_or_init(|| self.load(resolved.path, deferred).ok())
                .as_deref();
        }
        Some(bytes)
    }

    /// The bytes of a resolved regular file, for a check that reads each file
    /// once: a deferred file is loaded for this call alone (its bytes are
    /// dropped with the answer), unless a face already keeps them. `Err` is why
    /// it could not be read, as for an [`Entry::Unreadable`].
    pub fn file_bytes<'t>(&'t self, resolved: &Resolved<'t>) -> Result<Cow<'t, [u8]>, String> {
        let bytes: &[u8] = match resolved.entry {
            Entry::File(bytes) => bytes,
            Entry::Unreadable(why) => return Err(why.clone()),
            _ => return Err("not a regular file".to_string()),
        };
        #[cfg(not(target_arch = "wasm32"))]
        if let Some(deferred) = self.deferred.get(resolved.path) {
            return match deferred.kept.get() {
                Some(Some(kept)) => Ok(Cow::Borrowed(kept)),
                _ => self.load(resolved.path, deferred).map(Cow::Owned),
            };
        }
        Ok(Cow::Borrowed(bytes))
    }

    /// `entry`, found at the real `path`, as reading it eagerly would have
    /// stored it: a deferred file that cannot be opened is [`Entry::Unreadable`].
    /// For the checks that tell a readable file from an unreadable one without
    /// reading it; opens the file once, at most.
    pub fn settled<'t>(&'t self, path: &str, entry: &'t Entry) -> &'t Entry {
        #[cfg(not(target_arch = "wasm32"))]
        if let Some(deferred) = self.deferred.get(path) {
            return deferred
                .opened
                .get_or_init(|| self.open(path, 0).err().map(Entry::Unreadable))
                .as_ref()
                .unwrap_or(entry);
        }
        #[cfg(target_arch = "wasm32")]
        let _ = path;
        entry
    }

    /// Reads a deferred file through the loader and records whether it opened.
    #[cfg(not(target_arch = "wasm32"))]
    fn load(&self, path: &str, deferred: &Deferred) -> Result<Vec<u8>, String> {
        let loaded = self.open(path, deferred.keep);
        // Already set when the file was opened before: the first answer stands.
        let _ = deferred
            .opened
            .set(loaded.as_ref().err().map(|why| Entry::Unreadable(why.clone())));
        loaded
    }

    #[cfg(not(target_arch = "wasm32"))]
    fn open(&self, path: &str, keep: usize) -> Result<Vec<u8>, String> {
        match &self.loader {
            Some(Loader(loader)) => loader.load(path, keep),
            None => Err("no reader was given for this file's bytes".to_string()),
        }
    }
}

static DIR: Entry = Entry::Dir;

/// `dir/`, or `""` for the root: the key prefix of everything inside `dir`.
fn dir_prefix(dir: &str) -> String {
    if dir.is_empty() {
        String::new()
    } else {
        format!("{dir}/")
    }
}

fn split_components(path: &str) -> impl DoubleEndedIterator<Item = &str> {
    path.split(['/', '\\'])
}

/// Whether a link in a directory `parent_depth` components below the root
/// points outside it by its text alone: an absolute target, or one whose
/// `..` climbs above the root. The edge asks the same question to know which
/// links need a landing.
pub fn target_leaves_root(parent_depth: usize, target: &str) -> bool {
    if target.starts_with('/') || target.starts_with('\\') || has_drive_prefix(target) {
        return true;
    }
    let mut depth = parent_depth as isize;
    for part in split_components(target) {
        match part {
            "" | "." => {}
            ".." => depth -= 1,
            _ => depth += 1,
        }
        if depth < 0 {
            return true;
        }
    }
    false
}

fn has_drive_prefix(target: &str) -> bool {
    let bytes = target.as_bytes();
    bytes.len() >= 2 && bytes[0].is_ascii_alphabetic() && bytes[1] == b':'
}

/// `a/./b/` → `a/b`; rejects empty, absolute and `..` paths.
fn clean_relative(path: &str) -> Option<String> {
    if path.starts_with('/') {
        return None;
    }
    let mut parts = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => return None,
            _ => parts.push(part),
        }
    }
    (!parts.is_empty()).then(|| parts.join("/"))
}

/// `file` of a package as seen from where the command started: prefixed with
/// the root as the edge named it (the one such function: renderers, `drift`
/// and the CLI all name package files this way), so `plugins/a` + `plugin.json` → `plugins/a/plugin.json`.
pub fn path_from_root(root: &str, file: &str) -> String {
    let root = root.trim_end_matches(['/', '\\']);
    if root.is_empty() || root == "." {
        file.to_string()
    } else {
        format!("{root}/{file}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree_with_links(links: &[(&str, &str)]) -> Tree {
        let mut tree = Tree::from_files([("plugin.json", "{}"), ("skills/a/SKILL.md", "x")]);
        for (path, target) in links {
            tree.insert(path, Entry::Symlink(target.to_string()));
        }
        tree
    }

    #[test]
    fn insert_implies_parent_directories() {
        let tree = Tree::from_files([("skills/a/SKILL.md", "x")]);
        assert_eq!(tree.entry("skills"), Some(&Entry::Dir));
        assert_eq!(tree.entry("skills/a"), Some(&Entry::Dir));
        let names: Vec<_> = tree.children("skills").map(|(n, _, _)| n).collect();
        assert_eq!(names, ["a"]);
    }

    #[test]
    fn a_deep_path_stores_one_entry_not_one_per_prefix() {
        // Three zip entries of 32,000 components once took 77 s and 3.3 GB,
        // because every prefix was stored as its own key.
        let deep = vec!["d"; 32_000].join("/");
        let mut tree = Tree::new();
        for leaf in ["a", "b", "c"] {
            tree.insert(&format!("{deep}/{leaf}"), Entry::File(Vec::new()));
        }
        assert_eq!(tree.len(), 3);
        assert_eq!(tree.entry("d/d/d"), Some(&Entry::Dir));
        let middle = vec!["d"; 16_000].join("/");
        let names: Vec<_> = tree
            .children(&middle)
            .map(|(n, p, e)| (n, p.len(), e.clone()))
            .collect();
        assert_eq!(names, [("d", middle.len() + 2, Entry::Dir)]);
        assert_eq!(tree.resolve(&format!("{deep}/b")).unwrap().path.len(), deep.len() + 2);
        assert_eq!(tree.resolve(&middle).unwrap().entry, &Entry::Dir);
    }

    #[test]
    fn implied_and_inserted_directories_list_once_in_name_order() {
        let mut tree = Tree::from_files([("s/a-b/SKILL.md", ""), ("s/a/SKILL.md", ""), ("s/a/x/y", "")]);
        tree.insert("s/b", Entry::Dir);
        tree.insert("s/b/SKILL.md", Entry::File(Vec::new()));
        let names: Vec<_> = tree.children("s").map(|(n, p, _)| (n, p)).collect();
        assert_eq!(names, [("a", "s/a"), ("a-b", "s/a-b"), ("b", "s/b")]);
        let in_a: Vec<_> = tree.children("s/a").map(|(n, _, e)| (n, e.clone())).collect();
        assert_eq!(in_a, [("SKILL.md", Entry::File(Vec::new())), ("x", Entry::Dir)]);
    }

    #[test]
    fn paths_the_reader_did_not_see_are_not_read_rather_than_missing() {
        let mut tree = Tree::from_files([("plugin.json", "{}"), ("locked/known", "")]);
        tree.mark_unlisted("locked", "permission denied");
        tree.mark_absent("locked/gone");
        tree.mark_omitted("zzz", "max_entries");
        assert!(matches!(
            tree.resolve("locked/other"),
            Err(Unresolved::NotRead { path, .. }) if path == "locked"
        ));
        assert_eq!(tree.resolve("locked/gone"), Err(Unresolved::Missing));
        assert!(tree.resolve("locked/known").is_ok());
        assert!(matches!(
            tree.resolve("zzz/a"),
            Err(Unresolved::NotRead { path, .. }) if path == "zzz"
        ));
        assert_eq!(tree.resolve("elsewhere"), Err(Unresolved::Missing));
    }

    #[test]
    fn children_are_immediate_only() {
        let tree = Tree::from_files([
            ("skills/a/SKILL.md", ""),
            ("skills/a/deep/SKILL.md", ""),
            ("skills-x", ""),
        ]);
        let names: Vec<_> = tree.children("skills").map(|(n, _, _)| n).collect();
        assert_eq!(names, ["a"]);
        let root: Vec<_> = tree.children("").map(|(n, _, _)| n).collect();
        assert_eq!(root, ["skills", "skills-x"]);
    }

    #[test]
    fn link_inside_root_resolves() {
        let tree = tree_with_links(&[("skills/b", "a"), ("manifest", "./plugin.json")]);
        let resolved = tree.resolve("skills/b/SKILL.md").unwrap();
        assert_eq!(resolved.path, "skills/a/SKILL.md");
        assert!(resolved.via_link);
        assert_eq!(tree.resolve("manifest").unwrap().path, "plugin.json");
    }

    #[test]
    fn link_to_parent_of_root_escapes() {
        // §4.1: `cwd: ./escape-link` with `escape-link -> ..`
        let tree = tree_with_links(&[("escape-link", "..")]);
        assert_eq!(
            tree.resolve("escape-link"),
            Err(Unresolved::Escapes {
                link: "escape-link".into()
            })
        );
    }

    #[test]
    fn a_link_leaving_the_root_continues_where_the_edge_found_it_lands() {
        // §4.1 item 3: the filesystem-resolved path is judged, not the target text.
        let mut tree = tree_with_links(&[("skills-link", "../plugin/skills"), ("abs", "/real/plugin/plugin.json")]);
        tree.mark_link_lands_inside("skills-link", "skills");
        tree.mark_link_lands_inside("abs", "plugin.json");
        let resolved = tree.resolve("skills-link/a/SKILL.md").unwrap();
        assert_eq!(resolved.path, "skills/a/SKILL.md");
        assert!(resolved.via_link);
        assert_eq!(tree.resolve("abs").unwrap().path, "plugin.json");
        // A landing that climbs out again is still an escape.
        tree.insert("out", Entry::Symlink("/elsewhere".into()));
        tree.mark_link_lands_inside("out", "../elsewhere");
        assert!(matches!(tree.resolve("out"), Err(Unresolved::Escapes { .. })));
    }

    #[test]
    fn escaping_link_is_an_escape_even_if_it_would_come_back() {
        // Without a landing from the edge (a zip, a test), the way back in is unknown.
        let tree = tree_with_links(&[("skills", "../outside/../root/skills")]);
        assert!(matches!(
            tree.resolve("skills/a/SKILL.md"),
            Err(Unresolved::Escapes { .. })
        ));
    }

    #[test]
    fn absolute_link_escapes() {
        let tree = tree_with_links(&[("plugin.json", "/etc/passwd")]);
        assert!(matches!(tree.resolve("plugin.json"), Err(Unresolved::Escapes { .. })));
    }

    #[test]
    fn link_cycle_is_a_loop_not_a_hang() {
        let tree = tree_with_links(&[("a", "b"), ("b", "a")]);
        assert!(matches!(tree.resolve("a"), Err(Unresolved::Loop { .. })));
        let self_loop = tree_with_links(&[("skills/a/SKILL.md", "SKILL.md")]);
        assert!(matches!(
            self_loop.resolve("skills/a/SKILL.md"),
            Err(Unresolved::Loop { .. })
        ));
    }

    #[test]
    fn dot_dot_in_request_above_root_escapes() {
        let tree = tree_with_links(&[]);
        assert!(matches!(tree.resolve("../x"), Err(Unresolved::Escapes { .. })));
        assert_eq!(tree.resolve("skills/../plugin.json").unwrap().path, "plugin.json");
    }

    #[test]
    fn file_in_the_middle_of_a_path_is_missing() {
        let tree = tree_with_links(&[]);
        assert_eq!(tree.resolve("plugin.json/x"), Err(Unresolved::Missing));
        assert_eq!(tree.resolve("nope"), Err(Unresolved::Missing));
    }

    #[test]
    fn root_resolves_to_a_directory() {
        let tree = tree_with_links(&[("self", ".")]);
        assert_eq!(tree.resolve("self").unwrap().entry, &Entry::Dir);
        assert_eq!(tree.resolve("").unwrap().entry, &Entry::Dir);
    }

    /// Files in memory, counting every load, standing in for the disk edge.
    #[derive(Default)]
    struct CountingLoader {
        files: BTreeMap<String, Vec<u8>>,
        loads: std::sync::Mutex<Vec<(String, usize)>>,
    }

    impl FileLoader for CountingLoader {
        fn load(&self, path: &str, keep: usize) -> Result<Vec<u8>, String> {
            self.loads.lock().unwrap().push((path.to_string(), keep));
            match self.files.get(path) {
                Some(bytes) => Ok(bytes[..keep.min(bytes.len())].to_vec()),
                None => Err("permission denied".to_string()),
            }
        }
    }

    fn deferred_tree(files: &[(&str, &str)], unreadable: &[&str]) -> (Tree, Arc<CountingLoader>) {
        let loader = Arc::new(CountingLoader {
            files: files
                .iter()
                .map(|(p, t)| (p.to_string(), t.as_bytes().to_vec()))
                .collect(),
            ..CountingLoader::default()
        });
        let mut tree = Tree::new();
        for (path, text) in files {
            tree.insert_deferred(path, text.len());
        }
        for path in unreadable {
            tree.insert_deferred(path, 10);
        }
        tree.set_loader(loader.clone());
        (tree, loader)
    }

    fn loads(loader: &CountingLoader) -> Vec<(String, usize)> {
        loader.loads.lock().unwrap().clone()
    }

    #[test]
    fn a_check_loads_a_deferred_file_for_each_read_and_keeps_nothing() {
        let (tree, loader) = deferred_tree(&[("skills/a/SKILL.md", "---\nname: a\n")], &[]);
        let resolved = tree.resolve("skills/a/SKILL.md").unwrap();
        assert_eq!(&*tree.file_bytes(&resolved).unwrap(), b"---\nname: a\n");
        assert!(matches!(tree.file_bytes(&resolved), Ok(Cow::Owned(_))));
        assert_eq!(loads(&loader).len(), 2, "nothing was kept between the reads");
        // Opened by those reads: telling it readable opens nothing more.
        assert!(matches!(tree.settled(resolved.path, resolved.entry), Entry::File(_)));
        assert_eq!(loads(&loader).len(), 2);
    }

    #[test]
    fn a_face_that_quotes_a_deferred_file_keeps_its_bytes() {
        let (tree, loader) = deferred_tree(&[("plugin.json", "{}")], &[]);
        assert_eq!(tree.read("plugin.json"), Some(b"{}".as_slice()));
        assert_eq!(tree.read("plugin.json"), Some(b"{}".as_slice()));
        let resolved = tree.resolve("plugin.json").unwrap();
        assert!(matches!(tree.file_bytes(&resolved), Ok(Cow::Borrowed(b"{}"))));
        assert_eq!(loads(&loader), [("plugin.json".to_string(), 2)]);
    }

    #[test]
    fn an_unopenable_deferred_file_settles_as_unreadable_as_an_eager_read_would_store_it() {
        let (tree, loader) = deferred_tree(&[("ok.md", "x")], &["secret.md"]);
        let entry = tree.entry("secret.md").unwrap();
        assert_eq!(
            tree.settled("secret.md", entry),
            &Entry::Unreadable("permission denied".into())
        );
        assert_eq!(
            tree.settled("secret.md", entry),
            &Entry::Unreadable("permission denied".into())
        );
        // A probe reads nothing, and happens once.
        assert_eq!(loads(&loader), [("secret.md".to_string(), 0)]);
        let resolved = tree.resolve("secret.md").unwrap();
        assert_eq!(tree.file_bytes(&resolved).unwrap_err(), "permission denied");
        assert_eq!(tree.read("secret.md"), None);
        // A path through it cannot be looked at, as through an unreadable entry.
        assert!(matches!(tree.resolve("secret.md/x"), Err(Unresolved::NotRead { .. })));
        assert!(matches!(tree.resolve("ok.md/x"), Err(Unresolved::Missing)));
        assert_eq!(
            tree.settled("ok.md", tree.entry("ok.md").unwrap()),
            &Entry::File(Vec::new())
        );
    }

    #[test]
    fn inserting_over_a_deferred_file_replaces_it() {
        let (mut tree, loader) = deferred_tree(&[("plugin.json", "{}")], &[]);
        tree.insert("plugin.json", Entry::File(b"{\"name\": 1}".to_vec()));
        assert_eq!(tree.read("plugin.json"), Some(b"{\"name\": 1}".as_slice()));
        assert!(loads(&loader).is_empty());
    }

    #[test]
    fn a_deferred_file_without_a_loader_is_unreadable_not_empty() {
        let mut tree = Tree::new();
        tree.insert_deferred("plugin.json", 2);
        let resolved = tree.resolve("plugin.json").unwrap();
        assert!(tree.file_bytes(&resolved).is_err());
        assert_eq!(tree.read("plugin.json"), None);
    }
}
