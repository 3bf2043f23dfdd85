//! The code cell's page: a bar with "Open in the playground", the code in a plain monospace
//! textarea, Run and Stop, the time limit, the outcome, the console and the wire log (one line
//! per request: method, URL, status, and a query's figures; opened, its headers and bodies:
//! `super::wire_log`).
//!
//! Plain DOM nodes, not Leptos: the embed's budget has no room for a view framework (see
//! `super`). Every text the user's code or the URL supplies is set as a text node or a
//! textarea's value, never as HTML.

use super::wire_log::WireLog;
use crate::i18n::msg;
use crate::ui::panels::code_panel::output::{Exchange, LogLine, Logged};
use crate::ui::panels::code_panel::{limit_seconds, Outcome};
use std::cell::Cell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{Document, Element, HtmlButtonElement, HtmlInputElement, HtmlTextAreaElement};

/// The cell's nodes.
pub struct Frame {
    document: Document,
    main: Element,
    status: Element,
    code: HtmlTextAreaElement,
    run: HtmlButtonElement,
    /// Enabled only while a run is under way.
    stop: HtmlButtonElement,
    open: Element,
    data: Element,
    /// The time limit in seconds, read as each run starts.
    limit: HtmlInputElement,
    outcome: Element,
    console: Element,
    wire: WireLog,
    /// Runs started, and entries shown in this run (the log's keys).
    runs: Cell<u32>,
    entries: Cell<usize>,
}

// `create_element` fails only for a name that is not a valid tag, and "div" is one.
#[allow(clippy::expect_used)]
pub(super) fn element(document: &Document, tag: &str, class: &str) -> Element {
    let e = document
        .create_element(tag)
        .unwrap_or_else(|_| document.create_element("div").expect("a div"));
    if !class.is_empty() {
        e.set_class_name(class);
    }
    e
}

pub(super) fn text(e: &Element, text: &str) {
    e.set_text_content(Some(text));
}

pub(super) fn attr(e: &Element, name: &str, value: &str) {
    let _ = e.set_attribute(name, value);
}

pub(super) fn append(parent: &Element, child: &Element) {
    let _ = parent.append_child(child);
}

/// The playground's Code section with `code` in its editor (`#code=`, read by the Code panel).
fn playground_link(code: &str) -> String {
    format!(
        "./#code={}",
        String::from(js_sys::encode_uri_component(code))
    )
}

impl Frame {
    /// Builds the cell's frame on `<body>`, saying it loads; `None` without a document.
    pub fn mount() -> Option<Rc<Frame>> {
        let document = web_sys::window()?.document()?;
        let body = document.body()?;
        let d = &document;
        let main = element(d, "main", "embed-main cell-embed");
        attr(&main, "data-embed", "1");
        attr(&main, "data-cell", "1");
        let bar = element(d, "div", "embed-bar");
        let title = element(d, "strong", "");
        text(&title, &msg::cell_title());
        let open = element(d, "a", "embed-open cell-open");
        attr(&open, "target", "_blank");
        attr(&open, "rel", "noopener");
        attr(&open, "href", "./#code");
        attr(&open, "hidden", "");
        text(&open, &msg::cell_open_playground());
        append(&bar, &title);
        append(&bar, &open);
        append(&main, &bar);
        let status = element(d, "p", "hint cell-status");
        attr(&status, "role", "status");
        text(&status, &msg::cell_loading());
        append(&main, &status);
        let data = element(d, "p", "hint cell-data");
        append(&main, &data);
        let label = element(d, "label", "cell-label");
        attr(&label, "for", "cell-code");
        text(&label, &msg::code_editor_label());
        let code: HtmlTextAreaElement = element(d, "textarea", "cell-code").unchecked_into();
        attr(&code, "id", "cell-code");
        attr(&code, "dir", "ltr");
        attr(&code, "spellcheck", "false");
        attr(&code, "autocomplete", "off");
        attr(&code, "autocapitalize", "off");
        code.set_read_only(true);
        let actions = element(d, "div", "cell-actions");
        let run: HtmlButtonElement = element(d, "button", "primary run-code").unchecked_into();
        attr(&run, "type", "button");
        run.set_disabled(true);
        text(&run, &msg::code_run());
        let stop: HtmlButtonElement = element(d, "button", "stop-code").unchecked_into();
        attr(&stop, "type", "button");
        stop.set_disabled(true);
        text(&stop, &msg::code_stop());
        // The limit: the Code section's field (`code_panel::limit_seconds` reads it).
        let limit_field = element(d, "span", "cell-limit-field");
        let limit_label = element(d, "label", "");
        attr(&limit_label, "for", "cell-limit");
        text(&limit_label, &msg::code_limit());
        let limit: HtmlInputElement = element(d, "input", "").unchecked_into();
        attr(&limit, "id", "cell-limit");
        attr(&limit, "type", "number");
        attr(&limit, "min", "0.1");
        attr(
            &limit,
            "max",
            &crate::ui::panels::code_panel::MAX_LIMIT_S.to_string(),
        );
        attr(&limit, "step", "any");
        attr(&limit, "dir", "ltr");
        attr(&limit, "inputmode", "decimal");
        append(&limit_field, &limit_label);
        append(&limit_field, &limit);
        let hint = element(d, "span", "hint cell-hint");
        text(&hint, &msg::code_run_hint());
        for e in [run.as_ref(), stop.as_ref(), &limit_field, &hint] {
            append(&actions, e);
        }
        let outcome = element(d, "p", "code-outcome");
        attr(&outcome, "role", "status");
        attr(&outcome, "aria-live", "polite");
        let output = element(d, "div", "code-output cell-output");
        let console_section = element(d, "section", "code-console");
        attr(&console_section, "aria-labelledby", "code-console-heading");
        let console_heading = element(d, "h3", "");
        attr(&console_heading, "id", "code-console-heading");
        text(&console_heading, &msg::code_console());
        let console = element(d, "ol", "console-lines");
        attr(&console, "dir", "ltr");
        append(&console_section, &console_heading);
        append(&console_section, &console);
        let wire_section = element(d, "section", "wire-log");
        attr(&wire_section, "aria-labelledby", "wire-log-heading");
        let wire_heading = element(d, "h3", "");
        attr(&wire_heading, "id", "wire-log-heading");
        text(&wire_heading, &format!("{} ", msg::code_wire_log()));
        let wire_count = element(d, "span", "wire-count");
        append(&wire_heading, &wire_count);
        let wire = element(d, "ol", "wire-entries");
        append(&wire_section, &wire_heading);
        append(&wire_section, &wire);
        let wire = WireLog::new(d, wire, wire_count);
        append(&output, &console_section);
        append(&output, &wire_section);
        for e in [&label, code.as_ref(), &actions, &outcome, &output] {
            attr(e, "hidden", "");
            append(&main, e);
        }
        if let Some(loading) = document.get_element_by_id("app-loading") {
            loading.remove();
        }
        let _ = body.append_child(&main);
        Some(Rc::new(Frame {
            document,
            main,
            status,
            code,
            run,
            stop,
            open,
            data,
            limit,
            outcome,
            console,
            wire,
            runs: Cell::new(0),
            entries: Cell::new(0),
        }))
    }

    /// Shows why the cell cannot run (bad address, a file that did not load).
    pub fn fail(&self, why: &str) {
        self.status.set_class_name("error-notice cell-error");
        attr(&self.status, "role", "alert");
        text(&self.status, why);
    }

    /// Shows the code and what it runs on, and makes Run (and Ctrl/Cmd+Enter) call `on_run`
    /// and Stop `on_stop`.
    pub fn ready(
        &self,
        code: &str,
        data: &str,
        limit_s: f64,
        on_run: impl Fn() + 'static,
        on_stop: impl Fn() + 'static,
    ) {
        self.status.remove();
        text(&self.data, data);
        // A number field's value is a plain decimal number, in every language.
        self.limit.set_value(&limit_s.to_string());
        self.code.set_value(code);
        self.code.set_read_only(false);
        let lines = code.lines().count().clamp(4, 24) as u32;
        self.code.set_rows(lines + 1);
        attr(&self.open, "href", &playground_link(code));
        for e in self.main.query_selector_all("[hidden]").ok().into_iter() {
            for i in 0..e.length() {
                if let Some(e) = e.item(i).and_then(|n| n.dyn_into::<Element>().ok()) {
                    let _ = e.remove_attribute("hidden");
                }
            }
        }
        let on_run = Rc::new(on_run);
        let click = {
            let on_run = on_run.clone();
            Closure::<dyn Fn()>::new(move || on_run())
        };
        self.run.set_onclick(Some(click.as_ref().unchecked_ref()));
        click.forget();
        let stop = Closure::<dyn Fn()>::new(on_stop);
        self.stop.set_onclick(Some(stop.as_ref().unchecked_ref()));
        stop.forget();
        let keys =
            Closure::<dyn Fn(web_sys::KeyboardEvent)>::new(move |ev: web_sys::KeyboardEvent| {
                if ev.key() == "Enter" && (ev.ctrl_key() || ev.meta_key()) {
                    ev.prevent_default();
                    on_run();
                }
            });
        let _ = self
            .code
            .add_event_listener_with_callback("keydown", keys.as_ref().unchecked_ref());
        keys.forget();
        // The link takes the code as it is now.
        let (code, open) = (self.code.clone(), self.open.clone());
        let input =
            Closure::<dyn Fn()>::new(move || attr(&open, "href", &playground_link(&code.value())));
        let _ = self
            .code
            .add_event_listener_with_callback("input", input.as_ref().unchecked_ref());
        input.forget();
        self.run.set_disabled(false);
    }

    /// The code as it is in the textarea.
    pub fn code(&self) -> String {
        self.code.value()
    }

    /// The time limit in the field, in seconds (blank or out of bounds: as the Code section
    /// reads its own).
    pub fn limit_s(&self) -> f64 {
        limit_seconds(&self.limit.value())
    }

    /// Empties the output for a new run.
    pub fn clear(&self) {
        self.console.set_inner_html("");
        self.wire.clear();
        text(&self.outcome, "");
        self.entries.set(0);
        self.runs.set(self.runs.get() + 1);
        attr(&self.outcome, "data-run", &self.runs.get().to_string());
    }

    /// Run is enabled between runs, Stop during one; the keyboard focus moves from the one
    /// being disabled to the other, so it is never lost to the page.
    pub fn set_running(&self, running: bool) {
        let (from, to) = if running {
            (&self.run, &self.stop)
        } else {
            (&self.stop, &self.run)
        };
        let focused = self.document.active_element();
        let had_focus = focused.is_some_and(|e| {
            let from: &Element = from.as_ref();
            e == *from
        });
        to.set_disabled(false);
        if had_focus {
            let _ = to.focus();
        }
        from.set_disabled(true);
        if running {
            let span = element(&self.document, "span", "code-running");
            text(&span, &msg::code_running());
            append(&self.outcome, &span);
        }
    }

    fn next_id(&self) -> usize {
        let id = self.entries.get();
        self.entries.set(id + 1);
        id
    }

    /// One `console.*` line: strings as written, other values as the Code section shows
    /// them (an object or array expands, `super::json_tree`).
    pub fn log(&self, v: &serde_json::Value) {
        let line = LogLine::from_json(self.next_id(), v);
        let li = element(
            &self.document,
            "li",
            &format!("console-line log-{}", line.level),
        );
        for (i, value) in line.values.iter().enumerate() {
            if i > 0 {
                let _ = li.append_with_str_1(" ");
            }
            let span = match value {
                Logged::Text(s) => {
                    let span = element(&self.document, "span", "log-text");
                    text(&span, s);
                    span
                }
                Logged::Json(v) => super::json_tree::json_tree(&self.document, v, true),
            };
            append(&li, &span);
        }
        append(&self.console, &li);
    }

    /// One request of the SDK and its answer (`super::wire_log`).
    pub fn exchange(&self, v: &serde_json::Value) {
        self.wire.add(Exchange::from_json(self.next_id(), v));
    }

    /// How the run ended.
    pub fn finish(&self, outcome: &Outcome) {
        text(&self.outcome, "");
        let span = element(&self.document, "span", outcome.class());
        if let Outcome::Failed { line: Some(n), .. } = outcome {
            attr(&span, "data-line", &n.to_string());
        }
        if matches!(outcome, Outcome::Failed { .. } | Outcome::TimedOut { .. }) {
            attr(&span, "role", "alert");
        }
        text(&span, &outcome.message());
        append(&self.outcome, &span);
    }
}
