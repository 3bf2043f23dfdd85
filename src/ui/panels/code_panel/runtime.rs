//! The Code section's JavaScript (www/code/code.js, bundled by scripts/bundle-code.mjs) seen
//! from Rust: the bundle is imported the first time the section is shown, by the hash the page
//! names in `<meta name="tablescope-code">`, never at start.
//!
//! What crosses from the bundle (console output, wire exchanges, a run's outcome) is read as
//! JSON (`JSON.stringify` then serde), so a value the user's code logged is only ever data
//! here: it is rendered as text, never as HTML.

use js_sys::{Function, Object, Reflect};
use wasm_bindgen::prelude::*;

/// The loaded bundle's exports.
#[derive(Clone)]
pub struct Bundle(JsValue);

pub use crate::ui::kit::dynamic::describe;
use crate::ui::kit::dynamic::settle;

/// A bundle's address: `code/tablescope-{name}-<hash>.js` next to the page (`code`: the
/// editor with the runner; `cell`: the runner alone, for a docs embed's code cell).
fn bundle_url(name: &str) -> Result<String, String> {
    let document = web_sys::window()
        .and_then(|w| w.document())
        .ok_or("no document")?;
    let hash = document
        .query_selector("meta[name=\"tablescope-code\"]")
        .ok()
        .flatten()
        .and_then(|m| m.get_attribute("content"))
        .ok_or("this page names no Code bundle (<meta name=\"tablescope-code\">)")?;
    crate::ui::kit::dynamic::page_url(&format!("code/tablescope-{name}-{hash}.js"))
}

impl Bundle {
    /// Imports the bundle (the browser keeps one module per URL, so a second call is free).
    pub async fn load() -> Result<Bundle, String> {
        Self::import("code").await
    }

    /// The runner without the editor (`code/tablescope-cell-<hash>.js`): only [`Bundle::run`]
    /// works on it.
    pub async fn load_cell() -> Result<Bundle, String> {
        Self::import("cell").await
    }

    async fn import(name: &str) -> Result<Bundle, String> {
        let url = bundle_url(name)?;
        Ok(Bundle(crate::ui::kit::dynamic::import(&url).await?))
    }

    fn function(&self, name: &str) -> Result<Function, String> {
        Reflect::get(&self.0, &JsValue::from_str(name))
            .ok()
            .and_then(|f| f.dyn_into::<Function>().ok())
            .ok_or_else(|| format!("the Code bundle has no {name}"))
    }

    /// `createEditor(parent, …)`: CodeMirror in `parent` with `text`; `on_run` on
    /// Ctrl/Cmd+Enter, `on_change` with the new text. The callbacks live as long as the page
    /// (the editor is made once per page).
    pub fn create_editor(
        &self,
        parent: &web_sys::HtmlElement,
        text: &str,
        label: &str,
        on_run: impl Fn() + 'static,
        on_change: impl Fn(String) + 'static,
    ) -> Result<Editor, String> {
        let on_run = Closure::<dyn Fn()>::new(on_run);
        let on_change = Closure::<dyn Fn(JsValue)>::new(move |v: JsValue| {
            on_change(v.as_string().unwrap_or_default())
        });
        let options = Object::new();
        set(&options, "doc", &JsValue::from_str(text));
        set(&options, "label", &JsValue::from_str(label));
        set(&options, "onRun", on_run.as_ref());
        set(&options, "onChange", on_change.as_ref());
        on_run.forget();
        on_change.forget();
        let editor = self
            .function("createEditor")?
            .call2(&JsValue::NULL, parent, &options)
            .map_err(|e| describe(&e))?;
        Ok(Editor(editor))
    }

    /// `runCode(…)`: the code in a fresh sandbox worker. `on_log` and `on_exchange` hear
    /// console output and wire exchanges as JSON; the returned run settles once. `wire`
    /// answers the SDK's requests (`None`: the page's `window.tablescope.wire`).
    pub fn run(
        &self,
        code: &str,
        limit_ms: f64,
        wire: Option<&Function>,
        on_log: impl Fn(serde_json::Value) + 'static,
        on_exchange: impl Fn(serde_json::Value) + 'static,
    ) -> Result<Run, String> {
        let on_log = Closure::<dyn Fn(JsValue)>::new(move |v: JsValue| {
            if let Some(v) = as_json(&v) {
                on_log(v)
            }
        });
        let on_exchange = Closure::<dyn Fn(JsValue)>::new(move |v: JsValue| {
            if let Some(v) = as_json(&v) {
                on_exchange(v)
            }
        });
        let options = Object::new();
        set(&options, "code", &JsValue::from_str(code));
        set(&options, "limitMs", &JsValue::from_f64(limit_ms));
        set(&options, "onLog", on_log.as_ref());
        set(&options, "onExchange", on_exchange.as_ref());
        if let Some(wire) = wire {
            set(&options, "wire", wire);
        }
        let run = self
            .function("runCode")?
            .call1(&JsValue::NULL, &options)
            .map_err(|e| describe(&e))?;
        Ok(Run {
            run,
            _callbacks: (on_log, on_exchange),
        })
    }
}

fn set(target: &Object, name: &str, value: &JsValue) {
    let _ = Reflect::set(target, &JsValue::from_str(name), value);
}

/// A JavaScript value as JSON data (undefined: `None`).
fn as_json(value: &JsValue) -> Option<serde_json::Value> {
    let text = js_sys::JSON::stringify(value).ok()?.as_string()?;
    serde_json::from_str(&text).ok()
}

/// The editor `createEditor` made.
#[derive(Clone)]
pub struct Editor(JsValue);

impl Editor {
    fn call(&self, name: &str, args: &[&JsValue]) -> Option<JsValue> {
        let f: Function = Reflect::get(&self.0, &JsValue::from_str(name))
            .ok()?
            .dyn_into()
            .ok()?;
        match args {
            [] => f.call0(&self.0).ok(),
            [a] => f.call1(&self.0, a).ok(),
            _ => None,
        }
    }

    pub fn text(&self) -> String {
        self.call("text", &[])
            .and_then(|v| v.as_string())
            .unwrap_or_default()
    }

    pub fn set_text(&self, text: &str) {
        self.call("setText", &[&JsValue::from_str(text)]);
    }

    pub fn focus(&self) {
        self.call("focus", &[]);
    }
}

/// A run in its sandbox. The callbacks are kept until the run is dropped, after it settled.
pub struct Run {
    run: JsValue,
    _callbacks: (Closure<dyn Fn(JsValue)>, Closure<dyn Fn(JsValue)>),
}

impl Run {
    /// Terminates the worker (the run settles as `stopped`).
    pub fn stop(&self) {
        if let Ok(stop) = Reflect::get(&self.run, &JsValue::from_str("stop")) {
            if let Ok(stop) = stop.dyn_into::<Function>() {
                let _ = stop.call0(&JsValue::NULL);
            }
        }
    }

    /// The outcome: `{status, error?, ms, limitMs?}` as JSON.
    pub async fn settled(&self) -> serde_json::Value {
        let promise = Reflect::get(&self.run, &JsValue::from_str("settled"));
        match settle(promise).await {
            Ok(v) => as_json(&v).unwrap_or(serde_json::Value::Null),
            Err(message) => serde_json::json!({
                "status": "error",
                "error": { "name": "Error", "message": message },
            }),
        }
    }
}
