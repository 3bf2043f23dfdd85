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
// The download (www/start-rescue.js, loaded on click) reads IndexedDB without the app.
// The text is English here; www/start-guard-text.js, loaded only when there is something to
// show, picks the page's language by the app's rule (?lang=, the saved choice, the browser's
// languages) and its text (English if it cannot load).
// Docs embeds (`?embed=1`) start the lessons module instead, and are left alone.
(() => {
  if (new URLSearchParams(location.search).get('embed') === '1') return;

  // The playground's own stylesheet (www/playground.css), which a docs embed never downloads.
  // Written by the parser, so it blocks rendering like the stylesheets index.html names and
  // lands after them in the cascade; the attribute also names it to the service worker.
  const css = new URL(document.currentScript.dataset.css, document.currentScript.src).href;
  document.write(`<link rel="stylesheet" href="${css}">`);

  // Every user-facing string of this file.
  const TEXT = {
    failed: 'Tablescope could not start: ',
    slow: 'Tablescope is taking a long time to start. If it stays like this, reload the page.',
    safe: 'Your saved tables are still stored in this browser. You can download them as a file ' +
      'now, and import it later with "Import" in the "Your data" panel.',
    download: 'Download saved tables (JSON)',
    reload: 'Reload',
    rescueFailed: 'The download could not start: ',
  };
  const SLOW_MS = 20_000;
  // The download's code (www/start-rescue.js) loads only when it is asked for; the attribute
  // also names it to the service worker, which precaches it with the rest of the shell.
  const here = document.currentScript;
  const RESCUE = new URL(here.dataset.rescue, here.src).href;
  const TEXTS = new URL(here.dataset.text, here.src).href;
  /** The text in the page's language (start-guard-text.js picks it), loaded on first use;
   * English when it cannot load. */
  let text = null;
  const textOf = () => (text ??= import(TEXTS).then((m) => m.pick(TEXT), () => TEXT));

  let finished = false;
  let box = null;

  function reasonOf(e) {
    if (e && typeof e.message === 'string' && e.message) return e.message;
    return String(e);
  }

  /** Shows (or updates) the box: `failed` replaces a slow note, never the other way. `says`
   * picks the message out of the text of the page's language. */
  async function show(says, failed) {
    const t = await textOf();
    const message = says(t);
    // The start script already said why the app's code could not load (www/start.js).
    if (finished || !document.body || document.querySelector('.start-failed')) return;
    if (box && (box.dataset.failed === 'true' || !failed)) return;
    box?.remove();
    box = document.createElement('div');
    box.id = 'app-start-problem';
    box.style.cssText = 'max-width: 44rem; margin: 2rem auto; padding: 0 1rem; line-height: 1.5';
    box.setAttribute('role', 'alert');
    box.lang = t.lang || 'en';
    box.dir = t.dir || 'ltr';
    box.dataset.failed = String(failed);
    const text = document.createElement('p');
    text.textContent = message;
    const safe = document.createElement('p');
    safe.textContent = t.safe;
    const save = document.createElement('button');
    save.type = 'button';
    save.textContent = t.download;
    const reload = document.createElement('button');
    reload.type = 'button';
    reload.textContent = t.reload;
    reload.addEventListener('click', () => location.reload());
    const status = document.createElement('p');
    status.setAttribute('aria-live', 'polite');
    save.addEventListener('click', () =>
      import(RESCUE).then(
        (rescue) => rescue.download(status),
        (e) => { status.textContent = t.rescueFailed + reasonOf(e); },
      ));
    box.append(text, safe, save, ' ', reload, status);
    if (failed) document.getElementById('app-loading')?.remove();
    document.body.append(box);
  }

  const onError = (event) => show((t) => t.failed + reasonOf(event.error ?? event.message), true);
  const onRejection = (event) => show((t) => t.failed + reasonOf(event.reason), true);
  addEventListener('error', onError);
  addEventListener('unhandledrejection', onRejection);
  const slow = setTimeout(() => show((t) => t.slow, false), SLOW_MS);

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
      // Marked finished once the box is up (it loads its text first): nothing replaces it.
      show((t) => t.failed + reason, true).then(() => { finished = true; });
      removeEventListener('error', onError);
      removeEventListener('unhandledrejection', onRejection);
    },
  };
})();
