//! `version` (§5.4, §10.2): any string loads; SemVer 2.0.0 is a recommendation,
//! so anything else is an info hint only.

use crate::diag::{Diagnostic, Severity};
use crate::rule::{Example, Rule};
use crate::source::json::JsonSource;

pub static VERSION_NOT_SEMVER: Rule = Rule {
    code: "AP212",
    name: "version-not-semver",
    severity: Severity::Info,
    spec: "Agent Plugins §5.4, §10.2",
    summary: "`version` is not Semantic Versioning (a recommendation, never a rejection)",
    fix_hint: Some("Use MAJOR.MINOR.PATCH, e.g. \"1.2.0\""),
    doc: rule_doc! {
        what: "Reports a string `version` that is not a SemVer 2.0.0 version.",
        why: "Plugins SHOULD use SemVer (§10.2) so clients can compare versions for updates; clients MUST NOT \
              reject a manifest for it (§5.4), so this is only a hint.",
        failing: Example::Package(&[(
            "plugin.json",
            "{\"$schema\": \"https://agent-plugins.org/schemas/1.0.0/plugin.schema.json\", \"name\": \"invoice-ops\", \"version\": \"v1.2\"}",
        )]),
        fixed: Example::Package(&[(
            "plugin.json",
            "{\"$schema\": \"https://agent-plugins.org/schemas/1.0.0/plugin.schema.json\", \"name\": \"invoice-ops\", \"version\": \"1.2.0\"}",
        )]),
    },
};

/// §10.2: plugins SHOULD use SemVer; §5.4: clients MUST NOT reject for it.
pub(super) fn check_version(file: &JsonSource, pointer: &str, version: &str, diagnostics: &mut Vec<Diagnostic>) {
    if !is_semver(version) {
        diagnostics.push(file.at_value(
            &VERSION_NOT_SEMVER,
            pointer,
            format!("`version` \"{version}\" is not Semantic Versioning; clients still load it (§5.4)"),
        ));
    }
}

/// SemVer 2.0.0: MAJOR.MINOR.PATCH, optional `-pre.release` and `+build`.
fn is_semver(version: &str) -> bool {
    let (rest, build) = match version.split_once('+') {
        Some((rest, build)) => (rest, Some(build)),
        None => (version, None),
    };
    let (core, pre) = match rest.split_once('-') {
        Some((core, pre)) => (core, Some(pre)),
        None => (rest, None),
    };
    let numeric = |part: &str| {
        !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit()) && (part == "0" || !part.starts_with('0'))
    };
    let identifier = |part: &str| !part.is_empty() && part.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-');
    let parts: Vec<&str> = core.split('.').collect();
    parts.len() == 3
        && parts.iter().all(|p| numeric(p))
        && pre.is_none_or(|pre| {
            pre.split('.')
                .all(|p| identifier(p) && (!p.bytes().all(|b| b.is_ascii_digit()) || numeric(p)))
        })
        && build.is_none_or(|build| build.split('.').all(identifier))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn semver_follows_the_grammar() {
        for good in ["1.2.0", "0.0.1-alpha.1", "1.0.0+build.5", "1.0.0-rc-1+x"] {
            assert!(is_semver(good), "{good}");
        }
        for bad in ["1.2", "v1.2.0", "01.2.3", "1.2.3-", "1.2.3-01", "1.2.3+"] {
            assert!(!is_semver(bad), "{bad}");
        }
    }
}
