//! The wasm face: thin, JSON text in and out, user mistakes returned as data.
//! Built only for `wasm32`; the page's worker (`www/worker.js`) is its one caller.

use wasm_bindgen::prelude::*;

pub mod json;

use crate::tree::{Entry, Tree};

pub mod snapshot;

#[wasm_bindgen(start)]
pub fn start() {
    console_error_panic_hook::set_once();
}

/// A package tree assembled by the page from a drop, a picked folder or pasted text.
#[wasm_bindgen]
#[derive(Default)]
pub struct PackageTree {
    tree: Tree,
}

#[wasm_bindgen]
impl PackageTree {
    #[wasm_bindgen(constructor)]
    pub fn new() -> PackageTree {
        PackageTree::default()
    }

    #[wasm_bindgen(js_name = addFile)]
    pub fn add_file(&mut self, path: &str, bytes: &[u8]) {
        self.tree.insert(path, Entry::File(bytes.to_vec()));
    }

    #[wasm_bindgen(js_name = addDir)]
    pub fn add_dir(&mut self, path: &str) {
        self.tree.insert(path, Entry::Dir);
    }

    #[wasm_bindgen(js_name = addSymlink)]
    pub fn add_symlink(&mut self, path: &str, target: &str) {
        self.tree.insert(path, Entry::Symlink(target.to_string()));
    }

    /// Runs the package check; returns the `PackageReport` as JSON text.
    pub fn check(&self, root_name: &str) -> String {
        let report = crate::check_package(root_name, &self.tree);
        serde_json::to_string(&report).expect("a report always serializes")
    }
}
