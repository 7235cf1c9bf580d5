//! Any bytes as the stream a client writes to `apcheck lsp`: the framing
//! reader and the body decoder (the server's own `lsp/framing.rs`, built
//! here as it is) must neither panic nor hang, no body may pass the limit,
//! and a body too large is passed over without being held.

#![no_main]

// The server's limit itself is not used: a small one reaches the path of a
// body too large with small inputs.
#[allow(dead_code)]
#[path = "../../src/bin/apcheck/lsp/framing.rs"]
mod framing;

use framing::{Decoded, Frame, decode, read_frame, skip_body};
use libfuzzer_sys::fuzz_target;

const MAX: usize = 256;

fuzz_target!(|data: &[u8]| {
    // The whole input as one body: the decoder alone.
    let _ = decode(data);
    let mut input = data;
    while let Ok(Some(frame)) = read_frame(&mut input, MAX) {
        match frame {
            Frame::Body(body) => {
                assert!(body.len() <= MAX, "a body of {} bytes", body.len());
                if let Decoded::Refused { id: Some(_), code, .. } = decode(&body) {
                    // Only these two are earned by the body itself.
                    let code = code as i32;
                    assert!(code == -32700 || code == -32600, "{code}");
                }
            }
            Frame::TooLarge(length) => {
                assert!(length > MAX as u64, "{length}");
                if skip_body(&mut input, length).is_err() {
                    break;
                }
            }
        }
    }
});
