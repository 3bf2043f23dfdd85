// Tablescope's start guard: a start that cannot finish says why and offers the saved data as a
// file, never a page stuck on "Loading your saved tables…".
//
// A plain script that runs before the app's wasm, so it works when the wasm cannot load or
// throws on the way to the first render. The app calls `__tablescopeStart.done()` once it has
// mounted, and `__tablescopeStart.fail(reason)` when it knows it cannot start (src/ui.rs).
// Until then:
// - an uncaught error or rejected promise shows "could not start", with its message;
// - after SLOW_MS, a note says the start is slow and offers the same download (the start may
//   still finish: the note goes away when it does).
// The download reads IndexedDB directly, without the app: every saved table as a Tablescope
// export (format "tablescope-account", version 1) that "Import" in the app reads back. Chunk
// records already hold entities in the export's form, so they are copied, not decoded.
// Docs embeds (`?embed=1`) start the lessons module instead, and are left alone.
(() => {
  if (new URLSearchParams(location.search).get('embed') === '1') return;

  // Every user-facing string of this file.
  const TEXT = {
    failed: 'Tablescope could not start: ',
    slow: 'Tablescope is taking a long time to start. If it stays like this, reload the page.',
    safe: 'Your saved tables are still stored in this browser. You can download them as a file ' +
      'now, and import it later with "Import" in the "Your data" panel.',
    download: 'Download saved tables (JSON)',
    reload: 'Reload',
    downloaded: (tables, skipped) =>
      `Downloaded ${tables} table${tables === 1 ? '' : 's'}` +
      (skipped.length ? `; skipped damaged records: ${skipped.join(', ')}.` : '.'),
    empty: 'There are no saved tables in this browser.',
    unreadable: 'The saved tables cannot be read: ',
  };
  const SLOW_MS = 20_000;
  const DB = 'tablescope-sandbox';

  let finished = false;
  let box = null;

  function reasonOf(e) {
    if (e && typeof e.message === 'string' && e.message) return e.message;
    return String(e);
  }

  /** Reads every saved table; resolves to { tables, skipped } or null when nothing is saved. */
  async function readSaved() {
    const names = await indexedDB.databases?.();
    if (names && !names.some((d) => d.name === DB)) return null;
    const db = await new Promise((ok, fail) => {
      const r = indexedDB.open(DB);
      // Never create the database here: abort an upgrade (the database did not exist).
      r.onupgradeneeded = () => r.transaction.abort();
      r.onsuccess = () => ok(r.result);
      r.onerror = () => (r.error?.name === 'AbortError' ? ok(null) : fail(r.error));
    });
    if (!db) return null;
    try {
      const tx = db.transaction(['meta', 'chunks'], 'readonly');
      const get = (request) => new Promise((ok, fail) => {
        request.onsuccess = () => ok(request.result);
        request.onerror = () => fail(request.error);
      });
      const [meta, keys, values] = await Promise.all([
        get(tx.objectStore('meta').get('account')),
        get(tx.objectStore('chunks').getAllKeys()),
        get(tx.objectStore('chunks').getAll()),
      ]);
      const tables = new Map((meta?.tables ?? []).map((name) => [name, []]));
      const skipped = [];
      keys.forEach((key, i) => {
        const text = values[i];
        const table = String(key).split('/')[0];
        try {
          if (typeof text !== 'string' || !Array.isArray(JSON.parse(text))) throw new Error();
        } catch {
          skipped.push(String(key));
          return;
        }
        const inner = text.trim().slice(1, -1).trim();
        if (!tables.has(table)) tables.set(table, []);
        if (inner) tables.get(table).push(inner);
      });
      return { tables, skipped };
    } finally {
      db.close();
    }
  }

  async function download(status) {
    try {
      const saved = await readSaved();
      if (!saved || saved.tables.size === 0) {
        status.textContent = TEXT.empty;
        return;
      }
      const parts = ['{"format":"tablescope-account","version":1,"tables":['];
      let first = true;
      for (const [name, chunks] of saved.tables) {
        parts.push(`${first ? '' : ','}{"name":${JSON.stringify(name)},"entities":[`, chunks.join(','), ']}');
        first = false;
      }
      parts.push(']}');
      const url = URL.createObjectURL(new Blob(parts, { type: 'application/json' }));
      const a = document.createElement('a');
      a.href = url;
      a.download = 'tablescope-saved-tables.json';
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
      status.textContent = TEXT.downloaded(saved.tables.size, saved.skipped);
    } catch (e) {
      status.textContent = TEXT.unreadable + reasonOf(e);
    }
  }

  /** Shows (or updates) the box: `failed` replaces a slow note, never the other way. */
  function show(message, failed) {
    // The start script already said why the app's code could not load (Trunk.toml).
    if (finished || !document.body || document.querySelector('.start-failed')) return;
    if (box && (box.dataset.failed === 'true' || !failed)) return;
    box?.remove();
    box = document.createElement('div');
    box.id = 'app-start-problem';
    box.style.cssText = 'max-width: 44rem; margin: 2rem auto; padding: 0 1rem; line-height: 1.5';
    box.setAttribute('role', 'alert');
    box.dataset.failed = String(failed);
    const text = document.createElement('p');
    text.textContent = message;
    const safe = document.createElement('p');
    safe.textContent = TEXT.safe;
    const save = document.createElement('button');
    save.type = 'button';
    save.textContent = TEXT.download;
    const reload = document.createElement('button');
    reload.type = 'button';
    reload.textContent = TEXT.reload;
    reload.addEventListener('click', () => location.reload());
    const status = document.createElement('p');
    status.setAttribute('aria-live', 'polite');
    save.addEventListener('click', () => download(status));
    box.append(text, safe, save, ' ', reload, status);
    if (failed) document.getElementById('app-loading')?.remove();
    document.body.append(box);
  }

  const onError = (event) => show(TEXT.failed + reasonOf(event.error ?? event.message), true);
  const onRejection = (event) => show(TEXT.failed + reasonOf(event.reason), true);
  addEventListener('error', onError);
  addEventListener('unhandledrejection', onRejection);
  const slow = setTimeout(() => show(TEXT.slow, false), SLOW_MS);

  window.__tablescopeStart = {
    done() {
      finished = true;
      clearTimeout(slow);
      removeEventListener('error', onError);
      removeEventListener('unhandledrejection', onRejection);
      box?.remove();
    },
    fail(reason) {
      clearTimeout(slow);
      show(TEXT.failed + reason, true);
      finished = true;
      removeEventListener('error', onError);
      removeEventListener('unhandledrejection', onRejection);
    },
  };
})();
