//! The one Myers diff every sequence goes through: array elements by hash
//! (`arrays`) and, in the wasm, lines by interned id (`unified`).
//!
//! `similar::capture_diff_slices` picks its algorithm at run time, so every
//! algorithm, instantiated for every element type and hook, lands in the binary
//! (in the wasm, 450 KB of `similar`). Calling Myers directly, on `u64`s only,
//! keeps one copy; the operations are the same as
//! `capture_diff_slices(Algorithm::Myers, old, new)`.

use similar::DiffOp;
use similar::algorithms::{Capture, Compact, Replace, myers};

/// The operations turning `old` into `new`, adjacent deletions and insertions
/// merged into replacements, as `similar::capture_diff_slices` returns them.
pub(crate) fn myers_ops(old: &[u64], new: &[u64]) -> Vec<DiffOp> {
    let mut hook = Compact::new(Replace::new(Capture::new()), old, new);
    match myers::diff(&mut hook, old, 0..old.len(), new, 0..new.len()) {
        Ok(()) => hook.into_inner().into_inner().into_ops(),
        Err(never) => match never {},
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use similar::{Algorithm, capture_diff_slices};

    proptest! {
        #[test]
        fn same_operations_as_similar(old in proptest::collection::vec(0u64..6, 0..60), new in proptest::collection::vec(0u64..6, 0..60)) {
            prop_assert_eq!(myers_ops(&old, &new), capture_diff_slices(Algorithm::Myers, &old, &new));
        }
    }
}
