// Tablescope's service worker: the app works offline after one visit, lessons included.
//
// The playground's start script registers it only once the app is usable and the page idle
// (www/start.js); docs embeds never register it.
//
// - install: precache the app shell: './' and the .js/.wasm/.css files that index.html names
//   (Trunk writes new hashes on every build, so they are read from the page itself), the
//   the modules the app loads on first use (those www/modules.json marks `precache`: the
//   lessons, a docs embed's lesson, show-as-code's generators, the Connect and Design
//   sections); every lesson listed in scenarios/index.json, whole (the Learn section's) and in
//   each language (scenarios/<lang>/<file>, a docs embed's), and a docs embed's catalogues
//   (locales/<module>/<lang>.json): so a lesson never opened before, and a docs embed of this
//   site, open offline in any language. The page's own catalogue (locales/<lang>.json) is not
//   precached: a first visit in that language has just downloaded it under another address
//   (below), and every later visit, which this worker controls, caches it.
// - fetch (same origin, GET): stale-while-revalidate: answer from the cache at once when it
//   can, and refresh the cached copy from the network in the background. A catalogue is asked
//   for with its build's version (`locales/nl.json?v=<hash>`, src/i18n/catalogue.rs), which
//   the worker cannot know: it is cached by its path, and answered from the network first (a
//   new build's page gets its own catalogue at once), from the cache when offline.
// - activate: drop caches of older versions of this worker.
// - when a fresh app shell arrives (a navigation refreshed from the network), cache the hashed
//   files it names and delete those of older builds, so they do not pile up. The files of the
//   shell just served from the cache are kept too: that page may still be loading them. So is
//   the SDK bundle a shell names for first use, once cached (it is never precached).
//   Invariant: the cache holds the hashed files of at most two builds, the newest and the
//   one last served.
// Nothing is fetched from any other origin, and every address is relative to the worker's
// scope (the folder the site is served from), so the site works offline at any path.

const CACHE = 'tablescope-v1';

/** The UI's languages (src/i18n/lang.rs; scripts/lessons.mjs writes a lesson copy for each). */
const LANGS = ['en', 'de', 'nl', 'ar'];

// Trunk names every built file `<name>-<hash>[_bg].<ext>`, the hash a u64 in hex without
// leading zeros (so 1 to 16 digits).
const HASHED = /-[0-9a-f]{1,16}(?:_bg)?\.(?:js|wasm|css|svg)$/;

/**
 * The app's modules loaded lazily (www/modules.json), unhashed (so never deleted as stale):
 * `precache` ones, as absolute URLs, are cached so that they work offline without ever having
 * been opened; `skip` ones (the code cell's, which only a docs embed loads, and an embed
 * registers no service worker) are never cached, although the start script names them.
 * Read once per worker; without the list, nothing is precached beyond what the page names.
 */
let modules;
function lazyModules() {
  modules ??= fetch(new URL('modules.json', self.registration.scope), { cache: 'no-cache' })
    .then((response) => (response.ok ? response.json() : { modules: [] }))
    .catch(() => ({ modules: [] }))
    .then((list) => {
      const url = (name) => new URL(name, self.registration.scope).href;
      const precache = new Set();
      const skip = new Set();
      for (const m of list.modules ?? []) for (const f of m.files) (m.precache ? precache : skip).add(url(f));
      // Each precached docs embed module's catalogues (scripts/locales.mjs).
      const languages = new Set();
      const dirs = (list.modules ?? []).filter((m) => m.embed && m.precache).map((m) => `${m.name}/`);
      for (const dir of dirs) for (const lang of LANGS.slice(1)) languages.add(url(`locales/${dir}${lang}.json`));
      return { precache, skip, languages };
    });
  return modules;
}

/** The same-origin files an app shell's HTML names, as absolute URLs; `lazy` is lazyModules()'s. */
function assetsOf(html, lazy) {
  const assets = new Set();
  // Attribute values, quoted or not (href=…, src=…, data-rescue=…: a release build's HTML is
  // minified) and the start script's imports ('…/tablescope-….js', 'learn_bg.wasm').
  for (const m of html.matchAll(/(?:\s[\w-]+=|['"])["']?([^"' <>()]+\.(?:js|wasm|css|svg|json))/g)) {
    const url = new URL(m[1], self.registration.scope);
    if (url.origin === self.location.origin && !lazy.skip.has(url.href)) assets.add(url.href);
  }
  assets.add(new URL('scenarios/index.json', self.registration.scope).href);
  // Loaded on first use, by the app, not named by the page.
  for (const href of lazy.precache) assets.add(href);
  return assets;
}

/**
 * Files a shell names for first use only, as absolute URLs: kept once cached, never
 * precached. The SDK bundle (`<meta name="tablescope-sdk" content="<hash>">`, see
 * scripts/bundle-sdk.mjs) is one: not part of the page load, but SDK code must still run
 * offline after it has run once. So are the Code section's editor and sandbox worker
 * (`<meta name="tablescope-code" content="<hash>">`, scripts/bundle-code.mjs).
 */
function onFirstUseOf(html) {
  const kept = new Set();
  const sdk = html.match(/<meta name="tablescope-sdk" content="([0-9a-f]{1,16})"/);
  if (sdk) kept.add(new URL(`sdk/tablescope-sdk-${sdk[1]}.js`, self.registration.scope).href);
  const code = html.match(/<meta name="tablescope-code" content="([0-9a-f]{1,16})"/);
  if (code) {
    for (const name of ['tablescope-code', 'tablescope-code-worker', 'tablescope-code-acorn']) {
      kept.add(new URL(`code/${name}-${code[1]}.js`, self.registration.scope).href);
    }
  }
  return kept;
}

/**
 * Caches what the shell `html` names, and deletes the hashed files named neither by it nor by
 * `servedHtml` (the shell the open page came from, or ''), nor kept for first use by either.
 */
async function adoptShell(cache, html, servedHtml = '') {
  const lazy = await lazyModules();
  const assets = assetsOf(html, lazy);
  // Only what is missing: the rest is already cached and refreshed as the page requests it.
  await addMissing(cache, assets);
  // The unhashed files of one build (lessons, catalogues) are fetched again when the shell is
  // another build's: the copies must be the new build's, as the page asks for no other.
  const files = [...(await lessonsOf(cache)), ...lazy.languages];
  if (html === servedHtml) await addMissing(cache, files);
  else await refresh(cache, files);
  const keep = new Set([
    ...assets,
    ...assetsOf(servedHtml, lazy),
    ...onFirstUseOf(html),
    ...onFirstUseOf(servedHtml),
  ]);
  const stale = (await cache.keys()).filter(
    (request) => HASHED.test(new URL(request.url).pathname) && !keep.has(request.url),
  );
  await Promise.all(stale.map((request) => cache.delete(request)));
}

/**
 * Caches those of `urls` the cache lacks. A hashed file never changes, so any copy the HTTP
 * cache holds (the page's own download) is taken as is; the others are revalidated.
 */
async function addMissing(cache, urls) {
  await Promise.all(
    [...urls].map(async (url) => {
      if ((await cache.match(url)) !== undefined) return;
      const immutable = HASHED.test(new URL(url).pathname);
      await cache.add(new Request(url, { cache: immutable ? 'force-cache' : 'default' })).catch(() => undefined);
    }),
  );
}

/** Caches `urls` again, each revalidated (a 304 costs no body). */
async function refresh(cache, urls) {
  await Promise.all(
    [...urls].map((url) => cache.add(new Request(url, { cache: 'no-cache' })).catch(() => undefined)),
  );
}

/** Every lesson file scenarios/index.json lists (as cached), whole and in each language, as
 * absolute URLs. */
async function lessonsOf(cache) {
  const index = await cache.match(new URL('scenarios/index.json', self.registration.scope).href);
  if (!index) return [];
  try {
    const { scenarios } = await index.json();
    return scenarios
      .flatMap((s) => [`scenarios/${s.file}`, ...LANGS.map((lang) => `scenarios/${lang}/${s.file}`)])
      .map((file) => new URL(file, self.registration.scope))
      .filter((url) => url.origin === self.location.origin)
      .map((url) => url.href);
  } catch {
    return [];
  }
}

async function precache() {
  const cache = await caches.open(CACHE);
  const response = await fetch('./', { cache: 'no-cache' });
  if (!response.ok) return;
  const html = await response.clone().text();
  await cache.put(new URL('./', self.registration.scope).href, response);
  await adoptShell(cache, html);
}

self.addEventListener('install', (event) => {
  event.waitUntil(precache().then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.origin !== self.location.origin) return;
  // A page is cached by its path: '/?embed=1&…' is the same app shell as '/'; so is a
  // catalogue ('locales/nl.json?v=<hash>'), asked for the network first.
  const catalogue = /\/locales\/(?:[a-z]+\/)?[a-z]+\.json$/.test(url.pathname);
  if (catalogue) {
    event.respondWith(
      caches.open(CACHE).then((cache) =>
        fetch(request).then(
          async (response) => {
            if (response.ok) await cache.put(url.origin + url.pathname, response.clone());
            return response;
          },
          async () => (await cache.match(url.origin + url.pathname)) ?? Response.error(),
        ),
      ),
    );
    return;
  }
  const key = request.mode === 'navigate' ? url.origin + url.pathname : request;
  event.respondWith(
    caches.open(CACHE).then(async (cache) => {
      const cached = await cache.match(key);
      const served = cached && request.mode === 'navigate' ? cached.clone() : null;
      const network = fetch(request);
      // Refreshing the cache never delays the answer; both copies are taken at once, before
      // the page can read the body.
      const refreshed = network
        .then(async (response) => {
          if (!response.ok) return;
          const copy = response.clone();
          const shell = request.mode === 'navigate' ? response.clone() : null;
          await cache.put(key, copy);
          if (shell) await adoptShell(cache, await shell.text(), served ? await served.text() : '');
        })
        .catch(() => undefined);
      event.waitUntil(refreshed);
      return cached ?? network.catch(() => Response.error());
    }),
  );
});
