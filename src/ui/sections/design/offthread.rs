//! The data generator off the page's main thread: a Web Worker (`www/design-worker.js`) runs
//! a second instance of this module, which draws the entities and writes them into chunk
//! bytes, while the page writes the chunks of the slice before into the playground. On two
//! cores the two halves overlap; the page's main thread does only the hand-over and the saves.
//!
//! The protocol, one message each way at a time per request:
//! - page → worker `{kind: "start", design, tables}` (the design's JSON, and the tables with
//!   their entity counts once the page has created them) → `{kind: "started"}`;
//! - page → worker `{kind: "step", max}` → `{kind: "slice", done, total, tables: [[name,
//!   [chunk, …]], …]}`, the chunks as `Uint8Array`s whose buffers are transferred;
//! - any failure → `{kind: "error", message}`.
//!
//! The worker's generator is the same [`Generator`] on the same design and seed, so the data
//! is exactly what generating in the page gives. Where a worker cannot start (no module
//! workers, a sandboxed frame) the page generates in its own thread (`super::run`).

use super::handover::{to_js, Slice};
use crate::design::{Design, Generator, Progress, Sink};
use crate::engine::Entity;
use js_sys::{Array, Object, Reflect};
use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

// ---- the worker's side (exported by the `design` bin: src/bin/design.rs) ----

/// The worker's sink: the tables the page created, and the slice being written.
struct WorkerSink {
    tables: Vec<(String, u64)>,
    slice: Slice,
}

impl Sink for WorkerSink {
    fn entities_in(&self, table: &str) -> Option<u64> {
        let found = self
            .tables
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(table));
        found.map(|(_, n)| *n)
    }

    /// The page creates the tables before the worker starts; a table missing here is a
    /// protocol fault, said as such.
    fn create_table(&mut self, table: &str) -> Result<(), String> {
        Err(format!(
            "the page did not create table {table:?} before generating"
        ))
    }

    fn insert(&mut self, table: &str, entity: Entity) -> Result<(), String> {
        self.slice.push(table, &entity);
        Ok(())
    }
}

// A thread-local: this side runs in a Web Worker, with no Leptos runtime and so no context.
thread_local! {
    /// The worker's run. Its design is leaked for the generator's lifetime: a worker runs one
    /// generation and is then terminated, which frees its whole memory.
    static RUN: RefCell<Option<(Generator<'static>, WorkerSink)>> = const { RefCell::new(None) };
}

/// `{kind: "start"}`: prepares the run.
pub fn worker_start(design: &str, tables: &JsValue) -> Result<(), String> {
    let design: &'static Design = Box::leak(Box::new(
        Design::from_json(design).map_err(|e| e.to_string())?,
    ));
    let generator = Generator::new(design).map_err(|e| e.to_string())?;
    let mut list = Vec::new();
    for pair in Array::from(tables).iter() {
        let pair = Array::from(&pair);
        let name = pair.get(0).as_string().ok_or("bad table list")?;
        list.push((name, pair.get(1).as_f64().unwrap_or(0.0) as u64));
    }
    let sink = WorkerSink {
        tables: list,
        slice: Slice::default(),
    };
    RUN.with(|r| *r.borrow_mut() = Some((generator, sink)));
    Ok(())
}

/// `{kind: "step"}`: draws up to `max` more entities; the slice message.
pub fn worker_step(max: f64) -> Result<JsValue, String> {
    RUN.with(|r| {
        let mut run = r.borrow_mut();
        let (generator, sink) = run.as_mut().ok_or("the generator was not started")?;
        let p = generator
            .step(sink, max.max(0.0) as u64)
            .map_err(|e| e.to_string())?;
        let tables: Array = sink
            .slice
            .take()
            .into_iter()
            .map(|(name, chunks)| JsValue::from(Array::of2(&name.into(), &to_js(&chunks))))
            .collect();
        Ok(message(&[
            ("kind", "slice".into()),
            ("done", (p.done as f64).into()),
            ("total", (p.total as f64).into()),
            ("tables", tables.into()),
        ])
        .into())
    })
}

// ---- the page's side ----

/// A generation's worker, started on the design.
pub struct OffThread {
    worker: web_sys::Worker,
    replies: Rc<Replies>,
    _listeners: [Closure<dyn FnMut(JsValue)>; 2],
}

/// Replies not yet awaited, and the await waiting for one.
#[derive(Default)]
struct Replies {
    queue: RefCell<VecDeque<JsValue>>,
    waiting: RefCell<Option<js_sys::Function>>,
}

impl Replies {
    fn arrive(&self, reply: JsValue) {
        match self.waiting.borrow_mut().take() {
            Some(resolve) => {
                let _ = resolve.call1(&JsValue::NULL, &reply);
            }
            None => self.queue.borrow_mut().push_back(reply),
        }
    }
}

/// One slice from the worker.
pub struct WorkerSlice {
    pub progress: Progress,
    /// Per table, its chunks (`Uint8Array`s).
    pub tables: Vec<(String, Array)>,
}

impl OffThread {
    /// Starts the worker on `design`, whose tables the page has created (`tables`: names and
    /// entity counts). `Err` says why it could not start; the caller then generates here.
    pub async fn start(design: &Design, tables: &[(String, u64)]) -> Result<OffThread, String> {
        let url = worker_url()?;
        let options = web_sys::WorkerOptions::new();
        options.set_type(web_sys::WorkerType::Module);
        let worker = web_sys::Worker::new_with_options(&url, &options)
            .map_err(|e| crate::ui::kit::dynamic::describe(&e))?;
        let replies = Rc::new(Replies::default());
        let on_message = {
            let replies = replies.clone();
            Closure::<dyn FnMut(JsValue)>::new(move |event: JsValue| {
                let data = Reflect::get(&event, &"data".into()).unwrap_or(JsValue::UNDEFINED);
                replies.arrive(data);
            })
        };
        // A script that fails to load or throws at the top level: said as an error reply.
        let on_error = {
            let replies = replies.clone();
            Closure::<dyn FnMut(JsValue)>::new(move |event: JsValue| {
                if let Some(e) = event.dyn_ref::<web_sys::Event>() {
                    e.prevent_default();
                }
                let said = Reflect::get(&event, &"message".into())
                    .ok()
                    .and_then(|m| m.as_string())
                    .unwrap_or_else(|| "the generator's worker failed to start".into());
                replies
                    .arrive(message(&[("kind", "error".into()), ("message", said.into())]).into());
            })
        };
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        let off = OffThread {
            worker,
            replies,
            _listeners: [on_message, on_error],
        };
        let list: Array = tables
            .iter()
            .map(|(name, n)| JsValue::from(Array::of2(&name.into(), &(*n as f64).into())))
            .collect();
        off.post(&[
            ("kind", "start".into()),
            ("design", design.to_json().into()),
            ("tables", list.into()),
        ])?;
        match off.reply("started", Some(START_TIMEOUT_MS)).await {
            Ok(_) => Ok(off),
            Err(e) => {
                off.stop();
                Err(e)
            }
        }
    }

    /// Asks for the next slice of up to `max` entities (answered by [`OffThread::slice`]).
    pub fn request(&self, max: u64) -> Result<(), String> {
        self.post(&[("kind", "step".into()), ("max", (max as f64).into())])
    }

    /// The slice asked for longest ago.
    pub async fn slice(&self) -> Result<WorkerSlice, String> {
        let reply = self.reply("slice", None).await?;
        let number = |name: &str| {
            Reflect::get(&reply, &name.into())
                .ok()
                .and_then(|v| v.as_f64())
                .ok_or_else(|| format!("the generator's worker sent no {name}"))
        };
        let progress = Progress {
            done: number("done")? as u64,
            total: number("total")? as u64,
        };
        let list = Reflect::get(&reply, &"tables".into()).unwrap_or(JsValue::UNDEFINED);
        let mut tables = Vec::new();
        for pair in Array::from(&list).iter() {
            let pair = Array::from(&pair);
            let name = pair
                .get(0)
                .as_string()
                .ok_or("the worker sent a bad slice")?;
            tables.push((name, Array::from(&pair.get(1))));
        }
        Ok(WorkerSlice { progress, tables })
    }

    /// Ends the worker (and whatever it was drawing).
    pub fn stop(&self) {
        self.worker.terminate();
    }

    fn post(&self, fields: &[(&str, JsValue)]) -> Result<(), String> {
        self.worker
            .post_message(&message(fields))
            .map_err(|e| crate::ui::kit::dynamic::describe(&e))
    }

    /// The next reply, which must be of `kind`; with `timeout`, an error if none comes
    /// within that many ms.
    async fn reply(&self, kind: &str, timeout: Option<i32>) -> Result<JsValue, String> {
        let queued = self.replies.queue.borrow_mut().pop_front();
        let reply = match queued {
            Some(reply) => reply,
            None => {
                let replies = self.replies.clone();
                let promise = js_sys::Promise::new(&mut |resolve, _| {
                    if let (Some(ms), Some(window)) = (timeout, web_sys::window()) {
                        // Only if this await still waits: a reply that came first took it.
                        let waiting = replies.clone();
                        let late = Closure::once_into_js(move || {
                            if let Some(resolve) = waiting.waiting.borrow_mut().take() {
                                let said = "the generator's worker did not start in time";
                                let error =
                                    message(&[("kind", "error".into()), ("message", said.into())]);
                                let _ = resolve.call1(&JsValue::NULL, &error);
                            }
                        });
                        let _ = window.set_timeout_with_callback_and_timeout_and_arguments_0(
                            late.unchecked_ref(),
                            ms,
                        );
                    }
                    *replies.waiting.borrow_mut() = Some(resolve);
                });
                wasm_bindgen_futures::JsFuture::from(promise)
                    .await
                    .unwrap_or(JsValue::UNDEFINED)
            }
        };
        let field = |name: &str| {
            Reflect::get(&reply, &name.into())
                .ok()
                .and_then(|v| v.as_string())
        };
        match field("kind").as_deref() {
            Some(k) if k == kind => Ok(reply),
            Some("error") => Err(field("message").unwrap_or_default()),
            _ => Err(format!(
                "the generator's worker answered out of turn (expected {kind})"
            )),
        }
    }
}

impl Drop for OffThread {
    fn drop(&mut self) {
        self.stop();
    }
}

/// How long a worker may take to start (to fetch and compile the module) before the page
/// generates in its own thread instead.
const START_TIMEOUT_MS: i32 = 10_000;

/// `design-worker.js` (the design module's worker in `www/modules.json`), beside the module's
/// own `design.js`.
fn worker_url() -> Result<String, String> {
    let base = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.base_uri().ok().flatten())
        .ok_or("no page address for the generator's worker")?;
    let worker = crate::modules::DESIGN
        .worker
        .ok_or("www/modules.json names no worker for the design module")?;
    web_sys::Url::new_with_base(worker, &base)
        .map(|u| u.href())
        .map_err(|e| crate::ui::kit::dynamic::describe(&e))
}

/// A plain object of these fields.
fn message(fields: &[(&str, JsValue)]) -> Object {
    let out = Object::new();
    for (name, value) in fields {
        let _ = Reflect::set(&out, &(*name).into(), value);
    }
    out
}
