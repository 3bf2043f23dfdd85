//! How a lesson follows the learner: the step just run comes into view under the player's
//! sticky controls, its result is said in words (for the live region), and a lesson opens at
//! its introduction.
//!
//! Scrolling moves only this document's window (never `scrollIntoView`, which would also
//! scroll a docs page that frames the lesson).

use super::player::StepView;
use crate::i18n::{msg, number};
use crate::ui::text::explain_text::kind_name;
use crate::ui::widgets::partition_map::layout;
use leptos::prelude::*;
use web_sys::{Element, ScrollBehavior, ScrollToOptions};

/// Room left between the sticky controls and the step under them, in CSS pixels.
const GAP: f64 = 8.0;

/// `201` or `409 EntityAlreadyExists`.
pub fn status_text(v: &StepView) -> String {
    match &v.code {
        Some(code) => format!("{} {}", v.status, code),
        None => v.status.to_string(),
    }
}

/// What the live region says of a step: for a query its kind and the partition map's
/// summary (scanned of the table's entities, returned), else its status.
pub fn announcement(v: &StepView) -> String {
    let step = number(v.index + 1);
    match (&v.map, v.kind) {
        (Some((rows, scanned, returned)), Some(kind)) => {
            let d = layout(rows, scanned, returned);
            let summary = msg::map_summary(
                msg::count_entities(d.entities),
                number(d.returned),
                number(d.scanned),
            );
            msg::learn_said_query(kind_name(kind), step, summary)
        }
        _ => msg::learn_said_status(step, status_text(v)),
    }
}

/// The page's element `selector` matches (a page shows one player).
fn find(selector: &str) -> Option<Element> {
    document().query_selector(selector).ok().flatten()
}

/// After the next frame (when the step is drawn), scrolls step `index` into view just below
/// the player's sticky controls unless it is whole in view there already; smoothly unless
/// the reader asked for reduced motion.
pub fn bring_into_view(index: usize) {
    request_animation_frame(move || {
        let step = find(&format!(".scenario-player .step[data-index=\"{index}\"]"));
        if let (Some(step), Some(bar)) = (step, find(".scenario-player .player-controls")) {
            scroll_to(&step, bar.get_bounding_client_rect().height() + GAP, true);
        }
    });
}

/// Opens a lesson at its introduction: after the next frame (when the player is drawn), when
/// the player starts above the window or its controls (the first step's button) end below
/// it, scrolls the player (at once) to the window's top.
pub fn open_at_intro() {
    request_animation_frame(|| {
        let (Some(article), Some(bar)) = (
            find(".scenario-player"),
            find(".scenario-player .player-controls"),
        ) else {
            return;
        };
        let top = article.get_bounding_client_rect().top();
        if top < 0.0 || bar.get_bounding_client_rect().bottom() > window_height() {
            scroll_to(&article, GAP, false);
        }
    });
}

fn window_height() -> f64 {
    window()
        .inner_height()
        .ok()
        .and_then(|h| h.as_f64())
        .unwrap_or(0.0)
}

/// Scrolls the window so `el` starts `under` pixels below its top, unless it is whole in view
/// below that line; `animate` is smooth scrolling, unless reduced motion is asked for.
fn scroll_to(el: &Element, under: f64, animate: bool) {
    let rect = el.get_bounding_client_rect();
    if rect.top() >= under && rect.bottom() <= window_height() {
        return;
    }
    let reduced = window()
        .match_media("(prefers-reduced-motion: reduce)")
        .ok()
        .flatten()
        .is_some_and(|m| m.matches());
    let options = ScrollToOptions::new();
    options.set_top(rect.top() - under);
    options.set_behavior(if animate && !reduced {
        ScrollBehavior::Smooth
    } else {
        ScrollBehavior::Instant
    });
    window().scroll_by_with_scroll_to_options(&options);
}
