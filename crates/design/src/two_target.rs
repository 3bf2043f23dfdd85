//! A design on both targets: every pattern at the projection's size on Table storage (the
//! projection's figures) and on Azure Cosmos DB for Table, by the engine's rules for that
//! target: a filter on a property is answered from the automatic index
//! ([`Rule::AutomaticIndex`]), so such a read reads only what it returns; key bounds read the
//! same entities on both targets; every operation costs request units by the engine's model
//! built on Microsoft's published figures ([`Rule::RequestUnits`], `tablescope_engine::target::ru`).
//! Then the monthly cost on each target, and which of the guide's secondary-index copies the
//! design no longer needs on Cosmos, and why the others stay.
//!
//! Invariant: at the size the generator writes, a read's Cosmos figures (entities read,
//! returned, request units) are what the engine's Cosmos target measures for the same
//! requests, within the projection's sampling error (tested).
//!
//! [`Rule::AutomaticIndex`]: tablescope_engine::Rule::AutomaticIndex
//! [`Rule::RequestUnits`]: tablescope_engine::Rule::RequestUnits

use super::evaluate::read_draws;
use super::figures::{positions, EvalOptions, Kind};
use super::model::{ConditionOp, Design, EntityType, Pattern, ReadPattern, WritePattern};
use super::price::{
    CosmosPrices, BYTES_PER_GB, MIN_CONTAINER_RU_PER_SEC, RU_PER_SEC_STEP, SECONDS_PER_MONTH,
    SERVERLESS_RU_PER_SEC,
};
use super::project::{Cost, Projected, Projection};
use super::query::requests;
use super::sample::TypeModel;
use super::template::{Expr, Template};
use super::DesignError;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use tablescope_engine::query::{page_count, PAGE_SCAN_BUDGET};
use tablescope_engine::target::ru::{entity_bytes, read_ru, write_ru};

/// The whole design on both targets.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TwoTargets {
    pub patterns: Vec<OnBoth>,
    /// Table storage's monthly cost (the projection's).
    pub storage: Cost,
    pub cosmos: CosmosCost,
    /// Every copy of another entity type (the guide's secondary-index patterns), and whether
    /// Cosmos still needs it.
    pub copies: Vec<CopyVerdict>,
    /// Reads that take the first entities in key order: on Cosmos they get the first
    /// inserted instead ([`Rule::InsertionOrder`](tablescope_engine::Rule::InsertionOrder)).
    pub order_lost: Vec<String>,
    /// Reads that scan on Table storage for a property the Cosmos index answers: on storage
    /// the guide's answer is an index copy, on Cosmos there is nothing to add.
    pub scans_answered: Vec<String>,
    pub prices: CosmosPrices,
}

/// One pattern on both targets, per call.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OnBoth {
    pub pattern: String,
    pub kind: Kind,
    pub storage: OnTarget,
    pub cosmos: OnTarget,
    /// The properties whose automatic index answers the read on Cosmos (none: the read uses
    /// its keys only, and reads the same entities on both targets).
    pub indexed: Vec<String>,
    /// Estimated request units per call on Cosmos, and per second at the pattern's rate.
    pub ru_per_call: f64,
    pub ru_per_sec: f64,
}

/// A pattern's figures per call on one target.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OnTarget {
    /// Entities read (storage: scanned; Cosmos: read after the index); for writes, written.
    pub read: f64,
    pub returned: f64,
    /// Round trips: pages of every request, a batch as one.
    pub requests: f64,
    pub latency: Latency,
}

/// How long a call takes, by its shape: what the service must do, not a measured time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Latency {
    /// One entity by its keys (Cosmos: under 10 ms at the 99th percentile by its SLA).
    Point,
    /// One round trip reading fewer entities than a page's scan budget.
    OneRoundTrip,
    /// Several round trips, one after another.
    RoundTrips,
    /// A call that reads at least a page's scan budget (10,000 entities).
    Scan,
}

impl Latency {
    fn of(kind: Kind, read: f64, requests: f64) -> Latency {
        if kind == Kind::Point {
            Latency::Point
        } else if kind != Kind::Write && read >= PAGE_SCAN_BUDGET as f64 {
            Latency::Scan
        } else if requests > 1.0 {
            Latency::RoundTrips
        } else {
            Latency::OneRoundTrip
        }
    }
}

/// The monthly cost on Cosmos DB for Table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CosmosCost {
    /// Estimated request units per second of every pattern at its rate.
    pub ru_per_sec: f64,
    pub ru_per_month: f64,
    /// One container per table.
    pub containers: Vec<Container>,
    /// The RU/s provisioned over all containers, and what they cost a month.
    pub provisioned_ru_per_sec: f64,
    pub provisioned: f64,
    /// Serverless: the month's request units at the per-million price.
    pub serverless: f64,
    /// Items' bytes (not the index's).
    pub stored_gb: f64,
    pub storage: f64,
    pub provisioned_total: f64,
    pub serverless_total: f64,
    pub currency: String,
}

/// One table's container.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Container {
    pub table: String,
    pub ru_per_sec: f64,
    /// The RU/s to provision: the load rounded up to a step of 100, at least 400.
    pub provisioned_ru_per_sec: f64,
    /// More than a serverless container serves (5,000 RU/s).
    pub beyond_serverless: bool,
}

/// The guide's pattern a copy of another entity type implements.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum GuidePattern {
    /// A copy in the same partitions under another RowKey.
    IntraPartitionSecondaryIndex,
    /// A copy in other partitions or another table.
    InterPartitionSecondaryIndex,
}

/// Why a copy is or is not needed on Cosmos.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", tag = "kind")]
pub enum Because {
    /// This read of the copy is a filter on these properties of the original on Cosmos,
    /// answered by the automatic index.
    IndexAnswers {
        pattern: String,
        properties: Vec<String>,
    },
    /// This read takes the first entities in the copy's key order, and Cosmos returns a
    /// query's results in insertion order: the copy's keys still give the order.
    KeyOrder { pattern: String },
    /// No pattern reads the copy.
    Unread,
}

/// What becomes of a copy on Cosmos.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum CopyOnCosmos {
    /// Every read of it is a filter the automatic index answers on the original.
    Unnecessary,
    /// A read of it takes the first entities in its key order, which no Cosmos query gives
    /// (results come back in insertion order): neither the copy nor the index serves that
    /// read as designed.
    OrderLost,
    /// No pattern reads it.
    Unread,
}

/// One copy of another entity type, on Cosmos.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CopyVerdict {
    pub copy: String,
    pub of: String,
    pub guide_pattern: GuidePattern,
    pub on_cosmos: CopyOnCosmos,
    pub because: Vec<Because>,
    /// What dropping it saves on Cosmos: its writes, their request units, its storage.
    pub writes_per_sec: f64,
    pub ru_per_sec: f64,
    pub stored_gb: f64,
}

/// A type's mean item size on Cosmos and what reading and writing one costs.
#[derive(Default, Clone, Copy)]
struct Item {
    bytes: f64,
    read: f64,
    write: f64,
}

/// `design`, projected as `projection`, on both targets.
pub fn two_targets(
    design: &Design,
    projection: &Projection,
    prices: &CosmosPrices,
) -> Result<TwoTargets, DesignError> {
    let models = design
        .entity_types
        .iter()
        .map(|t| {
            let n = projection
                .counts
                .iter()
                .find(|(name, _)| *name == t.name)
                .map_or(0, |c| c.1);
            TypeModel::new(design, t, n)
        })
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| DesignError::new("entityTypes", e))?;
    let items: BTreeMap<&str, Item> = models
        .iter()
        .map(|m| (m.ty.name.as_str(), item(m)))
        .collect();
    let item_of = |name: &str| items.get(name).copied().unwrap_or_default();
    let mut load: BTreeMap<String, (String, f64)> = design
        .tables
        .iter()
        .map(|t| (t.to_lowercase(), (t.clone(), 0.0)))
        .collect();
    let mut add = |table: &str, ru: f64| {
        load.entry(table.to_lowercase())
            .or_insert_with(|| (table.to_string(), 0.0))
            .1 += ru;
    };
    let table_of = |name: &str| design.entity_type(name).map_or("", |t| t.table.as_str());
    let mut patterns = Vec::with_capacity(design.patterns.len());
    for (pattern, projected) in design.patterns.iter().zip(&projection.patterns) {
        let both = match pattern {
            Pattern::Read(r) => {
                let model = models.iter().find(|m| m.ty.name == r.entity_type);
                let both = read(r, projected, model, item_of(&r.entity_type));
                add(table_of(&r.entity_type), both.ru_per_sec);
                both
            }
            Pattern::Write(w) => {
                for (i, t) in w.entity_types.iter().enumerate() {
                    let own = f64::from(w.per_call_of(t)) * item_of(t).write;
                    let first = if i == 0 && w.read_first {
                        item_of(t).read
                    } else {
                        0.0
                    };
                    add(table_of(t), w.rate * (own + first));
                }
                write(w, projected, &item_of)
            }
        };
        patterns.push(both);
    }
    let stored_bytes: f64 = models
        .iter()
        .map(|m| m.n as f64 * item_of(&m.ty.name).bytes)
        .sum();
    let cosmos = cost(load.into_values().collect(), stored_bytes, prices);
    let copies = design
        .entity_types
        .iter()
        .filter_map(|c| {
            let of = design.entity_type(c.copy_of.as_deref()?)?;
            let m = models.iter().find(|m| m.ty.name == c.name)?;
            Some(verdict(design, c, of, m, item_of(&c.name)))
        })
        .collect();
    let scans_answered = patterns
        .iter()
        .zip(&design.patterns)
        .filter(|(b, p)| {
            matches!(p, Pattern::Read(r) if design.entity_type(&r.entity_type).is_some_and(|t| t.copy_of.is_none()))
                && !b.indexed.is_empty()
                && !b.kind.is_targeted()
                && b.storage.read > b.cosmos.read
        })
        .map(|(b, _)| b.pattern.clone())
        .collect();
    let order_lost = design
        .patterns
        .iter()
        .filter_map(|p| match p {
            Pattern::Read(r) if takes_first(r) => Some(r.name.clone()),
            _ => None,
        })
        .collect();
    Ok(TwoTargets {
        order_lost,
        patterns,
        storage: projection.cost.clone(),
        cosmos,
        copies,
        scans_answered,
        prices: prices.clone(),
    })
}

/// The mean Cosmos item of a type over 8 evenly drawn entities (sizes vary only in digits
/// and chosen texts), and the mean published read and write figures for them.
fn item(m: &TypeModel) -> Item {
    if m.n == 0 {
        return Item::default();
    }
    let sizes: Vec<usize> = positions(m.n, 8)
        .into_iter()
        .map(|p| entity_bytes(&m.at_position(p).to_entity()))
        .collect();
    let n = sizes.len().max(1) as f64;
    Item {
        bytes: sizes.iter().map(|&b| b as f64).sum::<f64>() / n,
        read: sizes.iter().map(|&b| read_ru(b)).sum::<f64>() / n,
        write: sizes.iter().map(|&b| write_ru(b)).sum::<f64>() / n,
    }
}

/// Whether `r` takes the first entities in key order: a result size on anything but a point
/// read (both keys equal).
fn takes_first(r: &ReadPattern) -> bool {
    let eq = |key: &str| {
        r.conditions
            .iter()
            .any(|c| c.on == key && c.op == ConditionOp::Eq)
    };
    r.result_size.is_some() && !(eq("PartitionKey") && eq("RowKey"))
}

fn is_key(name: &str) -> bool {
    name == "PartitionKey" || name == "RowKey"
}

fn read(r: &ReadPattern, p: &Projected, model: Option<&TypeModel>, item: Item) -> OnBoth {
    let f = &p.figures;
    let indexed: Vec<String> = r
        .conditions
        .iter()
        .filter(|c| !is_key(&c.on))
        .map(|c| c.on.clone())
        .fold(Vec::new(), |mut v, name| {
            if !v.contains(&name) {
                v.push(name);
            }
            v
        });
    let returned = f.returned.mean;
    // A point read and an indexed filter read what they return; key bounds alone read what
    // they read on storage.
    let read = if f.kind == Kind::Point || !indexed.is_empty() {
        returned
    } else {
        f.scanned.mean
    };
    // Every request of a call (a fan-out sends one per bucket) is at least one round trip.
    let sent = model
        .filter(|m| m.n > 0)
        .and_then(|m| {
            let pos = *positions(m.n, read_draws(r, &EvalOptions::default())).first()?;
            Some(requests(m, r, &m.at_position(pos)).len() as f64)
        })
        .unwrap_or(1.0);
    let cosmos_requests = sent.max(page_count(read, returned));
    let ru_per_call = read * item.read;
    OnBoth {
        pattern: r.name.clone(),
        kind: f.kind,
        storage: OnTarget {
            read: f.scanned.mean,
            returned,
            requests: f.requests.mean,
            latency: Latency::of(f.kind, f.scanned.mean, f.requests.mean),
        },
        cosmos: OnTarget {
            read,
            returned,
            requests: cosmos_requests,
            latency: Latency::of(f.kind, read, cosmos_requests),
        },
        indexed,
        ru_per_call,
        ru_per_sec: ru_per_call * r.rate,
    }
}

fn write(w: &WritePattern, p: &Projected, item_of: &dyn Fn(&str) -> Item) -> OnBoth {
    let f = &p.figures;
    let first = w
        .entity_types
        .first()
        .map(|t| item_of(t))
        .unwrap_or_default();
    let ru_per_call: f64 = w
        .entity_types
        .iter()
        .map(|t| f64::from(w.per_call_of(t)) * item_of(t).write)
        .sum::<f64>()
        + if w.read_first { first.read } else { 0.0 };
    // An entity group transaction is one request on both targets, within the same limits
    // (one partition, 100 operations; Cosmos's 2 MB is above what 100 design entities hold).
    let on = OnTarget {
        read: f.scanned.mean,
        returned: f.returned.mean,
        requests: f.requests.mean,
        latency: Latency::of(Kind::Write, f.scanned.mean, f.requests.mean),
    };
    OnBoth {
        pattern: w.name.clone(),
        kind: Kind::Write,
        storage: on,
        cosmos: on,
        indexed: Vec::new(),
        ru_per_call,
        ru_per_sec: ru_per_call * w.rate,
    }
}

fn cost(tables: Vec<(String, f64)>, stored_bytes: f64, prices: &CosmosPrices) -> CosmosCost {
    let containers: Vec<Container> = tables
        .into_iter()
        .map(|(table, ru)| Container {
            provisioned_ru_per_sec: ((ru / RU_PER_SEC_STEP).ceil() * RU_PER_SEC_STEP)
                .max(MIN_CONTAINER_RU_PER_SEC),
            beyond_serverless: ru > SERVERLESS_RU_PER_SEC,
            ru_per_sec: ru,
            table,
        })
        .collect();
    let ru_per_sec: f64 = containers.iter().map(|c| c.ru_per_sec).sum();
    let provisioned_ru_per_sec: f64 = containers.iter().map(|c| c.provisioned_ru_per_sec).sum();
    let hours = SECONDS_PER_MONTH / 3600.0;
    let provisioned =
        provisioned_ru_per_sec / RU_PER_SEC_STEP * prices.per_100_ru_per_sec_hour * hours;
    let ru_per_month = ru_per_sec * SECONDS_PER_MONTH;
    let serverless = ru_per_month / 1e6 * prices.per_million_ru;
    let stored_gb = stored_bytes / BYTES_PER_GB;
    let storage = stored_gb * prices.per_gb_month;
    CosmosCost {
        ru_per_sec,
        ru_per_month,
        containers,
        provisioned_ru_per_sec,
        provisioned,
        serverless,
        stored_gb,
        storage,
        provisioned_total: provisioned + storage,
        serverless_total: serverless + storage,
        currency: prices.currency.clone(),
    }
}

/// The properties a key condition on `template` compares: its fields' properties (all of
/// them for `eq`, those through `field` for a prefix or range through it, the first for a
/// prefix of characters); a hash bucket names none.
fn key_properties(template: &Template, op: &ConditionOp) -> Vec<String> {
    let mut out = Vec::new();
    for f in template.fields() {
        if let Expr::Property(p) | Expr::Inverted(p) = &f.expr {
            out.push(p.clone());
        }
        let last = match op {
            ConditionOp::Eq => false,
            ConditionOp::Prefix { .. } => true,
            ConditionOp::Through { field } | ConditionOp::Range { field, .. } => {
                f.expr.property() == field
            }
        };
        if last {
            break;
        }
    }
    out
}

fn verdict(
    design: &Design,
    copy: &EntityType,
    of: &EntityType,
    m: &TypeModel,
    item: Item,
) -> CopyVerdict {
    let mut because = Vec::new();
    for r in design.patterns.iter().filter_map(|p| match p {
        Pattern::Read(r) if r.entity_type == copy.name => Some(r),
        _ => None,
    }) {
        if takes_first(r) {
            because.push(Because::KeyOrder {
                pattern: r.name.clone(),
            });
            continue;
        }
        let mut properties: Vec<String> = Vec::new();
        for c in &r.conditions {
            let names = match c.on.as_str() {
                "PartitionKey" => key_properties(&m.partition_key, &c.op),
                "RowKey" => key_properties(&m.row_key, &c.op),
                other => vec![other.to_string()],
            };
            for n in names {
                if !properties.contains(&n) {
                    properties.push(n);
                }
            }
        }
        because.push(Because::IndexAnswers {
            pattern: r.name.clone(),
            properties,
        });
    }
    if because.is_empty() {
        because.push(Because::Unread);
    }
    let writes_per_sec: f64 = design
        .patterns
        .iter()
        .filter_map(|p| match p {
            Pattern::Write(w) if w.entity_types.contains(&copy.name) => {
                Some(w.rate * f64::from(w.per_call_of(&copy.name)))
            }
            _ => None,
        })
        .sum();
    let same_partitions =
        copy.table.eq_ignore_ascii_case(&of.table) && copy.partition_key == of.partition_key;
    CopyVerdict {
        copy: copy.name.clone(),
        of: of.name.clone(),
        guide_pattern: if same_partitions {
            GuidePattern::IntraPartitionSecondaryIndex
        } else {
            GuidePattern::InterPartitionSecondaryIndex
        },
        on_cosmos: if because
            .iter()
            .any(|b| matches!(b, Because::KeyOrder { .. }))
        {
            CopyOnCosmos::OrderLost
        } else if because == [Because::Unread] {
            CopyOnCosmos::Unread
        } else {
            CopyOnCosmos::Unnecessary
        },
        because,
        writes_per_sec,
        ru_per_sec: writes_per_sec * item.write,
        stored_gb: m.n as f64 * item.bytes / BYTES_PER_GB,
    }
}
