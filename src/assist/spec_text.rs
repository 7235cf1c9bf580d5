//! What the Agent Plugins 1.0.0 spec text says about each manifest and MCP
//! configuration key, read from the spec itself (embedded in the native build
//! only: the page stays small). The schema's descriptions are terse; the
//! spec's field tables and the paragraphs that constrain a field are what an
//! author needs in a hover.

use super::spec_note::{Place, SpecNote};

/// Agent Plugins 1.0.0 (CC BY 4.0, see `reference/agent-plugins-1.0.0/NOTICE.md`).
static SPEC: &str = include_str!("../../reference/agent-plugins-1.0.0/spec.md");

/// A section of the spec: its heading and how a note cites it.
#[derive(Clone, Copy)]
struct Section {
    heading: &'static str,
    cite: &'static str,
}

const MANIFEST: Section = Section {
    heading: "5.2 Manifest object",
    cite: "§5.2",
};
const REQUIRED: Section = Section {
    heading: "5.3 Required fields",
    cite: "§5.3",
};
const METADATA: Section = Section {
    heading: "5.4 Metadata fields",
    cite: "§5.4",
};
const NAME: Section = Section {
    heading: "5.5 Plugin name constraints",
    cite: "§5.5",
};
const EXTENSIONS: Section = Section {
    heading: "5.6 Extensions field",
    cite: "§5.6",
};
const EXTENSION_DATA: Section = Section {
    heading: "8.1 Manifest extension data",
    cite: "§8.1",
};
const MCP: Section = Section {
    heading: "7.2.1 Discovery and configuration",
    cite: "§7.2.1",
};
const STDIO: Section = Section {
    heading: "stdio",
    cite: "§7.2.1 (stdio)",
};
const REMOTE: Section = Section {
    heading: "Streamable HTTP and legacy HTTP+SSE",
    cite: "§7.2.1 (remote)",
};
const ENVIRONMENT: Section = Section {
    heading: "9.1 Subprocess environment",
    cite: "§9.1",
};

/// Where the spec speaks about a key, in a section.
#[derive(Clone, Copy)]
enum Source {
    /// The Description cell of the table row whose first cell is the key.
    Row(Section),
    /// The paragraph that starts with this text.
    Paragraph(Section, &'static str),
}

impl Source {
    fn section(self) -> Section {
        match self {
            Source::Row(section) | Source::Paragraph(section, _) => section,
        }
    }
}

use Source::{Paragraph, Row};

/// The keys of objects at a place, and what the spec says about each, in reading order.
struct Field {
    place: Place,
    keys: &'static [&'static str],
    sources: &'static [Source],
}

static FIELDS: &[Field] = &[
    Field {
        place: Place::ManifestRoot,
        keys: &["$schema"],
        sources: &[Row(REQUIRED), Paragraph(MANIFEST, "The required `$schema` field")],
    },
    Field {
        place: Place::ManifestRoot,
        keys: &["name"],
        sources: &[
            Row(REQUIRED),
            Paragraph(REQUIRED, "If a required field is missing"),
            Paragraph(NAME, "Valid names:"),
            Paragraph(NAME, "Invalid names:"),
        ],
    },
    Field {
        place: Place::ManifestRoot,
        keys: &["version"],
        sources: &[Row(METADATA), Paragraph(METADATA, "Except where this specification")],
    },
    Field {
        place: Place::ManifestRoot,
        keys: &["description", "homepage", "repository", "license", "keywords"],
        sources: &[Row(METADATA)],
    },
    Field {
        place: Place::ManifestRoot,
        keys: &["author"],
        sources: &[Row(METADATA), Paragraph(METADATA, "The `author` object MAY")],
    },
    Field {
        place: Place::ManifestRoot,
        keys: &["extensions"],
        sources: &[
            Paragraph(EXTENSIONS, "The optional `extensions`"),
            Paragraph(EXTENSION_DATA, "The optional `extensions`"),
            Paragraph(EXTENSION_DATA, "If `extensions` is not"),
        ],
    },
    Field {
        place: Place::Author,
        keys: &["name", "email", "url"],
        sources: &[Paragraph(METADATA, "The `author` object MAY")],
    },
    Field {
        place: Place::McpRoot,
        keys: &["$schema"],
        sources: &[Paragraph(MCP, "The required `$schema` field")],
    },
    Field {
        place: Place::McpRoot,
        keys: &["mcpServers"],
        sources: &[Paragraph(MCP, "`mcp.json` MUST be a JSON object")],
    },
    Field {
        place: Place::Server,
        keys: &["type"],
        sources: &[Paragraph(MCP, "Each server configuration MUST contain")],
    },
    Field {
        place: Place::Server,
        keys: &["command"],
        sources: &[Row(STDIO), Paragraph(STDIO, "The `command` field MUST")],
    },
    Field {
        place: Place::Server,
        keys: &["args"],
        sources: &[Row(STDIO)],
    },
    Field {
        place: Place::Server,
        keys: &["env"],
        sources: &[
            Row(STDIO),
            Paragraph(ENVIRONMENT, "The client chooses the base subprocess"),
        ],
    },
    Field {
        place: Place::Server,
        keys: &["cwd"],
        sources: &[Row(STDIO), Paragraph(STDIO, "When `cwd` is omitted")],
    },
    Field {
        place: Place::Server,
        keys: &["url"],
        sources: &[Row(REMOTE), Paragraph(REMOTE, "The `url` value MUST")],
    },
    Field {
        place: Place::Server,
        keys: &["headers"],
        sources: &[Row(REMOTE), Paragraph(REMOTE, "Header values are visible package data")],
    },
];

/// The spec's words about `key` of an object at `place`, in reading order.
pub fn notes(place: Place, key: &str) -> Vec<SpecNote> {
    FIELDS
        .iter()
        .filter(|field| field.place == place && field.keys.contains(&key))
        .flat_map(|field| field.sources)
        .filter_map(|&source| {
            let body = section_body(source.section().heading)?;
            let text = match source {
                Row(_) => table_row(body, key)?,
                Paragraph(_, starts) => paragraph_starting(body, starts)?,
            };
            Some(SpecNote {
                section: source.section().cite,
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
    fn every_listed_source_finds_its_words_in_the_spec() {
        // If the embedded spec changes shape, this names the note that broke.
        for field in FIELDS {
            for key in field.keys {
                let found = notes(field.place, key);
                assert_eq!(
                    found.len(),
                    field.sources.len(),
                    "spec text missing for {:?} {key}: found {found:?}",
                    field.place
                );
            }
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
