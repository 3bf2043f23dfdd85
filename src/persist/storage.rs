//! The browser's storage quota and persistence permission (`navigator.storage`).

use super::error::PersistError;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

fn storage_manager() -> Result<web_sys::StorageManager, PersistError> {
    let window = web_sys::window()
        .ok_or_else(|| PersistError::Unavailable("not running in a browser window".into()))?;
    let navigator = window.navigator();
    // navigator.storage is undefined outside secure contexts.
    let storage = js_sys::Reflect::get(&navigator, &JsValue::from_str("storage"))
        .ok()
        .filter(|s| s.is_object())
        .ok_or_else(|| {
            PersistError::Unavailable("navigator.storage is not available on this page".into())
        })?;
    Ok(storage.unchecked_into())
}

fn number(object: &JsValue, name: &str) -> u64 {
    js_sys::Reflect::get(object, &JsValue::from_str(name))
        .ok()
        .and_then(|v| v.as_f64())
        .map_or(0, |v| v.max(0.0) as u64)
}

/// Bytes used by this site and the quota the browser grants it (`navigator.storage.estimate`).
pub async fn estimate() -> Result<(u64, u64), PersistError> {
    let promise = storage_manager()?
        .estimate()
        .map_err(|e| PersistError::from_js(&e))?;
    let estimate = JsFuture::from(promise)
        .await
        .map_err(|e| PersistError::from_js(&e))?;
    Ok((number(&estimate, "usage"), number(&estimate, "quota")))
}

/// Asks the browser not to evict this site's data under storage pressure
/// (`navigator.storage.persist`); `true` when granted.
pub async fn request_persistent() -> bool {
    let Ok(manager) = storage_manager() else {
        return false;
    };
    let Ok(promise) = manager.persist() else {
        return false;
    };
    JsFuture::from(promise)
        .await
        .ok()
        .and_then(|v| v.as_bool())
        .unwrap_or(false)
}
