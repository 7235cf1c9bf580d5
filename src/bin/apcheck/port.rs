//! `apcheck port SRC -o DEST`: the edge of `apcheck::port`, which decides the
//! package's files and what is not carried over; this reads SRC and writes
//! the files under DEST, and nowhere else.

use std::fs;
use std::io::Write;
use std::path::{Component, Path, PathBuf};
use std::process::ExitCode;

use apcheck::commands::files;
use apcheck::disk::read_tree;
use apcheck::tree::Limits;

use crate::output;

#[derive(clap::Args)]
pub struct PortArgs {
    /// The vendor plugin's folder (Claude Code, Codex, Cursor or Gemini CLI layout).
    #[arg(value_name = "SRC")]
    source: PathBuf,
    /// Where the Agent Plugins package is written: a folder that does not
    /// exist or is empty (default: `SRC-agent-plugin`).
    #[arg(short = 'o', long = "output", value_name = "DEST")]
    dest: Option<PathBuf>,
    /// Read this layout when SRC has several (default: the first of claude, codex, cursor, gemini).
    #[arg(long, value_name = "VENDOR", value_parser = ["claude", "codex", "cursor", "gemini"])]
    from: Option<String>,
    /// The plugin's name, in place of the source's (when it lacks one or breaks §5.5).
    #[arg(long, value_name = "NAME")]
    name: Option<String>,
    /// Write into a DEST that is not empty, replacing the files the package has.
    #[arg(long)]
    force: bool,
    /// Print what would be written, and write nothing.
    #[arg(long)]
    dry_run: bool,
}

pub fn run(args: PortArgs) -> ExitCode {
    let tree = match read_tree(&args.source, Limits::default()) {
        Ok(tree) => tree,
        Err(error) => return output::fail(format!("{}: {error}", args.source.display())),
    };
    let source = args.source.display().to_string();
    let ported = match files::port_files(&source, &tree, args.from.as_deref(), args.name.as_deref()) {
        Ok(ported) => ported,
        Err(streams) => return output::streams(streams),
    };
    let dest = args.dest.clone().unwrap_or_else(|| default_dest(&args.source));
    if !args.dry_run
        && let Err(message) = write_package(&args.source, &dest, &ported.files, args.force)
    {
        return output::fail(message);
    }
    let said = files::port_written(&source, &dest.display().to_string(), &ported, args.dry_run);
    output::streams(said)
}

/// `plugins/x` → `plugins/x-agent-plugin`, beside the source.
fn default_dest(source: &Path) -> PathBuf {
    let name = source
        .canonicalize()
        .ok()
        .and_then(|real| real.file_name().map(|name| name.to_os_string()))
        .unwrap_or_else(|| "plugin".into());
    let mut dest = name;
    dest.push("-agent-plugin");
    source
        .canonicalize()
        .ok()
        .and_then(|real| real.parent().map(|parent| parent.join(&dest)))
        .unwrap_or(dest.into())
}

/// Writes `files` under `dir`. Without `force`, `dir` must not exist or be
/// empty and every file is created new; with it, files of the package
/// replace those there. Either way no path leaves `dir`: each is a plain
/// relative path, and no link under `dir` is written through.
fn write_package(source: &Path, dir: &Path, files: &[(String, Vec<u8>)], force: bool) -> Result<(), String> {
    let shown = dir.display();
    match fs::read_dir(dir).map(|mut entries| entries.next().is_none()) {
        Ok(false) if !force => {
            return Err(format!(
                "{shown} already exists and is not empty; give an empty folder, or --force to write into it"
            ));
        }
        Ok(_) => {}
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {}
        Err(_) if dir.exists() => return Err(format!("{shown} exists and is not a folder")),
        Err(error) => return Err(format!("{shown}: {error}")),
    }
    for (file, bytes) in files {
        let relative = Path::new(file);
        if !relative.components().all(|part| matches!(part, Component::Normal(_))) {
            return Err(format!("{file}: not a path inside {shown}"));
        }
        let path = dir.join(relative);
        let mut walked = dir.to_path_buf();
        for part in relative.components() {
            walked.push(part);
            if fs::symlink_metadata(&walked).is_ok_and(|meta| meta.file_type().is_symlink()) {
                return Err(format!("{}: a link; port never writes through one", walked.display()));
            }
        }
        let written = path
            .parent()
            .map_or(Ok(()), fs::create_dir_all)
            .and_then(|()| {
                let mut open = fs::OpenOptions::new();
                open.write(true);
                if force {
                    open.create(true).truncate(true);
                } else {
                    open.create_new(true);
                }
                open.open(&path)
            })
            .and_then(|mut created| created.write_all(bytes));
        written.map_err(|error| format!("{}: {error}", path.display()))?;
        // plugin.json and mcp.json are port's own, whatever a source file of that name is.
        if !matches!(file.as_str(), "plugin.json" | "mcp.json") {
            keep_executable(&source.join(relative), &path).map_err(|error| format!("{}: {error}", path.display()))?;
        }
    }
    Ok(())
}

/// A script copied from the source stays executable (the tree carries bytes,
/// not modes).
#[cfg(unix)]
fn keep_executable(source: &Path, written: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    match fs::symlink_metadata(source) {
        Ok(meta) if meta.is_file() && meta.permissions().mode() & 0o111 != 0 => {
            let mode = fs::metadata(written)?.permissions().mode() | (meta.permissions().mode() & 0o111);
            fs::set_permissions(written, fs::Permissions::from_mode(mode))
        }
        _ => Ok(()),
    }
}

#[cfg(not(unix))]
fn keep_executable(_: &Path, _: &Path) -> std::io::Result<()> {
    Ok(())
}
