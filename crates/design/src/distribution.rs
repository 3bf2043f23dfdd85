//! Stratified value distributions.
//!
//! Each categorical property (uniform, Zipf, choice) of an entity type is stratified on its
//! own keyed permutation of the entities: entity `i` takes position `r = perm(i)` in `0..n`,
//! and the property's categories split the positions by their cumulative probabilities,
//! rounded (`bound(a) = floor(n·F(a) + 0.5)`). So every value holds exactly its share of
//! the entities, rounded, at every size, and the permutations being keyed by the property's
//! name, two properties are independent: a combination of values holds its expected share,
//! give or take sampling error. The projector uses the same arithmetic to count one property
//! exactly without storing, and the expectation for a combination.
//!
//! Timestamps are stratified on their own permutation: position `p` gets
//! `from + floor((2p + 1)·span / 2n)`, so each day holds exactly its share.

/// The categories of one categorical property and their cumulative probabilities.
#[derive(Debug, Clone, PartialEq)]
pub enum Categories {
    /// `k` equally likely categories (exact integer arithmetic).
    Uniform { k: u64 },
    /// Cumulative probabilities: `cdf[0] = 0`, `cdf[k] = 1`, non-decreasing.
    Weighted { cdf: Vec<f64> },
}

impl Categories {
    /// Categories in proportion to `weights` (validated: none negative, not all zero).
    pub fn weighted(weights: &[f64]) -> Categories {
        let total: f64 = weights.iter().sum();
        let mut cdf = Vec::with_capacity(weights.len() + 1);
        cdf.push(0.0);
        let mut run = 0.0;
        for w in weights {
            run += w;
            cdf.push(run / total);
        }
        if let Some(last) = cdf.last_mut() {
            *last = 1.0;
        }
        Categories::Weighted { cdf }
    }

    /// Zipf over ranks `1..=n` with exponent `s`.
    pub fn zipf(n: u64, s: f64) -> Categories {
        let mut cdf = Vec::with_capacity(n as usize + 1);
        cdf.push(0.0);
        let mut total = 0.0;
        for k in 1..=n {
            total += (k as f64).powf(-s);
            cdf.push(total);
        }
        for c in cdf.iter_mut() {
            *c /= total;
        }
        if let Some(last) = cdf.last_mut() {
            *last = 1.0;
        }
        Categories::Weighted { cdf }
    }

    pub fn k(&self) -> u64 {
        match self {
            Categories::Uniform { k } => *k,
            Categories::Weighted { cdf } => cdf.len().saturating_sub(1) as u64,
        }
    }

    /// The first position of category `a` in a block of `c` positions.
    pub fn bound(&self, c: u64, a: u64) -> u64 {
        match self {
            Categories::Uniform { k } => {
                let k = (*k).max(1);
                // u64 when it cannot overflow (every generated size); u128 beyond.
                match c
                    .checked_mul(a)
                    .and_then(|ca| ca.checked_mul(2))
                    .and_then(|x| x.checked_add(k))
                {
                    Some(x) => x / (2 * k),
                    None => ((2 * c as u128 * a as u128 + k as u128) / (2 * k as u128)) as u64,
                }
            }
            Categories::Weighted { cdf } => {
                let f = cdf.get(a as usize).copied().unwrap_or(1.0);
                ((c as f64) * f + 0.5).floor().min(c as f64) as u64
            }
        }
    }

    /// The category holding position `q` of a block of `c` (`q < c`).
    pub fn locate(&self, c: u64, q: u64) -> u64 {
        if let Categories::Uniform { k } = self {
            // Equal shares: the category is (2q + 1)·k / 2c give or take one for rounding.
            let k = *k;
            let c2 = 2 * c.max(1);
            let guess = match (2 * q + 1).checked_mul(k) {
                Some(x) => x / c2,
                None => ((2 * q as u128 + 1) * k as u128 / c2 as u128) as u64,
            };
            let mut a = guess.min(k.saturating_sub(1));
            while a + 1 < k && self.bound(c, a + 1) <= q {
                a += 1;
            }
            while a > 0 && self.bound(c, a) > q {
                a -= 1;
            }
            return a;
        }
        let (mut lo, mut hi) = (0u64, self.k());
        // Invariant: bound(lo) <= q < bound(hi).
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2;
            if self.bound(c, mid) <= q {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        lo
    }

    /// How many of a block of `c` fall in category `a`.
    pub fn count(&self, c: u64, a: u64) -> u64 {
        self.bound(c, a + 1) - self.bound(c, a)
    }

    pub fn weight(&self, a: u64) -> f64 {
        match self {
            Categories::Uniform { k } => 1.0 / (*k).max(1) as f64,
            Categories::Weighted { cdf } => {
                let at = |i: u64| cdf.get(i as usize).copied().unwrap_or(1.0);
                at(a + 1) - at(a)
            }
        }
    }

    /// The most likely category (the first of equals).
    pub fn heaviest(&self) -> u64 {
        match self {
            Categories::Uniform { .. } => 0,
            Categories::Weighted { .. } => {
                (0..self.k())
                    .fold((0, -1.0), |best, a| {
                        let w = self.weight(a);
                        if w > best.1 {
                            (a, w)
                        } else {
                            best
                        }
                    })
                    .0
            }
        }
    }
}

/// What a count asks of one categorical property.
#[derive(Debug, Clone, PartialEq)]
pub enum Constraint {
    Any,
    Is(u64),
    OneOf(Vec<u64>),
}

/// The categorical properties of an entity type, in declaration order (each a *level*).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Chain {
    pub levels: Vec<Categories>,
}

impl Chain {
    /// How many of `n` entities satisfy every constraint: exact (the generator's own
    /// rounding) for one constrained property, the expectation `n · Π share` for several,
    /// since the properties are independent.
    pub fn count(&self, n: u64, constraints: &[Constraint]) -> f64 {
        let mut expected: Option<f64> = None;
        for (level, c) in self.levels.iter().zip(constraints) {
            let matching = match c {
                Constraint::Any => continue,
                Constraint::Is(a) => level.count(n, *a),
                Constraint::OneOf(set) => set.iter().map(|a| level.count(n, *a)).sum(),
            } as f64;
            expected = Some(match expected {
                None => matching,
                Some(e) => e * matching / n.max(1) as f64,
            });
        }
        expected.unwrap_or(n as f64)
    }

    /// How many properties `constraints` constrain.
    pub fn constrained(constraints: &[Constraint]) -> usize {
        constraints
            .iter()
            .filter(|c| **c != Constraint::Any)
            .count()
    }
}

/// 100 ns ticks in a day (DateTime counts from midnight, 1601-01-01).
pub const TICKS_PER_DAY: i64 = 864_000_000_000;

/// Instants stratified over `[from, from + span)` ticks.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Timeline {
    pub from: i64,
    pub span: i64,
}

impl Timeline {
    /// The instant at position `p` of `n`.
    pub fn at(&self, n: u64, p: u64) -> i64 {
        let n = n.max(1) as i128;
        self.from + (((2 * p as i128 + 1) * self.span as i128) / (2 * n)) as i64
    }

    /// The first position whose instant is at or after `t` (clipped to `0..=n`).
    fn first_at_or_after(&self, n: u64, t: i64) -> u64 {
        let x = (t - self.from) as i128;
        let two_n = 2 * n as i128;
        let span = (self.span as i128).max(1);
        let num = two_n * x - span;
        let p = if num <= 0 {
            0
        } else {
            (num + 2 * span - 1) / (2 * span)
        };
        p.clamp(0, n as i128) as u64
    }

    /// How many of `n` instants fall in `[start, end)`.
    pub fn count_between(&self, n: u64, start: i64, end: i64) -> u64 {
        self.first_at_or_after(n, end) - self.first_at_or_after(n, start)
    }

    /// The days the range overlaps, as day numbers.
    pub fn days(&self) -> std::ops::Range<i64> {
        let first = self.from.div_euclid(TICKS_PER_DAY);
        let last = (self.from + self.span - 1).div_euclid(TICKS_PER_DAY);
        first..last + 1
    }

    /// How many of `n` instants fall on `days` days from day number `day`.
    pub fn count_on_days(&self, n: u64, day: i64, days: i64) -> u64 {
        self.count_between(n, day * TICKS_PER_DAY, (day + days) * TICKS_PER_DAY)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uniform_blocks_split_exactly() {
        let u = Categories::Uniform { k: 3 };
        assert_eq!(
            (0..3).map(|a| u.count(10, a)).collect::<Vec<_>>(),
            [3, 4, 3]
        );
        assert_eq!(u.locate(10, 0), 0);
        assert_eq!(u.locate(10, 3), 1);
        assert_eq!(u.locate(10, 9), 2);
    }

    #[test]
    fn uniform_locate_agrees_with_the_bounds() {
        for k in [1u64, 2, 3, 7, 26, 100, 1000] {
            for c in [1u64, 2, 5, 26, 99, 1000, 4321] {
                let u = Categories::Uniform { k };
                for q in 0..c {
                    let a = u.locate(c, q);
                    assert!(
                        u.bound(c, a) <= q && q < u.bound(c, a + 1),
                        "k={k} c={c} q={q} a={a}"
                    );
                }
            }
        }
        // Sizes past u64 arithmetic take the u128 path.
        let u = Categories::Uniform { k: 1_000_000_000 };
        let c = 10_000_000_000_000u64;
        assert_eq!(u.bound(c, 1), 10_000);
        assert_eq!(u.locate(c, 10_000), 1);
    }

    #[test]
    fn zipf_counts_follow_the_weights() {
        let z = Categories::zipf(4, 1.0);
        // Weights 12/25, 6/25, 4/25, 3/25 of 100.
        assert_eq!(
            (0..4).map(|a| z.count(100, a)).collect::<Vec<_>>(),
            [48, 24, 16, 12]
        );
    }

    #[test]
    fn chain_counts_one_property_exactly_and_combinations_by_expectation() {
        let chain = Chain {
            levels: vec![Categories::zipf(4, 1.0), Categories::Uniform { k: 5 }],
        };
        assert_eq!(
            chain.count(100, &[Constraint::Is(0), Constraint::Any]),
            48.0
        );
        assert_eq!(
            chain.count(100, &[Constraint::Any, Constraint::OneOf(vec![1, 2])]),
            40.0
        );
        // 48 of 100 and 20 of 100: 9.6 expected.
        let both = chain.count(100, &[Constraint::Is(0), Constraint::Is(3)]);
        assert!((both - 9.6).abs() < 1e-9, "{both}");
    }

    #[test]
    fn weighted_categories_follow_the_weights() {
        let w = Categories::weighted(&[1.0, 6.0, 2.0, 1.0]);
        assert_eq!(
            (0..4).map(|a| w.count(1000, a)).collect::<Vec<_>>(),
            [100, 600, 200, 100]
        );
        assert_eq!(w.heaviest(), 1);
    }

    #[test]
    fn timeline_day_counts_match_positions() {
        let t = Timeline {
            from: 5 * TICKS_PER_DAY + 7,
            span: 3 * TICKS_PER_DAY,
        };
        let n = 1001;
        for day in t.days() {
            let want = (0..n)
                .filter(|p| t.at(n, *p).div_euclid(TICKS_PER_DAY) == day)
                .count();
            assert_eq!(t.count_on_days(n, day, 1), want as u64, "day {day}");
        }
    }
}
