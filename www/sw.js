// Tablescope's service worker: the app works offline after one visit.
//
// - install: precache the app shell: './' and the hashed .js/.wasm/.css files that index.html
//   names (Trunk writes new hashes on every build, so they are read from the page itself).
// - fetch (same origin, GET): stale-while-revalidate: answer from the cache at once when it
//   can, and refresh the cached copy from the network in the background.
// - activate: drop caches of older versions of this worker.
// Nothing is fetched from any other origin.

const CACHE = 'tablescope-v1';

async function precache() {
  const cache = await caches.open(CACHE);
  const response = await fetch('./', { cache: 'no-cache' });
  if (!response.ok) return;
  const html = await response.clone().text();
  await cache.put(new URL('./', self.registration.scope).href, response);
  const assets = new Set();
  for (const m of html.matchAll(/(?:href|src)=["']?([^"' >]+\.(?:js|wasm|css|svg|json))/g)) {
    const url = new URL(m[1], self.registration.scope);
    if (url.origin === self.location.origin) assets.add(url.href);
  }
  assets.add(new URL('scenarios/index.json', self.registration.scope).href);
  await Promise.all([...assets].map((url) => cache.add(url).catch(() => undefined)));
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
      const network = fetch(request)
        .then((response) => {
          if (response.ok) cache.put(key, response.clone());
          return response;
        })
        .catch(() => cached ?? Response.error());
      if (cached) {
        event.waitUntil(network.then(() => undefined, () => undefined));
        return cached;
      }
      return network;
    }),
  );
});
