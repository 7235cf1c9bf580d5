//! The large plugin the benchmarks time: a generated root with 500 skills and
//! 200 MCP servers, shared by `benches/check.rs`, `benches/lsp.rs` and
//! `benches/npm.rs`.

use std::fs;
use std::path::Path;

pub const SKILLS: usize = 500;
pub const SERVERS: usize = 200;

/// A conformant plugin root: `plugin.json`, 500 skills with a few reference
/// files each, and an `mcp.json` with 200 servers, half stdio, half Streamable HTTP.
pub fn generate(root: &Path) {
    fs::write(
        root.join("plugin.json"),
        r#"{
  "$schema": "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json",
  "name": "bench-plugin",
  "version": "1.0.0",
  "description": "A large generated plugin for timing apcheck"
}
"#,
    )
    .expect("write plugin.json");
    for i in 0..SKILLS {
        let dir = root.join(format!("skills/skill-{i:03}"));
        fs::create_dir_all(dir.join("references")).expect("create a skill directory");
        let body = "Follow these steps carefully and report what you found.\n".repeat(40);
        fs::write(
            dir.join("SKILL.md"),
            format!(
                "---\nname: skill-{i:03}\ndescription: Does task number {i} when the user asks for it.\n---\n\n# Skill {i}\n\n{body}"
            ),
        )
        .expect("write SKILL.md");
        fs::write(dir.join("references/notes.md"), "Notes.\n").expect("write a reference");
    }
    fs::create_dir_all(root.join("bin")).expect("create bin");
    fs::write(root.join("bin/server"), "#!/bin/sh\n").expect("write the server");
    let servers: Vec<String> = (0..SERVERS)
        .map(|i| {
            if i % 2 == 0 {
                format!(
                    r#"    "stdio-{i}": {{ "type": "stdio", "command": "./bin/server", "args": ["--port", "{i}"], "env": {{ "MODE": "fast" }} }}"#
                )
            } else {
                format!(r#"    "http-{i}": {{ "type": "streamable-http", "url": "https://mcp.example.com/{i}" }}"#)
            }
        })
        .collect();
    fs::write(
        root.join("mcp.json"),
        format!(
            "{{\n  \"$schema\": \"https://agent-plugins.org/schemas/1.0.0/mcp.schema.json\",\n  \"mcpServers\": {{\n{}\n  }}\n}}\n",
            servers.join(",\n")
        ),
    )
    .expect("write mcp.json");
}
