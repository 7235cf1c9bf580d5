//! The wasm's allocator: talc, over a memory that grows in steps proportional
//! to its size. talc's own wasm source grows by just what the failing
//! allocation needs (usually one 64 KiB page), so building the two `Value`
//! trees of a 15 MB diff called `memory.grow` thousands of times: 5.6% of
//! the diff's time in a profile, with as much again spent re-registering the
//! new space. A step of a quarter of the memory (at least 1 MiB) makes that a
//! few dozen calls; memory the page never touches stays uncommitted.

use core::alloc::Layout;
use core::arch::wasm32::{memory_grow, memory_size};
use core::ptr::NonNull;

use talc::base::binning::Binning;
use talc::base::{CHUNK_UNIT, Talc};
use talc::cell::TalcSyncCell;
use talc::wasm::WasmBinning;

const PAGE_BYTES: usize = 64 * 1024;
const MIN_STEP_PAGES: usize = 16;

/// The global allocator's type: talc with its wasm size classes and [`GrowInSteps`].
pub type Heap = TalcSyncCell<GrowInSteps, WasmBinning>;

/// The allocator, for `#[global_allocator]`.
pub const fn heap() -> Heap {
    TalcSyncCell::new_wasm(GrowInSteps { end: None })
}

/// A talc source that claims the wasm memory it grows, extending its one
/// heap when the new pages follow it (they do unless something else grew
/// the memory in between).
#[derive(Debug)]
pub struct GrowInSteps {
    end: Option<NonNull<u8>>,
}

// SAFETY: `acquire` only grows the wasm memory and hands talc the new pages,
// which nothing else uses; it allocates nothing itself.
unsafe impl talc::source::Source for GrowInSteps {
    fn acquire<B: Binning>(talc: &mut Talc<Self, B>, layout: Layout) -> Result<(), ()> {
        // Room for the chunk, its alignment padding and a heap's own overhead.
        let needed = (layout.size() + layout.align() + 4 * CHUNK_UNIT).div_ceil(PAGE_BYTES);
        let step = needed.max(memory_size::<0>() / 4).max(MIN_STEP_PAGES);
        // Near the memory's limit the step may not fit where the need still does.
        let (previous_pages, pages) = match memory_grow::<0>(step) {
            usize::MAX => match memory_grow::<0>(needed) {
                usize::MAX => return Err(()),
                previous => (previous, needed),
            },
            previous => (previous, step),
        };
        let base = (previous_pages * PAGE_BYTES) as *mut u8;
        let bytes = pages * PAGE_BYTES;
        // The top of a full 4 GiB memory is `usize::MAX`, not a wrapped null.
        let end = base.wrapping_add(bytes.min(usize::MAX - base as usize));
        if let Some(old_end) = talc.source.end.take()
            && old_end.as_ptr() == base
        {
            // SAFETY: `old_end` is the end of the heap talc returned last time,
            // and the pages from there to `end` were just grown for it.
            talc.source.end = Some(unsafe { talc.extend(old_end, end) });
            return Ok(());
        }
        // SAFETY: the pages from `base` were just grown and belong to no one.
        talc.source.end = unsafe { talc.claim(base, bytes) };
        if talc.source.end.is_some() { Ok(()) } else { Err(()) }
    }
}
