//! One writer per namespace across tabs, with the Web Locks API (`navigator.locks`).
//!
//! Two tabs that each save their own copy of the account would overwrite each other's chunks
//! and meta record. The tab that attaches first holds an exclusive lock named after the
//! database for as long as it lives; a second tab does not get it and stays in memory.

use wasm_bindgen::prelude::Closure;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

/// A held lock; dropping it (or [`WriterLock::release`], or the page closing) lets it go.
pub struct WriterLock {
    /// Resolves the promise the lock callback returned, which releases the lock.
    release: Option<js_sys::Function>,
}

impl WriterLock {
    pub fn release(self) {}
}

impl Drop for WriterLock {
    fn drop(&mut self) {
        if let Some(release) = self.release.take() {
            let _ = release.call0(&JsValue::UNDEFINED);
        }
    }
}

/// Tries to take the exclusive lock `name` without waiting: `Some` when this page now holds
/// it (or the browser has no Web Locks, where nothing can be coordinated), `None` when another
/// page holds it.
pub async fn try_acquire(name: &str) -> Option<WriterLock> {
    let Some(locks) = locks() else {
        return Some(WriterLock { release: None });
    };
    let Ok(request) = js_sys::Reflect::get(&locks, &JsValue::from_str("request")) else {
        return Some(WriterLock { release: None });
    };
    let Ok(request) = request.dyn_into::<js_sys::Function>() else {
        return Some(WriterLock { release: None });
    };

    // `granted` resolves with the release function, or with null when the lock is taken.
    let mut tell = None;
    let granted = js_sys::Promise::new(&mut |resolve, _| tell = Some(resolve));
    let tell = tell?;
    let callback = Closure::once_into_js(move |lock: JsValue| -> js_sys::Promise {
        if lock.is_null() {
            let _ = tell.call1(&JsValue::UNDEFINED, &JsValue::NULL);
            return js_sys::Promise::resolve(&JsValue::UNDEFINED);
        }
        // Held until `release` is called: the lock lasts as long as this promise is pending.
        let mut release = None;
        let held = js_sys::Promise::new(&mut |resolve, _| release = Some(resolve));
        let release = release.map_or(JsValue::NULL, JsValue::from);
        let _ = tell.call1(&JsValue::UNDEFINED, &release);
        held
    });
    let options = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&options, &JsValue::from_str("ifAvailable"), &JsValue::TRUE);
    let args = js_sys::Array::of3(&JsValue::from_str(name), &options, &callback);
    if request.apply(&locks, &args).is_err() {
        return Some(WriterLock { release: None });
    }
    let release = JsFuture::from(granted).await.ok()?;
    let release = release.dyn_into::<js_sys::Function>().ok()?;
    Some(WriterLock {
        release: Some(release),
    })
}

fn locks() -> Option<JsValue> {
    let navigator =
        js_sys::Reflect::get(&js_sys::global(), &JsValue::from_str("navigator")).ok()?;
    js_sys::Reflect::get(&navigator, &JsValue::from_str("locks"))
        .ok()
        .filter(JsValue::is_object)
}

/// Resolves once no other page holds the lock `name` (at once without Web Locks). It takes
/// the lock and lets it go straight away, so the caller can then [`try_acquire`] it.
pub async fn wait_until_free(name: &str) {
    let Some(locks) = locks() else {
        return;
    };
    let Ok(request) = js_sys::Reflect::get(&locks, &JsValue::from_str("request"))
        .and_then(|r| r.dyn_into::<js_sys::Function>())
    else {
        return;
    };
    let callback = Closure::once_into_js(|_: JsValue| js_sys::Promise::resolve(&JsValue::TRUE));
    let args = js_sys::Array::of2(&JsValue::from_str(name), &callback);
    if let Ok(granted) = request.apply(&locks, &args) {
        let _ = JsFuture::from(js_sys::Promise::from(granted)).await;
    }
}
