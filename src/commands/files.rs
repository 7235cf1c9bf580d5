//! The I/O-free half of the commands that write a package, `apcheck new` and
//! `apcheck port`: from the names and the tree a face has, to the files to
//! write and what is said once they are written. The face checks where they
//! go and writes them (never over anything without `--force`, never through a
//! link); the CLI and the npm package's `apcheck` both call these, so the two
//! write the same files and print the same bytes.

use std::path::Path;

use crate::commands::documents::{Streams, line};
use crate::exit::Exit;
use crate::port::{PortOptions, Ported, Vendor, port};
use crate::render::count;
use crate::render::escape::visible;
use crate::rules::mcp::split_command_line;
use crate::scaffold::{NewPackage, NewServer, NewTransport, new_package};
use crate::tree::Tree;

/// `apcheck new PATH`'s files, as (path relative to PATH, text) in path order:
/// the plugin is named by PATH's last part; `stdio_servers` and
/// `http_servers` are the `--stdio-server ID CMD` and `--http-server ID URL`
/// values, in pairs. Or the streams to end with (exit 2): a PATH that names
/// no directory, a command line that is none, or the findings a check of the
/// package would have.
pub fn new_files(
    path: &str,
    skills: &[String],
    stdio_servers: &[String],
    http_servers: &[String],
) -> Result<Vec<(String, String)>, Streams> {
    let Some(name) = Path::new(path).file_name().and_then(|name| name.to_str()) else {
        return Err(Streams::failure(line(format!(
            "{path}: name the new package's directory, such as `invoice-ops`"
        ))));
    };
    let mut servers = Vec::new();
    for pair in stdio_servers.chunks(2) {
        let [id, command_line] = pair else { continue };
        let Some((command, args)) = split_command_line(command_line) else {
            return Err(Streams::failure(line(format!(
                "--stdio-server {id}: `{command_line}` is not a command line (empty, or an unclosed quote)"
            ))));
        };
        servers.push(NewServer {
            id: id.clone(),
            transport: NewTransport::Stdio { command, args },
        });
    }
    for pair in http_servers.chunks(2) {
        let [id, url] = pair else { continue };
        servers.push(NewServer {
            id: id.clone(),
            transport: NewTransport::Http { url: url.clone() },
        });
    }
    let request = NewPackage {
        name: name.to_string(),
        skills: skills.to_vec(),
        servers,
    };
    // One finding per line, each escaped on its own: escaping the whole
    // message would show its line breaks as `\u{a}`.
    new_package(&request).map_err(|message| Streams::failure(message.lines().map(line).collect()))
}

/// What `apcheck new PATH` says once `files` are written: each file's path on
/// standard output, and on standard error that `apcheck check` finds nothing.
pub fn new_written(path: &str, files: &[(String, String)]) -> Streams {
    // PATH is the user's, and may hold any character: escaped as every path we print.
    let stdout = files
        .iter()
        .map(|(file, _)| format!("{}\n", visible(&Path::new(path).join(file).display().to_string())))
        .collect();
    let stderr = line(format!(
        "wrote {} in {path}; `apcheck check {path}` finds nothing",
        count(files.len(), "file", "files"),
    ));
    Streams {
        stdout,
        stderr,
        exit: Exit::Clean,
    }
}

/// `apcheck port SRC`: the package of the vendor plugin `tree` read from
/// `source` (as named on the command line), from the layout `from` (`claude`,
/// `codex`, `cursor`, `gemini`; by default the first there) and named `name`
/// when given. Or the streams to end with: no vendor plugin there (exit 1).
pub fn port_files(source: &str, tree: &Tree, from: Option<&str>, name: Option<&str>) -> Result<Ported, Streams> {
    let options = PortOptions {
        from: from.and_then(Vendor::from_name),
        name: name.map(str::to_string),
    };
    port(tree, &options).map_err(|why| Streams {
        stdout: String::new(),
        stderr: line(format!("{source}: {why}; nothing to port")),
        exit: Exit::Findings,
    })
}

/// What `apcheck port SRC -o DEST` says once the package is written (or,
/// with `dry_run`, would be): each file's path under `dest` on standard
/// output; on standard error what was not carried over, what was written,
/// and what a check of the package finds.
pub fn port_written(source: &str, dest: &str, ported: &Ported, dry_run: bool) -> Streams {
    let stdout = ported
        .files
        .iter()
        .map(|(file, _)| format!("{}\n", visible(&Path::new(dest).join(file).display().to_string())))
        .collect();
    let mut stderr = String::new();
    for note in &ported.notes {
        let at = if note.pointer.is_empty() {
            String::new()
        } else {
            format!("#{}", note.pointer)
        };
        stderr.push_str(&line(format!("not carried over: {}{at}: {}", note.file, note.why)));
    }
    let verb = if dry_run { "would write" } else { "wrote" };
    stderr.push_str(&line(format!(
        "{verb} {} from the {} plugin in {source} to {dest}",
        count(ported.files.len(), "file", "files"),
        ported.vendor.label(),
    )));
    if ported.findings.is_empty() {
        stderr.push_str(&line("a check of the package finds nothing"));
    } else {
        stderr.push_str(&line(format!(
            "a check of the package finds {}, from the source:",
            count(ported.findings.len(), "thing", "things")
        )));
        for finding in &ported.findings {
            let file = finding.file.as_deref().unwrap_or("plugin");
            stderr.push_str(&line(format!("  {file}: {} {}", finding.code, finding.message)));
        }
    }
    Streams {
        stdout,
        stderr,
        exit: Exit::Clean,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_new_says_escapes_the_path_the_user_typed() {
        let files = [("plugin.json".to_string(), String::new())];
        let said = new_written("pkg\u{1b}[2J", &files);
        for stream in [&said.stdout, &said.stderr] {
            assert!(!stream.contains('\u{1b}'), "{stream:?}");
            assert!(stream.contains(r"pkg\u{1b}[2J"), "{stream:?}");
        }
        assert_eq!(
            new_written("pkg", &files).stderr,
            "apcheck: wrote 1 file in pkg; `apcheck check pkg` finds nothing\n"
        );
    }
}
