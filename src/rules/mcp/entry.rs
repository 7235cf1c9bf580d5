//! One server entry under check: the context every field check writes its
//! findings to, and the two rules any field check may raise (a required field
//! missing, a field of the wrong JSON type). Below `server.rs`, which runs the
//! field checks, and below the field checks, which all report here.

use serde_json::Value;

use super::text::{EXAMPLE_PLUGIN_JSON as PLUGIN_JSON, child_pointer};
use crate::diag::{Diagnostic, Severity};
use crate::json::json_type;
use crate::rule::{Example, Rule};
use crate::source::json::JsonSource;
use crate::tree::Tree;

pub static MCP_SERVER_FIELD_MISSING: Rule = Rule {
    code: "AP415",
    name: "mcp-server-field-missing",
    severity: Severity::Error,
    spec: "Agent Plugins §7.2.1, §7.2.2",
    summary: "A server lacks the field its transport requires (`command` for stdio, `url` for HTTP); that server is skipped",
    fix_hint: None,
    doc: rule_doc! {
        what: "Whether a `stdio` server has `command` and a `streamable-http` or `sse` server has `url`.",
        why: "§7.2.1: those fields are required by their variants; without one the entry is invalid and \
              skipped (§7.2.2 rule 3).",
        failing: Example::Package(&[
            ("plugin.json", PLUGIN_JSON),
            (
                "mcp.json",
                example_mcp_json!("    \"events\": {\"type\": \"streamable-http\"}"),
            ),
        ]),
        fixed: Example::Package(&[
            ("plugin.json", PLUGIN_JSON),
            (
                "mcp.json",
                example_mcp_json!(
                    "    \"events\": {\"type\": \"streamable-http\", \"url\": \"https://events.example.com/mcp\"}"
                ),
            ),
        ]),
    },
};

pub static MCP_SERVER_FIELD_TYPE: Rule = Rule {
    code: "AP416",
    name: "mcp-server-field-type",
    severity: Severity::Error,
    spec: "Agent Plugins §7.2.1, §7.2.2",
    summary: "A server field has the wrong JSON type; that server is skipped",
    fix_hint: None,
    doc: rule_doc! {
        what: "The JSON types of server fields: `command`, `cwd` and `url` are strings; `args` is an array of \
               strings; `env` and `headers` are objects whose values are strings. Each wrong item is named.",
        why: "§7.2.1 gives each field a type; a number in `env` or a single string for `args` makes the entry \
              invalid, and the client skips it (§7.2.2 rule 3).",
        failing: Example::Package(&[
            ("plugin.json", PLUGIN_JSON),
            (
                "mcp.json",
                example_mcp_json!(
                    "    \"tools\": {\"type\": \"stdio\", \"command\": \"uvx\", \"args\": \"tools-server\", \"env\": {\"RETRIES\": 3}}"
                ),
            ),
        ]),
        fixed: Example::Package(&[
            ("plugin.json", PLUGIN_JSON),
            (
                "mcp.json",
                example_mcp_json!(
                    "    \"tools\": {\"type\": \"stdio\", \"command\": \"uvx\", \"args\": [\"tools-server\"], \"env\": {\"RETRIES\": \"3\"}}"
                ),
            ),
        ]),
    },
};

/// The findings of one server entry, and whether any of them invalidates it.
pub(super) struct ServerCheck<'f> {
    pub file: &'f JsonSource<'f>,
    pub tree: &'f Tree,
    /// Pointer of the server object, `/mcpServers/<id>`.
    pub pointer: String,
    diagnostics: Vec<Diagnostic>,
    /// Messages of the findings that make the entry invalid, in order.
    reasons: Vec<String>,
}

impl<'f> ServerCheck<'f> {
    /// A check of the server object at `pointer` in `file`, with no finding yet.
    pub fn new(file: &'f JsonSource<'f>, tree: &'f Tree, pointer: String) -> Self {
        ServerCheck {
            file,
            tree,
            pointer,
            diagnostics: Vec::new(),
            reasons: Vec::new(),
        }
    }

    /// Every finding, and the messages of those that make the entry invalid, in order.
    pub fn into_findings(self) -> (Vec<Diagnostic>, Vec<String>) {
        (self.diagnostics, self.reasons)
    }

    /// The pointer of the server's member `name`.
    pub fn field(&self, name: &str) -> String {
        child_pointer(&self.pointer, name)
    }

    /// Records a finding that makes the entry invalid (§7.2.2 rule 3).
    pub fn reject(&mut self, diagnostic: Diagnostic) {
        self.reasons.push(diagnostic.message.clone());
        self.diagnostics.push(diagnostic);
    }

    /// Records a finding that leaves the entry loadable.
    pub fn report(&mut self, diagnostic: Diagnostic) {
        self.diagnostics.push(diagnostic);
    }

    /// Places a finding made elsewhere (a containment diagnostic) at `pointer` in `mcp.json`.
    pub fn place(&self, diagnostic: Diagnostic, pointer: &str) -> Diagnostic {
        let span = self.file.doc.nearest_span(pointer);
        diagnostic
            .in_file(&self.file.path)
            .at_pointer(pointer)
            .at_span(&self.file.text, &self.file.index, span)
    }

    /// Rejects a wrong JSON type at `pointer`.
    pub fn reject_type(&mut self, pointer: &str, what: &str, expected: &str, found: &Value) {
        let message = format!("{what} must be {expected}, not {}", json_type(found));
        self.reject(self.file.at_value(&MCP_SERVER_FIELD_TYPE, pointer, message));
    }
}
