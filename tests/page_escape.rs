//! The page escapes what it shows with its own character class
//! (`www/src/visible.js`, since the DOM is built on the main thread and the core
//! runs in a worker). Here that class is read from the file and held equal, code
//! point by code point, to the core's `render::escape::is_unsafe`, less the tab,
//! line feed and carriage return the DOM shows as white space.

use apcheck::render::escape::is_unsafe;

/// The code point of a `\uXXXX` or `\u{X…}` escape at the start of `text`, and what follows it.
fn escape(text: &str) -> (u32, &str) {
    let rest = text
        .strip_prefix("\\u")
        .expect("the class holds only \\u escapes and `-`");
    if let Some(braced) = rest.strip_prefix('{') {
        let (hex, after) = braced.split_once('}').unwrap();
        (u32::from_str_radix(hex, 16).unwrap(), after)
    } else {
        (u32::from_str_radix(&rest[..4], 16).unwrap(), &rest[4..])
    }
}

/// The ranges of the `UNSAFE` class in visible.js.
fn page_ranges() -> Vec<(u32, u32)> {
    let source = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/www/src/visible.js")).unwrap();
    let line = source
        .lines()
        .find(|line| line.starts_with("const UNSAFE = /["))
        .unwrap();
    let mut class = line
        .strip_prefix("const UNSAFE = /[")
        .and_then(|rest| rest.strip_suffix("]/gu;"))
        .unwrap();
    let mut ranges = Vec::new();
    while !class.is_empty() {
        let (start, rest) = escape(class);
        let (end, rest) = match rest.strip_prefix('-') {
            Some(rest) => escape(rest),
            None => (start, rest),
        };
        ranges.push((start, end));
        class = rest;
    }
    ranges
}

#[test]
fn the_page_escapes_what_the_cli_escapes() {
    let ranges = page_ranges();
    assert!(ranges.len() > 10, "{ranges:?}");
    let mut checked = 0;
    for c in (0..=0x10FFFF).filter_map(char::from_u32) {
        let page = ranges.iter().any(|&(start, end)| (start..=end).contains(&u32::from(c)));
        let cli = is_unsafe(c) && !matches!(c, '\t' | '\n' | '\r');
        assert_eq!(page, cli, "U+{:04X}", u32::from(c));
        checked += usize::from(page);
    }
    assert!(checked > 200, "{checked}");
}
