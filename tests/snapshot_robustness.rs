//! Snapshot inputs are user files: whatever they hold, every entry point
//! returns findings or an error, never a panic, and large fixtures stay fast.

use std::time::{Duration, Instant};

use apcheck::snapshot::tools_list::read_tools_list;
use apcheck::snapshot::{call::check_call, changes::compare, check_snapshot, page, schema_diff};
use apcheck::tree::Tree;
use proptest::prelude::*;
use serde_json::{Value, json};

fn any_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        "[a-z$_ -]{0,8}".prop_map(Value::from),
    ];
    leaf.prop_recursive(4, 32, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::from),
            prop::collection::vec(
                (
                    prop_oneof![
                        Just("type".to_string()),
                        Just("properties".to_string()),
                        Just("required".to_string()),
                        Just("enum".to_string()),
                        Just("items".to_string()),
                        Just("name".to_string()),
                        Just("status".to_string()),
                        "[a-z]{1,6}"
                    ],
                    inner
                ),
                0..6
            )
            .prop_map(|members| Value::Object(members.into_iter().collect())),
        ]
    })
}

/// A snapshot shell with arbitrary values where the interesting parts go.
fn snapshot_with(skill: &Value, server: &Value, tool: &Value) -> String {
    json!({
        "plugin": {"name": "invoice-ops", "version": "1.2.0", "spec": "1.0.0"},
        "skills": [skill],
        "mcpServers": [server, {"id": "s", "type": "stdio", "status": "connected"}],
        "tools": [tool, {"name": "t", "server": "s", "inputSchema": tool.get("inputSchema").cloned().unwrap_or(json!({"type": "object"}))}]
    })
    .to_string()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn any_text_is_findings_not_a_panic(text in "\\PC{0,200}") {
        let _ = check_snapshot("s.json", &text, None);
        let _ = compare("a.json", &text, "b.json", &text);
        let _ = check_call("s.json", &text, "t", "a.json", &text);
        let _ = read_tools_list(&text);
        let _ = page::build("p", &Tree::new(), &text);
    }

    #[test]
    fn any_json_in_a_snapshot_is_findings_not_a_panic(skill in any_json(), server in any_json(), tool in any_json(), arguments in any_json()) {
        let text = snapshot_with(&skill, &server, &tool);
        let _ = check_snapshot("s.json", &text, Some(&Tree::from_files([("skills/a/scripts/t.sh", "")])));
        let other = snapshot_with(&server, &tool, &skill);
        let _ = compare("a.json", &text, "b.json", &other);
        let _ = check_call("s.json", &text, "t", "a.json", &arguments.to_string());
        let _ = read_tools_list(&json!({"tools": [tool]}).to_string());
    }

    #[test]
    fn any_two_schemas_diff_without_a_panic(old in any_json(), new in any_json()) {
        let _ = schema_diff::diff_input_schema(&old, &new);
        let _ = schema_diff::diff_output_schema(&old, &new);
        prop_assert!(schema_diff::diff_input_schema(&old, &old).is_empty());
    }
}

fn large_snapshot(tools: usize, version: &str, extra_enum: bool) -> String {
    let status = if extra_enum {
        json!(["open", "paid", "void"])
    } else {
        json!(["open", "paid"])
    };
    let tools: Vec<Value> = (0..tools)
        .map(|i| {
            json!({"name": format!("tool_{i:05}"), "server": "s", "description": "Queries invoices.",
                   "inputSchema": {"type": "object", "required": ["week"],
                                   "properties": {"week": {"type": "string", "pattern": "^[0-9]{4}-W[0-9]{2}$"},
                                                  "status": {"type": "string", "enum": status}}}})
        })
        .collect();
    json!({"plugin": {"name": "big", "version": version, "spec": "1.0.0"}, "skills": [],
           "mcpServers": [{"id": "s", "type": "stdio", "status": "connected"}], "tools": tools})
    .to_string()
}

/// A budget generous enough for an unoptimised build on a shared machine.
const BUDGET: Duration = Duration::from_secs(20);

#[test]
fn two_thousand_tools_lint_and_compare_in_time() {
    let old = large_snapshot(2_000, "1.0.0", false);
    let new = large_snapshot(2_000, "1.1.0", true);
    let start = Instant::now();
    let check = check_snapshot("old.json", &old, None);
    assert!(check.diagnostics.is_empty(), "{:?}", &check.diagnostics[..1]);
    let report = compare("old.json", &old, "new.json", &new);
    assert_eq!(report.changes.len(), 2_000);
    assert!(report.diagnostics.is_empty());
    assert!(start.elapsed() < BUDGET, "took {:?}", start.elapsed());
}
