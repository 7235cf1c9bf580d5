//! Properties of `apcheck fmt`: idempotent, value-preserving, and as strict as
//! serde_json (a strict RFC 8259 parser) on near-JSON input, failing where
//! the validating scan (`fmt`'s check before streaming) fails.

use apcheck::json::format::{FormatOptions, Indent, Layout, format, format_streaming, format_streaming_in_slices};
use apcheck::json::locate::{SpanTree, nearest_spans, nearest_spans_in_checked};
use apcheck::json::scan::check_syntax;
use proptest::prelude::*;
use serde_json::Value;

fn space() -> BoxedStrategy<String> {
    "[ \t\n\r]{0,2}".boxed()
}

/// JSONC's white space: comments too, holding what would end a token elsewhere.
fn jsonc_space() -> BoxedStrategy<String> {
    prop_oneof![
        3 => space(),
        1 => Just("/* ] } , \" */".to_string()),
        1 => Just(" // ] } , \"\n".to_string()),
    ]
    .boxed()
}

fn json_text() -> impl Strategy<Value = String> {
    text_with(space, "")
}

/// JSONC: comments between tokens, and sometimes a trailing comma.
fn jsonc_text() -> impl Strategy<Value = String> {
    text_with(jsonc_space, ",")
}

fn text_with(space: fn() -> BoxedStrategy<String>, trailing_comma: &'static str) -> impl Strategy<Value = String> {
    let number = r"-?(0|[1-9][0-9]{0,20})(\.[0-9]{1,5})?([eE][+-]?[0-9]{1,2})?";
    let string = r#""([a-zé€ 😀{}\[\],:]|\\[nt"\\/bfr]|\\u00[0-9a-f]{2}){0,6}""#;
    let leaf = prop_oneof![
        number.prop_map(|n| n),
        string.prop_map(|s| s),
        Just("true".to_string()),
        Just("false".to_string()),
        Just("null".to_string()),
    ];
    leaf.prop_recursive(5, 60, 6, move |inner| {
        let element = (space(), inner.clone(), space()).prop_map(|(a, v, b)| format!("{a}{v}{b}"));
        let member = (space(), "[a-d]{0,2}", space(), inner, space())
            .prop_map(|(a, k, b, v, c)| format!("{a}\"{k}\"{b}:{v}{c}"));
        prop_oneof![
            (prop::collection::vec(element, 0..5), space()).prop_map(move |(items, s)| if items.is_empty() {
                format!("[{s}]")
            } else {
                format!("[{}{trailing_comma}]", items.join(","))
            }),
            (prop::collection::vec(member, 0..5), space()).prop_map(move |(members, s)| if members.is_empty() {
                format!("{{{s}}}")
            } else {
                format!("{{{}{trailing_comma}}}", members.join(","))
            }),
        ]
    })
}

fn layouts() -> impl Strategy<Value = FormatOptions> {
    (0..4usize, any::<bool>()).prop_map(|(layout, sort_keys)| FormatOptions {
        layout: [
            Layout::Minify,
            Layout::Pretty(Indent::Spaces(2)),
            Layout::Pretty(Indent::Spaces(4)),
            Layout::Pretty(Indent::Tab),
        ][layout],
        sort_keys,
        jsonc: false,
    })
}

/// Every pointer of `value`, and under each a member that is not there.
fn pointers(value: &Value, at: String, out: &mut Vec<String>) {
    out.push(format!("{at}/missing"));
    match value {
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                pointers(item, format!("{at}/{i}"), out);
            }
            out.push(format!("{at}/{}", items.len()));
        }
        Value::Object(members) => {
            for (key, member) in members {
                pointers(
                    member,
                    format!("{at}/{}", key.replace('~', "~0").replace('/', "~1")),
                    out,
                );
            }
        }
        _ => {}
    }
    out.push(at);
}

proptest! {
    #[test]
    fn streaming_gives_what_format_returns(text in json_text(), options in layouts()) {
        let mut streamed = Vec::new();
        format_streaming(&text, &options, &mut |chunk: &[u8]| streamed.extend_from_slice(chunk)).unwrap();
        prop_assert_eq!(String::from_utf8(streamed).unwrap(), format(&text, &options).unwrap());
    }

    /// `fmt --jsonc` streams through the same trusting second pass: comments
    /// (holding brackets, commas and quotes) and trailing commas are dropped as
    /// the validating scan drops them.
    #[test]
    fn streaming_jsonc_gives_what_format_returns(text in jsonc_text(), options in layouts()) {
        let options = FormatOptions { jsonc: true, ..options };
        let mut streamed = Vec::new();
        format_streaming(&text, &options, &mut |chunk: &[u8]| streamed.extend_from_slice(chunk)).unwrap();
        prop_assert_eq!(String::from_utf8(streamed).unwrap(), format(&text, &options).unwrap());
    }

    /// The parallel writer (slices this short put a checkpoint at nearly every
    /// comma) writes the bytes the serial writer writes, JSONC included.
    #[test]
    fn parallel_slices_give_what_format_returns(
        text in prop_oneof![json_text(), jsonc_text()],
        options in layouts(),
        slice_bytes in 1..48usize,
        threads in 2..5usize,
    ) {
        let options = FormatOptions { jsonc: true, sort_keys: false, ..options };
        let mut sliced = Vec::new();
        format_streaming_in_slices(&text, &options, slice_bytes, threads, &mut |piece: &[u8]| sliced.extend_from_slice(piece)).unwrap();
        prop_assert_eq!(String::from_utf8(sliced).unwrap(), format(&text, &options).unwrap());
    }

    /// The one-scan locator, the checked walk and the span tree agree on every pointer, including
    /// duplicate keys (the generator's keys are short, so they repeat) and missing ones.
    #[test]
    fn one_scan_locates_as_the_span_tree_does(text in json_text()) {
        let mut wanted = Vec::new();
        pointers(&serde_json::from_str(&text).unwrap(), String::new(), &mut wanted);
        let wanted: Vec<&str> = wanted.iter().map(String::as_str).collect();
        let tree = SpanTree::parse(&text).unwrap();
        let expected: Vec<_> = wanted.iter().map(|pointer| tree.nearest_span(&text, pointer)).collect();
        prop_assert_eq!(&nearest_spans(&text, &wanted).unwrap(), &expected);
        // The walk that trusts the text and passes over unwanted values finds the same.
        prop_assert_eq!(nearest_spans_in_checked(&text, &wanted), expected);
    }

    #[test]
    fn formatting_is_idempotent_and_keeps_the_value(text in json_text(), options in layouts()) {
        let original: Value = serde_json::from_str(&text).unwrap();
        let once = format(&text, &options).unwrap();
        prop_assert!(once.ends_with('\n'));
        let reparsed: Value = serde_json::from_str(&once).unwrap();
        // serde_json's Map equality ignores member order, which --sort-keys changes.
        prop_assert_eq!(&reparsed, &original);
        prop_assert_eq!(format(&once, &options).unwrap(), once);
    }

    #[test]
    fn near_json_is_accepted_exactly_when_serde_json_accepts_it(
        text in json_text(),
        position in any::<prop::sample::Index>(),
        insert in prop::sample::select(vec!["", ",", "]", "}", "\"", ":", "0", "-", ".", "e", "\\", "/", "\u{1}", "x"]),
        delete in any::<bool>(),
    ) {
        let mut chars: Vec<char> = text.chars().collect();
        let at = position.index(chars.len() + 1);
        if delete && at < chars.len() {
            chars.remove(at);
        }
        let insertion: Vec<char> = insert.chars().collect();
        chars.splice(at..at, insertion);
        let mutated: String = chars.into_iter().collect();
        let ours = format(&mutated, &FormatOptions::default());
        // `fmt` checks with the validating scan before it streams: both must
        // report the same first error, at the same place.
        let checked = check_syntax(&mutated, false);
        prop_assert_eq!(ours.as_ref().err(), checked.as_ref().err());
        // So does the check that records the parallel writer's checkpoints,
        // and it emits nothing for a broken text.
        let mut emitted = 0;
        let sliced = format_streaming_in_slices(&mutated, &FormatOptions::default(), 4, 2, &mut |piece: &[u8]| emitted += piece.len());
        prop_assert_eq!(sliced.as_ref().err(), checked.as_ref().err());
        prop_assert!(checked.is_ok() || emitted == 0);
        match serde_json::from_str::<Value>(&mutated) {
            Ok(_) => prop_assert!(ours.is_ok(), "{mutated:?}: {:?}", ours.err()),
            // serde_json refuses numbers beyond f64; the grammar allows them and so do we.
            Err(e) if e.to_string().contains("out of range") => {}
            Err(e) => prop_assert!(ours.is_err(), "{mutated:?} accepted; serde_json: {e}"),
        }
    }
}
