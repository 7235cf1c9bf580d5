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

/// A text's lines as the protocol counts them: each ends at `\n`, `\r\n` or
/// a lone `\r` (LSP 3.17 §Text Documents). Built once per text, so placing
/// every finding of a big file costs a binary search each, not a rescan.
pub struct Lines<'t> {
    text: &'t str,
    /// The byte offset where each line starts; the first is 0.
    starts: Vec<usize>,
    encoding: Encoding,
    /// The last offset placed, its line and its character: findings come in
    /// order, so counting on from there keeps a one-line (minified) file linear.
    last: std::cell::Cell<(usize, usize, usize)>,
}

impl<'t> Lines<'t> {
    pub fn new(text: &'t str, encoding: Encoding) -> Self {
        let bytes = text.as_bytes();
        let mut starts = vec![0];
        for at in memchr::memchr2_iter(b'\n', b'\r', bytes) {
            // A CR followed by LF ends its line at the LF.
            if bytes[at] == b'\r' && bytes.get(at + 1) == Some(&b'\n') {
                continue;
            }
            starts.push(at + 1);
        }
        Lines {
            text,
            starts,
            encoding,
            last: std::cell::Cell::new((0, 0, 0)),
        }
    }

    /// The end of line `line`'s text (before its line break).
    fn line_end(&self, line: usize) -> usize {
        let Some(&next) = self.starts.get(line + 1) else {
            return self.text.len();
        };
        let bytes = self.text.as_bytes();
        let mut end = next - 1;
        if bytes[end] == b'\n' && end > self.starts[line] && bytes[end - 1] == b'\r' {
            end -= 1;
        }
        end
    }

    /// The position of byte `offset` (clamped to the text, and back to a character boundary).
    pub fn position(&self, offset: usize) -> Position {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.starts.partition_point(|&start| start <= offset) - 1;
        // An offset inside a CRLF pair counts as the line's end.
        let column_end = offset.min(self.line_end(line));
        let (last_offset, last_line, last_character) = self.last.get();
        let (from, counted) = if last_line == line && (self.starts[line]..=column_end).contains(&last_offset) {
            (last_offset, last_character)
        } else {
            (self.starts[line], 0)
        };
        let character = counted + self.units(&self.text[from..column_end]);
        self.last.set((column_end, line, character));
        Position::new(line as u32, character as u32)
    }

    /// `text`'s length in the negotiated units.
    fn units(&self, text: &str) -> usize {
        if text.is_ascii() {
            return text.len();
        }
        text.chars().map(|c| self.encoding.units(c)).sum()
    }

    /// The byte offset of `position`; past a line's end is its end, past the last line the text's end.
    pub fn offset(&self, position: Position) -> usize {
        let line = position.line as usize;
        let Some(&line_start) = self.starts.get(line) else {
            return self.text.len();
        };
        let line_end = self.line_end(line);
        let mut units = 0;
        for (i, c) in self.text[line_start..line_end].char_indices() {
            if units >= position.character as usize {
                return line_start + i;
            }
            units += self.encoding.units(c);
        }
        line_end
    }

    /// The text's length in bytes.
    pub fn len(&self) -> usize {
        self.text.len()
    }

    pub fn range(&self, start: usize, end: usize) -> Range {
        Range::new(self.position(start), self.position(end))
    }

    /// The position of a 1-based `line` and `column` counted in characters as
    /// the core counts them (lines end at `\n` only), for findings placed
    /// without a byte span.
    pub fn position_of_line_column(&self, line: usize, column: usize) -> Position {
        let line_start = match line.saturating_sub(1) {
            0 => 0,
            n => memchr::memchr_iter(b'\n', self.text.as_bytes())
                .nth(n - 1)
                .map_or(self.text.len(), |at| at + 1),
        };
        let rest = &self.text[line_start..];
        let line_text = &rest[..rest.find('\n').unwrap_or(rest.len())];
        let within: usize = line_text
            .chars()
            .take(column.saturating_sub(1))
            .map(char::len_utf8)
            .sum();
        self.position(line_start + within)
    }
}

/// The byte offset of `position` in `text`, for a single use ([`Lines`] for many).
pub fn offset_at(text: &str, position: Position, encoding: Encoding) -> usize {
    Lines::new(text, encoding).offset(position)
}

pub fn range_of(text: &str, start: usize, end: usize, encoding: Encoding) -> Range {
    Lines::new(text, encoding).range(start, end)
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
        assert_eq!(Lines::new(text, Encoding::Utf16).position(x), Position::new(1, 10));
        assert_eq!(Lines::new(text, Encoding::Utf8).position(x), Position::new(1, 12));
        for encoding in [Encoding::Utf8, Encoding::Utf16] {
            assert_eq!(offset_at(text, Lines::new(text, encoding).position(x), encoding), x);
        }
        assert_eq!(offset_at(text, Position::new(9, 0), Encoding::Utf16), text.len());
    }

    #[test]
    fn line_column_matches_byte_positions() {
        let text = "é\nab";
        assert_eq!(
            Lines::new(text, Encoding::Utf16).position_of_line_column(2, 2),
            Position::new(1, 1)
        );
        assert_eq!(
            Lines::new(text, Encoding::Utf8).position_of_line_column(1, 2),
            Position::new(0, 2)
        );
    }

    #[test]
    fn lines_end_at_lf_crlf_and_a_lone_cr() {
        // LSP 3.17 §Text Documents: all three end a line.
        let text = "a\rb\r\nc\nd";
        let lines = Lines::new(text, Encoding::Utf16);
        for (c, position) in [('a', (0, 0)), ('b', (1, 0)), ('c', (2, 0)), ('d', (3, 0))] {
            let offset = text.find(c).unwrap();
            assert_eq!(lines.position(offset), Position::new(position.0, position.1), "{c}");
            assert_eq!(lines.offset(lines.position(offset)), offset, "{c}");
        }
        // The end of a CRLF line is before its CR, and a position past it stays on it.
        assert_eq!(lines.position(text.find('\n').unwrap()), Position::new(1, 1));
        assert_eq!(lines.offset(Position::new(1, 9)), text.find("\r\n").unwrap());
        // The core's line 2 (lines end at LF only) is "c", the protocol's line 2.
        assert_eq!(lines.position_of_line_column(2, 1), Position::new(2, 0));
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
