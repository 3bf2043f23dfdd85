//! The data generator: writes the design's entities into the sandbox tables (ordinary data,
//! saved like any other write) in slices of about [`SLICE_MS`], so the page stays responsive,
//! with progress and cancel. Same design and seed, same entities.
//!
//! The section is its own wasm: the engine's generator runs in a Web Worker running a second
//! instance of it (`super::offthread`), or here where no worker starts, and each slice's
//! entities cross to the playground's account through the bridge as partition chunks
//! (`super::remote`), written there without saving (a read-only tab refuses them).
//!
//! Invariant: every entity written is saved: the slices write without saving, and a save
//! follows every few slices, at the end, and on cancel or failure. A run that replaces the
//! design's tables holds every save back until it ends (`Bridge::hold`), so the disk keeps
//! the old tables until the run's whole result reaches it in one transaction: a reload at any
//! moment shows the old tables or the new ones, never a mix.

use super::bridge::Bridge;
use super::doc::Ctx;
use super::fmt;
use super::offthread::OffThread;
use super::remote::Writer;
use crate::design::{Design, Generator, Progress};
use crate::i18n::{msg, t};
use crate::ui::kit::dom;
use leptos::prelude::*;
use wasm_bindgen::{JsCast, JsValue};

/// What one task aims to take, in milliseconds (a generation slice, or a save's planning):
/// half the 100 ms a task may take before the page feels stuck, since a slice's size is
/// set from the one before it and can overshoot. Shorter slices cost time: each ends with
/// a render and a pause.
pub const SLICE_MS: f64 = 50.0;

/// How a run ended.
#[derive(Clone, PartialEq)]
enum Outcome {
    Done { entities: u64, ms: f64 },
    Cancelled { entities: u64 },
    Failed(String),
}

#[component]
pub fn GeneratorPanel() -> impl IntoView {
    let ctx = Ctx::expect();
    let running = RwSignal::new(false);
    let cancel = StoredValue::new(false);
    let progress = RwSignal::new((0u64, 0u64));
    let outcome = RwSignal::new(None::<Outcome>);
    let replace = RwSignal::new(false);
    let total = Memo::new(move |_| {
        ctx.design
            .with(|d| d.entity_types.iter().map(|t| t.count).sum::<u64>())
    });
    let start = move |_| {
        if running.get_untracked() {
            return;
        }
        let design = ctx.design.get_untracked();
        running.set(true);
        cancel.set_value(false);
        outcome.set(None);
        ctx.evaluation.set(None);
        leptos::task::spawn_local(async move {
            ctx.profile.set(None);
            let ended = match Bridge::get() {
                Ok(bridge) => {
                    let ended = generate(
                        bridge.clone(),
                        &design,
                        replace.get_untracked(),
                        cancel,
                        progress,
                    )
                    .await;
                    if matches!(ended, Outcome::Done { .. }) {
                        // The values as the tables now hold them, beside the declared ones.
                        let counted = match super::remote::Reader::new(bridge) {
                            Ok(reader) => super::profile::read(&reader, &design).await,
                            Err(e) => Err(e),
                        };
                        match counted {
                            Ok(p) => ctx.profile.set(Some((design.clone(), p))),
                            Err(e) => outcome.set(Some(Outcome::Failed(e))),
                        }
                    }
                    ended
                }
                Err(e) => Outcome::Failed(e),
            };
            if outcome.get_untracked().is_none() {
                outcome.set(Some(ended));
            }
            running.set(false);
        });
    };
    view! {
        <section class="panel design-generate" aria-labelledby="design-generate-heading">
            <h2 id="design-generate-heading">{t(msg::design_generate_heading)}</h2>
            <p class="hint">{t(msg::design_generate_hint)}</p>
            <p class="generate-total">{move || msg::design_generate_total(fmt::num(total.get() as f64))}</p>
            <div class="editor-actions">
                {super::form::check(msg::design_generate_replace, "generate-replace", move || replace.get(), move |v| replace.set(v))}
                <button type="button" class="primary generate" prop:disabled=move || running.get() on:click=start>
                    {t(msg::design_generate)}
                </button>
                <button type="button" class="cancel-generate" hidden=move || !running.get() on:click=move |_| cancel.set_value(true)>
                    {t(msg::design_cancel)}
                </button>
            </div>
            <progress class="generate-progress" hidden=move || !running.get()
                max=move || progress.get().1.max(1).to_string() value=move || progress.get().0.to_string()
                aria-label=t(msg::design_generate_heading)></progress>
            <p class="status generate-status" role="status">
                {move || match outcome.get() {
                    None if running.get() => msg::design_generate_progress(fmt::num(progress.get().0 as f64), fmt::num(progress.get().1 as f64)),
                    None => String::new(),
                    Some(Outcome::Done { entities, ms }) => msg::design_generate_done(fmt::num(entities as f64), fmt::num(ms / 1000.0)),
                    Some(Outcome::Cancelled { entities }) => msg::design_generate_cancelled(fmt::num(entities as f64)),
                    Some(Outcome::Failed(e)) => e,
                }}
            </p>
            <super::profile::ProfileTable />
        </section>
    }
}

/// Generates `design` into the account, a slice per task, until done, cancelled or refused.
/// With `replace`, the design's tables are deleted first (the generator never mixes its
/// data into a table that holds entities), and saves are held back until the run ends, so
/// the deletion and the new entities reach the disk together. The entities are drawn in a
/// Web Worker where one starts (`super::offthread`), else here.
async fn generate(
    bridge: Bridge,
    design: &Design,
    replace: bool,
    cancel: StoredValue<bool>,
    progress: RwSignal<(u64, u64)>,
) -> Outcome {
    if !replace {
        return generate_into(bridge, design, false, cancel, progress).await;
    }
    if let Err(e) = bridge.hold() {
        return Outcome::Failed(e);
    }
    let ended = generate_into(bridge.clone(), design, true, cancel, progress).await;
    // Released whatever happened, and saved: what the run wrote is what the page shows.
    match bridge.release() {
        Err(e) if !matches!(ended, Outcome::Failed(_)) => Outcome::Failed(e),
        _ => ended,
    }
}

async fn generate_into(
    bridge: Bridge,
    design: &Design,
    replace: bool,
    cancel: StoredValue<bool>,
    progress: RwSignal<(u64, u64)>,
) -> Outcome {
    if replace {
        let existing = match bridge.tables() {
            Ok(t) => t,
            Err(e) => return Outcome::Failed(e),
        };
        for table in &design.tables {
            if existing
                .iter()
                .any(|(name, _)| name.eq_ignore_ascii_case(table))
            {
                if let Err(e) = bridge.delete_table(table) {
                    return Outcome::Failed(e);
                }
            }
        }
    }
    let mut writer = match Writer::new(bridge.clone()) {
        Ok(w) => w,
        Err(e) => return Outcome::Failed(e),
    };
    let mut generator = match Generator::new(design) {
        Ok(g) => g,
        Err(e) => return Outcome::Failed(e.to_string()),
    };
    // The last run's start mark goes first, so the measure spans this run only.
    if let Some(p) = web_sys::window().and_then(|w| w.performance()) {
        p.clear_marks_with_mark_name(START_MARK);
    }
    dom::mark(START_MARK);
    let mut pace = Pace::new(bridge, progress);
    // The first step writes nothing: it checks the design's tables and creates them.
    if let Err(e) = generator.step(&mut writer, 0) {
        return Outcome::Failed(e.to_string());
    }
    match OffThread::start(design, writer.tables()).await {
        Ok(worker) => off_thread(&worker, &mut pace, cancel).await,
        Err(_) => in_thread(generator, writer, &mut pace, cancel).await,
    }
}

/// The entities drawn in the worker, a slice handed over while it draws the next.
async fn off_thread(worker: &OffThread, pace: &mut Pace, cancel: StoredValue<bool>) -> Outcome {
    pace.off_thread = true;
    let mut done = 0;
    if let Err(e) = worker.request(pace.per_slice) {
        return pace.failed(e);
    }
    loop {
        if cancel.get_value() {
            worker.stop();
            return pace.cancelled(done);
        }
        let w0 = now();
        let slice = match worker.slice().await {
            Ok(s) => s,
            Err(e) => return pace.failed(e),
        };
        pace.wait_ms += now() - w0;
        let p = slice.progress;
        if !p.is_complete() {
            if let Err(e) = worker.request(pace.per_slice) {
                return pace.failed(e);
            }
        }
        let t0 = now();
        for (table, chunks) in &slice.tables {
            if let Err(e) = super::remote::hand_over(&pace.bridge, table, chunks) {
                worker.stop();
                return pace.failed(e);
            }
        }
        pace.sliced(now() - t0, p, p.done - done);
        done = p.done;
        if let Some(ended) = pace.after_slice(p).await {
            return ended;
        }
    }
}

/// The entities drawn here, a slice per task.
async fn in_thread(
    mut generator: Generator<'_>,
    mut writer: Writer,
    pace: &mut Pace,
    cancel: StoredValue<bool>,
) -> Outcome {
    loop {
        let done = generator.progress().done;
        if cancel.get_value() {
            return pace.cancelled(done);
        }
        let t0 = now();
        let stepped = generator
            .step(&mut writer, pace.per_slice)
            .map_err(|e| e.to_string())
            .and_then(|p| writer.flush().map(|()| p));
        let p = match stepped {
            Ok(p) => p,
            Err(e) => return pace.failed(e),
        };
        pace.sliced(now() - t0, p, p.done - done);
        if let Some(ended) = pace.after_slice(p).await {
            return ended;
        }
    }
}

/// A run's pacing: slice and save sizes that adapt to what they cost, the saves, progress,
/// and where the time goes (for the benchmark, `?perf=1`).
///
/// Invariant: every entity written is saved: the slices write without saving, and a save
/// follows every few slices, at the end, and on cancel or failure.
struct Pace {
    bridge: Bridge,
    progress: RwSignal<(u64, u64)>,
    started: f64,
    /// Entities per generation slice, and per save (see `AppState::write_unsaved`): each
    /// adapts so that its task takes about SLICE_MS.
    per_slice: u64,
    per_save: u64,
    unsaved: u64,
    /// The slices' work on this thread (drawing here, or only the hand-over), the saves'
    /// planning, the waits for the worker.
    engine_ms: f64,
    save_ms: f64,
    wait_ms: f64,
    slices: u32,
    off_thread: bool,
}

impl Pace {
    fn new(bridge: Bridge, progress: RwSignal<(u64, u64)>) -> Pace {
        Pace {
            bridge,
            progress,
            started: now(),
            per_slice: 2_000,
            per_save: 5_000,
            unsaved: 0,
            engine_ms: 0.0,
            save_ms: 0.0,
            wait_ms: 0.0,
            slices: 0,
            off_thread: false,
        }
    }

    /// A slice of `written` entities took `took` ms on this thread.
    fn sliced(&mut self, took: f64, p: Progress, written: u64) {
        self.engine_ms += took;
        self.slices += 1;
        // Sized from this slice's own count, not from `per_slice`: off the main thread the
        // next slice was asked for before this one came, so scaling `per_slice` would
        // compound one slice's growth into the next and overshoot.
        if written > 0 {
            self.per_slice = adapt(written, took);
        }
        self.unsaved += written;
        self.progress.set((p.done, p.total));
    }

    /// Saves when enough is unsaved or the run is complete; `Some` when the run ended.
    async fn after_slice(&mut self, p: Progress) -> Option<Outcome> {
        if self.unsaved >= self.per_save || p.is_complete() {
            pause().await;
            let t0 = now();
            if let Err(e) = save(&self.bridge) {
                return Some(Outcome::Failed(e));
            }
            let took = now() - t0;
            self.save_ms += took;
            self.per_save = adapt(self.unsaved, took);
            self.unsaved = 0;
        }
        if p.is_complete() {
            dom::measure("tablescope-design-generate", START_MARK);
            self.expose_times();
            return Some(Outcome::Done {
                entities: p.done,
                ms: now() - self.started,
            });
        }
        pause().await;
        None
    }

    /// What was written before is kept, and saved.
    fn failed(&self, e: String) -> Outcome {
        let _ = save(&self.bridge);
        Outcome::Failed(e)
    }

    fn cancelled(&self, done: u64) -> Outcome {
        match save(&self.bridge) {
            Ok(()) => Outcome::Cancelled { entities: done },
            Err(e) => Outcome::Failed(e),
        }
    }

    /// With `?perf=1`: `window.__tablescopeDesignGenerate = {engineMs, saveMs, waitMs,
    /// slices, offThread}`.
    fn expose_times(&self) {
        let Some(window) = web_sys::window() else {
            return;
        };
        if !crate::ui::state::perf::requested(&window) {
            return;
        }
        let times = js_sys::Object::new();
        for (name, v) in [
            ("engineMs", JsValue::from(self.engine_ms)),
            ("saveMs", self.save_ms.into()),
            ("waitMs", self.wait_ms.into()),
            ("slices", f64::from(self.slices).into()),
            ("offThread", self.off_thread.into()),
        ] {
            let _ = js_sys::Reflect::set(&times, &name.into(), &v);
        }
        let _ = js_sys::Reflect::set(&window, &"__tablescopeDesignGenerate".into(), &times);
    }
}

/// Saves what was written since the last save, and lets views re-read.
fn save(bridge: &Bridge) -> Result<(), String> {
    bridge.save()
}

/// The next amount of work for a task that took `took` ms for `n`: aiming at SLICE_MS,
/// growing at most twofold at a time.
fn adapt(n: u64, took: f64) -> u64 {
    let scaled = n as f64 * SLICE_MS / took.max(1.0);
    (scaled.min(n as f64 * 2.0) as u64).clamp(200, 200_000)
}

fn now() -> f64 {
    dom::now()
}

/// `tablescope-design-generate` measures a run's time from this mark, for the benchmark.
const START_MARK: &str = "tablescope-design-generate-start";

/// Lets the browser paint and handle input before the next slice: the rest runs as a new
/// task, through `scheduler.postTask` where the browser has it (Chromium), else
/// `setTimeout`, which browsers hold back 4 ms once timers nest (a run of a million entities
/// has hundreds of slices, so that was about a second).
pub async fn pause() {
    let Some(window) = web_sys::window() else {
        return;
    };
    let post_task = js_sys::Reflect::get(&window, &"scheduler".into())
        .ok()
        .filter(JsValue::is_object)
        .and_then(|scheduler| {
            let f = js_sys::Reflect::get(&scheduler, &"postTask".into()).ok()?;
            let f: js_sys::Function = f.dyn_into().ok()?;
            // A Rust closure, not `new Function` (no eval), freed once called.
            let noop = wasm_bindgen::closure::Closure::once_into_js(|| ());
            f.call1(&scheduler, &noop).ok()
        })
        .and_then(|p| p.dyn_into::<js_sys::Promise>().ok());
    let promise = post_task.unwrap_or_else(|| {
        js_sys::Promise::new(&mut |resolve, _| {
            if window.set_timeout_with_callback(&resolve).is_err() {
                let _ = resolve.call0(&JsValue::NULL);
            }
        })
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}
