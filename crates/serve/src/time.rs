//! What the engine must be told rather than read: the time, from the system clock, and
//! fresh request ids.

use std::cell::Cell;
use std::time::{SystemTime, UNIX_EPOCH};
use tablescope_engine::DateTime;

/// 1970-01-01T00:00:00Z in ticks of 100 ns since 1601-01-01 (the engine's epoch).
const UNIX_EPOCH_TICKS: i64 = 11_644_473_600 * 10_000_000;

/// The system clock as the engine's DateTime, at its full 100 ns precision.
pub fn now() -> DateTime {
    let since = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default();
    let ticks = i64::try_from(since.as_secs())
        .ok()
        .and_then(|s| s.checked_mul(10_000_000))
        .and_then(|t| t.checked_add(i64::from(since.subsec_nanos() / 100)))
        .and_then(|t| t.checked_add(UNIX_EPOCH_TICKS));
    ticks
        .and_then(DateTime::from_ticks)
        .unwrap_or(DateTime::MIN)
}

/// A request id as the service writes `x-ms-request-id`: a random (v4) UUID.
///
/// An id only has to be unique, not unguessable: its bits come from a per-thread SplitMix64
/// seeded once from the OS, not from a `getrandom` system call per request.
pub fn request_id() -> String {
    thread_local! {
        static STATE: Cell<u64> = Cell::new({
            let seed = *uuid::Uuid::new_v4().as_bytes();
            u64::from_le_bytes(seed[..8].try_into().unwrap_or_default())
        });
    }
    let mut bytes = [0u8; 16];
    STATE.with(|state| {
        for half in bytes.chunks_exact_mut(8) {
            let next = state.get().wrapping_add(0x9e37_79b9_7f4a_7c15);
            state.set(next);
            let mut z = next;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            half.copy_from_slice(&(z ^ (z >> 31)).to_le_bytes());
        }
    });
    // Encoded straight into a buffer: `to_string` would go through the formatting machinery.
    let mut text = [0u8; uuid::fmt::Hyphenated::LENGTH];
    uuid::Builder::from_random_bytes(bytes)
        .into_uuid()
        .hyphenated()
        .encode_lower(&mut text)
        .to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_unix_epoch_in_ticks() {
        assert_eq!(
            DateTime::from_unix_millis(0).map(DateTime::ticks),
            Some(UNIX_EPOCH_TICKS)
        );
    }

    #[test]
    fn now_is_this_century_and_ids_are_fresh() {
        let text = now().to_string();
        assert!(text.starts_with("20"), "{text}");
        let (a, b) = (request_id(), request_id());
        assert_eq!((a.len(), a.as_bytes()[14]), (36, b'4'));
        assert_ne!(a, b);
    }
}
