//! The per-document hot paths of apcheck, non-generic so that they are compiled
//! here, at this crate's optimisation level: 3 in the page's wasm, where the
//! rest of apcheck is compiled for size ("z"). Measured on the page's batch of
//! 10,000 small manifests, they take a quarter off the time for about 20 KB of
//! wasm (see the root Cargo.toml).
//!
//! The documents apcheck reads into a `serde_json::Value` (`json::parse`, the
//! diff's `Value`s, the page's snapshot captures, the embedded schemas) come
//! through [`parse_value`]; what still calls serde_json directly is small
//! (option texts) or native only (MCP messages).
//!
//! The page's allocator is here for the same reason: talc is generic over its
//! memory source, so it is compiled where `#[global_allocator]` names its type.

use serde_json::Value;

#[cfg(target_arch = "wasm32")]
mod heap;

// Here, not in apcheck, so that talc is compiled at 3 (see the crate doc):
// 7% off the page's valid documents for 2.7 KiB. Talc rather than std's
// dlmalloc: 6.4 KiB less wasm, for the page's size goal.
#[cfg(target_arch = "wasm32")]
#[global_allocator]
static ALLOCATOR: heap::Heap = heap::heap();

/// Parses `text` as one JSON value, exactly as `serde_json::from_str` does.
#[inline(never)]
pub fn parse_value(text: &str) -> serde_json::Result<Value> {
    serde_json::from_str(text)
}

/// Parses `text` and validates it against `validator`: `Ok(None)` when it is
/// valid (its value is dropped here, also compiled for speed), the value when
/// it is not, so that the caller can say why.
#[inline(never)]
pub fn parse_and_check(validator: &jsonschema::Validator, text: &str) -> serde_json::Result<Option<Value>> {
    let value = parse_value(text)?;
    if validator.is_valid(&value) {
        drop(value);
        return Ok(None);
    }
    Ok(Some(value))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_with_apchecks_serde_json_features() {
        // arbitrary_precision: a number keeps its digits (serde_json writes the
        // exponent's sign), and 1e400 is a number, not an error.
        assert_eq!(parse_value("[2.50, 1e400]").unwrap().to_string(), "[2.50,1e+400]");
        // preserve_order: members stay in document order; of duplicates, the last value counts.
        let object = parse_value(r#"{"b": 1, "a": 2, "b": 3}"#).unwrap();
        assert_eq!(object.to_string(), r#"{"b":3,"a":2}"#);
        for text in ["", "{", "[1,]", "\"\\ud800\""] {
            assert!(parse_value(text).is_err(), "{text:?}");
        }
    }

    #[test]
    fn keeps_only_a_failing_value() {
        let schema = serde_json::json!({"type": "object", "required": ["name"]});
        let validator = jsonschema::validator_for(&schema).unwrap();
        assert_eq!(parse_and_check(&validator, r#"{"name": 1}"#).unwrap(), None);
        let kept = parse_and_check(&validator, r#"{"other": 2.50}"#).unwrap();
        assert_eq!(kept.unwrap()["other"].to_string(), "2.50", "numbers keep their text");
        assert!(parse_and_check(&validator, "{").is_err());
    }
}
