//! The embedded MCP schemas are extracts (`build.rs`): only the definitions the
//! built-ins reach. Here each extract validates the real `tools/list` captures
//! of server-everything, and broken copies of them, exactly as its full schema
//! in `schemas/mcp/` does: the same issues, at the same places. The extracts
//! leave out annotations (descriptions, titles, examples), which no check reads.

use std::path::{Path, PathBuf};

use apcheck::json::builtin::builtin;
use apcheck::json::parse::{JsonDoc, parse_document};
use apcheck::json::validate::{
    CompileOptions, CompiledSchema, SchemaFile, ValidationIssue, compile_definition, validate_at,
};
use serde_json::{Value, json};

fn shared() -> PathBuf {
    std::env::var_os("APCHECK_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared"))
}

fn full_schema(revision: &str, pointer: &str) -> CompiledSchema {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("schemas/mcp/{revision}/schema.json"));
    let text = std::fs::read_to_string(&path).unwrap();
    let file = SchemaFile {
        name: "full",
        text: &text,
    };
    compile_definition(file, pointer, &CompileOptions::default()).unwrap()
}

/// The captures as they are, and each with its tools broken in ways the schemas catch.
fn documents() -> Vec<(String, String)> {
    let mut documents = Vec::new();
    for capture in ["live-allcaps.json", "live-nocaps.json", "live-proto2026.json"] {
        let path = shared().join("reference/server-everything").join(capture);
        let text = std::fs::read_to_string(&path).unwrap();
        let mut broken: Value = serde_json::from_str(&text).unwrap();
        let tools = broken["tools_list_response"]["result"]["tools"].as_array_mut().unwrap();
        assert!(tools.len() > 3, "{capture}");
        tools[0].as_object_mut().unwrap().remove("inputSchema");
        tools[1]["name"] = json!(7);
        tools[2]["annotations"] = json!({"readOnlyHint": "yes"});
        tools[3]["icons"] = json!([{"mimeType": "image/png"}]);
        documents.push((
            format!("{capture} broken"),
            serde_json::to_string_pretty(&broken).unwrap(),
        ));
        documents.push((capture.to_string(), text));
    }
    documents
}

fn issues(text: &str, document: &JsonDoc, pointer: &str, schema: &CompiledSchema) -> Vec<ValidationIssue> {
    validate_at(text, document, pointer, schema).unwrap().unwrap()
}

#[test]
fn extracts_validate_captures_as_the_full_schemas_do() {
    let mut broken_issues = 0;
    for revision in ["2025-11-25", "2026-07-28"] {
        let full_tool = full_schema(revision, "/$defs/Tool");
        let full_list = full_schema(revision, "/$defs/ListToolsResult");
        let tool = builtin(&format!("mcp-tool@{revision}")).unwrap().schema().unwrap();
        let list = builtin(&format!("mcp-tools-list@{revision}"))
            .unwrap()
            .schema()
            .unwrap();
        for (name, text) in documents() {
            let document = parse_document(&text).unwrap();
            let result = "/tools_list_response/result";
            let from_extract = issues(&text, &document, result, list);
            assert_eq!(
                from_extract,
                issues(&text, &document, result, &full_list),
                "{revision} {name}"
            );
            let count = document.value["tools_list_response"]["result"]["tools"]
                .as_array()
                .unwrap()
                .len();
            for index in 0..count {
                let pointer = format!("{result}/tools/{index}");
                let from_extract = issues(&text, &document, &pointer, tool);
                assert_eq!(
                    from_extract,
                    issues(&text, &document, &pointer, &full_tool),
                    "{revision} {name} {pointer}"
                );
                if name.ends_with("broken") {
                    broken_issues += from_extract.len();
                }
            }
        }
    }
    // The comparison is not between two empty lists.
    assert!(broken_issues >= 2 * 3 * 4, "{broken_issues}");
}

/// An oracle built differently from `build.rs`'s schema walk: every annotation
/// keyword whose value is prose (a string, or `examples`' array) goes, and
/// object values stay, because those are properties named like the keyword.
fn without_prose(value: &mut Value) {
    match value {
        Value::Object(members) => {
            members.retain(|key, member| {
                let prose = matches!(key.as_str(), "description" | "title" | "$comment") && member.is_string()
                    || key == "examples" && member.is_array();
                !prose
            });
            members.values_mut().for_each(without_prose);
        }
        Value::Array(items) => items.iter_mut().for_each(without_prose),
        _ => {}
    }
}

#[test]
fn extracts_are_a_small_part_of_the_full_schemas() {
    for (revision, extract) in [
        ("2025-11-25", apcheck::schemas::MCP_2025_11_25_TOOLS),
        ("2026-07-28", apcheck::schemas::MCP_2026_07_28_TOOLS),
    ] {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("schemas/mcp/{revision}/schema.json"));
        let full: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        let extract: Value = serde_json::from_str(extract).unwrap();
        assert_eq!(extract["$schema"], full["$schema"]);
        let definitions = extract["$defs"].as_object().unwrap();
        for (name, definition) in definitions {
            let mut source = full["$defs"][name].clone();
            without_prose(&mut source);
            assert_eq!(definition, &source, "{revision} {name} is the source less its prose");
        }
        assert!(definitions.contains_key("Tool") && definitions.contains_key("ListToolsResult"));
        // Properties that share a name with an annotation keyword are schema, not prose.
        let tool_properties = &definitions["Tool"]["properties"];
        assert!(tool_properties["description"].is_object() && tool_properties["title"].is_object());
        assert!(definitions.len() < 12, "{revision}: {:?}", definitions.keys());
    }
}
