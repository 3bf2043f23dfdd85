// How the page starts. Trunk inlines this file into index.html as a module script
// (`pattern_script` with `pattern_params` in Trunk.toml), on a tag whose attributes name the
// playground's hashed glue and wasm: `data-app` and `data-wasm`, and `data-base`, the site's
// base URL. So this file names no hashed file, and must not contain a Trunk pattern (a word in
// braces like Trunk's own: scripts/check-dist.mjs refuses it).
//
// A docs embed (`?embed=1`) loads only the lesson module (lesson.js, src/bin/lesson.rs), or for a
// code cell (`?embed=1&snippet=…` or `&code=…`) only the cell module (cell.js, src/bin/cell.rs);
// every other visit loads the playground. Nothing is preloaded (`pattern_preload` is empty): a
// preload cannot tell an embed from the playground, and an embed must not download the
// playground's code. The modules are listed in www/modules.json.
//
// The service worker (www/sw.js: offline after one visit) is registered by the playground only,
// and only once the app is usable (`tablescope-ready`, src/ui.rs) and the page idle: its
// precaching then never competes with the first visit's page load, and the files the page has
// already downloaded come from the HTTP cache instead of the network. An embed never registers
// it: a docs page's guest downloads only what it shows.
//
// A start that fails says why in the page instead of leaving it blank, naming the cause: a file
// the server does not have (its status and address: a site that lacks part of the build, or
// serves it from another folder than the page's), or a file that could not be fetched at all.
// In a sandboxed iframe without `allow-same-origin` the origin is opaque, so modules and wasm
// are fetched with CORS, and the host must send `Access-Control-Allow-Origin`; that is why this
// script is inline: a module script of its own would not load there either, and could not say
// so.
//
// Every file is named relative to the page (`data-base` is Trunk's `public_url`, "./"), so the
// build works at any path of any host: `https://example.org/docs/tablescope/` as well as `/`.
const tag = document.getElementById('tablescope-start');
const base = tag.dataset.base;
const query = new URLSearchParams(location.search);
const embed = query.get('embed') === '1';
const cell = embed && (query.has('snippet') || query.has('code'));
const named = (file) => file.replace(/^\.\//, '');
/** The server has no `file`: it answered `status`. */
const missing = (file, status) =>
  Object.assign(new Error(`the server answered ${status} for ${named(file)} (${new URL(file, document.baseURI).href})`), { missing: true });
/** No answer came for `file`: offline, or (in a sandboxed frame) no CORS. */
const unreachable = (file, e) => Object.assign(new Error(`${named(file)} could not be fetched (${e?.message || e})`), { unreachable: true });
/** The module at `file`, or why it cannot be imported (`import()` alone does not say). */
const load = (file) => import(file).catch(async (e) => {
  const status = await fetch(file, { method: 'HEAD', cache: 'no-store' }).then((r) => r.status, () => 0);
  throw status >= 400 ? missing(file, status) : status ? e : unreachable(file, e);
});
/** The response for the wasm at `file`, or why there is none. */
const wasm = (file) => fetch(file).then((r) => (r.ok ? r : Promise.reject(missing(file, r.status))), (e) => Promise.reject(unreachable(file, e)));
function startFailed(error) {
  const p = document.createElement('p');
  p.className = 'start-failed';
  p.setAttribute('role', 'alert');
  p.textContent = ((cell ? 'This Tablescope code cell could not start: ' : embed ? 'This Tablescope lesson could not start: ' : 'Tablescope could not start: ')
    + (error && error.message ? error.message : String(error)) + '. '
    + (error?.missing
      ? 'Every file of the build (dist/) must be served from the folder this page is in.'
      : !error?.unreachable ? ''
        : self.origin === 'null'
          ? 'The frame is sandboxed without allow-same-origin, so the site serving Tablescope must send Access-Control-Allow-Origin with its files.'
          : 'Check the connection and reload the page.')).trim();
  document.getElementById('app-loading')?.remove();
  document.body.append(p);
}
try {
  if (cell) {
    // A code cell (src/ui/sections/cell.rs): its own small module instead of the lessons'; its CSS
    // comes with the sandbox runner it imports.
    const m = await load(base + 'cell.js');
    await m.default({ module_or_path: wasm(base + 'cell_bg.wasm') });
    m.mount_cell();
  } else if (embed) {
    // The lessons' stylesheet (the playground loads it on first use); the lesson mounts once
    // it has loaded, so it never shows unstyled.
    const css = Object.assign(document.createElement('link'), { rel: 'stylesheet', href: base + 'teach.css' });
    css.dataset.css = 'teach.css';
    const styled = new Promise((done) => { css.onload = css.onerror = done; });
    document.head.append(css);
    const lesson = await load(base + 'lesson.js');
    await Promise.all([lesson.default({ module_or_path: wasm(base + 'lesson_bg.wasm') }), styled]);
    lesson.mount_embed();
  } else {
    addEventListener('tablescope-ready', () => {
      const register = () => {
        try {
          navigator.serviceWorker?.register(base + 'sw.js').catch(() => {});
        } catch {
          // No service workers here (an opaque origin): the app still works, online.
        }
      };
      if (typeof requestIdleCallback === 'function') requestIdleCallback(register, { timeout: 5000 });
      else setTimeout(register, 1000);
    }, { once: true });
    const app = await load(tag.dataset.app);
    await app.default({ module_or_path: wasm(tag.dataset.wasm) });
  }
} catch (error) {
  startFailed(error);
}
