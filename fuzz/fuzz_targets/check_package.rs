//! Any bytes, as a small plugin root: `check_package` and every renderer must
//! neither panic nor hang, whatever the files hold or the links point at.
//!
//! Input layout: the first byte picks which links exist; the rest is split on
//! `0xFF` (a byte that never occurs in UTF-8, so contents can still be any
//! other bytes, valid UTF-8 or not) into plugin.json, mcp.json, a SKILL.md and
//! a link target.

#![no_main]

use apcheck::render::text::{TextOptions, render_report};
use apcheck::render::{github, markdown, sarif};
use apcheck::tree::{Entry, Tree};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&flags, rest)) = data.split_first() else {
        return;
    };
    let mut parts = rest.split(|&b| b == 0xFF);
    let manifest = parts.next().unwrap_or_default();
    let mcp = parts.next().unwrap_or_default();
    let skill = parts.next().unwrap_or_default();
    let target = String::from_utf8_lossy(parts.next().unwrap_or_default()).into_owned();

    let mut tree = Tree::new();
    if flags & 1 == 0 {
        tree.insert("plugin.json", Entry::File(manifest.to_vec()));
    } else {
        // The manifest reached through a link, as §4.1 allows inside the root.
        tree.insert("meta/real.json", Entry::File(manifest.to_vec()));
        tree.insert("plugin.json", Entry::Symlink("meta/real.json".into()));
    }
    tree.insert("mcp.json", Entry::File(mcp.to_vec()));
    tree.insert("skills/x/SKILL.md", Entry::File(skill.to_vec()));
    if flags & 2 != 0 {
        tree.insert("skills/y", Entry::Symlink(target.clone()));
    }
    if flags & 4 != 0 {
        tree.insert("skills/x/SKILL.md", Entry::Symlink(target.clone()));
    }
    if flags & 8 != 0 {
        tree.insert("mcp.json", Entry::Symlink(target));
    }
    if flags & 16 != 0 {
        tree.insert("skills/z", Entry::Other("a FIFO".into()));
    }

    let report = apcheck::check_package("fuzz", &tree);
    let _ = render_report(&report, &tree, TextOptions::default());
    let reports = [report];
    let _ = github::render(&reports);
    let _ = markdown::render(&reports);
    let _ = sarif::render(&reports, Some("/repo"));
    let _ = serde_json::to_string(&reports[0]).expect("a report serializes");
});
