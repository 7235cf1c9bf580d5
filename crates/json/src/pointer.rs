//! JSON Pointers (RFC 6901) as text: built token by token, and split back.

/// Appends `/token` to `pointer`, escaped per RFC 6901.
pub fn push_token(pointer: &mut String, token: &str) {
    pointer.push('/');
    for c in token.chars() {
        match c {
            '~' => pointer.push_str("~0"),
            '/' => pointer.push_str("~1"),
            c => pointer.push(c),
        }
    }
}

/// `pointer` split into unescaped tokens; `None` if it is not a valid RFC 6901 pointer.
pub fn pointer_tokens(pointer: &str) -> Option<Vec<String>> {
    if pointer.is_empty() {
        return Some(Vec::new());
    }
    pointer
        .strip_prefix('/')?
        .split('/')
        .map(|t| Some(t.replace("~1", "/").replace("~0", "~")))
        .collect()
}
