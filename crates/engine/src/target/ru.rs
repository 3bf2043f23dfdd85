//! Request units: an estimate of what each operation costs on Cosmos DB for Table
//! ([`Rule::RequestUnits`](super::Rule::RequestUnits)), built only on Microsoft's published
//! figures. Every figure the engine shows is an [`RuEstimate`] naming its [`RuModel`].
//!
//! The model ([`RuModel::PublishedSizeTable`]):
//! - a point read costs the published read figure for the item's size;
//! - an insert, replace, merge, upsert or delete costs the published write figure for the
//!   item's size (the pages count delete among writes);
//! - a query costs a point read for every entity it reads (the pages name "the number of
//!   items loaded/returned" as a factor); the lookups in the index and the query's compile
//!   time are factors too, but no figure is published for them, so they count nothing here;
//! - a batch costs the sum of its operations;
//! - table operations (create, delete, list) have no published figure: no estimate.
//!
//! Sizes between the published ones are interpolated linearly; an item under 1 KB costs the
//! 1 KB figure, one over 2,048 KB the 2,048 KB figure scaled by size.
//!
//! An item's size is modelled as the UTF-8 bytes of its keys and property names plus its
//! values' sizes as storage counts them ([`item_bytes`]).

use crate::record::{Record, Shape};
use serde::{Deserialize, Serialize};

/// The estimate's model, so that a figure can always say how it was computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum RuModel {
    /// The read and write figures by item size of "Understand request unit consumption"
    /// (see the module's documentation).
    PublishedSizeTable,
}

impl RuModel {
    /// A stable identifier for the model (for the UI's "how is this computed" link).
    pub fn id(self) -> &'static str {
        match self {
            RuModel::PublishedSizeTable => "published-size-table",
        }
    }
}

/// What the estimate was computed from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum RuBasis {
    PointRead,
    Write,
    /// Entities read by a query, each as a point read.
    QueryReads,
    /// The sum of a batch's operations.
    Batch,
    /// No published figure for this operation: no value.
    Unpublished,
}

/// An estimate of an operation's request units. Always an estimate: `value` is `None` where
/// no published figure exists.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RuEstimate {
    pub value: Option<f64>,
    pub basis: RuBasis,
    pub model: RuModel,
}

impl RuEstimate {
    fn of(value: f64, basis: RuBasis) -> RuEstimate {
        RuEstimate {
            value: Some(round2(value)),
            basis,
            model: RuModel::PublishedSizeTable,
        }
    }

    pub fn point_read(bytes: usize) -> RuEstimate {
        RuEstimate::of(read_ru(bytes), RuBasis::PointRead)
    }

    pub fn write(bytes: usize) -> RuEstimate {
        RuEstimate::of(write_ru(bytes), RuBasis::Write)
    }

    /// A query that read entities of these sizes.
    pub fn query(sizes: impl IntoIterator<Item = usize>) -> RuEstimate {
        RuEstimate::of(sizes.into_iter().map(read_ru).sum(), RuBasis::QueryReads)
    }

    /// A query whose entities read sum to `read_ru` ([`read_ru`] of each).
    pub fn query_of(read_ru: f64) -> RuEstimate {
        RuEstimate::of(read_ru, RuBasis::QueryReads)
    }

    /// A batch: the sum of its operations' estimates.
    pub fn batch<'a>(parts: impl IntoIterator<Item = &'a RuEstimate>) -> RuEstimate {
        RuEstimate::of(
            parts.into_iter().filter_map(|e| e.value).sum(),
            RuBasis::Batch,
        )
    }

    pub fn unpublished() -> RuEstimate {
        RuEstimate {
            value: None,
            basis: RuBasis::Unpublished,
            model: RuModel::PublishedSizeTable,
        }
    }
}

fn round2(v: f64) -> f64 {
    (v * 100.0).round() / 100.0
}

/// A point read of a 1 KB item costs 1 RU.
/// Source: https://learn.microsoft.com/azure/cosmos-db/request-units ("A point read for a
/// 1-KB item is equivalent to one Request Unit") and
/// https://learn.microsoft.com/azure/cosmos-db/optimize-cost-reads-writes (1 KB: 1 RU,
/// 100 KB: 10 RU).
pub const POINT_READ_1KB: f64 = 1.0;

/// Read RUs by item size in KB (session and eventual consistency).
/// Source: https://learn.microsoft.com/azure/cosmos-db/understand-request-unit-consumption,
/// "Document size" table, "Read Operation" column.
pub const READ_BY_SIZE: [(f64, f64); 12] = [
    (1.0, POINT_READ_1KB),
    (2.0, 1.04),
    (4.0, 1.14),
    (8.0, 1.33),
    (16.0, 1.67),
    (32.0, 2.19),
    (64.0, 4.76),
    (128.0, 9.95),
    (256.0, 20.28),
    (512.0, 40.95),
    (1024.0, 145.90),
    (2048.0, 291.80),
];

/// Write RUs by item size in KB (an item indexed with the default policy: every property).
/// Source: https://learn.microsoft.com/azure/cosmos-db/understand-request-unit-consumption,
/// "Document size" table, "Write Operation" column.
pub const WRITE_BY_SIZE: [(f64, f64); 12] = [
    (1.0, 4.95),
    (2.0, 6.29),
    (4.0, 6.67),
    (8.0, 7.04),
    (16.0, 9.52),
    (32.0, 11.23),
    (64.0, 22.67),
    (128.0, 48.19),
    (256.0, 98.29),
    (512.0, 184.57),
    (1024.0, 625.00),
    (2048.0, 1250.00),
];

/// The read figure for an item of `bytes`.
pub fn read_ru(bytes: usize) -> f64 {
    by_size(&READ_BY_SIZE, bytes)
}

/// The write figure for an item of `bytes`.
pub fn write_ru(bytes: usize) -> f64 {
    by_size(&WRITE_BY_SIZE, bytes)
}

fn by_size(table: &[(f64, f64); 12], bytes: usize) -> f64 {
    let kb = bytes as f64 / 1024.0;
    let (first, last) = (table[0], table[11]);
    if kb <= first.0 {
        return first.1;
    }
    if kb >= last.0 {
        return last.1 * kb / last.0;
    }
    let mut lower = first;
    for &(size, ru) in &table[1..] {
        if kb <= size {
            return lower.1 + (ru - lower.1) * (kb - lower.0) / (size - lower.0);
        }
        lower = (size, ru);
    }
    last.1
}

/// [`read_ru`] of [`item_bytes`], without sizing the item when it cannot exceed 1 KB (the
/// figure of every smaller item): its size is at most its keys' and names' bytes plus twice
/// its values' bytes in the record ([`Record::data_len`]). `names` is [`names_len`] of the
/// record's shape (a page's entities mostly share one).
pub fn item_read_ru(partition_key: &str, row_key: &str, names: usize, record: &Record) -> f64 {
    let most = partition_key.len() + row_key.len() + names + 2 * record.data_len();
    if most <= 1024 {
        return POINT_READ_1KB;
    }
    read_ru(item_bytes(partition_key, row_key, record))
}

/// The UTF-8 bytes of a shape's property names.
pub fn names_len(shape: &Shape) -> usize {
    shape.names().iter().map(|n| n.len()).sum()
}

/// An item's modelled size: keys' and names' UTF-8 bytes plus its values' sizes as storage
/// counts them.
pub fn item_bytes(partition_key: &str, row_key: &str, record: &Record) -> usize {
    partition_key.len()
        + row_key.len()
        + record
            .iter()
            .map(|(name, value)| name.len() + value.size())
            .sum::<usize>()
}

/// [`item_bytes`] of an entity.
pub fn entity_bytes(e: &crate::entity::Entity) -> usize {
    e.partition_key.len()
        + e.row_key.len()
        + e.properties
            .iter()
            .map(|(name, value)| name.len() + value.size())
            .sum::<usize>()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::entity::PropertyName;
    use crate::value::Value;
    use proptest::prelude::*;
    use std::sync::Arc;

    #[test]
    fn published_points_and_between() {
        assert_eq!(read_ru(0), 1.0);
        assert_eq!(read_ru(1024), 1.0);
        // 100 KB lies between the 64 KB (4.76) and 128 KB (9.95) figures.
        assert!((read_ru(100 * 1024) - 7.679375).abs() < 1e-9);
        assert_eq!(write_ru(1024), 4.95);
        assert_eq!(write_ru(2048 * 1024), 1250.0);
        assert_eq!(write_ru(4096 * 1024), 2500.0);
        assert!((read_ru(1536) - 1.02).abs() < 1e-9);
        assert!((write_ru(3 * 1024) - 6.48).abs() < 1e-9);
    }

    fn record(values: Vec<Value>) -> Record {
        let properties: Vec<_> = values
            .into_iter()
            .enumerate()
            .map(|(i, v)| (PropertyName::from(format!("P{i}").as_str()), v))
            .collect();
        Record::encode(Arc::new(Shape::of(&properties)), &properties)
    }

    fn value() -> impl Strategy<Value = Value> {
        prop_oneof![
            "[a-zé😀]{0,400}".prop_map(|s| Value::string(s.as_str())),
            proptest::collection::vec(any::<u8>(), 0..600).prop_map(|b| Value::Binary(b.into())),
            any::<i32>().prop_map(Value::Int32),
            any::<i64>().prop_map(Value::Int64),
            any::<bool>().prop_map(Value::Boolean),
            any::<f64>().prop_map(Value::Double),
        ]
    }

    proptest! {
        /// The shortcut for items that cannot exceed 1 KB gives the sized figure, for items
        /// on both sides of 1 KB.
        #[test]
        fn item_read_ru_is_read_ru_of_the_size(
            values in proptest::collection::vec(value(), 0..6),
            pk in "[a-z]{0,40}",
        ) {
            let r = record(values);
            let names = names_len(r.shape());
            prop_assert_eq!(item_read_ru(&pk, "r", names, &r), read_ru(item_bytes(&pk, "r", &r)));
        }
    }
}
