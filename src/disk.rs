//! The filesystem edge (native only): reads a plugin root into a [`Tree`]
//! with `lstat`, so links are recorded as links and never followed while
//! reading; their targets are resolved later, inside the tree (§4.1).

use std::fs;
use std::io::Read;
use std::path::Path;

use crate::tree::{Entry, Limits, Tree};

/// Reads everything under `root` into a tree, within `limits`. Entries past a
/// limit are recorded with [`Tree::mark_omitted`] / [`Tree::mark_truncated`]
/// so the report can say what was not looked at.
pub fn read_tree(root: &Path, limits: Limits) -> std::io::Result<Tree> {
    let metadata = fs::metadata(root)?;
    if !metadata.is_dir() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::NotADirectory,
            "a plugin root is a directory",
        ));
    }
    let mut tree = Tree::new();
    let mut total_bytes = 0usize;
    let mut pending = vec![(root.to_path_buf(), String::new())];
    while let Some((dir, rel)) = pending.pop() {
        let mut children: Vec<_> = match fs::read_dir(&dir) {
            Ok(read) => read.filter_map(Result::ok).collect(),
            Err(error) => {
                if !rel.is_empty() {
                    tree.insert(&rel, Entry::Unreadable(error.to_string()));
                }
                continue;
            }
        };
        children.sort_by_key(|c| c.file_name());
        for child in children {
            let name = child.file_name().to_string_lossy().into_owned();
            let path = if rel.is_empty() { name } else { format!("{rel}/{name}") };
            if tree.len() >= limits.max_entries {
                tree.mark_omitted(&path, "max_entries");
                continue;
            }
            let full = child.path();
            let entry = match fs::symlink_metadata(&full) {
                Err(error) => Entry::Unreadable(error.to_string()),
                Ok(meta) if meta.file_type().is_symlink() => match fs::read_link(&full) {
                    Ok(target) => Entry::Symlink(link_target_inside(root, &full, &target)),
                    Err(error) => Entry::Unreadable(error.to_string()),
                },
                Ok(meta) if meta.is_dir() => {
                    pending.push((full, path.clone()));
                    Entry::Dir
                }
                Ok(meta) if meta.is_file() => {
                    let size = meta.len();
                    let budget = limits
                        .max_file_bytes
                        .min(limits.max_total_bytes.saturating_sub(total_bytes));
                    match read_prefix(&full, budget) {
                        Ok(bytes) => {
                            total_bytes += bytes.len();
                            if (bytes.len() as u64) < size {
                                tree.mark_truncated(&path, size);
                            }
                            Entry::File(bytes)
                        }
                        Err(error) => Entry::Unreadable(error.to_string()),
                    }
                }
                Ok(meta) => Entry::Other(describe_special(&meta)),
            };
            tree.insert(&path, entry);
        }
    }
    Ok(tree)
}

/// At most `limit` bytes of the file (a 100 MB file is not loaded whole).
fn read_prefix(path: &Path, limit: usize) -> std::io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    fs::File::open(path)?.take(limit as u64).read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// Absolute link targets that point inside the root become relative, so the
/// tree can resolve them; any other absolute target stays absolute and is an
/// escape when resolved.
fn link_target_inside(root: &Path, link: &Path, target: &Path) -> String {
    if target.is_absolute() {
        if let (Ok(root), Some(parent)) = (root.canonicalize(), link.parent()) {
            if let (Ok(rel_target), Ok(rel_parent)) = (target.strip_prefix(&root), parent.strip_prefix(&root)) {
                let ups = rel_parent.components().count();
                let mut relative = "../".repeat(ups);
                relative.push_str(&rel_target.to_string_lossy());
                return if relative.is_empty() { ".".to_string() } else { relative };
            }
        }
    }
    target.to_string_lossy().into_owned()
}

#[cfg(unix)]
fn describe_special(meta: &fs::Metadata) -> String {
    use std::os::unix::fs::FileTypeExt;
    let kind = meta.file_type();
    if kind.is_fifo() {
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
fn describe_special(_meta: &fs::Metadata) -> String {
    "not a regular file, directory or symlink".into()
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
}
