//! Feeds a design's write patterns to the throughput simulator ([`tablescope_engine::throughput`]),
//! whose workloads know three key designs: the PartitionKey's first varying part decides.

use super::model::{Design, Distribution, Pattern, WriteOp};
use super::sample::{categories, root_of};
use super::template::{Expr, Format, Template};
use tablescope_engine::throughput::{KeyDesign, Retry, Workload};

/// The simulator's workload for write pattern `index` over `seconds`, or `None` for a read
/// (or a rate under one per second). Inserts keyed first by time go to one partition
/// (`DatePartition`); a hash bucket, or a category drawn evenly, spreads them over that many
/// (`HashedPrefix`); a unique value or an existing entity's key gives each write its own
/// partition (`UniquePartition`).
pub fn workload(design: &Design, index: usize, seconds: u32) -> Option<Workload> {
    let Some(Pattern::Write(w)) = design.patterns.get(index) else {
        return None;
    };
    let ty = w.entity_types.first().and_then(|t| design.entity_type(t))?;
    let root = root_of(design, ty);
    let template = Template::parse(&ty.partition_key).ok()?;
    let key = match template.fields().next() {
        None => KeyDesign::DatePartition,
        Some(f) => {
            let def = root.property(f.expr.property());
            match (&f.expr, def.map(|d| &d.distribution)) {
                (Expr::Hash { buckets, .. }, _) => KeyDesign::HashedPrefix {
                    buckets: u32::try_from(*buckets).unwrap_or(u32::MAX),
                },
                (_, Some(Distribution::Timestamps { .. })) if w.op == WriteOp::Insert => {
                    KeyDesign::DatePartition
                }
                (_, Some(Distribution::Timestamps { .. })) if f.format == Format::Date => {
                    KeyDesign::UniquePartition
                }
                (_, Some(Distribution::Uniform { .. } | Distribution::Choice { .. })) => {
                    let k = def.and_then(categories).map_or(1, |c| c.k());
                    KeyDesign::HashedPrefix {
                        buckets: u32::try_from(k).unwrap_or(u32::MAX),
                    }
                }
                _ => KeyDesign::UniquePartition,
            }
        }
    };
    let ops = (w.rate * w.entity_types.len() as f64).round();
    (ops >= 1.0).then(|| Workload {
        ops_per_second: ops.min(f64::from(u32::MAX)) as u32,
        seconds,
        active_seconds: None,
        design: key,
        retry: Some(Retry::default()),
        seed: design.seed,
        cosmos: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gallery;

    #[test]
    fn the_gallery_writes_map_to_the_simulators_key_designs() {
        let hot = gallery::design("date-keyed-hot-partition").unwrap();
        let w = workload(&hot, 0, 10).unwrap();
        assert_eq!(
            (w.ops_per_second, w.design),
            (3000, KeyDesign::DatePartition)
        );
        let fix = gallery::design("date-keyed-bucketed").unwrap();
        assert_eq!(
            workload(&fix, 0, 10).unwrap().design,
            KeyDesign::HashedPrefix { buckets: 16 }
        );
        assert_eq!(workload(&fix, 1, 10), None);
        let logs = gallery::design("log-tail").unwrap();
        let w = workload(&logs, 2, 10).unwrap();
        assert_eq!(
            (w.ops_per_second, w.design),
            (400, KeyDesign::HashedPrefix { buckets: 8 })
        );
        let report = tablescope_engine::throughput::simulate(&workload(&hot, 0, 5).unwrap());
        assert!(report.throttled_responses > 0);
        assert_eq!(
            tablescope_engine::throughput::simulate(&workload(&fix, 0, 5).unwrap())
                .throttled_responses,
            0
        );
    }
}
