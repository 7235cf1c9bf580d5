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
use tokio::sync::watch;

pub use crate::rules::live::{Attempt, Listed, RULES, diagnostics, milliseconds};
pub use plan::{BASE_ENV_ALLOW_LIST, Places};

use crate::package::{Package, Server};
use crate::rules::mcp::{ServerConfig, Transport};

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

/// Whether `package` has a server [`connect`] would try with `options`.
pub fn needs_data_dir(package: &Package, options: &Options) -> bool {
    targets(package, options)
        .iter()
        .any(|(_, config)| config.transport() == Transport::Stdio)
}

/// The valid servers to try, with their configuration as the check typed it.
fn targets<'p>(package: &'p Package, options: &Options) -> Vec<(&'p Server, &'p ServerConfig)> {
    package
        .servers()
        .iter()
        .filter(|server| options.servers.is_empty() || options.servers.contains(&server.id))
        .filter_map(|server| Some((server, server.config.as_ref()?)))
        .collect()
}

/// Connects to every valid server of `package` (checked from the plugin at
/// `places.root`) and lists its tools.
pub fn connect(
    package: &Package,
    places: &Places,
    options: &Options,
    progress: &mut dyn FnMut(Progress),
) -> Result<Run, String> {
    let targets = targets(package, options);
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
            .map(|(server, config)| attempt(server, config, places, &base_env, options.timeout, interrupted.clone()))
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
    server: &Server,
    config: &ServerConfig,
    places: &Places,
    base_env: &[(String, String)],
    timeout: Duration,
    mut interrupted: watch::Receiver<bool>,
) -> Attempt {
    let started = Instant::now();
    // One deadline for start, handshake and tools/list together; closing the
    // session and reaping the process come after it and are not timed.
    let deadline = tokio::time::Instant::from_std(started) + timeout;
    let mut known = crate::redact::KnownSecrets::default();
    // Whatever the server says may echo the credentials its configuration holds.
    server.add_secrets(&mut known);
    let pages = raw::RawPages::default();
    let mut stderr = String::new();
    let mut answered = None;
    let outcome = match plan::plan(config, places, base_env) {
        plan::Launch::Stdio(launch) => match stdio::spawn(&launch, places, pages.clone()) {
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
        plan::Launch::Remote(target) => {
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
        id: server.id.clone(),
        transport: config.transport().name().to_string(),
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
    use crate::tree::Tree;

    #[test]
    fn targets_and_plans_come_from_the_checked_package_alone() {
        // The tree is gone before anything is planned: plugin.json and mcp.json are not read again.
        let tree = Tree::from_files([
            (
                "plugin.json",
                r#"{"$schema": "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json", "name": "demo"}"#,
            ),
            (
                "mcp.json",
                r#"{"$schema": "https://agent-plugins.org/schemas/1.0.0/mcp.schema.json", "mcpServers": {
                    "local": {"type": "stdio", "command": "node", "args": ["${PLUGIN_ROOT}/s.js"], "cwd": "${PLUGIN_DATA}/w"},
                    "broken": {"type": "stdio", "command": "node", "cwd": "/tmp"},
                    "api": {"type": "sse", "url": "https://api.example.com/sse"}}}"#,
            ),
            ("s.js", ""),
        ]);
        let report = crate::check_package("demo", &tree);
        drop(tree);
        let options = Options {
            timeout: DEFAULT_TIMEOUT,
            inherit_env: false,
            servers: Vec::new(),
        };
        let places = Places {
            root: PathBuf::from("/p"),
            data: PathBuf::from("/d"),
        };
        // The invalid entry (AP424) never reaches a plan.
        let planned: Vec<(&str, plan::Launch)> = targets(&report.package, &options)
            .into_iter()
            .map(|(server, config)| (server.id.as_str(), plan::plan(config, &places, &[])))
            .collect();
        let [
            ("local", plan::Launch::Stdio(local)),
            ("api", plan::Launch::Remote(api)),
        ] = planned.as_slice()
        else {
            panic!("{planned:#?}")
        };
        assert_eq!(local.args, ["/p/s.js"]);
        assert_eq!(
            local.cwd,
            plan::Cwd {
                path: PathBuf::from("/d/w"),
                boundary: plan::Boundary::PluginData
            }
        );
        assert_eq!(
            (api.transport, api.url.as_str()),
            (plan::RemoteTransport::Sse, "https://api.example.com/sse")
        );
        assert!(needs_data_dir(&report.package, &options));
    }

    #[test]
    fn a_failure_reason_ends_with_the_last_stderr_line() {
        assert_eq!(
            with_stderr("exited".into(), "one\ntwo\n\n"),
            "exited; its stderr ends with: two"
        );
        assert_eq!(with_stderr("exited".into(), ""), "exited");
    }
}
