// Tablescope's service worker: the app works offline after one visit, lessons included.
//
// The playground's start script registers it only once the app is usable and the page idle
// (pattern_script in Trunk.toml); docs embeds never register it.
//
// - install: precache the app shell: './' and the .js/.wasm/.css files that index.html names
//   (Trunk writes new hashes on every build, so they are read from the page itself), the
//   lessons module (learn.js, learn_bg.wasm) included: the start script names it; the modules
//   the app loads on first use (ON_FIRST_USE: show-as-code's generators, the Connect and
//   Design sections); and every
//   lesson listed in scenarios/index.json, so a lesson never opened before opens offline.
//   Hashed files are immutable, so they are taken from the HTTP cache when the page already
//   downloaded them (`force-cache`): a first visit downloads each file once, not once for the
//   page and again for the worker.
// - fetch (same origin, GET): stale-while-revalidate: answer from the cache at once when it
//   can, and refresh the cached copy from the network in the background.
// - activate: drop caches of older versions of this worker.
// - when a fresh app shell arrives (a navigation refreshed from the network), cache the hashed
//   files it names and delete those of older builds, so they do not pile up. The files of the
//   shell just served from the cache are kept too: that page may still be loading them. So is
//   the SDK bundle a shell names for first use, once cached (it is never precached).
//   Invariant: the cache holds the hashed files of at most two builds, the newest and the
//   one last served.
// Nothing is fetched from any other origin.

const CACHE = 'tablescope-v1';

// Trunk names every built file `<name>-<hash>[_bg].<ext>`, the hash a u64 in hex without
// leading zeros (so 1 to 16 digits).
const HASHED = /-[0-9a-f]{1,16}(?:_bg)?\.(?:js|wasm|css|svg)$/;

/**
 * The app's own modules that load on first use and that no page names, unhashed (so never
 * deleted as stale): precached, so that they work offline without ever having been opened.
 */
const ON_FIRST_USE = ['codegen.js', 'codegen_bg.wasm', 'connect.js', 'connect_bg.wasm', 'design.js', 'design_bg.wasm', 'design-worker.js'];

/** The code cell's module (src/bin/cell.rs): the start script names it, but only a docs embed,
 * which registers no service worker, loads it; the playground never needs it offline. */
const EMBED_ONLY = /\/cell(?:_bg)?\.(?:js|wasm)$/;

/** The same-origin files an app shell's HTML names, as absolute URLs. */
function assetsOf(html) {
  const assets = new Set();
  // Attribute values, quoted or not (href=…, src=…, data-rescue=…: a release build's HTML is
  // minified) and the start script's imports ('…/tablescope-….js', 'learn_bg.wasm').
  for (const m of html.matchAll(/(?:\s[\w-]+=|['"])["']?([^"' <>()]+\.(?:js|wasm|css|svg|json))/g)) {
    const url = new URL(m[1], self.registration.scope);
    if (url.origin === self.location.origin && !EMBED_ONLY.test(url.pathname)) assets.add(url.href);
  }
  assets.add(new URL('scenarios/index.json', self.registration.scope).href);
  // Loaded on first use, by the app, not named by the page: show-as-code's generators and the
  // Connect and Design sections.
  for (const name of ON_FIRST_USE) assets.add(new URL(name, self.registration.scope).href);
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
  const assets = assetsOf(html);
  // Only what is missing: the rest is already cached and refreshed as the page requests it.
  await addMissing(cache, assets);
  await addMissing(cache, await lessonsOf(cache));
  const keep = new Set([
    ...assets,
    ...assetsOf(servedHtml),
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

/** Every lesson file scenarios/index.json lists (as cached), as absolute URLs. */
async function lessonsOf(cache) {
  const index = await cache.match(new URL('scenarios/index.json', self.registration.scope).href);
  if (!index) return [];
  try {
    const { scenarios } = await index.json();
    return scenarios
      .map((s) => new URL(`scenarios/${s.file}`, self.registration.scope))
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
  // A page is cached by its path: '/?embed=1&…' is the same app shell as '/'.
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
