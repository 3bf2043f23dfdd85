//! [`handle`]: route, authenticate, translate to a [`Request`], execute, write the response.

use super::{Context, Endpoint, HttpRequest, HttpResponse, Outcome};
use crate::account::Account;

/// Answers one HTTP request as the Table service would. Never panics; a request that is
/// refused changes nothing.
pub fn handle(
    account: &mut Account,
    endpoint: &Endpoint,
    context: &Context,
    request: &HttpRequest,
) -> Outcome {
    let _ = (account, endpoint, context, request);
    Outcome {
        response: HttpResponse {
            status: 501,
            ..HttpResponse::default()
        },
        request: None,
        stats: None,
    }
}
