//! `apcheck rules` and `apcheck explain CODE`: the registry's docs, as text or JSON.

use std::process::ExitCode;

use apcheck::rules::{self, Rule};

#[derive(clap::Args)]
pub struct RulesArgs {
    /// Print the registry as JSON (the page reads the same data).
    #[arg(long)]
    json: bool,
}

#[derive(clap::Args)]
pub struct ExplainArgs {
    /// A rule code (`AP201`) or name (`manifest-name-invalid`).
    code: String,
    #[arg(long)]
    json: bool,
}

pub fn rules(args: RulesArgs) -> ExitCode {
    let all: Vec<&Rule> = rules::all().collect();
    if args.json {
        println!("{}", serde_json::to_string_pretty(&all).expect("rules serialize"));
    } else {
        for rule in all {
            println!(
                "{:<6} {:<8} {:<24} {}",
                rule.code,
                rule.severity.as_str(),
                rule.spec,
                rule.summary
            );
        }
    }
    ExitCode::SUCCESS
}

pub fn explain(args: ExplainArgs) -> ExitCode {
    let Some(rule) = rules::find(&args.code) else {
        eprintln!("apcheck: no rule named `{}`; `apcheck rules` lists them", args.code);
        return ExitCode::from(2);
    };
    if args.json {
        println!("{}", serde_json::to_string_pretty(rule).expect("a rule serializes"));
    } else {
        print!("{}", rules::explain_text(rule));
    }
    ExitCode::SUCCESS
}
