//! Validation answers the same whichever document representation decides it:
//! `validate_text` asks the lean document first (native builds), the `Value`
//! path of `validate` is the reference. Random documents, near-JSON among them,
//! against schemas that use the common keywords.

use apcheck::json::parse::parse_document;
use apcheck::json::validate::{CompileOptions, CompiledSchema, SchemaFile, compile, validate, validate_text};
use proptest::prelude::*;

fn json_text() -> impl Strategy<Value = String> {
    let number = r"-?(0|[1-9][0-9]{0,20})(\.[0-9]{1,3})?([eE][+-]?[0-9]{1,2})?";
    let string = r#""([a-dé😀 ]|\\[nt"\\/]|\\u00e9|\\ud83d\\ude00|\\ud800){0,4}""#;
    let leaf = prop_oneof![
        number.prop_map(|n| n),
        string.prop_map(|s| s),
        Just("true".to_string()),
        Just("false".to_string()),
        Just("null".to_string()),
    ];
    leaf.prop_recursive(4, 40, 5, |inner| {
        let key = prop_oneof![r"[a-d]{1,2}", Just(r"\u0061".to_string()), Just(String::new())];
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(|items| format!("[{}]", items.join(","))),
            prop::collection::vec((key, inner), 0..5).prop_map(|members| {
                let members: Vec<String> = members.into_iter().map(|(k, v)| format!("\"{k}\":{v}")).collect();
                format!("{{{}}}", members.join(","))
            }),
        ]
    })
}

const SCHEMAS: [&str; 6] = [
    r##"{"type": "object", "required": ["a"], "properties": {"a": {"type": "integer", "minimum": 0}, "b": {"type": "string", "maxLength": 2}}, "additionalProperties": {"type": ["array", "null", "boolean"]}}"##,
    r##"{"type": "array", "items": {"anyOf": [{"type": "number", "multipleOf": 0.5}, {"type": "string", "pattern": "^[a-d]*$"}, {"type": "object", "minProperties": 1}]}, "uniqueItems": true}"##,
    r##"{"oneOf": [{"const": {"a": 1}}, {"enum": [[], "a", 1.0, null]}, {"not": {"type": "object"}}]}"##,
    r##"{"propertyNames": {"pattern": "^[ab]"}, "patternProperties": {"^a": {"type": "array", "prefixItems": [{"type": "boolean"}], "contains": {"type": "null"}}}, "dependentRequired": {"b": ["a"]}}"##,
    r##"{"$defs": {"node": {"type": ["object", "array", "string"], "items": {"$ref": "#/$defs/node"}, "additionalProperties": {"$ref": "#/$defs/node"}}}, "$ref": "#/$defs/node"}"##,
    r##"{"$schema": "http://json-schema.org/draft-04/schema#", "type": "object", "properties": {"a": {"type": "integer"}, "b": {"minLength": 1}}, "required": ["a"]}"##,
];

fn schemas() -> Vec<CompiledSchema> {
    SCHEMAS
        .iter()
        .map(|text| {
            compile(
                SchemaFile {
                    name: "schema.json",
                    text,
                },
                &[],
                &CompileOptions::default(),
            )
            .unwrap()
        })
        .collect()
}

proptest! {
    #[test]
    fn the_lean_answer_is_the_value_answer(text in json_text(), pick in 0..SCHEMAS.len(), cut in any::<prop::sample::Index>()) {
        let schema = &schemas()[pick];
        // Now and then a truncated text, which is not JSON.
        let mut end = if cut.index(8) == 0 { text.len() / 2 } else { text.len() };
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        let text = &text[..end];
        let by_value = parse_document(text).map(|document| validate(text, &document, schema));
        match (validate_text(text, schema), by_value) {
            (Ok(ours), Ok(reference)) => prop_assert_eq!(ours, reference, "{}", text),
            // The messages differ on purpose (the scanner's are more precise); both refuse.
            (Err(_), Err(_)) => {}
            (ours, reference) => prop_assert!(false, "{text}: {ours:?} against {reference:?}"),
        }
    }
}

// ---- a verdict is exact or there is none ----

/// `{"type": "array", "items": {KEYWORD: [{"$ref": "#"} × refs, {"type": "string"}]}}`:
/// each level of nested arrays multiplies the validator's work by `refs`.
fn recursive_schema(keyword: &str, refs: usize) -> String {
    let mut branches = vec![r##"{"$ref": "#"}"##; refs];
    branches.push(r#"{"type": "string"}"#);
    format!(
        r#"{{"type": "array", "items": {{"{keyword}": [{}]}}}}"#,
        branches.join(", ")
    )
}

/// Nested arrays `depth` deep, with a string or a number at the bottom.
fn nested(depth: usize, leaf: &str) -> String {
    format!("{}{leaf}{}", "[".repeat(depth), "]".repeat(depth))
}

fn compiled(text: &str) -> CompiledSchema {
    compile(
        SchemaFile {
            name: "schema.json",
            text,
        },
        &[],
        &CompileOptions::default(),
    )
    .unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Recursive schemas whose work multiplies with depth: a verdict, when one
    /// is given, is the validator's own on the whole document; past the budget
    /// the answer is "could not check" and comes at once (22 levels took 34 s
    /// and 12 GB before the budget; these go to 40).
    #[test]
    fn a_recursive_schema_gets_the_true_verdict_or_none(
        keyword in prop_oneof![Just("anyOf"), Just("oneOf"), Just("allOf")],
        refs in 1usize..4,
        depth in 0usize..40,
        leaf in prop_oneof![Just("\"s\""), Just("1"), Just("null"), Just("[]")],
    ) {
        let schema_text = recursive_schema(keyword, refs);
        let schema = compiled(&schema_text);
        let text = nested(depth, leaf);
        let ours = validate_text(&text, &schema).unwrap();
        // Small cases, where the whole validation is cheap, always get a verdict.
        let cheap = (refs as f64).powi(depth as i32) * 4.0 < 100_000.0;
        match ours {
            Ok(issues) => {
                let reference = jsonschema::validator_for(&serde_json::from_str(&schema_text).unwrap())
                    .unwrap()
                    .is_valid(&serde_json::from_str(&text).unwrap());
                prop_assert_eq!(issues.is_empty(), reference, "{} against {}", text, schema_text);
            }
            Err(unchecked) => {
                prop_assert!(!cheap, "{} against {}: {:?}", text, schema_text, unchecked);
                prop_assert!(unchecked.message.contains("too expensive"), "{}", unchecked.message);
            }
        }
    }

    /// Numeric keywords against numbers with up to 25 significant digits and
    /// exponents past `f64`'s range: a verdict, when one is given, is the one
    /// exact decimal arithmetic gives.
    #[test]
    fn a_numeric_verdict_is_exact_or_none(
        keyword in prop_oneof![Just("minimum"), Just("maximum"), Just("exclusiveMinimum"), Just("exclusiveMaximum"), Just("const")],
        limit in r"-?[1-9][0-9]{0,24}(\.[0-9]{1,5})?([eE][+-]?[0-9]{1,3})?",
        instance in r"-?[1-9][0-9]{0,24}(\.[0-9]{1,5})?([eE][+-]?[0-9]{1,3})?",
    ) {
        use std::cmp::Ordering;
        let schema = compiled(&format!(r#"{{"{keyword}": {limit}}}"#));
        let order = apcheck::json::diff::value::compare_numbers(&instance, &limit);
        let exact = match keyword {
            "minimum" => order != Ordering::Less,
            "maximum" => order != Ordering::Greater,
            "exclusiveMinimum" => order == Ordering::Greater,
            "exclusiveMaximum" => order == Ordering::Less,
            _ => order == Ordering::Equal,
        };
        if let Ok(issues) = validate_text(&instance, &schema).unwrap() {
            prop_assert_eq!(issues.is_empty(), exact, "{} against {} {}", instance, keyword, limit);
        }
    }
}
