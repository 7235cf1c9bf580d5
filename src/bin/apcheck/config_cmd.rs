//! `apcheck config --show [PATH]`: the configuration a check of PATH would
//! use, merged with the flags given, and where each value came from.

use std::path::PathBuf;
use std::process::ExitCode;

use crate::output;
use crate::settings::{self, ConfigArgs};

#[derive(clap::Args)]
pub struct ConfigCmdArgs {
    /// Print the merged configuration with the origin of each value.
    #[arg(long, required = true)]
    show: bool,
    /// The path whose configuration to show (found by walking up from it).
    #[arg(default_value = ".")]
    path: PathBuf,
    #[command(flatten)]
    config: ConfigArgs,
}

pub fn run(args: ConfigCmdArgs) -> ExitCode {
    match settings::load(&args.path, &args.config) {
        Ok(loaded) => {
            output::print(&loaded.settings.show()).map_or_else(|code| code, |()| ExitCode::from(output::EXIT_CLEAN))
        }
        Err(message) => output::fail(message),
    }
}
