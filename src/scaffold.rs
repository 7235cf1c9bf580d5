//! `apcheck new`: the files of a fresh package that a conformant client loads
//! whole, and that `apcheck check` finds nothing in (manifest, one
//! `skills/<name>/SKILL.md` per skill, `mcp.json` when servers are named).
//!
//! Sans-IO: names in, files out. The names are not validated here by rules of
//! their own: the package is checked with the real rules before it is handed
//! back, and any finding is the reason it is refused. So `apcheck new` can
//! never write what `apcheck check` would report, and the two cannot drift.

use serde_json::{Map, Value, json};

use crate::hops::check_package;
use crate::render::path_from_root;
use crate::schemas::{MCP_SCHEMA_ID, PLUGIN_SCHEMA_ID};
use crate::tree::Tree;

/// What `apcheck new` is asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewPackage {
    /// The plugin's `name` (§5.3), also its directory's name.
    pub name: String,
    /// Skill names (Agent Skills: the directory under `skills/` and `name`).
    pub skills: Vec<String>,
    /// `mcp.json` servers, in the order given.
    pub servers: Vec<NewServer>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewServer {
    /// The key under `mcpServers`.
    pub id: String,
    pub transport: NewTransport,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NewTransport {
    /// A local process (§7.2.1): `command` is one token, `args` keep their boundaries.
    Stdio { command: String, args: Vec<String> },
    /// A remote server over Streamable HTTP.
    Http { url: String },
}

/// The package's files as (package-relative path, text), in path order; or
/// why it cannot be written: a repeated name, or the findings a check of it
/// has (a bad plugin or skill name, a command that is not one token, a URL
/// that is not absolute), one per line.
pub fn new_package(request: &NewPackage) -> Result<Vec<(String, String)>, String> {
    if let Some(repeated) = first_repeated(request.skills.iter().map(String::as_str)) {
        return Err(format!("--skill {repeated} is given twice"));
    }
    if let Some(repeated) = first_repeated(request.servers.iter().map(|server| server.id.as_str())) {
        return Err(format!("the server id {repeated} is given twice"));
    }
    let mut files = vec![("plugin.json".to_string(), manifest(request))];
    for skill in &request.skills {
        files.push((format!("skills/{skill}/SKILL.md"), skill_md(skill, &request.name)));
    }
    if !request.servers.is_empty() {
        files.push(("mcp.json".to_string(), mcp_json(&request.servers)));
    }
    files.sort();
    let tree = Tree::from_files(files.iter().map(|(path, text)| (path.as_str(), text.as_str())));
    let report = check_package(&request.name, &tree);
    if report.diagnostics.is_empty() {
        return Ok(files);
    }
    let findings: Vec<String> = report
        .diagnostics
        .iter()
        .map(|d| {
            let file = d.file.as_deref().map(|file| path_from_root(&request.name, file));
            format!(
                "{}: {} {}",
                file.unwrap_or_else(|| request.name.clone()),
                d.code,
                d.message
            )
        })
        .collect();
    Err(format!(
        "the package would not check clean, so nothing was written:\n  {}",
        findings.join("\n  ")
    ))
}

fn first_repeated<'a>(names: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    let mut seen = std::collections::BTreeSet::new();
    names.into_iter().find(|name| !seen.insert(*name))
}

fn manifest(request: &NewPackage) -> String {
    pretty(&json!({
        "$schema": PLUGIN_SCHEMA_ID,
        "name": request.name,
        "version": "0.1.0",
        "description": format!("What {} gives an agent, in one sentence.", request.name),
    }))
}

/// A skill whose description says what and when (AP314), and whose body
/// tells the author what to write there.
fn skill_md(skill: &str, plugin: &str) -> String {
    format!(
        "---\nname: {skill}\ndescription: Handles the {skill} tasks of {plugin}. Use when the user asks for {skill}.\n---\n\n\
         # {skill}\n\n\
         Replace this text with the instructions an agent follows when it uses this skill, and the \
         description above with what the skill does and when to use it: agents choose skills by it.\n"
    )
}

fn mcp_json(servers: &[NewServer]) -> String {
    let mut entries = Map::new();
    for server in servers {
        let entry = match &server.transport {
            NewTransport::Stdio { command, args } if args.is_empty() => {
                json!({ "type": "stdio", "command": command })
            }
            NewTransport::Stdio { command, args } => json!({ "type": "stdio", "command": command, "args": args }),
            NewTransport::Http { url } => json!({ "type": "streamable-http", "url": url }),
        };
        entries.insert(server.id.clone(), entry);
    }
    pretty(&json!({ "$schema": MCP_SCHEMA_ID, "mcpServers": entries }))
}

fn pretty(value: &Value) -> String {
    let mut text = serde_json::to_string_pretty(value).expect("JSON values serialize");
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(name: &str, skills: &[&str], servers: Vec<NewServer>) -> NewPackage {
        NewPackage {
            name: name.to_string(),
            skills: skills.iter().map(|s| s.to_string()).collect(),
            servers,
        }
    }

    fn stdio(id: &str, command: &str, args: &[&str]) -> NewServer {
        NewServer {
            id: id.to_string(),
            transport: NewTransport::Stdio {
                command: command.to_string(),
                args: args.iter().map(|a| a.to_string()).collect(),
            },
        }
    }

    #[test]
    fn a_full_package_loads_whole_and_has_no_findings() {
        let http = NewServer {
            id: "remote".into(),
            transport: NewTransport::Http {
                url: "https://mcp.example.com/mcp".into(),
            },
        };
        let files = new_package(&request(
            "invoice-ops",
            &["pdf-tools", "ledger"],
            vec![stdio("tools", "uvx", &["invoice-tools", "--read-only"]), http],
        ))
        .unwrap();
        let paths: Vec<&str> = files.iter().map(|(path, _)| path.as_str()).collect();
        assert_eq!(
            paths,
            [
                "mcp.json",
                "plugin.json",
                "skills/ledger/SKILL.md",
                "skills/pdf-tools/SKILL.md"
            ]
        );
        let tree = Tree::from_files(files.iter().map(|(p, t)| (p.as_str(), t.as_str())));
        let report = check_package("invoice-ops", &tree);
        assert!(report.diagnostics.is_empty(), "{:?}", report.diagnostics);
        // §11.1: everything named is discovered or valid.
        assert_eq!(report.summary.skills_discovered, 2);
        assert_eq!(report.summary.servers_valid, 2);
        let mcp: Value = serde_json::from_str(&files[0].1).unwrap();
        assert_eq!(
            mcp["mcpServers"]["tools"]["args"],
            json!(["invoice-tools", "--read-only"])
        );
        assert_eq!(mcp["mcpServers"]["remote"]["type"], "streamable-http");
    }

    #[test]
    fn a_plugin_with_nothing_but_a_name_writes_only_its_manifest() {
        let files = new_package(&request("solo", &[], vec![])).unwrap();
        assert_eq!(files.len(), 1);
        assert!(files[0].1.starts_with(
            "{\n  \"$schema\": \"https://agent-plugins.org/schemas/1.0.0/plugin.schema.json\",\n  \"name\": \"solo\""
        ));
    }

    #[test]
    fn names_the_rules_reject_are_refused_with_their_findings() {
        let bad_name = new_package(&request("Invoice_Ops", &[], vec![])).unwrap_err();
        assert!(bad_name.contains("plugin.json: AP209"), "{bad_name}");
        let bad_skill = new_package(&request("ok", &["PDF Tools"], vec![])).unwrap_err();
        assert!(bad_skill.contains("AP308"), "{bad_skill}");
        let twice = new_package(&request("ok", &["a", "a"], vec![])).unwrap_err();
        assert_eq!(twice, "--skill a is given twice");
        let ids = new_package(&request(
            "ok",
            &[],
            vec![stdio("s", "uvx", &[]), stdio("s", "npx", &[])],
        ))
        .unwrap_err();
        assert_eq!(ids, "the server id s is given twice");
    }
}
