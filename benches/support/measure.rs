//! What the benchmarks measure the same way: the median of timed runs, and the
//! peak resident memory of one `apcheck` process.

use std::ffi::OsStr;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The median of `runs` timed calls of `run`, after one untimed call that
/// warms the page cache and the allocator.
pub fn median(runs: usize, mut run: impl FnMut()) -> Duration {
    run();
    let mut times: Vec<Duration> = (0..runs)
        .map(|_| {
            let start = Instant::now();
            run();
            start.elapsed()
        })
        .collect();
    times.sort();
    times[runs / 2]
}

/// The peak resident memory, in MB, of `apcheck ARGS…` as `/usr/bin/time -v`
/// reports it; `None` where that tool is missing.
#[allow(dead_code, reason = "benches/npm.rs times runs, it does not measure memory")]
pub fn peak_resident_mb<S: AsRef<OsStr>>(args: impl IntoIterator<Item = S>) -> Option<u64> {
    let output = Command::new("/usr/bin/time")
        .arg("-v")
        .arg(env!("CARGO_BIN_EXE_apcheck"))
        .args(args)
        .stdout(Stdio::null())
        .output()
        .ok()?;
    let report = String::from_utf8_lossy(&output.stderr);
    let kilobytes: u64 = report
        .lines()
        .find_map(|line| line.trim().strip_prefix("Maximum resident set size (kbytes): "))?
        .parse()
        .ok()?;
    Some(kilobytes.div_ceil(1024))
}
