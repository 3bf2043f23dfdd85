//! Learning with Tablescope: the built-in teaching scenarios with a step-by-step
//! player, the partition map of what a query scanned, the throughput simulator, share links,
//! the docs embed and the offline service worker.
//!
//! Scenarios run on their own account (the scenario [`Runner`](crate::engine::scenario::Runner)'s),
//! never on the user's sandbox account.

pub mod embed;
mod follow;
pub mod lazy;
mod player;
mod simulator;
mod step_card;
pub mod steps;
mod try_query;

pub use crate::ui::kit::fetch::{is_scenario_file, scenario_text, scenario_text_in, SCENARIO_DIR};
use crate::ui::kit::{address, fetch};
use crate::ui::text::localized;
pub use crate::ui::widgets::markdown::Markdown;
pub use crate::ui::widgets::partition_map::STYLESHEET;
pub use crate::ui::widgets::partition_map::{
    layout, map_request, page_keys, rows_of, MapData, MapRows, MapView, PartitionMap,
};
use crate::ui::widgets::share;
pub use crate::ui::widgets::share::SharePanel;
pub use embed::mount_embed;
pub use player::ScenarioPlayer;
pub use simulator::SimulatorPanel;

use crate::i18n::{msg, t};
use leptos::prelude::*;
use leptos::task::spawn_local;

/// One entry of `scenarios/index.json`: `name` and `summary` are strings or objects of
/// translations (`{"en": …, "de": …}`), as in lesson files.
#[derive(Debug, Clone, PartialEq)]
pub struct ScenarioEntry {
    pub file: String,
    pub name: localized::Localized,
    pub summary: localized::Localized,
}

/// The built-in scenarios, from `scenarios/index.json`.
pub async fn scenario_index() -> Result<Vec<ScenarioEntry>, String> {
    let text = fetch::text(&format!("{SCENARIO_DIR}index.json")).await?;
    parse_index(&text)
}

/// Reads `index.json` (through `serde_json::Value`, which the scenario parser already links,
/// rather than a derived struct: smaller wasm).
pub fn parse_index(text: &str) -> Result<Vec<ScenarioEntry>, String> {
    let bad =
        || "scenarios/index.json: expected {\"scenarios\": [{file, name, summary}]}".to_string();
    let root: serde_json::Value =
        serde_json::from_str(text).map_err(|e| format!("scenarios/index.json: {e}"))?;
    let list = root
        .get("scenarios")
        .and_then(serde_json::Value::as_array)
        .ok_or_else(bad)?;
    list.iter()
        .map(|e| {
            let text = |name: &str| {
                e.get(name)
                    .and_then(localized::Localized::read)
                    .ok_or_else(bad)
            };
            Ok(ScenarioEntry {
                file: e
                    .get("file")
                    .and_then(serde_json::Value::as_str)
                    .map(str::to_string)
                    .ok_or_else(bad)?,
                name: text("name")?,
                summary: text("summary")?,
            })
        })
        .collect()
}

/// The Learn section in the playground: the lessons (the scenario list and the player of the
/// chosen one), loaded as their own module the first time the section is shown; the
/// throughput simulator and the workspace share panel, which stay in the playground's code
/// (its deferred part): a docs embed shows neither, and its lesson module, which every embed
/// downloads, is smaller without them.
#[component]
pub fn LearnSection() -> impl IntoView {
    view! {
        <lazy::LessonsHost />
        <SimulatorPanel />
        <SharePanel />
    }
}

/// The lessons module's view (see `src/bin/learn.rs`): mounts the scenario list and the player
/// into `host` for the page's lifetime.
pub fn mount_learn(host: web_sys::HtmlElement) {
    wasm_bindgen_futures::spawn_local(async move {
        // The playground's language (this module has its own copy of the catalogues).
        crate::i18n::start_as_page().await;
        leptos::mount::mount_to(host, || view! { <LearnPanel /> }).forget();
    });
}

/// The built-in scenarios, each loadable in one click, and the player.
#[component]
pub fn LearnPanel() -> impl IntoView {
    let index = RwSignal::new(None::<Result<Vec<ScenarioEntry>, String>>);
    // (file, text) of the loaded scenario.
    let loaded = RwSignal::new(None::<(String, Result<String, String>)>);
    spawn_local(async move {
        let result = scenario_index().await;
        index.try_set(Some(result));
    });
    // Preloaded: a shared scenario (`#share=s.…`) or a built-in one (`?scenario=file.json`,
    // the embed's "open in the full playground" link).
    spawn_local(async move {
        match share::decode(&address::page_fragment()).await {
            Some(Ok((share::Kind::Scenario, text))) => {
                loaded.try_set(Some(("shared".into(), Ok(text))));
                address::clear_fragment();
            }
            Some(Err(e)) => {
                loaded.try_set(Some(("shared".into(), Err(e.to_string()))));
            }
            _ => {
                if let Some(file) = address::query_param("scenario") {
                    let text = scenario_text(&file).await;
                    loaded.try_set(Some((file, text)));
                }
            }
        }
    });
    let load = move |file: String| {
        spawn_local(async move {
            let text = scenario_text(&file).await;
            loaded.try_set(Some((file, text)));
        });
    };
    view! {
        <section class="panel learn-panel" id="learn" aria-labelledby="learn-heading">
            <h2 id="learn-heading">{t(msg::learn_heading)}</h2>
            <p class="hint">
                {t(msg::learn_intro)}
            </p>
            // The list renders again when the language changes (it holds no state).
            {move || match (crate::i18n::lang(), index.get()).1 {
                None => view! { <p class="hint">{t(msg::learn_loading_list)}</p> }.into_any(),
                Some(Err(e)) => view! { <p class="error-notice" role="alert">{e}</p> }.into_any(),
                Some(Ok(entries)) => view! {
                    <ul class="scenario-list">
                        {entries
                            .into_iter()
                            .map(|entry| {
                                let file = entry.file.clone();
                                let current = {
                                    let file = file.clone();
                                    move || loaded.with(|l| l.as_ref().is_some_and(|(f, _)| *f == file))
                                };
                                view! {
                                    <li>
                                        <button
                                            type="button"
                                            class="scenario-load"
                                            data-file=file.clone()
                                            aria-pressed=move || current().to_string()
                                            on:click=move |_| load(file.clone())
                                        >
                                            <span class="scenario-title">{entry.name.get()}</span>
                                            <span class="scenario-summary">{entry.summary.get()}</span>
                                        </button>
                                    </li>
                                }
                            })
                            .collect_view()}
                    </ul>
                }
                .into_any(),
            }}
            // The player keeps its steps across a language switch (its texts follow it).
            {move || {
                loaded
                    .get()
                    .map(|(_, text)| match text {
                        Ok(text) => view! { <ScenarioPlayer text=text /> }.into_any(),
                        Err(e) => view! { <p class="error-notice" role="alert">{e}</p> }.into_any(),
                    })
            }}
        </section>
    }
}
