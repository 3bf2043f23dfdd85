//! Counting without storing: how many entities of a type share a drawn entity's partition,
//! or also satisfy a read's property conditions, at any size. Exact where the generator's
//! arithmetic can be replayed (one categorical property, days of a timeline), the
//! expectation where independent parts combine (two properties, a hash bucket beside a day).

use super::distribution::{Categories, Chain, Constraint, Timeline, TICKS_PER_DAY};
use super::model::ConditionOp;
use super::permute::fnv1a;
use super::sample::{value_of, Drawn, Source, TypeModel};
use super::template::{Expr, Format, Raw};
use std::cell::RefCell;
use std::collections::HashMap;
use tablescope_engine::Value;

/// Caches the per-category work (bucket masses, prefix matches) of one projection.
#[derive(Default)]
pub struct Counter {
    buckets: RefCell<HashMap<(String, String, u64), Vec<f64>>>,
    prefixes: RefCell<HashMap<(String, String, String), Vec<u64>>>,
}

/// What a count is asked for.
pub struct Ask<'a> {
    /// Within the drawn entity's partition (else the whole type).
    pub in_partition: bool,
    /// The bucket a fan-out request names (else the drawn entity's own); ignored when
    /// `all_buckets`.
    pub bucket: Option<u64>,
    /// Count every bucket (the partition set of a whole fan-out call).
    pub all_buckets: bool,
    /// Property conditions of the read, with the drawn entity's values.
    pub conditions: &'a [(&'a str, ConditionOp)],
    /// With `in_partition`: only the PartitionKey's fields through this property count (a
    /// PartitionKey prefix through a field: the partitions that share it).
    pub pk_through: Option<&'a str>,
    /// Also the RowKey's fields through this property (a RowKey prefix through a field).
    pub rk_through: Option<&'a str>,
    /// Also the RowKey's fields before this property, and this one within `span` values of
    /// the drawn entity's (a RowKey range).
    pub rk_range: Option<(&'a str, u32)>,
}

impl Ask<'_> {
    /// The drawn entity's partition (or the whole type), no further condition.
    pub fn partition(in_partition: bool) -> Ask<'static> {
        Ask {
            in_partition,
            bucket: None,
            all_buckets: false,
            conditions: &[],
            pk_through: None,
            rk_through: None,
            rk_range: None,
        }
    }
}

fn category_text(model: &TypeModel, property: &str, level: &Categories, a: u64) -> String {
    let _ = level;
    match (
        model.def(property),
        model
            .sources
            .iter()
            .zip(&model.ty.properties)
            .find(|(_, p)| p.name == property),
    ) {
        (Some(def), Some((Source::Chain { first, .. }, _))) => {
            value_of(def, &Raw::Ord(first + a as i64)).display_text()
        }
        _ => String::new(),
    }
}

impl Counter {
    /// The share of a type's entities in each bucket of `hash(property) % buckets`.
    fn bucket_weights(&self, model: &TypeModel, property: &str, buckets: u64) -> Vec<f64> {
        let key = (model.root.name.clone(), property.to_string(), buckets);
        if let Some(w) = self.buckets.borrow().get(&key) {
            return w.clone();
        }
        let mut w = vec![0.0; buckets as usize];
        match model
            .level_of(property)
            .and_then(|l| model.chain.levels.get(l))
        {
            Some(level) => {
                for a in 0..level.k() {
                    let text = category_text(model, property, level, a);
                    if let Some(slot) = w.get_mut((fnv1a(&text) % buckets) as usize) {
                        *slot += level.weight(a);
                    }
                }
            }
            None => w.iter_mut().for_each(|x| *x = 1.0 / buckets as f64),
        }
        self.buckets.borrow_mut().insert(key, w.clone());
        w
    }

    /// Categories of a chain property whose text starts with `prefix`.
    fn prefix_set(&self, model: &TypeModel, property: &str, prefix: &str) -> Vec<u64> {
        let key = (
            model.root.name.clone(),
            property.to_string(),
            prefix.to_string(),
        );
        if let Some(s) = self.prefixes.borrow().get(&key) {
            return s.clone();
        }
        let set: Vec<u64> = match model
            .level_of(property)
            .and_then(|l| model.chain.levels.get(l))
        {
            Some(level) => (0..level.k())
                .filter(|a| category_text(model, property, level, *a).starts_with(prefix))
                .collect(),
            None => Vec::new(),
        };
        self.prefixes.borrow_mut().insert(key, set.clone());
        set
    }

    /// The share of a type's entities in bucket `b`.
    pub fn bucket_share(&self, model: &TypeModel, property: &str, buckets: u64, b: u64) -> f64 {
        self.bucket_weights(model, property, buckets)
            .get(b as usize)
            .copied()
            .unwrap_or(0.0)
    }

    /// Entities of `model`'s type matching `ask` for the drawn entity `d`.
    pub fn count(&self, model: &TypeModel, d: &Drawn, ask: &Ask) -> f64 {
        self.count_spread(model, d, ask).0
    }

    /// [`Self::count`] and its variance: a bucket of a hash over a unique property holds a
    /// binomial share of the entities (the rest of the key is counted exactly).
    pub fn count_spread(&self, model: &TypeModel, d: &Drawn, ask: &Ask) -> (f64, f64) {
        let n = model.n;
        let mut binomial: Option<f64> = None;
        let mut constraints = vec![Constraint::Any; model.chain.levels.len()];
        let mut factor = 1.0;
        let mut day = None;
        let mut unique = false;
        // The key fields the count holds equal to the drawn entity's: the PartitionKey's (all,
        // or those through `pk_through`) and the RowKey's through `rk_through`.
        let pk_fields = match (ask.in_partition, ask.pk_through) {
            (false, _) => None,
            (true, None) => Some(model.partition_key.clone()),
            (true, Some(p)) => model.partition_key.through(p),
        };
        let rk_fields = ask
            .rk_through
            .or(ask.rk_range.map(|(p, _)| p))
            .and_then(|p| model.row_key.through(p));
        let stepped = |prop: &str, in_rk: bool| match ask.rk_range {
            Some((p, span)) if in_rk && p == prop => Some(span),
            _ => None,
        };
        let pk_count = pk_fields.as_ref().map_or(0, |t| t.fields().count());
        let mut days_span = 1i64;
        // Hash buckets over a categorical property: (its level, its share); the share counts
        // only while that property is not held to one value by another field.
        let mut hashed: Vec<(Option<usize>, f64)> = Vec::new();
        for (k, f) in pk_fields
            .iter()
            .chain(rk_fields.iter())
            .flat_map(|t| t.fields())
            .enumerate()
        {
            let prop = f.expr.property();
            let step = stepped(prop, k >= pk_count);
            let Some(at) = model.ty.properties.iter().position(|p| p.name == prop) else {
                continue;
            };
            let source = model.sources.get(at);
            match (&f.expr, source) {
                (Expr::Hash { buckets, .. }, _) => {
                    if !ask.all_buckets {
                        let text = d.value_at(at).map(Value::display_text).unwrap_or_default();
                        let b = ask.bucket.unwrap_or(fnv1a(&text) % buckets);
                        let w = self.bucket_weights(model, prop, *buckets);
                        let share = w.get(b as usize).copied().unwrap_or(0.0);
                        let level = model.level_of(prop);
                        hashed.push((level, share));
                        if level.is_none() {
                            binomial = Some(binomial.unwrap_or(1.0) * share);
                        }
                    }
                }
                (_, Some(Source::Chain { level, .. })) => {
                    if let (Some(slot), Some(a)) =
                        (constraints.get_mut(*level), d.categories.get(*level))
                    {
                        *slot = match (step, model.chain.levels.get(*level)) {
                            (Some(span), Some(l)) => {
                                Constraint::OneOf((*a..(*a + u64::from(span)).min(l.k())).collect())
                            }
                            _ => Constraint::Is(*a),
                        };
                    }
                }
                (Expr::Property(_), Some(Source::Timestamps { timeline, .. }))
                    if f.format == Format::Date =>
                {
                    if let Some(Raw::Ticks(t)) = d.raws.get(at) {
                        day = Some((*timeline, t.div_euclid(TICKS_PER_DAY)));
                        if let Some(span) = step {
                            days_span = i64::from(span);
                        }
                    }
                }
                _ => unique = true,
            }
        }
        for (prop, op) in ask.conditions {
            let Some(level) = model.level_of(prop) else {
                // Equal to a unique value: the drawn entity alone.
                unique = true;
                continue;
            };
            let Some(a) = d.categories.get(level).copied() else {
                continue;
            };
            let wanted = match op {
                ConditionOp::Eq | ConditionOp::Through { .. } | ConditionOp::Range { .. } => {
                    Constraint::Is(a)
                }
                ConditionOp::Prefix { length } => {
                    let text = d
                        .value(model.ty, prop)
                        .map(Value::display_text)
                        .unwrap_or_default();
                    let prefix: String = text.chars().take(*length as usize).collect();
                    Constraint::OneOf(self.prefix_set(model, prop, &prefix))
                }
            };
            if let Some(slot) = constraints.get_mut(level) {
                *slot = match (&*slot, wanted) {
                    (Constraint::Any, w) => w,
                    (current, _) => current.clone(),
                };
            }
        }
        for (level, share) in hashed {
            let held = level
                .and_then(|l| constraints.get(l))
                .is_some_and(|c| matches!(c, Constraint::Is(_)));
            if !held {
                factor *= share;
            }
        }
        if unique {
            // The drawn entity is in its partition and matches its own values.
            return (if factor > 0.0 { 1.0 } else { 0.0 }, 0.0);
        }
        let constrained = constraints.iter().any(|c| *c != Constraint::Any);
        let on_days = |timeline: Timeline, dn: i64| timeline.count_on_days(n, dn, days_span) as f64;
        let base = match day {
            Some((timeline, dn)) if !constrained => on_days(timeline, dn),
            Some((timeline, dn)) => {
                model.chain.count(n, &constraints) * on_days(timeline, dn) / n.max(1) as f64
            }
            None => model.chain.count(n, &constraints),
        };
        // A combination of independent properties (or of a day and a property) holds its
        // expected share give or take a binomial spread.
        let combined = Chain::constrained(&constraints) + usize::from(day.is_some()) > 1;
        let mut variance = binomial.map_or(0.0, |p| base * p * (1.0 - p));
        if combined && n > 0 {
            variance += base * (1.0 - base / n as f64).max(0.0);
        }
        (base * factor, variance)
    }

    /// How many distinct partitions a type's entities fill (an estimate: every combination
    /// of key parts that can occur, at most one per entity).
    pub fn partitions(&self, model: &TypeModel) -> f64 {
        let mut combos = 1.0f64;
        for f in model.partition_key.fields() {
            let prop = f.expr.property();
            let at = model.ty.properties.iter().position(|p| p.name == prop);
            let source = at.and_then(|i| model.sources.get(i));
            combos *= match (&f.expr, source) {
                (Expr::Hash { buckets, .. }, _) => *buckets as f64,
                (_, Some(Source::Chain { level, .. })) => {
                    model.chain.levels.get(*level).map_or(1.0, |l| l.k() as f64)
                }
                (Expr::Property(_), Some(Source::Timestamps { timeline, .. }))
                    if f.format == Format::Date =>
                {
                    timeline.days().count() as f64
                }
                _ => model.n as f64,
            };
        }
        combos.min(model.n as f64)
    }
}

/// Expected pages of a request whose matches have this mean and variance: a page holds at
/// most 1000, and even no match costs one. With a variance, the count is taken as normal
/// (continuity-corrected): E[max(1, ceil(X/1000))] = 1 + sum over k >= 1 of P(X > 1000k).
pub fn expected_pages(mean: f64, variance: f64) -> f64 {
    if variance <= 0.0 {
        return if mean <= 0.0 {
            1.0
        } else {
            (mean / 1000.0).ceil()
        };
    }
    let sd = variance.sqrt();
    let mut pages = 1.0;
    let mut k = 1.0;
    while 1000.0 * k <= mean + 10.0 * sd {
        pages += 0.5 * erfc((1000.0 * k + 0.5 - mean) / (sd * std::f64::consts::SQRT_2));
        k += 1.0;
    }
    pages
}

/// The complementary error function (Numerical Recipes' erfcc, |error| < 1.2e-7).
fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98
                                + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let r = t * poly.exp();
    if x >= 0.0 {
        r
    } else {
        2.0 - r
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expected_pages_follow_the_spread() {
        assert_eq!(expected_pages(0.0, 0.0), 1.0);
        assert_eq!(expected_pages(2000.0, 0.0), 2.0);
        assert_eq!(expected_pages(2001.0, 0.0), 3.0);
        // Far from a page boundary the spread does not matter.
        assert!((expected_pages(2500.0, 100.0) - 3.0).abs() < 1e-9);
        // Centred on a boundary: half the time one page more.
        assert!((expected_pages(2000.5, 400.0) - 2.5).abs() < 1e-6);
        assert!((erfc(0.0) - 1.0).abs() < 1e-7 && (erfc(1.0) - 0.157_299_2).abs() < 1e-6);
    }
}
