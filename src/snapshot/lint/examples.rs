//! The snapshot every lint rule's fixed example starts from.

pub(super) const VALID: &str = r#"{
  "plugin": {"name": "invoice-ops", "version": "1.2.0", "spec": "1.0.0"},
  "skills": [{"name": "write-weekly-summary", "description": "Turn invoice query results into the weekly summary.",
              "path": "skills/write-weekly-summary/SKILL.md", "loaded": "metadata"}],
  "mcpServers": [{"id": "invoice-tools", "type": "streamable-http", "status": "connected"}],
  "tools": [{"name": "query_invoices", "server": "invoice-tools", "inputSchema": {"type": "object"}}]
}"#;
