//! The typed model of a server entry (§7.2.1): its transport, the
//! configuration of a valid entry, and the forms of a stdio `cwd`. Below the
//! rules that judge an entry and build its configuration (`server.rs`,
//! `cwd.rs`), and below the typed package (`crate::package`) that carries it
//! past the check, so that nothing after the check reads mcp.json again.

use serde_json::{Map, Value};

use super::placeholders::{PLUGIN_DATA as DATA, PLUGIN_ROOT as ROOT};

/// The transports of Agent Plugins 1.0.0 (§7.2.1) and their closed field sets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Transport {
    Stdio,
    StreamableHttp,
    Sse,
}

pub(super) const STDIO_FIELDS: &[&str] = &["type", "command", "args", "env", "cwd"];
pub(super) const REMOTE_FIELDS: &[&str] = &["type", "url", "headers"];

impl Transport {
    /// The transport a server's `type` names, if any.
    pub fn from_type(name: &str) -> Option<Self> {
        match name {
            "stdio" => Some(Transport::Stdio),
            "streamable-http" => Some(Transport::StreamableHttp),
            "sse" => Some(Transport::Sse),
            _ => None,
        }
    }

    /// How `type` spells it.
    pub fn name(self) -> &'static str {
        match self {
            Transport::Stdio => "stdio",
            Transport::StreamableHttp => "streamable-http",
            Transport::Sse => "sse",
        }
    }

    pub(super) fn fields(self) -> &'static [&'static str] {
        match self {
            Transport::Stdio => STDIO_FIELDS,
            Transport::StreamableHttp | Transport::Sse => REMOTE_FIELDS,
        }
    }

    /// The variant a configuration without a usable `type` most likely meant, from its fields.
    pub(super) fn guess(server: &Map<String, Value>) -> Option<Self> {
        if server.contains_key("command") {
            Some(Transport::Stdio)
        } else if server.contains_key("url") {
            Some(Transport::StreamableHttp)
        } else {
            None
        }
    }
}

/// A server entry the rules found valid, typed (§7.2.1): what a client
/// launches or contacts. The check builds one for a valid entry only
/// (`server.rs`), so one in the package passed every rule that skips it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ServerConfig {
    Stdio(StdioConfig),
    StreamableHttp(RemoteConfig),
    /// The legacy HTTP+SSE transport.
    Sse(RemoteConfig),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StdioConfig {
    /// One executable token, as written: a bare name or `./…` (never split, never expanded).
    pub command: String,
    /// As written, one element per argument; placeholders expand at launch (§9.2).
    pub args: Vec<String>,
    /// As written, in `mcp.json` order.
    pub env: Vec<(String, String)>,
    /// `None` when omitted: the plugin root.
    pub cwd: Option<CheckedCwd>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RemoteConfig {
    /// As written (§7.2.1: no expansion of any kind).
    pub url: String,
    /// As written, in `mcp.json` order.
    pub headers: Vec<(String, String)>,
}

impl ServerConfig {
    pub fn transport(&self) -> Transport {
        match self {
            ServerConfig::Stdio(_) => Transport::Stdio,
            ServerConfig::StreamableHttp(_) => Transport::StreamableHttp,
            ServerConfig::Sse(_) => Transport::Sse,
        }
    }

    /// The configuration of a `server` of `transport` the rules accepted;
    /// `None` only when a field the rules require is not there. Native only,
    /// as `--connect` is (`server::launchable` says why).
    #[cfg(not(target_arch = "wasm32"))]
    pub(super) fn of_valid(transport: Transport, server: &Map<String, Value>) -> Option<Self> {
        let text = |key: &str| server.get(key).and_then(Value::as_str);
        let strings = |key: &str| -> Vec<(String, String)> {
            server
                .get(key)
                .and_then(Value::as_object)
                .into_iter()
                .flatten()
                .filter_map(|(name, value)| Some((name.clone(), value.as_str()?.to_string())))
                .collect()
        };
        let remote = || {
            Some(RemoteConfig {
                url: text("url")?.to_string(),
                headers: strings("headers"),
            })
        };
        Some(match transport {
            Transport::Stdio => ServerConfig::Stdio(StdioConfig {
                command: text("command")?.to_string(),
                args: server
                    .get("args")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                    .filter_map(Value::as_str)
                    .map(str::to_string)
                    .collect(),
                env: strings("env"),
                cwd: match text("cwd") {
                    Some(cwd) => Some(CheckedCwd::new(cwd)?),
                    None => None,
                },
            }),
            Transport::StreamableHttp => ServerConfig::StreamableHttp(remote()?),
            Transport::Sse => ServerConfig::Sse(remote()?),
        })
    }
}

/// The three forms of a stdio server's `cwd` (§7.2.1), each with the path
/// after its base. The rules judge a `cwd` by it, and `--connect` resolves one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CwdForm<'c> {
    /// `./dir`: a directory of the package.
    InPackage(&'c str),
    /// Exactly `${PLUGIN_ROOT}`, or `${PLUGIN_ROOT}/dir`.
    PluginRoot(&'c str),
    /// Exactly `${PLUGIN_DATA}`, or `${PLUGIN_DATA}/dir`: the plugin's data directory.
    PluginData(&'c str),
}

impl<'c> CwdForm<'c> {
    /// The form of `cwd`, or `None` when it has none of the three.
    pub fn of(cwd: &'c str) -> Option<CwdForm<'c>> {
        if let Some(relative) = cwd.strip_prefix("./") {
            Some(CwdForm::InPackage(relative))
        } else if let Some(relative) = under(cwd, ROOT) {
            Some(CwdForm::PluginRoot(relative))
        } else {
            under(cwd, DATA).map(CwdForm::PluginData)
        }
    }
}

/// A stdio `cwd` the rules accepted: the text as written, which has one of
/// the three forms. What a launch reads; the form is kept, not found again.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckedCwd {
    written: String,
    base: Base,
    /// The path after the base is always a suffix of the text: its length.
    relative_len: usize,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Base {
    InPackage,
    PluginRoot,
    PluginData,
}

impl CheckedCwd {
    /// `written` with its form, or `None` when it has none of the three.
    pub fn new(written: &str) -> Option<Self> {
        let (base, relative) = match CwdForm::of(written)? {
            CwdForm::InPackage(relative) => (Base::InPackage, relative),
            CwdForm::PluginRoot(relative) => (Base::PluginRoot, relative),
            CwdForm::PluginData(relative) => (Base::PluginData, relative),
        };
        Some(CheckedCwd {
            written: written.to_string(),
            base,
            relative_len: relative.len(),
        })
    }

    /// The text as written in `mcp.json`.
    pub fn written(&self) -> &str {
        &self.written
    }

    pub fn form(&self) -> CwdForm<'_> {
        let relative = &self.written[self.written.len() - self.relative_len..];
        match self.base {
            Base::InPackage => CwdForm::InPackage(relative),
            Base::PluginRoot => CwdForm::PluginRoot(relative),
            Base::PluginData => CwdForm::PluginData(relative),
        }
    }
}

/// The path after `base` when `cwd` is exactly `base` or begins with `base/`.
fn under<'c>(cwd: &'c str, base: &str) -> Option<&'c str> {
    let rest = cwd.strip_prefix(base)?;
    if rest.is_empty() {
        Some("")
    } else {
        rest.strip_prefix('/')
    }
}
