//! An entity type's properties: name, EDM type, how the generator spreads its values
//! (uniform, sequential, timestamps over a range, Zipf, a choice of texts, random), and for
//! texts made from numbers a prefix, a suffix and zero-padding.

use super::doc::Ctx;
use super::edit_types::update_type;
use super::field_problems::{Element, FieldProblems};
use super::form;
use crate::design::{can_grow, Distribution, PropertyDef, PropertyType, Scale};
use crate::i18n::{msg, t};
use leptos::prelude::*;

const TYPES: [PropertyType; 7] = [
    PropertyType::String,
    PropertyType::Int32,
    PropertyType::Int64,
    PropertyType::Double,
    PropertyType::Boolean,
    PropertyType::DateTime,
    PropertyType::Guid,
];

fn type_name(t: PropertyType) -> &'static str {
    match t {
        PropertyType::String => "String",
        PropertyType::Int32 => "Int32",
        PropertyType::Int64 => "Int64",
        PropertyType::Double => "Double",
        PropertyType::Boolean => "Boolean",
        PropertyType::DateTime => "DateTime",
        PropertyType::Guid => "Guid",
    }
}

/// The distribution kinds, as the JSON names them, with their labels.
fn kinds() -> Vec<(String, String)> {
    [
        ("sequential", msg::design_dist_sequential()),
        ("uniform", msg::design_dist_uniform()),
        ("zipf", msg::design_dist_zipf()),
        ("choice", msg::design_dist_choice()),
        ("timestamps", msg::design_dist_timestamps()),
        ("random", msg::design_dist_random()),
    ]
    .into_iter()
    .map(|(k, l)| (k.to_string(), l))
    .collect()
}

fn kind_of(d: &Distribution) -> &'static str {
    match d {
        Distribution::Sequential { .. } => "sequential",
        Distribution::Uniform { .. } => "uniform",
        Distribution::Zipf { .. } => "zipf",
        Distribution::Choice { .. } => "choice",
        Distribution::Timestamps { .. } => "timestamps",
        Distribution::Random => "random",
    }
}

/// A distribution of `kind` with everyday parameters.
fn default_of(kind: &str) -> Distribution {
    match kind {
        "uniform" => Distribution::Uniform { min: 1, max: 100 },
        "zipf" => Distribution::Zipf { n: 100, s: 1.0 },
        "choice" => Distribution::Choice {
            values: vec!["a".into(), "b".into(), "c".into()],
            weights: None,
        },
        "timestamps" => Distribution::Timestamps {
            from: "2026-01-01T00:00:00Z".into(),
            to: "2026-02-01T00:00:00Z".into(),
        },
        "random" => Distribution::Random,
        _ => Distribution::Sequential { start: 1 },
    }
}

/// The distribution's parameters as one line of text: `1..100`, `100 ^ 1.1`, `a, b, c` (or
/// with weights, `a:6, b:3, c:1`), `2026-01-01T00:00:00Z .. 2026-02-01T00:00:00Z`, the start
/// of a sequence.
pub fn params_text(d: &Distribution) -> String {
    match d {
        Distribution::Sequential { start } => start.to_string(),
        Distribution::Uniform { min, max } => format!("{min}..{max}"),
        Distribution::Zipf { n, s } => format!("{n} ^ {s}"),
        Distribution::Choice {
            values,
            weights: None,
        } => values.join(", "),
        Distribution::Choice {
            values,
            weights: Some(w),
        } => values
            .iter()
            .zip(w)
            .map(|(v, w)| format!("{v}:{w}"))
            .collect::<Vec<_>>()
            .join(", "),
        Distribution::Timestamps { from, to } => format!("{from} .. {to}"),
        Distribution::Random => String::new(),
    }
}

/// Reads parameters typed as [`params_text`] writes them; `None` when they do not read.
fn parse_params(kind: &Distribution, text: &str) -> Option<Distribution> {
    let pair = |sep: &str| {
        text.split_once(sep)
            .map(|(a, b)| (a.trim().to_string(), b.trim().to_string()))
    };
    Some(match kind {
        Distribution::Sequential { .. } => Distribution::Sequential {
            start: text.trim().parse().ok()?,
        },
        Distribution::Uniform { .. } => {
            let (a, b) = pair("..")?;
            Distribution::Uniform {
                min: a.parse().ok()?,
                max: b.parse().ok()?,
            }
        }
        Distribution::Zipf { .. } => {
            let (a, b) = pair("^")?;
            Distribution::Zipf {
                n: a.parse().ok()?,
                s: b.parse().ok()?,
            }
        }
        Distribution::Choice { .. } => choice_of(text),
        Distribution::Timestamps { .. } => {
            let (from, to) = pair("..")?;
            Distribution::Timestamps { from, to }
        }
        Distribution::Random => Distribution::Random,
    })
}

/// A choice from `a, b, c` or `a:6, b:3, c:1`: a value's weight follows its last `:`
/// (1 where a value has none); without any weight, all are equally likely.
fn choice_of(text: &str) -> Distribution {
    let mut values = Vec::new();
    let mut weights = Vec::new();
    for item in form::names(text) {
        match item
            .rsplit_once(':')
            .map(|(v, w)| (v, w.trim().parse::<f64>()))
        {
            Some((v, Ok(w))) => {
                values.push(v.trim().to_string());
                weights.push(Some(w));
            }
            _ => {
                values.push(item);
                weights.push(None);
            }
        }
    }
    let weighted = weights.iter().any(Option::is_some);
    Distribution::Choice {
        values,
        weights: weighted.then(|| weights.into_iter().map(|w| w.unwrap_or(1.0)).collect()),
    }
}

fn update_prop(ctx: Ctx, i: usize, j: usize, f: impl FnOnce(&mut PropertyDef)) {
    update_type(ctx, i, |t| {
        if let Some(p) = t.properties.get_mut(j) {
            f(p);
        }
    });
}

#[component]
pub fn PropertiesEditor(i: usize) -> impl IntoView {
    let ctx = Ctx::expect();
    let count = Memo::new(move |_| {
        ctx.design
            .with(|d| d.entity_types.get(i).map_or(0, |t| t.properties.len()))
    });
    let add = move |_| {
        update_type(ctx, i, |t| {
            t.properties.push(PropertyDef {
                name: format!("Property{}", t.properties.len() + 1),
                edm_type: PropertyType::String,
                distribution: Distribution::Sequential { start: 1 },
                prefix: String::new(),
                suffix: String::new(),
                pad: 0,
                scale: Scale::Fixed,
            })
        })
    };
    view! {
        <h4>{t(msg::design_properties)}</h4>
        <ul class="design-props">
            {move || (0..count.get()).map(|j| view! { <PropRow i=i j=j /> }).collect_view()}
        </ul>
        <button type="button" class="add-prop" on:click=add>{t(msg::design_add_property)}</button>
    }
}

#[component]
fn PropRow(i: usize, j: usize) -> impl IntoView {
    let ctx = Ctx::expect();
    let get = move |f: fn(&PropertyDef) -> String| {
        move || {
            ctx.design.with(|d| {
                d.entity_types
                    .get(i)
                    .and_then(|t| t.properties.get(j))
                    .map(f)
                    .unwrap_or_default()
            })
        }
    };
    let types = || {
        TYPES
            .iter()
            .map(|t| (type_name(*t).to_string(), type_name(*t).to_string()))
            .collect()
    };
    view! {
        <li class="field-row design-prop" data-index=j>
            {form::text(msg::design_prop_name, "prop-name", get(|p| p.name.clone()), move |v| update_prop(ctx, i, j, |p| p.name = v))}
            {form::select(msg::design_prop_type, "prop-type", types, get(|p| type_name(p.edm_type).to_string()), move |v| {
                if let Some(ty) = TYPES.into_iter().find(|t| type_name(*t) == v) {
                    update_prop(ctx, i, j, |p| p.edm_type = ty)
                }
            })}
            {form::select(msg::design_prop_dist, "prop-dist", kinds, get(|p| kind_of(&p.distribution).to_string()), move |v| {
                update_prop(ctx, i, j, |p| p.distribution = default_of(&v))
            })}
            {form::text(msg::design_prop_params, "prop-params", get(|p| params_text(&p.distribution)), move |v| {
                update_prop(ctx, i, j, |p| {
                    if let Some(d) = parse_params(&p.distribution, &v) { p.distribution = d }
                })
            })}
            {move || {
                let growable = ctx.design.with(|d| d.entity_types.get(i).and_then(|t| t.properties.get(j)).is_some_and(|p| can_grow(&p.distribution) || p.scale == Scale::Grows));
                growable.then(|| form::select(msg::design_prop_scale, "prop-scale", super::scaling::choices, get(|p| super::scaling::name(p.scale).to_string()), move |v| {
                    update_prop(ctx, i, j, |p| p.scale = super::scaling::parse(&v))
                }))
            }}
            {form::text(msg::design_prop_prefix, "prop-prefix", get(|p| p.prefix.clone()), move |v| update_prop(ctx, i, j, |p| p.prefix = v))}
            {form::text(msg::design_prop_suffix, "prop-suffix", get(|p| p.suffix.clone()), move |v| update_prop(ctx, i, j, |p| p.suffix = v))}
            {form::text(msg::design_prop_pad, "prop-pad", get(|p| p.pad.to_string()), move |v| {
                if let Ok(n) = v.trim().parse() { update_prop(ctx, i, j, |p| p.pad = n) }
            })}
            <button type="button" class="remove-prop" on:click=move |_| update_type(ctx, i, |t| { if j < t.properties.len() { t.properties.remove(j); } })>
                {t(msg::design_remove)}
            </button>
            <FieldProblems prefix=format!("entityTypes[{i}].properties[{j}]") element=Element::Property />
        </li>
    }
}
