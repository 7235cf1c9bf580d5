//! `apcheck new NAME`: the edge of `apcheck::scaffold`, which decides the
//! files (and refuses names the rules reject); this writes them into a new
//! directory, never over anything that is there.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use apcheck::rules::mcp::split_command_line;
use apcheck::scaffold::{NewPackage, NewServer, NewTransport, new_package};
use clap::ArgAction;

use crate::output::{self, EXIT_CLEAN};

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
    let Some(name) = args.path.file_name().and_then(|name| name.to_str()) else {
        return output::fail(format!(
            "{}: name the new package's directory, such as `invoice-ops`",
            args.path.display()
        ));
    };
    let mut servers = Vec::new();
    for pair in args.stdio_servers.chunks(2) {
        let [id, command_line] = pair else { continue };
        let Some((command, args)) = split_command_line(command_line) else {
            return output::fail(format!(
                "--stdio-server {id}: `{command_line}` is not a command line (empty, or an unclosed quote)"
            ));
        };
        servers.push(NewServer {
            id: id.clone(),
            transport: NewTransport::Stdio { command, args },
        });
    }
    for pair in args.http_servers.chunks(2) {
        let [id, url] = pair else { continue };
        servers.push(NewServer {
            id: id.clone(),
            transport: NewTransport::Http { url: url.clone() },
        });
    }
    let request = NewPackage {
        name: name.to_string(),
        skills: args.skills,
        servers,
    };
    let files = match new_package(&request) {
        Ok(files) => files,
        Err(message) => {
            // One finding per line, each escaped on its own: escaping the whole
            // message would show its line breaks as `\u{a}`.
            for line in message.lines() {
                output::say(line);
            }
            return ExitCode::from(output::EXIT_FAILURE);
        }
    };
    if let Err(message) = write_new(&args.path, &files) {
        return output::fail(message);
    }
    let mut listing = String::new();
    for (file, _) in &files {
        listing.push_str(&format!("{}\n", args.path.join(file).display()));
    }
    if let Err(code) = output::print(&listing) {
        return code;
    }
    eprintln!(
        "apcheck: wrote {} in {}; `apcheck check {}` finds nothing",
        apcheck::render::count(files.len(), "file", "files"),
        args.path.display(),
        args.path.display()
    );
    ExitCode::from(EXIT_CLEAN)
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
