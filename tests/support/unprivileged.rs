//! Running `apcheck` as a user whom file permissions apply to, on a package
//! that user can reach; shared by the tests of unreadable folders.
//!
//! Tests usually run as root, whom permissions do not stop, so the binary is
//! then started as `nobody` through `setpriv`. `nobody` must be able to walk
//! down to the package: a temporary folder inside a private one (as
//! `scripts/test.sh` makes TMPDIR, mode 0700) would fail every check with
//! "Permission denied" on the root, which is not what these tests ask about.

use std::fs;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::Command;

/// `nobody`, who owns nothing in the temporary packages.
pub const NOBODY: u32 = 65534;

fn running_as_root() -> bool {
    fs::metadata("/proc/self").is_ok_and(|m| m.uid() == 0)
}

/// `apcheck`, started as `nobody` when the tests run as root.
pub fn apcheck_unprivileged() -> Command {
    let bin = env!("CARGO_BIN_EXE_apcheck");
    if !running_as_root() {
        return Command::new(bin);
    }
    let mut command = Command::new("setpriv");
    command.args([
        &format!("--reuid={NOBODY}"),
        &format!("--regid={NOBODY}"),
        "--clear-groups",
        bin,
    ]);
    command
}

/// Whether every folder from `/` down to `path` lets others through (`o+x`).
fn others_can_reach(path: &Path) -> bool {
    path.ancestors()
        .all(|folder| fs::metadata(folder).is_ok_and(|m| m.mode() & 0o001 != 0))
}

/// A temporary folder, mode 0755, that the unprivileged user can reach: under
/// the usual temporary folder when it is reachable, under `/tmp` otherwise.
pub fn reachable_tempdir() -> tempfile::TempDir {
    let usual = std::env::temp_dir();
    let base = if others_can_reach(&usual) {
        usual
    } else {
        PathBuf::from("/tmp")
    };
    let dir = tempfile::Builder::new()
        .prefix("apcheck-unprivileged")
        .tempdir_in(&base)
        .unwrap_or_else(|e| panic!("a temporary folder in {}: {e}", base.display()));
    fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o755)).unwrap();
    assert!(
        !running_as_root() || others_can_reach(dir.path()),
        "nobody cannot reach {}: these tests need a temporary folder others may enter",
        dir.path().display()
    );
    dir
}
