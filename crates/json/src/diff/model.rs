//! What a diff says: the options it takes and the changes and patch it
//! yields, shared by the walk that computes them and by every view of them.

use serde::Serialize;
use serde_json::Value;

use super::patch::PatchOp;

/// Which member identifies the elements of the arrays at a path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArrayKey {
    /// The arrays' pointer (tokens may be `*`); `None` for every array.
    pub path: Option<Vec<String>>,
    /// The identifying members; several make a compound key (`server+name`).
    pub fields: Vec<String>,
}

impl ArrayKey {
    /// Parses `name`, `/tools=name` or `/tools=server+name`.
    pub fn parse(spec: &str) -> Result<Self, String> {
        let (path, fields) = match spec.rsplit_once('=') {
            Some((path, fields)) => {
                let tokens = crate::parse::pointer_tokens(path)
                    .ok_or_else(|| format!("`{path}` is not a JSON Pointer (it must start with '/')"))?;
                (Some(tokens), fields)
            }
            None => (None, spec),
        };
        let fields: Vec<String> = fields.split('+').map(str::to_string).collect();
        if fields.iter().any(String::is_empty) {
            return Err(format!("`{spec}` names no key member"));
        }
        Ok(ArrayKey { path, fields })
    }
}

#[derive(Debug, Clone, Default)]
pub struct DiffOptions {
    /// Tried in order: the first key unique in both arrays wins.
    pub array_keys: Vec<ArrayKey>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ChangeKind {
    Added,
    Removed,
    Changed,
    Moved,
}

/// One difference, located in both documents.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Change {
    pub kind: ChangeKind,
    /// Pointer in B (in A for a removal).
    pub path: String,
    /// Pointer in A, when it differs from `path` (an element that moved or was
    /// matched by key at another index).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub old_path: Option<String>,
    /// `path` with keyed elements named: `/tools[name=echo]/description`.
    pub label: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub old: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub new: Option<Value>,
    /// 1-based lines in A and B, when located (see [`locate`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub old_line: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub new_line: Option<usize>,
}

/// The differences and the patch that turns A into B.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Diff {
    pub changes: Vec<Change>,
    pub patch: Vec<PatchOp>,
    /// How the arrays that matter were matched (see [`ArrayMatch`]); for the
    /// page, which shows the key used and warns when matching fell back to positions.
    #[serde(skip)]
    pub arrays: Vec<ArrayMatch>,
    /// Where each change's old and new values start in the texts of A and B,
    /// in change order; empty when the walk read other texts (`Value`s written
    /// out again: pruned, or with a duplicate key resolved). Lines are counted
    /// from these ([`crate::diff::locate`]), with no walk of the texts.
    #[serde(skip)]
    pub starts: Vec<[Option<usize>; 2]>,
}

/// How arrays were matched, for every path pattern: the keyed arrays that
/// differ, and the unkeyed arrays of objects that differ (there a key would
/// name the elements).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ArrayMatch {
    /// The arrays' pointer in B, element indices as `*`: `/tools`, `/tools/*/icons`.
    pub path: String,
    pub by: Matching,
    /// The key members, for [`Matching::Key`].
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub key: Vec<String>,
    /// How many arrays at `path` were matched this way.
    pub count: usize,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Matching {
    /// By a key member unique in both arrays, with moves.
    Key,
    /// By a longest common subsequence of whole elements: a changed element is
    /// paired with the one at its position.
    Sequence,
    /// Pairwise by index (arrays too big for the subsequence).
    Position,
}

impl Diff {
    pub fn is_empty(&self) -> bool {
        self.changes.is_empty()
    }

    /// How many changes of each kind: added, removed, changed, moved.
    pub fn counts(&self) -> [usize; 4] {
        let count = |kind| self.changes.iter().filter(|c| c.kind == kind).count();
        [
            count(ChangeKind::Added),
            count(ChangeKind::Removed),
            count(ChangeKind::Changed),
            count(ChangeKind::Moved),
        ]
    }
}
