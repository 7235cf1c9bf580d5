//! Equality and hashing of JSON values as the diff sees them: numbers by value
//! (`1` equals `1.0`), strings by code points, objects regardless of member order.

use std::hash::{DefaultHasher, Hash, Hasher};

use serde_json::{Number, Value};

/// Whether two values are the same JSON value.
pub fn equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Null, Value::Null) => true,
        (Value::Bool(x), Value::Bool(y)) => x == y,
        (Value::Number(x), Value::Number(y)) => numbers_equal(x, y),
        (Value::String(x), Value::String(y)) => x == y,
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(p, q)| equal(p, q)),
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(key, p)| y.get(key).is_some_and(|q| equal(p, q)))
        }
        _ => false,
    }
}

/// Integers compare exactly; anything else through `f64` (which is all a JSON
/// number without an exact integer form can be, in serde_json).
pub fn numbers_equal(x: &Number, y: &Number) -> bool {
    if let (Some(p), Some(q)) = (x.as_i64(), y.as_i64()) {
        return p == q;
    }
    if let (Some(p), Some(q)) = (x.as_u64(), y.as_u64()) {
        return p == q;
    }
    match (x.as_f64(), y.as_f64()) {
        (Some(p), Some(q)) => p == q,
        _ => false,
    }
}

/// A hash consistent with [`equal`]: equal values hash alike.
pub fn hash(value: &Value) -> u64 {
    let mut hasher = DefaultHasher::new();
    feed(value, &mut hasher);
    hasher.finish()
}

fn feed(value: &Value, hasher: &mut DefaultHasher) {
    match value {
        Value::Null => 0u8.hash(hasher),
        Value::Bool(b) => (1u8, *b).hash(hasher),
        Value::Number(n) => {
            // Equal numbers have equal f64 images; +0.0 folds -0.0.
            let image = n.as_f64().unwrap_or(f64::NAN) + 0.0;
            (2u8, image.to_bits()).hash(hasher);
        }
        Value::String(s) => (3u8, s).hash(hasher),
        Value::Array(items) => {
            (4u8, items.len()).hash(hasher);
            items.iter().for_each(|item| feed(item, hasher));
        }
        Value::Object(members) => {
            // Order-independent: a commutative sum of per-member hashes.
            let sum = members.iter().fold(0u64, |sum, (key, member)| {
                let mut own = DefaultHasher::new();
                key.hash(&mut own);
                feed(member, &mut own);
                sum.wrapping_add(own.finish())
            });
            (5u8, members.len(), sum).hash(hasher);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn numbers_compare_by_value_and_objects_ignore_order() {
        let pairs = [
            (json!(1), json!(1.0)),
            (json!(-0.0), json!(0)),
            (json!({"a": 1, "b": [1, 2]}), json!({"b": [1.0, 2], "a": 1})),
        ];
        for (a, b) in pairs {
            assert!(equal(&a, &b), "{a} vs {b}");
            assert_eq!(hash(&a), hash(&b), "{a} vs {b}");
        }
        assert!(!equal(&json!([1, 2]), &json!([2, 1])));
        assert!(!equal(&json!("1"), &json!(1)));
        assert!(!equal(&json!(u64::MAX), &json!(-1)));
        assert!(!equal(&json!({"a": null}), &json!({})));
    }
}
