//! One condition row of the query builder: property, operator, type and value.

use super::group::Edit as ConditionEdit;
use crate::engine::filter::CmpOp;
use crate::engine::EdmType;
use crate::i18n::{msg, t};
use crate::ui::state::model::Builder;
use leptos::prelude::*;

/// One condition: property, operator, type, value.
#[component]
pub(super) fn ConditionRow(
    id: u64,
    builder: RwSignal<Builder>,
    edit: Callback<ConditionEdit>,
) -> impl IntoView {
    let get = move || builder.with(|b| b.conditions.condition(id).cloned());
    view! {
        // A named group: every row's fields have the same labels, the group tells them apart.
        <div
            class="condition-row"
            data-condition-id=id
            role="group"
            aria-label=move || {
                let n = builder.with(|b| b.conditions.ordinal(id)).unwrap_or(0);
                msg::query_cond_group(crate::i18n::number(n))
            }
        >
            <input
                type="text"
                class="cond-property"
                dir="ltr"
                aria-label=t(msg::query_cond_property)
                placeholder=t(msg::query_cond_property)
                spellcheck="false"
                prop:value=move || get().map(|c| c.property).unwrap_or_default()
                on:input=move |ev| edit.run(ConditionEdit::Property(event_target_value(&ev)))
            />
            <select
                class="cond-op"
                aria-label=t(msg::query_cond_operator)
                prop:value=move || get().map(|c| c.op.as_str()).unwrap_or("eq")
                on:change=move |ev| {
                    let v = event_target_value(&ev);
                    if let Some(op) = CmpOp::from_keyword(&v) {
                        edit.run(ConditionEdit::Op(op));
                    }
                }
            >
                {CmpOp::ALL.into_iter().map(|o| view! { <option value=o.as_str()>{o.as_str()}</option> }).collect_view()}
            </select>
            <select
                class="cond-type"
                aria-label=t(msg::query_cond_type)
                prop:value=move || get().map(|c| c.edm.short_name()).unwrap_or("String")
                on:change=move |ev| {
                    let v = event_target_value(&ev);
                    let t = EdmType::from_odata_name(&format!("Edm.{v}")).unwrap_or(EdmType::String);
                    edit.run(ConditionEdit::Type(t));
                }
            >
                {EdmType::ALL.into_iter().map(|t| view! { <option value=t.short_name()>{t.short_name()}</option> }).collect_view()}
            </select>
            <input
                type="text"
                class="cond-value"
                dir="ltr"
                aria-label=t(msg::query_cond_value)
                placeholder=t(msg::query_cond_value_placeholder)
                spellcheck="false"
                prop:value=move || get().map(|c| c.text).unwrap_or_default()
                on:input=move |ev| edit.run(ConditionEdit::Text(event_target_value(&ev)))
            />
            <button
                type="button"
                class="remove-condition"
                aria-label=t(msg::query_cond_remove)
                on:click=move |_| edit.run(ConditionEdit::Remove)
            >
                "×"
            </button>
        </div>
    }
}
