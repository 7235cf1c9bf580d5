//! The snapshot as serde types. Objects the schema closes are closed here too,
//! except for `extensions` (client data by reverse-domain namespace); a tool
//! keeps every MCP Tool field in `fields`, so a snapshot round-trips intact.

use foldhash::{HashMap, HashMapExt};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::schemas::SNAPSHOT_SCHEMA_ID;

/// A capability snapshot: what a client holds after loading one plugin.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Snapshot {
    #[serde(rename = "$schema", default, skip_serializing_if = "Option::is_none")]
    pub schema: Option<String>,
    pub plugin: PluginIdentity,
    pub skills: Vec<SkillMetadata>,
    #[serde(rename = "mcpServers")]
    pub servers: Vec<ServerStatus>,
    pub tools: Vec<Tool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extensions: Option<Map<String, Value>>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PluginIdentity {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// The Agent Plugins version selected by `plugin.json`'s `$schema`.
    pub spec: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extensions: Option<Map<String, Value>>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SkillMetadata {
    pub name: String,
    pub description: String,
    /// Package-relative path of the `SKILL.md`.
    pub path: String,
    pub loaded: Loaded,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extensions: Option<Map<String, Value>>,
}

/// What a client holds of a skill. Only the metadata: the body is read when
/// the skill is used (Agent Skills progressive disclosure).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Loaded {
    Metadata,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ServerStatus {
    pub id: String,
    /// The transport `mcp.json` declares; absent for an entry skipped for lacking one.
    #[serde(rename = "type", default, skip_serializing_if = "Option::is_none")]
    pub transport: Option<String>,
    pub status: ConnectionStatus,
    #[serde(rename = "protocolVersion", default, skip_serializing_if = "Option::is_none")]
    pub protocol_version: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extensions: Option<Map<String, Value>>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ConnectionStatus {
    /// The MCP handshake completed.
    Connected,
    /// §7.2.2 rule 5: the server did not start, connect, authenticate or finish the handshake.
    Failed,
    /// §7.2.2 rules 3-4: the entry is invalid or its transport unsupported.
    Skipped,
    /// Valid and not attempted: a snapshot built from the package alone.
    NotConnected,
}

impl ConnectionStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            ConnectionStatus::Connected => "connected",
            ConnectionStatus::Failed => "failed",
            ConnectionStatus::Skipped => "skipped",
            ConnectionStatus::NotConnected => "not-connected",
        }
    }
}

/// One MCP Tool and the server that offered it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Tool {
    pub name: String,
    pub server: String,
    /// Every other Tool member (`inputSchema`, `title`, `annotations`, …), as sent.
    #[serde(flatten)]
    pub fields: Map<String, Value>,
}

/// The order of a tool's own members in a written snapshot (the schema's order).
const TOOL_FIELD_ORDER: &[&str] = &[
    "title",
    "description",
    "inputSchema",
    "outputSchema",
    "annotations",
    "execution",
    "icons",
    "_meta",
];

/// By hand rather than derived: `#[serde(flatten)]` buffers the members in
/// serde's own content type, which has no 128-bit integers, so an integer from
/// 2^64 to 2^128 anywhere in a tool (a schema's `maximum`, `_meta`) failed a
/// valid snapshot.
impl<'de> Deserialize<'de> for Tool {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        use serde::de::{Error, Unexpected};
        let mut fields = Map::<String, Value>::deserialize(deserializer)?;
        let mut take = |key: &'static str| match fields.shift_remove(key) {
            Some(Value::String(text)) => Ok(text),
            Some(other) => {
                let kind = match other {
                    Value::Null => Unexpected::Unit,
                    Value::Bool(b) => Unexpected::Bool(b),
                    Value::Number(_) => Unexpected::Other("number"),
                    Value::Array(_) => Unexpected::Seq,
                    Value::Object(_) | Value::String(_) => Unexpected::Map,
                };
                Err(D::Error::invalid_type(kind, &"a string"))
            }
            None => Err(D::Error::missing_field(key)),
        };
        let name = take("name")?;
        let server = take("server")?;
        Ok(Tool { name, server, fields })
    }
}

impl Tool {
    pub fn input_schema(&self) -> Option<&Value> {
        self.fields.get("inputSchema")
    }

    pub fn output_schema(&self) -> Option<&Value> {
        self.fields.get("outputSchema")
    }

    /// `server/name`: how findings and `apcheck call` name a tool.
    pub fn qualified_name(&self) -> String {
        format!("{}/{}", self.server, self.name)
    }

    /// Puts the members in schema order, unknown ones after them by name.
    fn order_fields(&mut self) {
        let rank = |key: &str| TOOL_FIELD_ORDER.iter().position(|k| *k == key).unwrap_or(usize::MAX);
        let mut members: Vec<(String, Value)> = std::mem::take(&mut self.fields).into_iter().collect();
        members.sort_by(|(a, _), (b, _)| (rank(a), a).cmp(&(rank(b), b)));
        self.fields = members.into_iter().collect();
    }
}

impl Snapshot {
    /// Sorts everything into the stable order the schema documents, so a
    /// snapshot written twice from the same inputs is byte-identical.
    pub fn normalize(&mut self) {
        self.schema = Some(SNAPSHOT_SCHEMA_ID.to_string());
        self.skills.sort_by(|a, b| (&a.name, &a.path).cmp(&(&b.name, &b.path)));
        self.servers.sort_by(|a, b| a.id.cmp(&b.id));
        self.tools
            .sort_by(|a, b| (&a.server, &a.name).cmp(&(&b.server, &b.name)));
        for tool in &mut self.tools {
            tool.order_fields();
        }
    }

    /// The snapshot as pretty JSON with a final newline, ready to commit,
    /// with every well-known credential shape masked wherever it sits (a
    /// `--failed` reason, an echoed token in a tool description): a snapshot
    /// is committed and published, so it must not carry what stderr masks.
    pub fn to_pretty_json(&self) -> String {
        let mut value = serde_json::to_value(self).expect("a snapshot always serializes");
        mask_token_shapes(&mut value);
        let mut text = serde_json::to_string_pretty(&value).expect("a JSON value serializes");
        text.push('\n');
        text
    }

    pub fn server(&self, id: &str) -> Option<&ServerStatus> {
        self.servers.iter().find(|s| s.id == id)
    }

    /// [`Snapshot::server`] for every id at once (the first of a duplicated
    /// id, as it finds), for callers that look up one server per tool.
    pub fn servers_by_id(&self) -> HashMap<&str, &ServerStatus> {
        let mut servers = HashMap::with_capacity(self.servers.len());
        for server in &self.servers {
            servers.entry(server.id.as_str()).or_insert(server);
        }
        servers
    }
}

/// Every string of `value`, member names included, through [`crate::redact::mask_token_shapes`].
fn mask_token_shapes(value: &mut Value) {
    match value {
        Value::String(text) => {
            if let std::borrow::Cow::Owned(masked) = crate::redact::mask_token_shapes(text) {
                *text = masked;
            }
        }
        Value::Array(items) => items.iter_mut().for_each(mask_token_shapes),
        Value::Object(members) => {
            *members = std::mem::take(members)
                .into_iter()
                .map(|(name, mut value)| {
                    mask_token_shapes(&mut value);
                    (crate::redact::mask_token_shapes(&name).into_owned(), value)
                })
                .collect();
        }
        _ => {}
    }
}
