//! How a projection scales a design to its target counts. Entity counts always scale; each
//! property either keeps its declared range (`Scale::Fixed`, the default: 10,000 customers
//! stay 10,000 customers, so each customer holds more orders) or grows in proportion to its
//! type's entity count (`Scale::Grows`: `uniform 1..10000` at 10,000 entities is `1..N` at
//! N, so keys built from it get more partitions). Sequential and random values are unique
//! at every size, and a choice's values are listed, so neither takes a scale.
//!
//! The projector works on [`scaled_design`], the design with every growing range replaced by
//! its range at the target; at the design's own counts that is the design itself, so the
//! measurement and the projection at the generated size are unchanged.

use super::model::{Design, Distribution, PropertyDef, PropertyType, Scale};
use super::project::Target;
use super::sample::{categories, parse_instant, root_of};
use super::validate::MAX_ZIPF;
use serde::{Deserialize, Serialize};
use tablescope_engine::DateTime;

/// One property's values at the target size, for the projection to explain its scaling.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PropertyScaling {
    pub entity_type: String,
    pub property: String,
    pub scale: Scale,
    /// Sequential and random values: one per entity at every size.
    pub unique: bool,
    pub declared: Distribution,
    /// The distribution at the target size (the declared one unless it grew).
    pub projected: Distribution,
    /// Distinct values among the type's entities at the target size (none for a time range,
    /// whose instants are unique at any practical size).
    pub distinct: Option<u64>,
    /// Whether the range at the target differs from the declared one.
    pub grew: bool,
}

/// Whether `scale: grows` means anything for a distribution (the validator refuses it
/// elsewhere).
pub fn can_grow(d: &Distribution) -> bool {
    matches!(
        d,
        Distribution::Uniform { .. } | Distribution::Zipf { .. } | Distribution::Timestamps { .. }
    )
}

/// `def`'s distribution when its type's entity count is multiplied by `factor`.
pub fn grown(def: &PropertyDef, factor: f64) -> Distribution {
    let d = &def.distribution;
    if def.scale != Scale::Grows || factor == 1.0 || !factor.is_finite() {
        return d.clone();
    }
    match d {
        Distribution::Uniform { min, max } => {
            let k = (max - min + 1).max(1) as f64;
            // The type's own limit: a Boolean stays 0..1, an Int32 within Int32.
            let limit = match def.edm_type {
                PropertyType::Boolean => 1,
                PropertyType::Int32 => i64::from(i32::MAX),
                _ => i64::MAX / 4,
            };
            let grown_k = (k * factor)
                .round()
                .clamp(1.0, (limit - min + 1).max(1) as f64);
            Distribution::Uniform {
                min: *min,
                max: min + grown_k as i64 - 1,
            }
        }
        // A Zipf's table is held in memory: its ranks grow up to MAX_ZIPF.
        Distribution::Zipf { n, s } => Distribution::Zipf {
            n: ((*n as f64 * factor).round() as u64).clamp(1, MAX_ZIPF.max(*n)),
            s: *s,
        },
        // History grows backwards from `to` (new writes arrive at `to`).
        Distribution::Timestamps { from, to } => match (parse_instant(from), parse_instant(to)) {
            (Ok(a), Ok(b)) => {
                let span = ((b - a) as f64 * factor).round().max(1.0) as i64;
                let start = DateTime::from_ticks((b - span).max(0))
                    .map_or_else(|| from.clone(), |t| t.to_string());
                Distribution::Timestamps {
                    from: start,
                    to: to.clone(),
                }
            }
            _ => d.clone(),
        },
        _ => d.clone(),
    }
}

/// The factor each type's count is multiplied by: its root's target count over its root's
/// declared count (a copy scales with its source).
fn factor(design: &Design, target: &Target, name: &str) -> f64 {
    let Some(ty) = design.entity_type(name) else {
        return 1.0;
    };
    let root = root_of(design, ty);
    if root.count == 0 {
        return 1.0;
    }
    target.count(&root.name) as f64 / root.count as f64
}

/// `design` with every growing property's range at `target`'s counts.
pub fn scaled_design(design: &Design, target: &Target) -> Design {
    let mut d = design.clone();
    for ty in d.entity_types.iter_mut() {
        let f = factor(design, target, &ty.name);
        for p in ty.properties.iter_mut() {
            p.distribution = grown(p, f);
        }
    }
    d
}

/// Every property of every type that is not a copy, declared and at `target`.
pub fn scaling(design: &Design, target: &Target) -> Vec<PropertyScaling> {
    let mut out = Vec::new();
    for ty in design.entity_types.iter().filter(|t| t.copy_of.is_none()) {
        let n = target.count(&ty.name);
        let f = factor(design, target, &ty.name);
        for p in &ty.properties {
            let projected = grown(p, f);
            let unique = matches!(
                p.distribution,
                Distribution::Sequential { .. } | Distribution::Random
            );
            let distinct = if unique {
                Some(n)
            } else {
                let def = PropertyDef {
                    distribution: projected.clone(),
                    ..p.clone()
                };
                categories(&def).map(|c| match c {
                    // Equal shares: every value holds an entity until there are more values
                    // than entities.
                    super::distribution::Categories::Uniform { k } => k.min(n),
                    weighted => (0..weighted.k())
                        .filter(|a| weighted.count(n, *a) > 0)
                        .count() as u64,
                })
            };
            out.push(PropertyScaling {
                entity_type: ty.name.clone(),
                property: p.name.clone(),
                scale: p.scale,
                unique,
                grew: projected != p.distribution,
                declared: p.distribution.clone(),
                projected,
                distinct,
            });
        }
    }
    out
}
