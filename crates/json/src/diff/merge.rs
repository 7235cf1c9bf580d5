//! RFC 7386 JSON Merge Patch from A to B.
//!
//! A merge patch cannot say "set this member to null" (null means delete) and
//! replaces arrays whole, so it is exact only when B has no null members in the
//! parts it rewrites; [`MergePatch::lossy`] lists where it is not.

use serde::Serialize;
use serde_json::{Map, Value};

use super::value;
use crate::parse::push_token;

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MergePatch {
    pub patch: Value,
    /// Pointers in B of null members the patch would delete instead of set.
    pub lossy: Vec<String>,
}

/// The merge patch that turns `a` into `b`.
pub fn merge_patch(a: &Value, b: &Value) -> MergePatch {
    let mut lossy = Vec::new();
    let patch = patch_value(a, b, &mut String::new(), &mut lossy);
    MergePatch { patch, lossy }
}

fn patch_value(a: &Value, b: &Value, pointer: &mut String, lossy: &mut Vec<String>) -> Value {
    let (Value::Object(left), Value::Object(right)) = (a, b) else {
        find_null_members(b, pointer, lossy);
        return b.clone();
    };
    let mut patch = Map::new();
    for key in left.keys().filter(|key| !right.contains_key(*key)) {
        patch.insert(key.clone(), Value::Null);
    }
    for (key, new) in right {
        let len = pointer.len();
        push_token(pointer, key);
        match left.get(key) {
            Some(old) if value::equal(old, new) => {}
            Some(old) if old.is_object() && new.is_object() => {
                let nested = patch_value(old, new, pointer, lossy);
                patch.insert(key.clone(), nested);
            }
            _ => {
                if new.is_null() {
                    lossy.push(pointer.clone());
                } else {
                    find_null_members(new, pointer, lossy);
                }
                patch.insert(key.clone(), new.clone());
            }
        }
        pointer.truncate(len);
    }
    Value::Object(patch)
}

/// Null members of objects written whole (not inside arrays, which are taken as they are).
fn find_null_members(value: &Value, pointer: &mut String, lossy: &mut Vec<String>) {
    let Value::Object(members) = value else { return };
    for (key, member) in members {
        let len = pointer.len();
        push_token(pointer, key);
        if member.is_null() {
            lossy.push(pointer.clone());
        } else {
            find_null_members(member, pointer, lossy);
        }
        pointer.truncate(len);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// RFC 7386 §2 MergePatch, to check generated patches.
    fn apply(target: &Value, patch: &Value) -> Value {
        let Value::Object(members) = patch else {
            return patch.clone();
        };
        let mut result = match target {
            Value::Object(map) => map.clone(),
            _ => Map::new(),
        };
        for (key, value) in members {
            if value.is_null() {
                result.remove(key);
            } else {
                let merged = apply(result.get(key).unwrap_or(&Value::Null), value);
                result.insert(key.clone(), merged);
            }
        }
        Value::Object(result)
    }

    #[test]
    fn patch_turns_a_into_b() {
        let a = json!({"a": "b", "c": {"d": "e", "f": "g"}, "list": [1, 2]});
        let b = json!({"a": "z", "c": {"d": "e"}, "list": [1], "new": {"x": 1}});
        let merge = merge_patch(&a, &b);
        assert_eq!(
            merge.patch,
            json!({"a": "z", "c": {"f": null}, "list": [1], "new": {"x": 1}})
        );
        assert!(merge.lossy.is_empty());
        assert_eq!(apply(&a, &merge.patch), b);
    }

    #[test]
    fn null_members_of_b_are_reported_as_lossy() {
        let merge = merge_patch(&json!({"a": 1}), &json!({"a": null, "b": {"c": null}}));
        assert_eq!(merge.lossy, vec!["/a".to_string(), "/b/c".to_string()]);
    }
}
