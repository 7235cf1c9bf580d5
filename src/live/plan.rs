//! What a conformant client launches or contacts for each valid server of
//! `mcp.json`, worked out before anything runs (§7.2.1, §9). Pure: paths and
//! the base environment come in as data, so every rule here is unit-tested
//! without a process.

use std::path::{Component, Path, PathBuf};

// The two placeholders of §9.2, and nothing else, as the rules define them.
use crate::rules::mcp::placeholders::{DATA_NAME, PLUGIN_DATA, PLUGIN_ROOT, ROOT_NAME};
use crate::rules::mcp::{CheckedCwd, CwdForm, RemoteConfig, ServerConfig};

/// The ambient variables a server gets by default: enough to find programs,
/// a home, a locale and a temporary directory. A checker runs untrusted
/// packages, so tokens and cloud credentials in the caller's environment stay
/// out unless `--inherit-env` says otherwise (§9.1 lets the client sanitize).
pub const BASE_ENV_ALLOW_LIST: &[&str] = &[
    "PATH",
    "HOME",
    "USER",
    "LOGNAME",
    "SHELL",
    "LANG",
    "LANGUAGE",
    "LC_ALL",
    "LC_CTYPE",
    "TERM",
    "TZ",
    "TMPDIR",
    "TMP",
    "TEMP",
    // What Windows programs need to start at all.
    "SYSTEMROOT",
    "SYSTEMDRIVE",
    "WINDIR",
    "COMSPEC",
    "PATHEXT",
    "USERPROFILE",
    "APPDATA",
    "LOCALAPPDATA",
    "PROGRAMDATA",
    "PROGRAMFILES",
];

/// Where a plugin runs: its filesystem-resolved root and its data directory.
#[derive(Debug, Clone)]
pub struct Places {
    pub root: PathBuf,
    pub data: PathBuf,
}

/// How to reach one server.
#[derive(Debug, Clone, PartialEq)]
pub enum Launch {
    Stdio(StdioLaunch),
    Remote(RemoteTarget),
}

#[derive(Debug, Clone, PartialEq)]
pub struct StdioLaunch {
    /// `command` as one token: a bare name (found on the search path at launch)
    /// or `./…` joined to the plugin root. Never split, never expanded.
    pub program: Program,
    /// Expanded, one element per configured argument, empty ones included.
    pub args: Vec<String>,
    /// The whole child environment: base, then `env`, then the two plugin variables.
    pub env: Vec<(String, String)>,
    /// Expanded and joined, not yet checked against the filesystem.
    pub cwd: Cwd,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Program {
    Bare(String),
    InPackage(PathBuf),
}

/// A working directory and the boundary it must stay inside once resolved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cwd {
    pub path: PathBuf,
    pub boundary: Boundary,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Boundary {
    PluginRoot,
    PluginData,
}

impl Boundary {
    pub fn describe(self) -> &'static str {
        match self {
            Boundary::PluginRoot => "the plugin root",
            Boundary::PluginData => "the plugin data directory",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RemoteTarget {
    pub transport: RemoteTransport,
    /// Exactly as written (§7.2.1: no expansion of any kind).
    pub url: String,
    /// Exactly as written, in `mcp.json` order.
    pub headers: Vec<(String, String)>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RemoteTransport {
    StreamableHttp,
    /// The legacy HTTP+SSE transport of MCP 2024-11-05.
    Sse,
}

/// Expands `${PLUGIN_ROOT}` and `${PLUGIN_DATA}` in `text`: one left-to-right
/// pass, so text a replacement brings in is never scanned again (§9.2), and
/// anything else that looks like a placeholder (`${X}`, `$X`,
/// `${PLUGIN_ROOT_SUFFIX}`) stays literal.
pub fn expand(text: &str, places: &Places) -> String {
    let root = places.root.to_string_lossy();
    let data = places.data.to_string_lossy();
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("${") {
        out.push_str(&rest[..at]);
        let tail = &rest[at..];
        if let Some(after) = tail.strip_prefix(PLUGIN_ROOT) {
            out.push_str(&root);
            rest = after;
        } else if let Some(after) = tail.strip_prefix(PLUGIN_DATA) {
            out.push_str(&data);
            rest = after;
        } else {
            out.push_str("${");
            rest = &tail[2..];
        }
    }
    out.push_str(rest);
    out
}

/// The launch for server `config`, a valid entry as the check typed it.
/// `base_env` is the environment the server starts from.
pub fn plan(config: &ServerConfig, places: &Places, base_env: &[(String, String)]) -> Launch {
    let remote = |transport, config: &RemoteConfig| {
        Launch::Remote(RemoteTarget {
            transport,
            url: config.url.clone(),
            headers: config.headers.clone(),
        })
    };
    match config {
        ServerConfig::Stdio(config) => {
            let program = match config.command.strip_prefix("./") {
                Some(relative) => Program::InPackage(places.root.join(relative)),
                None => Program::Bare(config.command.clone()),
            };
            let args = config.args.iter().map(|a| expand(a, places)).collect();
            let mut env: Vec<(String, String)> = base_env.to_vec();
            let configured = config.env.iter().map(|(k, v)| (k.clone(), expand(v, places)));
            let reserved = [
                (ROOT_NAME.to_string(), places.root.to_string_lossy().into_owned()),
                (DATA_NAME.to_string(), places.data.to_string_lossy().into_owned()),
            ];
            for (name, value) in configured.chain(reserved) {
                overlay(&mut env, name, value);
            }
            Launch::Stdio(StdioLaunch {
                program,
                args,
                env,
                cwd: cwd(config.cwd.as_ref(), places),
            })
        }
        ServerConfig::StreamableHttp(config) => remote(RemoteTransport::StreamableHttp, config),
        ServerConfig::Sse(config) => remote(RemoteTransport::Sse, config),
    }
}

/// Replaces a same-name entry (§9.1: platform semantics, so case-insensitive
/// on Windows) or appends.
fn overlay(env: &mut Vec<(String, String)>, name: String, value: String) {
    let same = |a: &str, b: &str| {
        if cfg!(windows) {
            a.eq_ignore_ascii_case(b)
        } else {
            a == b
        }
    };
    env.retain(|(existing, _)| !same(existing, &name));
    env.push((name, value));
}

/// §7.2.1: omitted means the plugin root; `./…` and `${PLUGIN_ROOT}…` stay in
/// the root, `${PLUGIN_DATA}…` in the data directory. Placeholders expand first.
fn cwd(configured: Option<&CheckedCwd>, places: &Places) -> Cwd {
    let Some(configured) = configured else {
        return Cwd {
            path: places.root.clone(),
            boundary: Boundary::PluginRoot,
        };
    };
    let expanded = || PathBuf::from(expand(configured.written(), places));
    let (path, boundary) = match configured.form() {
        CwdForm::InPackage(relative) => (places.root.join(relative), Boundary::PluginRoot),
        CwdForm::PluginRoot(_) => (expanded(), Boundary::PluginRoot),
        CwdForm::PluginData(_) => (expanded(), Boundary::PluginData),
    };
    Cwd {
        path: lexically_normal(&path),
        boundary,
    }
}

/// `path` with `.` and `..` folded, so a lexical escape shows before the
/// filesystem is asked.
fn lexically_normal(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// The default base environment: the allow-listed variables of `ambient`.
pub fn allowed_env(ambient: impl IntoIterator<Item = (String, String)>) -> Vec<(String, String)> {
    ambient
        .into_iter()
        .filter(|(name, _)| {
            BASE_ENV_ALLOW_LIST
                .iter()
                .any(|allowed| allowed.eq_ignore_ascii_case(name))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::mcp::StdioConfig;

    fn places() -> Places {
        Places {
            root: PathBuf::from("/p/root"),
            data: PathBuf::from("/d/data"),
        }
    }

    fn strings(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
    }

    /// A stdio server running `command`, nothing else configured.
    fn command(command: &str) -> StdioConfig {
        StdioConfig {
            command: command.into(),
            args: Vec::new(),
            env: Vec::new(),
            cwd: None,
        }
    }

    fn stdio(config: StdioConfig, base: &[(&str, &str)]) -> StdioLaunch {
        match plan(&ServerConfig::Stdio(config), &places(), &strings(base)) {
            Launch::Stdio(launch) => launch,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn expansion_is_one_non_recursive_pass_over_the_two_placeholders() {
        // §9.2: every exact occurrence; replacement text is not rescanned; the rest stays literal.
        let places = Places {
            root: PathBuf::from("/r/${PLUGIN_DATA}"),
            data: PathBuf::from("/d"),
        };
        assert_eq!(
            expand("${PLUGIN_ROOT}|${PLUGIN_DATA}|${PLUGIN_ROOT}", &places),
            "/r/${PLUGIN_DATA}|/d|/r/${PLUGIN_DATA}"
        );
        for literal in [
            "${APC_UNKNOWN}",
            "$APC_VALUE",
            "${PLUGIN_ROOT_SUFFIX}",
            "${PLUGIN_ROOT",
            "$${}",
            "${",
        ] {
            assert_eq!(expand(literal, &places), literal);
        }
        assert_eq!(expand("a${PLUGIN_ROOT}/b", &places), "a/r/${PLUGIN_DATA}/b");
    }

    #[test]
    fn command_is_one_token_and_args_keep_their_boundaries() {
        // §7.2.1: bare names go to the search path, `./` to the root; no splitting, no expansion.
        let launch = stdio(
            StdioConfig {
                args: ["arg with spaces", "", "${PLUGIN_ROOT}", "$X"]
                    .map(String::from)
                    .to_vec(),
                ..command("./bin/probe token.sh")
            },
            &[],
        );
        assert_eq!(
            launch.program,
            Program::InPackage(PathBuf::from("/p/root/bin/probe token.sh"))
        );
        assert_eq!(launch.args, ["arg with spaces", "", "/p/root", "$X"]);
        let bare = stdio(command("${PLUGIN_ROOT}node"), &[]);
        assert_eq!(bare.program, Program::Bare("${PLUGIN_ROOT}node".into()));
    }

    #[test]
    fn env_overlays_the_base_then_the_plugin_variables_win() {
        // §9.1: configured entries replace same-name base entries; PLUGIN_ROOT/DATA are set last.
        let launch = stdio(
            StdioConfig {
                env: strings(&[("HOME", "${PLUGIN_DATA}/home"), ("LITERAL", "${X}|$Y")]),
                ..command("node")
            },
            &[("HOME", "/home/me"), ("PATH", "/bin"), ("PLUGIN_ROOT", "/elsewhere")],
        );
        let get = |name: &str| launch.env.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str());
        assert_eq!(get("HOME"), Some("/d/data/home"));
        assert_eq!(get("PATH"), Some("/bin"));
        assert_eq!(get("LITERAL"), Some("${X}|$Y"));
        assert_eq!(get("PLUGIN_ROOT"), Some("/p/root"));
        assert_eq!(get("PLUGIN_DATA"), Some("/d/data"));
        assert_eq!(launch.env.iter().filter(|(k, _)| k == "PLUGIN_ROOT").count(), 1);
    }

    #[test]
    fn the_four_cwd_forms_resolve_against_their_boundary() {
        let cases = [
            (None, "/p/root", Boundary::PluginRoot),
            (Some("./probe-workdir"), "/p/root/probe-workdir", Boundary::PluginRoot),
            (
                Some("${PLUGIN_ROOT}/probe-workdir"),
                "/p/root/probe-workdir",
                Boundary::PluginRoot,
            ),
            (Some("${PLUGIN_DATA}"), "/d/data", Boundary::PluginData),
            (Some("./a/../../x"), "/p/x", Boundary::PluginRoot),
        ];
        for (cwd, path, boundary) in cases {
            let config = StdioConfig {
                cwd: cwd.map(|cwd| CheckedCwd::new(cwd).expect(cwd)),
                ..command("node")
            };
            let launch = stdio(config, &[]);
            assert_eq!(
                launch.cwd,
                Cwd {
                    path: PathBuf::from(path),
                    boundary
                },
                "{cwd:?}"
            );
        }
        // Any other form makes the entry invalid (AP424): no configuration holds one, so none is launched.
        assert_eq!(CheckedCwd::new("/tmp"), None);
    }

    #[test]
    fn remote_url_and_headers_stay_as_written() {
        // §7.2.1: no placeholder or environment expansion in `url` or headers.
        let config = ServerConfig::Sse(RemoteConfig {
            url: "http://127.0.0.1:1/sse?value=$V&x=${PLUGIN_ROOT}".into(),
            headers: strings(&[("AcCePt", "text/plain"), ("x-a", "${PLUGIN_ROOT}|x")]),
        });
        let Launch::Remote(target) = plan(&config, &places(), &[]) else {
            panic!()
        };
        assert_eq!(target.transport, RemoteTransport::Sse);
        assert_eq!(target.url, "http://127.0.0.1:1/sse?value=$V&x=${PLUGIN_ROOT}");
        assert_eq!(
            target.headers,
            [
                ("AcCePt".to_string(), "text/plain".to_string()),
                ("x-a".into(), "${PLUGIN_ROOT}|x".into())
            ]
        );
    }

    #[test]
    fn the_default_base_environment_is_the_allow_list() {
        let ambient = [
            ("PATH", "/bin"),
            ("GITHUB_TOKEN", "ghp_x"),
            ("AWS_SECRET_ACCESS_KEY", "k"),
            ("LANG", "C"),
        ];
        let kept = allowed_env(ambient.iter().map(|(k, v)| (k.to_string(), v.to_string())));
        assert_eq!(
            kept,
            [("PATH".to_string(), "/bin".to_string()), ("LANG".into(), "C".into())]
        );
    }
}
