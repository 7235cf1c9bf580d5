//! The `apcheck` command line: reads disk into trees, calls the core, renders,
//! and sets the exit code (0 clean, 1 findings at error level, 2 usage or I/O).
//! Each subcommand lives in its own module with its `Args` and `run`.

use std::process::ExitCode;

use clap::{CommandFactory, Parser, Subcommand};

mod call;
mod changes;
mod check;
mod check_snapshot;
mod config_cmd;
mod connect;
mod diff;
mod drift;
mod fix;
mod fmt;
mod lsp;
mod new;
mod output;
mod port;
mod rules_cmd;
mod settings;
mod shell;
mod snapshot;
mod validate;

#[derive(Parser)]
#[command(
    name = "apcheck",
    version,
    about = "Check Agent Plugins packages and capability snapshots, on your own device"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Check plugin roots (or folders of them) as a conformant client would load them.
    Check(check::CheckArgs),
    /// List every rule: code, severity, name, spec section, one line.
    Rules(rules_cmd::RulesArgs),
    /// Print a rule's doc with a failing and a fixed example.
    Explain(rules_cmd::ExplainArgs),
    /// Show the configuration (apcheck.toml, pyproject.toml, flags) a check would use.
    Config(config_cmd::ConfigCmdArgs),
    /// Pretty-print or minify JSON, keeping numbers and strings as written.
    Fmt(fmt::FmtArgs),
    /// Validate JSON documents against a JSON Schema (a file or a built-in), every error at its line.
    Validate(validate::ValidateArgs),
    /// Build the capability snapshot a client would hold after loading a plugin.
    Snapshot(snapshot::SnapshotArgs),
    /// Lint capability snapshots (CI fixtures).
    CheckSnapshot(check_snapshot::CheckSnapshotArgs),
    /// Compare a snapshot with its packaging files and say which side to fix.
    Drift(drift::DriftArgs),
    /// Report the changes between two snapshots and hold them against the version bump.
    Changes(changes::ChangesArgs),
    /// Validate tools/call arguments against a tool's inputSchema in a snapshot.
    Call(call::CallArgs),
    /// Structural diff of two JSON documents: paths, JSON Patch, merge patch or unified text.
    Diff(diff::DiffArgs),
    /// Run the language server over stdio: findings as you type, quick fixes, hover and completion.
    Lsp(lsp::LspArgs),
    /// Write a new plugin package that checks clean: manifest, skills, mcp.json.
    New(new::NewArgs),
    /// Write the Agent Plugins package of a Claude Code, Codex, Cursor or Gemini CLI plugin, and say what is left behind.
    Port(port::PortArgs),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell).
    Completions(shell::CompletionsArgs),
    /// Print the man page, apcheck(1), in roff.
    Man(shell::ManArgs),
}

fn main() -> ExitCode {
    // On a usage error clap prints it and exits 2, our code for usage failures.
    let cli = Cli::parse();
    match cli.command {
        Command::Check(args) => check::run(args),
        Command::Rules(args) => rules_cmd::rules(args),
        Command::Explain(args) => rules_cmd::explain(args),
        Command::Config(args) => config_cmd::run(args),
        Command::Fmt(args) => fmt::fmt(args),
        Command::Validate(args) => validate::validate(args),
        Command::Snapshot(args) => snapshot::run(args),
        Command::CheckSnapshot(args) => check_snapshot::run(args),
        Command::Drift(args) => drift::run(args),
        Command::Changes(args) => changes::run(args),
        Command::Call(args) => call::run(args),
        Command::Diff(args) => diff::diff(args),
        Command::Lsp(args) => lsp::run(args),
        Command::New(args) => new::run(args),
        Command::Port(args) => port::run(args),
        Command::Completions(args) => shell::completions(args, Cli::command()),
        Command::Man(args) => shell::man(args, Cli::command()),
    }
}
