//! What the Agent Plugins 1.0.0 spec text says about each manifest and MCP
//! configuration key, read from the spec itself (embedded in the native build
//! only: the page stays small). The schema's descriptions are terse; the
//! spec's field tables and the paragraphs that constrain a field are what an
//! author needs in a hover.

use super::spec_note::{Place, SpecNote};

/// Agent Plugins 1.0.0 (CC BY 4.0, see `reference/agent-plugins-1.0.0/NOTICE.md`).
static SPEC: &str = include_str!("../../reference/agent-plugins-1.0.0/spec.md");

/// Where the spec speaks about a key.
enum Source {
    /// The Description cell of the table row whose first cell is the key, in a section.
    Row { heading: &'static str },
    /// The paragraph of a section that starts with this text.
    Paragraph {
        heading: &'static str,
        starts: &'static str,
    },
}

struct Field {
    place: Place,
    key: &'static str,
    section: &'static str,
    source: Source,
}

const REQUIRED: &str = "5.3 Required fields";
const METADATA: &str = "5.4 Metadata fields";
const MCP: &str = "7.2.1 Discovery and configuration";
const STDIO: &str = "stdio";
const REMOTE: &str = "Streamable HTTP and legacy HTTP+SSE";

const fn row(place: Place, key: &'static str, section: &'static str, heading: &'static str) -> Field {
    Field {
        place,
        key,
        section,
        source: Source::Row { heading },
    }
}

const fn paragraph(
    place: Place,
    key: &'static str,
    section: &'static str,
    heading: &'static str,
    starts: &'static str,
) -> Field {
    Field {
        place,
        key,
        section,
        source: Source::Paragraph { heading, starts },
    }
}

static FIELDS: &[Field] = &[
    row(Place::ManifestRoot, "$schema", "§5.3", REQUIRED),
    paragraph(
        Place::ManifestRoot,
        "$schema",
        "§5.2",
        "5.2 Manifest object",
        "The required `$schema` field",
    ),
    row(Place::ManifestRoot, "name", "§5.3", REQUIRED),
    paragraph(
        Place::ManifestRoot,
        "name",
        "§5.3",
        REQUIRED,
        "If a required field is missing",
    ),
    paragraph(
        Place::ManifestRoot,
        "name",
        "§5.5",
        "5.5 Plugin name constraints",
        "Valid names:",
    ),
    paragraph(
        Place::ManifestRoot,
        "name",
        "§5.5",
        "5.5 Plugin name constraints",
        "Invalid names:",
    ),
    row(Place::ManifestRoot, "version", "§5.4", METADATA),
    paragraph(
        Place::ManifestRoot,
        "version",
        "§5.4",
        METADATA,
        "Except where this specification",
    ),
    row(Place::ManifestRoot, "description", "§5.4", METADATA),
    row(Place::ManifestRoot, "author", "§5.4", METADATA),
    paragraph(
        Place::ManifestRoot,
        "author",
        "§5.4",
        METADATA,
        "The `author` object MAY",
    ),
    row(Place::ManifestRoot, "homepage", "§5.4", METADATA),
    row(Place::ManifestRoot, "repository", "§5.4", METADATA),
    row(Place::ManifestRoot, "license", "§5.4", METADATA),
    row(Place::ManifestRoot, "keywords", "§5.4", METADATA),
    paragraph(
        Place::ManifestRoot,
        "extensions",
        "§5.6",
        "5.6 Extensions field",
        "The optional `extensions`",
    ),
    paragraph(
        Place::ManifestRoot,
        "extensions",
        "§8.1",
        "8.1 Manifest extension data",
        "The optional `extensions`",
    ),
    paragraph(
        Place::ManifestRoot,
        "extensions",
        "§8.1",
        "8.1 Manifest extension data",
        "If `extensions` is not",
    ),
    paragraph(Place::Author, "name", "§5.4", METADATA, "The `author` object MAY"),
    paragraph(Place::Author, "email", "§5.4", METADATA, "The `author` object MAY"),
    paragraph(Place::Author, "url", "§5.4", METADATA, "The `author` object MAY"),
    paragraph(Place::McpRoot, "$schema", "§7.2.1", MCP, "The required `$schema` field"),
    paragraph(
        Place::McpRoot,
        "mcpServers",
        "§7.2.1",
        MCP,
        "`mcp.json` MUST be a JSON object",
    ),
    paragraph(
        Place::Server,
        "type",
        "§7.2.1",
        MCP,
        "Each server configuration MUST contain",
    ),
    row(Place::Server, "command", "§7.2.1 (stdio)", STDIO),
    paragraph(
        Place::Server,
        "command",
        "§7.2.1 (stdio)",
        STDIO,
        "The `command` field MUST",
    ),
    row(Place::Server, "args", "§7.2.1 (stdio)", STDIO),
    row(Place::Server, "env", "§7.2.1 (stdio)", STDIO),
    paragraph(
        Place::Server,
        "env",
        "§9.1",
        "9.1 Subprocess environment",
        "The client chooses the base subprocess",
    ),
    row(Place::Server, "cwd", "§7.2.1 (stdio)", STDIO),
    paragraph(Place::Server, "cwd", "§7.2.1 (stdio)", STDIO, "When `cwd` is omitted"),
    row(Place::Server, "url", "§7.2.1 (remote)", REMOTE),
    paragraph(Place::Server, "url", "§7.2.1 (remote)", REMOTE, "The `url` value MUST"),
    row(Place::Server, "headers", "§7.2.1 (remote)", REMOTE),
    paragraph(
        Place::Server,
        "headers",
        "§7.2.1 (remote)",
        REMOTE,
        "Header values are visible package data",
    ),
];

/// The spec's words about `key` of an object at `place`, in reading order.
pub fn notes(place: Place, key: &str) -> Vec<SpecNote> {
    FIELDS
        .iter()
        .filter(|field| field.place == place && field.key == key)
        .filter_map(|field| {
            let text = match field.source {
                Source::Row { heading } => table_row(section_body(heading)?, key)?,
                Source::Paragraph { heading, starts } => paragraph_starting(section_body(heading)?, starts)?,
            };
            Some(SpecNote {
                section: field.section,
                text,
            })
        })
        .collect()
}

/// The text under the heading `title` (any level), up to the next heading.
fn section_body(title: &str) -> Option<&'static str> {
    let mut offset = 0;
    let mut start = None;
    for line in SPEC.split_inclusive('\n') {
        let heading = line
            .trim_end()
            .strip_prefix('#')
            .map(|rest| rest.trim_start_matches('#').trim());
        match (heading, start) {
            (Some(found), None) if found == title => start = Some(offset + line.len()),
            (Some(_), Some(begin)) => return Some(&SPEC[begin..offset]),
            _ => {}
        }
        offset += line.len();
    }
    start.map(|begin| &SPEC[begin..])
}

/// The last cell of the table row for `` `key` ``: the Description column.
fn table_row(body: &str, key: &str) -> Option<String> {
    let first_cell = format!("`{key}`");
    body.lines().find_map(|line| {
        let cells: Vec<&str> = line.trim().trim_matches('|').split('|').map(str::trim).collect();
        (cells.first() == Some(&first_cell.as_str()))
            .then(|| cells.last().map(|cell| cell.to_string()))
            .flatten()
    })
}

fn paragraph_starting(body: &str, starts: &str) -> Option<String> {
    body.split("\n\n")
        .map(str::trim)
        .find(|paragraph| paragraph.starts_with(starts))
        .map(|paragraph| paragraph.split_whitespace().collect::<Vec<_>>().join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_listed_field_finds_its_words_in_the_spec() {
        // If the embedded spec changes shape, this names the note that broke.
        for field in FIELDS {
            let found = notes(field.place, field.key);
            assert!(
                found.iter().any(|note| note.section == field.section),
                "no spec text for {:?} {} in {}",
                field.place,
                field.key,
                field.section
            );
        }
    }

    #[test]
    fn rows_give_the_description_column() {
        let version = notes(Place::ManifestRoot, "version");
        assert!(version[0].text.starts_with("Version string"), "{}", version[0].text);
        let command = notes(Place::Server, "command");
        assert_eq!(command[0].text, "Executable token to launch.");
        assert!(command[1].text.contains("single executable token"));
    }
}
