//! What the Agent Skills spec says about each `SKILL.md` frontmatter field,
//! read from the spec itself (embedded in the native build only, as the
//! Agent Plugins text in `spec_text` is): the row of its frontmatter table and
//! the list under its own heading, for a hover on the key.

/// The Agent Skills specification (CC BY 4.0, see `reference/agent-skills/NOTICE.md`).
static SPEC: &str = include_str!("../../reference/agent-skills/specification.mdx");

/// The hover text for the frontmatter key `key`, if the spec defines it:
/// whether it is required, its constraints, and what its section lists.
pub fn field_markdown(key: &str) -> Option<String> {
    let code = format!("`{key}`");
    let cells: Vec<&str> = SPEC.lines().find_map(|line| {
        let cells: Vec<&str> = line.trim().trim_matches('|').split('|').map(str::trim).collect();
        (cells.len() == 3 && cells[0] == code).then_some(cells)
    })?;
    let required = if cells[1] == "Yes" { "required" } else { "optional" };
    let mut text = format!("`{key}`: {required}\n\n**Agent Skills (frontmatter)**: {}", cells[2]);
    let points = section_points(&format!("#### {code} field"));
    if !points.is_empty() {
        text.push_str(&format!("\n\n**Agent Skills ({code} field)**:"));
        for point in points {
            text.push_str(&format!("\n- {point}"));
        }
    }
    Some(text)
}

/// The list items of the section under the heading line `heading`, up to its example.
fn section_points(heading: &str) -> Vec<&'static str> {
    SPEC.lines()
        .skip_while(|line| line.trim() != heading)
        .skip(1)
        .take_while(|line| !line.starts_with('#') && !line.starts_with('<'))
        .filter_map(|line| line.strip_prefix("- "))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The frontmatter fields the spec defines (`rules::skills` checks the same six).
    const FIELDS: [&str; 6] = [
        "name",
        "description",
        "license",
        "compatibility",
        "metadata",
        "allowed-tools",
    ];

    #[test]
    fn every_frontmatter_field_has_its_row_and_its_section() {
        // If the embedded spec changes shape, this names the field that broke.
        for key in FIELDS {
            let text = field_markdown(key).unwrap_or_else(|| panic!("no row for {key}"));
            assert!(
                text.contains(&format!("**Agent Skills (`{key}` field)**:\n- ")),
                "{key}: {text}"
            );
        }
        let name = field_markdown("name").unwrap();
        assert!(name.starts_with("`name`: required\n\n**Agent Skills (frontmatter)**: Max 64 characters"));
        assert!(name.contains("\n- Must match the parent directory name"), "{name}");
        assert!(field_markdown("license").unwrap().starts_with("`license`: optional"));
        assert_eq!(field_markdown("version"), None);
    }
}
