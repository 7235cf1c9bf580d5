//! `apcheck check` quotes findings in skill bodies without holding the
//! bodies: the renderer reads each file with findings for its snippets alone
//! and drops it, so memory does not grow with the bodies. This pins what
//! every format shows for a package with findings across bodies (hidden
//! characters, a credential beside one, CRLF lines, an over-long body,
//! frontmatter errors): the outputs were recorded from the renderer that kept
//! every quoted file, and must stay byte for byte.

use crate::support::{apcheck, repo};

#[test]
fn every_format_shows_findings_in_skill_bodies_as_recorded() {
    let fixtures = repo().join("tests/fixtures");
    let expected = repo().join("tests/data/skill-bodies");
    // SARIF names the absolute directory its paths start from; the record says ROOT.
    let root_uri = format!("file://{}/", fixtures.display());
    for format in ["text", "json", "sarif", "github", "markdown"] {
        let output = apcheck(&["check", "--format", format, "skill-bodies"])
            .current_dir(&fixtures)
            .env("NO_COLOR", "1")
            .output();
        assert_eq!(output.status.code(), Some(1), "{format}: findings, no failure");
        let shown = String::from_utf8(output.stdout)
            .expect("UTF-8 output")
            .replace(&root_uri, "file://ROOT/");
        let recorded = std::fs::read_to_string(expected.join(format!("check.{format}"))).expect("a recorded output");
        assert_eq!(shown, recorded, "{format}");
    }
}
