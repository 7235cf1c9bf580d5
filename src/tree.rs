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

use std::collections::BTreeMap;

/// One entry of the tree, as `lstat` would describe it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Entry {
    /// A regular file and its bytes (possibly truncated, see [`Tree::truncated`]).
    File(Vec<u8>),
    Dir,
    /// A symbolic link and its target text, unresolved.
    Symlink(String),
    /// Anything else: a FIFO, a socket, a device. The text says which.
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

#[derive(Debug, Clone, Default)]
pub struct Tree {
    entries: BTreeMap<String, Entry>,
    /// Files whose bytes were cut at [`Limits::max_file_bytes`], with their real size.
    truncated: BTreeMap<String, u64>,
    /// Paths left out because a limit was reached, and which limit.
    omitted: Vec<(String, String)>,
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

    /// Inserts an entry, creating its parent directories. A path that is not a
    /// clean relative path (empty, absolute, `.` or `..` components) is ignored,
    /// because no edge can produce one for a real package.
    pub fn insert(&mut self, path: &str, entry: Entry) {
        let Some(path) = clean_relative(path) else { return };
        let mut end = 0;
        while let Some(slash) = path[end..].find('/') {
            end += slash;
            self.entries.entry(path[..end].to_string()).or_insert(Entry::Dir);
            end += 1;
        }
        self.entries.insert(path, entry);
    }

    /// Records that a file was cut to `kept` bytes from `real_size`.
    pub fn mark_truncated(&mut self, path: &str, real_size: u64) {
        self.truncated.insert(path.to_string(), real_size);
    }

    /// Records that `path` was left out of the tree because of `limit`.
    pub fn mark_omitted(&mut self, path: &str, limit: &str) {
        self.omitted.push((path.to_string(), limit.to_string()));
    }

    pub fn truncated(&self) -> &BTreeMap<String, u64> {
        &self.truncated
    }

    pub fn omitted(&self) -> &[(String, String)] {
        &self.omitted
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The entry at exactly `path`, without following links (like `lstat`).
    pub fn entry(&self, path: &str) -> Option<&Entry> {
        self.entries.get(path)
    }

    /// Every entry, in path order.
    pub fn entries(&self) -> impl Iterator<Item = (&str, &Entry)> {
        self.entries.iter().map(|(p, e)| (p.as_str(), e))
    }

    /// The immediate children of the directory at `dir` (`""` for the root),
    /// as `(name, full path, entry)`, in name order. Does not follow links.
    pub fn children<'t>(&'t self, dir: &str) -> impl Iterator<Item = (&'t str, &'t str, &'t Entry)> + 't {
        let prefix = if dir.is_empty() {
            String::new()
        } else {
            format!("{dir}/")
        };
        let start = prefix.clone();
        let skip = prefix.len();
        self.entries
            .range(start..)
            .take_while(move |(p, _)| p.starts_with(&prefix))
            .filter_map(move |(p, e)| {
                let name = &p[skip..];
                (!name.is_empty() && !name.contains('/')).then_some((name, p.as_str(), e))
            })
    }

    /// Every entry below `dir` at any depth (not following links).
    pub fn descendants<'t>(&'t self, dir: &str) -> impl Iterator<Item = (&'t str, &'t Entry)> + 't {
        let prefix = if dir.is_empty() {
            String::new()
        } else {
            format!("{dir}/")
        };
        self.entries
            .range(prefix.clone()..)
            .take_while(move |(p, _)| p.starts_with(&prefix))
            .map(|(p, e)| (p.as_str(), e))
    }

    /// Resolves `path` the way the filesystem would, following every symlink
    /// (in intermediate components and at the end) inside the tree. A link
    /// whose target leaves the root, directly or through `..`, makes the path
    /// [`Unresolved::Escapes`], even if a later `..` would come back in:
    /// §4.1 judges the filesystem-resolved path, and the kernel resolves each
    /// link against the real directory it points to.
    pub fn resolve(&self, path: &str) -> Result<Resolved<'_>, Unresolved> {
        let mut pending: Vec<String> = split_components(path).rev().map(str::to_string).collect();
        let mut current: Vec<String> = Vec::new();
        let mut hops = 0;
        let mut via_link = false;
        while let Some(component) = pending.pop() {
            match component.as_str() {
                "" | "." => continue,
                ".." => {
                    if current.pop().is_none() {
                        return Err(Unresolved::Escapes { link: path.to_string() });
                    }
                    continue;
                }
                _ => {}
            }
            current.push(component);
            let joined = current.join("/");
            match self.entries.get(&joined) {
                None => return Err(Unresolved::Missing),
                Some(Entry::Symlink(target)) => {
                    hops += 1;
                    if hops > MAX_LINK_HOPS {
                        return Err(Unresolved::Loop { link: joined });
                    }
                    if target.starts_with('/') || target.starts_with('\\') || has_drive_prefix(target) {
                        return Err(Unresolved::Escapes { link: joined });
                    }
                    via_link = true;
                    current.pop();
                    // Walk the target's components against the link's parent; a `..`
                    // that climbs above the root is an escape attributed to this link.
                    let mut depth = current.len() as isize;
                    for part in split_components(target) {
                        match part {
                            "" | "." => {}
                            ".." => depth -= 1,
                            _ => depth += 1,
                        }
                        if depth < 0 {
                            return Err(Unresolved::Escapes { link: joined });
                        }
                    }
                    for part in split_components(target).rev() {
                        pending.push(part.to_string());
                    }
                }
                Some(Entry::File(_) | Entry::Other(_) | Entry::Unreadable(_))
                    if !pending.iter().all(|c| c.is_empty() || c == ".") =>
                {
                    // A non-directory in the middle of a path: ENOTDIR, which is "not there".
                    return Err(Unresolved::Missing);
                }
                Some(_) => {}
            }
        }
        let joined = current.join("/");
        let (path, entry) = match self.entries.get_key_value(&joined) {
            Some((p, e)) => (p.as_str(), e),
            None if joined.is_empty() => ("", &ROOT_DIR),
            None => return Err(Unresolved::Missing),
        };
        Ok(Resolved { path, entry, via_link })
    }

    /// The bytes of the regular file `path` resolves to, if it does.
    pub fn read(&self, path: &str) -> Option<&[u8]> {
        match self.resolve(path) {
            Ok(Resolved {
                entry: Entry::File(bytes),
                ..
            }) => Some(bytes),
            _ => None,
        }
    }
}

static ROOT_DIR: Entry = Entry::Dir;

fn split_components(path: &str) -> impl DoubleEndedIterator<Item = &str> {
    path.split(['/', '\\'])
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
    fn insert_creates_parent_directories() {
        let tree = Tree::from_files([("skills/a/SKILL.md", "x")]);
        assert_eq!(tree.entry("skills"), Some(&Entry::Dir));
        assert_eq!(tree.entry("skills/a"), Some(&Entry::Dir));
        let names: Vec<_> = tree.children("skills").map(|(n, _, _)| n).collect();
        assert_eq!(names, ["a"]);
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
    fn escaping_link_is_an_escape_even_if_it_would_come_back() {
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
}
