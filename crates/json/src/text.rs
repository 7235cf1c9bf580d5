//! Byte offsets ↔ line:column, so every diagnostic can name `file:line:col`.
//!
//! Columns count Unicode scalar values from 1, the unit most editors and
//! terminals show; the byte span travels alongside so faces that need another
//! unit (the page's editor counts UTF-16 code units) can convert exactly.

use serde::{Deserialize, Serialize};

/// A half-open byte range `start..end` into one file's text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Self {
        Span { start, end }
    }
}

/// A 1-based line and column.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct LineCol {
    pub line: usize,
    pub column: usize,
}

/// The start offset of every line of a text, and column checkpoints in long
/// lines, so that a column costs a bounded count however long its line is (a
/// minified document is one line, and each of its findings needs a column).
#[derive(Debug, Clone)]
pub struct LineIndex {
    line_starts: Vec<usize>,
    /// `(offset, column - 1)` every [`CHECKPOINT`] bytes or so inside lines
    /// longer than that, in offset order; offsets are character boundaries.
    checkpoints: Vec<(usize, usize)>,
}

/// Bytes between column checkpoints.
const CHECKPOINT: usize = 4096;

impl LineIndex {
    pub fn new(text: &str) -> Self {
        let mut line_starts = vec![0];
        line_starts.extend(memchr::memchr_iter(b'\n', text.as_bytes()).map(|i| i + 1));
        let mut checkpoints = Vec::new();
        for (line, &start) in line_starts.iter().enumerate() {
            let end = line_starts.get(line + 1).map_or(text.len(), |&next| next);
            let mut at = start;
            let mut chars = 0;
            while end - at > CHECKPOINT {
                let mut next = at + CHECKPOINT;
                while !text.is_char_boundary(next) {
                    next -= 1;
                }
                chars += text[at..next].chars().count();
                checkpoints.push((next, chars));
                at = next;
            }
        }
        LineIndex {
            line_starts,
            checkpoints,
        }
    }

    /// The 1-based line of byte `offset` (clamped to the text).
    pub fn line(&self, offset: usize) -> usize {
        self.line_starts.partition_point(|&start| start <= offset)
    }

    /// The line and column of byte `offset` in `text` (the text this index was built from).
    /// An offset past the end maps to the end; one inside a UTF-8 sequence to that character.
    pub fn line_col(&self, text: &str, offset: usize) -> LineCol {
        let offset = offset.min(text.len());
        let line = self.line_starts.partition_point(|&start| start <= offset) - 1;
        let line_start = self.line_starts[line];
        // The nearest checkpoint at or before `offset`, if it is on this line.
        let (start, before) = match self.checkpoints.partition_point(|&(at, _)| at <= offset) {
            0 => (line_start, 0),
            n => match self.checkpoints[n - 1] {
                (at, chars) if at > line_start => (at, chars),
                _ => (line_start, 0),
            },
        };
        let column = before
            + text[start..]
                .char_indices()
                .take_while(|&(i, _)| start + i < offset)
                .count()
            + 1;
        LineCol { line: line + 1, column }
    }

    /// [`LineIndex::line_col`] without an index: one pass over the text before
    /// `offset`, cheaper than building the index when a text has a finding or two.
    pub fn line_col_unindexed(text: &str, offset: usize) -> LineCol {
        let before = &text.as_bytes()[..offset.min(text.len())];
        let line_start = memchr::memrchr(b'\n', before).map_or(0, |i| i + 1);
        // A character is counted where it starts: a byte that is not a UTF-8 continuation.
        let chars = before[line_start..].iter().filter(|&&b| b & 0xC0 != 0x80).count();
        LineCol {
            line: memchr::memchr_iter(b'\n', before).count() + 1,
            column: chars + 1,
        }
    }

    /// The text of 1-based `line`, without its line break.
    pub fn line_text<'a>(&self, text: &'a str, line: usize) -> &'a str {
        let Some(&start) = self.line_starts.get(line.wrapping_sub(1)) else {
            return "";
        };
        let end = self.line_starts.get(line).map_or(text.len(), |&next| next);
        text[start..end].trim_end_matches(['\n', '\r'])
    }
}

/// How a parser's error positions count columns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ColumnUnit {
    /// serde_json counts bytes.
    Bytes,
    /// granit-parser (the YAML reader) counts characters.
    Chars,
}

/// The byte offset of a parser's 1-based `line` and `column`, clamped to the
/// text and to a character boundary, so a span can be built from an error
/// that reports only line and column.
pub fn offset_at(text: &str, line: usize, column: usize, unit: ColumnUnit) -> usize {
    let line_start = if line <= 1 {
        0
    } else {
        text.match_indices('\n')
            .nth(line - 2)
            .map_or(text.len(), |(i, _)| i + 1)
    };
    match unit {
        ColumnUnit::Bytes => {
            let mut offset = (line_start + column.saturating_sub(1)).min(text.len());
            while !text.is_char_boundary(offset) {
                offset -= 1;
            }
            offset
        }
        ColumnUnit::Chars => text[line_start..]
            .char_indices()
            .nth(column.saturating_sub(1))
            .map_or(text.len(), |(i, _)| line_start + i),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_map_to_one_based_line_and_column() {
        let text = "{\n  \"a\": 1,\n  \"é\": 2\n}";
        let index = LineIndex::new(text);
        assert_eq!(index.line_col(text, 0), LineCol { line: 1, column: 1 });
        assert_eq!(index.line_col(text, 4), LineCol { line: 2, column: 3 });
        let after_e_acute = text.find("\": 2").unwrap();
        assert_eq!(index.line_col(text, after_e_acute), LineCol { line: 3, column: 5 });
        assert_eq!(index.line_text(text, 2), "  \"a\": 1,");
        assert_eq!(index.line_col(text, 10_000), LineCol { line: 4, column: 2 });
    }

    #[test]
    fn columns_in_long_lines_match_a_count_from_the_line_start() {
        let text = format!("x\n{}\n{}", "aé€😀".repeat(5_000), "b".repeat(9_000));
        let index = LineIndex::new(&text);
        let naive = |offset: usize| {
            let start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
            text[start..offset].chars().count() + 1
        };
        for offset in (0..text.len()).step_by(997).filter(|&o| text.is_char_boundary(o)) {
            let at = index.line_col(&text, offset);
            assert_eq!(at.column, naive(offset), "offset {offset}");
            assert_eq!(at.line, index.line(offset));
        }
    }

    #[test]
    fn the_unindexed_count_agrees_with_the_index_at_every_offset() {
        // Every offset, including those inside a multi-byte character and past the end.
        let text = "{\n  \"é\": \"€😀\",\r\n\n  \"b\": [1,\n2]}\n";
        let index = LineIndex::new(text);
        for offset in 0..=text.len() + 3 {
            assert_eq!(
                LineIndex::line_col_unindexed(text, offset),
                index.line_col(text, offset),
                "offset {offset}"
            );
        }
    }

    #[test]
    fn parser_positions_map_back_to_byte_offsets_in_either_unit() {
        let text = "ab\né: x\n";
        let after_e_acute = "ab\né".len();
        assert_eq!(offset_at(text, 2, 2, ColumnUnit::Chars), after_e_acute);
        assert_eq!(offset_at(text, 2, 3, ColumnUnit::Bytes), after_e_acute);
        // A byte column inside `é` backs off to the character's start.
        assert_eq!(offset_at(text, 2, 2, ColumnUnit::Bytes), 3);
        assert_eq!(offset_at(text, 9, 1, ColumnUnit::Chars), text.len());
    }
}
