//! Adding a connection, saying what is stored and where, and forgetting it.

use super::connection::{self, Connection, Invalid};
use super::Shared;
use crate::i18n::{msg, t};
use leptos::prelude::*;

#[component]
pub fn ConnectForm(shared: Shared) -> impl IntoView {
    let kept = connection::load();
    // A kept endpoint whose SAS was not kept: its address is offered again, without the SAS.
    let url = RwSignal::new(kept.as_ref().map(|(c, _)| c.url("")).unwrap_or_default());
    let keep = RwSignal::new(kept.as_ref().is_some_and(|(c, _)| c.keep_sas));
    let sas_again = RwSignal::new(kept.is_some_and(|(_, complete)| !complete));
    let invalid = RwSignal::new(None::<Invalid>);
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        match Connection::parse(&url.get_untracked(), keep.get_untracked()) {
            Ok(c) => {
                connection::save(&c);
                invalid.set(None);
                sas_again.set(false);
                shared.table.set(String::new());
                shared.filter.set(String::new());
                shared.connection.set(Some(c));
            }
            Err(e) => invalid.set(Some(e)),
        }
    };
    let forget = move |_| {
        connection::forget();
        shared.connection.set(None);
        url.set(String::new());
        keep.set(false);
    };
    view! {
        <form class="connect-form" on:submit=submit>
            <div class="field">
                <label for="connect-url">{t(msg::connect_url)}</label>
                <input
                    id="connect-url"
                    type="text"
                    dir="ltr"
                    autocomplete="off"
                    spellcheck="false"
                    placeholder="https://<account>.table.core.windows.net/?sv=…&sig=…"
                    aria-invalid=move || invalid.get().is_some().then_some("true")
                    aria-describedby="connect-url-error connect-url-hint"
                    prop:value=move || url.get()
                    on:input=move |ev| url.set(event_target_value(&ev))
                />
                <p class="field-note" id="connect-url-hint">{t(msg::connect_url_hint)}</p>
                {move || {
                    sas_again
                        .get()
                        .then(|| view! { <p class="hint connect-sas-again" role="status">{t(msg::connect_sas_again)}</p> })
                }}
                <p class="field-error" id="connect-url-error" role="alert">
                    {move || {
                        invalid
                            .get()
                            .map(|e| match e {
                                Invalid::NotUrl => msg::connect_invalid_url(),
                                Invalid::NotSas => msg::connect_invalid_sas(),
                            })
                    }}
                </p>
            </div>
            <label class="inline-check">
                <input
                    type="checkbox"
                    id="connect-keep"
                    prop:checked=move || keep.get()
                    on:change=move |ev| keep.set(event_target_checked(&ev))
                />
                {t(msg::connect_keep_sas)}
            </label>
            <p class="hint connect-stored">{t(msg::connect_stored)}</p>
            <div class="editor-actions">
                <button type="submit" class="primary connect-add">{t(msg::connect_add)}</button>
                {move || {
                    shared
                        .connection
                        .with(Option::is_some)
                        .then(|| {
                            view! {
                                <button type="button" class="connect-forget" on:click=forget>
                                    {t(msg::connect_forget)}
                                </button>
                            }
                        })
                }}
            </div>
        </form>
        {move || {
            shared
                .connection
                .get()
                .map(|c| {
                    let sas: fn() -> String = if c.sas.is_empty() {
                        msg::connect_sas_none
                    } else if c.keep_sas {
                        msg::connect_sas_kept
                    } else {
                        msg::connect_sas_memory
                    };
                    view! {
                        <p class="connect-current" role="status">
                            {move || msg::connect_connected(&c.endpoint)}
                            " "
                            {t(sas)}
                        </p>
                    }
                })
        }}
    }
}
