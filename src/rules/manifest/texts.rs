//! The texts every manifest rule shares, below them all so that the family's
//! checks and its registry in `manifest.rs` point one way.

/// The smallest valid manifest: the fixed example of the rules about the whole file.
pub const VALID: &str = "{\n  \"$schema\": \"https://agent-plugins.org/schemas/1.0.0/plugin.schema.json\",\n  \"name\": \"invoice-ops\"\n}\n";

/// The consequence of every error that rejects the plugin, as messages name it.
pub const REJECTED: &str = "the plugin is rejected and none of its components are loaded (§5.2)";
