//! One entity type at a given size: how entity `i` gets its property values and keys.
//! The generator, the evaluator's parameter draws and the projector all go through here,
//! so a projected entity is exactly the one the generator would write at that size.

use super::distribution::{Categories, Chain, Timeline};
use super::model::{Design, Distribution, EntityType, PropertyDef, PropertyType};
use super::permute::{key, mix, Permutation};
use super::template::{Raw, Template};
use super::Issue;
use tablescope_engine::{DateTime, Entity, Guid, Property, PropertyName, Value};

/// Where a property's value comes from.
#[derive(Debug, Clone)]
pub enum Source {
    /// Categorical property `level` of the chain; `first` is the value of category 0
    /// (uniform and Zipf).
    Chain {
        level: usize,
        first: i64,
    },
    Sequential {
        start: i64,
    },
    Timestamps {
        timeline: Timeline,
        perm: Permutation,
    },
    Random {
        key: u64,
    },
}

/// An entity type's model at size `n`.
#[derive(Debug, Clone)]
pub struct TypeModel<'d> {
    pub ty: &'d EntityType,
    /// The type whose entities this one copies (itself when it copies none).
    pub root: &'d EntityType,
    pub n: u64,
    pub chain: Chain,
    /// The chain level of each categorical property of `root`, by name.
    pub chain_names: Vec<String>,
    /// Per chain level, the keyed permutation its categories are stratified on: one per
    /// property, so properties are independent of each other.
    pub level_perms: Vec<Permutation>,
    /// The order the evaluator and the projector draw entities in: draw position `r` is
    /// entity `draw_order.invert(r)`.
    pub draw_order: Permutation,
    /// One source per property of `ty`, in order.
    pub sources: Vec<Source>,
    pub partition_key: Template,
    pub row_key: Template,
    /// The property names of `ty`, allocated once and shared by every generated entity.
    pub names: Vec<PropertyName>,
}

/// A drawn or generated entity's values, before they become an [`Entity`].
#[derive(Debug, Clone, PartialEq)]
pub struct Drawn {
    pub raws: Vec<Raw>,
    /// The type's properties in declaration order (names shared with the type model).
    pub properties: Vec<Property>,
    /// The categories of the chain's properties (in chain order).
    pub categories: Vec<u64>,
    pub partition_key: String,
    pub row_key: String,
}

/// The root of a copy chain (validation rejects cycles and missing types).
pub fn root_of<'d>(design: &'d Design, ty: &'d EntityType) -> &'d EntityType {
    let mut t = ty;
    for _ in 0..design.entity_types.len() {
        match t.copy_of.as_deref().and_then(|c| design.entity_type(c)) {
            Some(next) => t = next,
            None => break,
        }
    }
    t
}

/// The categories of a chain property (None for other distributions).
pub fn categories(def: &PropertyDef) -> Option<Categories> {
    match &def.distribution {
        Distribution::Uniform { min, max } => Some(Categories::Uniform {
            k: (max - min + 1).max(1) as u64,
        }),
        Distribution::Zipf { n, s } => Some(Categories::zipf(*n, *s)),
        Distribution::Choice {
            values,
            weights: None,
        } => Some(Categories::Uniform {
            k: values.len().max(1) as u64,
        }),
        Distribution::Choice {
            weights: Some(w), ..
        } => Some(Categories::weighted(w)),
        _ => None,
    }
}

impl<'d> TypeModel<'d> {
    /// The model of `ty` with `n` entities (validated designs only; see `validate`).
    pub fn new(design: &'d Design, ty: &'d EntityType, n: u64) -> Result<Self, String> {
        let root = root_of(design, ty);
        let seed = design.seed;
        let mut chain = Chain::default();
        let mut chain_names = Vec::new();
        for def in &root.properties {
            if let Some(c) = categories(def) {
                chain.levels.push(c);
                chain_names.push(def.name.clone());
            }
        }
        let mut sources = Vec::with_capacity(ty.properties.len());
        for def in &ty.properties {
            let root_def = root.property(&def.name).unwrap_or(def);
            let level = chain_names.iter().position(|c| *c == def.name);
            let source = match (&root_def.distribution, level) {
                (Distribution::Uniform { min, .. }, Some(level)) => {
                    Source::Chain { level, first: *min }
                }
                (Distribution::Zipf { .. }, Some(level)) => Source::Chain { level, first: 1 },
                (Distribution::Choice { .. }, Some(level)) => Source::Chain { level, first: 0 },
                (Distribution::Sequential { start }, _) => Source::Sequential { start: *start },
                (Distribution::Timestamps { from, to }, _) => {
                    let from = parse_instant(from)?;
                    let to = parse_instant(to)?;
                    Source::Timestamps {
                        timeline: Timeline {
                            from,
                            span: to - from,
                        },
                        perm: Permutation::new(n, key(seed, &[&root.name, &def.name])),
                    }
                }
                _ => Source::Random {
                    key: key(seed, &[&root.name, &def.name]),
                },
            };
            sources.push(source);
        }
        let level_perms = chain_names
            .iter()
            .map(|name| Permutation::new(n, key(seed, &[&root.name, name, "categories"])))
            .collect();
        Ok(TypeModel {
            ty,
            root,
            n,
            chain,
            chain_names,
            level_perms,
            draw_order: Permutation::new(n, key(seed, &[&root.name, "chain"])),
            sources,
            partition_key: Template::parse(&ty.partition_key)?,
            row_key: Template::parse(&ty.row_key)?,
            names: ty
                .properties
                .iter()
                .map(|p| p.name.as_str().into())
                .collect(),
        })
    }

    /// Entity `i` (`i < n`) as the generator writes it.
    pub fn entity(&self, i: u64) -> Drawn {
        self.build(i, self.categories_of(i), None)
    }

    /// The categories of entity `i`: each property's own stratified position.
    pub fn categories_of(&self, i: u64) -> Vec<u64> {
        self.chain
            .levels
            .iter()
            .zip(&self.level_perms)
            .map(|(level, perm)| {
                if self.n == 0 {
                    0
                } else {
                    level.locate(self.n, perm.apply(i.min(self.n - 1)))
                }
            })
            .collect()
    }

    /// The entity at draw position `r` (the evaluator's and projector's draws).
    pub fn at_position(&self, r: u64) -> Drawn {
        self.entity(self.draw_order.invert(r))
    }

    /// Entity `i` with the given categories in place of its own (the projector's entity of
    /// a chosen partition).
    pub fn with_categories(&self, i: u64, categories: Vec<u64>) -> Drawn {
        self.build(i, categories, None)
    }

    /// A new entity, the `j`-th written after the `n` generated ones, with the categories of
    /// the entity at draw position `r`: sequential values continue, timestamps are the
    /// range's end ("now").
    pub fn fresh(&self, j: u64, r: u64) -> Drawn {
        let i = self.draw_order.invert(r);
        self.build(self.n + j, self.categories_of(i), Some(()))
    }

    fn build(&self, i: u64, categories: Vec<u64>, fresh: Option<()>) -> Drawn {
        let mut raws = Vec::with_capacity(self.sources.len());
        for source in &self.sources {
            raws.push(match source {
                Source::Chain { level, first } => {
                    let a = categories.get(*level).copied().unwrap_or(0) as i64;
                    Raw::Ord(first + a)
                }
                Source::Sequential { start } => Raw::Ord(start.saturating_add(i as i64)),
                Source::Timestamps { timeline, perm } => Raw::Ticks(match fresh {
                    Some(()) => timeline.from + timeline.span,
                    None => timeline.at(self.n, perm.apply(i.min(self.n.saturating_sub(1)))),
                }),
                Source::Random { key } => Raw::Text(Guid(guid_bytes(*key, i)).to_string()),
            });
        }
        let properties: Vec<Property> = self
            .names
            .iter()
            .zip(&self.ty.properties)
            .zip(&raws)
            .map(|((name, def), raw)| (name.clone(), value_of(def, raw)))
            .collect();
        let lookup = |name: &str| {
            let at = self.ty.properties.iter().position(|p| p.name == name)?;
            Some((raws.get(at)?, &properties.get(at)?.1))
        };
        let partition_key = self.partition_key.expand(&lookup);
        let row_key = self.row_key.expand(&lookup);
        Drawn {
            raws,
            properties,
            categories,
            partition_key,
            row_key,
        }
    }

    /// `d` with the values of `from`'s properties of the same name (an order's `OrderId` in
    /// each of its lines), its keys expanded again: an entity written in the same change as
    /// `from`, of a type that is not a copy of it.
    pub fn bind(&self, mut d: Drawn, from: &TypeModel, fd: &Drawn) -> Drawn {
        for (at, def) in self.ty.properties.iter().enumerate() {
            let Some(src) = from.ty.properties.iter().position(|p| p.name == def.name) else {
                continue;
            };
            if let Some(raw) = fd.raws.get(src) {
                if let (Some(slot), Some(prop)) = (d.raws.get_mut(at), d.properties.get_mut(at)) {
                    *slot = raw.clone();
                    prop.1 = value_of(def, raw);
                }
            }
        }
        let lookup = |name: &str| {
            let at = self.ty.properties.iter().position(|p| p.name == name)?;
            Some((d.raws.get(at)?, &d.properties.get(at)?.1))
        };
        let partition_key = self.partition_key.expand(&lookup);
        let row_key = self.row_key.expand(&lookup);
        d.partition_key = partition_key;
        d.row_key = row_key;
        d
    }

    /// The chain level of a property of this type, if it is categorical.
    pub fn level_of(&self, property: &str) -> Option<usize> {
        self.chain_names.iter().position(|c| c == property)
    }

    pub fn def(&self, property: &str) -> Option<&'d PropertyDef> {
        self.root.property(property)
    }
}

impl Drawn {
    /// The entity, moving the properties out.
    pub fn into_entity(self) -> Entity {
        Entity {
            partition_key: self.partition_key,
            row_key: self.row_key,
            timestamp: None,
            properties: self.properties,
        }
    }

    pub fn to_entity(&self) -> Entity {
        self.clone().into_entity()
    }

    /// The value of the type's property at index `at`.
    pub fn value_at(&self, at: usize) -> Option<&Value> {
        self.properties.get(at).map(|(_, v)| v)
    }

    pub fn value(&self, ty: &EntityType, property: &str) -> Option<&Value> {
        let at = ty.properties.iter().position(|p| p.name == property)?;
        self.value_at(at)
    }
}

fn guid_bytes(key: u64, i: u64) -> [u8; 16] {
    let a = mix(key ^ i).to_be_bytes();
    let b = mix(key.rotate_left(17) ^ i).to_be_bytes();
    let mut out = [0u8; 16];
    out[..8].copy_from_slice(&a);
    out[8..].copy_from_slice(&b);
    out
}

/// The typed value of a property for a raw value.
pub fn value_of(def: &PropertyDef, raw: &Raw) -> Value {
    match (def.edm_type, raw) {
        (PropertyType::String, Raw::Ord(v)) => {
            if let Distribution::Choice { values, .. } = &def.distribution {
                let text = values.get(*v as usize).cloned().unwrap_or_default();
                return Value::string(text);
            }
            let mut text = String::with_capacity(def.prefix.len() + def.suffix.len() + 20);
            text.push_str(&def.prefix);
            super::template::push_padded(&mut text, *v, def.pad as usize);
            text.push_str(&def.suffix);
            Value::string(text)
        }
        (PropertyType::String, Raw::Ticks(t)) => Value::string(
            DateTime::from_ticks(*t)
                .map(|d| d.to_string())
                .unwrap_or_default(),
        ),
        (PropertyType::String, Raw::Text(t)) => Value::string(t.clone()),
        (PropertyType::Int32, Raw::Ord(v)) => Value::Int32(*v as i32),
        (PropertyType::Int64, Raw::Ord(v) | Raw::Ticks(v)) => Value::Int64(*v),
        (PropertyType::Double, Raw::Ord(v) | Raw::Ticks(v)) => Value::Double(*v as f64),
        (PropertyType::Boolean, Raw::Ord(v)) => Value::Boolean(*v != 0),
        (PropertyType::DateTime, Raw::Ticks(t)) => {
            Value::DateTime(DateTime::from_ticks(*t).unwrap_or(DateTime::MIN))
        }
        (PropertyType::Guid, Raw::Text(t)) => {
            Guid::parse(t).map_or(Value::string(t.clone()), Value::Guid)
        }
        (_, raw) => Value::string(format!("{raw:?}")),
    }
}

pub fn parse_instant(text: &str) -> Result<i64, Issue> {
    DateTime::parse(text)
        .map(|d| d.ticks())
        .map_err(|_| Issue::Instant {
            text: text.to_string(),
        })
}
