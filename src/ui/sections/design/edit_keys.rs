//! Pieces of a pattern that come from the design's key templates and types: a read's
//! condition on PartitionKey or RowKey chosen from the key's template ("prefix through
//! OrderId"), and the entity types a write covers, with how many entities of each one call
//! writes (an order and its 5 lines in one batch).

use super::doc::Ctx;
use super::edit_patterns::{update_read, update_write};
use crate::design::{Condition, ConditionOp, Pattern, Template};
use crate::i18n::{msg, t};
use leptos::prelude::*;

/// The select value of a key condition: `""` none, `eq`, `through:Field`, `length:N`,
/// `range:Field:Span`.
fn op_value(op: Option<&ConditionOp>) -> String {
    match op {
        None => String::new(),
        Some(ConditionOp::Eq) => "eq".into(),
        Some(ConditionOp::Through { field }) => format!("through:{field}"),
        Some(ConditionOp::Prefix { length }) => format!("length:{length}"),
        Some(ConditionOp::Range { field, span }) => format!("range:{field}:{span}"),
    }
}

fn op_of(value: &str) -> Option<ConditionOp> {
    if value == "eq" {
        return Some(ConditionOp::Eq);
    }
    if let Some(field) = value.strip_prefix("through:") {
        return Some(ConditionOp::Through {
            field: field.to_string(),
        });
    }
    if let Some((field, span)) = value
        .strip_prefix("range:")
        .and_then(|r| r.rsplit_once(':'))
    {
        return Some(ConditionOp::Range {
            field: field.to_string(),
            span: span.parse().ok()?,
        });
    }
    let length = value.strip_prefix("length:")?.parse().ok()?;
    Some(ConditionOp::Prefix { length })
}

/// Sets the read's condition on `key` (PartitionKey first, then RowKey, then the property
/// conditions), or removes it.
fn set_key(conditions: &mut Vec<Condition>, key: &str, op: Option<ConditionOp>) {
    conditions.retain(|c| c.on != key);
    if let Some(op) = op {
        let at = if key == "PartitionKey" {
            0
        } else {
            usize::from(conditions.first().is_some_and(|c| c.on == "PartitionKey"))
        };
        conditions.insert(
            at,
            Condition {
                on: key.to_string(),
                op,
            },
        );
    }
}

/// A select of read `i`'s condition on `key`: none, equal, or a prefix through each field of
/// the read type's template for that key.
pub fn key_condition(ctx: Ctx, i: usize, key: &'static str) -> impl IntoView {
    let d = ctx.design;
    let current = move || {
        d.with(|d| match d.patterns.get(i) {
            Some(Pattern::Read(r)) => {
                op_value(r.conditions.iter().find(|c| c.on == key).map(|c| &c.op))
            }
            _ => String::new(),
        })
    };
    let choices = move || {
        let fields: Vec<String> = d.with(|d| {
            let Some(Pattern::Read(r)) = d.patterns.get(i) else {
                return Vec::new();
            };
            let Some(ty) = d.entity_type(&r.entity_type) else {
                return Vec::new();
            };
            let template = if key == "RowKey" {
                &ty.row_key
            } else {
                &ty.partition_key
            };
            Template::parse(template)
                .map(|t| {
                    t.field_properties()
                        .into_iter()
                        .map(str::to_string)
                        .collect()
                })
                .unwrap_or_default()
        });
        let mut out = vec![
            (String::new(), msg::design_cond_none()),
            ("eq".to_string(), msg::design_cond_eq()),
        ];
        out.extend(
            fields
                .into_iter()
                .map(|f| (format!("through:{f}"), msg::design_cond_through(&f))),
        );
        let now = current();
        if let Some(n) = now.strip_prefix("length:") {
            out.push((now.clone(), msg::design_cond_length(n)));
        }
        if let Some((field, span)) = now.strip_prefix("range:").and_then(|r| r.rsplit_once(':')) {
            out.push((now.clone(), msg::design_cond_range(field, span)));
        }
        if !out.iter().any(|(v, _)| *v == now) {
            out.push((now.clone(), now.clone()));
        }
        out
    };
    let (label, class): (fn() -> String, &'static str) = if key == "RowKey" {
        (msg::design_pattern_rk_condition, "pattern-rk")
    } else {
        (msg::design_pattern_pk_condition, "pattern-pk")
    };
    super::form::select(label, class, choices, current, move |v| {
        update_read(ctx, i, |r| set_key(&mut r.conditions, key, op_of(&v)))
    })
}

/// The entity types write `i` covers, each with its entities per call, and a button that
/// adds one more type to the same write.
#[component]
pub fn WriteTypes(i: usize) -> impl IntoView {
    let ctx = Ctx::expect();
    let d = ctx.design;
    let count = Memo::new(move |_| {
        d.with(|d| match d.patterns.get(i) {
            Some(Pattern::Write(w)) => w.entity_types.len(),
            _ => 0,
        })
    });
    let add = move |_| {
        d.update(|d| {
            let next = match d.patterns.get(i) {
                Some(Pattern::Write(w)) => d
                    .entity_types
                    .iter()
                    .map(|t| t.name.clone())
                    .find(|n| !w.entity_types.contains(n)),
                _ => None,
            };
            if let (Some(name), Some(Pattern::Write(w))) = (next, d.patterns.get_mut(i)) {
                w.entity_types.push(name);
            }
        })
    };
    view! {
        <fieldset class="write-types">
            <legend>{t(msg::design_pattern_types)}</legend>
            <ol>
                {move || (0..count.get()).map(|k| view! { <WriteType i=i k=k /> }).collect_view()}
            </ol>
            <button type="button" class="add-write-type" on:click=add>{t(msg::design_add_write_type)}</button>
        </fieldset>
    }
}

#[component]
fn WriteType(i: usize, k: usize) -> impl IntoView {
    let ctx = Ctx::expect();
    let d = ctx.design;
    let name = move || {
        d.with(|d| match d.patterns.get(i) {
            Some(Pattern::Write(w)) => w.entity_types.get(k).cloned().unwrap_or_default(),
            _ => String::new(),
        })
    };
    let per_call = move || {
        d.with(|d| match d.patterns.get(i) {
            Some(Pattern::Write(w)) => w
                .entity_types
                .get(k)
                .map(|n| w.per_call_of(n).to_string())
                .unwrap_or_default(),
            _ => String::new(),
        })
    };
    let types = move || {
        d.with(|d| {
            d.entity_types
                .iter()
                .map(|t| (t.name.clone(), t.name.clone()))
                .collect::<Vec<_>>()
        })
    };
    let rename = move |v: String| {
        update_write(ctx, i, |w| {
            if let Some(old) = w.entity_types.get(k).cloned() {
                if let Some(n) = w.per_call.remove(&old) {
                    w.per_call.insert(v.clone(), n);
                }
            }
            if let Some(slot) = w.entity_types.get_mut(k) {
                *slot = v;
            }
        })
    };
    // 1 is the default and is left out of the document; anything else is kept as typed, so
    // the validator says what is wrong with it beside this field.
    let set_count = move |v: String| {
        let Ok(n) = v.trim().parse::<u32>() else {
            return;
        };
        update_write(ctx, i, |w| {
            if let Some(name) = w.entity_types.get(k).cloned() {
                if n == 1 {
                    w.per_call.remove(&name);
                } else {
                    w.per_call.insert(name, n);
                }
            }
        })
    };
    let remove = move |_| {
        update_write(ctx, i, |w| {
            if k < w.entity_types.len() {
                let name = w.entity_types.remove(k);
                if !w.entity_types.contains(&name) {
                    w.per_call.remove(&name);
                }
            }
        })
    };
    view! {
        <li class="write-type field-row" data-index=k>
            {super::form::select(msg::design_pattern_type, "write-type-name", types, name, rename)}
            {super::form::text(msg::design_write_per_call, "write-type-count", per_call, set_count)}
            <button type="button" class="remove-write-type" on:click=remove>{t(msg::design_remove)}</button>
        </li>
    }
}
