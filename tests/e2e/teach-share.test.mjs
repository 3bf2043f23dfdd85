// Share links, the docs embed and offline use, end to end on the release build in dist/.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { DESKTOP, PHONE, assertClean, openPage, screenshot, start } from './lib.mjs';

let env;
before(async () => {
  env = await start();
});
after(async () => {
  await env?.close();
});

const b64url = (buf) => buf.toString('base64').replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const fromB64url = (s) => Buffer.from(s.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
/** The JSON a share link holds. */
const linkJson = (url) => JSON.parse(inflateRawSync(fromB64url(url.split('#share=w.')[1])).toString('utf8'));

/** A workspace with non-ASCII keys and values, typed properties and two tables. */
const WORKSPACE = {
  format: 'tablescope-account',
  version: 1,
  tables: [
    {
      name: 'Città',
      entities: [],
    },
  ],
};
WORKSPACE.tables = [
  {
    name: 'Places',
    entities: [
      { PartitionKey: 'Zürich', RowKey: 'Ünïcødé ✓', Name: 'Café Grüezi', Visits: 3,
        Big: '9007199254740993', 'Big@odata.type': 'Edm.Int64' },
      { PartitionKey: '東京', RowKey: '渋谷 🚉', Name: 'スクランブル交差点', Ratio: 0.5 },
      { PartitionKey: 'Zürich', RowKey: 'a', Open: true,
        When: '2026-11-22T06:00:00.0000000Z', 'When@odata.type': 'Edm.DateTime' },
    ],
  },
  { name: 'Empty', entities: [] },
];

async function mounted(page) {
  await page.locator('h1').waitFor({ timeout: 15_000 });
}

async function openSection(page) {
  const nav = page.locator('#nav-learn');
  if (await nav.count()) await nav.click();
}

/** Makes a link of the current workspace through the UI and returns it. */
async function makeLink(page) {
  await openSection(page);
  await page.locator('.share-make').click();
  const link = page.locator('.share-panel .share-link');
  await link.waitFor();
  return link.inputValue();
}

test('a workspace share link round-trips, non-ASCII keys included', async () => {
  const fragment = `share=w.${b64url(deflateRawSync(Buffer.from(JSON.stringify(WORKSPACE), 'utf8')))}`;
  // 1. Open a link made outside the app: it offers to load, and loading restores it.
  const first = await openPage(env.browser, `${env.url}#${fragment}`);
  await mounted(first);
  await openSection(first);
  await first.locator('.share-pending').waitFor({ timeout: 15_000 });
  assert.match(await first.locator('.share-pending').textContent(), /2 tables and 3 entities/);
  await first.locator('.share-load').click();
  await first.locator('.table-row[data-table="Places"]').waitFor();
  assert.match(await first.locator('.share-status').textContent(), /Loaded the shared workspace: 2 tables, 3 entities/);
  const link1 = await makeLink(first);
  assert.ok(link1.startsWith(`${env.url}#share=w.`), link1);
  assert.ok(!first.url().includes('#share='), 'the fragment is cleared once loaded');
  const exported = linkJson(link1);
  const places = exported.tables.find((t) => t.name === 'Places');
  const keys = places.entities.map((e) => [e.PartitionKey, e.RowKey]);
  assert.deepEqual(keys, [['Zürich', 'a'], ['Zürich', 'Ünïcødé ✓'], ['東京', '渋谷 🚉']]);
  const cafe = places.entities[1];
  assert.equal(cafe.Name, 'Café Grüezi');
  assert.equal(cafe.Big, '9007199254740993');
  assert.equal(cafe['Big@odata.type'], 'Edm.Int64');
  assert.equal(places.entities[2].Name, 'スクランブル交差点');
  assert.deepEqual(exported.tables.map((t) => t.name).sort(), ['Empty', 'Places']);
  assertClean(first);
  await first.context().close();

  // 2. Open the app's own link in a fresh page (own storage): identical entities,
  //    Timestamps and ETags included, so the next link is byte for byte the same.
  const second = await openPage(env.browser, link1);
  await mounted(second);
  await openSection(second);
  await second.locator('.share-load').click();
  await second.locator('.table-row[data-table="Places"]').waitFor();
  const link2 = await makeLink(second);
  assert.deepEqual(linkJson(link2), exported);
  assert.equal(link2, link1);
  assertClean(second);
  await second.context().close();
});

test('a damaged share link says so and changes nothing', async () => {
  const page = await openPage(env.browser, `${env.url}#share=w.not-deflate`);
  await mounted(page);
  await openSection(page);
  await page.locator('.share-status', { hasText: 'damaged' }).waitFor({ timeout: 15_000 });
  assert.equal(await page.locator('.share-pending').count(), 0);
  assertClean(page);
  await page.context().close();
});

test('a scenario share link opens the scenario in the player', async () => {
  const page = await openPage(env.browser, env.url);
  await mounted(page);
  await openSection(page);
  await page.locator('.scenario-load[data-file="log-tail.json"]').click();
  await page.locator('.scenario-player .share-scenario').click();
  const url = await page.locator('.scenario-player .share-link').inputValue();
  assert.match(url, /#share=s\./);
  await page.context().close();
  const shared = await openPage(env.browser, url);
  await mounted(shared);
  await openSection(shared);
  const player = shared.locator('.scenario-player');
  await player.waitFor({ timeout: 15_000 });
  assert.equal(await player.getAttribute('data-scenario'), 'Log tail: newest first');
  await player.getByRole('button', { name: 'Run all' }).click();
  await player.locator('.step').first().waitFor();
  assert.equal(await player.locator('.step[data-verdict="failed"]').count(), 0);
  assertClean(shared);
  await shared.context().close();
});

/** The sandbox database's tables as stored (null when the database does not exist). */
async function sandboxState(page) {
  return page.evaluate(async () => {
    const names = (await indexedDB.databases()).map((d) => d.name);
    if (!names.includes('tablescope-sandbox')) return null;
    const db = await new Promise((ok, no) => {
      const r = indexedDB.open('tablescope-sandbox');
      r.onsuccess = () => ok(r.result);
      r.onerror = () => no(r.error);
    });
    const stores = [...db.objectStoreNames];
    const out = {};
    for (const s of stores) {
      const tx = db.transaction(s, 'readonly');
      out[s] = await new Promise((ok) => {
        const r = tx.objectStore(s).getAllKeys();
        r.onsuccess = () => ok(r.result.map(String));
      });
    }
    db.close();
    return out;
  });
}

test('the embed works in an iframe and leaves the sandbox alone', async () => {
  const context = await env.browser.newContext({ viewport: DESKTOP });
  const page = await context.newPage();
  page.problems = [];
  page.on('console', (m) => m.type() === 'error' && page.problems.push(m.text()));
  page.on('pageerror', (e) => page.problems.push(String(e)));
  // The user's own app first, with a table of their own.
  await page.goto(env.url);
  await mounted(page);
  await page.getByLabel('New table').fill('Mine');
  await page.getByRole('button', { name: 'Create table' }).click();
  await page.locator('.table-row[data-table="Mine"]').waitFor();
  await page.waitForTimeout(500);
  const before = await sandboxState(page);
  const databases = () => page.evaluate(async () => (await indexedDB.databases()).map((d) => d.name).sort());
  const namesBefore = await databases();

  await page.goto(`${env.url}embed-example.html`);
  const frame = page.frameLocator('#lesson');
  const player = frame.locator('.scenario-player');
  await player.waitFor({ timeout: 15_000 });
  assert.equal(await frame.locator('h1').count(), 0, 'no app header in the embed');
  assert.equal(await frame.locator('.tables-panel').count(), 0);
  await player.getByRole('button', { name: 'Run all' }).click();
  await player.locator('.step').first().waitFor();
  assert.equal(await player.locator('.step[data-verdict="failed"]').count(), 0);
  assert.ok((await player.locator('.partition-map').count()) > 0);
  assert.equal(await frame.locator('.embed-open').getAttribute('href'), './?scenario=query-kinds.json#learn');
  await frame.locator('.embed-reset').click();
  // The example page sandboxes its frame (an opaque origin), so the frame is read through
  // playwright, not the parent's DOM.
  await frame.locator('.step').first().waitFor({ state: 'detached' });
  assert.deepEqual(await databases(), namesBefore, 'the embed opens no database of its own');
  await page.locator('#lesson').screenshot({ path: new URL('./screenshots/teach-desktop-embed.png', import.meta.url).pathname });

  // Back in the app: the scenario's table is not among the user's, the sandbox is unchanged.
  await page.goto(env.url);
  await mounted(page);
  await page.waitForTimeout(500);
  assert.equal(await page.locator('.table-row[data-table="Products"]').count(), 0);
  assert.deepEqual(await sandboxState(page), before);
  assert.deepEqual(page.problems, []);
  await context.close();
});

test("the embed's \"open in the full playground\" link opens the lesson in Learn", async () => {
  const page = await openPage(env.browser, `${env.url}?scenario=log-tail.json#learn`);
  await mounted(page);
  // No click: the page was opened for a lesson, so Learn is the section shown.
  const player = page.locator('.scenario-player');
  await player.waitFor({ timeout: 15_000 });
  assert.equal(await page.locator('#nav-learn').getAttribute('aria-current'), 'page');
  assert.equal(await player.getAttribute('data-scenario'), 'Log tail: newest first');
  assertClean(page);
  await page.context().close();
});

test('the embed page alone, on a phone', async () => {
  const page = await openPage(env.browser, `${env.url}?embed=1&scenario=hot-partition.json`, { viewport: PHONE });
  const player = page.locator('.scenario-player');
  await player.waitFor({ timeout: 15_000 });
  await player.getByRole('button', { name: 'Run all' }).click();
  await player.locator('.step').first().waitFor();
  assert.equal(await player.locator('.step[data-verdict="failed"]').count(), 0);
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth));
  await page.screenshot({ path: new URL('./screenshots/teach-phone-embed.png', import.meta.url).pathname });
  // Share from inside the embed: the link opens the full playground (no ?embed=1, which would
  // ignore the fragment), and the scenario is there.
  await player.locator('.share-scenario').click();
  const url = await player.locator('.share-link').inputValue();
  assert.ok(url.startsWith(`${env.url}#share=s.`), url);
  assert.equal(await player.getAttribute('data-scenario'), 'Hot partition: the append-only trap');
  assertClean(page);
  await page.context().close();
  const shared = await openPage(env.browser, url);
  await mounted(shared);
  await openSection(shared);
  const opened = shared.locator('.scenario-player');
  await opened.waitFor({ timeout: 15_000 });
  assert.equal(await opened.getAttribute('data-scenario'), 'Hot partition: the append-only trap');
  assertClean(shared);
  await shared.context().close();
});

test('the app reloads while offline once the service worker is active', async () => {
  const page = await openPage(env.browser, env.url);
  await mounted(page);
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  // The worker precaches on install; wait until it controls the page.
  await page.reload();
  await mounted(page);
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 15_000 });

  // A file of an older build in the cache is dropped once a fresh shell arrives; the current
  // build's files stay.
  const stale = `${env.url}tablescope-0123456789abcdef_bg.wasm`;
  await page.evaluate(async (url) => {
    const cache = await caches.open('tablescope-v1');
    await cache.put(url, new Response('old build'));
  }, stale);
  await page.reload();
  await mounted(page);
  await page.waitForFunction(async (url) => {
    const cache = await caches.open('tablescope-v1');
    return (await cache.match(url)) === undefined;
  }, stale, { timeout: 15_000, polling: 200 });
  const cachedWasm = await page.evaluate(async () => {
    const cache = await caches.open('tablescope-v1');
    return (await cache.keys()).map((r) => new URL(r.url).pathname).filter((p) => p.endsWith('.wasm'));
  });
  // The playground's two hashed wasm files (the primary and the deferred one) of this build
  // only, and the unhashed modules: the lessons, a docs embed's lesson, and those loaded on
  // first use (show as code, Connect, Design), precached so they work offline unopened.
  assert.equal(cachedWasm.length, 7, `cached: ${cachedWasm}`);
  for (const module of ['/codegen_bg.wasm', '/connect_bg.wasm', '/design_bg.wasm', '/lesson_bg.wasm']) {
    assert.ok(cachedWasm.includes(module), `cached: ${cachedWasm}`);
  }
  assert.equal(cachedWasm.filter((p) => /^\/tablescope-[0-9a-f]{1,16}_bg\.wasm$/.test(p)).length, 1, `cached: ${cachedWasm}`);
  assert.equal(cachedWasm.filter((p) => /^\/tablescope-deferred-[0-9a-f]{1,16}\.wasm$/.test(p)).length, 1, `cached: ${cachedWasm}`);
  assert.ok(cachedWasm.includes('/learn_bg.wasm'), `cached: ${cachedWasm}`);

  await page.context().setOffline(true);
  page.problems = [];
  await page.reload();
  await mounted(page);
  assert.equal(await page.locator('h1').textContent(), 'Tablescope');
  await openSection(page);
  await page.locator('.scenario-load').first().waitFor({ timeout: 15_000 });
  const stray = page.problems.filter((p) => !p.includes('request failed'));
  assert.deepEqual(stray, []);
  await page.context().setOffline(false);
  await page.context().close();
});
