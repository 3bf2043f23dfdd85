//! At most 250 bytes per entity for the side-by-side workload (100,000
//! entities in 100 partitions, six properties each: this crate's `entity`). Counted as
//! live heap bytes (what the engine asks the allocator for, before the allocator's own
//! rounding), so the figure is exact and does not depend on the machine's load. Natively the
//! resident set grows about 10% more (`engine-bench`'s memory figure).
// Counting needs a global allocator, which only unsafe code can be.
#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicIsize, Ordering};
use tablescope_bench::entity;
use tablescope_engine::Account;

/// The system allocator, counting the bytes currently allocated.
struct Counting;

static LIVE: AtomicIsize = AtomicIsize::new(0);

// SAFETY: forwards every call to `System` unchanged; only counts sizes.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LIVE.fetch_add(layout.size() as isize, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size() as isize, Ordering::Relaxed);
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        LIVE.fetch_add(
            new_size as isize - layout.size() as isize,
            Ordering::Relaxed,
        );
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static COUNTING: Counting = Counting;

#[test]
fn the_workload_takes_at_most_250_bytes_per_entity() {
    let mut account = Account::default();
    account.set_change_feed(false);
    account.create_table("Bench").unwrap();
    let before = LIVE.load(Ordering::Relaxed);
    for p in 0..100 {
        for i in 0..1_000 {
            account.insert("Bench", entity(p, i)).unwrap();
        }
    }
    let per_entity = (LIVE.load(Ordering::Relaxed) - before) as f64 / 100_000.0;
    println!("live heap per entity: {per_entity:.1} bytes");
    assert_eq!(account.table("Bench").unwrap().entity_count(), 100_000);
    assert!(
        per_entity <= 250.0,
        "{per_entity:.1} bytes per entity (target: at most 250)"
    );
}
