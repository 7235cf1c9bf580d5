//! Extracts from the full MCP schemas (`schemas/mcp/<revision>/schema.json`,
//! 170+ KB each) the definitions the built-in schemas reference: the roots in
//! [`ROOTS`] and every `$defs` entry they reach through `$ref`. The crate embeds
//! only these extracts (`src/schemas.rs`), which keeps 330 KB of schema text out
//! of the binary and the page's wasm. `tests/schema_extract.rs` checks that an
//! extract validates real `tools/list` captures exactly as its full schema does.
//! The schemas embedded whole are written there too, without whitespace: they
//! are compiled, never shown, and every byte of them is in the page's wasm.
//! Those no editor help reads (the MCP extracts, the snapshot schema) also lose
//! their annotations (`description`, `title`, `examples`, `$comment`), which
//! validate nothing: about 17 KB of the page's wasm.

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
        let mut extract = extract(&schema, ROOTS).unwrap_or_else(|e| panic!("{}: {e}", source.display()));
        strip_annotations(&mut extract);
        let target = Path::new(&out_dir).join(format!("mcp-{revision}-tools.schema.json"));
        // Compact: the text is only compiled, never shown, and every byte is in the page's wasm.
        let compact = serde_json::to_string(&extract).expect("JSON values serialize");
        std::fs::write(&target, compact).unwrap_or_else(|e| panic!("{}: {e}", target.display()));
    }
    // The schemas embedded whole, compacted the same way: the same JSON, without its whitespace.
    for (source, name, annotations) in EMBEDDED_WHOLE {
        println!("cargo:rerun-if-changed={source}");
        let text = std::fs::read_to_string(source).unwrap_or_else(|e| panic!("{source}: {e}"));
        let mut schema: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{source}: {e}"));
        if let Annotations::Strip = annotations {
            strip_annotations(&mut schema);
        }
        let target = Path::new(&out_dir).join(name);
        let compact = serde_json::to_string(&schema).expect("JSON values serialize");
        std::fs::write(&target, compact).unwrap_or_else(|e| panic!("{}: {e}", target.display()));
    }
    write_io_errors(Path::new(&out_dir));
}

/// The errors the npm package's disk edge (`npm/disk.js`) can meet, by the
/// code Node gives them (`error.code`), and their numbers on this host.
#[cfg(unix)]
const IO_ERRORS: &[(&str, i32)] = &[
    ("EACCES", libc::EACCES),
    ("EPERM", libc::EPERM),
    ("ENOENT", libc::ENOENT),
    ("ENOTDIR", libc::ENOTDIR),
    ("EISDIR", libc::EISDIR),
    ("ELOOP", libc::ELOOP),
    ("EIO", libc::EIO),
    ("ENAMETOOLONG", libc::ENAMETOOLONG),
    ("EMFILE", libc::EMFILE),
    ("EROFS", libc::EROFS),
    ("ENOSPC", libc::ENOSPC),
    ("EEXIST", libc::EEXIST),
    ("EXDEV", libc::EXDEV),
];
#[cfg(not(unix))]
const IO_ERRORS: &[(&str, i32)] = &[];

/// `io_errors.rs`: each of [`IO_ERRORS`] with the text Rust's `io::Error`
/// gives it here, where the build runs (the host has a C library; the
/// wasm32 target has none, so its `io::Error` cannot say it), without the
/// ` (os error N)` that follows it: the npm package adds the number of the
/// system it runs on. So the package's I/O errors are spelled by the same
/// code as the native CLI's, not by a hand-kept table.
fn write_io_errors(out_dir: &Path) {
    let mut table = String::from("&[\n");
    for (code, errno) in IO_ERRORS {
        let full = std::io::Error::from_raw_os_error(*errno).to_string();
        let text = full
            .strip_suffix(&format!(" (os error {errno})"))
            .unwrap_or_else(|| panic!("{code}: {full:?} does not end with its number"));
        table.push_str(&format!("    ({code:?}, {text:?}),\n"));
    }
    table.push_str("]\n");
    let target = out_dir.join("io_errors.rs");
    std::fs::write(&target, table).unwrap_or_else(|e| panic!("{}: {e}", target.display()));
}

/// Whether an embedded schema keeps its annotations.
enum Annotations {
    /// The editor's hovers and completions show them (`src/assist/schema_help.rs`).
    Keep,
    /// Only compiled: nothing reads them.
    Strip,
}

/// The schemas `src/schemas.rs` embeds whole, by source path and name in `OUT_DIR`.
const EMBEDDED_WHOLE: &[(&str, &str, Annotations)] = &[
    (
        "schemas/agent-plugins/1.0.0/plugin.schema.json",
        "plugin.schema.json",
        Annotations::Keep,
    ),
    (
        "schemas/agent-plugins/1.0.0/mcp.schema.json",
        "mcp.schema.json",
        Annotations::Keep,
    ),
    (
        "schemas/apcheck/snapshot-1.schema.json",
        "snapshot-1.schema.json",
        Annotations::Strip,
    ),
];

/// Keywords that only annotate (JSON Schema 2020-12 Validation §9, Core §8.3):
/// removing them changes no validation result.
const ANNOTATION_KEYWORDS: &[&str] = &["description", "title", "examples", "$comment"];

/// Keywords whose value is one subschema, an array of them, or a map of them by name.
const SUBSCHEMA_KEYWORDS: &[&str] = &[
    "additionalItems",
    "additionalProperties",
    "contains",
    "else",
    "if",
    "items",
    "not",
    "propertyNames",
    "then",
    "unevaluatedItems",
    "unevaluatedProperties",
    "allOf",
    "anyOf",
    "oneOf",
    "prefixItems",
];
const SUBSCHEMA_MAP_KEYWORDS: &[&str] = &[
    "$defs",
    "definitions",
    "dependentSchemas",
    "patternProperties",
    "properties",
];

/// Removes annotation keywords from `schema` and its subschemas. It walks
/// schema positions only, so a property named `description` or a `const` value
/// that holds one is left alone.
fn strip_annotations(schema: &mut Value) {
    let Value::Object(keywords) = schema else { return };
    keywords.retain(|keyword, _| !ANNOTATION_KEYWORDS.contains(&keyword.as_str()));
    for (keyword, value) in keywords.iter_mut() {
        if SUBSCHEMA_KEYWORDS.contains(&keyword.as_str()) {
            match value {
                Value::Array(subschemas) => subschemas.iter_mut().for_each(strip_annotations),
                subschema => strip_annotations(subschema),
            }
        } else if SUBSCHEMA_MAP_KEYWORDS.contains(&keyword.as_str())
            && let Value::Object(by_name) = value
        {
            by_name.values_mut().for_each(strip_annotations);
        }
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
