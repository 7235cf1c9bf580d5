//! The stable JSON of `apcheck check --format json`: `PackageReport`'s serde
//! shape, one object for a single plugin root, an array for several.

use crate::report::PackageReport;

/// Whether the output is one report object or an array of them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// Exactly one plugin root was asked for: its report object.
    Object,
    /// Several roots, or a collection that may hold any number: an array, even of one.
    Array,
}

impl Shape {
    /// The shape of a check of `paths` named paths, where `any_collection`
    /// says whether one was a folder of roots: one named root is an object.
    pub fn of_run(paths: usize, any_collection: bool) -> Shape {
        if paths == 1 && !any_collection {
            Shape::Object
        } else {
            Shape::Array
        }
    }
}

/// The JSON text, without a final newline; every string masked ([`super::escape::json_text`]).
pub fn render(reports: &[PackageReport], shape: Shape) -> String {
    let text = match (shape, reports) {
        (Shape::Object, [report]) => super::escape::json_text(report),
        _ => super::escape::json_text(&reports),
    };
    text.trim_end_matches('\n').to_string()
}

#[cfg(test)]
mod tests {
    use super::super::test_support::*;
    use super::*;

    #[test]
    fn one_named_root_is_an_object_and_anything_else_an_array() {
        assert_eq!(Shape::of_run(1, false), Shape::Object);
        assert_eq!(Shape::of_run(1, true), Shape::Array);
        assert_eq!(Shape::of_run(2, false), Shape::Array);
    }

    #[test]
    fn one_root_is_an_object_and_several_an_array() {
        let one = [report_with_findings(".")];
        let object: serde_json::Value = serde_json::from_str(&render(&one, Shape::Object)).unwrap();
        assert_eq!(object["plugin"]["state"], "loaded");
        assert_eq!(object["diagnostics"][0]["code"], "AP201");
        assert_eq!(object["mcp"]["servers"][0]["type"], "stdio");
        let array: serde_json::Value = serde_json::from_str(&render(&one, Shape::Array)).unwrap();
        assert_eq!(array.as_array().map(Vec::len), Some(1));
        let none: serde_json::Value = serde_json::from_str(&render(&[], Shape::Array)).unwrap();
        assert_eq!(none, serde_json::json!([]));
    }
}
