//! "Show as code" as its own small wasm, loaded the first time a show-as-code panel opens
//! (`ui::widgets::show_code`). The generators (`tablescope::code`) are mostly text: in the playground's
//! wasm their strings would sit in the data segments, which the split cannot defer, so every
//! page load would carry them.
//!
//! Two exports: `show`, a `Request` as the engine's JSON (and optionally the endpoint it
//! goes to) in, the form's text out; and `wire_request`, the same request as the wire layer
//! takes it (what a comparison of the two targets sends to both).

#[cfg(target_arch = "wasm32")]
mod exports {
    use tablescope::code::{self, Form};
    use tablescope::engine::Request;
    use wasm_bindgen::prelude::wasm_bindgen;

    /// `request` (a `Request` as JSON) written as `form` (`http`, `js`, `python`, `csharp`,
    /// `java`) for the service at `endpoint` (the playground's when absent, as for every
    /// panel but Connect's); an `Err` says why there is no such code.
    #[wasm_bindgen]
    pub fn show(request: &str, form: &str, endpoint: Option<String>) -> Result<String, String> {
        let request: Request = serde_json::from_str(request).map_err(|e| e.to_string())?;
        let form = match form {
            "http" => Form::Http,
            "js" => Form::JavaScript,
            "python" => Form::Python,
            "csharp" => Form::CSharp,
            "java" => Form::Java,
            other => return Err(format!("no code form {other:?}")),
        };
        let endpoint = endpoint.as_deref().unwrap_or(code::PLAYGROUND_URL);
        code::show_at(&request, form, endpoint).map_err(|e| e.to_string())
    }

    /// `request` (a `Request` as JSON) as the wire layer takes it:
    /// `{"method", "url", "headers": [[name, value], …], "body"}`.
    #[wasm_bindgen]
    pub fn wire_request(request: &str) -> Result<String, String> {
        let request: Request = serde_json::from_str(request).map_err(|e| e.to_string())?;
        let http = code::wire_request(&request).map_err(|e| e.to_string())?;
        Ok(serde_json::json!({
            "method": http.method,
            "url": http.url,
            "headers": http.headers,
            "body": String::from_utf8_lossy(&http.body),
        })
        .to_string())
    }
}

#[cfg(target_arch = "wasm32")]
fn main() {}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("The show-as-code module runs in the browser: use `scripts/run.sh` (see README.md).");
}
