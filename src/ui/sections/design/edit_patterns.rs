//! The access patterns: named reads (conditions on the keys or properties, each bound from
//! an entity drawn from the data; the result size the application needs, the properties it
//! uses, `$select`, fan-out over hash buckets) and writes (insert, update, upsert, delete of
//! one or several entity types, batched or not, read first or not), each with a rate.

use super::doc::Ctx;
use super::field_problems::{Element, FieldProblems};
use super::form;
use crate::design::{Condition, ConditionOp, Pattern, ReadPattern, WriteOp, WritePattern};
use crate::i18n::{msg, t};
use leptos::prelude::*;

pub fn update_read(ctx: Ctx, i: usize, f: impl FnOnce(&mut ReadPattern)) {
    ctx.design.update(|d| {
        if let Some(Pattern::Read(r)) = d.patterns.get_mut(i) {
            f(r);
        }
    });
}

pub fn update_write(ctx: Ctx, i: usize, f: impl FnOnce(&mut WritePattern)) {
    ctx.design.update(|d| {
        if let Some(Pattern::Write(w)) = d.patterns.get_mut(i) {
            f(w);
        }
    });
}

fn op_name(op: WriteOp) -> &'static str {
    match op {
        WriteOp::Insert => "insert",
        WriteOp::Update => "update",
        WriteOp::Upsert => "upsert",
        WriteOp::Delete => "delete",
    }
}

const OPS: [WriteOp; 4] = [
    WriteOp::Insert,
    WriteOp::Update,
    WriteOp::Upsert,
    WriteOp::Delete,
];

/// A condition as one line: `PartitionKey`, `RowKey`, `LastName` (equal to the drawn
/// entity's value), `LastName^1` (starting with its first character), `RowKey^OrderId` (a
/// key's prefix through its template's `OrderId` field) or `RowKey^Week+4` (the RowKey range
/// from it over 4 values of `Week`).
fn condition_text(c: &Condition) -> String {
    match &c.op {
        ConditionOp::Eq => c.on.clone(),
        ConditionOp::Prefix { length } => format!("{}^{length}", c.on),
        ConditionOp::Through { field } => format!("{}^{field}", c.on),
        ConditionOp::Range { field, span } => format!("{}^{field}+{span}", c.on),
    }
}

fn parse_conditions(text: &str) -> Vec<Condition> {
    form::names(text)
        .into_iter()
        .map(|c| match c.split_once('^') {
            Some((on, n)) => Condition {
                on: on.trim().to_string(),
                op: match n.trim().parse() {
                    Ok(length) => ConditionOp::Prefix { length },
                    Err(_) if n.trim().is_empty() => ConditionOp::Prefix { length: 1 },
                    Err(_) => match n.split_once('+') {
                        Some((field, span)) => ConditionOp::Range {
                            field: field.trim().to_string(),
                            span: span.trim().parse().unwrap_or(0),
                        },
                        None => ConditionOp::Through {
                            field: n.trim().to_string(),
                        },
                    },
                },
            },
            None => Condition {
                on: c,
                op: ConditionOp::Eq,
            },
        })
        .collect()
}

#[component]
pub fn PatternsEditor() -> impl IntoView {
    let ctx = Ctx::expect();
    let d = ctx.design;
    let count = Memo::new(move |_| d.with(|d| d.patterns.len()));
    let first_type = move || {
        d.with_untracked(|d| {
            d.entity_types
                .first()
                .map(|t| t.name.clone())
                .unwrap_or_default()
        })
    };
    let add_read = move |_| {
        let ty = first_type();
        d.update(|d| {
            d.patterns.push(Pattern::Read(ReadPattern {
                name: format!("Read {}", d.patterns.len() + 1),
                entity_type: ty,
                conditions: vec![Condition {
                    on: "PartitionKey".into(),
                    op: ConditionOp::Eq,
                }],
                rate: 1.0,
                result_size: None,
                needs: None,
                select: false,
                fan_out: false,
            }))
        })
    };
    let add_write = move |_| {
        let ty = first_type();
        d.update(|d| {
            d.patterns.push(Pattern::Write(WritePattern {
                name: format!("Write {}", d.patterns.len() + 1),
                op: WriteOp::Insert,
                entity_types: vec![ty],
                per_call: Default::default(),
                rate: 1.0,
                batch: false,
                read_first: false,
            }))
        })
    };
    view! {
        <section class="panel design-patterns" aria-labelledby="design-patterns-heading">
            <h2 id="design-patterns-heading">{t(msg::design_patterns_heading)}</h2>
            <p class="field-note">{t(msg::design_conditions_help)}</p>
            <ol class="design-pattern-list">
                {move || (0..count.get()).map(|i| view! { <PatternRow i=i /> }).collect_view()}
            </ol>
            <div class="editor-actions">
                <button type="button" class="add-read" on:click=add_read>{t(msg::design_add_read)}</button>
                <button type="button" class="add-write" on:click=add_write>{t(msg::design_add_write)}</button>
            </div>
        </section>
    }
}

#[component]
fn PatternRow(i: usize) -> impl IntoView {
    let ctx = Ctx::expect();
    let d = ctx.design;
    let is_read =
        Memo::new(move |_| d.with(|d| matches!(d.patterns.get(i), Some(Pattern::Read(_)))));
    let name = move || {
        d.with(|d| {
            d.patterns
                .get(i)
                .map(|p| p.name().to_string())
                .unwrap_or_default()
        })
    };
    let rate = move || {
        d.with(|d| {
            d.patterns
                .get(i)
                .map(|p| p.rate().to_string())
                .unwrap_or_default()
        })
    };
    let set_name = move |v: String| {
        d.update(|d| match d.patterns.get_mut(i) {
            Some(Pattern::Read(r)) => r.name = v,
            Some(Pattern::Write(w)) => w.name = v,
            None => {}
        })
    };
    let set_rate = move |v: String| {
        let Ok(rate) = v.trim().parse::<f64>() else {
            return;
        };
        d.update(|d| match d.patterns.get_mut(i) {
            Some(Pattern::Read(r)) => r.rate = rate,
            Some(Pattern::Write(w)) => w.rate = rate,
            None => {}
        })
    };
    let read = move |f: fn(&ReadPattern) -> String| {
        move || {
            d.with(|d| match d.patterns.get(i) {
                Some(Pattern::Read(r)) => f(r),
                _ => String::new(),
            })
        }
    };
    let write = move |f: fn(&WritePattern) -> String| {
        move || {
            d.with(|d| match d.patterns.get(i) {
                Some(Pattern::Write(w)) => f(w),
                _ => String::new(),
            })
        }
    };
    let types = move || {
        d.with(|d| {
            d.entity_types
                .iter()
                .map(|t| (t.name.clone(), t.name.clone()))
                .collect::<Vec<_>>()
        })
    };
    let read_fields = move || {
        view! {
            <div class="field-row">
                {form::select(msg::design_pattern_type, "pattern-type", types, read(|r| r.entity_type.clone()), move |v| update_read(ctx, i, |r| r.entity_type = v))}
                {form::text(msg::design_pattern_conditions, "pattern-conditions", read(|r| r.conditions.iter().map(condition_text).collect::<Vec<_>>().join(", ")), move |v| update_read(ctx, i, |r| r.conditions = parse_conditions(&v)))}
                {form::text(msg::design_pattern_result, "pattern-result", read(|r| r.result_size.map(|n| n.to_string()).unwrap_or_default()), move |v| {
                    update_read(ctx, i, |r| r.result_size = v.trim().parse().ok())
                })}
                {super::edit_keys::key_condition(ctx, i, "PartitionKey")}
                {super::edit_keys::key_condition(ctx, i, "RowKey")}
            </div>
            <div class="field-row">
                {form::text(msg::design_pattern_needs, "pattern-needs", read(|r| r.needs.as_ref().map(|n| n.join(", ")).unwrap_or_default()), move |v| {
                    update_read(ctx, i, |r| { let n = form::names(&v); r.needs = (!n.is_empty()).then_some(n) })
                })}
            </div>
            <div class="field-row">
                {form::check(msg::design_pattern_select, "pattern-select", move || d.with(|d| matches!(d.patterns.get(i), Some(Pattern::Read(r)) if r.select)), move |v| update_read(ctx, i, |r| r.select = v))}
                {form::check(msg::design_pattern_fan_out, "pattern-fan-out", move || d.with(|d| matches!(d.patterns.get(i), Some(Pattern::Read(r)) if r.fan_out)), move |v| update_read(ctx, i, |r| r.fan_out = v))}
            </div>
        }
    };
    let ops = || {
        OPS.iter()
            .map(|o| (op_name(*o).to_string(), op_name(*o).to_string()))
            .collect()
    };
    let write_fields = move || {
        view! {
            <div class="field-row">
                {form::select(msg::design_pattern_op, "pattern-op", ops, write(|w| op_name(w.op).to_string()), move |v| {
                    if let Some(op) = OPS.into_iter().find(|o| op_name(*o) == v) { update_write(ctx, i, |w| w.op = op) }
                })}
            </div>
            <super::edit_keys::WriteTypes i=i />
            <div class="field-row">
                {form::check(msg::design_pattern_batch, "pattern-batch", move || d.with(|d| matches!(d.patterns.get(i), Some(Pattern::Write(w)) if w.batch)), move |v| update_write(ctx, i, |w| w.batch = v))}
                {form::check(msg::design_pattern_read_first, "pattern-read-first", move || d.with(|d| matches!(d.patterns.get(i), Some(Pattern::Write(w)) if w.read_first)), move |v| update_write(ctx, i, |w| w.read_first = v))}
            </div>
        }
    };
    view! {
        <li class="design-pattern" data-index=i>
            <div class="field-row">
                <span class="pattern-kind">{move || if is_read.get() { msg::design_read() } else { msg::design_write() }}</span>
                {form::text(msg::design_pattern_name, "pattern-name", name, set_name)}
                {form::text(msg::design_pattern_rate, "pattern-rate", rate, set_rate)}
                <button type="button" class="remove-pattern" on:click=move |_| d.update(|d| { if i < d.patterns.len() { d.patterns.remove(i); } })>
                    {t(msg::design_remove)}
                </button>
            </div>
            {move || if is_read.get() { read_fields().into_any() } else { write_fields().into_any() }}
            <FieldProblems prefix=format!("patterns[{i}]") element=Element::Pattern />
        </li>
    }
}
