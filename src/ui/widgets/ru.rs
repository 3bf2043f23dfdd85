//! A Cosmos DB for Table answer's request units. Invariant: the figure is always labelled an
//! estimate and carries, one click away, how the model computes it (`engine::target::ru`)
//! and the published figures it is built on.

use crate::i18n::{msg, number, t};
use leptos::prelude::*;

/// Microsoft's table of read and write request units by item size, which the model
/// interpolates (cited in `crates/engine/src/target/ru.rs`).
const PUBLISHED_FIGURES: &str =
    "https://learn.microsoft.com/azure/cosmos-db/understand-request-unit-consumption";

/// "Request units (estimate): 14.85 RU", and "How is this estimated?" opened on demand.
#[component]
pub fn RuEstimate(ru: f64) -> impl IntoView {
    view! {
        <div class="ru-estimate" data-ru=ru.to_string()>
            <p class="ru-figure">
                <span class="ru-label">{t(msg::ru_estimate_label)}</span>
                " "
                <strong class="ru-value">{move || msg::ru_estimate_value(number(ru))}</strong>
            </p>
            <RuModel />
        </div>
    }
}

/// "How is this estimated?": the model and the published figures it is built on, opened on
/// demand, beside any figure of estimated request units.
#[component]
pub fn RuModel() -> impl IntoView {
    view! {
        <details class="ru-model">
            <summary>{t(msg::ru_model_summary)}</summary>
            <p>{t(msg::ru_model_text)}</p>
            <p>
                <a href=PUBLISHED_FIGURES target="_blank" rel="noopener">{t(msg::ru_model_link)}</a>
            </p>
        </details>
    }
}
