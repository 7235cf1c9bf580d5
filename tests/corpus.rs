//! The corpus run: `check_package` over every plugin root in `shared/corpus`
//! (real packages, near misses, other tools' fixtures), compared with the
//! hand reading in INDEX.tsv and with the official 1.0.0 manifest schema.
//! Where our verdict differs from INDEX.tsv, [`DEVIATIONS`] says why, citing
//! the spec section that decides.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use apcheck::disk::{list_tree, read_tree};
use apcheck::report::{McpState, PackageReport, PluginState, SkillState};
use apcheck::tree::{Entry, Limits, Tree};
use apcheck::{Severity, check_package};

/// Roots where apcheck's reading differs from INDEX.tsv on purpose:
/// (dir, column, what INDEX.tsv says, what apcheck says, why).
const DEVIATIONS: &[(&str, &str, &str, &str, &str)] = &[(
    "fixtures/stbenjam__skillsaw/agent-plugins/skill-entry-escape/repo",
    "n_skills",
    "1",
    "2",
    "§4.1 boundary 3 and §7.1: `skills/escaping/SKILL.md` is a path named SKILL.md in an immediate child, \
     so apcheck lists it as a skill entry that is skipped (escape); INDEX.tsv counts only the valid one in \
     n_skills while counting the escaping one in n_skills_invalid",
)];

fn shared() -> PathBuf {
    match std::env::var_os("APCHECK_SHARED") {
        Some(dir) => PathBuf::from(dir),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared"),
    }
}

fn corpus() -> PathBuf {
    shared().join("corpus")
}

/// INDEX.tsv rows keyed by `dir`, each as column name → value.
fn index() -> BTreeMap<String, BTreeMap<String, String>> {
    let text = std::fs::read_to_string(corpus().join("INDEX.tsv")).expect("INDEX.tsv is readable");
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().expect("INDEX.tsv has a header").split('\t').collect();
    lines
        .filter(|line| !line.trim().is_empty())
        .map(|line| {
            let row: BTreeMap<String, String> = header
                .iter()
                .zip(line.split('\t'))
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect();
            (row["dir"].clone(), row)
        })
        .collect()
}

/// Every directory holding a `plugin.json` at its root, relative to the corpus.
fn plugin_roots() -> Vec<String> {
    let mut roots = Vec::new();
    let mut pending = vec![corpus()];
    while let Some(dir) = pending.pop() {
        let Ok(read) = std::fs::read_dir(&dir) else { continue };
        for child in read.filter_map(Result::ok) {
            let path = child.path();
            if child.file_type().is_ok_and(|t| t.is_dir()) {
                pending.push(path);
            } else if child.file_name() == "plugin.json" {
                let rel = dir.strip_prefix(corpus()).unwrap().to_string_lossy().replace('\\', "/");
                roots.push(rel);
            }
        }
    }
    roots.sort();
    roots
}

/// `(path relative to fixtures/stbenjam__skillsaw/agent-plugins, target)` from SYMLINKS.tsv.
fn skillsaw_links() -> Vec<(String, String)> {
    let path = corpus().join("fixtures/stbenjam__skillsaw/agent-plugins/SYMLINKS.tsv");
    let text = std::fs::read_to_string(path).unwrap_or_default();
    text.lines()
        .skip(1)
        .filter_map(|line| line.split_once('\t'))
        .map(|(p, t)| (p.to_string(), t.trim().to_string()))
        .collect()
}

/// Reads a corpus root and restores its symlinks, which the corpus stores as
/// text: `<name>.SYMLINK-TO.txt` files in real/, and the rows of the
/// skillsaw fixtures' SYMLINKS.tsv. The core never knows this convention.
fn load_root(rel: &str) -> Tree {
    let read = read_tree(&corpus().join(rel), Limits::default()).expect("corpus root is readable");
    let skillsaw_prefix = "fixtures/stbenjam__skillsaw/agent-plugins/";
    let links: BTreeMap<String, String> = match rel.strip_prefix(skillsaw_prefix) {
        Some(inside) => skillsaw_links()
            .into_iter()
            .filter_map(|(path, target)| Some((path.strip_prefix(&format!("{inside}/"))?.to_string(), target)))
            .collect(),
        None => BTreeMap::new(),
    };
    let mut tree = Tree::new();
    for (path, entry) in read.entries() {
        if let (Some(link), Entry::File(bytes)) = (path.strip_suffix(".SYMLINK-TO.txt"), entry) {
            let target = String::from_utf8_lossy(bytes).trim().to_string();
            tree.insert(link, Entry::Symlink(target));
        } else if let Some(target) = links.get(path) {
            tree.insert(path, Entry::Symlink(target.clone()));
        } else if !matches!(tree.entry(path), Some(Entry::Symlink(_))) {
            tree.insert(path, entry.clone());
        }
    }
    tree
}

fn check(rel: &str) -> PackageReport {
    check_package(rel, &load_root(rel))
}

fn deviation(
    dir: &str,
    column: &str,
) -> Option<&'static (&'static str, &'static str, &'static str, &'static str, &'static str)> {
    DEVIATIONS.iter().find(|(d, c, _, _, _)| *d == dir && *c == column)
}

#[test]
fn every_corpus_root_matches_the_index_or_a_documented_deviation() {
    let index = index();
    let mut dirs: Vec<String> = plugin_roots();
    dirs.extend(index.keys().cloned());
    dirs.sort();
    dirs.dedup();
    assert!(
        dirs.len() >= 100,
        "the corpus has about 106 roots, found {}",
        dirs.len()
    );
    let mut mismatches = Vec::new();
    for dir in &dirs {
        let report = check(dir);
        let Some(row) = index.get(dir) else {
            // A root with plugin.json that INDEX.tsv does not list: it must still check without panicking.
            continue;
        };
        let mut compare = |column: &str, expected: String, actual: String| {
            let (expected, actual) = match deviation(dir, column) {
                Some((_, _, indexed, ours, _)) => {
                    assert_eq!(&expected, indexed, "{dir}: stale deviation for {column}");
                    (ours.to_string(), actual)
                }
                None => (expected, actual),
            };
            if expected != actual {
                mismatches.push(format!("{dir}: {column}: INDEX.tsv {expected}, apcheck {actual}"));
            }
        };
        let loaded = report.plugin.state == PluginState::Loaded;
        let manifest = if row["manifest_verdict"].starts_with("valid") {
            "loaded"
        } else {
            "rejected"
        };
        compare(
            "manifest_verdict",
            manifest.to_string(),
            if loaded { "loaded" } else { "rejected" }.to_string(),
        );
        if loaded {
            // INDEX.tsv counts skills even for rejected plugins; a client discovers none then (§5.2).
            let skipped = report
                .skills
                .entries
                .iter()
                .filter(|e| e.state == SkillState::Skipped)
                .count();
            compare(
                "n_skills",
                row["n_skills"].clone(),
                report.skills.entries.len().to_string(),
            );
            compare("n_skills_invalid", row["n_skills_invalid"].clone(), skipped.to_string());
            let mcp = match report.mcp.state {
                McpState::Absent => "none".to_string(),
                McpState::Disabled => "disabled".to_string(),
                McpState::NotLoaded => "not-loaded".to_string(),
                McpState::Loaded if report.summary.servers_invalid > 0 => format!(
                    "{}/{} servers invalid",
                    report.summary.servers_invalid,
                    report.mcp.servers.len()
                ),
                McpState::Loaded => "valid".to_string(),
            };
            compare("mcp_verdict", row["mcp_verdict"].clone(), mcp);
        }
    }
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
}

#[test]
fn real_packages_load_with_no_error() {
    // "Real 1.0.0 packages are almost all clean" (corpus README).
    for dir in index().keys().filter(|d| d.starts_with("real/")) {
        let report = check(dir);
        assert_eq!(
            report.plugin.state,
            PluginState::Loaded,
            "{dir}: {:?}",
            report.diagnostics
        );
        let errors: Vec<_> = report
            .diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .map(|d| (d.code, d.file.clone(), d.message.clone()))
            .collect();
        assert!(errors.is_empty(), "{dir}: {errors:?}");
    }
}

#[test]
fn telnyx_stray_skill_files_are_one_diagnostic() {
    // 456 SKILL.md copies under providers/: never discovered (§7.1), told once.
    let report = check("real/team-telnyx__ai__root");
    assert_eq!(report.skills.entries.len(), 228);
    let stray: Vec<_> = report.diagnostics.iter().filter(|d| d.code == "AP304").collect();
    assert_eq!(stray.len(), 1);
    assert!(
        stray[0].message.starts_with("456 SKILL.md files"),
        "{}",
        stray[0].message
    );
}

#[test]
fn vendor_files_beside_real_packages_are_told_once_each() {
    let report = check("real/aws__agent-toolkit-for-aws__plugins--aws-core");
    let vendor: Vec<_> = report
        .diagnostics
        .iter()
        .filter(|d| d.code == "AP020" || d.code == "AP021")
        .map(|d| d.file.clone().unwrap())
        .collect();
    assert_eq!(
        vendor,
        [".claude-plugin", ".codex-plugin", ".cursor-plugin", ".mcp.json"]
    );
}

/// The official schema's verdict on a manifest after the two non-fatal
/// exceptions of §5.2 and §8.1: unknown top-level fields and a non-object
/// `extensions` are removed first, as a client reports and ignores them.
fn official_schema_accepts(validator: &jsonschema::Validator, manifest: &serde_json::Value) -> bool {
    const FIELDS: &[&str] = &[
        "$schema",
        "name",
        "version",
        "description",
        "author",
        "homepage",
        "repository",
        "license",
        "keywords",
        "extensions",
    ];
    let mut manifest = manifest.clone();
    if let Some(object) = manifest.as_object_mut() {
        object.retain(|key, value| FIELDS.contains(&key.as_str()) && (key != "extensions" || value.is_object()));
    }
    validator.is_valid(&manifest)
}

#[test]
fn manifest_verdict_agrees_with_the_official_schema() {
    let schema_path = shared().join("reference/agent-plugins-1.0.0/schemas/plugin.schema.json");
    let schema: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(schema_path).expect("official schema")).unwrap();
    let validator = jsonschema::validator_for(&schema).expect("the official schema compiles");
    let mut compared = 0;
    for dir in plugin_roots() {
        let tree = load_root(&dir);
        // Only a plugin.json inside the root that parses as JSON has a schema verdict; containment
        // (§4.1) and JSON syntax (§5.2) are decided before any schema applies.
        let Some(bytes) = tree.read("plugin.json") else {
            continue;
        };
        let Ok(manifest) = serde_json::from_slice::<serde_json::Value>(bytes) else {
            continue;
        };
        let report = check_package(&dir, &tree);
        let ours = report.plugin.state == PluginState::Loaded;
        assert_eq!(
            ours,
            official_schema_accepts(&validator, &manifest),
            "{dir}: apcheck {:?} vs the official schema; {:?}",
            report.plugin.state,
            report.diagnostics
        );
        compared += 1;
    }
    assert!(compared >= 90, "compared {compared} manifests");
}

#[test]
fn schema_agreement_holds_on_edge_manifests() {
    // Shapes the corpus lacks: each verdict must match the official schema (modulo §5.2/§8.1).
    let schema: serde_json::Value = serde_json::from_str(apcheck::schemas::PLUGIN_SCHEMA).unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    let id = apcheck::schemas::PLUGIN_SCHEMA_ID;
    for manifest in [
        format!(r#"{{"$schema": "{id}", "name": "a"}}"#),
        format!(r#"{{"$schema": "{id}", "name": "a.b-c9"}}"#),
        format!(r#"{{"$schema": "{id}", "name": "a-"}}"#),
        format!(r#"{{"$schema": "{id}", "name": "a..b"}}"#),
        format!(r#"{{"$schema": "{id}", "name": "{}"}}"#, "a".repeat(64)),
        format!(r#"{{"$schema": "{id}", "name": "{}"}}"#, "a".repeat(65)),
        format!(r#"{{"$schema": "{id}", "name": "é"}}"#),
        format!(r#"{{"$schema": "{id}", "name": "a", "author": {{}}}}"#),
        format!(r#"{{"$schema": "{id}", "name": "a", "author": {{"x": "y"}}}}"#),
        format!(r#"{{"$schema": "{id}", "name": "a", "keywords": []}}"#),
        format!(r#"{{"$schema": "{id}", "name": "a", "keywords": "k"}}"#),
        format!(r#"{{"$schema": "{id}", "name": "a", "extensions": {{"x": []}}}}"#),
        format!(r#"{{"$schema": "{id}", "name": "a", "extensions": 3, "other": 1}}"#),
        format!(r#"{{"$schema": "{id}", "name": "a", "license": null}}"#),
        format!(r#"{{"$schema": "{id}"}}"#),
        r#"{"name": "a"}"#.to_string(),
        r#"{"$schema": "https://agent-plugins.org/schemas/1.1.0/plugin.schema.json", "name": "a"}"#.to_string(),
    ] {
        let value: serde_json::Value = serde_json::from_str(&manifest).unwrap();
        let report = check_package("edge", &Tree::from_files([("plugin.json", manifest.as_str())]));
        assert_eq!(
            report.plugin.state == PluginState::Loaded,
            official_schema_accepts(&validator, &value),
            "{manifest}: {:?}",
            report.diagnostics
        );
    }
}

#[test]
fn a_configuration_ignoring_ap314_hides_exactly_those_findings_and_no_verdict() {
    let settings = apcheck::config::Settings::parse("apcheck.toml", "ignore = [\"AP314\"]\n")
        .expect("the configuration parses")
        .expect("an apcheck.toml is always a configuration");
    let mut hidden_total = 0;
    for rel in plugin_roots() {
        let report = check(&rel);
        let mut configured = report.clone();
        let hidden = settings.apply(&mut configured, &rel);
        let expected: Vec<_> = report.diagnostics.iter().filter(|d| d.code != "AP314").collect();
        let kept: Vec<_> = configured.diagnostics.iter().collect();
        assert_eq!(kept, expected, "{rel}: only AP314 findings go");
        assert_eq!(hidden, report.diagnostics.len() - expected.len(), "{rel}");
        assert_eq!(configured.summary.ignored, hidden, "{rel}");
        let verdicts = |r: &PackageReport| {
            (
                r.plugin.state,
                r.skills.entries.iter().map(|s| s.state).collect::<Vec<_>>(),
                r.mcp.state,
                r.mcp.servers.iter().map(|s| s.state).collect::<Vec<_>>(),
            )
        };
        assert_eq!(verdicts(&configured), verdicts(&report), "{rel}: no verdict changes");
        hidden_total += hidden;
    }
    assert!(hidden_total > 0, "the corpus has AP314 findings to hide");
}

/// `apcheck check` lists a root and reads each file when the check asks for
/// it (`list_tree`), where the editor and the other commands read every file
/// first (`read_tree`): both trees must give the same report and the same
/// text, snippets and all, for every corpus root.
#[test]
fn files_read_on_demand_check_exactly_as_files_read_up_front() {
    use apcheck::render::{self, Format, Options, Sources};
    let options = Options {
        color: false,
        source_root: None,
        quiet: false,
    };
    for rel in plugin_roots() {
        let dir = corpus().join(&rel);
        let read = read_tree(&dir, Limits::default()).expect("corpus root is readable");
        let listed = list_tree(&dir, Limits::default()).expect("corpus root is readable");
        let (up_front, on_demand) = (check_package(&rel, &read), check_package(&rel, &listed));
        for format in [Format::Text, Format::Json] {
            let shown = |report: &PackageReport, tree: &Tree| {
                render::packages::render(std::slice::from_ref(report), &[tree as &dyn Sources], format, &options)
            };
            assert_eq!(
                shown(&up_front, &read),
                shown(&on_demand, &listed),
                "{rel} as {format:?}"
            );
        }
    }
}
