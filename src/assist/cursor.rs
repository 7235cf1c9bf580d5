//! Where a cursor stands in a JSON document that is being typed: the member
//! path of the object around it, and whether it is on (or where) a member
//! name or a member value goes.
//!
//! The document is usually broken while someone types (a key without its
//! value, an unclosed string), so this is a tolerant scanner of its own, not
//! the strict parser the checks use: it never fails, it only reads tokens and
//! keeps a stack of open containers. An unterminated string ends at its line.

use crate::source::Span;

/// What the cursor is on, or where it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cursor {
    /// Member names (array indexes as decimal text) from the root to the
    /// container the cursor is in.
    pub path: Vec<String>,
    pub slot: Slot,
    /// The members of the innermost object around the cursor, as far as they
    /// can be read: each name, with the value when it is a string.
    pub siblings: Vec<(String, Option<String>)>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Slot {
    /// Where a member name goes, or on one (`token`).
    Key { token: Option<Token> },
    /// Where the value of member `key` goes, or on it (`token`).
    Value { key: String, token: Option<Token> },
    /// Anywhere else: between values in an array, after a value, outside the root.
    Other,
}

/// A token under the cursor: a string's decoded content (or a literal's text) and its byte span.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Token {
    pub text: String,
    pub span: Span,
    pub is_string: bool,
}

#[derive(Debug)]
enum Frame {
    Object {
        /// The name of the member being read, once its key is seen.
        key: Option<String>,
        /// Whether a `:` was seen after the key, so a value is expected.
        after_colon: bool,
        members: Vec<(String, Option<String>)>,
    },
    Array {
        index: usize,
    },
}

/// Finds the cursor at byte `offset` of `text`.
pub fn cursor_at(text: &str, offset: usize) -> Cursor {
    let bytes = text.as_bytes();
    let offset = offset.min(bytes.len());
    let mut stack: Vec<Frame> = Vec::new();
    let mut found: Option<(Vec<String>, Slot, usize)> = None;
    let mut i = 0;
    loop {
        while i < bytes.len() && bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        skip_comments(bytes, &mut i);
        while i < bytes.len() && bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        let token_start = i;
        // The cursor is in the gap before this token (or at the end).
        if found.is_none() && offset <= token_start {
            found = Some((path_of(&stack), gap_slot(&stack), stack.len()));
        }
        if i >= bytes.len() {
            break;
        }
        match bytes[i] {
            b'{' => {
                i += 1;
                stack.push(Frame::Object {
                    key: None,
                    after_colon: false,
                    members: Vec::new(),
                });
            }
            b'[' => {
                i += 1;
                stack.push(Frame::Array { index: 0 });
            }
            b'}' | b']' => {
                i += 1;
                let closed = stack.pop();
                if let (Some(closed), Some((_, _, depth))) = (&closed, &found)
                    && *depth == stack.len() + 1
                {
                    return finish(found, Some(closed));
                }
                end_value(&mut stack, None);
            }
            b':' => {
                i += 1;
                if let Some(Frame::Object {
                    key: Some(_),
                    after_colon,
                    ..
                }) = stack.last_mut()
                {
                    *after_colon = true;
                }
            }
            b',' => {
                i += 1;
                match stack.last_mut() {
                    Some(Frame::Object { key, after_colon, .. }) => {
                        *key = None;
                        *after_colon = false;
                    }
                    Some(Frame::Array { index }) => *index += 1,
                    None => {}
                }
            }
            b'"' => {
                let (content, end) = read_string(bytes, i);
                i = end;
                let span = Span::new(token_start, end);
                // A cursor strictly inside the string, or right after an unterminated one.
                let inside = offset > token_start && (offset < end || (offset == end && !text[..end].ends_with('"')));
                let is_key = matches!(stack.last(), Some(Frame::Object { key: None, .. }));
                if found.is_none() && inside {
                    let token = Some(Token {
                        text: content.clone(),
                        span,
                        is_string: true,
                    });
                    let slot = if is_key {
                        Slot::Key { token }
                    } else {
                        value_slot(&stack, token)
                    };
                    found = Some((path_of(&stack), slot, stack.len()));
                }
                if is_key {
                    if let Some(Frame::Object { key, .. }) = stack.last_mut() {
                        *key = Some(content);
                    }
                } else {
                    end_value(&mut stack, Some(content));
                }
            }
            _ => {
                // A literal (number, true, false, null) or stray text: up to a delimiter.
                while i < bytes.len() && !b"{}[]:,\"".contains(&bytes[i]) && !bytes[i].is_ascii_whitespace() {
                    i += 1;
                }
                let span = Span::new(token_start, i);
                if found.is_none() && offset > token_start && offset <= i {
                    let token = Some(Token {
                        text: text[token_start..i].to_string(),
                        span,
                        is_string: false,
                    });
                    found = Some((path_of(&stack), value_slot(&stack, token), stack.len()));
                }
                end_value(&mut stack, None);
            }
        }
    }
    let innermost = found
        .as_ref()
        .and_then(|(_, _, depth)| stack.get(depth.wrapping_sub(1)));
    let siblings = match innermost {
        Some(Frame::Object { members, .. }) => members.clone(),
        _ => Vec::new(),
    };
    let (path, slot, _) = found.unwrap_or((Vec::new(), Slot::Other, 0));
    Cursor { path, slot, siblings }
}

fn finish(found: Option<(Vec<String>, Slot, usize)>, closed: Option<&Frame>) -> Cursor {
    let (path, slot, _) = found.unwrap_or((Vec::new(), Slot::Other, 0));
    let siblings = match closed {
        Some(Frame::Object { members, .. }) => members.clone(),
        _ => Vec::new(),
    };
    Cursor { path, slot, siblings }
}

/// What goes at a gap between tokens, given the innermost open container.
fn gap_slot(stack: &[Frame]) -> Slot {
    match stack.last() {
        Some(Frame::Object { key: None, .. }) => Slot::Key { token: None },
        Some(Frame::Object {
            key: Some(key),
            after_colon: true,
            ..
        }) => Slot::Value {
            key: key.clone(),
            token: None,
        },
        _ => Slot::Other,
    }
}

fn value_slot(stack: &[Frame], token: Option<Token>) -> Slot {
    match stack.last() {
        Some(Frame::Object { key: Some(key), .. }) => Slot::Value {
            key: key.clone(),
            token,
        },
        _ => Slot::Other,
    }
}

/// A value ended in the innermost container: an object records the member.
fn end_value(stack: &mut [Frame], string_value: Option<String>) {
    if let Some(Frame::Object {
        key: Some(key),
        after_colon,
        members,
    }) = stack.last_mut()
        && *after_colon
    {
        members.push((key.clone(), string_value));
        *after_colon = false;
    }
}

fn path_of(stack: &[Frame]) -> Vec<String> {
    // Each container is the value of its parent's current member (or index).
    let mut path = Vec::new();
    for frame in &stack[..stack.len().saturating_sub(1)] {
        match frame {
            Frame::Object { key, .. } => path.push(key.clone().unwrap_or_default()),
            Frame::Array { index } => path.push(index.to_string()),
        }
    }
    path
}

fn skip_comments(bytes: &[u8], i: &mut usize) {
    while bytes.get(*i) == Some(&b'/') {
        match bytes.get(*i + 1) {
            Some(b'/') => {
                while *i < bytes.len() && bytes[*i] != b'\n' {
                    *i += 1;
                }
            }
            Some(b'*') => {
                *i += 2;
                while *i < bytes.len() && !bytes[*i..].starts_with(b"*/") {
                    *i += 1;
                }
                *i = (*i + 2).min(bytes.len());
            }
            _ => return,
        }
        while *i < bytes.len() && bytes[*i].is_ascii_whitespace() {
            *i += 1;
        }
    }
}

/// The decoded content of the string starting at `start` (a `"`) and the
/// offset after it. Escapes are decoded as JSON does; an unterminated string
/// ends before its line break.
fn read_string(bytes: &[u8], start: usize) -> (String, usize) {
    let mut raw = Vec::new();
    let mut i = start + 1;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => return (decode(&raw), i + 1),
            b'\n' | b'\r' => return (decode(&raw), i),
            b'\\' if i + 1 < bytes.len() => {
                raw.extend_from_slice(&bytes[i..i + 2]);
                i += 2;
            }
            byte => {
                raw.push(byte);
                i += 1;
            }
        }
    }
    (decode(&raw), i)
}

fn decode(raw: &[u8]) -> String {
    let quoted = [b"\"".as_slice(), raw, b"\""].concat();
    // Through `from_str`, whose reader the wasm has anyway (`from_slice` is a
    // second instantiation of serde_json's parser), after the same UTF-8 check.
    std::str::from_utf8(&quoted)
        .ok()
        .and_then(|text| serde_json::from_str::<String>(text).ok())
        .unwrap_or_else(|| String::from_utf8_lossy(raw).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The cursor at the `|` in `marked`.
    fn at(marked: &str) -> Cursor {
        let offset = marked.find('|').expect("a | marks the cursor");
        let text = marked.replacen('|', "", 1);
        cursor_at(&text, offset)
    }

    #[test]
    fn a_gap_in_an_object_is_a_key_slot() {
        let cursor = at(r#"{"name": "x", |}"#);
        assert_eq!(cursor.path, Vec::<String>::new());
        assert_eq!(cursor.slot, Slot::Key { token: None });
        assert_eq!(cursor.siblings, [("name".to_string(), Some("x".to_string()))]);
    }

    #[test]
    fn inside_a_key_names_it_with_its_span() {
        let cursor = at(r#"{"na|me": "x"}"#);
        let Slot::Key { token: Some(token) } = cursor.slot else {
            panic!("{cursor:?}")
        };
        assert_eq!(token.text, "name");
        assert_eq!(token.span, Span::new(1, 7));
    }

    #[test]
    fn after_a_colon_is_the_value_of_that_key_even_unfinished() {
        let cursor = at(r#"{"mcpServers": {"a": {"type": |"#);
        assert_eq!(cursor.path, ["mcpServers", "a"]);
        assert_eq!(
            cursor.slot,
            Slot::Value {
                key: "type".into(),
                token: None
            }
        );
        let cursor = at("{\"mcpServers\": {\"a\": {\"type\": \"st|\n");
        let Slot::Value {
            key,
            token: Some(token),
        } = cursor.slot
        else {
            panic!()
        };
        assert_eq!((key.as_str(), token.text.as_str()), ("type", "st"));
    }

    #[test]
    fn siblings_after_the_cursor_are_read_too() {
        let cursor = at(r#"{"mcpServers": {"a": {|, "type": "sse", "url": "https://x"}}}"#);
        assert_eq!(cursor.path, ["mcpServers", "a"]);
        let names: Vec<_> = cursor.siblings.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(names, ["type", "url"]);
        assert_eq!(cursor.siblings[0].1.as_deref(), Some("sse"));
    }

    #[test]
    fn arrays_count_indexes_and_escapes_decode() {
        let cursor = at(r#"{"keywords": ["a", "b|"], "x\u0041": 1}"#);
        assert_eq!(cursor.path, ["keywords"]);
        assert_eq!(cursor.slot, Slot::Other);
        let cursor = at(r#"{"x\u0041|": 1}"#);
        let Slot::Key { token: Some(token) } = cursor.slot else {
            panic!()
        };
        assert_eq!(token.text, "xA");
    }

    #[test]
    fn literals_and_outside_the_root() {
        let cursor = at(r#"{"a": tr|ue}"#);
        let Slot::Value { token: Some(token), .. } = cursor.slot else {
            panic!()
        };
        assert!(!token.is_string);
        assert_eq!(at(r#"|{"a": 1}"#).slot, Slot::Other);
        assert_eq!(at("|").slot, Slot::Other);
    }
}
