//! `apcheck new NAME`: the edge of `apcheck::scaffold`, which decides the
//! files (and refuses names the rules reject); this writes them into a new
//! directory, never over anything that is there.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use apcheck::commands::files;
use clap::ArgAction;

use crate::output;

#[derive(clap::Args)]
pub struct NewArgs {
    /// The plugin's name, and the new directory it is written to; a path
    /// (`plugins/invoice-ops`) names the directory, and its last part the plugin.
    #[arg(value_name = "NAME")]
    path: PathBuf,
    /// Add the skill `skills/NAME/SKILL.md` (repeatable).
    #[arg(long = "skill", value_name = "NAME")]
    skills: Vec<String>,
    /// Add a local server to mcp.json: its id and its command line, split as a
    /// shell would (`--stdio-server tools "uvx invoice-tools --read-only"`). Repeatable.
    #[arg(long = "stdio-server", num_args = 2, value_names = ["ID", "CMD"], action = ArgAction::Append)]
    stdio_servers: Vec<String>,
    /// Add a remote Streamable HTTP server to mcp.json: its id and URL. Repeatable.
    #[arg(long = "http-server", num_args = 2, value_names = ["ID", "URL"], action = ArgAction::Append)]
    http_servers: Vec<String>,
}

pub fn run(args: NewArgs) -> ExitCode {
    let path = args.path.display().to_string();
    let files = match files::new_files(&path, &args.skills, &args.stdio_servers, &args.http_servers) {
        Ok(files) => files,
        Err(streams) => return output::streams(streams),
    };
    if let Err(message) = write_new(&args.path, &files) {
        return output::fail(message);
    }
    output::streams(files::new_written(&path, &files))
}

/// Writes `files` under `dir`, which must not exist or be an empty directory;
/// each file is created new, so nothing there is ever replaced.
fn write_new(dir: &Path, files: &[(String, String)]) -> Result<(), String> {
    let shown = dir.display();
    match fs::read_dir(dir).map(|mut entries| entries.next().is_none()) {
        Ok(false) => {
            return Err(format!(
                "{shown} already exists and is not empty; apcheck new never overwrites"
            ));
        }
        Ok(true) => {}
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {}
        Err(_) if dir.exists() => {
            return Err(format!("{shown} already exists; apcheck new never overwrites"));
        }
        Err(error) => return Err(format!("{shown}: {error}")),
    }
    for (file, text) in files {
        let path = dir.join(file);
        let written = path
            .parent()
            .map_or(Ok(()), fs::create_dir_all)
            .and_then(|()| fs::OpenOptions::new().write(true).create_new(true).open(&path))
            .and_then(|mut created| created.write_all(text.as_bytes()));
        written.map_err(|error| format!("{}: {error}", path.display()))?;
    }
    Ok(())
}
