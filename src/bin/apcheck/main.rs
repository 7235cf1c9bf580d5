//! The `apcheck` command line: reads disk into trees, calls the core, renders,
//! and sets the exit code (0 clean, 1 findings at error level, 2 usage or I/O).
//! Each subcommand lives in its own module with its `Args` and `run`.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod check;
mod output;
mod fmt;
mod rules_cmd;
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
    /// Pretty-print or minify JSON, keeping numbers and strings as written.
    Fmt(fmt::FmtArgs),
    /// Validate JSON documents against a JSON Schema (a file or a built-in), every error at its line.
    Validate(validate::ValidateArgs),
}

fn main() -> ExitCode {
    // On a usage error clap prints it and exits 2, our code for usage failures.
    let cli = Cli::parse();
    match cli.command {
        Command::Check(args) => check::run(args),
        Command::Rules(args) => rules_cmd::rules(args),
        Command::Explain(args) => rules_cmd::explain(args),
        Command::Fmt(args) => fmt::fmt(args),
        Command::Validate(args) => validate::validate(args),
    }
}
