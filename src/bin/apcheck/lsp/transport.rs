//! The stdio transport: lsp-server's `Connection` (a pair of channels), fed
//! by a reader thread that frames and decodes with [`framing`] instead of
//! lsp-server's own reader, so that no message, however large or
//! malformed, ends the session or is held whole in memory past the limit.
//! A body that is not a message is answered where JSON-RPC allows (a
//! request whose `id` could be read gets ParseError or InvalidRequest), and
//! otherwise skipped; either way the reason is written to stderr, which
//! editors show in the server's log.

use std::io::{self, BufRead, Write};
use std::thread::{self, JoinHandle};

use crossbeam_channel::{Receiver, Sender, bounded};
use lsp_server::{Connection, Message, Response};

use super::framing::{self, Decoded, Frame, MAX_MESSAGE_BYTES};

/// The reader and writer threads of a [`stdio`] connection.
pub struct IoThreads {
    reader: JoinHandle<io::Result<()>>,
    writer: JoinHandle<io::Result<()>>,
}

impl IoThreads {
    /// Waits for both threads, once the connection is dropped; the first error of either.
    pub fn join(self) -> io::Result<()> {
        let reader = self
            .reader
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        let writer = self
            .writer
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        reader.and(writer)
    }
}

/// A connection over stdin and stdout.
pub fn stdio() -> (Connection, IoThreads) {
    // Unbuffered both ways, as lsp-server's are: the reader waits until the
    // server takes each message, so a client that floods is held back by its pipe.
    let (writer_sender, writer_receiver) = bounded::<Message>(0);
    let (reader_sender, reader_receiver) = bounded::<Message>(0);
    let writer = thread::Builder::new()
        .name("lsp-writer".into())
        .spawn(move || write_all(&writer_receiver, &mut io::stdout().lock()))
        .expect("a thread starts");
    let answers = writer_sender.clone();
    let reader = thread::Builder::new()
        .name("lsp-reader".into())
        .spawn(move || read_all(&mut io::stdin().lock(), &reader_sender, &answers))
        .expect("a thread starts");
    let connection = Connection {
        sender: writer_sender,
        receiver: reader_receiver,
    };
    (connection, IoThreads { reader, writer })
}

fn write_all(messages: &Receiver<Message>, output: &mut impl Write) -> io::Result<()> {
    for message in messages {
        message.write(output)?;
    }
    Ok(())
}

/// Hands each message of `input` to the server until the stream ends, an
/// `exit` notification is read, or the stream can no longer be split into
/// messages (an error). Refusals are sent to the client through `answers`.
fn read_all(input: &mut impl BufRead, server: &Sender<Message>, answers: &Sender<Message>) -> io::Result<()> {
    loop {
        let body = match framing::read_frame(input, MAX_MESSAGE_BYTES) {
            Ok(None) => return Ok(()),
            Ok(Some(Frame::Body(body))) => body,
            Ok(Some(Frame::TooLarge(length))) => {
                say(&format!(
                    "skipped a message of {length} bytes: messages are limited to {MAX_MESSAGE_BYTES} bytes"
                ));
                framing::skip_body(input, length)?;
                continue;
            }
            Err(error) => {
                return Err(io::Error::new(
                    error.kind(),
                    format!("the client's messages can no longer be read: {error}"),
                ));
            }
        };
        match framing::decode(&body) {
            Decoded::Message(message) => {
                let is_exit = matches!(&message, Message::Notification(notification) if notification.method == "exit");
                if server.send(message).is_err() || is_exit {
                    // The server has stopped, or will at this message: nothing more is read.
                    return Ok(());
                }
            }
            Decoded::Refused { id, code, reason } => {
                say(&match &id {
                    Some(id) => format!("answered request {id} with an error: {reason}"),
                    None => format!("skipped a message: {reason}"),
                });
                if let Some(id) = id {
                    // The writer has stopped only when the session has.
                    let _ = answers.send(Response::new_err(id, code as i32, reason).into());
                }
            }
        }
    }
}

/// A line on stderr (`output::say` escapes what the client sent).
fn say(message: &str) {
    crate::output::say(format!("lsp: {message}"));
}
