//! The `apcheck` command line: reads disk into trees, calls the core, renders, sets the exit code.
fn main() {
    println!("apcheck {}", env!("CARGO_PKG_VERSION"));
}
