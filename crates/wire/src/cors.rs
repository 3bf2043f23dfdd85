//! CORS by the account's rules (docs/service/settings.md#cors), as the service applies them:
//! a pure function of the rules and the request, shared by `tablescope-serve` and the
//! in-page transport.
//!
//! - A preflight (`OPTIONS`) without `Origin` or `Access-Control-Request-Method` is 400. One
//!   that the first rule admitting its origin, method and requested headers answers gets 200
//!   with that origin, the method and the requested headers echoed, the rule's max age and
//!   `Access-Control-Allow-Credentials: true`; with no such rule, 403 `CorsPreflightFailure`.
//! - An actual request with `Origin` that a rule admits (origin and method) carries
//!   `Access-Control-Allow-Origin` (`*` when the rule allows every origin, else the origin,
//!   then with `Access-Control-Allow-Credentials: true`) and `Access-Control-Expose-Headers`
//!   (the response's headers the rule exposes, and the rule's literal names); otherwise none.
//! - `Vary: Origin` is on every response exactly when the account has a CORS rule.

use super::reply::{error_response, header as h, Reply};
use super::{Context, HttpRequest, HttpResponse};
use tablescope_engine::{CorsRule, Error, ErrorCode, ServiceProperties};

/// Answers a preflight request by the account's rules.
pub fn preflight(
    properties: &ServiceProperties,
    context: &Context,
    request: &HttpRequest,
) -> HttpResponse {
    let origin = request.header_value("Origin").filter(|o| !o.is_empty());
    let method = request
        .header_value("Access-Control-Request-Method")
        .map(str::trim)
        .filter(|m| !m.is_empty());
    let (Some(origin), Some(method)) = (origin, method) else {
        let missing = if origin.is_none() {
            "Origin"
        } else {
            "Access-Control-Request-Method"
        };
        let error = Error::with_text(
            ErrorCode::InvalidHeaderValue,
            format!("a CORS preflight request needs the {missing} header"),
        );
        let mut response = error_response(context, request, &error);
        vary(properties, &mut response);
        return response;
    };
    let requested = request
        .header_value("Access-Control-Request-Headers")
        .filter(|h| !h.trim().is_empty());
    let Some(rule) = properties.cors_rule(origin, method, requested) else {
        let error = Error::with_text(
            ErrorCode::CorsPreflightFailure,
            format!("no CORS rule admits {method} from {origin}"),
        );
        let mut response = error_response(context, request, &error);
        vary(properties, &mut response);
        return response;
    };
    let mut own = vec![
        h("Access-Control-Allow-Origin", origin),
        h("Access-Control-Allow-Methods", method),
    ];
    if let Some(requested) = requested {
        own.push(h("Access-Control-Allow-Headers", requested));
    }
    own.push(h(
        "Access-Control-Max-Age",
        rule.max_age_in_seconds.to_string(),
    ));
    own.push(h("Access-Control-Allow-Credentials", "true"));
    let reply = Reply {
        context,
        version: super::reply::api_version(request),
        dialect: super::Dialect::Storage,
    };
    let mut response = reply.response(200, None, own, Vec::new(), Vec::new());
    vary(properties, &mut response);
    response
}

/// Adds to the response of an actual request (not a preflight) what the account's rules
/// say about its `Origin`.
pub fn decorate(
    properties: &ServiceProperties,
    request: &HttpRequest,
    response: &mut HttpResponse,
) {
    let origin = request.header_value("Origin").filter(|o| !o.is_empty());
    let method = request.method.to_ascii_uppercase();
    if let Some(rule) = origin.and_then(|o| properties.cors_rule(o, &method, None)) {
        let exposed = exposed(rule, response);
        let origin = origin.unwrap_or_default();
        if rule.any_origin() {
            response.headers.push(h("Access-Control-Allow-Origin", "*"));
        } else {
            response
                .headers
                .push(h("Access-Control-Allow-Origin", origin));
            response
                .headers
                .push(h("Access-Control-Allow-Credentials", "true"));
        }
        if !exposed.is_empty() {
            response
                .headers
                .push(h("Access-Control-Expose-Headers", exposed));
        }
    }
    vary(properties, response);
}

fn vary(properties: &ServiceProperties, response: &mut HttpResponse) {
    if !properties.cors.is_empty() {
        response.headers.push(h("Vary", "Origin"));
    }
}

/// The response's headers the rule exposes (by name, prefix or `*`), then the rule's
/// literal names the response lacks, comma separated.
fn exposed(rule: &CorsRule, response: &HttpResponse) -> String {
    let mut names: Vec<&str> = Vec::new();
    for (name, _) in &response.headers {
        let name = name.as_str();
        if tablescope_engine::settings::header_matches(&rule.exposed_headers, name)
            && !names.iter().any(|n| n.eq_ignore_ascii_case(name))
        {
            names.push(name);
        }
    }
    for entry in &rule.exposed_headers {
        let literal = !entry.ends_with('*');
        if literal && !names.iter().any(|n| n.eq_ignore_ascii_case(entry)) {
            names.push(entry);
        }
    }
    names.join(",")
}

/// Whether a request is a preflight: `OPTIONS`.
pub fn is_preflight(request: &HttpRequest) -> bool {
    request.method.eq_ignore_ascii_case("OPTIONS")
}
