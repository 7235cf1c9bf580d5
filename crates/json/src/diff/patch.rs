//! RFC 6902 JSON Patch operations, as the diff emits them: in an order where
//! each path is valid against the document as the previous operations left it,
//! so applying them one after another turns A into B.

use serde::Serialize;
use serde_json::Value;

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum PatchKind {
    Add,
    Remove,
    Replace,
    Move,
}

/// One operation: `{"op", "path", "from"?, "value"?}`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PatchOp {
    pub op: PatchKind,
    pub path: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<Value>,
}

impl PatchOp {
    pub fn add(path: String, value: Value) -> Self {
        PatchOp {
            op: PatchKind::Add,
            path,
            from: None,
            value: Some(value),
        }
    }

    pub fn remove(path: String) -> Self {
        PatchOp {
            op: PatchKind::Remove,
            path,
            from: None,
            value: None,
        }
    }

    pub fn replace(path: String, value: Value) -> Self {
        PatchOp {
            op: PatchKind::Replace,
            path,
            from: None,
            value: Some(value),
        }
    }

    pub fn relocate(from: String, path: String) -> Self {
        PatchOp {
            op: PatchKind::Move,
            path,
            from: Some(from),
            value: None,
        }
    }
}
