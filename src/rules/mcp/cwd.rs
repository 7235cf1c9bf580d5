//! The stdio `cwd`: one of five forms, contained after expansion (§7.2.1).

use serde_json::Value;

use super::entry::ServerCheck;
use super::package_path::{Wanted, check_in_root, climbs_out};
use crate::diag::Severity;
use crate::rule::{Example, Rule};

const PLUGIN_JSON: &str = super::text::EXAMPLE_PLUGIN_JSON;

pub static MCP_CWD_FORM: Rule = Rule {
    code: "AP424",
    name: "mcp-cwd-form",
    severity: Severity::Error,
    spec: "Agent Plugins §7.2.1, §4.1",
    summary: "A stdio `cwd` does not begin with `./`, `${PLUGIN_ROOT}` or `${PLUGIN_DATA}`; that server is skipped",
    fix_hint: Some("use `./dir`, `${PLUGIN_ROOT}/dir` for package files, or `${PLUGIN_DATA}/dir` for writable state"),
    doc: rule_doc! {
        what: "The form of `cwd`: a `./` path, exactly `${PLUGIN_ROOT}` or `${PLUGIN_ROOT}/…`, or exactly \
               `${PLUGIN_DATA}` or `${PLUGIN_DATA}/…`. A bare `data`, an absolute path, `~/…` or \
               `${PLUGIN_ROOT}data` fail, and so does a placeholder after the start (`./${PLUGIN_ROOT}/..`): \
               it expands to an absolute install path inside the path, whose containment no package check \
               can decide.",
        why: "§7.2.1: \"Any other form … makes that server entry invalid\"; the client skips it (§7.2.2 rule 3).",
        failing: Example::Package(&[
            ("plugin.json", PLUGIN_JSON),
            (
                "mcp.json",
                example_mcp_json!("    \"tools\": {\"type\": \"stdio\", \"command\": \"uvx\", \"cwd\": \"work\"}"),
            ),
        ]),
        fixed: Example::Package(&[
            ("plugin.json", PLUGIN_JSON),
            (
                "mcp.json",
                example_mcp_json!(
                    "    \"tools\": {\"type\": \"stdio\", \"command\": \"uvx\", \"cwd\": \"${PLUGIN_DATA}/work\"}"
                ),
            ),
        ]),
    },
};

pub static MCP_CWD_ESCAPES_DATA: Rule = Rule {
    code: "AP421",
    name: "mcp-cwd-escapes-data",
    severity: Severity::Error,
    spec: "Agent Plugins §7.2.1",
    summary: "A `${PLUGIN_DATA}` working directory climbs out of the plugin data directory; that server is skipped",
    fix_hint: Some("keep the path below ${PLUGIN_DATA}: remove the `..` steps"),
    doc: rule_doc! {
        what: "The `..` steps of a `cwd` beginning with `${PLUGIN_DATA}`: they must never climb above the data \
               directory. The directory is not in the package, so this is judged on the text alone; package \
               paths (`./…`, `${PLUGIN_ROOT}/…`) are resolved through the package's links instead (AP101).",
        why: "§7.2.1: \"A `${PLUGIN_DATA}`-rooted value MUST remain within the filesystem-resolved plugin data \
              directory\"; a post-resolution escape makes the server entry invalid, and the client skips it \
              (§7.2.2 rule 3).",
        failing: Example::Package(&[
            ("plugin.json", PLUGIN_JSON),
            (
                "mcp.json",
                example_mcp_json!(
                    "    \"tools\": {\"type\": \"stdio\", \"command\": \"uvx\", \"cwd\": \"${PLUGIN_DATA}/../cache\"}"
                ),
            ),
        ]),
        fixed: Example::Package(&[
            ("plugin.json", PLUGIN_JSON),
            (
                "mcp.json",
                example_mcp_json!(
                    "    \"tools\": {\"type\": \"stdio\", \"command\": \"uvx\", \"cwd\": \"${PLUGIN_DATA}/cache\"}"
                ),
            ),
        ]),
    },
};

use super::config::CwdForm;
use super::placeholders::{PLUGIN_DATA as DATA, PLUGIN_ROOT as ROOT};

pub(super) fn check_cwd(check: &mut ServerCheck<'_>, cwd: &Value) {
    let pointer = check.field("cwd");
    let Value::String(cwd) = cwd else {
        check.reject_type(&pointer, "`cwd`", "a string", cwd);
        return;
    };
    // §7.2.1: "Clients MUST expand placeholders before resolving `cwd`"; the
    // leading form decides the base, what follows is resolved against it.
    // §9.2 expands every occurrence, so a placeholder further on puts an
    // absolute path (where the client installed the plugin, or keeps its data)
    // inside the path: where that leads, and whether it stays contained,
    // depends on the client's machine, and no check of the package can say.
    let not_at_start = |placeholder: &&str| cwd.match_indices(*placeholder).any(|(at, _)| at > 0);
    if let Some(again) = [ROOT, DATA].into_iter().find(not_at_start) {
        let message = format!(
            "`cwd` {} has {again} after its start; it expands to an absolute path inside the path, so \
             where the server starts, and whether that stays within the plugin, depends on where the client \
             installs it (§7.2.1, §9.2)",
            super::text::excerpt(cwd)
        );
        let hint = "use the placeholder only at the start: `${PLUGIN_ROOT}/dir` or `${PLUGIN_DATA}/dir`";
        check.reject(check.file.at_value(&MCP_CWD_FORM, &pointer, message).with_hint(hint));
        return;
    }
    match CwdForm::of(cwd) {
        Some(CwdForm::InPackage(relative) | CwdForm::PluginRoot(relative)) => {
            check_in_root(check, &pointer, "`cwd`", cwd, relative, Wanted::Dir);
        }
        Some(CwdForm::PluginData(relative)) => {
            // The data directory is not in the package: only its `..` steps can be judged.
            if climbs_out(relative) {
                let message = format!(
                    "`cwd` {} climbs above the plugin data directory",
                    super::text::excerpt(cwd)
                );
                check.reject(check.file.at_value(&MCP_CWD_ESCAPES_DATA, &pointer, message));
            }
        }
        None => {
            let hint = form_hint(cwd);
            let message = format!(
                "`cwd` {} must begin with `./`, `${{PLUGIN_ROOT}}` or `${{PLUGIN_DATA}}`",
                super::text::excerpt(cwd)
            );
            check.reject(check.file.at_value(&MCP_CWD_FORM, &pointer, message).with_hint(hint));
            return;
        }
    }
    super::placeholders::check_expanded(check, &pointer, "`cwd`", cwd);
}

fn form_hint(cwd: &str) -> String {
    if cwd.starts_with(ROOT) || cwd.starts_with(DATA) {
        return "a placeholder must stand alone or be followed by `/`".into();
    }
    if cwd.starts_with('/') || cwd.starts_with('~') || cwd.starts_with('$') || cwd.contains(':') {
        return "a plugin cannot rely on places outside its root; use `${PLUGIN_DATA}/…` for writable state".into();
    }
    if !cwd.starts_with('.') && !cwd.is_empty() && super::text::echoable(cwd) {
        return format!("write \"./{cwd}\" for a directory in the package");
    }
    "use `./dir`, `${PLUGIN_ROOT}/dir` or `${PLUGIN_DATA}/dir`".into()
}

#[cfg(test)]
mod tests {
    use super::super::config::{CheckedCwd, CwdForm};
    use super::super::test_support::{codes, load, one_server};
    use crate::report::ServerState;

    #[test]
    fn the_three_forms_and_the_path_after_their_base() {
        assert_eq!(CwdForm::of("./work/x"), Some(CwdForm::InPackage("work/x")));
        assert_eq!(CwdForm::of("${PLUGIN_ROOT}"), Some(CwdForm::PluginRoot("")));
        assert_eq!(CwdForm::of("${PLUGIN_ROOT}/bin"), Some(CwdForm::PluginRoot("bin")));
        assert_eq!(CwdForm::of("${PLUGIN_DATA}/cache"), Some(CwdForm::PluginData("cache")));
        for none in ["work", "${PLUGIN_ROOT}work", "/tmp", "~/x", "${HOME}/x", "", ".\\work"] {
            assert_eq!(CwdForm::of(none), None, "{none}");
        }
    }

    #[test]
    fn a_checked_cwd_keeps_its_form_and_its_text() {
        for (written, form) in [
            ("./work/x", CwdForm::InPackage("work/x")),
            ("${PLUGIN_ROOT}", CwdForm::PluginRoot("")),
            ("${PLUGIN_ROOT}/", CwdForm::PluginRoot("")),
            ("${PLUGIN_ROOT}/bin", CwdForm::PluginRoot("bin")),
            ("${PLUGIN_DATA}/cache/..", CwdForm::PluginData("cache/..")),
        ] {
            let checked = CheckedCwd::new(written).expect(written);
            assert_eq!((checked.written(), checked.form()), (written, form));
        }
        assert_eq!(CheckedCwd::new("work"), None);
    }

    fn cwd_findings(cwd: &str, extra: &[(&str, &str)]) -> (Vec<&'static str>, ServerState) {
        let server = format!(
            r#"{{"type": "stdio", "command": "uvx", "cwd": {}}}"#,
            serde_json::to_string(cwd).unwrap()
        );
        let (section, diagnostics) = load(&one_server(&server), extra);
        (codes(&diagnostics), section.servers[0].state)
    }

    #[test]
    fn the_five_forms_are_valid() {
        // §7.2.1: `./…`, `${PLUGIN_ROOT}`, `${PLUGIN_ROOT}/…`, `${PLUGIN_DATA}`, `${PLUGIN_DATA}/…`.
        let files = [("work/.keep", "")];
        for cwd in [
            "./work",
            "./work/../work",
            "${PLUGIN_ROOT}",
            "${PLUGIN_ROOT}/work",
            "${PLUGIN_DATA}",
            "${PLUGIN_DATA}/cache",
        ] {
            assert_eq!(cwd_findings(cwd, &files), (vec![], ServerState::Valid), "{cwd}");
        }
    }

    #[test]
    fn other_forms_are_invalid() {
        // §7.2.1: "Any other form … makes that server entry invalid".
        for cwd in ["work", "/tmp", "~/x", "${PLUGIN_ROOT}work", "${HOME}/x", "", ".\\work"] {
            assert_eq!(cwd_findings(cwd, &[]), (vec!["AP424"], ServerState::Invalid), "{cwd}");
        }
    }

    #[test]
    fn escapes_after_expansion_are_invalid() {
        // §7.2.1: "any post-resolution escape makes that server entry invalid".
        for cwd in ["${PLUGIN_DATA}/../outside", "${PLUGIN_DATA}/a/../.."] {
            assert_eq!(cwd_findings(cwd, &[]), (vec!["AP421"], ServerState::Invalid), "{cwd}");
        }
        // Package paths are containment, §4.1 boundary 4.
        for cwd in ["${PLUGIN_ROOT}/../outside", "./a/../../b"] {
            assert_eq!(cwd_findings(cwd, &[]), (vec!["AP101"], ServerState::Invalid), "{cwd}");
        }
    }

    #[test]
    fn a_placeholder_after_the_start_is_invalid() {
        // §9.2 expands every occurrence: an absolute install path lands inside
        // the path, and its containment (§7.2.1) depends on the client's machine.
        let files = [("work/.keep", "")];
        for cwd in [
            "./${PLUGIN_ROOT}/..",
            "${PLUGIN_ROOT}/${PLUGIN_ROOT}/..",
            "${PLUGIN_DATA}/${PLUGIN_ROOT}/../..",
            "${PLUGIN_ROOT}/work/${PLUGIN_DATA}",
            "./work/${PLUGIN_DATA}",
        ] {
            assert_eq!(
                cwd_findings(cwd, &files),
                (vec!["AP424"], ServerState::Invalid),
                "{cwd}"
            );
        }
    }

    #[test]
    fn missing_package_directory_is_a_warning() {
        assert_eq!(
            cwd_findings("${PLUGIN_ROOT}/work", &[]),
            (vec!["AP422"], ServerState::Valid)
        );
    }

    #[test]
    fn other_placeholders_inside_stay_literal() {
        assert_eq!(
            cwd_findings("${PLUGIN_DATA}/${USER}", &[]),
            (vec!["AP440"], ServerState::Valid)
        );
    }
}
