//! The texts `mcp.json` findings are made of: the examples' `plugin.json`,
//! the consequence of a document failure, member pointers, and configuration
//! text quoted, cut and masked. Below every check of the family.

/// The `plugin.json` every rule example ships beside its `mcp.json`.
pub(super) const EXAMPLE_PLUGIN_JSON: &str =
    "{\n  \"$schema\": \"https://agent-plugins.org/schemas/1.0.0/plugin.schema.json\",\n  \"name\": \"demo\"\n}\n";

/// What a client does about a document-level failure, completing each such message.
pub(super) const DISABLED: &str = "MCP is disabled for this plugin (§7.2.2)";

/// `parent` extended by the member `token`, escaped per RFC 6901.
pub(super) fn child_pointer(parent: &str, token: &str) -> String {
    let mut pointer = parent.to_string();
    crate::json::parse::push_token(&mut pointer, token);
    pointer
}

/// Quotes a name for a message; names are short and never secrets (values may be).
pub(super) fn quoted(name: &str) -> String {
    format!("{name:?}")
}

/// Configuration text for a message: quoted, cut when long, masked when it holds a credential.
pub(super) fn excerpt(text: &str) -> String {
    const MAX_CHARS: usize = 80;
    if let Some(masked) = crate::redact::masked_if_secret(text) {
        return masked;
    }
    match text.char_indices().nth(MAX_CHARS) {
        Some((cut, _)) => format!("{:?}…", &text[..cut]),
        None => format!("{text:?}"),
    }
}

/// Whether configuration text may be repeated verbatim in a fix hint.
pub(super) fn echoable(text: &str) -> bool {
    text.chars().count() <= 120 && crate::redact::masked_if_secret(text).is_none()
}
