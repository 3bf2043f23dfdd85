//! The first visit: while the playground has no table, the Entities section opens with what
//! Tablescope is and two ways to start, the first lesson or the guide's sample table.
//!
//! Only the view is drawn at start; what the buttons do runs on a click, so that code is not
//! in the first visit's primary wasm (scripts/split.mjs moves it to the deferred one).

use crate::engine::{RawEntity, Request};
use crate::i18n::{msg, t};
use crate::ui::kit::fields::never;
use crate::ui::state::navigation::{Navigation, Section};
use crate::ui::state::workspace::Workspace;
use crate::ui::state::{AppState, Storage};
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// The lesson file whose `createTable` and `insert` steps are the sample data: the guide's
/// Employees table (`scenarios/employees.json`, the first lesson too). The sample is that
/// lesson's data, fetched on the click, so the two never disagree and no wasm carries it.
const SAMPLE_LESSON: &str = "employees.json";

/// What Tablescope is, "Learn in 5 minutes" and "Load sample data"; drawn only while there
/// is no table.
#[component]
pub fn Welcome() -> impl IntoView {
    let state = AppState::expect();
    let empty = Memo::new(move |_| state.describe_tables().is_empty());
    move || empty.get().then(welcome_panel)
}

fn welcome_panel() -> AnyView {
    let section = Navigation::expect();
    // Taken here: the task below runs outside the component, where there is no context.
    let (state, workspace) = (AppState::expect(), Workspace::expect());
    let busy = RwSignal::new(false);
    let sample = move |()| {
        busy.set(true);
        leptos::task::spawn_local(async move {
            let outcome = load_sample(state).await;
            busy.try_set(false);
            match outcome {
                Ok(table) => {
                    workspace.table.set(Some(table));
                    section.set(Section::Data);
                    // After the next frame: by then the welcome is gone and the grid drawn, so
                    // the heading stays where it was scrolled to.
                    request_animation_frame(|| focus_when_ready("#data-heading", true, 50));
                }
                // Said in the banner above the page (dismissible), as storage problems are.
                Err(e) => Storage::get().tell(format!("{}: {e}", msg::start_sample()), false),
            }
        });
    };
    let learn = move |()| {
        section.set(Section::Learn);
        open_first_lesson(150);
    };
    view! {
        <section class="panel welcome" aria-labelledby="welcome-heading">
            <h2 id="welcome-heading">{t(msg::start_heading)}</h2>
            <p class="welcome-intro">{t(msg::start_intro)}</p>
            <div class="welcome-starts">
                {start_card("start-card start-learn", msg::start_learn, msg::start_learn_hint, never(), Callback::new(learn))}
                {start_card("start-card start-sample", msg::start_sample, msg::start_sample_hint, busy.into(), Callback::new(sample))}
            </div>
        </section>
    }
    .into_any()
}

/// One start: a title and a line under it. One function for both, so their view code is
/// instantiated once.
fn start_card(
    class: &'static str,
    title: fn() -> String,
    hint: fn() -> String,
    disabled: Signal<bool>,
    on: Callback<()>,
) -> AnyView {
    view! {
        <button type="button" class=class disabled=disabled on:click=move |_| on.run(())>
            <span class="start-title">{t(title)}</span>
            <span class="start-hint">{t(hint)}</span>
        </button>
    }
    .into_any()
}

/// Creates the sample table (the lesson's table with the entities its steps insert) as the
/// user's own, saved like any table; its name.
async fn load_sample(state: AppState) -> Result<String, String> {
    let text = crate::ui::kit::fetch::scenario_text(SAMPLE_LESSON).await?;
    let lesson: serde_json::Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
    let steps = lesson
        .get("steps")
        .and_then(serde_json::Value::as_array)
        .ok_or("the lesson has no steps")?;
    fn op_of(step: &serde_json::Value) -> Option<&str> {
        step.get("op").and_then(serde_json::Value::as_str)
    }
    let table = steps
        .iter()
        .find(|s| op_of(s) == Some("createTable"))
        .and_then(|s| s.get("table")?.as_str())
        .ok_or("the lesson creates no table")?
        .to_string();
    let mut requests = vec![Request::CreateTable {
        table: table.clone(),
    }];
    for step in steps.iter().filter(|s| op_of(s) == Some("insert")) {
        let entity = step.get("entity").ok_or("an insert step has no entity")?;
        let entity = RawEntity::parse(&entity.to_string()).map_err(|e| e.to_string())?;
        requests.push(Request::Insert {
            table: table.clone(),
            entity,
        });
    }
    // One change: every request, saved together; the first refusal stops it and is shown.
    state
        .change(|account| {
            for request in &requests {
                if let Some(e) = account.execute(request).error {
                    return Err(e);
                }
            }
            Ok(())
        })
        .map_err(|say| say())?;
    Ok(table)
}

/// Opens the first lesson: the Learn section mounts the lessons module, which lists the
/// lessons once loaded; the first entry is pressed as a click would, then the player's first
/// step button takes focus (the player itself scrolls to the lesson's introduction, which is
/// above that button). Tries every 100 ms, `tries` more times.
fn open_first_lesson(tries: u32) {
    match element(".lessons-host .scenario-load") {
        Some(first) => {
            first.click();
            focus_when_ready(".scenario-player .run-next", false, 50);
        }
        None if tries > 0 => {
            set_timeout(
                move || open_first_lesson(tries - 1),
                std::time::Duration::from_millis(100),
            );
        }
        None => {}
    }
}

/// Focuses the element `selector` matches, scrolled to the top when `scroll` (else only as
/// far as focus needs), as soon as it is on the page (every 100 ms, `tries` more times). A
/// heading gets `tabindex="-1"` to take focus.
fn focus_when_ready(selector: &'static str, scroll: bool, tries: u32) {
    match element(selector) {
        Some(el) => {
            if el.tab_index() < 0 && !el.has_attribute("tabindex") {
                let _ = el.set_attribute("tabindex", "-1");
            }
            if scroll {
                el.scroll_into_view();
            }
            let _ = el.focus();
        }
        None if tries > 0 => {
            set_timeout(
                move || focus_when_ready(selector, scroll, tries - 1),
                std::time::Duration::from_millis(100),
            );
        }
        None => {}
    }
}

fn element(selector: &str) -> Option<web_sys::HtmlElement> {
    web_sys::window()?
        .document()?
        .query_selector(selector)
        .ok()
        .flatten()?
        .dyn_into()
        .ok()
}
