//! What every CLI test shares: one way to run the `apcheck` binary, and the
//! small readers and writers around it.
//!
//! ```ignore
//! let output = apcheck(&["check", "--format", "json", "plugins"]).current_dir(dir).output();
//! assert_eq!(code(&output), 1, "{}", stderr(&output));
//! ```

use std::ffi::OsStr;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The binary under test, built by Cargo for this test crate.
pub const APCHECK_BIN: &str = env!("CARGO_BIN_EXE_apcheck");

/// A run of the `apcheck` binary with `args`, to adjust and then run with
/// [`Apcheck::output`] (or, for other stdio, [`Apcheck::command`]).
///
/// `NO_COLOR` is removed from the inherited environment, so a test sees the
/// same output under CI's `NO_COLOR=1` as in a local run; a test that wants it
/// sets it with `.env("NO_COLOR", "1")`.
pub fn apcheck(args: &[&str]) -> Apcheck {
    let mut command = Command::new(APCHECK_BIN);
    command.args(args).env_remove("NO_COLOR");
    Apcheck { command }
}

/// A run of the `apcheck` binary, built by [`apcheck`].
pub struct Apcheck {
    command: Command,
}

impl Apcheck {
    /// Runs in `dir` instead of the test's working directory (the crate root).
    pub fn current_dir(mut self, dir: impl AsRef<Path>) -> Self {
        self.command.current_dir(dir);
        self
    }

    /// Sets one environment variable for the run.
    pub fn env(mut self, key: impl AsRef<OsStr>, value: impl AsRef<OsStr>) -> Self {
        self.command.env(key, value);
        self
    }

    /// Runs to the end with stdin empty and stdout and stderr captured.
    pub fn output(mut self) -> Output {
        self.command.output().expect("the apcheck binary runs")
    }

    /// The command as built, for a test that sets its own stdio or spawns it.
    pub fn command(self) -> Command {
        self.command
    }
}

/// The exit code of a run that ended by exiting (not by a signal).
pub fn code(output: &Output) -> i32 {
    output.status.code().expect("apcheck exits with a code")
}

/// Standard output, which must be UTF-8.
pub fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("stdout is UTF-8")
}

/// Standard error, which must be UTF-8.
pub fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).expect("stderr is UTF-8")
}

/// Writes `files` (path relative to `root`, contents) under `root`, creating directories.
pub fn write_files(root: &Path, files: &[(&str, &str)]) {
    for (path, contents) in files {
        let path = root.join(path);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, contents).unwrap();
    }
}

/// A path as the `&str` an argument list takes.
pub fn path_str(path: &Path) -> &str {
    path.to_str().expect("temporary paths are UTF-8")
}

/// The repository root (this crate's manifest directory).
pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The shared folder (corpus, references): `APCHECK_SHARED` when set, else `../shared` beside the crate.
pub fn shared() -> PathBuf {
    std::env::var_os("APCHECK_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo().join("../shared"))
}
