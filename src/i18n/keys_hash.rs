// Shared by build.rs (which writes `KEYS_HASH` into the generated catalogue) and
// `i18n::catalogue` (which checks a downloaded catalogue against it), through `include!`, so
// the two can never hash differently.

/// FNV-1a 64 of each key's UTF-8 and a `\n`, in order: the identity of a catalogue's key list.
pub fn keys_hash<K: AsRef<str>>(keys: impl Iterator<Item = K>) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for key in keys {
        for &b in key.as_ref().as_bytes().iter().chain(b"\n") {
            hash ^= u64::from(b);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
    }
    hash
}
