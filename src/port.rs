//! `apcheck port`: the Agent Plugins package a vendor plugin layout becomes
//! (Claude Code, Codex, Cursor, Gemini CLI: the layouts the layout rules
//! recognise), and what could not be carried over, with where and why.
//!
//! Sans-IO: a tree in, files and notes out. Values are carried, never made
//! up: a required field the source lacks stays missing (unless the caller
//! names it), so a check of the result reports it instead of a guess hiding
//! it. The result is checked with the real rules before it is handed back,
//! and its findings travel with it.

use std::collections::BTreeSet;

use serde_json::{Map, Value};

use crate::diag::{Diagnostic, Severity};
use crate::hops::check_package;
use crate::json::pointer::push_token;
use crate::schemas::{MCP_SCHEMA_ID, PLUGIN_SCHEMA_ID};
use crate::tree::{Entry, Tree};

/// A vendor layout `port` reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Vendor {
    Claude,
    Codex,
    Cursor,
    Gemini,
}

impl Vendor {
    /// In the order a source with several is read by default.
    pub const ALL: [Vendor; 4] = [Vendor::Claude, Vendor::Codex, Vendor::Cursor, Vendor::Gemini];

    pub fn name(self) -> &'static str {
        match self {
            Vendor::Claude => "claude",
            Vendor::Codex => "codex",
            Vendor::Cursor => "cursor",
            Vendor::Gemini => "gemini",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Vendor::Claude => "Claude Code",
            Vendor::Codex => "Codex",
            Vendor::Cursor => "Cursor",
            Vendor::Gemini => "Gemini CLI",
        }
    }

    pub fn from_name(name: &str) -> Option<Vendor> {
        Vendor::ALL.into_iter().find(|vendor| vendor.name() == name)
    }

    pub fn manifest(self) -> &'static str {
        match self {
            Vendor::Claude => ".claude-plugin/plugin.json",
            Vendor::Codex => ".codex-plugin/plugin.json",
            Vendor::Cursor => ".cursor-plugin/plugin.json",
            Vendor::Gemini => "gemini-extension.json",
        }
    }

    /// The top-level entry the manifest lives in (its folder, or itself).
    fn manifest_entry(self) -> &'static str {
        let manifest = self.manifest();
        manifest.split('/').next().unwrap_or(manifest)
    }

    /// The vendor's placeholders for the plugin root and its data folder,
    /// which mean what `${PLUGIN_ROOT}` and `${PLUGIN_DATA}` mean (§9.2).
    fn placeholders(self) -> &'static [(&'static str, &'static str)] {
        match self {
            Vendor::Claude => &[
                ("${CLAUDE_PLUGIN_ROOT}", "${PLUGIN_ROOT}"),
                ("${CLAUDE_PLUGIN_DATA}", "${PLUGIN_DATA}"),
            ],
            Vendor::Gemini => &[("${extensionPath}", "${PLUGIN_ROOT}")],
            Vendor::Codex | Vendor::Cursor => &[],
        }
    }
}

/// What the caller decides.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PortOptions {
    /// Read this layout; by default the first of [`Vendor::ALL`] present.
    pub from: Option<Vendor>,
    /// The plugin's `name`, in place of the source's (which may be missing
    /// or break §5.5).
    pub name: Option<String>,
}

/// Something of the source that the package does not carry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Note {
    /// Source-relative path.
    pub file: String,
    /// RFC 6901 pointer inside `file`; empty for the whole file.
    pub pointer: String,
    pub why: String,
}

/// The package: files (package-relative path, bytes) in path order, the
/// notes, and what a check of the files finds.
#[derive(Debug, Clone)]
pub struct Ported {
    pub vendor: Vendor,
    pub files: Vec<(String, Vec<u8>)>,
    pub notes: Vec<Note>,
    pub findings: Vec<Diagnostic>,
}

/// Why nothing could be ported.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotPortable {
    /// No vendor manifest (or not the one asked for) is there.
    NoLayout(Option<Vendor>),
    /// The manifest is there but is not a JSON object.
    BadManifest { file: String, why: String },
}

impl std::fmt::Display for NotPortable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NotPortable::NoLayout(Some(vendor)) => {
                write!(f, "no {} plugin here: {} is missing", vendor.label(), vendor.manifest())
            }
            NotPortable::NoLayout(None) => {
                let manifests: Vec<&str> = Vendor::ALL.iter().map(|vendor| vendor.manifest()).collect();
                write!(f, "no vendor plugin here: none of {} is there", manifests.join(", "))
            }
            NotPortable::BadManifest { file, why } => write!(f, "{file}: {why}"),
        }
    }
}

/// Ports the plugin in `tree` (rooted at the source plugin's folder).
pub fn port(tree: &Tree, options: &PortOptions) -> Result<Ported, NotPortable> {
    let vendor = match options.from {
        Some(vendor) => Some(vendor).filter(|vendor| is_file(tree, vendor.manifest())),
        None => Vendor::ALL.into_iter().find(|vendor| is_file(tree, vendor.manifest())),
    }
    .ok_or(NotPortable::NoLayout(options.from))?;
    let manifest_file = vendor.manifest();
    let source = parse_object(tree, manifest_file).map_err(|why| NotPortable::BadManifest {
        file: manifest_file.to_string(),
        why,
    })?;
    let mut port = Porter {
        vendor,
        tree,
        notes: Vec::new(),
        files: Vec::new(),
        bundled: BTreeSet::new(),
    };
    let (manifest, mcp_source) = port.manifest(&source, options.name.as_deref());
    port.files
        .push(("plugin.json".to_string(), pretty(&Value::Object(manifest.clone()))));
    let mcp_file = port.mcp(mcp_source);
    port.skills();
    port.other_entries(mcp_file.as_deref());
    port.files.sort();
    let name = manifest.get("name").and_then(Value::as_str).unwrap_or("ported");
    let mut findings = port.check(name);
    // A skill a client would skip (§7.1) is left behind rather than shipped
    // broken: the note says why, and fixing the source and porting again
    // brings it.
    let skipped: BTreeSet<String> = findings
        .iter()
        .filter(|finding| finding.severity == Severity::Error)
        .filter_map(|finding| skill_folder(finding.file.as_deref()?))
        .collect();
    if !skipped.is_empty() {
        for finding in findings.iter().filter(|finding| finding.severity == Severity::Error) {
            if let Some(file) = finding.file.as_deref().filter(|file| skill_folder(file).is_some()) {
                let why = format!("{} {}; the skill is not ported", finding.code, finding.message);
                port.note(file, finding.pointer.clone().unwrap_or_default(), why);
            }
        }
        port.files
            .retain(|(path, _)| skill_folder(path).is_none_or(|folder| !skipped.contains(&folder)));
        findings = port.check(name);
    }
    Ok(Ported {
        vendor,
        files: port.files,
        notes: port.notes,
        findings,
    })
}

/// `skills/<dir>` of a path inside one.
fn skill_folder(path: &str) -> Option<String> {
    let mut parts = path.split('/');
    match (parts.next(), parts.next(), parts.next()) {
        (Some("skills"), Some(dir), Some(_)) => Some(format!("skills/{dir}")),
        _ => None,
    }
}

fn is_file(tree: &Tree, path: &str) -> bool {
    tree.resolve(path)
        .is_ok_and(|resolved| matches!(resolved.entry, Entry::File(_)))
}

fn parse_object(tree: &Tree, path: &str) -> Result<Map<String, Value>, String> {
    let bytes = tree.read(path).ok_or("could not be read")?;
    match serde_json::from_slice::<Value>(bytes) {
        Ok(Value::Object(members)) => Ok(members),
        Ok(_) => Err("is not a JSON object".to_string()),
        Err(error) => Err(format!("is not JSON ({error})")),
    }
}

fn pretty(value: &Value) -> Vec<u8> {
    let mut text = serde_json::to_string_pretty(value).expect("JSON values serialize");
    text.push('\n');
    text.into_bytes()
}

fn pointer(tokens: &[&str]) -> String {
    let mut pointer = String::new();
    for token in tokens {
        push_token(&mut pointer, token);
    }
    pointer
}

/// Where the servers are declared: inline in the manifest, or a file.
enum McpSource {
    Inline(Value),
    File(String),
}

struct Porter<'t> {
    vendor: Vendor,
    tree: &'t Tree,
    notes: Vec<Note>,
    files: Vec<(String, Vec<u8>)>,
    /// Top-level entries a ported server names (`./bin/server`,
    /// `${PLUGIN_ROOT}/config.json`): copied, since the server needs them.
    bundled: BTreeSet<String>,
}

impl Porter<'_> {
    fn check(&self, name: &str) -> Vec<Diagnostic> {
        let output = Tree::from_files(self.files.iter().map(|(path, bytes)| (path.as_str(), bytes.as_slice())));
        check_package(name, &output).diagnostics
    }

    fn note(&mut self, file: &str, pointer: String, why: impl Into<String>) {
        self.notes.push(Note {
            file: file.to_string(),
            pointer,
            why: why.into(),
        });
    }

    fn manifest(&mut self, source: &Map<String, Value>, name: Option<&str>) -> (Map<String, Value>, Option<McpSource>) {
        let file = self.vendor.manifest();
        let mut out = Map::new();
        out.insert("$schema".to_string(), Value::String(PLUGIN_SCHEMA_ID.to_string()));
        match (name, source.get("name")) {
            (Some(name), _) => {
                out.insert("name".to_string(), Value::String(name.to_string()));
            }
            (None, None) => self.note(
                file,
                String::new(),
                "there is no `name`, which plugin.json requires (§5.3): the package is written without one; \
                 give it with --name",
            ),
            _ => {}
        }
        let mut mcp = None;
        for (key, value) in source {
            let at = pointer(&[key]);
            match key.as_str() {
                "name" if name.is_some() => {}
                "$schema" => self.note(
                    file,
                    at,
                    "the vendor's schema; plugin.json names the Agent Plugins one (§5.2)",
                ),
                "version" | "description" | "homepage" | "license" | "name" => self.string_field(&mut out, key, value),
                "author" => self.author(&mut out, value),
                "repository" => self.repository(&mut out, value),
                "keywords" => self.keywords(&mut out, value),
                "mcpServers" => match value {
                    Value::Object(_) => mcp = Some(McpSource::Inline(value.clone())),
                    Value::String(path) => match clean_relative(path) {
                        Some(path) => mcp = Some(McpSource::File(path)),
                        None => self.note(file, at, "the servers' file is not a path inside the plugin"),
                    },
                    _ => self.note(
                        file,
                        at,
                        "only one servers file or an inline object can be ported; Agent Plugins reads mcp.json alone (§7.2.1)",
                    ),
                },
                "skills" => {
                    let fixed = value.as_str().and_then(clean_relative).is_some_and(|path| path == "skills");
                    let why = if fixed {
                        "skills are found at the fixed location skills/ (§6.1), which is ported; the key is not needed"
                    } else {
                        "Agent Plugins finds skills only under skills/ (§6.1); skills at other paths are not ported"
                    };
                    self.note(file, at, why);
                }
                "commands" | "agents" | "hooks" | "outputStyles" | "lspServers" | "rules" | "apps" | "contextFileName"
                | "excludeTools" | "settings" => self.note(
                    file,
                    at,
                    format!(
                        "a {} component or setting with no Agent Plugins counterpart: v1 has only skills and MCP servers (§7)",
                        self.vendor.label()
                    ),
                ),
                _ => self.note(
                    file,
                    at,
                    "not a field of the closed Agent Plugins manifest (§5.2); client data would belong under \
                     `extensions`, whose namespace only that client can define (§8.1)",
                ),
            }
        }
        (out, mcp)
    }

    fn string_field(&mut self, out: &mut Map<String, Value>, key: &str, value: &Value) {
        if value.is_string() {
            out.insert(key.to_string(), value.clone());
        } else {
            self.note(
                self.vendor.manifest(),
                pointer(&[key]),
                format!("`{key}` must be a string (§5.3, §5.4)"),
            );
        }
    }

    fn author(&mut self, out: &mut Map<String, Value>, value: &Value) {
        let file = self.vendor.manifest();
        match value {
            Value::String(name) => {
                out.insert("author".to_string(), serde_json::json!({ "name": name }));
                self.note(
                    file,
                    "/author".to_string(),
                    "`author` is an object in Agent Plugins (§5.4): the string is carried whole as `author.name`",
                );
            }
            Value::Object(members) => {
                let mut author = Map::new();
                for (key, member) in members {
                    let at = pointer(&["author", key]);
                    match (key.as_str(), member) {
                        ("name" | "email" | "url", Value::String(_)) => {
                            author.insert(key.clone(), member.clone());
                        }
                        ("name" | "email" | "url", _) => {
                            self.note(file, at, format!("`author.{key}` must be a string (§5.4)"))
                        }
                        _ => self.note(file, at, "`author` may hold only `name`, `email` and `url` (§5.4)"),
                    }
                }
                out.insert("author".to_string(), Value::Object(author));
            }
            _ => self.note(file, "/author".to_string(), "`author` must be an object (§5.4)"),
        }
    }

    fn repository(&mut self, out: &mut Map<String, Value>, value: &Value) {
        let file = self.vendor.manifest();
        match value {
            Value::String(_) => {
                out.insert("repository".to_string(), value.clone());
            }
            Value::Object(members) if members.get("url").is_some_and(Value::is_string) => {
                out.insert("repository".to_string(), members["url"].clone());
                for key in members.keys().filter(|key| *key != "url") {
                    self.note(
                        file,
                        pointer(&["repository", key]),
                        "`repository` is a URL string (§5.4): only its `url` is carried",
                    );
                }
            }
            _ => self.note(
                file,
                "/repository".to_string(),
                "`repository` must be a URL string (§5.4)",
            ),
        }
    }

    fn keywords(&mut self, out: &mut Map<String, Value>, value: &Value) {
        let file = self.vendor.manifest();
        let Value::Array(items) = value else {
            self.note(
                file,
                "/keywords".to_string(),
                "`keywords` must be an array of strings (§5.4)",
            );
            return;
        };
        let mut kept = Vec::new();
        for (at, item) in items.iter().enumerate() {
            if item.is_string() {
                kept.push(item.clone());
            } else {
                self.note(
                    file,
                    pointer(&["keywords", &at.to_string()]),
                    "a keyword must be a string (§5.4)",
                );
            }
        }
        out.insert("keywords".to_string(), Value::Array(kept));
    }

    /// Writes mcp.json from the servers, and returns the source file it read
    /// (when not the manifest).
    fn mcp(&mut self, declared: Option<McpSource>) -> Option<String> {
        let (file, servers) = match declared {
            Some(McpSource::Inline(servers)) => (self.vendor.manifest().to_string(), servers),
            Some(McpSource::File(path)) => (path, Value::Null),
            None if self.vendor != Vendor::Gemini && is_file(self.tree, ".mcp.json") => {
                (".mcp.json".to_string(), Value::Null)
            }
            None => return None,
        };
        let (servers, base) = if servers.is_null() {
            match parse_object(self.tree, &file) {
                Ok(mut document) => {
                    for key in document.keys().filter(|key| *key != "mcpServers") {
                        self.notes.push(Note {
                            file: file.clone(),
                            pointer: pointer(&[key]),
                            why: "mcp.json holds only `$schema` and `mcpServers` (§7.2.1)".to_string(),
                        });
                    }
                    (
                        document.remove("mcpServers").unwrap_or(Value::Null),
                        "/mcpServers".to_string(),
                    )
                }
                Err(why) => {
                    self.note(
                        &file,
                        String::new(),
                        format!("the servers' file {why}; no server is ported"),
                    );
                    return Some(file);
                }
            }
        } else {
            (servers, "/mcpServers".to_string())
        };
        let Value::Object(servers) = servers else {
            self.note(&file, base, "`mcpServers` is not an object; no server is ported");
            return Some(file);
        };
        let mut out = Map::new();
        for (id, server) in &servers {
            if let Some(converted) = self.server(&file, id, server) {
                out.insert(id.clone(), Value::Object(converted));
            }
        }
        if !out.is_empty() {
            let document = serde_json::json!({ "$schema": MCP_SCHEMA_ID, "mcpServers": out });
            self.files.push(("mcp.json".to_string(), pretty(&document)));
        }
        (file != self.vendor.manifest()).then_some(file)
    }

    /// One server entry in the §7.2.1 shape, or `None` (with a note) when it
    /// cannot be one.
    fn server(&mut self, file: &str, id: &str, server: &Value) -> Option<Map<String, Value>> {
        let at = pointer(&["mcpServers", id]);
        let Value::Object(server) = server else {
            self.note(file, at, "a server entry must be an object (§7.2.1)");
            return None;
        };
        let declared = server.get("type").and_then(Value::as_str);
        let transport = match (declared, self.vendor) {
            (Some("stdio"), _) => "stdio",
            (Some("http" | "streamable-http" | "streamableHttp"), _) => "streamable-http",
            (Some("sse"), _) => "sse",
            (Some(other), _) => {
                self.note(
                    file,
                    at,
                    format!("the transport `{other}` is not one of Agent Plugins' (§7.2.1)"),
                );
                return None;
            }
            (None, _) if server.contains_key("command") => "stdio",
            (None, Vendor::Gemini) if server.contains_key("httpUrl") => "streamable-http",
            // Gemini CLI reads a bare `url` as the legacy HTTP+SSE transport.
            (None, Vendor::Gemini) if server.contains_key("url") => "sse",
            (None, _) => {
                self.note(
                    file,
                    at,
                    "the entry names no transport (`type`), and Agent Plugins has no default one (§7.2.1); set it in the source",
                );
                return None;
            }
        };
        let mut out = Map::new();
        out.insert("type".to_string(), Value::String(transport.to_string()));
        let url_key = if self.vendor == Vendor::Gemini && transport == "streamable-http" {
            "httpUrl"
        } else {
            "url"
        };
        for (key, value) in server {
            let here = pointer(&["mcpServers", id, key]);
            match (transport, key.as_str()) {
                (_, "type") => {}
                ("stdio", "command") => {
                    let Some(command) = value.as_str() else {
                        self.note(file, here, "`command` must be a string (§7.2.1)");
                        return None;
                    };
                    let command = self.command(command);
                    if command.contains("${") {
                        self.note(
                            file,
                            here,
                            "the command depends on a placeholder, and clients expand none in `command` (§7.2.1); \
                             the server is not ported",
                        );
                        return None;
                    }
                    out.insert("command".to_string(), Value::String(command));
                }
                ("stdio", "args") => {
                    let Some(args) = value.as_array().filter(|args| args.iter().all(Value::is_string)) else {
                        self.note(
                            file,
                            here,
                            "`args` must be an array of strings (§7.2.1); the server is not ported",
                        );
                        return None;
                    };
                    let mut ported = Vec::new();
                    for arg in args.iter().filter_map(Value::as_str) {
                        let arg = self.expand(arg);
                        if has_foreign_placeholder(&arg) {
                            self.note(file, here, unexpanded_why("an argument", "the server is not ported"));
                            return None;
                        }
                        ported.push(Value::String(arg));
                    }
                    out.insert("args".to_string(), Value::Array(ported));
                }
                ("stdio", "env") => {
                    let env = self.strings(file, &here, value, "env", |name| {
                        matches!(name, "PLUGIN_ROOT" | "PLUGIN_DATA")
                            .then_some("the client sets `PLUGIN_ROOT` and `PLUGIN_DATA` itself (§9.2)")
                    })?;
                    out.insert("env".to_string(), Value::Object(env));
                }
                ("stdio", "cwd") => match value.as_str().map(|cwd| self.expand(cwd)) {
                    Some(cwd) if !has_foreign_placeholder(&cwd) => {
                        out.insert("cwd".to_string(), Value::String(cwd));
                    }
                    _ => self.note(file, here, unexpanded_why("`cwd`", "the plugin root is used")),
                },
                ("streamable-http" | "sse", key) if key == url_key => {
                    let Some(url) = value.as_str().filter(|url| !url.contains("${")) else {
                        self.note(
                            file,
                            here,
                            "the URL is not a plain string, and clients expand no placeholder in it (§7.2.1); \
                             the server is not ported",
                        );
                        return None;
                    };
                    out.insert("url".to_string(), Value::String(url.to_string()));
                }
                ("streamable-http" | "sse", "headers") => {
                    let headers = self.strings(file, &here, value, "headers", |_| None)?;
                    out.insert("headers".to_string(), Value::Object(headers));
                }
                _ => self.note(
                    file,
                    here,
                    format!("`{key}` is not a field of a `{transport}` server in Agent Plugins (§7.2.1)"),
                ),
            }
        }
        let required = if transport == "stdio" { "command" } else { "url" };
        if !out.contains_key(required) {
            self.note(
                file,
                at,
                format!("a `{transport}` server needs `{required}` (§7.2.1); the server is not ported"),
            );
            return None;
        }
        self.bundle(&out);
        Some(out)
    }

    /// Remembers the top-level entries of the plugin a stdio server names.
    fn bundle(&mut self, server: &Map<String, Value>) {
        let mut texts: Vec<&str> = Vec::new();
        for key in ["command", "cwd"] {
            texts.extend(server.get(key).and_then(Value::as_str));
        }
        for key in ["args", "env"] {
            match server.get(key) {
                Some(Value::Array(items)) => texts.extend(items.iter().filter_map(Value::as_str)),
                Some(Value::Object(members)) => texts.extend(members.values().filter_map(Value::as_str)),
                _ => {}
            }
        }
        for text in texts {
            let mut rests: Vec<&str> = text.split("${PLUGIN_ROOT}/").skip(1).collect();
            rests.extend(text.strip_prefix("./"));
            for rest in rests {
                let top = rest.split(['/', ' ', '"', '\'', ',', ':', ';']).next().unwrap_or("");
                if !top.is_empty() && top != "." && top != ".." {
                    self.bundled.insert(top.to_string());
                }
            }
        }
    }

    /// An `env` or `headers` object: each string entry that needs no
    /// expansion is kept; `refuse` names the entries that must go.
    fn strings(
        &mut self,
        file: &str,
        at: &str,
        value: &Value,
        what: &str,
        refuse: impl Fn(&str) -> Option<&'static str>,
    ) -> Option<Map<String, Value>> {
        let Value::Object(members) = value else {
            self.note(
                file,
                at.to_string(),
                format!("`{what}` must be an object of strings (§7.2.1)"),
            );
            return None;
        };
        let mut kept = Map::new();
        for (name, member) in members {
            let mut here = at.to_string();
            push_token(&mut here, name);
            if let Some(why) = refuse(name) {
                self.note(file, here, why);
                continue;
            }
            // Headers are never expanded (§7.2.1), env values only for the plugin's own placeholders (§9.2).
            let text = match (what, member.as_str()) {
                ("env", Some(text)) => self.expand(text),
                (_, Some(text)) => text.to_string(),
                (_, None) => {
                    self.note(file, here, format!("`{what}` values must be strings (§7.2.1)"));
                    continue;
                }
            };
            if what == "headers" && text.contains("${") {
                self.note(
                    file,
                    here,
                    "the value uses a placeholder, and clients expand none in headers (§7.2.1); the entry is left out",
                );
                continue;
            }
            if has_foreign_placeholder(&text) {
                self.note(file, here, unexpanded_why("the value", "the entry is left out"));
                continue;
            }
            kept.insert(name.clone(), Value::String(text));
        }
        Some(kept)
    }

    /// A command naming a file of the plugin through the vendor's root
    /// placeholder becomes the plugin-relative path §7.2.1 asks for.
    fn command(&self, command: &str) -> String {
        for (vendor_root, portable) in self.vendor.placeholders() {
            if *portable == "${PLUGIN_ROOT}"
                && let Some(rest) = command.strip_prefix(vendor_root)
                && let Some(rest) = rest.strip_prefix('/')
            {
                return format!("./{rest}");
            }
        }
        command.to_string()
    }

    fn expand(&self, text: &str) -> String {
        let mut text = text.to_string();
        for (vendor, portable) in self.vendor.placeholders() {
            text = text.replace(vendor, portable);
        }
        text
    }

    /// Copies each `skills/<dir>` holding a SKILL.md, byte for byte.
    fn skills(&mut self) {
        let tree = self.tree;
        let Ok(skills) = tree.resolve("skills") else { return };
        if !matches!(skills.entry, Entry::Dir) {
            self.note(
                "skills",
                String::new(),
                "`skills` is not a folder, so no skill is ported (§6.2)",
            );
            return;
        }
        for (name, path, _) in tree.children(skills.path) {
            let source = format!("skills/{name}");
            let folder = match tree.resolve(path) {
                Ok(folder) if matches!(folder.entry, Entry::Dir) => folder.path,
                _ => {
                    self.note(&source, String::new(), "not a skill folder (§7.1)");
                    continue;
                }
            };
            if !is_file(tree, &format!("{folder}/SKILL.md")) {
                self.note(&source, String::new(), "holds no SKILL.md, so it is not a skill (§7.1)");
                continue;
            }
            self.copy_folder(folder, &source);
        }
    }

    fn copy_folder(&mut self, folder: &str, target: &str) {
        let tree = self.tree;
        for (path, entry) in tree.descendants(folder) {
            let inner = &path[folder.len() + 1..];
            let source = format!("{target}/{inner}");
            if let Some(size) = tree.truncated().get(path) {
                self.note(
                    &source,
                    String::new(),
                    format!("larger ({size} bytes) than a check reads; not copied"),
                );
                continue;
            }
            match entry {
                Entry::Dir => {}
                Entry::File(_) | Entry::Symlink(_) => match tree.resolve(path) {
                    Ok(resolved) if matches!(resolved.entry, Entry::File(_)) => match tree.read(path) {
                        Some(bytes) => self.files.push((source, bytes.to_vec())),
                        None => self.note(&source, String::new(), "could not be read; not copied"),
                    },
                    Ok(_) => self.note(&source, String::new(), "a link to a folder; not followed"),
                    Err(_) => self.note(
                        &source,
                        String::new(),
                        "a link that does not resolve inside the plugin (§4.1); not copied",
                    ),
                },
                Entry::Other(why) | Entry::Unreadable(why) => {
                    self.note(&source, String::new(), format!("{why}; not copied"));
                }
            }
        }
        for (path, limit) in tree.omitted_in(folder) {
            let inner = &path[folder.len() + 1..];
            self.note(
                &format!("{target}/{inner}"),
                String::new(),
                format!("left out at the reader's `{limit}` limit; not copied"),
            );
        }
    }

    /// Every other top-level entry: license files are copied (the terms the
    /// skills come under), the rest is noted.
    fn other_entries(&mut self, mcp_file: Option<&str>) {
        let tree = self.tree;
        let mcp_top = mcp_file.and_then(|file| file.split('/').next());
        for (name, path, entry) in tree.children("") {
            if name == "skills" || Some(name) == mcp_top {
                continue;
            }
            let why = if name == self.vendor.manifest_entry() {
                let manifest = self.vendor.manifest();
                if tree
                    .descendants(path)
                    .all(|(inner, entry)| inner == manifest || matches!(entry, Entry::Dir))
                {
                    continue;
                }
                "the vendor's manifest folder; plugin.json is written from its manifest, the rest is not copied"
            } else if self.bundled.contains(name) {
                match tree.resolve(path) {
                    Ok(resolved) if matches!(resolved.entry, Entry::Dir) => {
                        self.copy_folder(resolved.path, name);
                        continue;
                    }
                    Ok(resolved) if matches!(resolved.entry, Entry::File(_)) => match tree.read(path) {
                        Some(bytes) => {
                            self.files.push((name.to_string(), bytes.to_vec()));
                            continue;
                        }
                        None => "named by a server, but could not be read; not copied",
                    },
                    _ => "named by a server, but neither a file nor a folder inside the plugin; not copied",
                }
            } else if is_license(name) && matches!(entry, Entry::File(_)) {
                if let Some(bytes) = tree.read(path) {
                    self.files.push((name.to_string(), bytes.to_vec()));
                    continue;
                }
                "could not be read; not copied"
            } else if name == ".mcp.json" {
                "a vendor servers file the manifest's `mcpServers` takes the place of; not read"
            } else if matches!(name, "plugin.json" | "mcp.json") {
                "an Agent Plugins file already there: port builds the package from the vendor layout, not from it"
            } else if matches!(entry, Entry::Dir) {
                "not an Agent Plugins component location (§6.1); the folder is not copied"
            } else {
                "not an Agent Plugins component (§6.1); not copied"
            };
            self.note(name, String::new(), why);
        }
    }
}

/// Whether `text` holds `${` that is not one of the two placeholders §9.2 defines.
fn has_foreign_placeholder(text: &str) -> bool {
    text.replace("${PLUGIN_ROOT}", "")
        .replace("${PLUGIN_DATA}", "")
        .contains("${")
}

fn unexpanded_why(what: &str, outcome: &str) -> String {
    format!(
        "{what} uses a placeholder other than `${{PLUGIN_ROOT}}` and `${{PLUGIN_DATA}}`, which Agent Plugins \
         clients never expand (§9.2); {outcome}"
    )
}

fn is_license(name: &str) -> bool {
    let upper = name.to_ascii_uppercase();
    ["LICENSE", "LICENCE", "COPYING", "NOTICE"]
        .iter()
        .any(|prefix| upper.starts_with(prefix))
}

/// `path` as a clean path inside the root (`./x/` → `x`), or `None`.
fn clean_relative(path: &str) -> Option<String> {
    let parts: Vec<&str> = path
        .split('/')
        .filter(|part| !part.is_empty() && *part != ".")
        .collect();
    if path.starts_with('/') || parts.is_empty() || parts.contains(&"..") {
        return None;
    }
    Some(parts.join("/"))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn ported(files: &[(&str, &[u8])], options: &PortOptions) -> Ported {
        port(&Tree::from_files(files.iter().copied()), options).expect("a vendor layout is there")
    }

    fn json_file(ported: &Ported, path: &str) -> Value {
        let (_, bytes) = ported
            .files
            .iter()
            .find(|(file, _)| file == path)
            .expect("the file is written");
        serde_json::from_slice(bytes).unwrap()
    }

    fn note_at<'p>(ported: &'p Ported, file: &str, pointer: &str) -> &'p str {
        let note = ported
            .notes
            .iter()
            .find(|note| note.file == file && note.pointer == pointer);
        &note
            .unwrap_or_else(|| panic!("no note at {file}#{pointer}: {:?}", ported.notes))
            .why
    }

    #[test]
    fn every_manifest_field_is_carried_and_every_other_key_is_noted() {
        let manifest = json!({
            "name": "release-tools", "version": "1.0.0", "description": "Drafts notes.",
            "author": {"name": "A", "email": "a@example.com", "url": "https://example.com", "role": "x"},
            "homepage": "https://example.com/h", "repository": {"type": "git", "url": "https://example.com/r"},
            "license": "MIT", "keywords": ["a", 1], "commands": "./commands/", "displayName": "Release"
        })
        .to_string();
        let out = ported(
            &[(".claude-plugin/plugin.json", manifest.as_bytes())],
            &PortOptions::default(),
        );
        assert_eq!(
            json_file(&out, "plugin.json"),
            json!({
                "$schema": PLUGIN_SCHEMA_ID, "name": "release-tools", "version": "1.0.0", "description": "Drafts notes.",
                "author": {"name": "A", "email": "a@example.com", "url": "https://example.com"},
                "homepage": "https://example.com/h", "repository": "https://example.com/r",
                "license": "MIT", "keywords": ["a"]
            })
        );
        let file = ".claude-plugin/plugin.json";
        assert!(note_at(&out, file, "/author/role").contains("§5.4"));
        assert!(note_at(&out, file, "/repository/type").contains("only its `url`"));
        assert!(note_at(&out, file, "/keywords/1").contains("string"));
        assert!(note_at(&out, file, "/commands").contains("Claude Code component"));
        assert!(note_at(&out, file, "/displayName").contains("closed"));
        assert!(out.findings.is_empty(), "{:?}", out.findings);
    }

    #[test]
    fn a_missing_name_stays_missing_unless_given_and_the_check_says_so() {
        let files: &[(&str, &[u8])] = &[(".claude-plugin/plugin.json", b"{\"version\": \"1.0.0\"}")];
        let out = ported(files, &PortOptions::default());
        assert!(json_file(&out, "plugin.json").get("name").is_none());
        assert!(note_at(&out, ".claude-plugin/plugin.json", "").contains("--name"));
        assert!(out.findings.iter().any(|finding| finding.severity == Severity::Error));

        let named = PortOptions {
            name: Some("given".to_string()),
            ..PortOptions::default()
        };
        let out = ported(files, &named);
        assert_eq!(json_file(&out, "plugin.json")["name"], "given");
        assert!(out.findings.is_empty(), "{:?}", out.findings);
    }

    #[test]
    fn an_author_string_becomes_its_name_with_a_note() {
        let out = ported(
            &[(
                ".claude-plugin/plugin.json",
                b"{\"name\": \"p\", \"author\": \"A <a@example.com>\"}",
            )],
            &PortOptions::default(),
        );
        assert_eq!(
            json_file(&out, "plugin.json")["author"],
            json!({"name": "A <a@example.com>"})
        );
        assert!(note_at(&out, ".claude-plugin/plugin.json", "/author").contains("author.name"));
    }

    #[test]
    fn claude_placeholders_become_the_portable_ones_and_user_variables_are_left_out() {
        let mcp = json!({"mcpServers": {
            "local": {
                "command": "${CLAUDE_PLUGIN_ROOT}/bin/server",
                "args": ["--data", "${CLAUDE_PLUGIN_DATA}/db"],
                "env": {"HOME_DIR": "${CLAUDE_PLUGIN_ROOT}", "TOKEN": "${TOKEN}", "PLUGIN_ROOT": "/x"}
            },
            "user-arg": {"command": "srv", "args": ["--key", "${KEY}"]},
            "remote": {"type": "http", "url": "https://example.com/mcp", "headers": {"X-A": "b", "X-T": "${T}"}},
            "untyped": {"url": "https://example.com/mcp"}
        }})
        .to_string();
        let out = ported(
            &[
                (".claude-plugin/plugin.json", b"{\"name\": \"p\"}"),
                (".mcp.json", mcp.as_bytes()),
                ("bin/server", b"#!/bin/sh\n"),
            ],
            &PortOptions::default(),
        );
        assert_eq!(
            json_file(&out, "mcp.json"),
            json!({"$schema": MCP_SCHEMA_ID, "mcpServers": {
                "local": {
                    "type": "stdio", "command": "./bin/server",
                    "args": ["--data", "${PLUGIN_DATA}/db"], "env": {"HOME_DIR": "${PLUGIN_ROOT}"}
                },
                "remote": {"type": "streamable-http", "url": "https://example.com/mcp", "headers": {"X-A": "b"}}
            }})
        );
        assert!(
            out.files
                .iter()
                .any(|(file, bytes)| file == "bin/server" && bytes == b"#!/bin/sh\n")
        );
        assert!(note_at(&out, ".mcp.json", "/mcpServers/local/env/TOKEN").contains("§9.2"));
        assert!(note_at(&out, ".mcp.json", "/mcpServers/local/env/PLUGIN_ROOT").contains("itself"));
        assert!(note_at(&out, ".mcp.json", "/mcpServers/user-arg/args").contains("not ported"));
        assert!(note_at(&out, ".mcp.json", "/mcpServers/remote/headers/X-T").contains("left out"));
        assert!(note_at(&out, ".mcp.json", "/mcpServers/untyped").contains("no transport"));
        assert!(out.findings.is_empty(), "{:?}", out.findings);
    }

    #[test]
    fn gemini_servers_are_read_from_the_manifest_by_their_url_keys() {
        let manifest = json!({
            "name": "g", "version": "0.1.0", "contextFileName": "GEMINI.md",
            "mcpServers": {
                "now": {"httpUrl": "https://example.com/mcp"},
                "old": {"url": "https://example.com/sse"},
                "local": {"command": "node", "args": ["${extensionPath}/server.js"], "trust": true}
            }
        })
        .to_string();
        let out = ported(
            &[("gemini-extension.json", manifest.as_bytes()), ("server.js", b"")],
            &PortOptions::default(),
        );
        assert_eq!(out.vendor, Vendor::Gemini);
        assert_eq!(
            json_file(&out, "mcp.json")["mcpServers"],
            json!({
                "now": {"type": "streamable-http", "url": "https://example.com/mcp"},
                "old": {"type": "sse", "url": "https://example.com/sse"},
                "local": {"type": "stdio", "command": "node", "args": ["${PLUGIN_ROOT}/server.js"]}
            })
        );
        assert!(out.files.iter().any(|(file, _)| file == "server.js"));
        assert!(note_at(&out, "gemini-extension.json", "/mcpServers/local/trust").contains("not a field"));
        assert!(note_at(&out, "gemini-extension.json", "/contextFileName").contains("Gemini CLI"));
    }

    #[test]
    fn a_servers_file_named_by_the_manifest_is_read_and_from_picks_the_layout() {
        let files: &[(&str, &[u8])] = &[
            (".claude-plugin/plugin.json", b"{\"name\": \"claude-side\"}"),
            (
                ".codex-plugin/plugin.json",
                b"{\"name\": \"codex-side\", \"mcpServers\": \"./servers.json\", \"interface\": {}}",
            ),
            ("servers.json", b"{\"mcpServers\": {\"s\": {\"command\": \"srv\"}}}"),
        ];
        assert_eq!(ported(files, &PortOptions::default()).vendor, Vendor::Claude);
        let codex = PortOptions {
            from: Some(Vendor::Codex),
            ..PortOptions::default()
        };
        let out = ported(files, &codex);
        assert_eq!(json_file(&out, "plugin.json")["name"], "codex-side");
        assert_eq!(json_file(&out, "mcp.json")["mcpServers"]["s"]["type"], "stdio");
        assert!(note_at(&out, ".codex-plugin/plugin.json", "/interface").contains("closed"));
        assert!(!out.notes.iter().any(|note| note.file == "servers.json"));
    }

    #[test]
    fn skills_are_copied_byte_for_byte_and_what_is_not_a_skill_is_noted() {
        let body: &[u8] =
            "---\r\nname: demo\r\ndescription: Demos things. Use when asked to demo.\r\n---\r\n\tbody \u{e9}\r\n"
                .as_bytes();
        let mut tree = Tree::from_files([
            (".claude-plugin/plugin.json", b"{\"name\": \"p\"}".as_slice()),
            ("skills/demo/SKILL.md", body),
            ("skills/demo/scripts/run.sh", b"echo\n"),
            ("skills/loose/notes.md", b"x"),
            ("LICENSE", b"MIT"),
            ("commands/c.md", b"c"),
        ]);
        tree.insert("skills/demo/outside", Entry::Symlink("../../../etc/passwd".to_string()));
        let out = port(&tree, &PortOptions::default()).unwrap();
        let written: Vec<&str> = out.files.iter().map(|(file, _)| file.as_str()).collect();
        assert_eq!(
            written,
            [
                "LICENSE",
                "plugin.json",
                "skills/demo/SKILL.md",
                "skills/demo/scripts/run.sh"
            ]
        );
        assert_eq!(out.files[2].1, body);
        assert!(note_at(&out, "skills/demo/outside", "").contains("§4.1"));
        assert!(note_at(&out, "skills/loose", "").contains("no SKILL.md"));
        assert!(note_at(&out, "commands", "").contains("not copied"));
    }

    #[test]
    fn a_skill_a_client_would_skip_is_left_behind_with_the_reason() {
        let out = ported(
            &[
                (".claude-plugin/plugin.json", b"{\"name\": \"p\"}"),
                (
                    "skills/good/SKILL.md",
                    b"---\nname: good\ndescription: Does good. Use when asked.\n---\n",
                ),
                (
                    "skills/bad/SKILL.md",
                    b"---\nname: other\ndescription: Does bad. Use when asked.\n---\n",
                ),
                ("skills/bad/scripts/x.sh", b"x"),
            ],
            &PortOptions::default(),
        );
        let written: Vec<&str> = out.files.iter().map(|(file, _)| file.as_str()).collect();
        assert_eq!(written, ["plugin.json", "skills/good/SKILL.md"]);
        let why = &out
            .notes
            .iter()
            .find(|note| note.file == "skills/bad/SKILL.md")
            .unwrap()
            .why;
        assert!(
            why.starts_with("AP309 ") && why.ends_with("the skill is not ported"),
            "{why}"
        );
        assert!(out.findings.is_empty(), "{:?}", out.findings);
    }

    #[test]
    fn nothing_is_portable_without_a_vendor_manifest_or_with_a_broken_one() {
        let none = port(&Tree::from_files([("plugin.json", "{}")]), &PortOptions::default());
        assert_eq!(none.unwrap_err(), NotPortable::NoLayout(None));
        let broken = port(
            &Tree::from_files([("gemini-extension.json", "[1]")]),
            &PortOptions::default(),
        );
        assert!(matches!(broken, Err(NotPortable::BadManifest { .. })));
        let asked = PortOptions {
            from: Some(Vendor::Cursor),
            ..PortOptions::default()
        };
        let missing = port(&Tree::from_files([(".claude-plugin/plugin.json", "{}")]), &asked);
        assert_eq!(missing.unwrap_err(), NotPortable::NoLayout(Some(Vendor::Cursor)));
    }
}
