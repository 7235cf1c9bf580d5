//! Reading and checking a plugin on every core gives the report one thread
//! gives, byte for byte: the skill folders are looked at (`src/disk.rs`) and
//! checked (`rules::skills::discovery`) in parallel, and their answers are
//! put back in listing order. The generated plugin has more skills than one
//! parallel chunk holds, links that stay inside the root and links that
//! leave it (§4.1), near misses that are not discovered (§7.1), broken
//! skills, folders that cannot be listed or entered, and the entry limit
//! cutting through the skills.
#![cfg(unix)]

use std::fs;
use std::os::unix::fs::{PermissionsExt, symlink};
use std::path::Path;
use std::process::Output;

use apcheck::disk::list_tree;
use apcheck::tree::{Limits, Tree};

#[path = "support/unprivileged.rs"]
mod unprivileged;
use unprivileged::{apcheck_unprivileged, reachable_tempdir};

const MANIFEST: &str =
    "{\"$schema\": \"https://agent-plugins.org/schemas/1.0.0/plugin.schema.json\", \"name\": \"many-skills\"}";
/// More than the 1,024 skill folders each parallel step takes, so the
/// answers of several steps are merged.
const SKILLS: usize = 2_500;

fn skill(name: &str, extra: &str) -> String {
    format!("---\nname: {name}\ndescription: Does task {name} when the user asks for it.\n{extra}---\n# {name}\n")
}

fn write(path: &Path, text: &str) {
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, text).unwrap();
}

fn chmod(path: &Path, mode: u32) {
    fs::set_permissions(path, fs::Permissions::from_mode(mode)).unwrap();
}

/// `base/plugin` with [`SKILLS`] skill folders of every kind, and `base/outside`.
/// Returns the folders to lock: (cannot be entered, can be entered but not listed).
fn generate(base: &Path) -> (Vec<String>, Vec<String>) {
    let root = base.join("plugin");
    let skills = root.join("skills");
    write(&root.join("plugin.json"), MANIFEST);
    write(&base.join("outside/SKILL.md"), &skill("outside", ""));
    let (mut closed, mut unlistable) = (Vec::new(), Vec::new());
    for i in 0..SKILLS {
        let name = format!("s{i:04}");
        let dir = skills.join(&name);
        match i % 12 {
            // A folder linked to another skill's folder, inside the root.
            0 if i > 0 => symlink(format!("s{:04}", i - 1), &dir).unwrap(),
            // A folder linked outside the root: skipped (§4.1).
            1 => symlink("../../outside", &dir).unwrap(),
            // Near misses: another casing, a skill one level too deep (§7.1).
            2 => write(&dir.join("skill.md"), &skill(&name, "")),
            3 => write(&dir.join("group/inner/SKILL.md"), &skill("inner", "")),
            // Broken: no description; a YAML 1.1 boolean; a name that is not the folder's.
            4 => write(&dir.join("SKILL.md"), &format!("---\nname: {name}\n---\n")),
            5 => write(&dir.join("SKILL.md"), &skill(&name, "beta: yes\n")),
            6 => write(&dir.join("SKILL.md"), &skill("another-name", "")),
            // SKILL.md linked to a sibling skill's, and one linked out of the root.
            7 => {
                fs::create_dir_all(&dir).unwrap();
                symlink(format!("../s{:04}/SKILL.md", i - 1), dir.join("SKILL.md")).unwrap();
            }
            8 => {
                fs::create_dir_all(&dir).unwrap();
                symlink("../../../outside/SKILL.md", dir.join("SKILL.md")).unwrap();
            }
            // More files than SKILL.md, some deeper.
            9 => {
                write(&dir.join("SKILL.md"), &skill(&name, ""));
                write(&dir.join("references/guide.md"), "# Guide\n");
                write(&dir.join("scripts/run.sh"), "echo run\n");
            }
            // Folders the check cannot enter, or can enter but not list.
            10 if i % 24 == 10 => {
                write(&dir.join("SKILL.md"), &skill(&name, ""));
                closed.push(format!("plugin/skills/{name}"));
            }
            10 => {
                write(&dir.join("SKILL.md"), &skill(&name, ""));
                unlistable.push(format!("plugin/skills/{name}"));
            }
            _ => write(&dir.join("SKILL.md"), &skill(&name, "")),
        }
    }
    (closed, unlistable)
}

/// The tree's entries and the report, as text, read and checked on `threads` threads.
fn check_on(threads: usize, root: &Path, limits: Limits) -> (String, String) {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
    pool.install(|| {
        let tree: Tree = list_tree(root, limits).unwrap();
        let report = apcheck::check_package("plugin", &tree);
        let entries: Vec<String> = tree
            .entries()
            .map(|(path, entry)| format!("{path} {entry:?}"))
            .collect();
        (entries.join("\n"), serde_json::to_string_pretty(&report).unwrap())
    })
}

#[test]
fn one_thread_and_many_read_and_check_the_same_plugin_the_same_way() {
    let dir = tempfile::tempdir().unwrap();
    generate(dir.path());
    let root = dir.path().join("plugin");
    // Everything, then the entry limit cutting through the skill folders.
    for max_entries in [Limits::default().max_entries, 1_777] {
        let limits = Limits {
            max_entries,
            ..Limits::default()
        };
        let serial = check_on(1, &root, limits);
        let parallel = check_on(4, &root, limits);
        assert!(serial.0 == parallel.0, "the trees differ at max_entries {max_entries}");
        assert!(
            serial.1 == parallel.1,
            "the reports differ at max_entries {max_entries}"
        );
        let report: serde_json::Value = serde_json::from_str(&serial.1).unwrap();
        let codes: Vec<&str> = report["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d["code"].as_str().unwrap())
            .collect();
        // The plugin is as varied as it claims: links out, broken skills, near
        // misses (read after every SKILL.md, so only when the limit is not hit).
        let cut = max_entries < Limits::default().max_entries;
        let expected: &[&str] = if cut {
            &["AP007", "AP101", "AP309", "AP316"]
        } else {
            &["AP101", "AP302", "AP303", "AP309", "AP316"]
        };
        for code in expected {
            assert!(codes.contains(code), "{code} in {codes:?}");
        }
        assert_eq!(codes.contains(&"AP007"), cut);
    }
}

/// `apcheck check --format json` as a user the permissions apply to, on `threads` threads.
fn check_process(threads: usize, root: &Path) -> Output {
    apcheck_unprivileged()
        .env("RAYON_NUM_THREADS", threads.to_string())
        .args(["check", "--format", "json"])
        .arg(root)
        .output()
        .expect("apcheck runs (setpriv is util-linux, installed everywhere)")
}

#[test]
fn unreadable_skill_folders_are_reported_the_same_on_one_thread_and_many() {
    let dir = reachable_tempdir();
    let (closed, unlistable) = generate(dir.path());
    for (folders, mode) in [(&closed, 0o000), (&unlistable, 0o311)] {
        for folder in folders {
            chmod(&dir.path().join(folder), mode);
        }
    }
    let root = dir.path().join("plugin");
    let serial = check_process(1, &root);
    let parallel = check_process(4, &root);
    for folder in closed.iter().chain(&unlistable) {
        chmod(&dir.path().join(folder), 0o755);
    }
    let text = String::from_utf8_lossy(&serial.stdout);
    assert_eq!(
        serial.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&serial.stderr)
    );
    assert!(serial.stdout == parallel.stdout, "the reports differ");
    assert_eq!(parallel.status.code(), serial.status.code());
    // Both kinds of locked folder are in the report: AP011 (not entered), AP010 (not listed).
    assert!(text.contains("\"AP011\"") && text.contains("\"AP010\""), "{text}");
}
