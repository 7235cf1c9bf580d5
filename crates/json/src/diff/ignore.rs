//! `--ignore POINTER`: leave runtime fields out of the comparison. A pointer
//! token `*` matches any member name or array index (`/mcpServers/*/status`).

use serde_json::Value;

use crate::parse::pointer_tokens;

/// A parsed ignore pattern.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IgnorePattern {
    tokens: Vec<String>,
}

impl IgnorePattern {
    /// Parses a JSON Pointer whose tokens may be `*`; the root (`""`) is refused,
    /// as ignoring everything is never meant.
    pub fn parse(pattern: &str) -> Result<Self, String> {
        match pointer_tokens(pattern) {
            Some(tokens) if !tokens.is_empty() => Ok(IgnorePattern { tokens }),
            Some(_) => Err("an ignore pattern cannot be the whole document".to_string()),
            None => Err(format!("`{pattern}` is not a JSON Pointer (it must start with '/')")),
        }
    }
}

/// Removes everything `patterns` match from `value`.
pub fn prune(value: &mut Value, patterns: &[IgnorePattern]) {
    for pattern in patterns {
        prune_one(value, &pattern.tokens);
    }
}

fn prune_one(value: &mut Value, tokens: &[String]) {
    let Some((first, rest)) = tokens.split_first() else {
        return;
    };
    let wildcard = first == "*";
    match value {
        Value::Object(members) if rest.is_empty() => {
            if wildcard {
                members.clear();
            } else {
                members.shift_remove(first.as_str());
            }
        }
        Value::Object(members) => {
            if wildcard {
                members.values_mut().for_each(|member| prune_one(member, rest));
            } else if let Some(member) = members.get_mut(first.as_str()) {
                prune_one(member, rest);
            }
        }
        Value::Array(items) if rest.is_empty() => {
            if wildcard {
                items.clear();
            } else if let Some(index) = first.parse::<usize>().ok().filter(|&i| i < items.len()) {
                items.remove(index);
            }
        }
        Value::Array(items) => {
            if wildcard {
                items.iter_mut().for_each(|item| prune_one(item, rest));
            } else if let Some(item) = first.parse::<usize>().ok().and_then(|i| items.get_mut(i)) {
                prune_one(item, rest);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn wildcards_match_members_and_elements() {
        let mut value = json!({"mcpServers": [{"id": "a", "status": "up"}, {"id": "b", "status": "down"}],
                               "meta": {"x": 1, "y": 2}});
        let patterns = ["/mcpServers/*/status", "/meta/x"].map(|p| IgnorePattern::parse(p).unwrap());
        prune(&mut value, &patterns);
        assert_eq!(
            value,
            json!({"mcpServers": [{"id": "a"}, {"id": "b"}], "meta": {"y": 2}})
        );
        assert!(IgnorePattern::parse("").is_err());
        assert!(IgnorePattern::parse("status").is_err());
    }
}
