//! The LSP base protocol's framing (LSP 3.17 §Base Protocol), read within
//! bounds, and each body decoded into a message or a reason to refuse it.
//! lsp-server's own reader allocates whatever `Content-Length` says (a
//! panic at 2^64 - 1, 1.5 GB for a header alone) and ends the session on
//! the first body that is not a message; this one holds at most one body of
//! at most [`MAX_MESSAGE_BYTES`], and leaves it to the caller to answer or
//! skip a bad body and read on.
//!
//! Self-contained (std, memchr, serde, serde_json and lsp-server's message types),
//! so the fuzz target `fuzz/fuzz_targets/lsp_framing.rs` builds it as it is.

use std::io::{self, BufRead, Read};

use lsp_server::{ErrorCode, Message, RequestId};
use serde::Deserialize;
use serde::de::{DeserializeSeed, IgnoredAny, MapAccess, Visitor};

/// The largest message body read: far above any document an editor sends
/// (a checked file is read up to 16 MiB), far below what would hurt.
pub const MAX_MESSAGE_BYTES: usize = 64 * 1024 * 1024;

/// The longest header line. Headers are `Content-Length` and
/// `Content-Type`; a line this long is not one of them.
const MAX_HEADER_LINE: usize = 4096;

/// The most header lines in one header block.
const MAX_HEADER_LINES: usize = 64;

/// One frame of the stream.
#[derive(Debug, PartialEq, Eq)]
pub enum Frame {
    /// A body within the limit.
    Body(Vec<u8>),
    /// A `Content-Length` over the limit (saturated at `u64::MAX`), with the
    /// body still unread: [`skip_body`] passes over it without holding it.
    TooLarge(u64),
}

/// The next frame of `input`; `None` at the end of the stream between
/// frames. An error means the stream can no longer be split into frames (a
/// header block without a usable `Content-Length`, a header line past the
/// limits, or the end of the stream inside a frame).
pub fn read_frame(input: &mut impl BufRead, max: usize) -> io::Result<Option<Frame>> {
    let mut length: Option<u64> = None;
    let mut line = Vec::new();
    let mut lines = 0;
    loop {
        line.clear();
        if !read_header_line(input, &mut line)? {
            if lines == 0 {
                return Ok(None);
            }
            return Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                "the stream ended inside a header",
            ));
        }
        lines += 1;
        if line.is_empty() {
            break;
        }
        if lines > MAX_HEADER_LINES {
            return Err(invalid(format!("more than {MAX_HEADER_LINES} header lines")));
        }
        // A header this reader does not know (`Content-Type`, or noise) is
        // passed over, as the base protocol's headers allow.
        let Some(colon) = line.iter().position(|&byte| byte == b':') else {
            continue;
        };
        if !line[..colon].eq_ignore_ascii_case(b"Content-Length") {
            continue;
        }
        let value = parse_length(line[colon + 1..].trim_ascii())
            .ok_or_else(|| invalid("a Content-Length that is not a number".to_string()))?;
        if length.is_some_and(|first| first != value) {
            return Err(invalid("two different Content-Length headers".to_string()));
        }
        length = Some(value);
    }
    let length = length.ok_or_else(|| invalid("a message without a Content-Length".to_string()))?;
    let Some(size) = usize::try_from(length).ok().filter(|&size| size <= max) else {
        return Ok(Some(Frame::TooLarge(length)));
    };
    // Grown as the bytes arrive, not allocated up front from the header: a
    // client that announces 60 MiB and sends 10 bytes holds 10 bytes.
    let mut body = Vec::new();
    input.take(length).read_to_end(&mut body)?;
    if body.len() < size {
        return Err(io::Error::new(
            io::ErrorKind::UnexpectedEof,
            "the stream ended inside a message",
        ));
    }
    Ok(Some(Frame::Body(body)))
}

/// Passes over the `length` bytes of a body too large to read, a buffer at a time.
pub fn skip_body(input: &mut impl BufRead, length: u64) -> io::Result<()> {
    let skipped = io::copy(&mut input.take(length), &mut io::sink())?;
    if skipped < length {
        return Err(io::Error::new(
            io::ErrorKind::UnexpectedEof,
            "the stream ended inside a message",
        ));
    }
    Ok(())
}

/// Reads one header line into `line`, without its line ending (CRLF, or a
/// bare LF from a lenient client); `false` at the end of the stream before
/// any byte of it.
fn read_header_line(input: &mut impl BufRead, line: &mut Vec<u8>) -> io::Result<bool> {
    let mut read_any = false;
    loop {
        let buffer = input.fill_buf()?;
        if buffer.is_empty() {
            if read_any {
                return Err(io::Error::new(
                    io::ErrorKind::UnexpectedEof,
                    "the stream ended inside a header",
                ));
            }
            return Ok(false);
        }
        read_any = true;
        let (taken, ended) = match memchr::memchr(b'\n', buffer) {
            Some(at) => (at + 1, true),
            None => (buffer.len(), false),
        };
        if line.len() + taken > MAX_HEADER_LINE + 2 {
            return Err(invalid(format!("a header line longer than {MAX_HEADER_LINE} bytes")));
        }
        line.extend_from_slice(&buffer[..taken]);
        input.consume(taken);
        if ended {
            line.pop();
            if line.last() == Some(&b'\r') {
                line.pop();
            }
            return Ok(true);
        }
    }
}

/// A decimal length, saturated at `u64::MAX` (it is then over any limit);
/// `None` for anything but ASCII digits.
fn parse_length(digits: &[u8]) -> Option<u64> {
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    Some(digits.iter().fold(0u64, |value, digit| {
        value.saturating_mul(10).saturating_add(u64::from(digit - b'0'))
    }))
}

fn invalid(message: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, message)
}

/// What a body holds.
#[derive(Debug)]
pub enum Decoded {
    Message(Message),
    /// Not a message: why, the JSON-RPC error code it earns (ParseError for
    /// text that is not JSON or nests too deep, InvalidRequest for JSON that
    /// is not a message), and the id to answer under when it is a request
    /// whose `id` could be read. A body without one is skipped: a
    /// notification, or a response, gets no answer (JSON-RPC 2.0 §4.1, §5).
    Refused {
        id: Option<RequestId>,
        code: ErrorCode,
        reason: String,
    },
}

/// The message in `body`. The parse is serde_json's, which refuses JSON
/// nested deeper than 128 levels (its recursion limit) before the stack
/// could run out; no LSP message nests a tenth as deep.
pub fn decode(body: &[u8]) -> Decoded {
    match serde_json::from_slice::<Message>(body) {
        Ok(message) => Decoded::Message(message),
        Err(error) => {
            let code = match error.classify() {
                serde_json::error::Category::Data => ErrorCode::InvalidRequest,
                _ => ErrorCode::ParseError,
            };
            let mut seen = Seen::default();
            // Its own error does not matter: what it read before failing does.
            let _ = Envelope(&mut seen).deserialize(&mut serde_json::Deserializer::from_slice(body));
            let reason = match code {
                ErrorCode::ParseError => format!("not a JSON-RPC message: the JSON does not parse: {error}"),
                _ => format!("not a JSON-RPC message: {error}"),
            };
            Decoded::Refused {
                id: seen.id.filter(|_| seen.method),
                code,
                reason,
            }
        }
    }
}

/// What the second, lenient reading of a refused body found before it
/// stopped: its `id` (when it is one a response can carry) and whether it
/// has a `method`, that is, whether it is a request.
#[derive(Default)]
struct Seen {
    id: Option<RequestId>,
    method: bool,
}

/// Reads a body's top-level members in order, recording into [`Seen`] as it
/// goes, so that what came before a broken string or a nesting too deep is
/// kept; the other values are skipped by serde_json without recursion.
struct Envelope<'s>(&'s mut Seen);

#[derive(Deserialize)]
#[serde(field_identifier, rename_all = "lowercase")]
enum Member {
    Id,
    Method,
    #[serde(other)]
    Other,
}

impl<'de> DeserializeSeed<'de> for Envelope<'_> {
    type Value = ();

    fn deserialize<D: serde::Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for Envelope<'_> {
    type Value = ();

    fn expecting(&self, formatter: &mut std::fmt::Formatter) -> std::fmt::Result {
        formatter.write_str("a JSON-RPC message")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while let Some(member) = map.next_key::<Member>()? {
            match member {
                Member::Id => self.0.id = Some(map.next_value::<RequestId>()?),
                Member::Method => {
                    self.0.method = true;
                    map.next_value::<IgnoredAny>()?;
                }
                Member::Other => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn framed(body: &[u8]) -> Vec<u8> {
        let mut out = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
        out.extend_from_slice(body);
        out
    }

    /// Every frame of `input` until the end or an error, skipping bodies
    /// over `max` as the server does.
    fn frames(mut input: &[u8], max: usize) -> (Vec<Frame>, Option<io::ErrorKind>) {
        let mut found = Vec::new();
        loop {
            match read_frame(&mut input, max) {
                Ok(None) => return (found, None),
                Ok(Some(Frame::TooLarge(length))) => {
                    found.push(Frame::TooLarge(length));
                    if let Err(error) = skip_body(&mut input, length) {
                        return (found, Some(error.kind()));
                    }
                }
                Ok(Some(frame)) => found.push(frame),
                Err(error) => return (found, Some(error.kind())),
            }
        }
    }

    #[test]
    fn an_absurd_content_length_is_too_large_without_allocating_it() {
        // 2^64 - 1 used to panic ("capacity overflow"); more digits saturate.
        for header in [
            "Content-Length: 18446744073709551615",
            "content-length:99999999999999999999999",
        ] {
            let input = format!("{header}\r\n\r\n{{}}");
            let mut reader = input.as_bytes();
            let frame = read_frame(&mut reader, MAX_MESSAGE_BYTES).unwrap();
            assert_eq!(frame, Some(Frame::TooLarge(u64::MAX)), "{header}");
            // Only the header was taken; the body is the caller's to skip.
            assert_eq!(reader, b"{}");
        }
    }

    #[test]
    fn a_large_announced_body_that_never_comes_holds_only_what_came() {
        // 1.5 GB used to be allocated for a header alone.
        let (frames, error) = frames(b"Content-Length: 1500000000\r\n\r\n{}", usize::MAX);
        assert!(frames.is_empty());
        assert_eq!(error, Some(io::ErrorKind::UnexpectedEof));
    }

    #[test]
    fn a_body_over_the_limit_is_skipped_and_the_next_one_read() {
        let mut input = framed(&[b'x'; 100]);
        input.extend(framed(b"{}"));
        let (frames, error) = frames(&input, 99);
        assert_eq!(frames, [Frame::TooLarge(100), Frame::Body(b"{}".to_vec())]);
        assert_eq!(error, None);
    }

    #[test]
    fn headers_other_than_content_length_and_bare_line_feeds_are_accepted() {
        let input = b"Content-Type: application/vscode-jsonrpc; charset=utf-8\r\nnoise\nContent-Length:  2 \n\r\n{}";
        assert_eq!(frames(input, 10), (vec![Frame::Body(b"{}".to_vec())], None));
    }

    #[test]
    fn a_stream_that_cannot_be_split_into_frames_is_an_error() {
        for input in [
            &b"Content-Length: -1\r\n\r\n"[..],
            b"Content-Length: 0x10\r\n\r\n",
            b"Content-Type: x\r\n\r\n{}",
            b"Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}",
        ] {
            let (frames, error) = frames(input, 10);
            assert!(frames.is_empty());
            assert_eq!(error, Some(io::ErrorKind::InvalidData), "{input:?}");
        }
        let long = format!("X-{}: 1\r\n", "a".repeat(MAX_HEADER_LINE));
        assert_eq!(frames(long.as_bytes(), 10).1, Some(io::ErrorKind::InvalidData));
        let many = "X: 1\r\n".repeat(MAX_HEADER_LINES + 1);
        assert_eq!(frames(many.as_bytes(), 10).1, Some(io::ErrorKind::InvalidData));
    }

    fn refused(body: &[u8]) -> (Option<RequestId>, i32) {
        match decode(body) {
            Decoded::Refused { id, code, .. } => (id, code as i32),
            Decoded::Message(message) => panic!("{message:?}"),
        }
    }

    #[test]
    fn bodies_that_are_not_messages_are_refused_with_the_id_when_a_request_has_one() {
        // Each of these used to end the server.
        let parse_error = ErrorCode::ParseError as i32;
        let invalid_request = ErrorCode::InvalidRequest as i32;
        assert_eq!(refused(b"{bad}"), (None, parse_error));
        assert_eq!(refused(b"[]"), (None, invalid_request));
        assert_eq!(refused(br#"{"foo":1}"#), (None, invalid_request));
        let hover = |params: &[u8]| {
            let mut body = br#"{"jsonrpc":"2.0","id":7,"method":"textDocument/hover","params":"#.to_vec();
            body.extend_from_slice(params);
            body.push(b'}');
            body
        };
        assert_eq!(refused(&hover(b"\"\xff\"")), (Some(7.into()), parse_error));
        assert_eq!(refused(&hover(b"\"a\0b\"")), (Some(7.into()), parse_error));
        let deep = format!("{}{}", "[".repeat(5000), "]".repeat(5000));
        assert_eq!(refused(&hover(deep.as_bytes())), (Some(7.into()), parse_error));
        assert_eq!(
            refused(br#"{"jsonrpc":"2.0","id":"a","method":5}"#),
            (Some("a".to_string().into()), invalid_request)
        );
        // A notification or a response gets no answer.
        assert_eq!(refused(b"{\"method\":\"x\",\"params\":\"\xff\"}"), (None, parse_error));
        assert_eq!(refused(b"{\"id\":3,\"result\":\"\xff\"}"), (None, parse_error));
    }

    #[test]
    fn nesting_far_past_the_limit_is_refused_not_a_stack_overflow() {
        let deep = format!("{{\"id\":1,\"method\":\"m\",\"params\":{}", "[".repeat(1_000_000));
        assert_eq!(refused(deep.as_bytes()), (Some(1.into()), ErrorCode::ParseError as i32));
    }

    proptest! {
        #[test]
        fn framed_bodies_come_back_whole_and_oversized_ones_are_passed_over(
            bodies in prop::collection::vec(prop::collection::vec(any::<u8>(), 0..64), 0..8),
            max in 0usize..64,
        ) {
            let input: Vec<u8> = bodies.iter().flat_map(|body| framed(body)).collect();
            let expected: Vec<Frame> = bodies
                .iter()
                .map(|body| {
                    if body.len() <= max {
                        Frame::Body(body.clone())
                    } else {
                        Frame::TooLarge(body.len() as u64)
                    }
                })
                .collect();
            prop_assert_eq!(frames(&input, max), (expected, None));
        }

        #[test]
        fn any_bytes_give_frames_within_the_limit_or_an_error(
            input in prop::collection::vec(
                prop_oneof![
                    Just(b"Content-Length: ".to_vec()),
                    Just(b"\r\n".to_vec()),
                    Just(b"\n".to_vec()),
                    prop::collection::vec(any::<u8>(), 0..8),
                    (0u64..40).prop_map(|n| n.to_string().into_bytes()),
                ],
                0..24,
            ).prop_map(|parts| parts.concat()),
            max in 0usize..32,
        ) {
            let (frames, _) = frames(&input, max);
            for frame in frames {
                if let Frame::Body(body) = frame {
                    prop_assert!(body.len() <= max);
                    // Any body decodes to a message or a refusal, without panicking.
                    let _ = decode(&body);
                }
            }
        }

        #[test]
        fn a_request_broken_after_its_method_is_answered_under_its_id(
            id in any::<i32>(),
            junk in prop::collection::vec(any::<u8>(), 0..16),
        ) {
            let mut body = format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"m","params":"#).into_bytes();
            body.extend_from_slice(&junk);
            // Junk that completes the message (`1}`) makes it one.
            if let Decoded::Refused { id: answered, .. } = decode(&body) {
                prop_assert_eq!(answered, Some(id.into()));
            }
        }
    }
}
