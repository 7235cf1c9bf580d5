//! How a tool's schema changed, for its callers. An `inputSchema` that
//! accepts fewer argument objects than before breaks callers (a new required
//! property, a narrowed type, a removed enum value, a stricter bound); one that
//! accepts more is compatible. For `outputSchema` the direction flips: results
//! that may hold more than before break the code reading them. A change this
//! module cannot prove harmless (a new pattern, a `oneOf` rewrite) counts as
//! breaking, and says so.

use std::cmp::Ordering;

use foldhash::{HashMap, HashMapExt, HashSet};
use serde::Serialize;
use serde_json::{Map, Value};

use crate::json::diff::value::{self, compare_numbers};
use crate::json::parse::push_token;

/// A SemVer level (§10.2): what a change demands of the plugin version.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// Backward-compatible fix: documentation, titles.
    Patch,
    /// Backward-compatible feature: something new that old callers ignore.
    Minor,
    /// Breaking: something an existing caller relies on is gone or stricter.
    Major,
}

impl Level {
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Patch => "patch",
            Level::Minor => "minor",
            Level::Major => "major",
        }
    }
}

/// One classified change inside a schema.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SchemaChange {
    /// Where, as a property path (`filter.since`, `items[]`); empty for the top.
    pub at: String,
    /// RFC 6901 pointer inside the schema where the change shows: in the new
    /// schema, or where a removed part used to be.
    pub pointer: String,
    pub level: Level,
    pub description: String,
}

/// What a keyword change does to the set of values the schema accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Effect {
    /// Fewer values accepted.
    Narrows,
    /// More values accepted.
    Widens,
    /// Values accepted before are rejected and new ones accepted: both at once.
    Replaces,
    /// A new optional member: old data stays valid, new data may use it.
    Adds,
    /// Documentation only (`title`, `description`, `default`, `examples`).
    Annotation,
    /// Not classified; treated as breaking.
    Unclassified,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Direction {
    /// Values flow from the caller to the server: narrowing breaks callers.
    Input,
    /// Values flow from the server to the caller: widening breaks callers.
    Output,
}

fn level(effect: Effect, direction: Direction) -> Level {
    match (effect, direction) {
        (Effect::Annotation, _) => Level::Patch,
        (Effect::Adds, _) => Level::Minor,
        (Effect::Narrows, Direction::Input) | (Effect::Widens, Direction::Output) => Level::Major,
        (Effect::Widens, Direction::Input) | (Effect::Narrows, Direction::Output) => Level::Minor,
        (Effect::Replaces | Effect::Unclassified, _) => Level::Major,
    }
}

/// Classified changes between two `inputSchema`s.
pub fn diff_input_schema(old: &Value, new: &Value) -> Vec<SchemaChange> {
    let mut out = Vec::new();
    Differ {
        direction: Direction::Input,
        out: &mut out,
        pointer: String::new(),
    }
    .compare(old, new, "");
    out
}

/// Classified changes between two `outputSchema`s.
pub fn diff_output_schema(old: &Value, new: &Value) -> Vec<SchemaChange> {
    let mut out = Vec::new();
    Differ {
        direction: Direction::Output,
        out: &mut out,
        pointer: String::new(),
    }
    .compare(old, new, "");
    out
}

const ANNOTATIONS: &[&str] = &[
    "title",
    "description",
    "default",
    "examples",
    "$comment",
    "deprecated",
    "readOnly",
    "writeOnly",
    "$id",
];
/// The dialect of a tool schema without `$schema` (MCP 2025-11-25, `Tool.inputSchema`).
const DEFAULT_DIALECT: &str = "https://json-schema.org/draft/2020-12/schema";
const LOWER_BOUNDS: &[&str] = &["minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties"];
const UPPER_BOUNDS: &[&str] = &["maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties"];
/// Keywords compared structurally below, so not compared as a whole.
const HANDLED: &[&str] = &[
    "type",
    "properties",
    "required",
    "enum",
    "const",
    "pattern",
    "format",
    "additionalProperties",
    "items",
    "uniqueItems",
];

struct Differ<'o> {
    direction: Direction,
    out: &'o mut Vec<SchemaChange>,
    /// The pointer of the subschema being compared.
    pointer: String,
}

impl Differ<'_> {
    fn push(&mut self, effect: Effect, at: &str, description: String) {
        self.push_at_keyword(effect, at, "", description);
    }

    /// A change shown by one `keyword` of the current subschema.
    fn push_at_keyword(&mut self, effect: Effect, at: &str, keyword: &str, description: String) {
        let mut pointer = self.pointer.clone();
        if !keyword.is_empty() {
            push_token(&mut pointer, keyword);
        }
        self.out.push(SchemaChange {
            at: at.to_string(),
            pointer,
            level: level(effect, self.direction),
            description,
        });
    }

    /// Compares the subschemas under `tokens` of the current one.
    fn compare_below(&mut self, tokens: &[&str], old: &Value, new: &Value, at: &str) {
        let len = self.pointer.len();
        for token in tokens {
            push_token(&mut self.pointer, token);
        }
        self.compare(old, new, at);
        self.pointer.truncate(len);
    }

    fn compare(&mut self, old: &Value, new: &Value, at: &str) {
        if same(old, new) {
            return;
        }
        let (Some(old), Some(new)) = (old.as_object(), new.as_object()) else {
            let effect = match (old, new) {
                (_, Value::Bool(false)) | (Value::Bool(true), _) => Effect::Narrows,
                (Value::Bool(false), _) | (_, Value::Bool(true)) => Effect::Widens,
                _ => Effect::Unclassified,
            };
            self.push(effect, at, format!("{} changed from {old} to {new}", place(at)));
            return;
        };
        self.compare_type(old, new, at);
        self.compare_required(old, new, at);
        self.compare_properties(old, new, at);
        self.compare_enum(old, new, at);
        self.compare_additional_properties(old, new, at);
        self.compare_value_keyword(old, new, at, "const");
        self.compare_value_keyword(old, new, at, "pattern");
        self.compare_value_keyword(old, new, at, "format");
        if let (Some(old_items), Some(new_items)) = (old.get("items"), new.get("items")) {
            self.compare_below(&["items"], old_items, new_items, &join(at, "[]"));
        } else if old.get("items") != new.get("items") {
            let effect = if new.contains_key("items") {
                Effect::Narrows
            } else {
                Effect::Widens
            };
            self.push(
                effect,
                at,
                format!("`items` {} at {}", added_or_removed(new, "items"), place(at)),
            );
        }
        let old_unique = old.get("uniqueItems") == Some(&Value::Bool(true));
        let new_unique = new.get("uniqueItems") == Some(&Value::Bool(true));
        if old_unique != new_unique {
            let effect = if new_unique { Effect::Narrows } else { Effect::Widens };
            self.push(
                effect,
                at,
                format!("`uniqueItems` {} at {}", on_off(new_unique), place(at)),
            );
        }
        self.compare_bounds(old, new, at);
        self.compare_rest(old, new, at);
    }

    fn compare_type(&mut self, old: &Map<String, Value>, new: &Map<String, Value>, at: &str) {
        let (old_types, new_types) = (types(old.get("type")), types(new.get("type")));
        if old_types == new_types {
            return;
        }
        // Sets, as a `type` array of thousands of names must not cost millions of comparisons.
        let (old_set, new_set) = (type_set(&old_types), type_set(&new_types));
        let accepts = |set: &Option<HashSet<&str>>, t: &str| {
            set.as_ref()
                .is_none_or(|set| set.contains(t) || (t == "integer" && set.contains("number")))
        };
        let old_in_new = old_types
            .as_ref()
            .is_none_or(|o| o.iter().all(|t| accepts(&new_set, t)))
            && (old_types.is_some() || new_types.is_none());
        let new_in_old = new_types
            .as_ref()
            .is_none_or(|n| n.iter().all(|t| accepts(&old_set, t)))
            && (new_types.is_some() || old_types.is_none());
        let effect = match (old_in_new, new_in_old) {
            (true, _) => Effect::Widens,
            (false, true) => Effect::Narrows,
            (false, false) => Effect::Replaces,
        };
        let verb = match effect {
            Effect::Widens => "widened",
            Effect::Narrows => "narrowed",
            _ => "changed",
        };
        self.push_at_keyword(
            effect,
            at,
            "type",
            format!(
                "type of {} {verb} from {} to {}",
                place(at),
                show_types(&old_types),
                show_types(&new_types)
            ),
        );
    }

    fn compare_required(&mut self, old: &Map<String, Value>, new: &Map<String, Value>, at: &str) {
        let (old_required, new_required) = (strings(old.get("required")), strings(new.get("required")));
        let (old_set, new_set): (HashSet<&str>, HashSet<&str>) = (
            old_required.iter().copied().collect(),
            new_required.iter().copied().collect(),
        );
        for name in new_required.iter().filter(|n| !old_set.contains(*n)) {
            let path = join(at, name);
            self.push_at_keyword(Effect::Narrows, &path, "required", format!("`{path}` is now required"));
        }
        for name in old_required.iter().filter(|n| !new_set.contains(*n)) {
            let path = join(at, name);
            self.push_at_keyword(
                Effect::Widens,
                &path,
                "required",
                format!("`{path}` is no longer required"),
            );
        }
    }

    fn compare_properties(&mut self, old: &Map<String, Value>, new: &Map<String, Value>, at: &str) {
        let empty = Map::new();
        let old_props = old.get("properties").and_then(Value::as_object).unwrap_or(&empty);
        let new_props = new.get("properties").and_then(Value::as_object).unwrap_or(&empty);
        let new_required: HashSet<&str> = strings(new.get("required")).into_iter().collect();
        for (name, old_schema) in old_props {
            let path = join(at, name);
            match new_props.get(name) {
                Some(new_schema) => self.compare_below(&["properties", name], old_schema, new_schema, &path),
                None => self.push_at_keyword(
                    Effect::Replaces,
                    &path,
                    "properties",
                    format!("property `{path}` removed"),
                ),
            }
        }
        for name in new_props.keys().filter(|n| !old_props.contains_key(*n)) {
            let path = join(at, name);
            // A new required property is reported by `required`; a new optional one is an addition.
            if !new_required.contains(name.as_str()) {
                let len = self.pointer.len();
                push_token(&mut self.pointer, "properties");
                self.push_at_keyword(Effect::Adds, &path, name, format!("optional property `{path}` added"));
                self.pointer.truncate(len);
            }
        }
    }

    fn compare_enum(&mut self, old: &Map<String, Value>, new: &Map<String, Value>, at: &str) {
        let (old_enum, new_enum) = (old.get("enum"), new.get("enum"));
        let (effect, descriptions) = match (old_enum.and_then(Value::as_array), new_enum.and_then(Value::as_array)) {
            (Some(old_values), Some(new_values)) => {
                let (old_set, new_set) = (ValueSet::of(old_values), ValueSet::of(new_values));
                for value in old_values.iter().filter(|v| !new_set.holds(v)) {
                    let what = format!("enum value {value} removed from {}", place(at));
                    self.push_at_keyword(Effect::Narrows, at, "enum", what);
                }
                for value in new_values.iter().filter(|v| !old_set.holds(v)) {
                    let what = format!("enum value {value} added to {}", place(at));
                    self.push_at_keyword(Effect::Widens, at, "enum", what);
                }
                return;
            }
            (None, Some(_)) => (Effect::Narrows, format!("{} is now limited to an enum", place(at))),
            (Some(_), None) => (Effect::Widens, format!("{} is no longer limited to an enum", place(at))),
            (None, None) => return,
        };
        self.push_at_keyword(effect, at, "enum", descriptions);
    }

    fn compare_additional_properties(&mut self, old: &Map<String, Value>, new: &Map<String, Value>, at: &str) {
        let open = Value::Bool(true);
        let old_extra = old.get("additionalProperties").unwrap_or(&open);
        let new_extra = new.get("additionalProperties").unwrap_or(&open);
        if same(old_extra, new_extra) {
            return;
        }
        match (old_extra, new_extra) {
            (_, Value::Bool(false)) => self.push_at_keyword(
                Effect::Narrows,
                at,
                "additionalProperties",
                format!("`additionalProperties: false` added to {}", place(at)),
            ),
            (Value::Bool(false), _) => self.push_at_keyword(
                Effect::Widens,
                at,
                "additionalProperties",
                format!("{} now accepts additional properties", place(at)),
            ),
            (old_extra, new_extra) => {
                self.compare_below(&["additionalProperties"], old_extra, new_extra, &join(at, "*"))
            }
        }
    }

    /// `const`, `pattern`, `format`: adding one narrows, removing widens, changing replaces.
    fn compare_value_keyword(&mut self, old: &Map<String, Value>, new: &Map<String, Value>, at: &str, keyword: &str) {
        let (effect, what) = match (old.get(keyword), new.get(keyword)) {
            (Some(a), Some(b)) if same(a, b) => return,
            (None, None) => return,
            (None, Some(b)) => (Effect::Narrows, format!("`{keyword}` {b} added to {}", place(at))),
            (Some(a), None) => (Effect::Widens, format!("`{keyword}` {a} removed from {}", place(at))),
            (Some(a), Some(b)) => (
                Effect::Replaces,
                format!(
                    "`{keyword}` of {} changed from {a} to {b} (not provably a relaxation)",
                    place(at)
                ),
            ),
        };
        self.push_at_keyword(effect, at, keyword, what);
    }

    fn compare_bounds(&mut self, old: &Map<String, Value>, new: &Map<String, Value>, at: &str) {
        for (keywords, lower) in [(LOWER_BOUNDS, true), (UPPER_BOUNDS, false)] {
            for keyword in keywords {
                let (a, b) = (old.get(*keyword), new.get(*keyword));
                let (effect, what) = match (number_text(a), number_text(b)) {
                    (None, None) if a == b => continue,
                    (None, Some(b)) if a.is_none() => (Effect::Narrows, format!("`{keyword}` {b} added")),
                    (Some(a), None) if b.is_none() => (Effect::Widens, format!("`{keyword}` {a} removed")),
                    // Exactly, from the numbers' text: f64 rounds 9007199254740993
                    // to 9007199254740992 and would call that tightening a relaxation.
                    (Some(a), Some(b)) if compare_numbers(a, b) == Ordering::Equal => continue,
                    (Some(a), Some(b)) => {
                        let stricter = compare_numbers(b, a) == if lower { Ordering::Greater } else { Ordering::Less };
                        let effect = if stricter { Effect::Narrows } else { Effect::Widens };
                        let word = if stricter { "tightened" } else { "relaxed" };
                        (effect, format!("`{keyword}` {word} from {a} to {b}"))
                    }
                    _ => (Effect::Unclassified, format!("`{keyword}` changed")),
                };
                self.push_at_keyword(effect, at, keyword, format!("{what} on {}", place(at)));
            }
        }
    }

    /// `$schema` picks the dialect that reads the rest (MCP: 2020-12 when
    /// absent), so `dependencies` or `$ref` beside other keywords can change
    /// meaning with it. Spelling the same dialect differently is a patch; any
    /// other change is not provably harmless.
    fn compare_dialect(&mut self, old: &Map<String, Value>, new: &Map<String, Value>, at: &str) {
        let dialect = |schema: &Map<String, Value>| match schema.get("$schema") {
            None => Some(DEFAULT_DIALECT.to_string()),
            Some(Value::String(uri)) => Some(uri.trim_end_matches('#').replacen("http://", "https://", 1)),
            Some(_) => None,
        };
        let (old_dialect, new_dialect) = (dialect(old), dialect(new));
        if old_dialect.is_some() && old_dialect == new_dialect {
            let what = format!("`$schema` of {} changed (the same dialect)", place(at));
            self.push_at_keyword(Effect::Annotation, at, "$schema", what);
        } else {
            let what = format!(
                "`$schema` of {} changed: the dialect that reads it changed (not classified; treated as breaking)",
                place(at)
            );
            self.push_at_keyword(Effect::Unclassified, at, "$schema", what);
        }
    }

    /// Every other keyword: annotations are patches, the rest unclassified.
    fn compare_rest(&mut self, old: &Map<String, Value>, new: &Map<String, Value>, at: &str) {
        let mut keys: Vec<&String> = old.keys().chain(new.keys().filter(|k| !old.contains_key(*k))).collect();
        keys.retain(|k| {
            !HANDLED.contains(&k.as_str())
                && !LOWER_BOUNDS.contains(&k.as_str())
                && !UPPER_BOUNDS.contains(&k.as_str())
                && !old.get(*k).zip(new.get(*k)).is_some_and(|(a, b)| same(a, b))
        });
        for key in keys {
            if key == "$schema" {
                self.compare_dialect(old, new, at);
            } else if ANNOTATIONS.contains(&key.as_str()) {
                self.push_at_keyword(Effect::Annotation, at, key, format!("`{key}` of {} changed", place(at)));
            } else {
                let what = format!("`{key}` of {} changed (not classified; treated as breaking)", place(at));
                self.push_at_keyword(Effect::Unclassified, at, key, what);
            }
        }
    }
}

/// The same JSON value, numbers by exact value (`1` is `1.0`, `1000` is `1e3`).
fn same(a: &Value, b: &Value) -> bool {
    value::equal(a, b)
}

fn number_text(value: Option<&Value>) -> Option<&str> {
    match value {
        Some(Value::Number(n)) => Some(n.as_str()),
        _ => None,
    }
}

/// Values to look up by [`same`]: by their hash, which equal values share, so
/// a 10,000-value `enum` is not compared value by value against another.
struct ValueSet<'v>(HashMap<u64, Vec<&'v Value>>);

impl<'v> ValueSet<'v> {
    fn of(values: &'v [Value]) -> Self {
        let mut set: HashMap<u64, Vec<&Value>> = HashMap::with_capacity(values.len());
        for value in values {
            set.entry(value::hash(value)).or_default().push(value);
        }
        ValueSet(set)
    }

    fn holds(&self, value: &Value) -> bool {
        self.0
            .get(&value::hash(value))
            .is_some_and(|candidates| candidates.iter().any(|v| same(v, value)))
    }
}

fn join(at: &str, name: &str) -> String {
    match (at.is_empty(), name) {
        (true, _) => name.to_string(),
        (false, "[]") => format!("{at}[]"),
        (false, _) => format!("{at}.{name}"),
    }
}

fn place(at: &str) -> String {
    if at.is_empty() {
        "the arguments object".to_string()
    } else {
        format!("`{at}`")
    }
}

fn added_or_removed(new: &Map<String, Value>, key: &str) -> &'static str {
    if new.contains_key(key) { "added" } else { "removed" }
}

fn on_off(on: bool) -> &'static str {
    if on { "added" } else { "removed" }
}

/// The declared types, sorted; `None` when `type` is absent (any type).
fn types(value: Option<&Value>) -> Option<Vec<String>> {
    let mut types: Vec<String> = match value? {
        Value::String(t) => vec![t.clone()],
        Value::Array(items) => items.iter().filter_map(Value::as_str).map(str::to_string).collect(),
        _ => return None,
    };
    types.sort();
    Some(types)
}

fn type_set(types: &Option<Vec<String>>) -> Option<HashSet<&str>> {
    types.as_ref().map(|types| types.iter().map(String::as_str).collect())
}

fn show_types(types: &Option<Vec<String>>) -> String {
    match types {
        None => "any".to_string(),
        Some(types) => types.join("|"),
    }
}

fn strings(value: Option<&Value>) -> Vec<&str> {
    value
        .and_then(Value::as_array)
        .map(|items| items.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn levels(old: Value, new: Value) -> Vec<Level> {
        diff_input_schema(&old, &new).iter().map(|c| c.level).collect()
    }

    fn base() -> Value {
        json!({"type": "object", "required": ["week"], "properties": {
            "week": {"type": "string", "pattern": "^[0-9]{4}-W[0-9]{2}$"},
            "status": {"type": "string", "enum": ["open", "paid", "overdue"]},
            "limit": {"type": "integer", "minimum": 1, "maximum": 100}}})
    }

    fn with(pointer: &str, value: Value) -> Value {
        let mut schema = base();
        *schema.pointer_mut(pointer).unwrap() = value;
        schema
    }

    #[test]
    fn breaking_changes_are_major() {
        assert_eq!(
            levels(base(), with("/required", json!(["week", "status"]))),
            [Level::Major]
        );
        let mut removed = base();
        removed["properties"].as_object_mut().unwrap().remove("status");
        assert_eq!(levels(base(), removed), [Level::Major]);
        assert_eq!(
            levels(base(), with("/properties/limit/type", json!("string"))),
            [Level::Major]
        );
        assert_eq!(
            levels(base(), with("/properties/status/enum", json!(["open", "paid"]))),
            [Level::Major]
        );
        assert_eq!(
            levels(base(), with("/properties/week/pattern", json!("^2026-W[0-9]{2}$"))),
            [Level::Major]
        );
        assert_eq!(
            levels(base(), with("/properties/limit/maximum", json!(50))),
            [Level::Major]
        );
        let mut closed = base();
        closed["additionalProperties"] = json!(false);
        assert_eq!(levels(base(), closed), [Level::Major]);
    }

    #[test]
    fn compatible_changes_are_minor_and_docs_are_patches() {
        let mut optional = base();
        optional["properties"]["region"] = json!({"type": "string"});
        assert_eq!(levels(base(), optional), [Level::Minor]);
        assert_eq!(
            levels(
                base(),
                with("/properties/status/enum", json!(["open", "paid", "overdue", "void"]))
            ),
            [Level::Minor]
        );
        assert_eq!(
            levels(base(), with("/properties/limit/maximum", json!(500))),
            [Level::Minor]
        );
        assert_eq!(
            levels(base(), with("/properties/limit/type", json!("number"))),
            [Level::Minor]
        );
        assert_eq!(levels(base(), with("/required", json!([]))), [Level::Minor]);
        let mut documented = base();
        documented["properties"]["week"]["description"] = json!("ISO week");
        assert_eq!(levels(base(), documented), [Level::Patch]);
        assert!(levels(base(), base()).is_empty());
    }

    #[test]
    fn output_schemas_break_when_they_widen() {
        let old = json!({"type": "object", "properties": {"total": {"type": "integer"}}});
        let new = json!({"type": "object", "properties": {"total": {"type": ["integer", "null"]}}});
        assert_eq!(diff_output_schema(&old, &new)[0].level, Level::Major);
        assert_eq!(diff_output_schema(&new, &old)[0].level, Level::Minor);
    }

    #[test]
    fn numbers_compare_by_exact_value() {
        let parse = |text: &str| -> Value { serde_json::from_str(text).unwrap() };
        let limit = |bound: &str, text: &str| {
            let mut schema = base();
            schema["properties"]["limit"][bound] = parse(text);
            schema
        };
        // Beyond f64's integers and range: each pair would round together.
        let tight = |bound: &str, old: &str, new: &str| {
            assert_eq!(
                levels(limit(bound, old), limit(bound, new)),
                [Level::Major],
                "{bound} {old} → {new}"
            );
            assert_eq!(
                levels(limit(bound, new), limit(bound, old)),
                [Level::Minor],
                "{bound} {new} → {old}"
            );
        };
        tight("minimum", "9007199254740992", "9007199254740993");
        tight("minimum", "0", "1e-400");
        tight("maximum", "10", "9.9999999999999999999");
        tight("maxLength", "18446744073709551615", "18446744073709551614");
        // The same value written another way is no change at all.
        assert!(levels(limit("maximum", "100"), limit("maximum", "1e2")).is_empty());
        let status = |values: &str| with("/properties/status", parse(&format!(r#"{{"enum": {values}}}"#)));
        assert!(levels(status("[1000, 1]"), status("[1e3, 1.0]")).is_empty());
        let constant = |value: &str| with("/properties/status", parse(&format!(r#"{{"const": {value}}}"#)));
        assert!(levels(constant("1"), constant("1.0")).is_empty());
    }

    #[test]
    fn a_new_dialect_is_breaking_and_a_new_spelling_is_not() {
        let dialect = |uri: Option<&str>| {
            let mut schema = base();
            if let Some(uri) = uri {
                schema["$schema"] = json!(uri);
            }
            schema
        };
        let draft7 = Some("http://json-schema.org/draft-07/schema#");
        assert_eq!(levels(dialect(draft7), dialect(None)), [Level::Major]);
        let spelled = Some("https://json-schema.org/draft/2020-12/schema#");
        assert_eq!(levels(dialect(None), dialect(spelled)), [Level::Patch]);
    }

    /// Thousands of required names and enum values are looked up, not scanned:
    /// the verdicts are those of comparing each with each, numbers by exact value.
    #[test]
    fn long_required_lists_and_enums_keep_their_verdicts() {
        let names = |range: std::ops::Range<usize>| json!(range.map(|i| format!("p{i}")).collect::<Vec<_>>());
        let old = json!({"type": "object", "required": names(0..40_000)});
        let new = json!({"type": "object", "required": names(20_000..60_000)});
        let changes = diff_input_schema(&old, &new);
        let count = |level| changes.iter().filter(|c| c.level == level).count();
        assert_eq!((count(Level::Major), count(Level::Minor)), (20_000, 20_000));
        assert_eq!(changes[0].description, "`p40000` is now required");
        assert_eq!(changes[20_000].description, "`p0` is no longer required");

        // The first half respelled (`7` as `7.0e0`), the second half replaced.
        let old = json!({"enum": (0..10_000).map(|i| json!(i)).collect::<Vec<_>>()});
        let respelled: Vec<Value> = (0..5_000)
            .map(|i| serde_json::from_str(&format!("{i}.0e0")).unwrap())
            .chain((10_000..15_000).map(|i| json!(i)))
            .collect();
        let changes = diff_input_schema(&old, &json!({"enum": respelled}));
        let count = |level| changes.iter().filter(|c| c.level == level).count();
        assert_eq!((count(Level::Major), count(Level::Minor)), (5_000, 5_000));
        assert!(
            changes[0].description.starts_with("enum value 5000 removed"),
            "{}",
            changes[0].description
        );
        assert!(changes[5_000].description.starts_with("enum value 10000 added"));
    }

    #[test]
    fn unknown_keyword_changes_count_as_breaking() {
        let old = json!({"type": "object", "oneOf": [{"required": ["a"]}, {"required": ["b"]}]});
        let new = json!({"type": "object", "oneOf": [{"required": ["a"]}]});
        let changes = diff_input_schema(&old, &new);
        assert_eq!(changes[0].level, Level::Major);
        assert!(changes[0].description.contains("not classified"));
    }
}
