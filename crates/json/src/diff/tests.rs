use proptest::prelude::*;
use serde_json::{Value, json};

use super::*;

/// Keys of the kind a caller passes for the documents it knows (apcheck's
/// for snapshots and `tools/list` results): by path, compound, under a
/// wildcard, and anywhere.
fn document_keys() -> Vec<ArrayKey> {
    [
        "/tools=name",
        "/tools=server+name",
        "/result/tools=name",
        "/*/result/tools=name",
        "/skills=name",
        "/mcpServers=id",
        "name",
        "id",
    ]
    .iter()
    .map(|spec| ArrayKey::parse(spec).unwrap())
    .collect()
}

fn keyed() -> DiffOptions {
    DiffOptions {
        array_keys: document_keys(),
    }
}

/// The comparison with the caller's keys and nothing else.
fn with_document_keys() -> CompareOptions {
    CompareOptions {
        default_keys: document_keys(),
        ..CompareOptions::default()
    }
}

/// Applies `patch` to `a` with an independent RFC 6902 implementation.
fn apply(a: &Value, patch: &[PatchOp]) -> Value {
    let patch: json_patch::Patch = serde_json::from_value(serde_json::to_value(patch).unwrap()).unwrap();
    let mut document = a.clone();
    json_patch::patch(&mut document, &patch).unwrap_or_else(|e| panic!("{e}: {patch:?}"));
    document
}

fn assert_patch_turns_a_into_b(a: &Value, b: &Value, options: &DiffOptions) -> Diff {
    let result = diff(a, b, options);
    let patched = apply(a, &result.patch);
    assert!(
        value::equal(&patched, b),
        "patched {patched}\nwanted {b}\npatch {:?}",
        result.patch
    );
    assert_eq!(result.is_empty(), value::equal(a, b));
    result
}

#[test]
fn members_are_added_removed_and_changed() {
    let a = json!({"name": "x", "version": "1.0.0", "keep": 1, "gone": true});
    let b = json!({"name": "x", "version": "1.1.0", "keep": 1.0, "new": [1]});
    let result = assert_patch_turns_a_into_b(&a, &b, &DiffOptions::default());
    let summary: Vec<(ChangeKind, &str)> = result.changes.iter().map(|c| (c.kind, c.path.as_str())).collect();
    assert_eq!(
        summary,
        [
            (ChangeKind::Changed, "/version"),
            (ChangeKind::Removed, "/gone"),
            (ChangeKind::Added, "/new"),
        ]
    );
    assert_eq!(result.changes[0].old, Some(json!("1.0.0")));
}

#[test]
fn objects_naming_the_same_members_in_order_or_not_diff_alike() {
    // Same names in the same order (walked side by side), the same names in
    // another order, and B keeping every name while A has one more (no
    // second pass for additions): one change list, in A's order.
    let a = json!({"x": {"p": 1, "q": [1, 2]}, "y": "old", "z": null});
    let in_order = json!({"x": {"p": 2, "q": [1, 2]}, "y": "new", "z": null});
    let reordered = json!({"z": null, "y": "new", "x": {"q": [1, 2], "p": 2}});
    let changes = |b: &Value| -> Vec<(ChangeKind, String)> {
        let result = assert_patch_turns_a_into_b(&a, b, &DiffOptions::default());
        result.changes.iter().map(|c| (c.kind, c.path.clone())).collect()
    };
    let expected = vec![
        (ChangeKind::Changed, "/x/p".to_string()),
        (ChangeKind::Changed, "/y".to_string()),
    ];
    assert_eq!(changes(&in_order), expected);
    assert_eq!(changes(&reordered), expected);
    let fewer = json!({"x": {"p": 1, "q": [1, 2]}, "z": null});
    assert_eq!(changes(&fewer), [(ChangeKind::Removed, "/y".to_string())]);
    let renamed = json!({"x": {"p": 1, "q": [1, 2]}, "w": "old", "z": null});
    assert_eq!(
        changes(&renamed),
        [
            (ChangeKind::Removed, "/y".to_string()),
            (ChangeKind::Added, "/w".to_string())
        ]
    );
}

#[test]
fn tools_match_by_name_with_moves() {
    let tool = |name: &str, description: &str| json!({"name": name, "description": description});
    let a = json!({"tools": [tool("a", "1"), tool("b", "1"), tool("c", "1"), tool("d", "1"), tool("e", "1")]});
    let b = json!({"tools": [tool("b", "1"), tool("c", "2"), tool("new", "1"), tool("d", "1"), tool("a", "1")]});
    let result = assert_patch_turns_a_into_b(&a, &b, &keyed());
    let labels: Vec<(ChangeKind, &str)> = result.changes.iter().map(|c| (c.kind, c.label.as_str())).collect();
    assert_eq!(
        labels,
        [
            (ChangeKind::Removed, "/tools[name=e]"),
            (ChangeKind::Added, "/tools[name=new]"),
            (ChangeKind::Moved, "/tools[name=a]"),
            (ChangeKind::Changed, "/tools[name=c]/description"),
        ]
    );
    let moved = &result.changes[2];
    assert_eq!(
        (moved.path.as_str(), moved.old_path.as_deref()),
        ("/tools/4", Some("/tools/0"))
    );
}

#[test]
fn servers_match_by_id_and_duplicate_keys_fall_back_to_sequence() {
    let a = json!({"mcpServers": [{"id": "x", "status": "up"}, {"id": "y", "status": "up"}]});
    let b = json!({"mcpServers": [{"id": "y", "status": "down"}, {"id": "x", "status": "up"}]});
    let result = assert_patch_turns_a_into_b(&a, &b, &keyed());
    assert!(result.changes.iter().any(|c| c.label == "/mcpServers[id=y]/status"));
    let duplicated = json!({"tools": [{"name": "t"}, {"name": "t"}]});
    let result = assert_patch_turns_a_into_b(&duplicated, &json!({"tools": [{"name": "t"}]}), &keyed());
    assert_eq!(result.changes[0].label, "/tools/1");
}

#[test]
fn tools_of_two_servers_fall_back_to_a_compound_key() {
    let a = json!({"tools": [{"server": "s1", "name": "t"}, {"server": "s2", "name": "t", "x": 1}]});
    let b = json!({"tools": [{"server": "s2", "name": "t", "x": 2}, {"server": "s1", "name": "t"}]});
    let result = assert_patch_turns_a_into_b(&a, &b, &keyed());
    assert!(
        result.changes.iter().any(|c| c.label == "/tools[server=s2,name=t]/x"),
        "{:?}",
        result.changes
    );
}

#[test]
fn an_insertion_in_an_unkeyed_array_is_one_change() {
    let a = json!([1, 2, 3, 4, 5, 6]);
    let b = json!([1, 2, 3, "new", 4, 5, 6]);
    let result = assert_patch_turns_a_into_b(&a, &b, &DiffOptions::default());
    assert_eq!(result.changes.len(), 1);
    assert_eq!(result.patch, vec![PatchOp::add("/3".into(), json!("new"))]);
}

#[test]
fn array_keys_parse_with_and_without_a_path() {
    let key = ArrayKey::parse("/servers/*/tools=server+name").unwrap();
    assert_eq!(key.path.as_deref().map(|p| p.len()), Some(3));
    assert_eq!(key.fields, ["server", "name"]);
    assert_eq!(ArrayKey::parse("id").unwrap().path, None);
    assert!(ArrayKey::parse("/tools=").is_err());
    assert!(ArrayKey::parse("tools=name").is_err());
}

#[test]
fn compare_options_from_text_name_the_list_of_a_bad_entry() {
    let strings = |items: &[&str]| items.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let options = CompareOptions::parse(&strings(&["/tools=name"]), document_keys(), &strings(&["/a/*/b"])).unwrap();
    assert_eq!(
        (options.array_keys.len(), options.default_keys, options.ignore.len()),
        (1, document_keys(), 1)
    );
    let bad_key = CompareOptions::parse(&strings(&["tools=name"]), document_keys(), &[]).unwrap_err();
    assert_eq!(bad_key.0, CompareOption::ArrayKeys);
    assert!(bad_key.1.contains("`tools` is not a JSON Pointer"), "{}", bad_key.1);
    let bad_ignore = CompareOptions::parse(&[], document_keys(), &strings(&["no-slash"])).unwrap_err();
    assert_eq!(bad_ignore.0, CompareOption::Ignore);
}

#[test]
fn compare_prunes_ignored_fields_and_reports_bad_input() {
    let a = r#"{"mcpServers": [{"id": "a", "status": "connected"}]}"#;
    let b = r#"{"mcpServers": [{"id": "a", "status": "failed"}]}"#;
    let options = CompareOptions {
        ignore: vec![IgnorePattern::parse("/mcpServers/*/status").unwrap()],
        ..with_document_keys()
    };
    assert!(compare(a, b, &options).unwrap().diff.is_empty());
    assert!(!compare(a, b, &with_document_keys()).unwrap().diff.is_empty());
    let error = compare(a, "{\n  \"x\": \n}", &options).unwrap_err();
    assert_eq!((error.side, error.error.line), (Side::B, 3));
}

#[test]
fn changes_are_located_by_line() {
    let a_text = "{\n  \"tools\": [\n    {\"name\": \"a\", \"v\": 1}\n  ]\n}";
    let b_text = "{\n  \"tools\": [\n    {\"name\": \"new\"},\n    {\"name\": \"a\", \"v\": 2}\n  ]\n}";
    // From a walk of the texts (a diff of `Value`s keeps no offsets), and from the lean walk's offsets.
    let value = |text: &str| serde_json::from_str::<Value>(text).unwrap();
    for mut result in [
        diff(&value(a_text), &value(b_text), &keyed()),
        lean_diff(a_text, b_text, &with_document_keys()).unwrap(),
    ] {
        locate(&mut result, a_text, b_text);
        let changed = result.changes.iter().find(|c| c.kind == ChangeKind::Changed).unwrap();
        assert_eq!((changed.old_line, changed.new_line), (Some(3), Some(4)));
    }
}

#[test]
fn canonical_text_sorts_keys_and_keeps_numbers() {
    let text = r#"{"b": 1.50, "a": 1e3}"#;
    let value: Value = serde_json::from_str(text).unwrap();
    assert_eq!(
        canonical_text(text, &value, false),
        "{\n  \"a\": 1e3,\n  \"b\": 1.50\n}\n"
    );
}

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        (-5i64..5).prop_map(Value::from),
        "[a-c]{0,2}".prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 40, 5, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            prop::collection::vec(("[a-d]", inner), 0..5)
                .prop_map(|members| Value::Object(members.into_iter().collect())),
        ]
    })
}

fn tool_list() -> impl Strategy<Value = Value> {
    prop::collection::vec((0u8..12, 0u8..3), 0..10).prop_map(|tools| {
        let mut seen = std::collections::HashSet::new();
        let unique: Vec<Value> = tools
            .into_iter()
            .filter(|(name, _)| seen.insert(*name))
            .map(|(name, version)| json!({"name": format!("t{name}"), "v": version}))
            .collect();
        json!({ "tools": unique })
    })
}

proptest! {
    #[test]
    fn patch_applies_to_any_pair(a in json_value(), b in json_value()) {
        assert_patch_turns_a_into_b(&a, &b, &keyed());
    }

    #[test]
    fn keyed_patch_applies_with_moves_inserts_and_deletes(a in tool_list(), b in tool_list()) {
        let result = assert_patch_turns_a_into_b(&a, &b, &keyed());
        let positional = diff(&a, &b, &DiffOptions::default());
        prop_assert_eq!(result.is_empty(), positional.is_empty());
    }

    #[test]
    fn merge_patch_applies_when_b_has_no_nulls(a in json_value(), b in json_value()) {
        let merge = merge::merge_patch(&a, &b);
        if merge.lossy.is_empty() {
            let mut patched = a.clone();
            json_patch::merge(&mut patched, &merge.patch);
            prop_assert!(value::equal(&patched, &b), "{} vs {}", patched, b);
        }
    }
}

/// JSON text with the spellings that make the lean and `Value` trees work for
/// equality: numbers of equal value written apart, escaped and plain strings
/// and keys, member order, white space. Keys are distinct per object (a
/// duplicate sends the lean path back to serde_json, tested in `lean`).
fn json_text() -> impl Strategy<Value = String> {
    let leaf = prop::sample::select(vec![
        "null",
        "true",
        "false",
        "1",
        "1.0",
        "1e0",
        "10E-1",
        "-0",
        "0.0",
        "2",
        "1.50",
        "\"a\"",
        "\"\\u0061\"",
        "\"é\"",
        "\"\\u00e9\"",
        "\"a\\nb\"",
        "\"\\ud83d\\ude00\"",
        "\"t1\"",
        "\"t2\"",
    ])
    .prop_map(str::to_string);
    leaf.prop_recursive(4, 48, 6, |inner| {
        let names = ["a", "\\u0061", "b", "name", "n\\u0061me", "id", "é", "\\u00e9", "v"];
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(|items| format!("[{}]", items.join(", "))),
            prop::collection::vec((0..names.len(), inner), 0..6).prop_map(move |members| {
                // `a`/`\u0061`, `name`/`n\u0061me` and `é`/`\u00e9` are the same key.
                let logical = |i: usize| names[i].replace("\\u0061", "a").replace("\\u00e9", "é");
                let mut seen = std::collections::HashSet::new();
                let members: Vec<String> = members
                    .into_iter()
                    .filter(|(i, _)| seen.insert(logical(*i)))
                    .map(|(i, value)| format!("\"{}\":{value}", names[i]))
                    .collect();
                format!("{{{}}}", members.join(",\n "))
            }),
        ]
    })
}

/// A snapshot-like document: tools keyed by name, sometimes with duplicates.
fn tools_text() -> impl Strategy<Value = String> {
    prop::collection::vec((0u8..8, json_text()), 0..8).prop_map(|tools| {
        let tools: Vec<String> = tools
            .into_iter()
            .map(|(name, body)| format!("{{\"name\": \"t{name}\", \"body\": {body}}}"))
            .collect();
        format!("{{\"tools\": [{}], \"mcpServers\": []}}", tools.join(","))
    })
}

/// The diff of the texts as written must say exactly what the diff of their
/// `Value`s says (written out again, compact: other spellings, no offsets),
/// whenever the texts make lean documents, and its lines, counted from the
/// walk's offsets, must be those a walk of the texts finds, in the texts as
/// given and pretty-printed.
fn assert_lean_diff_is_the_value_diff(a: &str, b: &str, options: &CompareOptions) {
    let Some(mut lean) = lean_diff(a, b, options) else {
        return;
    };
    let values = |a: &str, b: &str| {
        let parse = |text: &str| serde_json::from_str::<Value>(text).unwrap();
        diff(&parse(a), &parse(b), &diff_options(options))
    };
    let mut value = values(a, b);
    assert_eq!(lean.starts.len(), lean.changes.len());
    assert!(value.starts.is_empty());
    assert_eq!(
        serde_json::to_string(&lean).unwrap(),
        serde_json::to_string(&value).unwrap(),
        "{a}\n{b}"
    );
    assert_eq!(lean.arrays, value.arrays, "{a}\n{b}");
    locate(&mut lean, a, b);
    locate(&mut value, a, b);
    assert_eq!(
        serde_json::to_string(&lean).unwrap(),
        serde_json::to_string(&value).unwrap(),
        "{a}\n{b}"
    );
    let pretty = |text: &str| format(text, &FormatOptions::default()).unwrap();
    let (a, b) = (pretty(a), pretty(b));
    let (Some(mut lean), mut value) = (lean_diff(&a, &b, options), values(&a, &b)) else {
        panic!("pretty-printing changed what the lean document reads:\n{a}\n{b}");
    };
    locate(&mut lean, &a, &b);
    locate(&mut value, &a, &b);
    let lines = |diff: &Diff| {
        diff.changes
            .iter()
            .map(|c| (c.old_line, c.new_line))
            .collect::<Vec<_>>()
    };
    assert_eq!(lines(&lean), lines(&value), "{a}\n{b}");
}

#[test]
fn lean_and_value_diffs_agree_on_keyed_snapshots_and_big_objects() {
    let tool =
        |name: &str, description: &str| format!(r#"{{"name": "{name}", "description": "{description}", "n": 1}}"#);
    let a = format!(
        r#"{{"tools": [{}, {}, {}], "map": {{{}}}}}"#,
        tool("a", "x"),
        tool("b", "x"),
        tool("c", "x"),
        (0..40).map(|i| format!("\"k{i}\": {i}")).collect::<Vec<_>>().join(",")
    );
    let b = format!(
        r#"{{"map": {{{}}}, "tools": [{}, {}, {}]}}"#,
        (0..41)
            .rev()
            .map(|i| format!("\"k{i}\": {i}.0"))
            .collect::<Vec<_>>()
            .join(","),
        tool("c", "y"),
        tool("new", "x"),
        tool("a", "x"),
    );
    assert!(lean_diff(&a, &b, &with_document_keys()).is_some());
    assert_lean_diff_is_the_value_diff(&a, &b, &with_document_keys());
    let keyed = CompareOptions::parse(&["/tools=description".into()], Vec::new(), &[]).unwrap();
    assert_lean_diff_is_the_value_diff(&a, &b, &keyed);
    // Number keys as serde_json spells them: `1E3` and `1e3` are one key, so no keyed match.
    let a = r#"{"tools": [{"name": 1E3, "v": 1}, {"name": 1e3, "v": 2}, {"name": 2.50, "v": 3}]}"#;
    let b = r#"{"tools": [{"name": 1e3, "v": 2}, {"name": 1E3, "v": 1}, {"name": 2.50, "v": 4}]}"#;
    assert_lean_diff_is_the_value_diff(a, b, &with_document_keys());
    let options = CompareOptions::parse(&["/tools=v".into()], document_keys(), &[]).unwrap();
    assert_lean_diff_is_the_value_diff(a, b, &options);
}

#[test]
fn arrays_are_noted_where_they_differ_outer_first_on_both_trees() {
    // `/same` is keyed and equal (the lean walk passes over it by its
    // spelling), `/tools` differs inside an element's keyed `icons` array.
    let a = r#"{"same": [{"id": 1}], "tools": [{"name": "a", "icons": [{"src": "x", "size": 1}]}, {"name": "b"}]}"#;
    let b = r#"{"same": [{"id": 1}], "tools": [{"name": "b"}, {"name": "a", "icons": [{"src": "x", "size": 2}]}]}"#;
    let options = CompareOptions::parse(&["/tools/*/icons=src".into()], document_keys(), &[]).unwrap();
    let diff = compare_changes(a, b, &options).unwrap();
    let noted: Vec<(&str, Matching)> = diff.arrays.iter().map(|m| (m.path.as_str(), m.by)).collect();
    assert_eq!(noted, [("/tools", Matching::Key), ("/tools/*/icons", Matching::Key)]);
    assert_lean_diff_is_the_value_diff(a, b, &options);
    // Equal spellings are equal values; different spellings of equal values are still equal.
    let respelled = compare_changes(
        r#"{"n": [1.0, {"a": "\u0041"}]}"#,
        r#"{"n": [1.00, {"a": "A"}]}"#,
        &options,
    )
    .unwrap();
    assert!(respelled.is_empty(), "{respelled:?}");
}

#[test]
fn changes_alone_fall_back_to_values_where_lean_documents_do_not_answer() {
    let options = with_document_keys();
    // A duplicate key: serde_json keeps the last value.
    let duplicated = compare_changes(r#"{"a": 1, "a": 2}"#, r#"{"a": 2}"#, &options).unwrap();
    assert!(duplicated.is_empty());
    let ignored = CompareOptions::parse(&[], document_keys(), &["/a".into()]).unwrap();
    assert!(
        compare_changes(r#"{"a": 1}"#, r#"{"a": 2}"#, &ignored)
            .unwrap()
            .is_empty()
    );
    let error = compare_changes("{}", "{\n  \"x\": \n}", &options).unwrap_err();
    assert_eq!((error.side, error.error.line), (Side::B, 3));
}

proptest! {
    #[test]
    fn lean_and_value_diffs_agree(a in json_text(), b in json_text()) {
        assert_lean_diff_is_the_value_diff(&a, &b, &with_document_keys());
    }

    #[test]
    fn lean_and_value_diffs_agree_on_tool_lists(a in tools_text(), b in tools_text()) {
        assert_lean_diff_is_the_value_diff(&a, &b, &with_document_keys());
    }
}

#[test]
fn newlines_are_counted_exactly_eight_bytes_at_a_time() {
    // Bytes next to a line feed in value (0x09, 0x0b, 0x8a, 0x0a with the high
    // bit set) and at every position of a word, and lengths past whole words.
    let mut text = Vec::new();
    for i in 0..300_u32 {
        text.push([b'\n', 0x09, 0x0b, 0x8a, b'a', 0xe2, 0x00, 0xff][(i * 7 % 11 % 8) as usize]);
    }
    for end in 0..text.len() {
        let naive = text[..end].iter().filter(|&&b| b == b'\n').count();
        assert_eq!(count_newlines(&text[..end]), naive, "first {end} bytes");
    }
    assert_eq!(count_newlines(b"\n\n\n\n\n\n\n\n\n"), 9);
}
