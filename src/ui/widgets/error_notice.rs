//! The service's error, shown inline beside the form that caused it.

use crate::engine::Error;
use leptos::prelude::*;

/// Shows `error` as the service reports it (status, code, message) with Tablescope's own
/// explanation below; renders nothing while `error` is `None`.
#[component]
pub fn ErrorNotice(
    /// The last failure of the request this notice belongs to.
    #[prop(into)]
    error: Signal<Option<Error>>,
) -> impl IntoView {
    move || {
        error.get().map(|e| {
            let heading = format!("{} {}", e.status(), e.code);
            view! {
                <div class="error-notice" role="alert" data-code=e.code.as_str()>
                    <p class="error-service">
                        <strong class="error-code">{heading}</strong>
                        ": "
                        <span class="error-message">{e.message}</span>
                    </p>
                    // Tablescope's explanation, in the language shown (the code and the
                    // service's message above are API and stay as sent).
                    {e.detail.map(|d| view! { <p class="error-detail">{move || crate::ui::text::error_text::detail(&d)}</p> })}
                </div>
            }
        })
    }
}
