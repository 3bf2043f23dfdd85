//! The editor's first half: the design's name and seed, its tables, and its entity types
//! (table, key templates, count; properties in `edit_props`).

use super::doc::Ctx;
use super::field_problems::{Element, FieldProblems};
use super::form;
use crate::design::{Design, EntityType};
use crate::i18n::{msg, t};
use leptos::prelude::*;

/// Changes entity type `i` (nothing when it is gone).
pub fn update_type(ctx: Ctx, i: usize, f: impl FnOnce(&mut EntityType)) {
    ctx.design.update(|d| {
        if let Some(ty) = d.entity_types.get_mut(i) {
            f(ty);
        }
    });
}

/// The design's tables as select choices.
pub fn table_choices(ctx: Ctx) -> Vec<(String, String)> {
    ctx.design
        .with(|d| d.tables.iter().map(|t| (t.clone(), t.clone())).collect())
}

#[component]
pub fn TypesEditor() -> impl IntoView {
    let ctx = Ctx::expect();
    let d = ctx.design;
    let tables = Memo::new(move |_| d.with(|d| d.tables.len()));
    let types = Memo::new(move |_| d.with(|d| d.entity_types.len()));
    let new_table = RwSignal::new(String::new());
    let add_table = move || {
        let name = new_table.get_untracked().trim().to_string();
        if !name.is_empty() {
            d.update(|d| d.tables.push(name));
            new_table.set(String::new());
        }
    };
    view! {
        <section class="panel design-editor" aria-labelledby="design-doc-heading">
            <h2 id="design-doc-heading">{t(msg::design_doc_heading)}</h2>
            <div class="field-row">
                {form::text(msg::design_name, "design-name", move || d.with(|d| d.name.clone()), move |v| d.update(|d| d.name = v))}
                {form::text(msg::design_seed, "design-seed", move || d.with(|d| d.seed.to_string()), move |v| {
                    if let Ok(s) = v.trim().parse() {
                        d.update(|d| d.seed = s);
                    }
                })}
            </div>
            <h3>{t(msg::design_tables)}</h3>
            <ul class="design-tables">
                {move || (0..tables.get()).map(|i| view! {
                    <li class="field-row">
                        {form::text(msg::design_table_name, "design-table", move || d.with(|d| d.tables.get(i).cloned().unwrap_or_default()), move |v| d.update(|d| {
                            if let Some(t) = d.tables.get_mut(i) { *t = v; }
                        }))}
                        <button type="button" class="remove-table" on:click=move |_| d.update(|d| { if i < d.tables.len() { d.tables.remove(i); } })>
                            {t(msg::design_remove)}
                        </button>
                    </li>
                }).collect_view()}
            </ul>
            <div class="field-row">
                <label class="field">
                    <span>{t(msg::design_new_table)}</span>
                    <input type="text" class="new-table" dir="ltr" prop:value=move || new_table.get()
                        on:input=move |ev| new_table.set(event_target_value(&ev))
                        on:keydown=move |ev| if ev.key() == "Enter" { add_table() } />
                </label>
                <button type="button" class="add-table" on:click=move |_| add_table()>{t(msg::design_add_table)}</button>
            </div>
            <h3>{t(msg::design_types)}</h3>
            {move || (0..types.get()).map(|i| view! { <TypeRow i=i /> }).collect_view()}
            <button type="button" class="add-type" on:click=move |_| d.update(add_type)>{t(msg::design_add_type)}</button>
            <super::project::Problems />
        </section>
    }
}

/// A new entity type in the first table, keyed by a sequential id.
fn add_type(d: &mut Design) {
    let n = d.entity_types.len() + 1;
    d.entity_types.push(EntityType {
        name: format!("Type{n}"),
        table: d.tables.first().cloned().unwrap_or_default(),
        partition_key: String::new(),
        row_key: String::new(),
        count: 1000,
        copy_of: None,
        properties: Vec::new(),
    });
}

/// The types entity type `i` can copy: none, or any other type (a copy repeats its source's
/// values under its own keys: an index entity).
fn copy_choices(ctx: Ctx, i: usize) -> Vec<(String, String)> {
    ctx.design.with(|d| {
        let mut out = vec![(String::new(), msg::design_copy_none())];
        out.extend(
            d.entity_types
                .iter()
                .enumerate()
                .filter(|(j, _)| *j != i)
                .map(|(_, t)| (t.name.clone(), t.name.clone())),
        );
        out
    })
}

#[component]
fn TypeRow(i: usize) -> impl IntoView {
    let ctx = Ctx::expect();
    let d = ctx.design;
    let get = move |f: fn(&EntityType) -> String| {
        move || d.with(|d| d.entity_types.get(i).map(f).unwrap_or_default())
    };
    view! {
        <fieldset class="design-type" data-index=i>
            <legend>{move || get(|t| t.name.clone())()}</legend>
            <div class="field-row">
                {form::text(msg::design_type_name, "type-name", get(|t| t.name.clone()), move |v| update_type(ctx, i, |t| t.name = v))}
                {form::select(msg::design_type_table, "type-table", move || table_choices(ctx), get(|t| t.table.clone()), move |v| update_type(ctx, i, |t| t.table = v))}
                {form::text(msg::design_type_count, "type-count", get(|t| t.count.to_string()), move |v| {
                    if let Some(n) = super::doc::parse_count(&v) { update_type(ctx, i, |t| t.count = n) }
                })}
            </div>
            <div class="field-row">
                {form::select(msg::design_type_copy_of, "type-copy-of", move || copy_choices(ctx, i), get(|t| t.copy_of.clone().unwrap_or_default()), move |v| {
                    update_type(ctx, i, |t| t.copy_of = (!v.is_empty()).then_some(v))
                })}
                {form::text(msg::design_type_pk, "type-pk", get(|t| t.partition_key.clone()), move |v| update_type(ctx, i, |t| t.partition_key = v))}
                {form::text(msg::design_type_rk, "type-rk", get(|t| t.row_key.clone()), move |v| update_type(ctx, i, |t| t.row_key = v))}
            </div>
            <FieldProblems prefix=format!("entityTypes[{i}]") element=Element::Type />
            <p class="field-note">{|| msg::design_template_help("{hash(UserId) % 16}", "{Day:date}", "{MaxTicks - Created}", "{Id:06}", "{Property}")}</p>
            <super::edit_props::PropertiesEditor i=i />
            <button type="button" class="remove-type" on:click=move |_| d.update(|d| { if i < d.entity_types.len() { d.entity_types.remove(i); } })>
                {t(msg::design_remove_type)}
            </button>
        </fieldset>
    }
}
