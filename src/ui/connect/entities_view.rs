//! A read-only table of entities as the service answered them: the keys first, then every
//! other property in the order first seen. Values are data: shown as text, left to right.

use super::query::Entity;
use leptos::prelude::*;
use serde_json::Value;

/// The columns: PartitionKey, RowKey, then the rest (no metadata, no type annotations).
fn columns(entities: &[Entity]) -> Vec<String> {
    let mut out: Vec<String> = vec!["PartitionKey".into(), "RowKey".into()];
    for e in entities {
        for name in e.keys() {
            let skip =
                name.starts_with("odata.") || name.contains("@odata.") || name == "Timestamp";
            if !skip && !out.contains(name) {
                out.push(name.clone());
            }
        }
    }
    out
}

fn cell(v: Option<&Value>) -> String {
    match v {
        None => String::new(),
        Some(Value::String(s)) => s.clone(),
        Some(v) => v.to_string(),
    }
}

/// The entities as a table labelled `label` (a message, read when shown so the label follows a
/// language switch; `id` lets tests find it).
#[component]
pub fn EntitiesTable(
    entities: Vec<Entity>,
    label: fn() -> String,
    id: &'static str,
) -> impl IntoView {
    let cols = columns(&entities);
    let head = cols
        .iter()
        .map(|c| view! { <th scope="col">{c.clone()}</th> })
        .collect_view();
    let rows = entities
        .iter()
        .map(|e| {
            let cells = cols
                .iter()
                .map(|c| view! { <td>{cell(e.get(c))}</td> })
                .collect_view();
            view! { <tr>{cells}</tr> }
        })
        .collect_view();
    view! {
        <div class="grid-scroll" dir="ltr" tabindex="0" role="region" aria-label=crate::i18n::t(label)>
            <table class="grid" id=id>
                <thead>
                    <tr>{head}</tr>
                </thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
    }
}
