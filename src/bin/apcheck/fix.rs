//! The edge of `apcheck check --fix` / `--unsafe-fixes`: the core
//! (`apcheck::fix::fix_tree`) says which files change and how; this writes
//! each one atomically (a temporary file beside it, then a rename, keeping its
//! permissions). `--diff`'s diff is the core's (`apcheck::render::fix`).

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use apcheck::fix::FixOutcome;

/// Writes every changed file of `outcome` under `root_dir`.
pub fn write_all(root_dir: &Path, outcome: &FixOutcome) -> Result<(), String> {
    for (file, text) in &outcome.changed {
        let path = root_dir.join(file);
        write_atomically(&path, text.as_bytes()).map_err(|error| format!("{}: {error}", path.display()))?;
    }
    Ok(())
}

/// Replaces the file at `path` (through a link, if it is one: the check
/// resolved it inside the root) with `bytes`, so a reader sees the old or the
/// new file, never a half-written one.
fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let target: PathBuf = fs::canonicalize(path)?;
    let dir = target.parent().unwrap_or(Path::new("."));
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let temporary = dir.join(format!(".{name}.apcheck-fix-{}", std::process::id()));
    let written = (|| {
        let mut file = fs::File::create(&temporary)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        fs::set_permissions(&temporary, fs::metadata(&target)?.permissions())?;
        fs::rename(&temporary, &target)
    })();
    if written.is_err() {
        let _ = fs::remove_file(&temporary);
    }
    written
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn writing_replaces_the_link_target_and_keeps_the_mode() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real.json");
        fs::write(&real, "old").unwrap();
        fs::set_permissions(&real, fs::Permissions::from_mode(0o640)).unwrap();
        std::os::unix::fs::symlink("real.json", dir.path().join("plugin.json")).unwrap();
        write_atomically(&dir.path().join("plugin.json"), b"new").unwrap();
        assert_eq!(fs::read_to_string(&real).unwrap(), "new");
        assert!(
            fs::symlink_metadata(dir.path().join("plugin.json"))
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(fs::metadata(&real).unwrap().permissions().mode() & 0o777, 0o640);
        assert_eq!(
            fs::read_dir(dir.path()).unwrap().count(),
            2,
            "no temporary file is left"
        );
    }
}
