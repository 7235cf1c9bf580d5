//! The import graph of `src/`, read from the source: no module imports
//! itself back through others (no cycle), and every arrow points down,
//! faces → core → leaves → the JSON toolkit, so that a module can be
//! understood and changed knowing only the ones below it.
//!
//! The JSON toolkit is a crate of its own (`crates/json`), a dependency of
//! this one, so nothing in it can import the domain: Cargo refuses the cycle.
//! Here it is one node, `crates/json`, below every file of `src/`, reached
//! through `crate::json::…` (the `json` module re-exports it whole) or
//! `apcheck_json::…`; its own files are not read.
//!
//! A node is one source file; an arrow is any path that names another file's
//! module: `use crate::…`, `super::…`, `self::child::…`, a child module by its
//! name, `apcheck::…` from the CLI, in items, expressions, types and macro
//! arguments alike. Test modules (`#[cfg(test)]`) are left out: a test may
//! reach anywhere. Paths are read with `syn`, so comments and strings never
//! count.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use proc_macro2::{TokenStream, TokenTree};
use syn::visit::Visit;

/// Which crate a file belongs to: the library, or the CLI binary (which
/// reaches the library as `apcheck::`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Crate {
    Library,
    Cli,
}

/// One module: the file it lives in, its crate and its path inside the crate.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Module {
    krate: Crate,
    path: Vec<String>,
}

/// Every `.rs` file under `dir`, relative to `src/`, sorted.
fn rust_files(dir: &Path, base: &Path, out: &mut Vec<String>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(&path, base, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let relative = path.strip_prefix(base).unwrap().to_string_lossy().replace('\\', "/");
            out.push(relative);
        }
    }
}

/// The module a file (relative to `src/`) defines, or `None` for files that
/// are no module of either crate (build scripts' includes and the like).
fn module_of(file: &str) -> Option<Module> {
    let stem = file.strip_suffix(".rs")?;
    let (krate, inner) = match stem.strip_prefix("bin/apcheck/") {
        Some(rest) => (Crate::Cli, rest),
        None => (Crate::Library, stem),
    };
    let mut path: Vec<String> = inner.split('/').map(str::to_string).collect();
    let last = path.last().map(String::as_str);
    if matches!(last, Some("mod"))
        || (krate == Crate::Cli && last == Some("main"))
        || (krate == Crate::Library && last == Some("lib"))
    {
        path.pop();
    }
    Some(Module { krate, path })
}

/// The JSON toolkit's crate, as a node of the graph.
const JSON_CRATE: &str = "crates/json";

/// The module of `src/` that re-exports the JSON toolkit whole (`pub use
/// apcheck_json::*`) beside modules of its own.
const JSON_FACADE: &str = "json";

/// How a node is named in messages: files from the repository's root.
fn shown(node: &str) -> String {
    if node == JSON_CRATE {
        node.to_string()
    } else {
        format!("src/{node}")
    }
}

/// The layer of a file: faces talk to the world, leaves know nothing of the
/// domain, and the core sits between; the JSON toolkit, a crate apcheck
/// depends on, is below them all.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Layer {
    Toolkit,
    Leaf,
    Core,
    Face,
}

fn layer(file: &str) -> Layer {
    if file == JSON_CRATE {
        return Layer::Toolkit;
    }
    const FACES: [&str; 3] = ["bin/", "wasm/", "live/"];
    // `schemas.rs` is data: the embedded schema texts, importing nothing.
    // `json/` is the toolkit's facade, with the built-in schemas and the tools' policy.
    const LEAVES: [&str; 6] = ["rule.rs", "diag.rs", "edit.rs", "source.rs", "schemas.rs", "redact.rs"];
    const LEAF_FOLDERS: [&str; 2] = ["json/", "source/"];
    if FACES.iter().any(|face| file.starts_with(face)) {
        Layer::Face
    } else if LEAVES.contains(&file) || LEAF_FOLDERS.iter().any(|folder| file.starts_with(folder)) {
        Layer::Leaf
    } else {
        Layer::Core
    }
}

fn has_cfg_test(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|attr| {
        attr.path().is_ident("cfg")
            && attr
                .parse_args::<syn::Meta>()
                .is_ok_and(|meta| meta.path().is_ident("test"))
    })
}

/// Collects every path of one file, as segment lists, with the inline
/// module (`mod name { … }`) it was written in.
#[derive(Default)]
struct Paths {
    inline: Vec<String>,
    found: Vec<(Vec<String>, Vec<String>)>,
}

impl Paths {
    fn push(&mut self, segments: Vec<String>) {
        if !segments.is_empty() {
            self.found.push((self.inline.clone(), segments));
        }
    }

    /// Paths inside macro arguments, which syn keeps as tokens: every
    /// `a::b::c` run.
    fn tokens(&mut self, tokens: TokenStream) {
        let mut run: Vec<String> = Vec::new();
        let mut colons = 0;
        for tree in tokens {
            match tree {
                TokenTree::Ident(ident) if run.is_empty() || colons == 2 => {
                    run.push(ident.to_string());
                    colons = 0;
                }
                TokenTree::Punct(punct) if punct.as_char() == ':' && !run.is_empty() && colons < 2 => {
                    colons += 1;
                }
                other => {
                    if run.len() > 1 {
                        self.push(std::mem::take(&mut run));
                    }
                    run.clear();
                    colons = 0;
                    if let TokenTree::Ident(ident) = other {
                        run.push(ident.to_string());
                    } else if let TokenTree::Group(group) = other {
                        self.tokens(group.stream());
                    }
                }
            }
        }
        if run.len() > 1 {
            self.push(run);
        }
    }

    fn use_tree(&mut self, prefix: &mut Vec<String>, tree: &syn::UseTree) {
        match tree {
            syn::UseTree::Path(path) => {
                prefix.push(path.ident.to_string());
                self.use_tree(prefix, &path.tree);
                prefix.pop();
            }
            syn::UseTree::Name(name) => {
                let mut full = prefix.clone();
                if name.ident != "self" {
                    full.push(name.ident.to_string());
                }
                self.push(full);
            }
            syn::UseTree::Rename(rename) => {
                let mut full = prefix.clone();
                if rename.ident != "self" {
                    full.push(rename.ident.to_string());
                }
                self.push(full);
            }
            syn::UseTree::Glob(_) => self.push(prefix.clone()),
            syn::UseTree::Group(group) => {
                for tree in &group.items {
                    self.use_tree(prefix, tree);
                }
            }
        }
    }
}

impl<'ast> Visit<'ast> for Paths {
    fn visit_item(&mut self, item: &'ast syn::Item) {
        let attrs = match item {
            syn::Item::Mod(item) => &item.attrs,
            syn::Item::Fn(item) => &item.attrs,
            syn::Item::Impl(item) => &item.attrs,
            syn::Item::Use(item) => &item.attrs,
            syn::Item::Const(item) => &item.attrs,
            syn::Item::Static(item) => &item.attrs,
            syn::Item::Struct(item) => &item.attrs,
            syn::Item::Enum(item) => &item.attrs,
            syn::Item::Macro(item) => &item.attrs,
            _ => &Vec::new(),
        };
        if has_cfg_test(attrs) {
            return;
        }
        syn::visit::visit_item(self, item);
    }

    fn visit_item_mod(&mut self, item: &'ast syn::ItemMod) {
        self.inline.push(item.ident.to_string());
        syn::visit::visit_item_mod(self, item);
        self.inline.pop();
    }

    fn visit_item_use(&mut self, item: &'ast syn::ItemUse) {
        self.use_tree(&mut Vec::new(), &item.tree);
    }

    /// `pub(crate)` and `pub(super)` say who may see an item, not what it uses.
    fn visit_visibility(&mut self, _: &'ast syn::Visibility) {}

    fn visit_path(&mut self, path: &'ast syn::Path) {
        self.push(path.segments.iter().map(|segment| segment.ident.to_string()).collect());
        syn::visit::visit_path(self, path);
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        self.tokens(mac.tokens.clone());
        syn::visit::visit_macro(self, mac);
    }
}

/// The import graph: file → files it names, each arrow with one path that
/// shows it.
struct Graph {
    arrows: BTreeMap<String, BTreeMap<String, String>>,
}

fn graph() -> Graph {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &src, &mut files);
    let modules: BTreeMap<Module, String> = files
        .iter()
        .filter_map(|file| module_of(file).map(|module| (module, file.clone())))
        .collect();
    let mut arrows: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    for (module, file) in &modules {
        let text = std::fs::read_to_string(src.join(file)).unwrap();
        let syntax = syn::parse_file(&text).unwrap_or_else(|error| panic!("src/{file}: {error}"));
        let mut paths = Paths::default();
        paths.visit_file(&syntax);
        let from = arrows.entry(file.clone()).or_default();
        for (inline, segments) in paths.found {
            let mut here = module.path.clone();
            here.extend(inline);
            let Some(target) = resolve(module.krate, &here, &segments, &modules) else {
                continue;
            };
            if target != *file {
                from.entry(target).or_insert_with(|| segments.join("::"));
            }
        }
    }
    Graph { arrows }
}

/// The file a path names, when it names a module of this project: the
/// longest prefix of the absolute path that is a module file, or the JSON
/// toolkit's crate for an item of it, named directly or through the facade.
fn resolve(krate: Crate, here: &[String], segments: &[String], modules: &BTreeMap<Module, String>) -> Option<String> {
    let (target_crate, mut absolute, rest): (Crate, Vec<String>, &[String]) = match segments[0].as_str() {
        "apcheck_json" => return Some(JSON_CRATE.to_string()),
        "crate" => (krate, Vec::new(), &segments[1..]),
        "apcheck" if krate == Crate::Cli => (Crate::Library, Vec::new(), &segments[1..]),
        "self" => (krate, here.to_vec(), &segments[1..]),
        "super" => {
            let mut at = here.to_vec();
            let mut rest = segments;
            while rest.first().is_some_and(|s| s == "super") {
                at.pop();
                rest = &rest[1..];
            }
            (krate, at, rest)
        }
        // A child module named without `self::`; a lone name is a value or
        // a type (a local named like a module), never the module itself.
        first if segments.len() > 1 => {
            let mut child = here.to_vec();
            child.push(first.to_string());
            let is_child = modules.contains_key(&Module { krate, path: child });
            if !is_child {
                return None;
            }
            (krate, here.to_vec(), segments)
        }
        _ => return None,
    };
    absolute.extend(rest.iter().cloned());
    // `json::x` where `x` is no file of the facade is the toolkit's; the
    // facade's own modules (`json::builtin`) resolve as any other.
    if target_crate == Crate::Library && absolute.len() > 1 && absolute[0] == JSON_FACADE {
        let own = Module {
            krate: Crate::Library,
            path: absolute[..2].to_vec(),
        };
        if !modules.contains_key(&own) {
            return Some(JSON_CRATE.to_string());
        }
    }
    (0..=absolute.len()).rev().find_map(|length| {
        modules
            .get(&Module {
                krate: target_crate,
                path: absolute[..length].to_vec(),
            })
            .cloned()
    })
}

/// Every cycle of the graph, one per strongly connected component, each as
/// the files it goes through with the path behind every arrow.
fn cycles(graph: &Graph) -> Vec<String> {
    // Tarjan's algorithm, iterative over an index of the files.
    let files: Vec<&String> = graph.arrows.keys().collect();
    let index_of: BTreeMap<&String, usize> = files.iter().enumerate().map(|(i, f)| (*f, i)).collect();
    let next: Vec<Vec<usize>> = files
        .iter()
        .map(|file| {
            graph.arrows[*file]
                .keys()
                .filter_map(|to| index_of.get(to).copied())
                .collect()
        })
        .collect();
    let mut components = Vec::new();
    let mut order = vec![usize::MAX; files.len()];
    let mut low = vec![0; files.len()];
    let mut on_stack = vec![false; files.len()];
    let mut stack = Vec::new();
    let mut counter = 0;
    for root in 0..files.len() {
        if order[root] != usize::MAX {
            continue;
        }
        let mut work = vec![(root, 0)];
        while let Some(&mut (node, ref mut child)) = work.last_mut() {
            if *child == 0 {
                order[node] = counter;
                low[node] = counter;
                counter += 1;
                stack.push(node);
                on_stack[node] = true;
            }
            if let Some(&to) = next[node].get(*child) {
                *child += 1;
                if order[to] == usize::MAX {
                    work.push((to, 0));
                } else if on_stack[to] {
                    low[node] = low[node].min(order[to]);
                }
                continue;
            }
            work.pop();
            if let Some(&(parent, _)) = work.last() {
                low[parent] = low[parent].min(low[node]);
            }
            if low[node] == order[node] {
                let mut component = BTreeSet::new();
                while let Some(member) = stack.pop() {
                    on_stack[member] = false;
                    component.insert(member);
                    if member == node {
                        break;
                    }
                }
                if component.len() > 1 {
                    components.push(component);
                }
            }
        }
    }
    components
        .iter()
        .map(|component| {
            // One concrete cycle through the component's first file: a
            // breadth-first walk inside the component back to it.
            let start = *component.iter().next().unwrap();
            let mut came_from: BTreeMap<usize, usize> = BTreeMap::new();
            let mut frontier = vec![start];
            'walk: while !frontier.is_empty() {
                let mut further = Vec::new();
                for node in frontier {
                    for &to in &next[node] {
                        if !component.contains(&to) || came_from.contains_key(&to) {
                            continue;
                        }
                        came_from.insert(to, node);
                        if to == start {
                            break 'walk;
                        }
                        further.push(to);
                    }
                }
                frontier = further;
            }
            let mut chain = vec![start];
            let mut at = came_from[&start];
            while at != start {
                chain.push(at);
                at = came_from[&at];
            }
            chain.push(start);
            chain.reverse();
            let steps: Vec<String> = chain
                .windows(2)
                .map(|pair| {
                    let (from, to) = (files[pair[0]], files[pair[1]]);
                    format!("{} → {} (`{}`)", shown(from), shown(to), graph.arrows[from][to])
                })
                .collect();
            let members: Vec<String> = component.iter().map(|&i| shown(files[i])).collect();
            format!(
                "cycle of {} files [{}]: {}",
                component.len(),
                members.join(", "),
                steps.join(", ")
            )
        })
        .collect()
}

#[test]
fn the_import_graph_has_no_cycle() {
    let found = cycles(&graph());
    assert!(
        found.is_empty(),
        "{} import cycle(s):\n{}",
        found.len(),
        found.join("\n")
    );
}

#[test]
fn arrows_point_from_faces_to_core_to_leaves() {
    let graph = graph();
    let mut wrong = Vec::new();
    for (from, targets) in &graph.arrows {
        // The crate root only declares the modules and re-exports the API.
        if from == "lib.rs" {
            continue;
        }
        for (to, path) in targets {
            if layer(to) > layer(from) {
                wrong.push(format!(
                    "{} ({:?}) → {} ({:?}) through `{path}`",
                    shown(from),
                    layer(from),
                    shown(to),
                    layer(to)
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "arrows pointing up:\n{}", wrong.join("\n"));
}

/// The scanner itself: it must see the arrows the tests above rely on, or
/// both could pass on an empty graph.
#[test]
fn the_scan_sees_use_super_and_child_paths() {
    let graph = graph();
    let arrow = |from: &str, to: &str| graph.arrows.get(from).is_some_and(|targets| targets.contains_key(to));
    assert!(arrow("diag.rs", "rule.rs"), "`use crate::rule::…`");
    assert!(arrow("source.rs", JSON_CRATE), "`apcheck_json::…`");
    assert!(arrow("json/mod.rs", JSON_CRATE), "the facade's glob re-export");
    assert!(
        arrow("source/json.rs", JSON_CRATE),
        "`crate::json::…` through the facade"
    );
    assert!(arrow("json/tools.rs", "json/builtin.rs"), "the facade's own module");
    assert!(
        arrow("bin/apcheck/main.rs", "bin/apcheck/check.rs"),
        "a child module by name"
    );
    assert!(
        graph
            .arrows
            .keys()
            .any(|file| file.starts_with("bin/") && graph.arrows[file].contains_key("registry.rs")),
        "`apcheck::…` from the CLI"
    );
}

/// The cycle finder names the files of a cycle and the path behind each arrow.
#[test]
fn a_cycle_is_named_with_its_arrows() {
    let arrow = |from: &str, to: &[(&str, &str)]| {
        let targets = to
            .iter()
            .map(|(file, path)| (file.to_string(), path.to_string()))
            .collect();
        (from.to_string(), targets)
    };
    let graph = Graph {
        arrows: BTreeMap::from([
            arrow("a.rs", &[("b.rs", "crate::b::B")]),
            arrow("b.rs", &[("a.rs", "super::A"), ("c.rs", "crate::c")]),
            arrow("c.rs", &[]),
        ]),
    };
    assert_eq!(
        cycles(&graph),
        [
            "cycle of 2 files [src/a.rs, src/b.rs]: src/a.rs → src/b.rs (`crate::b::B`), src/b.rs → src/a.rs (`super::A`)"
        ]
    );
}
