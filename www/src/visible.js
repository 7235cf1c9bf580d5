// What the page never shows raw: control characters, line and paragraph
// separators, bidi controls and marks, and characters that show as nothing
// (zero width space, word joiner, BOM, Unicode tags). The DOM escapes markup,
// not these: a U+202E in a tool name would reverse the rest of its line, and
// tag characters would hide a sentence. The set is the core's
// `render::escape::is_unsafe` less tab, line feed and carriage return, which
// the DOM shows as white space; tests/page_escape.rs holds the two equal.
const UNSAFE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u180e\u200b\u200e\u200f\u2028\u2029\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\u{e0000}-\u{e007f}]/gu;

/** `text` with each unsafe character written as `\u{hex}`, as the CLI writes it. */
export function visible(text) {
  return text.replace(UNSAFE, (c) => `\\u{${c.codePointAt(0).toString(16)}}`);
}
