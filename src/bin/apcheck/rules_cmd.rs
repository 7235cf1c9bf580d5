//! `apcheck rules` and `apcheck explain CODE`: the registry's docs, as text or JSON.

use std::process::ExitCode;

use apcheck::registry;
use apcheck::render::rules;
use apcheck::rule::Rule;

use crate::output::{self, DocFormat};

#[derive(clap::Args)]
pub struct RulesArgs {
    /// `json` prints the registry as the page reads it.
    #[arg(long, value_enum, default_value_t = DocFormat::Text)]
    format: DocFormat,
}

#[derive(clap::Args)]
pub struct ExplainArgs {
    /// A rule code (`AP201`) or name (`manifest-name-invalid`).
    code: String,
    #[arg(long, value_enum, default_value_t = DocFormat::Text)]
    format: DocFormat,
}

pub fn rules(args: RulesArgs) -> ExitCode {
    let all: Vec<&Rule> = registry::all().collect();
    let text = match args.format {
        DocFormat::Json => rules::json(&all),
        DocFormat::Text => rules::table(&all),
    };
    output::print(&text).map_or_else(|code| code, |()| ExitCode::from(output::EXIT_CLEAN))
}

pub fn explain(args: ExplainArgs) -> ExitCode {
    let Some(rule) = registry::find(&args.code) else {
        return output::fail(format!("no rule named `{}`; `apcheck rules` lists them", args.code));
    };
    let text = match args.format {
        DocFormat::Json => rules::json(rule),
        DocFormat::Text => rules::explain(rule),
    };
    output::print(&text).map_or_else(|code| code, |()| ExitCode::from(output::EXIT_CLEAN))
}
