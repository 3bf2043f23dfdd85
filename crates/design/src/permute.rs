//! Seeded, stateless mixing: a keyed permutation of `0..n` (so the generator can produce any
//! entity by its index, in chunks, and invert a position back to an index), and the stable
//! hash behind `hash(X) % B` key buckets.

/// SplitMix64's finaliser: a fixed, well-known 64-bit mixer (same output on every platform).
pub fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// FNV-1a (64-bit) over UTF-8 bytes: the bucket hash. Chosen because an application can
/// reproduce it in a few lines in any language: `h = 0xcbf29ce484222325; for b in bytes
/// { h ^= b; h *= 0x100000001b3 }`.
pub fn fnv1a(text: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// A key for one purpose, derived from the seed and names.
pub fn key(seed: u64, parts: &[&str]) -> u64 {
    let mut k = mix(seed);
    for p in parts {
        k = mix(k ^ fnv1a(p));
    }
    k
}

/// A keyed bijection on `0..n`: a balanced 4-round Feistel network over the smallest even
/// number of bits covering `n`, with cycle walking (values past `n` are permuted again until
/// they land inside; the domain is less than 4n, so a few steps on average).
#[derive(Debug, Clone, Copy)]
pub struct Permutation {
    n: u64,
    half_bits: u32,
    key: u64,
}

const ROUNDS: u64 = 4;

impl Permutation {
    pub fn new(n: u64, key: u64) -> Self {
        let bits = 64 - n.saturating_sub(1).leading_zeros();
        let half_bits = bits.div_ceil(2).max(1);
        Permutation { n, half_bits, key }
    }

    fn mask(&self) -> u64 {
        (1u64 << self.half_bits) - 1
    }

    fn round(&self, r: u64, x: u64) -> u64 {
        mix(self.key ^ (r << 56) ^ x) & self.mask()
    }

    fn forward_once(&self, x: u64) -> u64 {
        let (mut l, mut r) = (x >> self.half_bits, x & self.mask());
        for i in 0..ROUNDS {
            let next = l ^ self.round(i, r);
            l = r;
            r = next;
        }
        (l << self.half_bits) | r
    }

    fn backward_once(&self, x: u64) -> u64 {
        let (mut l, mut r) = (x >> self.half_bits, x & self.mask());
        for i in (0..ROUNDS).rev() {
            let prev = r ^ self.round(i, l);
            r = l;
            l = prev;
        }
        (l << self.half_bits) | r
    }

    /// The position of index `i` (`i < n`).
    pub fn apply(&self, i: u64) -> u64 {
        if self.n <= 1 {
            return i;
        }
        let mut x = self.forward_once(i);
        while x >= self.n {
            x = self.forward_once(x);
        }
        x
    }

    /// The index at position `p` (`p < n`): `invert(apply(i)) == i`.
    pub fn invert(&self, p: u64) -> u64 {
        if self.n <= 1 {
            return p;
        }
        let mut x = self.backward_once(p);
        while x >= self.n {
            x = self.backward_once(x);
        }
        x
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn permutation_is_a_bijection_and_inverts() {
        for n in [1u64, 2, 3, 10, 1000, 4097] {
            let p = Permutation::new(n, 42);
            let mut seen = vec![false; n as usize];
            for i in 0..n {
                let x = p.apply(i);
                assert!(x < n);
                assert!(!seen[x as usize], "n={n}: {x} twice");
                seen[x as usize] = true;
                assert_eq!(p.invert(x), i);
            }
        }
    }

    #[test]
    fn fnv1a_matches_the_published_vectors() {
        assert_eq!(fnv1a(""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a("a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a("foobar"), 0x8594_4171_f739_67e8);
    }
}
