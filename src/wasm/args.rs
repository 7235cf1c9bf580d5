//! Argument checks for the exports. wasm-bindgen's glue copies whatever JS
//! value is given for a `&str` or `&[u8]` parameter as if it were one, and a
//! number, `{}` or a BigInt then traps with "memory access out of bounds",
//! which kills the worker. The exports take `JsValue`s instead and check them
//! here, so a wrong argument is the usual error value.

use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;

/// The string `value`, or why it is not one, naming the parameter.
pub fn string(value: &JsValue, name: &str) -> Result<String, String> {
    let Some(text) = value.dyn_ref::<js_sys::JsString>() else {
        return Err(format!("`{name}` must be a string, not {}", kind(value)));
    };
    let units = text.length() as usize;
    if units < ENCODED_IN_PLACE {
        return Ok(String::from(text));
    }
    Ok(encode_in_place(text, units))
}

/// Strings of at least this many UTF-16 units are encoded by the platform
/// straight into the wasm's memory. wasm-bindgen's own glue (`as_string`)
/// first copies an ASCII string one `charCodeAt` at a time in JS: 40 ms for
/// each 15 MB snapshot the Diff view compares, where `encodeInto` takes 2 ms.
const ENCODED_IN_PLACE: usize = 4096;

#[wasm_bindgen]
extern "C" {
    /// The platform's UTF-8 encoder (in every browser's worker and in Node).
    #[wasm_bindgen(js_name = TextEncoder)]
    type Utf8Encoder;
    #[wasm_bindgen(constructor, js_class = "TextEncoder")]
    fn new() -> Utf8Encoder;
    /// Encodes what fits of `text` into `into` (a view of the wasm's memory).
    #[wasm_bindgen(method, js_class = "TextEncoder", js_name = encodeInto)]
    fn encode_into(this: &Utf8Encoder, text: &js_sys::JsString, into: &mut [u8]) -> EncodeIntoResult;

    /// `encodeInto`'s answer: UTF-16 units read, bytes written.
    type EncodeIntoResult;
    #[wasm_bindgen(method, getter)]
    fn read(this: &EncodeIntoResult) -> u32;
    #[wasm_bindgen(method, getter)]
    fn written(this: &EncodeIntoResult) -> u32;
}

/// `text` (`units` UTF-16 units long) as UTF-8, lone surrogates replaced by
/// U+FFFD as `as_string` does. First into as many bytes as units (all of an
/// ASCII text), then whatever did not fit into three bytes per unit left.
fn encode_in_place(text: &js_sys::JsString, units: usize) -> String {
    let encoder = Utf8Encoder::new();
    let mut bytes = vec![0; units];
    let first = encoder.encode_into(text, &mut bytes);
    let (read, mut used) = (first.read() as usize, first.written() as usize);
    if read < units {
        // `read` never splits a surrogate pair: the rest starts on a whole character.
        let rest = text.substring(read as u32, units as u32);
        bytes.resize(used + 3 * (units - read), 0);
        used += encoder.encode_into(&rest, &mut bytes[used..]).written() as usize;
    }
    bytes.truncate(used);
    // The encoder writes only UTF-8, so this check always passes; a failure
    // would be a platform bug, answered with replacement characters, not a trap.
    String::from_utf8(bytes).unwrap_or_else(|error| String::from_utf8_lossy(error.as_bytes()).into_owned())
}

/// The bytes of the `Uint8Array` `value`, or why it is not one.
pub fn bytes(value: &JsValue, name: &str) -> Result<Vec<u8>, String> {
    value
        .dyn_ref::<js_sys::Uint8Array>()
        .map(js_sys::Uint8Array::to_vec)
        .ok_or_else(|| format!("`{name}` must be a Uint8Array, not {}", kind(value)))
}

/// The strings of the array `value`, or why it is not an array of strings
/// (the npm package's options; the page sends no arrays of strings).
#[cfg(feature = "node")]
pub fn strings(value: &JsValue, name: &str) -> Result<Vec<String>, String> {
    let array = value
        .dyn_ref::<js_sys::Array>()
        .ok_or_else(|| format!("`{name}` must be an array of strings, not {}", kind(value)))?;
    array
        .iter()
        .enumerate()
        .map(|(index, item)| {
            item.as_string()
                .ok_or_else(|| format!("`{name}[{index}]` must be a string, not {}", kind(&item)))
        })
        .collect()
}

/// The numbers of the `Uint32Array` `value`, or why it is not one.
pub fn u32s(value: &JsValue, name: &str) -> Result<Vec<u32>, String> {
    value
        .dyn_ref::<js_sys::Uint32Array>()
        .map(js_sys::Uint32Array::to_vec)
        .ok_or_else(|| format!("`{name}` must be a Uint32Array, not {}", kind(value)))
}

/// `{"ok": false, "error": {"message": ..}}`, the snapshot and rule exports' error value.
pub fn error_reply(message: impl std::fmt::Display) -> String {
    serde_json::json!({ "ok": false, "error": { "message": message.to_string() } }).to_string()
}

/// For the exports that return nothing: a JS `Error` the caller can catch, not a trap.
pub fn thrown<T>(message: String) -> Result<T, JsError> {
    Err(JsError::new(&message))
}

fn kind(value: &JsValue) -> String {
    if value.is_null() {
        "null".to_string()
    } else if value.is_array() {
        "an array".to_string()
    } else {
        match value.js_typeof().as_string().as_deref() {
            Some("object") => "an object".to_string(),
            Some("undefined") => "undefined".to_string(),
            Some(other) => format!("a {other}"),
            None => "another kind of value".to_string(),
        }
    }
}

/// Rebinds each named `JsValue` parameter as its `String` (or, with `bytes`,
/// its `Vec<u8>`, with `strings` its `Vec<String>`, with `u32s` its `Vec<u32>`), returning `$on_error(message)` from the export when it is not.
macro_rules! args {
    ($on_error:expr; $($kind:ident $name:ident),+ $(,)?) => {
        $(
            let $name = match $crate::wasm::args::$kind(&$name, stringify!($name)) {
                Ok(value) => value,
                Err(message) => return $on_error(message),
            };
        )+
    };
}
pub(crate) use args;
