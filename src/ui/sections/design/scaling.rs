//! The projection's scaling explained: for every property of every type, its declared
//! range, its range and distinct values at the target size, and whether it grows with its
//! type's entity count or keeps its declared range, with a select per property that edits
//! the design's `scale` (the field the property form edits too), so the projection follows.

use super::doc::Ctx;
use super::edit_props::params_text;
use super::fmt;
use crate::design::{can_grow, Design, Distribution, Projection, PropertyScaling, Scale};
use crate::i18n::{msg, t};
use leptos::prelude::*;

/// The scale choices as the JSON names them, with their labels.
pub fn choices() -> Vec<(String, String)> {
    vec![
        ("fixed".into(), msg::design_scale_fixed()),
        ("grows".into(), msg::design_scale_grows()),
    ]
}

pub fn name(s: Scale) -> &'static str {
    match s {
        Scale::Fixed => "fixed",
        Scale::Grows => "grows",
    }
}

pub fn parse(v: &str) -> Scale {
    if v == "grows" {
        Scale::Grows
    } else {
        Scale::Fixed
    }
}

/// Sets `property`'s scale on type `ty` and on every type that copies it (a copy declares
/// its source's properties exactly).
fn set(d: &mut Design, ty: &str, property: &str, scale: Scale) {
    let mut family = vec![ty.to_string()];
    // Copies of copies: at most one pass per type.
    for _ in 0..d.entity_types.len() {
        for t in &d.entity_types {
            if t.copy_of.as_ref().is_some_and(|c| family.contains(c)) && !family.contains(&t.name) {
                family.push(t.name.clone());
            }
        }
    }
    for t in d
        .entity_types
        .iter_mut()
        .filter(|t| family.contains(&t.name))
    {
        if let Some(p) = t.properties.iter_mut().find(|p| p.name == property) {
            p.scale = scale;
        }
    }
}

/// The scaling table of a projection.
pub fn table(p: &Projection) -> impl IntoView {
    let total = fmt::num(p.counts.iter().map(|c| c.1 as f64).sum());
    view! {
        <div class="compare-scroll" tabindex="0">
            <table class="compare design-scaling">
                <caption>{msg::design_scaling_caption(total)}</caption>
                <thead>
                    <tr>
                        <th scope="col">{t(msg::design_prop_name)}</th>
                        <th scope="col">{t(msg::design_scaling_declared)}</th>
                        <th scope="col">{t(msg::design_scaling_at_target)}</th>
                        <th scope="col">{t(msg::design_scaling_distinct)}</th>
                        <th scope="col">{t(msg::design_prop_scale)}</th>
                    </tr>
                </thead>
                <tbody>
                    {p.scaling.iter().map(row).collect_view()}
                </tbody>
            </table>
        </div>
        <p class="field-note design-scaling-note">{t(msg::design_scaling_note)}</p>
    }
}

/// The range at the target size: a sequence's whole run (`1..300000000`), else the
/// distribution's parameters as the form writes them.
fn target_text(s: &PropertyScaling) -> String {
    match (&s.projected, s.distinct) {
        (Distribution::Sequential { start }, Some(n)) if n > 0 => {
            format!("{start}..{}", start.saturating_add_unsigned(n - 1))
        }
        (d, _) => params_text(d),
    }
}

fn row(s: &PropertyScaling) -> impl IntoView {
    let ctx = Ctx::expect();
    let label = format!("{} · {}", s.entity_type, s.property);
    let distinct = s
        .distinct
        .map_or_else(|| "—".to_string(), |n| fmt::num(n as f64));
    let scale = if s.unique {
        view! { <span class="sc-unique">{msg::design_scale_unique()}</span> }.into_any()
    } else if can_grow(&s.declared) {
        let (ty, prop, now) = (s.entity_type.clone(), s.property.clone(), name(s.scale));
        view! {
            <select class="sc-choice" aria-label=format!("{} {label}", msg::design_prop_scale())
                on:change=move |ev| {
                    let v = parse(&event_target_value(&ev));
                    ctx.design.update(|d| set(d, &ty, &prop, v));
                }>
                {choices().into_iter().map(|(value, text)| {
                    let selected = value == now;
                    view! { <option value=value selected=selected>{text}</option> }
                }).collect_view()}
            </select>
        }
        .into_any()
    } else {
        view! { <span class="sc-listed">{msg::design_scale_listed()}</span> }.into_any()
    };
    view! {
        <tr class=if s.grew { "sc-grew" } else { "" } data-property=label.clone()>
            <th scope="row">{label.clone()}</th>
            <td class="sc-declared" dir="ltr">{params_text(&s.declared)}</td>
            <td class="sc-target" dir="ltr">{target_text(s)}</td>
            <td class="sc-distinct">{distinct}</td>
            <td class="sc-scale">{scale}</td>
        </tr>
    }
}
