//! Where a key sits and what the spec says about it: the data that
//! `schema_help` (hovers) and `spec_text` (the spec's words, native only) share.

/// Which object of the documents a key belongs to, for the spec's words about it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    ManifestRoot,
    Author,
    McpRoot,
    /// A server entry of `mcpServers`, of any transport.
    Server,
}

/// A piece of spec text about a key: the section and its words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpecNote {
    pub section: &'static str,
    pub text: String,
}
