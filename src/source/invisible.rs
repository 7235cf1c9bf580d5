//! Characters that render as nothing, or reorder what is around them, while a
//! model reading the same text sees every one of them. The renderer writes them
//! as escapes; AP318 (a SKILL.md) and AP614 (a snapshot's tools and skills)
//! report them where a reviewer would otherwise miss what a text tells the model.

use serde_json::Value;

use super::Span;
use crate::json::parse::push_token;

/// Format characters that no script needs and that show as nothing: the zero
/// width space, the word joiner and invisible operators, a byte order mark
/// inside a text, the Mongolian vowel separator, and the Unicode tag block,
/// which spells ASCII out of sight. Zero width (non-)joiners are left out:
/// emoji sequences and several scripts need them.
pub fn is_invisible(c: char) -> bool {
    matches!(
        c,
        '\u{200B}' | '\u{2060}'..='\u{2064}' | '\u{FEFF}' | '\u{180E}' | '\u{E0000}'..='\u{E007F}'
    )
}

/// Bidi embeddings, overrides and isolates (Unicode UAX #9): they reorder the
/// characters a reader sees without changing the ones a parser or model reads.
/// The marks (LRM, RLM, ALM) are left out; right-to-left writing uses them.
pub fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// The ASCII a Unicode tag character stands for (`U+E0041` is `A`), if printable.
pub fn tag_ascii(c: char) -> Option<char> {
    let ascii = u32::from(c).checked_sub(0xE0000)?;
    char::from_u32(ascii).filter(|a| (' '..='~').contains(a))
}

/// The most of a tag-spelled text [`Hidden::describe`] shows.
const SHOWN_TAG_TEXT: usize = 60;

/// What a text hides: where, how many of each kind, and what tags spell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hidden {
    /// Runs of adjacent hidden characters, as byte ranges of the text, in order.
    pub runs: Vec<Span>,
    invisible: usize,
    bidi: usize,
    spelled: String,
}

/// The hidden characters of `text`, if it has any. A subdivision flag's tags
/// (the tag block's one visible use) are not hidden; see [`flag_tags_len`].
pub fn find_hidden(text: &str) -> Option<Hidden> {
    let mut hidden = Hidden {
        runs: Vec::new(),
        invisible: 0,
        bidi: 0,
        spelled: String::new(),
    };
    let mut candidates = LeadBytes::new(text.as_bytes());
    let mut at = 0;
    while let Some(start) = candidates.next_at(at) {
        let c = text[start..].chars().next().expect("a lead byte starts a character");
        let end = start + c.len_utf8();
        at = end;
        if c == BLACK_FLAG {
            at += flag_tags_len(&text[end..]);
            continue;
        }
        let is_hidden = if is_invisible(c) {
            hidden.invisible += 1;
            hidden.spelled.extend(tag_ascii(c));
            true
        } else {
            hidden.bidi += usize::from(is_bidi_control(c));
            is_bidi_control(c)
        };
        if is_hidden {
            match hidden.runs.last_mut() {
                Some(run) if run.end == start => run.end = end,
                _ => hidden.runs.push(Span::new(start, end)),
            }
        }
    }
    (!hidden.runs.is_empty()).then_some(hidden)
}

/// The bytes that can start a character [`find_hidden`] looks at: the UTF-8
/// lead bytes of U+180E (E1), U+200B–U+2069 (E2), U+FEFF (EF), 🏴 (F0) and
/// the tag block (F3). Every SKILL.md of a package is scanned, and most are
/// ASCII: memchr skips them many bytes at a time, where decoding each
/// character took a tenth of a 50,000-skill check, whose goal is 1.2 s.
///
/// The next three-byte and four-byte leads are kept apart and each searched
/// again only once passed, so a text of emoji with no three-byte lead is not
/// searched to its end once per emoji: the whole scan stays linear.
struct LeadBytes<'t> {
    bytes: &'t [u8],
    /// Where the next lead of each kind is, the text's length when none is left.
    three_byte: usize,
    four_byte: usize,
}

impl<'t> LeadBytes<'t> {
    fn new(bytes: &'t [u8]) -> Self {
        LeadBytes {
            bytes,
            three_byte: Self::next_three_byte(bytes, 0),
            four_byte: Self::next_four_byte(bytes, 0),
        }
    }

    fn next_three_byte(bytes: &[u8], at: usize) -> usize {
        memchr::memchr3(0xE1, 0xE2, 0xEF, &bytes[at..]).map_or(bytes.len(), |offset| at + offset)
    }

    fn next_four_byte(bytes: &[u8], at: usize) -> usize {
        memchr::memchr2(0xF0, 0xF3, &bytes[at..]).map_or(bytes.len(), |offset| at + offset)
    }

    /// The position of the next lead byte at or after `at`.
    fn next_at(&mut self, at: usize) -> Option<usize> {
        if self.three_byte < at {
            self.three_byte = Self::next_three_byte(self.bytes, at);
        }
        if self.four_byte < at {
            self.four_byte = Self::next_four_byte(self.bytes, at);
        }
        let next = self.three_byte.min(self.four_byte);
        (next < self.bytes.len()).then_some(next)
    }
}

/// 🏴, the base of every subdivision flag.
const BLACK_FLAG: char = '\u{1F3F4}';

/// The byte length of the tags of a subdivision flag at the start of `rest`
/// (what follows a 🏴), or 0 if they are not one. UTS #51 spells a flag as 🏴,
/// a subdivision code in tag digits and lowercase tag letters (`gbsct` for
/// Scotland; seven at most here), then the cancel tag U+E007F. Anything longer,
/// or other tags, is text hidden behind a flag and counts as hidden.
fn flag_tags_len(rest: &str) -> usize {
    let mut len = 0;
    for (count, c) in rest.chars().enumerate() {
        match c {
            '\u{E007F}' if count > 0 => return len + c.len_utf8(),
            '\u{E0030}'..='\u{E0039}' | '\u{E0061}'..='\u{E007A}' if count < 7 => len += c.len_utf8(),
            _ => return 0,
        }
    }
    0
}

/// The pointers (below `pointer`, and whether each is a member name) of the
/// strings under `value` that hide text: a snapshot's tools and skills
/// (AP614), the tools a live server lists (AP452), frontmatter values (AP318).
pub fn hidden_strings(value: &Value, pointer: &mut String, found: &mut Vec<(String, bool, Hidden)>) {
    match value {
        Value::String(text) => found.extend(find_hidden(text).map(|hidden| (pointer.clone(), false, hidden))),
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                let len = pointer.len();
                pointer.push_str(&format!("/{i}"));
                hidden_strings(item, pointer, found);
                pointer.truncate(len);
            }
        }
        Value::Object(members) => {
            for (key, member) in members {
                let len = pointer.len();
                push_token(pointer, key);
                found.extend(find_hidden(key).map(|hidden| (pointer.clone(), true, hidden)));
                hidden_strings(member, pointer, found);
                pointer.truncate(len);
            }
        }
        _ => {}
    }
}

impl Hidden {
    /// "2 that show as nothing and 1 bidi control that reorders what a reader
    /// sees; its Unicode tag characters spell "…"", for a message.
    pub fn describe(&self) -> String {
        let mut kinds = Vec::new();
        match self.invisible {
            0 => {}
            1 => kinds.push("1 that shows as nothing".to_string()),
            n => kinds.push(format!("{n} that show as nothing")),
        }
        match self.bidi {
            0 => {}
            1 => kinds.push("1 bidi control that reorders what a reader sees".to_string()),
            n => kinds.push(format!("{n} bidi controls that reorder what a reader sees")),
        }
        let mut text = kinds.join(" and ");
        let spelled = self.spelled.trim();
        if !spelled.is_empty() {
            let shown: String = spelled.chars().take(SHOWN_TAG_TEXT).collect();
            let more = if spelled.chars().count() > SHOWN_TAG_TEXT {
                "…"
            } else {
                ""
            };
            text.push_str(&format!("; its Unicode tag characters spell {shown:?}{more}"));
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    #[test]
    fn invisible_and_reordering_characters_are_told_apart() {
        for c in [
            '\u{200B}',
            '\u{2060}',
            '\u{FEFF}',
            '\u{E0001}',
            '\u{E0041}',
            '\u{E007F}',
        ] {
            assert!(is_invisible(c), "{:x}", u32::from(c));
        }
        // Joiners build emoji and some scripts; marks are how right-to-left text is written.
        for c in ['\u{200C}', '\u{200D}', '\u{200E}', 'a', 'é', '\u{1F3F4}'] {
            assert!(!is_invisible(c) && !is_bidi_control(c), "{:x}", u32::from(c));
        }
        assert!(is_bidi_control('\u{202E}') && is_bidi_control('\u{2066}'));
        assert_eq!(tag_ascii('\u{E0041}'), Some('A'));
        assert_eq!(tag_ascii('\u{E007F}'), None);
        assert_eq!(tag_ascii('A'), None);
    }

    /// `text` spelled in Unicode tag characters.
    fn tags(text: &str) -> String {
        text.chars()
            .map(|c| char::from_u32(0xE0000 + u32::from(c)).unwrap())
            .collect()
    }

    #[test]
    fn hidden_runs_are_found_counted_and_spelled() {
        let hidden = find_hidden(&format!("a{}\u{200B}b\u{202E}c", tags("Hi"))).unwrap();
        assert_eq!(hidden.runs, [Span::new(1, 12), Span::new(13, 16)]);
        assert_eq!(
            hidden.describe(),
            "3 that show as nothing and 1 bidi control that reorders what a reader sees; \
             its Unicode tag characters spell \"Hi\""
        );
        assert_eq!(find_hidden("plain"), None);
    }

    #[test]
    fn a_subdivision_flag_shows_and_covers_nothing_else() {
        // Scotland: black flag, the tags `gbsct`, the cancel tag.
        let scotland = format!("\u{1F3F4}{}\u{E007F}", tags("gbsct"));
        assert_eq!(find_hidden(&scotland), None);
        assert_eq!(find_hidden(&format!("{scotland}{scotland} ok")), None);
        // Tags after the cancel tag, a run too long or not lowercase to be a
        // subdivision code, one never cancelled, or a zero width space after 🏴.
        for (text, spelled) in [
            (format!("{scotland}{}", tags("Hi")), "Hi"),
            (
                format!("\u{1F3F4}{}\u{E007F}", tags("ignore previous")),
                "ignore previous",
            ),
            (format!("\u{1F3F4}{}\u{E007F}", tags("GB")), "GB"),
            (format!("\u{1F3F4}{}", tags("gbsct")), "gbsct"),
            ("\u{1F3F4}\u{200B}".to_string(), ""),
        ] {
            let hidden = find_hidden(&text).unwrap_or_else(|| panic!("{text:?}"));
            assert_eq!(hidden.spelled, spelled, "{text:?}");
        }
    }

    #[test]
    fn the_lead_bytes_skipped_to_start_every_character_looked_at() {
        // The scan jumps between lead bytes: a character it looks at whose
        // UTF-8 starts otherwise would never be seen.
        let looked_at = (0..=u32::from(char::MAX))
            .filter_map(char::from_u32)
            .filter(|&c| is_invisible(c) || is_bidi_control(c) || c == BLACK_FLAG);
        let mut count = 0;
        for c in looked_at {
            let text = format!("ab{c}");
            assert_eq!(
                LeadBytes::new(text.as_bytes()).next_at(0),
                Some(2),
                "U+{:04X}",
                u32::from(c)
            );
            count += 1;
        }
        assert_eq!(count, 146, "what the character classes above hold, and 🏴");
        // Other characters sharing a lead byte are looked at and passed over.
        let text = "\u{2014} \u{1F600} x\u{200B}y \u{FF21}\u{202E}";
        assert_eq!(find_hidden(text).unwrap().runs, [Span::new(10, 13), Span::new(18, 21)]);
    }

    /// What [`find_hidden`] finds, by decoding every character: the scan it
    /// replaced, kept as the oracle for the one that jumps between lead bytes.
    fn hidden_runs_by_every_character(text: &str) -> Vec<Span> {
        let mut runs: Vec<Span> = Vec::new();
        let mut shown_until = 0;
        for (at, c) in text.char_indices() {
            if at < shown_until {
                continue;
            }
            let end = at + c.len_utf8();
            if c == BLACK_FLAG {
                shown_until = end + flag_tags_len(&text[end..]);
            } else if is_invisible(c) || is_bidi_control(c) {
                match runs.last_mut() {
                    Some(run) if run.end == at => run.end = end,
                    _ => runs.push(Span::new(at, end)),
                }
            }
        }
        runs
    }

    proptest! {
        /// Untrusted text (a SKILL.md, a tool description): any mix of ASCII,
        /// characters sharing the lead bytes, flags, tags and hidden characters
        /// gives the runs a character-by-character scan gives.
        #[test]
        fn the_lead_byte_scan_finds_what_decoding_every_character_finds(
            text in proptest::collection::vec(
                prop_oneof![
                    Just("a"), Just(" "), Just("\u{2014}"), Just("\u{1F600}"), Just("\u{1F3F4}"), Just("\u{E0067}"),
                    Just("\u{E007F}"), Just("\u{E0041}"), Just("\u{200B}"), Just("\u{202E}"), Just("\u{FEFF}"),
                    Just("\u{180E}"), Just("\u{FF21}"), Just("é"), Just("\u{200D}"),
                ],
                0..40,
            ).prop_map(|parts| parts.concat()),
            other in any::<String>(),
        ) {
            for text in [&text, &other] {
                let runs = find_hidden(text).map(|hidden| hidden.runs).unwrap_or_default();
                prop_assert_eq!(runs, hidden_runs_by_every_character(text), "{:?}", text);
            }
        }
    }
}
