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

/// The command that starts `tablescope-serve` as the README does, answering requests without
/// a credential, on `endpoint`'s port when it is not the default one (10002).
pub fn anonymous_command(endpoint: &str) -> String {
    let authority = endpoint.split("://").nth(1).unwrap_or_default();
    let authority = authority.split('/').next().unwrap_or_default();
    let port = authority
        .rsplit_once(':')
        .map(|(_, p)| p)
        .filter(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()) && *p != "10002");
    let mut command = String::from(
        "cargo run -p tablescope-serve --profile serve -- --location ./tablescope-data --allow-anonymous",
    );
    if let Some(port) = port {
        command.push_str(" --port ");
        command.push_str(port);
    }
    command
}

/// `failure` in words, for a request to `connection` (the sandbox's failures are always
/// [`Failure::Service`]). A 401 without credentials (no SAS) says how to give one, or how to
/// start `tablescope-serve` so that it needs none.
pub fn failure_view(failure: Failure, connection: Option<Connection>) -> AnyView {
    match failure {
        Failure::Service {
            status,
            code,
            message,
        } => {
            let shown = code.clone();
            let anonymous = connection
                .filter(|c| c.sas.is_empty() && status == 401 && code == "NoAuthenticationInformation")
                .map(|c| {
                    let command = anonymous_command(&c.endpoint);
                    let endpoint = c.endpoint;
                    view! {
                        <div class="connect-anonymous">
                            <p>{move || msg::connect_anonymous(&endpoint)}</p>
                            <pre dir="ltr" class="connect-anonymous-command">{command}</pre>
                            <p>{move || msg::connect_anonymous_sas()}</p>
                        </div>
                    }
                });
            view! {
                <div class="error-notice connect-error" role="alert" data-code=code.clone() data-status=status>
                    <p>{move || msg::connect_service_error(&shown, &message, status)}</p>
                    {anonymous}
                </div>
            }
            .into_any()
        }
        Failure::Malformed {
            status,
            content_type,
            reason,
            start,
        } => view! {
            <div class="error-notice connect-error connect-malformed" role="alert" data-status=status>
                <p>
                    {move || {
                        let kind = if content_type.is_empty() {
                            msg::connect_no_content_type()
                        } else {
                            content_type.clone()
                        };
                        msg::connect_malformed(&kind, &reason, status)
                    }}
                </p>
                <pre dir="ltr" class="connect-malformed-body">{start}</pre>
            </div>
        }
        .into_any(),
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
