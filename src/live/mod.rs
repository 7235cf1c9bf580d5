//! `--connect`: apcheck as the MCP client a conformant Agent Plugins client is
//! (hop 4 done for real). Native only, and the only place apcheck starts
//! processes or opens connections. Each valid server of `mcp.json` is
//! launched (stdio) or contacted (streamable-http, legacy sse), handshaken
//! and listed, all in parallel, each bounded by its own timeout; what comes
//! back is data ([`Attempt`], declared in the core's `rules::live`) that the
//! core turns into a snapshot (`snapshot::build::build_connected`) or
//! findings ([`diagnostics`]).

mod plan;
mod raw;
mod remote;
mod session;
mod sse;
mod stdio;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use futures::StreamExt;
use futures::stream::FuturesUnordered;
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use serde_json::{Map, Value};
use tokio::sync::watch;

pub use crate::rules::live::{Attempt, Listed, RULES, diagnostics, milliseconds};
pub use plan::{BASE_ENV_ALLOW_LIST, Places};

use crate::report::{PackageReport, ServerState};
use crate::rules::mcp::Transport;
use crate::tree::Tree;

/// How long a server has, by default, to start, finish the handshake and list its tools.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);

#[derive(Debug, Clone)]
pub struct Options {
    pub timeout: Duration,
    /// Pass apcheck's whole environment to stdio servers, not just [`BASE_ENV_ALLOW_LIST`].
    pub inherit_env: bool,
    /// Only these server ids; all valid servers when empty.
    pub servers: Vec<String>,
}

/// What [`connect`] reports while it runs.
pub enum Progress<'a> {
    Started {
        servers: usize,
    },
    Finished {
        attempt: &'a Attempt,
        done: usize,
        servers: usize,
    },
}

/// Every attempt, in server id order, and whether Ctrl-C cut the run short.
pub struct Run {
    pub attempts: Vec<Attempt>,
    pub interrupted: bool,
}

/// Whether `report` has a server [`connect`] would try with `options`.
pub fn needs_data_dir(tree: &Tree, report: &PackageReport, options: &Options) -> bool {
    targets(tree, report, options).iter().any(|(_, config)| {
        config
            .get("type")
            .and_then(Value::as_str)
            .and_then(Transport::from_type)
            == Some(Transport::Stdio)
    })
}

/// The valid servers to try, with their `mcp.json` configuration.
fn targets(tree: &Tree, report: &PackageReport, options: &Options) -> Vec<(String, Map<String, Value>)> {
    let configs: Map<String, Value> = tree
        .read(crate::rules::mcp::MCP_PATH)
        .and_then(|bytes| serde_json::from_slice::<Value>(bytes).ok())
        .and_then(|doc| doc.get("mcpServers").and_then(Value::as_object).cloned())
        .unwrap_or_default();
    report
        .mcp
        .servers
        .iter()
        .filter(|entry| entry.state == ServerState::Valid)
        .filter(|entry| options.servers.is_empty() || options.servers.contains(&entry.id))
        .filter_map(|entry| Some((entry.id.clone(), configs.get(&entry.id)?.as_object()?.clone())))
        .collect()
}

/// Connects to every server of `report` (checked from `tree`, which was read
/// from `places.root`) and lists its tools.
pub fn connect(
    tree: &Tree,
    report: &PackageReport,
    places: &Places,
    options: &Options,
    progress: &mut dyn FnMut(Progress),
) -> Result<Run, String> {
    let targets = targets(tree, report, options);
    let base_env: Vec<(String, String)> = if options.inherit_env {
        std::env::vars().collect()
    } else {
        plan::allowed_env(std::env::vars())
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the connection runtime: {e}"))?;
    runtime.block_on(async {
        let (interrupt, interrupted) = watch::channel(false);
        let ctrl_c = tokio::spawn(async move {
            if tokio::signal::ctrl_c().await.is_ok() {
                let _ = interrupt.send(true);
            }
        });
        let servers = targets.len();
        progress(Progress::Started { servers });
        let mut running: FuturesUnordered<_> = targets
            .into_iter()
            .map(|(id, config)| attempt(id, config, places, &base_env, options.timeout, interrupted.clone()))
            .collect();
        let mut attempts = Vec::with_capacity(servers);
        while let Some(attempt) = running.next().await {
            attempts.push(attempt);
            progress(Progress::Finished {
                attempt: attempts.last().expect("just pushed"),
                done: attempts.len(),
                servers,
            });
        }
        ctrl_c.abort();
        attempts.sort_by(|a, b| a.id.cmp(&b.id));
        Ok(Run {
            attempts,
            interrupted: *interrupted.borrow(),
        })
    })
}

async fn attempt(
    id: String,
    config: Map<String, Value>,
    places: &Places,
    base_env: &[(String, String)],
    timeout: Duration,
    mut interrupted: watch::Receiver<bool>,
) -> Attempt {
    let started = Instant::now();
    // One deadline for start, handshake and tools/list together; closing the
    // session and reaping the process come after it and are not timed.
    let deadline = tokio::time::Instant::from_std(started) + timeout;
    let transport = config
        .get("type")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string();
    let known = known_secrets(&config);
    let pages = raw::RawPages::default();
    let mut stderr = String::new();
    let mut answered = None;
    let outcome = match plan::plan(&config, places, base_env) {
        Err(reason) => Err(reason),
        Ok(plan::Launch::Stdio(launch)) => match stdio::spawn(&launch, places, pages.clone()) {
            Err(reason) => Err(reason),
            Ok((transport, child)) => {
                let listed = bounded(
                    session::list_tools(transport, &pages),
                    deadline,
                    timeout,
                    &mut interrupted,
                )
                .await;
                answered = Some(started.elapsed());
                let listed = closed(listed).await;
                stderr = crate::redact::mask_credential_words(&child.kill_and_reap().await);
                listed.map_err(|reason| with_stderr(reason, &stderr))
            }
        },
        Ok(plan::Launch::Remote(target)) => {
            let failure = remote::LastFailure::default();
            let connection = async {
                match target.transport {
                    plan::RemoteTransport::StreamableHttp => {
                        let (client, configured) = remote::client(&target.headers)?;
                        let http = remote::GuardedHttp {
                            client,
                            configured,
                            pages: pages.clone(),
                            failure: failure.clone(),
                        };
                        let config = StreamableHttpClientTransportConfig::with_uri(target.url.as_str());
                        session::list_tools(StreamableHttpClientTransport::with_client(http, config), &pages).await
                    }
                    plan::RemoteTransport::Sse => {
                        let transport =
                            sse::connect(&target.url, &target.headers, pages.clone(), failure.clone()).await?;
                        session::list_tools(transport, &pages).await
                    }
                }
            };
            let listed = bounded(connection, deadline, timeout, &mut interrupted).await;
            answered = Some(started.elapsed());
            closed(listed).await.map_err(|reason| failure.or(reason))
        }
    };
    // Everything that came back is masked here, once, before any face (a
    // finding, the progress line, the snapshot) sees it.
    let outcome = match outcome {
        Ok(mut listed) => {
            listed.protocol_version = known.mask(&listed.protocol_version).into_owned();
            if let Some(info) = &mut listed.server_info {
                known.mask_json(info);
            }
            listed.tools.iter_mut().for_each(|tool| known.mask_members(tool));
            Ok(listed)
        }
        Err(reason) => Err(known.mask(&reason).into_owned()),
    };
    Attempt {
        id,
        transport,
        outcome,
        elapsed: answered.unwrap_or_else(|| started.elapsed()),
        stderr: known.mask(&stderr).into_owned(),
    }
}

/// The listing, with its session closed (best effort, bounded).
async fn closed(listed: Result<(Listed, session::Session), String>) -> Result<Listed, String> {
    let (listed, open) = listed?;
    session::close(open).await;
    Ok(listed)
}

/// The credentials server `config` holds (its `env`, `headers` and `url`),
/// which the server may echo back in anything it says.
fn known_secrets(config: &Map<String, Value>) -> crate::redact::KnownSecrets {
    let mut known = crate::redact::KnownSecrets::default();
    crate::redact::add_server_secrets(&mut known, config);
    known
}

/// `work`, unless the `deadline` (`timeout` after the attempt started) passes or Ctrl-C comes first.
async fn bounded<T>(
    work: impl Future<Output = Result<T, String>>,
    deadline: tokio::time::Instant,
    timeout: Duration,
    interrupted: &mut watch::Receiver<bool>,
) -> Result<T, String> {
    tokio::select! {
        outcome = tokio::time::timeout_at(deadline, work) => outcome.unwrap_or_else(|_| Err(format!(
            "no complete answer within {} s (start, handshake and tools/list)",
            timeout.as_secs_f64()
        ))),
        _ = interrupted.wait_for(|stop| *stop) => Err("interrupted (Ctrl-C)".into()),
    }
}

/// `reason`, with the last line the server wrote to stderr when there is one.
fn with_stderr(reason: String, stderr: &str) -> String {
    const MAX_CHARS: usize = 300;
    match stderr.lines().rev().map(str::trim).find(|line| !line.is_empty()) {
        Some(line) => {
            let line: String = line.chars().take(MAX_CHARS).collect();
            format!("{reason}; its stderr ends with: {line}")
        }
        None => reason,
    }
}

/// The plugin data directory for one run (§9.1: it exists and is writable
/// before any server starts, and every server of the plugin gets the same one).
pub enum DataDir {
    /// `--data DIR`, created if missing, and left as the servers leave it.
    Given(PathBuf),
    /// A fresh folder this run creates and removes when it is dropped, after
    /// every server process has been reaped: a check is not an installation,
    /// and repeated runs in CI would otherwise leave one folder each behind.
    Temporary {
        path: PathBuf,
        _removed_on_drop: tempfile::TempDir,
    },
}

impl DataDir {
    /// `dir` (created if missing and resolved), or a fresh temporary folder.
    pub fn new(dir: Option<&Path>) -> Result<Self, String> {
        match dir {
            Some(dir) => {
                std::fs::create_dir_all(dir).map_err(|e| format!("cannot create --data {}: {e}", dir.display()))?;
                let dir = dir
                    .canonicalize()
                    .map_err(|e| format!("cannot resolve --data {}: {e}", dir.display()))?;
                Ok(Self::Given(dir))
            }
            None => {
                let fresh = tempfile::Builder::new()
                    .prefix("apcheck-plugin-data-")
                    .tempdir()
                    .map_err(|e| format!("cannot create a plugin data directory: {e}"))?;
                let path = fresh
                    .path()
                    .canonicalize()
                    .unwrap_or_else(|_| fresh.path().to_path_buf());
                Ok(Self::Temporary {
                    path,
                    _removed_on_drop: fresh,
                })
            }
        }
    }

    /// The absolute path servers get as `PLUGIN_DATA`.
    pub fn path(&self) -> &Path {
        match self {
            Self::Given(path) | Self::Temporary { path, .. } => path,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failure_reason_ends_with_the_last_stderr_line() {
        assert_eq!(
            with_stderr("exited".into(), "one\ntwo\n\n"),
            "exited; its stderr ends with: two"
        );
        assert_eq!(with_stderr("exited".into(), ""), "exited");
    }
}
