//! A docs embed's code cell: `?embed=1&snippet=<file>.js` (a starter
//! snippet of `snippets/`) or `?embed=1&code=<text>` (the code itself, at most
//! [`MAX_CODE_CHARS`]), optionally `&scenario=<lesson>.json` to run on that lesson's data and
//! `&limit=<seconds>` for the time limit's first value (the visitor can change it in the cell).
//!
//! The cell is its own small wasm (the `cell` bin, `src/bin/cell.rs`; the start script, `www/start.js`,
//! loads it instead of the lesson module when the embed asks for code). A docs embed may
//! download 300 KB gzip in all, and the sandbox worker and the SDK take 68 KB of it, so the
//! cell carries no Leptos and no editor: the engine with `wire`, the lesson loader,
//! and a few DOM nodes (`view`); the lesson's data goes in through the wire too (`code::lesson_account`). It reuses the Code section's runner protocol
//! (`code_panel::runtime`, www/code/runner.js: the same sandbox worker, time limit and errors
//! with their line), its run outcome and wire log model (`code_panel::{Outcome, output}`) and
//! the SDK transport's JavaScript request and response (`wire_js`).
//!
//! Invariants:
//! - the cell's account is its own: the lesson's steps run on a fresh account before every
//!   run, so each run starts from the lesson's data; the user's IndexedDB is never opened;
//! - one run at a time; a run never outlives its time limit, read from the cell's field as the
//!   run starts, nor a click on Stop (the runner terminates its worker);
//! - the code, whether from the URL or a file, is only ever a textarea's value and the
//!   sandbox's input: never HTML.

mod json_tree;
mod view;
mod wire_log;

use crate::engine::scenario::{self, Scenario};
use crate::engine::Account;
use crate::i18n::{self, msg};
use crate::ui::kit::address::query_param;
use crate::ui::panels::code_panel::runtime::Bundle;
use crate::ui::panels::code_panel::snippets;
use crate::wire::{self, Endpoint};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

/// The longest code the URL may carry, in characters (a docs page's link, not a file).
pub const MAX_CODE_CHARS: usize = 4000;
/// The default time limit, in seconds (the Code section's default).
const DEFAULT_LIMIT: &str = "5";

/// What the embed's address asks for.
#[derive(Debug, Clone, PartialEq)]
pub struct CellRequest {
    pub code: CodeSource,
    /// A built-in lesson whose data the code runs on.
    pub scenario: Option<String>,
    pub limit_s: f64,
}

#[derive(Debug, Clone, PartialEq)]
pub enum CodeSource {
    Snippet(String),
    Text(String),
}

impl CellRequest {
    /// Reads `snippet`, `code`, `scenario` and `limit` (seconds); an error in the page's
    /// language says what is wrong with them.
    pub fn read(param: impl Fn(&str) -> Option<String>) -> Result<CellRequest, String> {
        let code = match (param("snippet"), param("code")) {
            (Some(_), Some(_)) => return Err(msg::cell_snippet_and_code()),
            (Some(file), None) if snippets::plain_file(&file) => CodeSource::Snippet(file),
            (Some(file), None) => return Err(msg::cell_bad_snippet(&file)),
            (None, Some(text)) => {
                let length = text.chars().count();
                if length > MAX_CODE_CHARS {
                    return Err(msg::cell_code_too_long(
                        i18n::number(length as f64),
                        i18n::number(MAX_CODE_CHARS as f64),
                    ));
                }
                CodeSource::Text(text)
            }
            (None, None) => return Err(msg::cell_no_code()),
        };
        let scenario = match param("scenario") {
            Some(file) if crate::ui::kit::fetch::is_scenario_file(&file) => Some(file),
            Some(file) => return Err(msg::cell_bad_scenario(&file)),
            None => None,
        };
        let limit_s = crate::ui::panels::code_panel::limit_seconds(
            &param("limit").unwrap_or(DEFAULT_LIMIT.into()),
        );
        Ok(CellRequest {
            code,
            scenario,
            limit_s,
        })
    }
}

/// Mounts the cell on `<body>`, as the page's address asks.
pub fn mount() {
    wasm_bindgen_futures::spawn_local(async {
        // The host page passes its language as `?lang=`.
        i18n::start_embed(crate::modules::CELL.name).await;
        let request = CellRequest::read(query_param);
        let frame = view::Frame::mount();
        let Some(frame) = frame else { return };
        match request {
            Ok(request) => start(frame, request).await,
            Err(e) => frame.fail(&e),
        }
    });
}

/// Loads the code, the lesson and the runner, then waits for runs.
async fn start(frame: Rc<view::Frame>, request: CellRequest) {
    let lang = i18n::lang();
    let code = match &request.code {
        CodeSource::Snippet(file) => snippets::file_text(file).await,
        CodeSource::Text(text) => Ok(text.clone()),
    };
    let lesson = match &request.scenario {
        Some(file) => match crate::ui::kit::fetch::scenario_text_in(file, lang).await {
            Ok(text) => scenario::parse(&text)
                .map(Some)
                .map_err(|e| format!("{file}: {e}")),
            Err(e) => Err(e),
        },
        None => Ok(None),
    };
    let bundle = Bundle::load_cell().await;
    let (code, lesson, bundle) = match (code, lesson, bundle) {
        (Ok(c), Ok(l), Ok(b)) => (c, l, b),
        (Err(e), _, _) | (_, Err(e), _) | (_, _, Err(e)) => {
            frame.fail(&msg::cell_load_failed(&e));
            return;
        }
    };
    let data = match &lesson {
        Some(s) => format!(
            "{} {}",
            msg::cell_on_lesson(s.name_for(lang.code())),
            msg::cell_fresh_each_run()
        ),
        None => msg::cell_on_empty(),
    };
    let cell = Rc::new(Cell {
        frame,
        bundle,
        lesson,
        running: RefCell::new(None),
    });
    let on_run = {
        let cell = Rc::downgrade(&cell);
        move || {
            if let Some(cell) = cell.upgrade() {
                run(cell);
            }
        }
    };
    let on_stop = {
        let cell = Rc::downgrade(&cell);
        move || {
            if let Some(cell) = cell.upgrade() {
                stop(&cell);
            }
        }
    };
    cell.frame
        .ready(&code, &data, request.limit_s, on_run, on_stop);
    // The cell lives as long as the page.
    std::mem::forget(cell);
}

/// The loaded cell.
struct Cell {
    frame: Rc<view::Frame>,
    bundle: Bundle,
    lesson: Option<Scenario>,
    /// The run under way and the `wire` function it calls (kept alive until it settles).
    running: RefCell<Option<Running>>,
}

struct Running {
    run: Rc<crate::ui::panels::code_panel::runtime::Run>,
    _wire: Closure<dyn Fn(JsValue) -> Result<JsValue, JsValue>>,
}

/// A fresh account with the lesson's data (an empty one without a lesson).
fn lesson_account(lesson: Option<&Scenario>) -> Account {
    lesson.map(crate::code::lesson_account).unwrap_or_default()
}

fn run(cell: Rc<Cell>) {
    if cell.running.borrow().is_some() {
        return;
    }
    let account = Rc::new(RefCell::new(lesson_account(cell.lesson.as_ref())));
    let wire = Closure::<dyn Fn(JsValue) -> Result<JsValue, JsValue>>::new(move |js: JsValue| {
        let request = crate::ui::kit::wire_js::read_request(&js)?;
        let context = crate::ui::kit::wire_js::context();
        let endpoint = Endpoint::anonymous(wire::DEV_ACCOUNT);
        let outcome = wire::handle(&mut account.borrow_mut(), &endpoint, &context, &request);
        Ok(crate::ui::kit::wire_js::write_response(
            &outcome.response,
            outcome.stats.as_ref(),
            outcome.ru.and_then(|e| e.value),
        ))
    });
    let frame = cell.frame.clone();
    frame.clear();
    let on_log = {
        let frame = frame.clone();
        move |v: serde_json::Value| frame.log(&v)
    };
    let on_exchange = {
        let frame = frame.clone();
        move |v: serde_json::Value| frame.exchange(&v)
    };
    let code = frame.code();
    let limit_s = frame.limit_s();
    let started = cell.bundle.run(
        &code,
        limit_s * 1000.0,
        Some(wire.as_ref().unchecked_ref()),
        on_log,
        on_exchange,
    );
    let r = match started {
        Ok(r) => Rc::new(r),
        Err(e) => {
            frame.finish(&crate::ui::panels::code_panel::Outcome::Failed {
                line: None,
                text: e,
            });
            return;
        }
    };
    frame.set_running(true);
    *cell.running.borrow_mut() = Some(Running {
        run: r.clone(),
        _wire: wire,
    });
    wasm_bindgen_futures::spawn_local(async move {
        let settled = r.settled().await;
        let outcome = crate::ui::panels::code_panel::Outcome::from_json(&settled, limit_s);
        cell.frame.finish(&outcome);
        cell.frame.set_running(false);
        cell.running.borrow_mut().take();
    });
}

/// Stops the run under way, if any: it settles as stopped, and `run` shows that.
fn stop(cell: &Cell) {
    let running = cell.running.borrow().as_ref().map(|r| r.run.clone());
    if let Some(run) = running {
        run.stop();
    }
}
