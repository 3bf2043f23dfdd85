//! The storage banner: what went wrong with saving, in plain words, until dismissed.

use crate::i18n::msg;
use crate::ui::kit::fields::{action_button, never};
use crate::ui::state::{reload_saved_tables, AppState, Storage};
use leptos::prelude::*;

/// Every storage problem the page has met (storage unavailable, quota, another tab, damaged
/// data), each with a Dismiss button; damaged data also offers to go on with what can be read.
/// While a save is in flight (or held back for a replace), it says so.
#[component]
pub fn StorageBanner() -> impl IntoView {
    let storage = Storage::get();
    let state = AppState::expect();
    let saving = move || {
        storage.busy.get().then(|| {
            view! { <p class="save-status" role="status">{crate::i18n::t(msg::banner_saving)}</p> }
        })
    };
    let notices = move || {
        storage
            .notices
            .get()
            .into_iter()
            .map(|notice| {
                let text = notice.text.clone();
                let say = notice.say.clone();
                let dismiss = Callback::new(move |()| {
                    storage.notices.update(|n| n.retain(|n| n.text != text));
                });
                let recover = notice.recover.then(|| {
                    let go = Callback::new(move |()| {
                        dismiss.run(());
                        leptos::task::spawn_local(async move {
                            reload_saved_tables(state, true).await;
                        });
                    });
                    action_button(msg::banner_continue, "primary", never(), go)
                });
                view! {
                    <div class="storage-banner" role="alert">
                        <p>{move || (say)()}</p>
                        <div class="banner-actions">
                            {recover}
                            {action_button(msg::banner_dismiss, "", never(), dismiss)}
                        </div>
                    </div>
                }
            })
            .collect_view()
    };
    view! { {saving} {notices} }
}
