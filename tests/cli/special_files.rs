//! No command reads a file that is not a regular file, or waits on one.
//! `snapshot /proc`, `drift S /proc` and `check-snapshot S --plugin /proc`
//! used to hang on `/proc/kmsg`, a regular file whose read waits for the next
//! kernel message (only root may open it, so only as root did they hang);
//! FIFOs anywhere in a package are reported, never opened. Each run
//! is bounded: a regression fails here instead of hanging the suite.
#![cfg(unix)]

use std::io::{Read, Seek};
use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

use crate::support::apcheck;

/// Far above what a debug build needs (6 s of CPU for `/proc`), as a
/// machine loaded with other builds may take ten times that.
const WAIT: Duration = Duration::from_secs(300);

/// `apcheck ARGS`: its exit code and what it wrote (stdout, then stderr);
/// a run still going after [`WAIT`] is killed and the test fails.
fn apcheck_within(args: &[&str]) -> (i32, String) {
    let out = tempfile::tempfile().unwrap();
    let err = tempfile::tempfile().unwrap();
    let mut child = apcheck(args)
        .command()
        .stdin(Stdio::null())
        // Files, not pipes: a run that writes a lot never waits on a full pipe.
        .stdout(out.try_clone().unwrap())
        .stderr(err.try_clone().unwrap())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + WAIT;
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("`apcheck {}` has not finished within {WAIT:?}", args.join(" "));
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let read = |mut file: std::fs::File| {
        let mut text = String::new();
        file.rewind().unwrap();
        file.read_to_string(&mut text).unwrap();
        text
    };
    let output = read(out) + &read(err);
    let code = status
        .code()
        .unwrap_or_else(|| panic!("`apcheck {}`: {status}", args.join(" ")));
    assert!(!output.contains("panicked"), "{output}");
    (code, output)
}

fn mkfifo(path: &Path) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let name = std::ffi::CString::new(path.as_os_str().as_encoded_bytes()).unwrap();
    assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o644) }, 0, "{}", path.display());
}

/// A snapshot of a small valid package, for `drift` and `check-snapshot`.
fn a_snapshot(dir: &Path) -> String {
    let root = dir.join("valid");
    std::fs::create_dir_all(&root).unwrap();
    std::fs::write(
        root.join("plugin.json"),
        r#"{"$schema": "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json", "name": "valid"}"#,
    )
    .unwrap();
    let snapshot = dir.join("snapshot.json");
    let (code, output) = apcheck_within(&[
        "snapshot",
        root.to_str().unwrap(),
        "--output",
        snapshot.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{output}");
    snapshot.to_str().unwrap().to_string()
}

#[cfg(target_os = "linux")]
#[test]
fn the_commands_that_read_every_file_of_a_package_finish_on_proc() {
    // `check` reads only what a client loads, and finished before the fix too.
    let dir = tempfile::tempdir().unwrap();
    let snapshot = a_snapshot(dir.path());
    // One at a time: each holds a few hundred MB of what /proc holds.
    for args in [
        &["snapshot", "/proc"][..],
        &["drift", &snapshot, "/proc"],
        &["check-snapshot", &snapshot, "--plugin", "/proc"],
    ] {
        apcheck_within(args);
    }
}

#[test]
fn fifos_in_a_package_are_reported_never_opened() {
    let dir = tempfile::tempdir().unwrap();
    let snapshot = a_snapshot(dir.path());
    let root = dir.path().join("fifos");
    for file in ["plugin.json", "mcp.json", "skills/review/SKILL.md", "apcheck.toml"] {
        mkfifo(&root.join(file));
    }
    let root = root.to_str().unwrap();
    for args in [&["check", root][..], &["snapshot", root], &["drift", &snapshot, root]] {
        let (code, output) = apcheck_within(args);
        assert_ne!(code, 0, "{args:?}: {output}");
        assert!(output.contains("FIFO"), "{args:?}: {output}");
    }
    // Its checks look at the snapshot's skills, which has none: nothing to say of the FIFOs.
    apcheck_within(&["check-snapshot", &snapshot, "--plugin", root]);
}

#[test]
fn a_baseline_that_is_a_fifo_is_refused_not_waited_on() {
    // A package's own apcheck.toml names its baseline: `check` waited for a writer.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("plugin.json"),
        r#"{"$schema": "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json", "name": "p"}"#,
    )
    .unwrap();
    std::fs::write(dir.path().join("apcheck.toml"), "baseline = \"baseline.json\"\n").unwrap();
    mkfifo(&dir.path().join("baseline.json"));
    let (code, output) = apcheck_within(&["check", dir.path().to_str().unwrap()]);
    assert_eq!(code, 2, "{output}");
    assert!(
        output.contains("baseline.json: not a regular file (a FIFO)"),
        "{output}"
    );
}
