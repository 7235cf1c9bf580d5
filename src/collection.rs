//! Which plugin roots a folder names, for every face (the CLI's `check PATH`
//! on disk, the page's dropped folder or zip as a [`Tree`]):
//! - a folder with a root `plugin.json` (of any kind: a broken link or a
//!   directory there is still that root's manifest to judge) is one root;
//! - a folder without one that holds plugin roots below it is a collection
//!   (a marketplace repository): every directory at any depth with its own
//!   `plugin.json` is a root, skipping hidden directories (`.git`, vendor
//!   folders like `.claude-plugin/`, whose `plugin.json` no Agent Plugins
//!   client reads) and `node_modules`, and not looking inside a root;
//!   symlinked directories are not followed;
//! - a folder with no `plugin.json` anywhere is one root, which is then
//!   rejected for its missing manifest (§4.1, §5.1).
//!
//! A folder below a collection that could not be listed is named with its
//! roots, as one: roots may be inside it, and its own check says it could not
//! be listed, so the check of the collection is incomplete, and fails.
//!
//! The search is sans-IO: the edge answers [`Listing`]'s two questions.

use crate::report::PackageReport;
use crate::tree::{Entry, Tree};

/// Directories never searched for plugin roots, besides hidden ones.
const SKIPPED_DIRS: &[&str] = &["node_modules"];

/// How deep a collection is searched: deeper than any real marketplace, and a
/// bound on a pathological tree.
const MAX_SEARCH_DEPTH: usize = 12;

/// What the search asks of a folder; `dir` is `/`-separated and relative to
/// the folder searched (`""` is the folder itself).
pub trait Listing {
    /// Whether `dir` holds an entry named `plugin.json`, of any kind.
    fn has_manifest(&self, dir: &str) -> bool;
    /// The names of `dir`'s child directories, not following symlinks; `None`
    /// when `dir` could not be listed.
    fn child_dirs(&self, dir: &str) -> Option<Vec<String>>;
}

/// The plugin roots a folder names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Roots {
    /// The folder itself is the one root.
    Single,
    /// A collection: its roots' paths relative to the folder, in name order.
    Collection(Vec<String>),
}

/// The roots the folder behind `listing` names (see the module doc).
pub fn roots_named(listing: &impl Listing) -> Roots {
    if listing.has_manifest("") {
        return Roots::Single;
    }
    let mut found = Vec::new();
    find_roots(listing, "", 0, &mut found);
    if found.is_empty() {
        Roots::Single
    } else {
        Roots::Collection(found)
    }
}

fn find_roots(listing: &impl Listing, dir: &str, depth: usize, found: &mut Vec<String>) {
    if depth >= MAX_SEARCH_DEPTH {
        return;
    }
    let Some(children) = listing.child_dirs(dir) else {
        // The folder searched itself is one root then, whose check says so.
        if !dir.is_empty() {
            found.push(dir.to_string());
        }
        return;
    };
    let mut children: Vec<String> = children
        .into_iter()
        .filter(|name| !name.starts_with('.') && !SKIPPED_DIRS.contains(&name.as_str()))
        .collect();
    children.sort();
    for name in children {
        let child = join(dir, &name);
        if listing.has_manifest(&child) {
            found.push(child);
        } else {
            find_roots(listing, &child, depth + 1, found);
        }
    }
}

/// `relative` below `base`, both `/`-separated folder paths where `""` is the
/// folder searched: how a [`Listing`] names a child it is asked about.
pub fn join(base: &str, relative: &str) -> String {
    match (base, relative) {
        ("", relative) => relative.to_string(),
        (base, "") => base.to_string(),
        (base, relative) => format!("{base}/{relative}"),
    }
}

impl Listing for Tree {
    fn has_manifest(&self, dir: &str) -> bool {
        let path = if dir.is_empty() {
            "plugin.json".to_string()
        } else {
            format!("{dir}/plugin.json")
        };
        self.entry(&path).is_some()
    }

    fn child_dirs(&self, dir: &str) -> Option<Vec<String>> {
        if self.unlisted().contains_key(dir) {
            return None;
        }
        Some(
            self.children(dir)
                .filter(|(_, _, entry)| matches!(entry, Entry::Dir))
                .map(|(name, _, _)| name.to_string())
                .collect(),
        )
    }
}

/// Every report for a folder named `root_name`: one for a single root, one per
/// root of a collection, named `root_name/relative` as the CLI names them.
pub fn check_folder(root_name: &str, tree: &Tree) -> (Vec<PackageReport>, Roots) {
    let roots = roots_named(tree);
    let reports = match &roots {
        Roots::Single => vec![crate::check_package(root_name, tree)],
        Roots::Collection(dirs) => dirs
            .iter()
            .map(|dir| crate::check_package(&format!("{root_name}/{dir}"), &subtree(tree, dir)))
            .collect(),
    };
    (reports, roots)
}

/// The part of `tree` under `dir`, as a tree of its own (what reading that
/// directory alone would have given), with the marks a page's tree carries:
/// truncated files, omitted paths, unlisted directories. (The CLI reads each
/// root from disk on its own, so the disk-only marks never need carrying.)
pub fn subtree(tree: &Tree, dir: &str) -> Tree {
    let prefix = format!("{dir}/");
    let mut sub = Tree::new();
    for (path, entry) in tree.descendants(dir) {
        sub.insert(&path[prefix.len()..], entry.clone());
    }
    for (path, real_size) in tree.truncated() {
        if let Some(inner) = path.strip_prefix(&prefix) {
            sub.mark_truncated(inner, *real_size);
        }
    }
    for (path, limit) in tree.omitted() {
        if let Some(inner) = path.strip_prefix(&prefix) {
            sub.mark_omitted(inner, limit);
        }
    }
    for (listed, why) in tree.unlisted() {
        if listed == dir {
            sub.mark_unlisted("", why);
        } else if let Some(inner) = listed.strip_prefix(&prefix) {
            sub.mark_unlisted(inner, why);
        }
    }
    sub
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn join_names_a_child_below_the_folder_or_the_folder_itself() {
        assert_eq!(join("", "a"), "a");
        assert_eq!(join("a", ""), "a");
        assert_eq!(join("a/b", "c"), "a/b/c");
        assert_eq!(join("", ""), "");
    }

    #[test]
    fn a_folder_with_plugin_json_is_one_root_even_with_roots_below() {
        let tree = Tree::from_files([("plugin.json", "{}"), ("nested/plugin.json", "{}")]);
        assert_eq!(roots_named(&tree), Roots::Single);
    }

    #[test]
    fn a_collection_lists_roots_in_order_skipping_hidden_and_node_modules() {
        let tree = Tree::from_files(
            [
                "plugins/b/plugin.json",
                "plugins/a/plugin.json",
                "plugins/a/inner/plugin.json",
                "top/plugin.json",
                ".claude-plugin/plugin.json",
                "x/node_modules/p/plugin.json",
            ]
            .map(|path| (path, "{}")),
        );
        assert_eq!(
            roots_named(&tree),
            Roots::Collection(vec!["plugins/a".into(), "plugins/b".into(), "top".into()])
        );
    }

    #[test]
    fn symlinked_directories_are_not_searched() {
        let mut tree = Tree::from_files([("real/plugin.json", "{}")]);
        tree.insert("alias", Entry::Symlink("real".into()));
        assert_eq!(roots_named(&tree), Roots::Collection(vec!["real".into()]));
    }

    /// A folder of a collection that could not be listed may hold roots: it
    /// is checked as one, whose check says it could not be listed.
    #[test]
    fn a_folder_that_could_not_be_listed_is_named_with_the_roots() {
        let mut tree = Tree::from_files([("plugins/a/plugin.json", "{}"), ("plugins/b/x.md", "")]);
        tree.insert("plugins/locked", Entry::Dir);
        tree.mark_unlisted("plugins/locked", "permission denied");
        assert_eq!(
            roots_named(&tree),
            Roots::Collection(vec!["plugins/a".into(), "plugins/locked".into()])
        );
        let (reports, _) = check_folder("m", &tree);
        assert!(
            reports[1].is_incomplete() && reports[1].fails_on_its_own(),
            "{:?}",
            reports[1]
        );
        // The folder searched, unlisted, is the one root: its own check says so.
        let mut locked = Tree::new();
        locked.mark_unlisted("", "permission denied");
        assert_eq!(roots_named(&locked), Roots::Single);
    }

    #[test]
    fn a_folder_without_any_manifest_is_one_root_to_reject() {
        let tree = Tree::from_files([("skills/a/SKILL.md", "---\n---\n")]);
        assert_eq!(roots_named(&tree), Roots::Single);
    }

    #[test]
    fn the_search_stops_at_its_depth_bound() {
        let deep = format!("{}plugin.json", "d/".repeat(MAX_SEARCH_DEPTH + 1));
        assert_eq!(roots_named(&Tree::from_files([(deep.as_str(), "{}")])), Roots::Single);
    }

    #[test]
    fn a_subtree_is_the_directory_read_alone() {
        let mut tree = Tree::from_files([
            ("plugins/a/plugin.json", "{}"),
            ("plugins/a/skills/s/SKILL.md", "x"),
            ("plugins/b/plugin.json", "{}"),
        ]);
        tree.mark_truncated("plugins/a/big.bin", 1 << 30);
        tree.mark_omitted("plugins/b/x", "max_entries");
        tree.mark_unlisted("plugins/a/skills", "permission denied");
        let sub = subtree(&tree, "plugins/a");
        assert_eq!(sub.unlisted().keys().collect::<Vec<_>>(), ["skills"]);
        let paths: Vec<&str> = sub.entries().map(|(path, _)| path).collect();
        assert_eq!(paths, ["plugin.json", "skills/s/SKILL.md"]);
        assert_eq!(
            sub.entry("skills/s"),
            Some(&Entry::Dir),
            "implied directories stay implied"
        );
        assert_eq!(sub.truncated().keys().collect::<Vec<_>>(), ["big.bin"]);
        assert!(sub.omitted().is_empty());
    }
}
