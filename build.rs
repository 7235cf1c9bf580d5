//! Extracts from the full MCP schemas (`schemas/mcp/<revision>/schema.json`,
//! 170+ KB each) the definitions the built-in schemas reference: the roots in
//! [`ROOTS`] and every `$defs` entry they reach through `$ref`. The crate embeds
//! only these extracts (`src/schemas.rs`), which keeps 330 KB of schema text out
//! of the binary and the page's wasm. `tests/schema_extract.rs` checks that an
//! extract validates real `tools/list` captures exactly as its full schema does.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::{Map, Value};

/// The MCP revisions embedded, by folder under `schemas/mcp/`.
const REVISIONS: &[&str] = &["2025-11-25", "2026-07-28"];

/// The definitions the built-ins compile (`src/json/builtin.rs`).
const ROOTS: &[&str] = &["Tool", "ListToolsResult"];

const LOCAL_DEFINITION: &str = "#/$defs/";

fn main() {
    let out_dir = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    for revision in REVISIONS {
        let source = Path::new("schemas/mcp").join(revision).join("schema.json");
        println!("cargo:rerun-if-changed={}", source.display());
        let text = std::fs::read_to_string(&source).unwrap_or_else(|e| panic!("{}: {e}", source.display()));
        let schema: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", source.display()));
        let extract = extract(&schema, ROOTS).unwrap_or_else(|e| panic!("{}: {e}", source.display()));
        let target = Path::new(&out_dir).join(format!("mcp-{revision}-tools.schema.json"));
        // Compact: the text is only compiled, never shown, and every byte is in the page's wasm.
        let compact = serde_json::to_string(&extract).expect("JSON values serialize");
        std::fs::write(&target, compact).unwrap_or_else(|e| panic!("{}: {e}", target.display()));
    }
}

/// The document's top-level keywords other than `$defs` (its `$schema`), and
/// the `$defs` entries reachable from `roots`.
fn extract(schema: &Value, roots: &[&str]) -> Result<Value, String> {
    let definitions = schema
        .get("$defs")
        .and_then(Value::as_object)
        .ok_or("no `$defs` object")?;
    let mut kept: BTreeMap<&str, &Value> = BTreeMap::new();
    let mut pending: Vec<String> = roots.iter().map(|root| root.to_string()).collect();
    while let Some(name) = pending.pop() {
        let Some((key, definition)) = definitions.get_key_value(&name) else {
            return Err(format!("`$defs/{name}` is referenced but not defined"));
        };
        if kept.insert(key.as_str(), definition).is_none() {
            collect_references(definition, &mut pending)?;
        }
    }
    let mut document: Map<String, Value> = schema
        .as_object()
        .into_iter()
        .flatten()
        .filter(|(key, _)| key.as_str() != "$defs")
        .map(|(key, value)| (key.clone(), value.clone()))
        .collect();
    let kept = kept.into_iter().map(|(name, value)| (name.to_string(), value.clone()));
    document.insert("$defs".into(), Value::Object(kept.collect()));
    Ok(Value::Object(document))
}

/// Every local definition `value` refers to; any other reference is refused,
/// because the extract could not resolve it.
fn collect_references(value: &Value, found: &mut Vec<String>) -> Result<(), String> {
    match value {
        Value::Object(members) => {
            for (key, member) in members {
                match (key.as_str(), member) {
                    ("$ref", Value::String(reference)) => match reference.strip_prefix(LOCAL_DEFINITION) {
                        Some(name) if !name.contains('/') => found.push(name.to_string()),
                        _ => return Err(format!("`$ref` {reference:?} is not a whole local definition")),
                    },
                    _ => collect_references(member, found)?,
                }
            }
            Ok(())
        }
        Value::Array(items) => items.iter().try_for_each(|item| collect_references(item, found)),
        _ => Ok(()),
    }
}
