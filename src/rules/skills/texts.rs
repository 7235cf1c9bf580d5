//! The texts the skill rules share: the examples' manifest and skill, and the
//! consequences messages name. Below every check, so the family's arrows run
//! from `skills.rs` down.

/// A manifest and a conforming skill, for the rule examples.
pub const PLUGIN: &str =
    "{\"$schema\": \"https://agent-plugins.org/schemas/1.0.0/plugin.schema.json\", \"name\": \"demo\"}";
pub const GOOD_SKILL: &str = "---\nname: pdf-tools\ndescription: Extracts text and tables from PDF files. Use when the user works with PDFs.\n---\n# PDF tools\n";
pub const SKILLS_INVALID: &str = "no skill of this plugin loads; other components still do (§6.2)";
pub const SKIPPED: &str = "the skill is skipped; other skills still load (§7.1)";
