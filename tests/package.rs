//! Behaviours of the whole package check, built as in-memory trees: what a
//! conformant client loads, skips or rejects, and that bad input never
//! panics or hangs. Each test names the behaviour it proves and the § behind it.

use apcheck::report::{McpState, PluginState, SkillState, SkillsState};
use apcheck::tree::{Entry, Tree};
use apcheck::{PackageReport, Severity, check_package};

const MANIFEST: &str =
    r#"{"$schema": "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json", "name": "invoice-ops"}"#;

fn skill(name: &str) -> String {
    format!(
        "---\nname: {name}\ndescription: Reconciles invoices. Use when the user asks about invoices.\n---\n# {name}\n"
    )
}

fn check(tree: &Tree) -> PackageReport {
    check_package("test", tree)
}

fn codes(report: &PackageReport) -> Vec<&'static str> {
    report.diagnostics.iter().map(|d| d.code).collect()
}

fn package_with_skills() -> Tree {
    Tree::from_files([
        ("plugin.json".to_string(), MANIFEST.to_string()),
        ("skills/reconcile/SKILL.md".to_string(), skill("reconcile")),
        ("skills/export/SKILL.md".to_string(), skill("export")),
    ])
}

#[test]
fn clean_package_loads_every_skill_with_no_findings() {
    let report = check(&package_with_skills());
    assert_eq!(report.plugin.state, PluginState::Loaded);
    assert_eq!(report.plugin.spec.as_deref(), Some("1.0.0"));
    assert_eq!(report.skills.state, SkillsState::Valid);
    assert_eq!(report.summary.skills_discovered, 2);
    assert!(report.diagnostics.is_empty(), "{:?}", report.diagnostics);
}

#[test]
fn uppercase_manifest_name_rejects_the_whole_package() {
    // The reference negative fixture: §5.5 character set; §5.3 and §11.3: nothing is discovered.
    let mut tree = package_with_skills();
    tree.insert(
        "plugin.json",
        Entry::File(
            br#"{"$schema": "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json", "name": "Invoice-Ops"}"#
                .to_vec(),
        ),
    );
    let report = check(&tree);
    assert_eq!(report.plugin.state, PluginState::Rejected);
    assert_eq!(report.skills.state, SkillsState::NotLoaded);
    assert!(report.skills.entries.is_empty());
    assert_eq!(report.mcp.state, McpState::NotLoaded);
    assert_eq!(codes(&report), ["AP209"]);
    let finding = &report.diagnostics[0];
    assert_eq!(finding.pointer.as_deref(), Some("/name"));
    let column = MANIFEST.find("\"invoice-ops\"").unwrap() + 1;
    assert_eq!((finding.line, finding.column), (Some(1), Some(column)));
    assert!(finding.message.contains("character set"));
}

#[test]
fn escaping_plugin_json_rejects_the_plugin() {
    // §4.1 boundary 1.
    let mut tree = package_with_skills();
    tree.insert("plugin.json", Entry::Symlink("../outside/plugin.json".into()));
    let report = check(&tree);
    assert_eq!(report.plugin.state, PluginState::Rejected);
    assert_eq!(report.skills.state, SkillsState::NotLoaded);
    assert_eq!(codes(&report), ["AP101"]);
}

#[test]
fn escaping_skills_dir_invalidates_skills_only() {
    // §4.1 boundary 2 and §6.2: the component type is invalid, the plugin still loads.
    let mut tree = Tree::from_files([("plugin.json", MANIFEST)]);
    tree.insert("skills", Entry::Symlink("../shared-skills".into()));
    let report = check(&tree);
    assert_eq!(report.plugin.state, PluginState::Loaded);
    assert_eq!(report.skills.state, SkillsState::Invalid);
    assert_eq!(codes(&report), ["AP101"]);
}

#[test]
fn escaping_skill_md_skips_that_skill_only() {
    // §4.1 boundary 3 and §7.1.
    let mut tree = package_with_skills();
    tree.insert("skills/leak/SKILL.md", Entry::Symlink("/etc/passwd".into()));
    let report = check(&tree);
    assert_eq!(report.plugin.state, PluginState::Loaded);
    assert_eq!(report.summary.skills_discovered, 2);
    assert_eq!(report.summary.skills_skipped, 1);
    let leak = report.skills.entries.iter().find(|e| e.dir == "leak").unwrap();
    assert_eq!(leak.state, SkillState::Skipped);
    assert!(leak.reason.as_deref().unwrap().contains("outside the plugin root"));
}

#[test]
fn skill_linked_inside_the_root_is_discovered() {
    // §4.1: links MAY resolve to targets within the root.
    let mut tree = package_with_skills();
    tree.insert("shared/audit/SKILL.md", Entry::File(skill("audit").into_bytes()));
    tree.insert("skills/audit", Entry::Symlink("../shared/audit".into()));
    let report = check(&tree);
    assert_eq!(report.summary.skills_discovered, 3);
    // The linked-to copy under shared/ is reached by discovery, so it is not a stray SKILL.md.
    assert!(report.diagnostics.is_empty(), "{:?}", report.diagnostics);
}

#[test]
fn symlink_loop_is_an_error_on_that_path_not_a_hang() {
    let mut tree = package_with_skills();
    tree.insert("skills/loop/SKILL.md", Entry::Symlink("SKILL.md".into()));
    let report = check(&tree);
    assert_eq!(report.summary.skills_discovered, 2);
    assert_eq!(codes(&report), ["AP102"]);
}

#[test]
fn invalid_skill_is_skipped_and_the_others_load() {
    // §7.1: skip the non-conforming skill, continue with the rest.
    let mut tree = package_with_skills();
    tree.insert("skills/bad/SKILL.md", Entry::File(skill("not-bad").into_bytes()));
    let report = check(&tree);
    assert_eq!(report.summary.skills_discovered, 2);
    assert_eq!(report.summary.skills_skipped, 1);
    assert_eq!(codes(&report), ["AP309"]);
}

#[test]
fn non_object_extensions_and_unknown_fields_do_not_stop_loading() {
    // §5.2 and §8.1: report and ignore.
    let mut tree = package_with_skills();
    tree.insert(
        "plugin.json",
        Entry::File(
            br#"{"$schema": "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json", "name": "invoice-ops", "extensions": "x", "hooks": {}}"#
                .to_vec(),
        ),
    );
    let report = check(&tree);
    assert_eq!(report.plugin.state, PluginState::Loaded);
    assert_eq!(report.summary.skills_discovered, 2);
    assert_eq!(codes(&report), ["AP206", "AP210"]);
}

#[test]
fn missing_manifest_beside_a_vendor_manifest_says_why_it_is_not_a_package() {
    // §4.1 item 2, §5.1.
    let tree = Tree::from_files([
        (".codex-plugin/plugin.json", r#"{"name": "invoice-ops"}"#),
        ("skills/reconcile/SKILL.md", "x"),
    ]);
    let report = check(&tree);
    assert_eq!(report.plugin.state, PluginState::Rejected);
    assert_eq!(codes(&report), ["AP201"]);
    assert!(report.diagnostics[0].message.contains("not an Agent Plugins package"));
}

#[test]
fn bad_bytes_never_panic() {
    // Invalid UTF-8, a BOM, NUL, deep nesting, a FIFO, an unreadable file: one finding each, no panic.
    let deep = "[".repeat(100_000) + &"]".repeat(100_000);
    let bad_manifests: Vec<Vec<u8>> = vec![
        b"\xff\xfe{".to_vec(),
        "\u{FEFF}{}".as_bytes().to_vec(),
        b"{\0}".to_vec(),
        deep.into_bytes(),
        Vec::new(),
        b"null".to_vec(),
    ];
    for bytes in bad_manifests {
        let tree = Tree::from_files([("plugin.json", bytes)]);
        let report = check(&tree);
        assert_eq!(report.plugin.state, PluginState::Rejected);
        assert_eq!(report.summary.errors, 1, "{:?}", report.diagnostics);
    }
    let mut special = package_with_skills();
    special.insert("skills/fifo/SKILL.md", Entry::Other("a FIFO".into()));
    special.insert("skills/locked/SKILL.md", Entry::Unreadable("permission denied".into()));
    special.insert(
        "skills/binary/SKILL.md",
        Entry::File(b"---\nname: \xff\n---\n".to_vec()),
    );
    let report = check(&special);
    assert_eq!(report.summary.skills_discovered, 2);
    let mut found = codes(&report);
    found.sort_unstable();
    assert_eq!(found, ["AP001", "AP005", "AP317"]);
}

#[test]
fn hundred_megabyte_skill_is_reported_as_truncated() {
    // The reader keeps a prefix and records the real size; the skill is skipped, not guessed at.
    let mut tree = package_with_skills();
    tree.insert("skills/huge/SKILL.md", Entry::File(vec![b'a'; 1024]));
    tree.mark_truncated("skills/huge/SKILL.md", 100 * 1024 * 1024);
    let report = check(&tree);
    assert_eq!(report.summary.skills_skipped, 1);
    let found = codes(&report);
    assert!(found.contains(&"AP004") && found.contains(&"AP007"), "{found:?}");
}

#[test]
fn yaml_alias_bomb_in_a_skill_is_an_error_not_a_hang() {
    let mut yaml = String::from("---\nname: bomb\ndescription: x\na: &a [x, x, x, x, x, x, x, x, x, x]\n");
    for i in 0..12 {
        let prev = if i == 0 { "a".to_string() } else { format!("b{}", i - 1) };
        yaml.push_str(&format!(
            "b{i}: &b{i} [*{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}]\n"
        ));
    }
    yaml.push_str("---\n");
    let mut tree = package_with_skills();
    tree.insert("skills/bomb/SKILL.md", Entry::File(yaml.into_bytes()));
    let report = check(&tree);
    assert_eq!(report.summary.skills_skipped, 1);
    assert_eq!(codes(&report), ["AP307"]);
}

#[test]
fn five_hundred_skills_check_quickly() {
    let mut files = vec![("plugin.json".to_string(), MANIFEST.to_string())];
    for i in 0..500 {
        let name = format!("skill-{i}");
        files.push((format!("skills/{name}/SKILL.md"), skill(&name)));
        files.push((format!("skills/{name}/references/notes.md"), "notes".to_string()));
    }
    let tree = Tree::from_files(files);
    let report = check(&tree);
    assert_eq!(report.summary.skills_discovered, 500);
    assert_eq!(report.summary.errors, 0);
}

#[test]
fn diagnostics_are_sorted_and_errors_counted() {
    let mut tree = package_with_skills();
    tree.insert("skills/zeta/SKILL.md", Entry::File(b"no frontmatter".to_vec()));
    tree.insert("skills/alpha/SKILL.md", Entry::File(b"no frontmatter".to_vec()));
    let report = check(&tree);
    let files: Vec<_> = report.diagnostics.iter().map(|d| d.file.clone().unwrap()).collect();
    assert_eq!(files, ["skills/alpha/SKILL.md", "skills/zeta/SKILL.md"]);
    assert_eq!(report.summary.errors, 2);
    assert!(report.diagnostics.iter().all(|d| d.severity == Severity::Error));
}

mod never_panics {
    use proptest::prelude::*;

    use super::*;

    fn frontmatter_like() -> impl Strategy<Value = String> {
        // Text near the shapes the parsers care about: delimiters, colons, quotes, anchors, BOMs.
        proptest::collection::vec(
            prop_oneof![
                Just("---\n".to_string()),
                Just("name: a\n".to_string()),
                Just("description: \"x\"\n".to_string()),
                Just("&a [*a]\n".to_string()),
                Just("\u{FEFF}".to_string()),
                Just("\r\n".to_string()),
                Just(": ".to_string()),
                "[ -~]{0,12}",
            ],
            0..12,
        )
        .prop_map(|parts| parts.concat())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        #[test]
        fn arbitrary_manifest_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..256)) {
            let report = check(&Tree::from_files([("plugin.json", bytes)]));
            prop_assert_eq!(report.plugin.state == PluginState::Loaded, report.summary.errors == 0);
        }

        #[test]
        fn arbitrary_skill_text(text in frontmatter_like()) {
            let mut tree = package_with_skills();
            tree.insert("skills/a/SKILL.md", Entry::File(text.into_bytes()));
            let report = check(&tree);
            prop_assert_eq!(report.summary.skills_discovered + report.summary.skills_skipped, 3);
        }

        #[test]
        fn arbitrary_symlinks(links in proptest::collection::vec(("[a-c/]{1,6}", "[a-c./]{0,8}"), 0..6)) {
            let mut tree = package_with_skills();
            for (path, target) in links {
                tree.insert(&format!("skills/{path}"), Entry::Symlink(target));
            }
            let report = check(&tree);
            prop_assert_eq!(report.plugin.state, PluginState::Loaded);
        }
    }
}

/// A 160,000-member plugin.json (60 s before) and an mcp.json of
/// 80,000 servers (35 s) are checked in linear time, every member reported.
#[test]
fn huge_manifests_are_checked_in_linear_time() {
    let unknown: Vec<String> = (0..160_000).map(|i| format!("\"x{i}\": {i}")).collect();
    let manifest = format!(
        "{{\"$schema\": \"https://agent-plugins.org/schemas/1.0.0/plugin.schema.json\", \"name\": \"invoice-ops\", {}, \"big\": 1e400}}",
        unknown.join(", ")
    );
    let servers: Vec<String> = (0..80_000)
        .map(|i| format!("\"s{i}\": {{\"type\": \"stdio\", \"command\": \"uvx\", \"args\": [\"a{i}\"]}}"))
        .collect();
    let mcp = format!(
        "{{\"$schema\": \"https://agent-plugins.org/schemas/1.0.0/mcp.schema.json\", \"mcpServers\": {{{}}}}}",
        servers.join(", ")
    );
    let report = check(&Tree::from_files([
        ("plugin.json".to_string(), manifest),
        ("mcp.json".to_string(), mcp),
    ]));
    assert_eq!(report.plugin.state, PluginState::Loaded);
    let unknown_fields = report.diagnostics.iter().filter(|d| d.code == "AP205").count();
    assert_eq!(
        unknown_fields, 160_001,
        "every unknown member, `1e400` included, is a number like any other"
    );
    assert_eq!(
        report.mcp.state,
        McpState::Loaded,
        "{:?}",
        codes(&report).iter().take(5).collect::<Vec<_>>()
    );
}
