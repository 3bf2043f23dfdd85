//! A failed request, shown as the service sent it; or, when no answer reached the page, what
//! CORS is and how to allow this page's origin (Azure CLI and portal).

use super::connection::{page_origin, Connection};
use super::remote::Failure;
use crate::i18n::msg;
use leptos::prelude::*;

/// The CORS methods a rule must allow for everything this section sends (and the SDK's).
const METHODS: &str = "DELETE GET HEAD MERGE OPTIONS POST PUT";

/// The Azure CLI command that allows `origin` on `account`'s Table service.
pub fn cli_command(account: &str, origin: &str) -> String {
    format!(
        "az storage cors add --account-name {account} --services t --methods {METHODS} \
         --origins {origin} --allowed-headers '*' --exposed-headers '*' --max-age 3600"
    )
}

/// `failure` in words, for a request to `connection` (the sandbox's failures are always
/// [`Failure::Service`]).
pub fn failure_view(failure: Failure, connection: Option<Connection>) -> AnyView {
    match failure {
        Failure::Service {
            status,
            code,
            message,
        } => {
            let shown = code.clone();
            view! {
            <p class="error-notice connect-error" role="alert" data-code=code.clone() data-status=status>
                {move || msg::connect_service_error(&shown, &message, status)}
            </p>
        }
        .into_any()
        }
        Failure::Unreachable { origin, detail } => {
            let page = page_origin();
            let account = connection
                .map(|c| c.account())
                .unwrap_or_else(|| "<account>".into());
            let command = cli_command(&account, &page);
            let (o1, p1, p2) = (origin.clone(), page.clone(), page.clone());
            view! {
                <div class="error-notice connect-cors" role="alert">
                    <p>{move || msg::connect_cors(&detail, &o1, &p1)}</p>
                    <p>{move || msg::connect_cors_cli()}</p>
                    <pre dir="ltr" class="connect-cors-cli">{command}</pre>
                    <p>{move || msg::connect_cors_portal(METHODS.replace(' ', ", "), &p2)}</p>
                    <p>{move || msg::connect_cors_local()}</p>
                </div>
            }
            .into_any()
        }
    }
}
