//! The account-level operations (docs/service/settings.md): Get and Set Table Service
//! Properties, Get and Set Table ACL, Get Table Service Stats. They speak XML, not JSON: the
//! documents are read and written here, and their errors are the service's XML errors with
//! `x-ms-error-code`.

use super::auth::Credential;
use super::reply::{header as h, Reply};
use super::route::{Resource, Target};
use super::xml::{self, Element};
use super::{Endpoint, HttpRequest, HttpResponse, Outcome};
use tablescope_engine::settings::{Logging, Metrics, RetentionPolicy};
use tablescope_engine::{
    AccessPolicy, Account, CorsRule, DateTime, Error, ErrorCode, PropertiesUpdate, Request, Result,
    ServiceProperties, SignedIdentifier, Unsupported,
};

const XML: &str = "application/xml";
const BOM_AND_DECLARATION: &str = "\u{feff}<?xml version=\"1.0\" encoding=\"utf-8\"?>";

/// Answers a request whose target is one of the account-level operations. Every refusal is
/// the service's XML error.
pub(super) fn serve(
    account: &mut Account,
    endpoint: &Endpoint,
    reply: &Reply,
    request: &HttpRequest,
    resource: &Resource,
) -> Outcome {
    match run(account, endpoint, reply, request, resource) {
        Ok(outcome) => outcome,
        Err(error) => Outcome {
            response: error_response(reply, &error),
            request: None,
            stats: None,
            ru: None,
        },
    }
}

fn run(
    account: &mut Account,
    endpoint: &Endpoint,
    reply: &Reply,
    request: &HttpRequest,
    resource: &Resource,
) -> Result<Outcome> {
    super::handle::check_versions(request)?;
    let credential = super::handle::authenticate(account, endpoint, request, reply.context.now)?;
    let method = request.method.to_ascii_uppercase();
    let engine_request = match (&resource.target, method.as_str()) {
        (Target::ServiceProperties, "GET") => {
            authorize_service(&credential, 'r')?;
            Request::GetServiceProperties {}
        }
        (Target::ServiceProperties, "PUT") => {
            authorize_service(&credential, 'w')?;
            Request::SetServiceProperties {
                properties: read_properties(&request.body)?,
            }
        }
        (Target::ServiceStats, "GET") => {
            authorize_service(&credential, 'r')?;
            // Cosmos DB for Table has no service stats at all (`Rule::UnsupportedOperations`).
            account.target().supports(Unsupported::GetServiceStats)?;
            // The primary endpoint of an account without read access to a secondary region:
            // stats are only served by a geo-redundant account's secondary endpoint.
            return Err(Error::with_text(
                ErrorCode::InvalidQueryParameterValue,
                "comp=stats is answered only by the secondary endpoint of a geo-redundant \
                 account; this endpoint is a primary without a secondary",
            ));
        }
        (Target::TableAcl(table), "GET") => {
            authorize_acl(&credential)?;
            Request::GetTableAcl {
                table: table.clone(),
            }
        }
        (Target::TableAcl(table), "PUT") => {
            authorize_acl(&credential)?;
            Request::SetTableAcl {
                table: table.clone(),
                identifiers: read_acl(&request.body)?,
            }
        }
        _ => {
            return Err(Error::with_text(
                ErrorCode::UnsupportedHttpVerb,
                format!("{} is not a verb of this operation", request.method),
            ))
        }
    };
    let response = account.execute(&engine_request);
    if let Some(error) = response.error {
        return Err(error);
    }
    let http = match &engine_request {
        Request::GetServiceProperties {} => {
            let properties = response.service_properties.unwrap_or_default();
            xml_response(reply, properties_document(&properties))
        }
        Request::GetTableAcl { .. } => {
            xml_response(reply, acl_document(&response.acl.unwrap_or_default()))
        }
        // Set Table Service Properties: 202 with Content-Length: 0, no body, no Content-Type.
        Request::SetServiceProperties { .. } => {
            reply.response(202, None, Vec::new(), Vec::new(), Vec::new())
        }
        // Set Table ACL: 204 with Content-Length: 0.
        _ => reply.response(204, None, Vec::new(), Vec::new(), Vec::new()),
    };
    Ok(Outcome {
        response: http,
        request: Some(engine_request),
        stats: None,
        ru: None,
    })
}

/// The service properties and stats need the account key, or an account SAS for the service
/// resource type (`srt=s`) with read (`r`) or write (`w`), as "Create an account SAS" lists
/// them. A table SAS reaches entities only.
fn authorize_service(credential: &Credential, letter: char) -> Result<()> {
    match credential {
        Credential::Anonymous | Credential::AccountKey => Ok(()),
        Credential::Sas(sas) if sas.table.is_some() => Err(Error::with_text(
            ErrorCode::AuthorizationFailure,
            "a table SAS reaches one table's entities, not the service's properties",
        )),
        Credential::Sas(sas) => {
            let types = sas.resource_types.as_deref().unwrap_or("");
            if !types.contains('s') {
                return Err(Error::with_text(
                    ErrorCode::AuthorizationResourceTypeMismatch,
                    format!("the SAS's resource types '{types}' lack 's' (service)"),
                ));
            }
            if sas.permissions.contains(letter) {
                Ok(())
            } else {
                Err(Error::with_text(
                    ErrorCode::AuthorizationPermissionMismatch,
                    format!(
                        "the SAS grants '{}'; this operation needs '{letter}'",
                        sas.permissions
                    ),
                ))
            }
        }
    }
}

/// A table's ACL is read and set with the account key only: no SAS lists Get or Set Table
/// ACL among the operations it may authorize.
fn authorize_acl(credential: &Credential) -> Result<()> {
    match credential {
        Credential::Anonymous | Credential::AccountKey => Ok(()),
        Credential::Sas(_) => Err(Error::with_text(
            ErrorCode::AuthorizationFailure,
            "a table's stored access policies are read and set with the account key only",
        )),
    }
}

/// The XML error the service-level operations answer: `<m:error>` with the code and the
/// message (with `RequestId` and `Time`), no byte order mark, and `x-ms-error-code`.
pub(super) fn error_response(reply: &Reply, error: &Error) -> HttpResponse {
    let mut body = String::from(
        "<m:error xmlns:m=\"http://schemas.microsoft.com/ado/2007/08/dataservices/metadata\">",
    );
    xml::leaf(&mut body, "m:code", error.code.as_str());
    body.push_str("<m:message xml:lang=\"en-US\">");
    xml::escape_into(
        &mut body,
        &format!(
            "{}\nRequestId:{}\nTime:{}",
            error.message,
            reply.context.request_id,
            reply.context.now.to_string_7()
        ),
    );
    body.push_str("</m:message></m:error>");
    reply.response(
        error.status(),
        Some(XML),
        Vec::new(),
        vec![h("x-ms-error-code", error.code.as_str())],
        body.into_bytes(),
    )
}

fn xml_response(reply: &Reply, document: String) -> HttpResponse {
    reply.response(
        200,
        Some(XML),
        Vec::new(),
        Vec::new(),
        document.into_bytes(),
    )
}

/// A malformed document: `400 InvalidXmlDocument`, with what was wrong as the detail.
fn malformed(detail: impl Into<String>) -> Error {
    Error::with_text(ErrorCode::InvalidXmlDocument, detail)
}

fn root(body: &[u8], name: &str) -> Result<Element> {
    let root = xml::parse(body).ok_or_else(|| malformed("the body is not well-formed XML"))?;
    if root.name != name {
        return Err(malformed(format!(
            "the document's root is <{}>; this operation reads <{name}>",
            root.name
        )));
    }
    Ok(root)
}

/// Checks that `element` holds only children named in `known`.
fn only(element: &Element, known: &[&str]) -> Result<()> {
    match element
        .children
        .iter()
        .find(|c| !known.contains(&c.name.as_str()))
    {
        Some(c) => Err(malformed(format!(
            "<{}> is not an element of <{}>",
            c.name, element.name
        ))),
        None => Ok(()),
    }
}

fn required<'a>(element: &'a Element, name: &str) -> Result<&'a Element> {
    element
        .child(name)
        .ok_or_else(|| malformed(format!("<{}> needs <{name}>", element.name)))
}

fn boolean(element: &Element) -> Result<bool> {
    match element.value() {
        v if v.eq_ignore_ascii_case("true") => Ok(true),
        v if v.eq_ignore_ascii_case("false") => Ok(false),
        v => Err(malformed(format!(
            "<{}> is true or false, not '{v}'",
            element.name
        ))),
    }
}

fn number(element: &Element) -> Result<u32> {
    element.value().parse().map_err(|_| {
        malformed(format!(
            "<{}> is a whole number, not '{}'",
            element.name,
            element.value()
        ))
    })
}

/// Reads a Set Table Service Properties body: the parts it holds replace the stored ones.
pub fn read_properties(body: &[u8]) -> Result<PropertiesUpdate> {
    let root = root(body, "StorageServiceProperties")?;
    only(
        &root,
        &[
            "Logging",
            "HourMetrics",
            "MinuteMetrics",
            "Cors",
            "DefaultServiceVersion",
        ],
    )?;
    let mut update = PropertiesUpdate::default();
    if let Some(logging) = root.child("Logging") {
        only(
            logging,
            &["Version", "Delete", "Read", "Write", "RetentionPolicy"],
        )?;
        update.logging = Some(Logging {
            version: required(logging, "Version")?.value().to_string(),
            delete: boolean(required(logging, "Delete")?)?,
            read: boolean(required(logging, "Read")?)?,
            write: boolean(required(logging, "Write")?)?,
            retention_policy: retention(required(logging, "RetentionPolicy")?)?,
        });
    }
    for (name, slot) in [
        ("HourMetrics", &mut update.hour_metrics),
        ("MinuteMetrics", &mut update.minute_metrics),
    ] {
        if let Some(metrics) = root.child(name) {
            only(
                metrics,
                &["Version", "Enabled", "IncludeAPIs", "RetentionPolicy"],
            )?;
            *slot = Some(Metrics {
                version: required(metrics, "Version")?.value().to_string(),
                enabled: boolean(required(metrics, "Enabled")?)?,
                include_apis: metrics.child("IncludeAPIs").map(boolean).transpose()?,
                retention_policy: retention(required(metrics, "RetentionPolicy")?)?,
            });
        }
    }
    if let Some(cors) = root.child("Cors") {
        only(cors, &["CorsRule"])?;
        let rules = cors
            .children
            .iter()
            .map(cors_rule)
            .collect::<Result<Vec<_>>>()?;
        update.cors = Some(rules);
    }
    Ok(update)
}

fn retention(element: &Element) -> Result<RetentionPolicy> {
    only(element, &["Enabled", "Days"])?;
    Ok(RetentionPolicy {
        enabled: boolean(required(element, "Enabled")?)?,
        days: element.child("Days").map(number).transpose()?,
    })
}

fn cors_rule(element: &Element) -> Result<CorsRule> {
    only(
        element,
        &[
            "AllowedOrigins",
            "AllowedMethods",
            "AllowedHeaders",
            "ExposedHeaders",
            "MaxAgeInSeconds",
        ],
    )?;
    let list = |name: &str| -> Vec<String> {
        element
            .child(name)
            .map(|e| {
                e.value()
                    .split(',')
                    .map(str::trim)
                    .filter(|s| !s.is_empty())
                    .map(str::to_string)
                    .collect()
            })
            .unwrap_or_default()
    };
    Ok(CorsRule {
        allowed_origins: list("AllowedOrigins"),
        allowed_methods: list("AllowedMethods"),
        allowed_headers: list("AllowedHeaders"),
        exposed_headers: list("ExposedHeaders"),
        max_age_in_seconds: number(required(element, "MaxAgeInSeconds")?)?,
    })
}

/// Reads a Set Table ACL body; an empty body is an empty list (it clears the ACL).
pub fn read_acl(body: &[u8]) -> Result<Vec<SignedIdentifier>> {
    let blank = body
        .iter()
        .all(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\n'));
    if blank {
        return Ok(Vec::new());
    }
    let root = root(body, "SignedIdentifiers")?;
    only(&root, &["SignedIdentifier"])?;
    root.children
        .iter()
        .map(|identifier| {
            only(identifier, &["Id", "AccessPolicy"])?;
            let id = required(identifier, "Id")?.value().to_string();
            let access_policy = match identifier.child("AccessPolicy") {
                None => None,
                Some(policy) => {
                    only(policy, &["Start", "Expiry", "Permission"])?;
                    Some(AccessPolicy {
                        start: policy.child("Start").map(time).transpose()?,
                        expiry: policy.child("Expiry").map(time).transpose()?,
                        permission: policy.child("Permission").map(|p| p.value().to_string()),
                    })
                }
            };
            Ok(SignedIdentifier { id, access_policy })
        })
        .collect()
}

/// A policy's time: ISO 8601 in UTC with at most seven fraction digits (the service keeps
/// 100 ns; more digits are refused rather than cut).
fn time(element: &Element) -> Result<DateTime> {
    let text = element.value();
    let digits = text
        .split_once('.')
        .map(|(_, f)| f.chars().take_while(char::is_ascii_digit).count())
        .unwrap_or(0);
    if digits > 7 {
        return Err(malformed(format!(
            "<{}> '{text}' has {digits} fraction digits; the service keeps seven",
            element.name
        )));
    }
    DateTime::parse(text).map_err(|_| {
        malformed(format!(
            "<{}> '{text}' is not an ISO 8601 time",
            element.name
        ))
    })
}

/// Get Table Service Properties' body: BOM, declaration, then the document without
/// whitespace, in production's element order.
pub fn properties_document(p: &ServiceProperties) -> String {
    let mut out = String::from(BOM_AND_DECLARATION);
    out.push_str("<StorageServiceProperties><Logging>");
    xml::leaf(&mut out, "Version", &p.logging.version);
    xml::leaf(&mut out, "Read", bool_text(p.logging.read));
    xml::leaf(&mut out, "Write", bool_text(p.logging.write));
    xml::leaf(&mut out, "Delete", bool_text(p.logging.delete));
    retention_element(&mut out, &p.logging.retention_policy);
    out.push_str("</Logging>");
    for (name, m) in [
        ("HourMetrics", &p.hour_metrics),
        ("MinuteMetrics", &p.minute_metrics),
    ] {
        out.push('<');
        out.push_str(name);
        out.push('>');
        xml::leaf(&mut out, "Version", &m.version);
        xml::leaf(&mut out, "Enabled", bool_text(m.enabled));
        if m.enabled {
            if let Some(include) = m.include_apis {
                xml::leaf(&mut out, "IncludeAPIs", bool_text(include));
            }
        }
        retention_element(&mut out, &m.retention_policy);
        out.push_str("</");
        out.push_str(name);
        out.push('>');
    }
    if p.cors.is_empty() {
        out.push_str("<Cors />");
    } else {
        out.push_str("<Cors>");
        for rule in &p.cors {
            out.push_str("<CorsRule>");
            list_element(&mut out, "AllowedMethods", &rule.allowed_methods);
            list_element(&mut out, "AllowedOrigins", &rule.allowed_origins);
            list_element(&mut out, "AllowedHeaders", &rule.allowed_headers);
            list_element(&mut out, "ExposedHeaders", &rule.exposed_headers);
            xml::leaf(
                &mut out,
                "MaxAgeInSeconds",
                &rule.max_age_in_seconds.to_string(),
            );
            out.push_str("</CorsRule>");
        }
        out.push_str("</Cors>");
    }
    out.push_str("</StorageServiceProperties>");
    out
}

fn bool_text(b: bool) -> &'static str {
    if b {
        "true"
    } else {
        "false"
    }
}

fn retention_element(out: &mut String, r: &RetentionPolicy) {
    out.push_str("<RetentionPolicy>");
    xml::leaf(out, "Enabled", bool_text(r.enabled));
    if r.enabled {
        if let Some(days) = r.days {
            xml::leaf(out, "Days", &days.to_string());
        }
    }
    out.push_str("</RetentionPolicy>");
}

fn list_element(out: &mut String, name: &str, list: &[String]) {
    if list.is_empty() {
        out.push('<');
        out.push_str(name);
        out.push_str(" />");
    } else {
        xml::leaf(out, name, &list.join(","));
    }
}

/// Get Table ACL's body: the identifiers in the order set, times with seven fraction digits.
pub fn acl_document(identifiers: &[SignedIdentifier]) -> String {
    let mut out = String::from(BOM_AND_DECLARATION);
    if identifiers.is_empty() {
        out.push_str("<SignedIdentifiers />");
        return out;
    }
    out.push_str("<SignedIdentifiers>");
    for identifier in identifiers {
        out.push_str("<SignedIdentifier>");
        xml::leaf(&mut out, "Id", &identifier.id);
        if let Some(policy) = &identifier.access_policy {
            out.push_str("<AccessPolicy>");
            if let Some(start) = policy.start {
                xml::leaf(&mut out, "Start", &start.to_string_7());
            }
            if let Some(expiry) = policy.expiry {
                xml::leaf(&mut out, "Expiry", &expiry.to_string_7());
            }
            if let Some(permission) = &policy.permission {
                xml::leaf(&mut out, "Permission", permission);
            }
            out.push_str("</AccessPolicy>");
        }
        out.push_str("</SignedIdentifier>");
    }
    out.push_str("</SignedIdentifiers>");
    out
}
