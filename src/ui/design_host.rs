//! The Design section as a module loaded on first use (issue #13).
//!
//! The section (`ui::design`) is built as its own wasm (the `design` bin, `src/design.rs`;
//! Trunk writes `design.js` and `design_bg.wasm` without a hash and does not load them), so
//! none of its code, view templates or text is in the playground's wasm. The first time the
//! section is shown, this host loads the module and mounts it with a bridge: a JavaScript
//! object of functions on the user's sandbox account and workspace (the two wasm modules share
//! no memory). The module's side and the bridge's contract: `ui::design::bridge`.
//!
//! Invariants kept on this side: the generator's entities are written without saving and
//! saved by `save` (`AppState::write_unsaved`, `AppState::change`); a read-only tab refuses
//! every write (a throw the section shows); reads go through `window.tablescope.wire`, which
//! changes nothing.

use super::app::Section;
use super::state::AppState;
use super::workspace::Workspace;
use crate::i18n::{msg, t};
use js_sys::{Array, Function, Object, Reflect, Uint8Array};
use leptos::prelude::*;
use leptos::task::spawn_local;
use wasm_bindgen::prelude::*;

/// The module's files, relative to the page.
pub const DESIGN_JS: &str = "design.js";
pub const DESIGN_WASM: &str = "design_bg.wasm";

#[derive(Debug, Clone, PartialEq)]
enum Load {
    Loading,
    Mounted,
    Failed(String),
}

/// The section's panel, for `SectionPanel` (app.rs), which calls it through a pointer so that
/// none of this is inlined into the start.
pub fn panel() -> AnyView {
    view! { <DesignHost /> }.into_any()
}

#[component]
fn DesignHost() -> impl IntoView {
    let host = NodeRef::<leptos::html::Div>::new();
    let load = RwSignal::new(Load::Loading);
    let (state, workspace) = (AppState::expect(), Workspace::expect());
    let section = expect_context::<RwSignal<Section>>();
    let start = move || {
        load.set(Load::Loading);
        spawn_local(async move {
            let outcome = match host.get_untracked() {
                Some(element) => mount(element.into(), state, workspace, section).await,
                None => Err("the page is closing".into()),
            };
            load.try_set(outcome.map_or_else(Load::Failed, |()| Load::Mounted));
        });
    };
    // After the first render, so `host` is mounted; tracks nothing, so it runs once.
    Effect::new(move |_| start());
    view! {
        {move || match load.get() {
            Load::Mounted => None,
            Load::Loading => Some(view! { <p class="panel hint" role="status">{t(msg::design_loading)}</p> }.into_any()),
            Load::Failed(e) => Some(view! {
                <div class="panel error-notice lessons-failed" role="alert">
                    <p>{msg::design_load_failed(&e)}</p>
                    <button type="button" class="retry-design" on:click=move |_| start()>{t(msg::learn_retry)}</button>
                </div>
            }.into_any()),
        }}
        <div class="lessons-host" node_ref=host></div>
    }
}

/// Loads the module (once per page) and mounts the section into `host`.
async fn mount(
    host: web_sys::HtmlElement,
    state: AppState,
    workspace: Workspace,
    section: RwSignal<Section>,
) -> Result<(), String> {
    let module =
        super::dynamic::bindgen_module(DESIGN_JS, DESIGN_WASM, "the Design module").await?;
    let mount = Reflect::get(&module, &"mount_design".into())
        .ok()
        .and_then(|f| f.dyn_into::<Function>().ok())
        .ok_or("the Design module has no mount_design")?;
    // Mounted once: a retry after a failed mount would install a second bridge.
    let bridge = BRIDGE.with(|b| {
        b.get_or_init(|| bridge(state, workspace, section).into())
            .clone()
    });
    mount
        .call2(&JsValue::NULL, &host, &bridge)
        .map_err(|e| super::dynamic::describe(&e))?;
    Ok(())
}

thread_local! {
    static BRIDGE: std::cell::OnceCell<JsValue> = const { std::cell::OnceCell::new() };
}

/// The bridge object; its functions live as long as the page.
fn bridge(state: AppState, workspace: Workspace, section: RwSignal<Section>) -> Object {
    let out = Object::new();
    let set = |name: &str, f: &JsValue| {
        let _ = Reflect::set(&out, &name.into(), f);
    };
    let text = Closure::<dyn Fn() -> JsValue>::new(move || workspace.design.get_untracked().into());
    set("designText", text.as_ref());
    text.forget();
    let set_text = Closure::<dyn Fn(JsValue)>::new(move |v: JsValue| {
        if let Some(v) = v.as_string() {
            if workspace.design.with_untracked(|t| *t != v) {
                workspace.design.set(v);
            }
        }
    });
    set("setDesignText", set_text.as_ref());
    set_text.forget();
    let tables = Closure::<dyn Fn() -> JsValue>::new(move || {
        let list: Array = state
            .describe_tables()
            .iter()
            .map(|t| {
                JsValue::from(Array::of2(
                    &t.name.as_str().into(),
                    &(t.entities as f64).into(),
                ))
            })
            .collect();
        list.into()
    });
    set("tables", tables.as_ref());
    tables.forget();
    let create = Closure::<dyn Fn(String) -> Result<(), JsValue>>::new(move |name: String| {
        state.create_table(&name).map_err(|e| e.to_string().into())
    });
    set("createTable", create.as_ref());
    create.forget();
    let delete = Closure::<dyn Fn(String) -> Result<(), JsValue>>::new(move |name: String| {
        state.delete_table(&name).map_err(|e| e.to_string().into())
    });
    set("deleteTable", delete.as_ref());
    delete.forget();
    let insert = Closure::<dyn Fn(String, JsValue) -> Result<JsValue, JsValue>>::new(
        move |table: String, chunks: JsValue| insert(state, &table, &chunks).map_err(JsValue::from),
    );
    set("insert", insert.as_ref());
    insert.forget();
    let save = Closure::<dyn Fn() -> Result<(), JsValue>>::new(move || {
        state
            .change(|_| Ok::<(), String>(()))
            .map_err(JsValue::from)
    });
    set("save", save.as_ref());
    save.forget();
    let wire = web_sys::window()
        .and_then(|w| Reflect::get(&w, &"tablescope".into()).ok())
        .and_then(|n| Reflect::get(&n, &"wire".into()).ok())
        .unwrap_or(JsValue::UNDEFINED);
    set("wire", &wire);
    let open = Closure::<dyn Fn(String)>::new(move |code: String| {
        super::code_link::code_to_open().set(code);
        section.set(Section::Code);
    });
    set("openCode", open.as_ref());
    open.forget();
    out
}

/// Writes format-2 chunks of `table` without saving; the first entity refused stops it and
/// is answered as `[PartitionKey, RowKey, message]`.
fn insert(state: AppState, table: &str, chunks: &JsValue) -> Result<JsValue, String> {
    if !Array::is_array(chunks) {
        return Err("insert: expected a list of chunks".into());
    }
    let mut names = crate::persist::codec::Names::default();
    let mut decoded = Vec::new();
    for chunk in Array::from(chunks).iter() {
        if !chunk.is_instance_of::<Uint8Array>() {
            return Err("insert: a chunk is not bytes".into());
        }
        decoded
            .push(crate::persist::binary::decode(&Uint8Array::new(&chunk).to_vec(), &mut names)?.1);
    }
    state.write_unsaved(|account| {
        for entity in decoded.into_iter().flatten() {
            let keys = (entity.partition_key.clone(), entity.row_key.clone());
            if let Err(e) = account.insert(table, entity) {
                let refused = Array::of3(&keys.0.into(), &keys.1.into(), &e.to_string().into());
                return refused.into();
            }
        }
        JsValue::UNDEFINED
    })
}
