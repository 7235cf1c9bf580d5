//! The typed package: what the check read from plugin.json and mcp.json, kept
//! with the report (`PackageReport::package`) so that everything after the
//! check (`--connect`'s plan, the live findings, the snapshot build, drift)
//! reads it and never parses a packaging file again. Pure data, built by the
//! hops (`rules::manifest`, `rules::mcp`). The report's sections already
//! hold the manifest's checked fields (`PluginSection`) and each skill's
//! metadata (`SkillEntry`), typed; this adds what they do not: where each
//! member of the packaging files is, and each server entry's configuration.

use crate::diag::Diagnostic;
use crate::json::parse::push_token;
use crate::redact::KnownSecrets;
use crate::rule::Rule;
use crate::rules::mcp::config::{ServerConfig, Transport};
use crate::source::Span;
use crate::source::json::JsonSource;

/// plugin.json and mcp.json as the check read them.
#[derive(Debug, Clone, Default)]
pub struct Package {
    /// `None` when plugin.json is missing, unreadable or not a JSON object.
    pub manifest: Option<Document>,
    /// `None` when mcp.json is absent, unreadable or not an object, or the
    /// plugin is rejected (§5.2: a client never looks at its components). A
    /// disabled mcp.json (§7.2.2 rule 2) is here, with no server configured.
    pub mcp: Option<McpDocument>,
}

impl Package {
    /// Every server entry of `mcp.json`, valid or not, in file order.
    pub fn servers(&self) -> &[Server] {
        self.mcp.as_ref().map_or(&[], |mcp| &mcp.servers)
    }

    /// The entry `id` of `mcpServers`.
    pub fn server(&self, id: &str) -> Option<&Server> {
        self.servers().iter().find(|server| server.id == id)
    }

    /// The credentials every server entry holds, valid or not: a reason
    /// pasted from a client (`snapshot --failed`) may echo any of them.
    pub fn configured_secrets(&self) -> KnownSecrets {
        let mut known = KnownSecrets::default();
        for server in self.servers() {
            server.add_secrets(&mut known);
        }
        known
    }
}

/// A JSON object of a packaging file: where it is, and its members.
#[derive(Debug, Clone)]
pub struct Document {
    /// The package-relative file: `plugin.json`, `mcp.json`.
    pub file: String,
    /// Each member name, placed on its key, in file order.
    pub members: Vec<Member>,
}

/// One member name of an object, placed on its key.
#[derive(Debug, Clone)]
pub struct Member {
    pub name: String,
    pub location: Location,
}

/// `mcp.json` as read: its top-level members, and every entry of `mcpServers`
/// when that is an object, whether or not the document itself is valid.
#[derive(Debug, Clone)]
pub struct McpDocument {
    pub document: Document,
    pub servers: Vec<Server>,
}

/// One entry of `mcpServers`.
#[derive(Debug, Clone)]
pub struct Server {
    pub id: String,
    /// The entry's key, `/mcpServers/<id>`.
    pub location: Location,
    /// The entry's members, each placed on its key; none when it is not an object.
    pub members: Vec<Member>,
    /// The declared `type`, when it names one of the three transports.
    pub transport: Option<Transport>,
    /// The configuration, typed: `Some` exactly when the rules found the
    /// entry valid (§7.2.2 rule 3), so an invalid one never reaches a launch.
    /// Natively only: `--connect`, its one reader, is native.
    pub config: Option<ServerConfig>,
    /// The values that may be credentials (`env` and `headers` values, the
    /// `url`), as written, whatever the entry's validity.
    pub secrets: Vec<Secret>,
}

impl Server {
    /// Adds what the entry configures to `known`, so that whatever echoes it is masked.
    pub fn add_secrets(&self, known: &mut KnownSecrets) {
        for secret in &self.secrets {
            match secret {
                Secret::Named { name, value } => known.add_named(name, value),
                Secret::Url(url) => known.add_url(url),
            }
        }
    }
}

/// A configured value a server may echo back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Secret {
    /// An `env` or `headers` member with a string value.
    Named { name: String, value: String },
    /// A string `url`.
    Url(String),
}

/// Where something is in a package file: the file, the JSON Pointer and the
/// span with its line and column, as a diagnostic placed there carries them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Location {
    pub file: String,
    pub pointer: String,
    pub span: Span,
    pub line: usize,
    pub column: usize,
    pub end_line: usize,
    pub end_column: usize,
}

impl Location {
    /// The member name at `pointer` in `file` (its value when it has no name),
    /// as [`JsonSource::at_key`] places a finding.
    pub fn of_key(file: &JsonSource<'_>, pointer: &str) -> Self {
        let span = file
            .doc
            .key_span(pointer)
            .unwrap_or_else(|| file.doc.nearest_span(pointer));
        let start = file.index.line_col(&file.text, span.start);
        let end = file.index.line_col(&file.text, span.end);
        Location {
            file: file.path.clone(),
            pointer: pointer.to_string(),
            span,
            line: start.line,
            column: start.column,
            end_line: end.line,
            end_column: end.column,
        }
    }

    /// A finding of `rule` placed here.
    pub fn diagnostic(&self, rule: &Rule, message: impl Into<String>) -> Diagnostic {
        let mut diagnostic = Diagnostic::new(rule, message)
            .in_file(&self.file)
            .at_pointer(&self.pointer);
        diagnostic.line = Some(self.line);
        diagnostic.column = Some(self.column);
        diagnostic.end_line = Some(self.end_line);
        diagnostic.end_column = Some(self.end_column);
        diagnostic.span = Some(self.span);
        diagnostic
    }
}

impl Document {
    /// The members of the object at `pointer` in `file`, or `None` when the value there is not an object.
    pub fn at(file: &JsonSource<'_>, pointer: &str) -> Option<Self> {
        Some(Document {
            file: file.path.clone(),
            members: members_at(file, pointer)?,
        })
    }
}

/// Each member of the object at `pointer` in `file`, placed on its key.
pub(crate) fn members_at(file: &JsonSource<'_>, pointer: &str) -> Option<Vec<Member>> {
    let object = file.doc.value.pointer(pointer)?.as_object()?;
    Some(
        object
            .keys()
            .map(|name| {
                let mut at = pointer.to_string();
                push_token(&mut at, name);
                Member {
                    name: name.clone(),
                    location: Location::of_key(file, &at),
                }
            })
            .collect(),
    )
}
