//! Edits of a JSON file that keep its layout: replace a value, insert a member
//! first in an object (in the indentation of the members already there),
//! remove a member with its comma. Spans come from the parsed document, and
//! only the whitespace and commas between them are read from the text, which
//! in strict JSON is all there is between tokens.

use crate::fix::Edit;
use crate::source::Span;
use crate::source::json::JsonSource;

/// `value` as a JSON string literal.
pub fn string_literal(value: &str) -> String {
    serde_json::to_string(value).expect("a string serializes")
}

/// Replaces the value at `pointer` with the JSON text `replacement`.
pub fn replace_value(file: &JsonSource, pointer: &str, replacement: impl Into<String>) -> Option<Edit> {
    let span = file.doc.value_span(pointer)?;
    Some(Edit::replace(&file.path, span, replacement))
}

/// Inserts `"key": value_json` as the first member of the object at `pointer`.
pub fn insert_first_member(file: &JsonSource, pointer: &str, key: &str, value_json: &str) -> Option<Edit> {
    let object = file.doc.value_span(pointer)?;
    let member = format!("{}: {value_json}", string_literal(key));
    match first_member_start(file, pointer) {
        Some(first) => {
            // `{\n  "a": 1` becomes `{\n  "key": v,\n  "a": 1`: the new member
            // reuses the whitespace that leads into the first one.
            let lead = match file.text.get(object.start + 1..first)? {
                "" => " ",
                lead => lead,
            };
            Some(Edit::insert(&file.path, first, format!("{member},{lead}")))
        }
        None => Some(Edit::replace(&file.path, object, format!("{{{member}}}"))),
    }
}

/// Inserts `"key": value_json` as the last member of the object at `pointer`,
/// right after the last member's value, led by the whitespace that leads into
/// that member (so it lines up with it).
pub fn insert_last_member(file: &JsonSource, pointer: &str, key: &str, value_json: &str) -> Option<Edit> {
    let object = file.doc.value_span(pointer)?;
    let member = format!("{}: {value_json}", string_literal(key));
    let members = file.doc.value.pointer(pointer)?.as_object()?;
    let last = members
        .keys()
        .filter_map(|key| {
            let mut path = pointer.to_string();
            crate::json::parse::push_token(&mut path, key);
            Some((file.doc.key_span(&path)?.start, file.doc.value_span(&path)?.end))
        })
        .max();
    match last {
        Some((key_start, value_end)) => {
            let lead_start = skip_whitespace_back(file.text.as_bytes(), key_start);
            let lead = match &file.text[lead_start..key_start] {
                "" => " ",
                lead => lead,
            };
            Some(Edit::insert(&file.path, value_end, format!(",{lead}{member}")))
        }
        None => Some(Edit::replace(&file.path, object, format!("{{{member}}}"))),
    }
}

/// Sets member `key` of the object at `pointer` to `value_json`: replaces its
/// value when it is there, else inserts it first.
pub fn set_member(file: &JsonSource, pointer: &str, key: &str, value_json: &str) -> Option<Edit> {
    let mut member = pointer.to_string();
    crate::json::parse::push_token(&mut member, key);
    match file.doc.value_span(&member) {
        Some(_) => replace_value(file, &member, value_json),
        None => insert_first_member(file, pointer, key, value_json),
    }
}

/// Removes the member at `pointer` with the comma and whitespace that
/// separate it from its neighbour.
pub fn remove_member(file: &JsonSource, pointer: &str) -> Option<Edit> {
    Some(Edit::delete(&file.path, member_removal_span(file, pointer)?))
}

/// The bytes that removing the member at `pointer` deletes (see [`remove_member`]).
pub fn member_removal_span(file: &JsonSource, pointer: &str) -> Option<Span> {
    let member = member_span(file, pointer)?;
    let text = file.text.as_bytes();
    let after = skip_whitespace(text, member.end);
    if text.get(after) == Some(&b',') {
        // Not the last: take the comma and the whitespace up to the next key.
        return Some(Span::new(member.start, skip_whitespace(text, after + 1)));
    }
    let before = skip_whitespace_back(text, member.start);
    if before > 0 && text[before - 1] == b',' {
        // The last of several: take the comma before it.
        return Some(Span::new(before - 1, member.end));
    }
    // The only member: leave `{}`.
    Some(Span::new(before, after))
}

/// From the member's key to the end of its value.
pub fn member_span(file: &JsonSource, pointer: &str) -> Option<Span> {
    let key = file.doc.key_span(pointer)?;
    let value = file.doc.value_span(pointer)?;
    (key.start < value.start).then(|| Span::new(key.start, value.end))
}

/// The offset of the first member's key in the object at `pointer`, if it has members.
fn first_member_start(file: &JsonSource, pointer: &str) -> Option<usize> {
    let members = file.doc.value.pointer(pointer)?.as_object()?;
    members
        .keys()
        .filter_map(|key| {
            let mut member = pointer.to_string();
            crate::json::parse::push_token(&mut member, key);
            file.doc.key_span(&member).map(|span| span.start)
        })
        .min()
}

fn skip_whitespace(text: &[u8], mut at: usize) -> usize {
    while text.get(at).is_some_and(u8::is_ascii_whitespace) {
        at += 1;
    }
    at
}

fn skip_whitespace_back(text: &[u8], mut at: usize) -> usize {
    while at > 0 && text[at - 1].is_ascii_whitespace() {
        at -= 1;
    }
    at
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fix::apply_edits;
    use crate::json::parse_document;
    use crate::source::LineIndex;

    fn file(text: &str) -> JsonSource<'static> {
        JsonSource {
            path: "plugin.json".into(),
            text: text.to_string().into(),
            index: LineIndex::new(text),
            doc: parse_document(text).unwrap(),
        }
    }

    fn applied(text: &str, edit: Option<Edit>) -> String {
        let fixed = apply_edits(text, &[edit.expect("an edit")]).unwrap();
        parse_document(&fixed).expect("the fixed text is JSON");
        fixed
    }

    #[test]
    fn a_value_is_replaced_in_place() {
        let text = "{\n  \"name\": \"Bad\",\n  \"x\": 1\n}\n";
        let out = applied(text, replace_value(&file(text), "/name", string_literal("bad")));
        assert_eq!(out, "{\n  \"name\": \"bad\",\n  \"x\": 1\n}\n");
    }

    #[test]
    fn a_first_member_takes_the_indentation_of_the_others() {
        let text = "{\n  \"name\": \"a\"\n}\n";
        let out = applied(text, insert_first_member(&file(text), "", "$schema", "\"s\""));
        assert_eq!(out, "{\n  \"$schema\": \"s\",\n  \"name\": \"a\"\n}\n");
        let inline = "{\"s\": {\"command\": \"x\"}}";
        let out = applied(inline, insert_first_member(&file(inline), "/s", "type", "\"stdio\""));
        assert_eq!(out, "{\"s\": {\"type\": \"stdio\", \"command\": \"x\"}}");
        let empty = "{\"s\": {}}";
        let out = applied(empty, insert_first_member(&file(empty), "/s", "type", "\"stdio\""));
        assert_eq!(out, "{\"s\": {\"type\": \"stdio\"}}");
    }

    #[test]
    fn a_last_member_lines_up_with_the_one_before() {
        let text = "{\n  \"name\": \"a\",\n  \"x\": [1]\n}\n";
        let out = applied(text, insert_last_member(&file(text), "", "e", "{}"));
        assert_eq!(out, "{\n  \"name\": \"a\",\n  \"x\": [1],\n  \"e\": {}\n}\n");
        let inline = "{\"s\": {\"a\": 1}}";
        let out = applied(inline, insert_last_member(&file(inline), "/s", "b", "2"));
        assert_eq!(out, "{\"s\": {\"a\": 1, \"b\": 2}}");
        let empty = "{\"s\": {}}";
        let out = applied(empty, insert_last_member(&file(empty), "/s", "b", "2"));
        assert_eq!(out, "{\"s\": {\"b\": 2}}");
    }

    #[test]
    fn a_member_is_set_whether_or_not_it_is_there() {
        let text = "{\"a\": 1}";
        assert_eq!(applied(text, set_member(&file(text), "", "a", "2")), "{\"a\": 2}");
        assert_eq!(
            applied(text, set_member(&file(text), "", "b", "2")),
            "{\"b\": 2, \"a\": 1}"
        );
    }

    #[test]
    fn a_member_goes_with_its_comma_wherever_it_is() {
        let text = "{\n  \"a\": 1,\n  \"b\": [2],\n  \"c\": 3\n}";
        let f = file(text);
        assert_eq!(
            applied(text, remove_member(&f, "/a")),
            "{\n  \"b\": [2],\n  \"c\": 3\n}"
        );
        assert_eq!(applied(text, remove_member(&f, "/b")), "{\n  \"a\": 1,\n  \"c\": 3\n}");
        assert_eq!(
            applied(text, remove_member(&f, "/c")),
            "{\n  \"a\": 1,\n  \"b\": [2]\n}"
        );
        let only = "{ \"a\": {} }";
        assert_eq!(applied(only, remove_member(&file(only), "/a")), "{}");
        assert!(remove_member(&f, "/missing").is_none());
    }
}
