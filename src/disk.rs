//! The filesystem edge (native only): reads a plugin root into a [`Tree`]
//! with `lstat`, so links are recorded as links and never followed while
//! reading; their targets are resolved later, inside the tree (§4.1).
//!
//! The locations a client loads are read first (`plugin.json`, `mcp.json`,
//! `skills/` and each `skills/<name>/SKILL.md`, §6.1, §7.1), then everything
//! else: the entry limit can then only leave out files no client reads. A
//! directory that cannot be listed is recorded as such ([`Tree::mark_unlisted`])
//! and those locations are still looked up in it by name, as a client does.
//!
//! The skill folders are independent of each other, so their `SKILL.md` is
//! looked up and their listing read on every core, a chunk at a time; the
//! tree is still built from those answers one entry after the other, in the
//! order a serial walk takes, so the entry limit cuts at the same place.

use std::collections::HashMap;
use std::fs;
use std::io::{ErrorKind, Read};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rayon::prelude::*;

use crate::tree::{Entry, FileLoader, Limits, Tree, target_leaves_root};

/// The component locations at the plugin root (§6.1).
const ROOT_COMPONENTS: &[&str] = &["plugin.json", "mcp.json", "skills"];

/// How many skill folders are looked at in parallel before their answers
/// go into the tree: enough to keep every core busy, few enough that a
/// walk cut short by the entry limit wastes little.
const SKILL_DIRS_AT_ONCE: usize = 1024;

/// A directory's names, sorted, each with its type when the listing gives it.
type Listing = Vec<(String, Option<fs::FileType>)>;

/// Reads everything under `root` into a tree, within `limits`. Entries past a
/// limit are recorded with [`Tree::mark_omitted`] / [`Tree::mark_truncated`],
/// directories that could not be listed with [`Tree::mark_unlisted`], so the
/// report can say what was not looked at.
pub fn read_tree(root: &Path, limits: Limits) -> std::io::Result<Tree> {
    walk(root, limits, Bytes::Read)
}

/// [`read_tree`] without the files' bytes: every file is listed with how
/// much of it the limits keep, and the tree reads it from disk when a check
/// asks (once), so checking a package holds one file at a time. For a
/// one-shot check (`apcheck check`); an editor re-checking on every change
/// keeps the bytes with [`read_tree`].
pub fn list_tree(root: &Path, limits: Limits) -> std::io::Result<Tree> {
    let mut tree = walk(root, limits, Bytes::Deferred)?;
    tree.set_loader(Arc::new(DiskFiles {
        root: root.to_path_buf(),
    }));
    Ok(tree)
}

/// Whether the walk reads each file's bytes or leaves them to the tree's loader.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Bytes {
    Read,
    Deferred,
}

/// Reads a listed tree's files from under its root.
struct DiskFiles {
    root: PathBuf,
}

impl FileLoader for DiskFiles {
    fn load(&self, path: &str, keep: usize) -> Result<Vec<u8>, String> {
        read_prefix(&self.root.join(path), keep, keep as u64).map_err(|error| error.to_string())
    }
}

fn walk(root: &Path, limits: Limits, bytes: Bytes) -> std::io::Result<Tree> {
    let metadata = fs::metadata(root)?;
    if !metadata.is_dir() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::NotADirectory,
            "a plugin root is a directory",
        ));
    }
    let mut reader = Reader {
        root: root.to_path_buf(),
        real_root: fs::canonicalize(root)?,
        limits,
        bytes,
        tree: Tree::new(),
        total_bytes: 0,
        listed: HashMap::new(),
    };
    reader.read_components(root);
    reader.read_rest(root);
    Ok(reader.tree)
}

struct Reader {
    /// The root as given, and as the filesystem resolves it (through any links).
    root: PathBuf,
    real_root: PathBuf,
    limits: Limits,
    bytes: Bytes,
    tree: Tree,
    total_bytes: usize,
    /// Listings read ahead (the root, `skills/`, each skill folder), by
    /// root-relative path, which [`Reader::list`] takes instead of reading again.
    listed: HashMap<String, Listing>,
}

/// What a skill folder holds, looked at ahead of the walk (see [`look_at_skill_dir`]).
struct SkillDirLook {
    skill_md: std::io::Result<fs::Metadata>,
    listing: std::io::Result<Listing>,
}

/// The `lstat` of `dir/SKILL.md` and the listing of `dir`, for a folder the
/// listing says is one; `None` for anything else (a link, an unknown type),
/// which the walk looks at itself.
fn look_at_skill_dir(dir: &Path, kind: Option<fs::FileType>) -> Option<SkillDirLook> {
    kind.is_some_and(|kind| kind.is_dir()).then(|| SkillDirLook {
        skill_md: fs::symlink_metadata(dir.join("SKILL.md")),
        listing: list_dir(dir),
    })
}

impl Reader {
    /// `plugin.json`, `mcp.json`, `skills/`, its children and their `SKILL.md`.
    fn read_components(&mut self, root: &Path) {
        let listed = self.list(root, "");
        if let Some(listed) = &listed {
            // `read_rest` starts from the root again.
            self.listed.insert(String::new(), listed.clone());
        }
        for name in ROOT_COMPONENTS {
            match &listed {
                Some(listed) => {
                    if let Some((_, kind)) = listed.iter().find(|(n, _)| n == name) {
                        self.add(&root.join(name), name, *kind);
                    }
                }
                None => self.probe(&root.join(name), name),
            }
        }
        if self.tree.entry("skills") != Some(&Entry::Dir) {
            return;
        }
        let skills = root.join("skills");
        let Some(children) = self.list(&skills, "skills") else {
            return;
        };
        // While one chunk's answers go into the tree, the next chunk is looked
        // at: the tree takes one thread, and the lookups would otherwise wait
        // for it (a quarter of a 50,000-skill walk).
        let chunks: Vec<&[(String, Option<fs::FileType>)]> = children.chunks(SKILL_DIRS_AT_ONCE).collect();
        let look_at = |chunk: &[(String, Option<fs::FileType>)]| -> Vec<Option<SkillDirLook>> {
            chunk
                .par_iter()
                .map(|(name, kind)| look_at_skill_dir(&skills.join(name), *kind))
                .collect()
        };
        let mut looks = chunks.first().map(|chunk| look_at(chunk));
        for (index, chunk) in chunks.iter().enumerate() {
            let current = looks.take().unwrap_or_default();
            let (ahead, ()) = rayon::join(
                || chunks.get(index + 1).map(|next| look_at(next)),
                || self.take_skill_dirs(&skills, chunk, current),
            );
            looks = ahead;
        }
        self.listed.insert("skills".to_string(), children);
    }

    /// Adds a chunk of `skills/`' children, with what [`look_at_skill_dir`]
    /// found in each, to the tree.
    fn take_skill_dirs(
        &mut self,
        skills: &Path,
        chunk: &[(String, Option<fs::FileType>)],
        looks: Vec<Option<SkillDirLook>>,
    ) {
        for ((name, kind), look) in chunk.iter().zip(looks) {
            let dir = format!("skills/{name}");
            let full = skills.join(name);
            if !self.add(&full, &dir, *kind) {
                continue;
            }
            // By name, as a client looks for it: found even in a folder that cannot be listed.
            let skill_md = full.join("SKILL.md");
            let (metadata, listing) = match look {
                Some(look) => (look.skill_md, look.listing.ok()),
                None => (fs::symlink_metadata(&skill_md), None),
            };
            self.probe_with(&skill_md, &format!("{dir}/SKILL.md"), metadata);
            if let Some(listing) = listing {
                self.listed.insert(dir, listing);
            }
        }
    }

    /// Everything not read yet, depth first in name order.
    fn read_rest(&mut self, root: &Path) {
        let mut pending = vec![(root.to_path_buf(), String::new())];
        while let Some((dir, rel)) = pending.pop() {
            // The root and `skills/` were listed already; a failure there is recorded.
            if self.tree.unlisted().contains_key(&rel) {
                continue;
            }
            let Some(listed) = self.list(&dir, &rel) else { continue };
            for (name, kind) in listed {
                let path = if rel.is_empty() {
                    name.clone()
                } else {
                    format!("{rel}/{name}")
                };
                let full = dir.join(&name);
                let is_dir = match self.tree.entry(&path) {
                    Some(entry) => *entry == Entry::Dir,
                    None => self.add(&full, &path, kind),
                };
                if is_dir {
                    pending.push((full, path));
                }
            }
        }
    }

    /// [`list_dir`], or the listing read ahead for `rel`; `None` (and the
    /// directory recorded as unlisted) when it cannot be listed.
    fn list(&mut self, dir: &Path, rel: &str) -> Option<Listing> {
        if let Some(listed) = self.listed.remove(rel) {
            return Some(listed);
        }
        match list_dir(dir) {
            Ok(listed) => Some(listed),
            // A folder added from its parent's listing, without an `lstat`, in a
            // parent that can be listed but not entered: the `lstat` fails too,
            // and the folder is unreadable, as an `lstat` first would have found.
            Err(error) if !rel.is_empty() && fs::symlink_metadata(dir).is_err() => {
                self.tree.insert(rel, Entry::Unreadable(error.to_string()));
                None
            }
            Err(error) => {
                self.tree.mark_unlisted(rel, &error.to_string());
                None
            }
        }
    }

    /// Looks `path` up by name in a directory that could not be listed:
    /// added when it is there, recorded as absent when it is certainly not.
    fn probe(&mut self, full: &Path, path: &str) {
        self.probe_with(full, path, fs::symlink_metadata(full));
    }

    /// [`Reader::probe`] with the `lstat` already done.
    fn probe_with(&mut self, full: &Path, path: &str, metadata: std::io::Result<fs::Metadata>) {
        match metadata {
            Ok(meta) => {
                self.add_with(full, path, Ok(meta));
            }
            Err(error) if error.kind() == ErrorKind::NotFound => self.tree.mark_absent(path),
            // Permission denied on the way: unknown, and the tree says so.
            Err(_) => {}
        }
    }

    /// For a link whose target text leaves the root, where the filesystem
    /// resolves it (`realpath`), when that is inside the resolved root (§4.1
    /// item 3): a root given through a symlink with absolute links to its real
    /// path, a target that leaves and re-enters, a chain through a link
    /// outside. A dangling absolute target is placed by its text.
    fn record_landing(&mut self, full: &Path, path: &str, target: &str) {
        let parent_depth = path.matches('/').count();
        if !target_leaves_root(parent_depth, target) {
            return;
        }
        let landing = match fs::canonicalize(full) {
            Ok(real) => relative_to(&real, &self.real_root),
            Err(_) => {
                let target = Path::new(target);
                relative_to(target, &self.real_root).or_else(|| relative_to(target, &self.root))
            }
        };
        if let Some(inside) = landing {
            self.tree.mark_link_lands_inside(path, &inside);
        }
    }

    /// Reads one listed entry into the tree within the limits; returns whether
    /// it is a directory. A folder is known from the listing (`kind`, which
    /// does not follow links); anything else is `lstat`ed, a file for its size.
    fn add(&mut self, full: &Path, path: &str, kind: Option<fs::FileType>) -> bool {
        if self.tree.len() >= self.limits.max_entries {
            self.tree.mark_omitted(path, "max_entries");
            return false;
        }
        if kind.is_some_and(|kind| kind.is_dir()) {
            self.tree.insert(path, Entry::Dir);
            return true;
        }
        self.add_with(full, path, fs::symlink_metadata(full))
    }

    /// [`Reader::add`] with the entry's `lstat` already done.
    fn add_with(&mut self, full: &Path, path: &str, metadata: std::io::Result<fs::Metadata>) -> bool {
        if self.tree.len() >= self.limits.max_entries {
            self.tree.mark_omitted(path, "max_entries");
            return false;
        }
        let mut is_dir = false;
        let entry = match metadata {
            Err(error) => Entry::Unreadable(error.to_string()),
            Ok(meta) if meta.file_type().is_symlink() => match fs::read_link(full) {
                Ok(target) => {
                    let target = target.to_string_lossy().into_owned();
                    self.record_landing(full, path, &target);
                    Entry::Symlink(target)
                }
                Err(error) => Entry::Unreadable(error.to_string()),
            },
            Ok(meta) if meta.is_dir() => {
                is_dir = true;
                Entry::Dir
            }
            Ok(meta) if meta.is_file() => {
                let size = meta.len();
                if self.bytes == Bytes::Deferred {
                    // What a read will keep, from the size `lstat` gives. The
                    // total limit bounds what a tree holds; a listed tree holds
                    // one file at a time, so only the per-file limit applies and
                    // a package of large skill bodies is checked whole.
                    let budget = self.limits.max_file_bytes;
                    let keep = usize::try_from(size).map_or(budget, |size| size.min(budget));
                    if (keep as u64) < size {
                        self.tree.mark_truncated(path, size);
                    }
                    self.tree.insert_deferred(path, keep);
                    return false;
                }
                let budget = self
                    .limits
                    .max_file_bytes
                    .min(self.limits.max_total_bytes.saturating_sub(self.total_bytes));
                match read_prefix(full, budget, size) {
                    Ok(bytes) => {
                        self.total_bytes += bytes.len();
                        if (bytes.len() as u64) < size {
                            self.tree.mark_truncated(path, size);
                        }
                        Entry::File(bytes)
                    }
                    Err(error) => Entry::Unreadable(error.to_string()),
                }
            }
            Ok(meta) => Entry::Other(describe_special(&meta)),
        };
        self.tree.insert(path, entry);
        is_dir
    }
}

/// The names in `dir`, sorted, each with its type when the listing gives
/// it (on Linux it does, without a syscall, and without following links).
fn list_dir(dir: &Path) -> std::io::Result<Listing> {
    let mut listed: Listing = fs::read_dir(dir)?
        .filter_map(Result::ok)
        .map(|child| (child.file_name().to_string_lossy().into_owned(), child.file_type().ok()))
        .collect();
    listed.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    Ok(listed)
}

/// At most `limit` bytes of the file (a 100 MB file is not loaded whole), in
/// a buffer of `expected` bytes (the size `lstat` gave), not of the
/// doublings `read_to_end` grows: a 1.2 KB file then holds 1.2 KB, not 2 KB.
fn read_prefix(path: &Path, limit: usize, expected: u64) -> std::io::Result<Vec<u8>> {
    let mut bytes = Vec::with_capacity(usize::try_from(expected).map_or(limit, |size| size.min(limit)));
    open_regular(path)?.take(limit as u64).read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// Opens `path` for reading only if it is a regular file, and without ever
/// waiting on it. The `lstat` of a walk can be out of date by the time the
/// file is opened (a FIFO put in its place would block `open` until a writer
/// comes), and some regular files never end a read (`/proc/kmsg` waits for
/// the next kernel message): so the open does not block (`O_NONBLOCK`), the
/// opened file is `fstat`ed, anything else is refused, and reads stay
/// non-blocking, which regular files on ordinary filesystems ignore while
/// such files fail with "would block" instead of waiting.
pub fn open_regular(path: &Path) -> std::io::Result<fs::File> {
    let mut options = fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        // O_NOCTTY: opening a terminal device must not make it ours.
        options.custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY);
    }
    let file = options.open(path)?;
    let metadata = file.metadata()?;
    if !metadata.is_file() {
        return Err(std::io::Error::new(
            ErrorKind::InvalidInput,
            format!("not a regular file ({})", describe_special(&metadata)),
        ));
    }
    Ok(file)
}

/// The text of the regular file at `path` ([`open_regular`]), as
/// `fs::read_to_string` gives it for a regular file.
pub fn read_regular_text(path: &Path) -> std::io::Result<String> {
    let mut text = String::new();
    open_regular(path)?.read_to_string(&mut text)?;
    Ok(text)
}

/// `path` relative to `base`, `/`-separated (`""` for `base` itself).
fn relative_to(path: &Path, base: &Path) -> Option<String> {
    let rest = path.strip_prefix(base).ok()?;
    let parts: Vec<String> = rest.iter().map(|part| part.to_string_lossy().into_owned()).collect();
    Some(parts.join("/"))
}

#[cfg(unix)]
fn describe_special(meta: &fs::Metadata) -> String {
    use std::os::unix::fs::FileTypeExt;
    let kind = meta.file_type();
    if kind.is_dir() {
        "a directory".into()
    } else if kind.is_fifo() {
        "a FIFO".into()
    } else if kind.is_socket() {
        "a socket".into()
    } else if kind.is_block_device() || kind.is_char_device() {
        "a device".into()
    } else {
        "not a regular file, directory or symlink".into()
    }
}

#[cfg(not(unix))]
fn describe_special(meta: &fs::Metadata) -> String {
    if meta.is_dir() {
        "a directory".into()
    } else {
        "not a regular file, directory or symlink".into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_files_dirs_and_links_without_following_them() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        fs::create_dir_all(root.join("skills/a")).unwrap();
        fs::write(root.join("plugin.json"), "{}").unwrap();
        fs::write(root.join("skills/a/SKILL.md"), "---\n").unwrap();
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink("..", root.join("escape-link")).unwrap();
            std::os::unix::fs::symlink("a", root.join("skills/b")).unwrap();
        }
        let tree = read_tree(root, Limits::default()).unwrap();
        assert_eq!(tree.entry("plugin.json"), Some(&Entry::File(b"{}".to_vec())));
        assert_eq!(tree.entry("skills/a"), Some(&Entry::Dir));
        #[cfg(unix)]
        {
            assert_eq!(tree.entry("escape-link"), Some(&Entry::Symlink("..".into())));
            assert_eq!(tree.resolve("skills/b/SKILL.md").unwrap().path, "skills/a/SKILL.md");
        }
    }

    #[test]
    fn component_locations_are_read_before_a_big_folder_can_use_up_the_entry_limit() {
        // A `zzz/` folder of 100,000 files once hid `skills/` (here at scale 1:1000).
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        fs::create_dir_all(root.join("skills/review")).unwrap();
        fs::create_dir_all(root.join("zzz")).unwrap();
        fs::write(root.join("plugin.json"), "{}").unwrap();
        fs::write(root.join("skills/review/SKILL.md"), "---\n").unwrap();
        for i in 0..100 {
            fs::write(root.join(format!("zzz/{i}")), "").unwrap();
        }
        let limits = Limits {
            max_entries: 50,
            ..Limits::default()
        };
        let tree = read_tree(root, limits).unwrap();
        assert!(tree.read("skills/review/SKILL.md").is_some());
        assert!(tree.read("plugin.json").is_some());
        assert_eq!(tree.len(), 50);
        assert!(tree.omitted().keys().all(|path| path.starts_with("zzz/")));
    }

    #[test]
    fn skill_folders_looked_at_ahead_land_in_the_tree_in_order_across_chunks() {
        // Past two chunks of look-ahead: every folder, its SKILL.md (or its
        // absence) and its other files, as a walk of one folder at a time finds them.
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let count = 2 * SKILL_DIRS_AT_ONCE + 3;
        let name = |i: usize| format!("s{i:05}");
        for i in 0..count {
            let folder = root.join("skills").join(name(i));
            fs::create_dir_all(&folder).unwrap();
            if i % 7 != 0 {
                fs::write(folder.join("SKILL.md"), format!("---\nname: {}\n", name(i))).unwrap();
            }
            if i % 500 == 3 {
                fs::write(folder.join("notes.txt"), "x").unwrap();
            }
        }
        let tree = read_tree(root, Limits::default()).unwrap();
        for i in 0..count {
            let folder = format!("skills/{}", name(i));
            assert_eq!(tree.entry(&folder), Some(&Entry::Dir), "{folder}");
            let skill_md = tree.read(&format!("{folder}/SKILL.md"));
            assert_eq!(skill_md.is_some(), i % 7 != 0, "{folder}");
            assert_eq!(
                tree.read(&format!("{folder}/notes.txt")).is_some(),
                i % 500 == 3,
                "{folder}"
            );
        }
        // Cut inside the second chunk: the folders before the cut are whole, the rest omitted.
        let limits = Limits {
            max_entries: SKILL_DIRS_AT_ONCE * 2 + 100,
            ..Limits::default()
        };
        let tree = read_tree(root, limits).unwrap();
        assert_eq!(tree.len(), limits.max_entries);
        let last_in = (0..count)
            .rev()
            .find(|&i| tree.entry(&format!("skills/{}", name(i))).is_some())
            .unwrap();
        assert!(
            (SKILL_DIRS_AT_ONCE..2 * SKILL_DIRS_AT_ONCE).contains(&last_in),
            "{last_in}"
        );
        assert!(tree.omitted().contains_key(&format!("skills/{}", name(last_in + 1))));
    }

    /// `base/plugin` (the root, with `plugin.json` and `meta/p.json`), `base/outside/p.json`,
    /// and `base/back` → `base/plugin`, a link outside the root pointing back in.
    #[cfg(unix)]
    fn linked_layout() -> (tempfile::TempDir, std::path::PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let base = dir.path().canonicalize().unwrap();
        let root = base.join("plugin");
        fs::create_dir_all(root.join("meta")).unwrap();
        fs::create_dir_all(base.join("outside")).unwrap();
        fs::write(root.join("plugin.json"), "{}").unwrap();
        fs::write(root.join("meta/p.json"), "{}").unwrap();
        fs::write(base.join("outside/p.json"), "{}").unwrap();
        std::os::unix::fs::symlink(&root, base.join("back")).unwrap();
        (dir, base)
    }

    #[cfg(unix)]
    #[test]
    fn links_are_judged_where_the_filesystem_resolves_them() {
        // §4.1 item 3: "the filesystem-resolved path MUST remain within the filesystem-resolved plugin root".
        use std::os::unix::fs::symlink;
        let (_dir, base) = linked_layout();
        let root = base.join("plugin");
        // Absolute links to the real root, with the root given through a symlink.
        symlink(root.join("plugin.json"), root.join("absolute")).unwrap();
        std::os::unix::fs::symlink(&root, base.join("alias")).unwrap();
        // Leaves and re-enters the root.
        symlink("../plugin/meta/p.json", root.join("reentering")).unwrap();
        symlink("../../plugin/meta", root.join("meta/reentering-dir")).unwrap();
        // Through a link outside the root that points back inside.
        symlink("../back/meta/p.json", root.join("via-outside")).unwrap();
        let tree = read_tree(&base.join("alias"), Limits::default()).unwrap();
        assert_eq!(tree.resolve("absolute").unwrap().path, "plugin.json");
        assert_eq!(tree.resolve("reentering").unwrap().path, "meta/p.json");
        assert_eq!(tree.resolve("meta/reentering-dir/p.json").unwrap().path, "meta/p.json");
        assert_eq!(tree.resolve("via-outside").unwrap().path, "meta/p.json");
        // The target text is kept as written, for the messages.
        assert_eq!(
            tree.entry("via-outside"),
            Some(&Entry::Symlink("../back/meta/p.json".into()))
        );
    }

    #[cfg(unix)]
    #[test]
    fn links_that_resolve_outside_still_escape() {
        use crate::tree::Unresolved;
        use std::os::unix::fs::symlink;
        let (dir, base) = linked_layout();
        let root = base.join("plugin");
        symlink("../outside/p.json", root.join("relative-out")).unwrap();
        symlink(base.join("outside/p.json"), root.join("absolute-out")).unwrap();
        symlink("..", root.join("parent")).unwrap();
        symlink("/etc/passwd", root.join("system")).unwrap();
        symlink("../back/../outside/p.json", root.join("back-then-out")).unwrap();
        symlink("../nowhere/p.json", root.join("dangling")).unwrap();
        symlink(root.join("meta/../../outside/p.json"), root.join("absolute-climbing")).unwrap();
        symlink(base.join("outside"), base.join("out-link")).unwrap();
        symlink("../out-link/p.json", root.join("through-outside-link")).unwrap();
        let tree = read_tree(&root, Limits::default()).unwrap();
        for link in [
            "relative-out",
            "absolute-out",
            "parent",
            "system",
            "back-then-out",
            "dangling",
            "absolute-climbing",
            "through-outside-link",
        ] {
            assert!(
                matches!(tree.resolve(link), Err(Unresolved::Escapes { .. })),
                "{link}: {:?}",
                tree.resolve(link)
            );
        }
        drop(dir);
    }

    /// `f` on another thread: its result, or a panic when it has not returned
    /// within a minute (a blocked read fails the test instead of hanging it).
    #[cfg(unix)]
    fn within_a_minute<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
        let (sender, receiver) = std::sync::mpsc::channel();
        std::thread::spawn(move || sender.send(f()));
        receiver
            .recv_timeout(std::time::Duration::from_secs(60))
            .expect("the read returns instead of waiting")
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_is_refused_without_waiting_for_a_writer() {
        // Opening a FIFO for reading waits for a writer; the
        // walk's `lstat` may have seen a regular file there a moment before.
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("plugin.json");
        let name = std::ffi::CString::new(fifo.as_os_str().as_encoded_bytes()).unwrap();
        assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o644) }, 0);
        let error = within_a_minute(move || read_prefix(&fifo, 100, 0)).unwrap_err();
        assert_eq!(error.kind(), ErrorKind::InvalidInput);
        assert_eq!(error.to_string(), "not a regular file (a FIFO)");
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_regular_file_whose_read_would_wait_fails_instead() {
        // `/proc/kmsg` is a regular file whose read waits for the
        // next kernel message (`snapshot /proc` hung on it). Only root may
        // open it; anyone else gets "permission denied" at once either way.
        let result = within_a_minute(|| read_prefix(Path::new("/proc/kmsg"), 100, 0));
        if let Err(error) = result {
            assert!(
                matches!(error.kind(), ErrorKind::WouldBlock | ErrorKind::PermissionDenied),
                "{error}"
            );
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_directory_or_device_is_not_read_as_a_file() {
        let dir = tempfile::tempdir().unwrap();
        let error = read_regular_text(dir.path()).unwrap_err();
        assert_eq!(error.to_string(), "not a regular file (a directory)");
        let error = within_a_minute(|| read_regular_text(Path::new("/dev/zero"))).unwrap_err();
        assert_eq!(error.to_string(), "not a regular file (a device)");
        let file = dir.path().join("apcheck.toml");
        fs::write(&file, "ignore = []\n").unwrap();
        assert_eq!(read_regular_text(&file).unwrap(), "ignore = []\n");
    }

    #[test]
    fn limits_are_recorded_not_silent() {
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join("big"), vec![b'x'; 100]).unwrap();
        let limits = Limits {
            max_file_bytes: 10,
            ..Limits::default()
        };
        let tree = read_tree(dir.path(), limits).unwrap();
        assert_eq!(tree.entry("big"), Some(&Entry::File(vec![b'x'; 10])));
        assert_eq!(tree.truncated().get("big"), Some(&100));
    }

    #[test]
    fn a_listed_tree_keeps_what_a_read_one_holds_within_the_same_limits() {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir_all(dir.path().join("skills/a")).unwrap();
        fs::write(dir.path().join("big"), vec![b'x'; 100]).unwrap();
        fs::write(dir.path().join("skills/a/SKILL.md"), "---\nname: a\n---\n").unwrap();
        let limits = Limits {
            max_file_bytes: 10,
            ..Limits::default()
        };
        let read = read_tree(dir.path(), limits).unwrap();
        let listed = list_tree(dir.path(), limits).unwrap();
        assert_eq!(listed.truncated(), read.truncated());
        for path in ["big", "skills/a/SKILL.md"] {
            assert_eq!(listed.read(path), read.read(path), "{path}");
        }
        // Listed, not read: the entry holds no bytes until they are asked for.
        assert_eq!(listed.entry("skills/a/SKILL.md"), Some(&Entry::File(Vec::new())));
        let names = |tree: &Tree| tree.entries().map(|(path, _)| path.to_string()).collect::<Vec<_>>();
        assert_eq!(names(&listed), names(&read));
    }

    /// The total limit bounds the bytes a tree holds; a listed tree holds one
    /// file at a time, so it reads every file whole within the per-file limit.
    #[test]
    fn a_listed_tree_is_not_cut_at_the_total_limit() {
        let dir = tempfile::tempdir().unwrap();
        for name in ["a", "b", "c"] {
            fs::write(dir.path().join(name), vec![b'x'; 10]).unwrap();
        }
        let limits = Limits {
            max_total_bytes: 15,
            ..Limits::default()
        };
        let read = read_tree(dir.path(), limits).unwrap();
        assert_eq!(read.truncated().len(), 2, "reading up front stops at the total");
        let listed = list_tree(dir.path(), limits).unwrap();
        assert!(listed.truncated().is_empty());
        for name in ["a", "b", "c"] {
            assert_eq!(listed.read(name), Some(&[b'x'; 10][..]), "{name}");
        }
    }
}
