//! The docs embed: `?embed=1&scenario=query-kinds.json` shows only the scenario player and
//! its partition maps, preloaded, on the scenario's own account. It never opens the user's
//! IndexedDB sandbox (nothing here attaches persistence) and links to the full playground.

use super::player::ScenarioPlayer;
use super::{is_scenario_file, scenario_text_in};
use crate::i18n::{msg, t};
use crate::ui::kit::address::query_param;
use leptos::prelude::*;
use leptos::task::spawn_local;

/// The scenario file to embed, when the page was opened in embed mode.
pub fn embed_request() -> Option<String> {
    (query_param("embed").as_deref() == Some("1"))
        .then(|| query_param("scenario").unwrap_or_else(|| "query-kinds.json".into()))
}

/// Mounts the embed instead of the app when the URL asks for it; `false` otherwise.
pub fn mount_embed() -> bool {
    match embed_request() {
        Some(file) => {
            wasm_bindgen_futures::spawn_local(async move {
                // The host page passes its language as `?lang=`.
                crate::i18n::start_embed(crate::modules::LESSON.name).await;
                leptos::mount::mount_to_body(move || view! { <Embed file=file.clone() /> });
            });
            true
        }
        None => false,
    }
}

/// The compact player of one built-in scenario.
#[component]
pub fn Embed(
    /// The scenario's file name in `scenarios/`.
    file: String,
) -> impl IntoView {
    let text = RwSignal::new(None::<Result<String, String>>);
    let generation = RwSignal::new(0u32);
    {
        let file = file.clone();
        spawn_local(async move {
            let result = scenario_text_in(
                &file,
                crate::i18n::lang::shown_by_page().unwrap_or(crate::i18n::Lang::En),
            )
            .await;
            text.try_set(Some(result));
        });
    }
    let full = if is_scenario_file(&file) {
        format!("./?scenario={file}#learn")
    } else {
        "./".to_string()
    };
    view! {
        <main class="embed-main" data-embed="1">
            <div class="embed-bar">
                <strong>{t(msg::learn_embed_title)}</strong>
                <span class="embed-actions">
                    <button
                        type="button"
                        class="embed-reset"
                        on:click=move |_| generation.update(|g| *g += 1)
                    >
                        {t(msg::learn_start_over)}
                    </button>
                    " "
                    <a class="embed-open" href=full target="_blank" rel="noopener">
                        {t(msg::learn_open_full)}
                    </a>
                </span>
            </div>
            {move || {
                generation.track();
                match text.get() {
                    None => view! { <p class="hint">{t(msg::learn_loading_lesson)}</p> }.into_any(),
                    Some(Ok(t)) => view! { <ScenarioPlayer text=t /> }.into_any(),
                    Some(Err(e)) => view! { <p class="error-notice" role="alert">{e}</p> }.into_any(),
                }
            }}
        </main>
    }
}
