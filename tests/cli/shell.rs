//! `apcheck completions SHELL` and `apcheck man [SUBCOMMAND]` through the real
//! binary: generated from the clap definitions, so every subcommand and flag
//! the CLI has is in them.

use crate::support::{apcheck, stdout};

#[test]
fn completions_name_every_subcommand_in_each_shell() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let output = apcheck(&["completions", shell]).output();
        assert_eq!(output.status.code(), Some(0), "{shell}");
        let script = stdout(&output);
        for subcommand in [
            "check",
            "check-snapshot",
            "drift",
            "changes",
            "lsp",
            "completions",
            "man",
        ] {
            assert!(script.contains(subcommand), "{shell} completions lack {subcommand}");
        }
    }
    let bash = stdout(&apcheck(&["completions", "bash"]).output());
    assert!(
        bash.contains("--unsafe-fixes") && bash.contains("--connect"),
        "check's flags complete"
    );
}

#[test]
fn an_unknown_shell_is_a_usage_error() {
    assert_eq!(apcheck(&["completions", "tcsh"]).output().status.code(), Some(2));
}

#[test]
fn man_pages_for_the_tool_and_for_each_subcommand() {
    let top = stdout(&apcheck(&["man"]).output());
    assert!(top.contains(".TH apcheck 1"), "{top}");
    assert!(top.contains("check\\-snapshot"), "the top page lists the subcommands");

    let check = apcheck(&["man", "check"]).output();
    assert_eq!(check.status.code(), Some(0));
    let check = stdout(&check);
    assert!(check.contains(".TH apcheck-check 1"), "{check}");
    assert!(
        check.contains("\\fBapcheck check\\fR"),
        "the synopsis names the full command"
    );
    assert!(check.contains("\\-\\-unsafe\\-fixes"), "check's options are documented");

    let unknown = apcheck(&["man", "nope"]).output();
    assert_eq!(unknown.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&unknown.stderr).contains("no subcommand `nope`"));
}
