//! One HTTP exchange with either side of a comparison: the sandbox (the page's own engine,
//! through `window.tablescope.wire`, exactly as the in-page SDK reaches it) or the connection
//! (`fetch` from the page, in the URL and header forms `wire` understands).
//!
//! Invariant: a remote error is reported as the service sent it (status, code, message); a
//! fetch that fails before any answer (a TypeError: CORS refused, or nothing listening) is
//! [`Failure::Unreachable`], never guessed into a service code.

use super::connection::Connection;
use js_sys::{Array, Function, Reflect, Uint8Array};
use serde_json::Value;
use wasm_bindgen::{JsCast, JsValue};

/// The sandbox's endpoint, as the in-page SDK names it.
pub const SANDBOX_ENDPOINT: &str = "http://127.0.0.1:10002/devstoreaccount1";

/// The service version and formats every request asks for.
const HEADERS: [(&str, &str); 4] = [
    ("Accept", "application/json;odata=minimalmetadata"),
    ("x-ms-version", "2019-02-02"),
    ("DataServiceVersion", "3.0"),
    ("MaxDataServiceVersion", "3.0;NetFx"),
];

/// Where a request goes.
#[derive(Clone)]
pub enum Side {
    /// The page's engine (this module runs beside the playground: `super::bridge`).
    Sandbox,
    Remote(Connection),
}

/// A request before it has a side: method, path and query (`/T()?$top=5`), extra headers and
/// a body.
#[derive(Debug, Clone, Default)]
pub struct Call {
    pub method: &'static str,
    pub path: String,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

/// An answer: status, headers (names as sent) and body text.
#[derive(Debug, Clone, Default)]
pub struct Reply {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Reply {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// Why a call has no successful answer.
#[derive(Debug, Clone, PartialEq)]
pub enum Failure {
    /// The service's error: status, code (`x-ms-error-code` or the body's) and message.
    Service {
        status: u16,
        code: String,
        message: String,
    },
    /// `fetch` failed before any answer reached the page: `origin` refused this page by CORS
    /// (no rule for it), or nothing answered there. `detail` is the browser's words.
    Unreachable { origin: String, detail: String },
    /// A success whose body is not the Table service's JSON (an HTML page, a cut-off body):
    /// what came back, never read as an empty answer. `reason` is the JSON reader's words;
    /// `start` the body's first [`BODY_SHOWN`] characters, as text.
    Malformed {
        status: u16,
        content_type: String,
        reason: String,
        start: String,
    },
}

/// How much of a malformed body a failure quotes (characters).
pub const BODY_SHOWN: usize = 200;

impl Failure {
    /// The service's error from a reply that is not a success.
    pub fn from_reply(reply: &Reply) -> Failure {
        let (code, message) = error_body(&reply.body);
        Failure::Service {
            status: reply.status,
            code: reply
                .header("x-ms-error-code")
                .map(String::from)
                .or(code)
                .unwrap_or_default(),
            message: message.unwrap_or_else(|| reply.body.trim().to_string()),
        }
    }
}

/// A successful reply's body as JSON whose `value` is an array (a table list, a page of
/// entities), or [`Failure::Malformed`] saying what came back instead.
pub fn value_array(reply: &Reply) -> Result<Vec<Value>, Failure> {
    let malformed = |reason: String| Failure::Malformed {
        status: reply.status,
        content_type: reply.header("content-type").unwrap_or_default().to_string(),
        reason,
        start: reply.body.chars().take(BODY_SHOWN).collect(),
    };
    match serde_json::from_str::<Value>(&reply.body) {
        Ok(Value::Object(mut o)) => match o.remove("value") {
            Some(Value::Array(items)) => Ok(items),
            _ => Err(malformed("no \"value\" array".into())),
        },
        Ok(_) => Err(malformed("not a JSON object".into())),
        Err(e) => Err(malformed(e.to_string())),
    }
}

/// `{"odata.error": {"code", "message": {"value"}}}` (JSON) or `<Code>`/`<Message>` (XML).
pub fn error_body(body: &str) -> (Option<String>, Option<String>) {
    if let Ok(v) = serde_json::from_str::<Value>(body) {
        let e = &v["odata.error"];
        let code = e["code"].as_str().map(String::from);
        let message = e["message"]["value"]
            .as_str()
            .or_else(|| e["message"].as_str())
            .map(String::from);
        return (code, message);
    }
    let tag = |name: &str| {
        let open = format!("<{name}>");
        let start = body.find(&open)? + open.len();
        let end = body[start..].find("</")? + start;
        Some(body[start..end].to_string())
    };
    (tag("Code"), tag("Message"))
}

/// Sends `call` to `side` and returns the reply, successful or not (`Err` only when no
/// answer came: see [`Failure::Unreachable`]).
pub async fn send(side: &Side, call: &Call) -> Result<Reply, Failure> {
    match side {
        Side::Sandbox => sandbox(call),
        Side::Remote(c) => fetch(c, call).await,
    }
}

/// Sends `call` and turns any status of 300 or more into the service's error.
pub async fn send_ok(side: &Side, call: &Call) -> Result<Reply, Failure> {
    let reply = send(side, call).await?;
    if reply.status >= 300 {
        return Err(Failure::from_reply(&reply));
    }
    Ok(reply)
}

/// `call` answered by the page's engine (`window.tablescope.wire`, synchronous).
fn sandbox(call: &Call) -> Result<Reply, Failure> {
    let unreachable = |detail: String| Failure::Unreachable {
        origin: SANDBOX_ENDPOINT.into(),
        detail,
    };
    let wire = js_sys::global();
    let wire = Reflect::get(&wire, &"tablescope".into())
        .and_then(|t| Reflect::get(&t, &"wire".into()))
        .ok()
        .and_then(|f| f.dyn_into::<Function>().ok())
        .ok_or_else(|| unreachable("the playground's engine is not on this page".into()))?;
    let request = js_sys::Object::new();
    let headers = headers_of(call);
    let set = |name: &str, value: &JsValue| {
        let _ = Reflect::set(&request, &name.into(), value);
    };
    set("method", &call.method.into());
    set("url", &format!("{SANDBOX_ENDPOINT}{}", call.path).into());
    set("headers", &headers);
    set("body", &call.body.as_str().into());
    let answer = wire
        .call1(&JsValue::NULL, &request)
        .map_err(|e| unreachable(crate::ui::kit::dynamic::describe(&e)))?;
    let get = |name: &str| Reflect::get(&answer, &name.into()).unwrap_or(JsValue::UNDEFINED);
    let body = get("body");
    let body = if body.is_instance_of::<Uint8Array>() {
        String::from_utf8_lossy(&Uint8Array::new(&body).to_vec()).into_owned()
    } else {
        body.as_string().unwrap_or_default()
    };
    Ok(Reply {
        status: get("status").as_f64().unwrap_or(0.0) as u16,
        headers: pairs(&get("headers")),
        body,
    })
}

/// The request's headers as `[[name, value], …]`: the service version and formats, then the
/// call's own.
fn headers_of(call: &Call) -> Array {
    let headers = Array::new();
    for (n, v) in HEADERS {
        headers.push(&Array::of2(&n.into(), &v.into()));
    }
    for (n, v) in &call.headers {
        headers.push(&Array::of2(&n.into(), &v.into()));
    }
    headers
}

/// `[[name, value], …]` read back.
fn pairs(list: &JsValue) -> Vec<(String, String)> {
    if !Array::is_array(list) {
        return Vec::new();
    }
    Array::from(list)
        .iter()
        .filter_map(|pair| {
            let pair = Array::from(&pair);
            Some((pair.get(0).as_string()?, pair.get(1).as_string()?))
        })
        .collect()
}

/// `fetch` in a few lines of JavaScript: the answer as `{status, headers, body}` (every
/// header the endpoint exposes), or the rejection when none came.
fn fetch_function() -> Function {
    Function::new_with_args(
        "url, method, headers, body",
        "return fetch(url, {method, headers, body: body === '' ? undefined : body, mode: 'cors', \
         credentials: 'omit', cache: 'no-store'}).then(async (r) => ({status: r.status, \
         headers: [...r.headers], body: await r.text()}))",
    )
}

async fn fetch(c: &Connection, call: &Call) -> Result<Reply, Failure> {
    let headers = headers_of(call);
    let url = c.url(&call.path);
    let started = fetch_function().call4(
        &JsValue::NULL,
        &url.into(),
        &call.method.into(),
        &headers,
        &call.body.as_str().into(),
    );
    let unreachable = |e: &JsValue| Failure::Unreachable {
        origin: c.origin(),
        detail: crate::ui::kit::dynamic::describe(e),
    };
    let promise: js_sys::Promise = started
        .map_err(|e| unreachable(&e))?
        .dyn_into()
        .map_err(|e| unreachable(&e))?;
    let answer = wasm_bindgen_futures::JsFuture::from(promise)
        .await
        .map_err(|e| unreachable(&e))?;
    let get = |name: &str| Reflect::get(&answer, &name.into()).unwrap_or(JsValue::UNDEFINED);
    Ok(Reply {
        status: get("status").as_f64().unwrap_or(0.0) as u16,
        body: get("body").as_string().unwrap_or_default(),
        headers: pairs(&get("headers")),
    })
}

/// `'` doubled and the rest percent-encoded, as a key literal in an entity's URL.
pub fn key_literal(key: &str) -> String {
    let doubled = key.replace('\'', "''");
    String::from(js_sys::encode_uri_component(&doubled))
}

/// A table name or query value percent-encoded for a URL.
pub fn encode(text: &str) -> String {
    String::from(js_sys::encode_uri_component(text))
}
