//! Byte offsets (the core's unit) ↔ LSP positions (line and character in
//! the negotiated encoding: UTF-8 bytes when the client offers it, else the
//! protocol's default UTF-16 code units), and file paths ↔ `file:` URIs.

use std::path::{Path, PathBuf};
use std::str::FromStr;

use lsp_types::{Position, Range, Uri};
use percent_encoding::{AsciiSet, CONTROLS, percent_decode_str, utf8_percent_encode};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    Utf8,
    Utf16,
}

impl Encoding {
    fn units(self, c: char) -> usize {
        match self {
            Encoding::Utf8 => c.len_utf8(),
            Encoding::Utf16 => c.len_utf16(),
        }
    }
}

/// The position of byte `offset` of `text` (clamped to the text, and back to a character boundary).
pub fn position_at(text: &str, offset: usize, encoding: Encoding) -> Position {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let line = text[..line_start].matches('\n').count();
    let character: usize = text[line_start..offset].chars().map(|c| encoding.units(c)).sum();
    Position::new(line as u32, character as u32)
}

/// The byte offset of `position` in `text`; past a line's end is its end, past the last line the text's end.
pub fn offset_at(text: &str, position: Position, encoding: Encoding) -> usize {
    let mut line_start = 0;
    for _ in 0..position.line {
        match text[line_start..].find('\n') {
            Some(i) => line_start += i + 1,
            None => return text.len(),
        }
    }
    let line_end = text[line_start..].find('\n').map_or(text.len(), |i| line_start + i);
    let mut units = 0;
    for (i, c) in text[line_start..line_end].char_indices() {
        if units >= position.character as usize {
            return line_start + i;
        }
        units += encoding.units(c);
    }
    line_end
}

pub fn range_of(text: &str, start: usize, end: usize, encoding: Encoding) -> Range {
    Range::new(position_at(text, start, encoding), position_at(text, end, encoding))
}

/// The position of a 1-based `line` and `column` counted in characters (the core's
/// line:column), for findings placed without a byte span.
pub fn position_of_line_column(text: &str, line: usize, column: usize, encoding: Encoding) -> Position {
    let line_text = text.split('\n').nth(line.saturating_sub(1)).unwrap_or("");
    let character: usize = line_text
        .chars()
        .take(column.saturating_sub(1))
        .map(|c| encoding.units(c))
        .sum();
    Position::new(line.saturating_sub(1) as u32, character as u32)
}

/// Characters a path keeps unescaped in a `file:` URI: unreserved, sub-delims, `/`, `:` and `@`.
const PATH_ESCAPES: &AsciiSet = &CONTROLS
    .add(b' ')
    .add(b'"')
    .add(b'#')
    .add(b'%')
    .add(b'<')
    .add(b'>')
    .add(b'?')
    .add(b'[')
    .add(b'\\')
    .add(b']')
    .add(b'^')
    .add(b'`')
    .add(b'{')
    .add(b'|')
    .add(b'}');

pub fn uri_of(path: &Path) -> Uri {
    let text = format!("file://{}", utf8_percent_encode(&path.to_string_lossy(), PATH_ESCAPES));
    Uri::from_str(&text).expect("an escaped absolute path is a URI")
}

/// The local path a `file:` URI names (`None` for other schemes).
pub fn path_of(uri: &Uri) -> Option<PathBuf> {
    let rest = uri.as_str().strip_prefix("file://")?;
    // `file://host/path` names a path on another host; only the local form is read.
    let path = rest.strip_prefix("localhost").unwrap_or(rest);
    path.starts_with('/')
        .then(|| PathBuf::from(percent_decode_str(path).decode_utf8_lossy().into_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf16_counts_surrogate_pairs_and_utf8_counts_bytes() {
        let text = "{\n  \"a\": \"😀x\"\n}";
        let x = text.find('x').unwrap();
        assert_eq!(position_at(text, x, Encoding::Utf16), Position::new(1, 10));
        assert_eq!(position_at(text, x, Encoding::Utf8), Position::new(1, 12));
        for encoding in [Encoding::Utf8, Encoding::Utf16] {
            assert_eq!(offset_at(text, position_at(text, x, encoding), encoding), x);
        }
        assert_eq!(offset_at(text, Position::new(9, 0), Encoding::Utf16), text.len());
    }

    #[test]
    fn line_column_matches_byte_positions() {
        let text = "é\nab";
        assert_eq!(
            position_of_line_column(text, 2, 2, Encoding::Utf16),
            Position::new(1, 1)
        );
        assert_eq!(position_of_line_column(text, 1, 2, Encoding::Utf8), Position::new(0, 2));
    }

    #[test]
    fn paths_round_trip_through_uris() {
        let path = Path::new("/tmp/my plugin/#1/plugin.json");
        let uri = uri_of(path);
        assert_eq!(uri.as_str(), "file:///tmp/my%20plugin/%231/plugin.json");
        assert_eq!(path_of(&uri).unwrap(), path);
        assert_eq!(path_of(&Uri::from_str("untitled:Untitled-1").unwrap()), None);
    }
}
