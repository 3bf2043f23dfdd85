//! The figures of one access pattern, measured (evaluator) or projected (projector): the same
//! type on both sides so they compare field by field.

use serde::{Deserialize, Serialize};
use tablescope_engine::QueryKind;

/// The query kind of a read, or a write.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Kind {
    Point,
    PartitionRange,
    PartitionScan,
    TableRange,
    TableScan,
    Write,
}

impl From<QueryKind> for Kind {
    fn from(k: QueryKind) -> Kind {
        match k {
            QueryKind::Point => Kind::Point,
            QueryKind::PartitionRange => Kind::PartitionRange,
            QueryKind::PartitionScan => Kind::PartitionScan,
            QueryKind::TableRange => Kind::TableRange,
            QueryKind::TableScan => Kind::TableScan,
        }
    }
}

impl Kind {
    /// Point and partition queries: the scope the checklist asks for.
    pub fn is_targeted(self) -> bool {
        matches!(
            self,
            Kind::Point | Kind::PartitionRange | Kind::PartitionScan
        )
    }
}

/// The mean and the worst of a figure over a pattern's calls.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct Spread {
    pub mean: f64,
    pub worst: f64,
}

impl Spread {
    pub fn of(values: &[f64]) -> Spread {
        if values.is_empty() {
            return Spread::default();
        }
        Spread {
            mean: values.iter().sum::<f64>() / values.len() as f64,
            worst: values.iter().copied().fold(f64::MIN, f64::max),
        }
    }
}

/// One pattern's figures per call.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Figures {
    pub pattern: String,
    pub kind: Kind,
    /// Calls averaged (parameter draws).
    pub draws: u32,
    /// Billable transactions per call: pages of every request, a batch as one, the read of a
    /// read-then-write.
    pub requests: Spread,
    /// Entities scanned per call (what the scalability targets count); for writes, written.
    pub scanned: Spread,
    pub returned: Spread,
    /// Projected: the standard deviation, from sampling, of the mean `returned` the
    /// evaluator measures over its draws at this size (a combination of independent
    /// properties holds its expected share only on average); 0 where the count is exact,
    /// and in a measurement.
    #[serde(default)]
    pub returned_sampling_sd: f64,
    pub partitions: Spread,
    /// Response JSON bytes per call without `$select` and with the needed properties only.
    pub payload_bytes: Spread,
    pub payload_bytes_selected: Spread,
    /// Writes: entities written per call, and whether they share one partition of one table
    /// (so one entity group transaction can keep them consistent).
    pub written: f64,
    pub batchable: Option<bool>,
    /// The first call's `$filter` (reads), as the pattern sends it.
    pub example_filter: String,
}

/// Calls averaged per pattern: draws at evenly spaced positions of the entity type's
/// stratified order, so every partition is drawn in proportion to its entities.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EvalOptions {
    /// Draws for point, partition and write patterns.
    pub draws: u32,
    /// Draws for patterns that scan the table (each scans everything).
    pub table_draws: u32,
}

impl Default for EvalOptions {
    fn default() -> Self {
        EvalOptions {
            draws: 16,
            table_draws: 2,
        }
    }
}

/// The draw positions of `m` draws among `n`: `floor((2j + 1)·n / 2m)`.
pub fn positions(n: u64, m: u32) -> Vec<u64> {
    let m = u128::from(m.max(1));
    (0..m)
        .map(|j| ((2 * j + 1) * u128::from(n) / (2 * m)) as u64)
        .collect()
}

/// JSON bytes of an entity as a response carries it (minimal metadata), and with `$select`.
pub fn json_bytes(entity: &tablescope_engine::Entity, select: Option<&[String]>) -> usize {
    let map = match select {
        Some(s) => tablescope_engine::json::encode_projected(entity, s),
        None => tablescope_engine::json::encode(entity, true),
    };
    serde_json::to_string(&map).map_or(0, |t| t.len())
}
