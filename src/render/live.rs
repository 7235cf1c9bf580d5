//! `--connect`'s human report on stderr: a progress line per server as it
//! finishes, then one summary line per server. Server text (ids, protocol
//! versions, reasons, stderr) is untrusted and reaches a terminal only
//! through [`visible`], so a server cannot send escape sequences to it.

use super::escape::{github_log_text, visible};
use crate::rules::live::{Attempt, milliseconds};

/// `connected` or `failed`.
pub fn status_word(attempt: &Attempt) -> &'static str {
    if attempt.outcome.is_ok() { "connected" } else { "failed" }
}

/// `apcheck: connecting to 5 server(s) of ROOT…`, before the first.
pub fn started_line(servers: usize, root: &str) -> String {
    format!("apcheck: connecting to {servers} server(s) of {}…\n", visible(root))
}

/// `  [2/5] id connected`: one server done, of `servers`.
pub fn progress_line(attempt: &Attempt, done: usize, servers: usize) -> String {
    format!(
        "  [{done}/{servers}] {} {}\n",
        visible(&attempt.id),
        status_word(attempt)
    )
}

/// One line per server: status, id, transport, protocol, tools, time; a
/// failed server's reason and stderr below it.
pub fn summary(attempts: &[Attempt]) -> String {
    let width = attempts.iter().map(|a| a.id.len()).max().unwrap_or(0);
    let mut text = String::new();
    for attempt in attempts {
        let time = milliseconds(attempt.elapsed);
        match &attempt.outcome {
            Ok(listed) => text.push_str(&format!(
                "connected  {:width$}  {:15}  {}  {:>4} tools  {time}\n",
                visible(&attempt.id),
                attempt.transport,
                visible(&listed.protocol_version),
                listed.tools.len()
            )),
            Err(reason) => {
                // GitHub's runner trims a log line before it looks for `::`, so
                // a reason on a line of its own must not start with it.
                text.push_str(&format!(
                    "failed     {:width$}  {:15}  {time}\n           {}\n",
                    visible(&attempt.id),
                    attempt.transport,
                    github_log_text(reason)
                ));
                for line in attempt.stderr.lines().filter(|l| !l.trim().is_empty()) {
                    text.push_str(&format!("           stderr: {}\n", visible(line)));
                }
            }
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::rules::live::Listed;

    fn attempt(id: &str, outcome: Result<Listed, String>, stderr: &str) -> Attempt {
        Attempt {
            id: id.to_string(),
            transport: "stdio".to_string(),
            outcome,
            elapsed: Duration::from_millis(12),
            stderr: stderr.to_string(),
        }
    }

    #[test]
    fn each_server_gets_a_line_aligned_by_id() {
        let listed = Listed {
            protocol_version: "2025-11-25".to_string(),
            server_info: None,
            tools: vec![serde_json::Map::new(); 3],
        };
        let out = summary(&[
            attempt("a", Ok(listed), ""),
            attempt("longer", Err("exited".to_string()), "boom\n\n"),
        ]);
        assert_eq!(
            out,
            "connected  a       stdio            2025-11-25     3 tools  12 ms\n\
             failed     longer  stdio            12 ms\n           exited\n           stderr: boom\n"
        );
    }

    #[test]
    fn server_text_cannot_reach_the_terminal_raw() {
        let failed = attempt("x\u{1b}]0;owned\u{7}", Err("bad\u{1b}[2J".to_string()), "\u{9b}31m");
        let out = summary(std::slice::from_ref(&failed)) + &progress_line(&failed, 1, 1);
        assert!(!out.chars().any(|c| c.is_control() && c != '\n'), "{out:?}");
        assert!(out.ends_with("  [1/1] x\\u{1b}]0;owned\\u{7} failed\n"), "{out:?}");
        let forged = attempt("x", Err("::error file=a,line=1::forged".to_string()), "");
        let out = summary(&[forged]);
        assert!(out.lines().all(|line| !line.trim_start().starts_with("::")), "{out}");
    }
}
