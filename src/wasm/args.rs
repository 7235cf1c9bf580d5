//! Argument checks for the exports. wasm-bindgen's glue copies whatever JS
//! value is given for a `&str` or `&[u8]` parameter as if it were one, and a
//! number, `{}` or a BigInt then traps with "memory access out of bounds",
//! which kills the worker. The exports take `JsValue`s instead and check them
//! here, so a wrong argument is the usual error value.

use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;

/// The string `value`, or why it is not one, naming the parameter.
pub fn string(value: &JsValue, name: &str) -> Result<String, String> {
    value
        .as_string()
        .ok_or_else(|| format!("`{name}` must be a string, not {}", kind(value)))
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
