//! `--connect` for `snapshot` and `check`: the options, the run, and the
//! human summary on stderr (progress too, on a terminal). The connecting
//! itself is `apcheck::live`.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::Duration;

use apcheck::PackageReport;
use apcheck::live::{self, Progress, Run};
use apcheck::render::live::{progress_line, started_line, summary};

/// The help text every `--connect` carries.
pub const CONNECT_HELP: &str = "Launch or contact every valid MCP server of mcp.json, as a conformant client would, \
    and list its tools. THIS RUNS CODE FROM THE PACKAGE (stdio servers are started as local processes) and \
    contacts the URLs it names. Without --connect, nothing is ever launched or contacted";

#[derive(clap::Args, Debug, Clone)]
pub struct ConnectArgs {
    #[arg(long, help = CONNECT_HELP)]
    pub connect: bool,
    /// The PLUGIN_DATA directory for stdio servers (created if missing); default: a fresh directory, reported on stderr.
    #[arg(long, value_name = "DIR", requires = "connect")]
    pub data: Option<PathBuf>,
    /// Seconds each server has to start, finish the handshake and list its tools.
    #[arg(long, value_name = "SECS", default_value_t = 10.0, requires = "connect", value_parser = parse_timeout)]
    pub timeout: f64,
    /// Connect only to this server id; repeatable. Default: every valid server.
    #[arg(long = "server", value_name = "ID", requires = "connect")]
    pub servers: Vec<String>,
    /// Give stdio servers apcheck's whole environment, not only PATH, HOME, LANG, TMPDIR and the like.
    #[arg(long, requires = "connect")]
    pub inherit_env: bool,
}

fn parse_timeout(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(secs) if secs > 0.0 && secs.is_finite() && secs <= 3600.0 => Ok(secs),
        _ => Err(format!("`{text}` is not a number of seconds between 0 and 3600")),
    }
}

/// Connects to the servers of the plugin at `dir`, printing progress and a
/// summary per server on stderr. The error is a usage or I/O failure.
pub fn run(dir: &Path, report: &PackageReport, args: &ConnectArgs) -> Result<Run, String> {
    let options = live::Options {
        timeout: Duration::from_secs_f64(args.timeout),
        inherit_env: args.inherit_env,
        servers: args.servers.clone(),
    };
    for id in &args.servers {
        if !report.mcp.servers.iter().any(|s| s.id == *id) {
            return Err(format!("--server {id}: mcp.json has no server `{id}`"));
        }
    }
    let root = dir
        .canonicalize()
        .map_err(|e| format!("cannot resolve plugin root {}: {e}", dir.display()))?;
    // Kept to the end of this function: a temporary folder is removed when
    // it drops, after `live::connect` has reaped every server.
    let data_dir = if live::needs_data_dir(&report.package, &options) {
        Some(live::DataDir::new(args.data.as_deref())?)
    } else {
        None
    };
    if let Some(live::DataDir::Temporary { path, .. }) = &data_dir {
        eprintln!(
            "apcheck: PLUGIN_DATA for this run: {} (a temporary folder, removed when the run ends; pass --data DIR to keep one)",
            path.display()
        );
    }
    let data = match &data_dir {
        Some(dir) => dir.path().to_path_buf(),
        None => args.data.clone().unwrap_or_default(),
    };
    let places = live::Places { root, data };
    let on_terminal = std::io::stderr().is_terminal();
    let mut progress = |event: Progress| match event {
        Progress::Started { servers } if on_terminal => {
            eprint!("{}", started_line(servers, &dir.display().to_string()))
        }
        Progress::Finished { attempt, done, servers } if on_terminal => {
            eprint!("{}", progress_line(attempt, done, servers))
        }
        _ => {}
    };
    let run = live::connect(&report.package, &places, &options, &mut progress)?;
    eprint!("{}", summary(&run.attempts));
    if run.interrupted {
        eprintln!("apcheck: interrupted; every server process was stopped");
    }
    Ok(run)
}
