// Starting offline with saved tables, on the split release build in dist/:
// saved entities of all eight types load and show with the network gone, and a start that
// cannot finish says why and offers the saved tables as a file (www/start-guard.js).

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { openPage, screenshot, start } from './lib.mjs';

let env;
before(async () => {
  env = await start();
});
after(async () => {
  await env?.close();
});

const PANEL = '.storage-panel';

/** One entity of each of the eight types, and a second table with none. */
const SNAPSHOT = {
  format: 'tablescope-account',
  version: 1,
  tables: [
    {
      name: 'Typed',
      entities: [
        {
          PartitionKey: 'p',
          RowKey: 'all-eight',
          Timestamp: '2024-05-06T07:08:09.1234567Z',
          S: 'text',
          I32: -2147483648,
          'I64@odata.type': 'Edm.Int64',
          I64: '9223372036854775807',
          D: 0.30000000000000004,
          B: true,
          'T@odata.type': 'Edm.DateTime',
          T: '2024-01-02T03:04:05.1234567Z',
          'G@odata.type': 'Edm.Guid',
          G: 'c9da6455-213d-42c9-9a79-3e9149a57833',
          'Bin@odata.type': 'Edm.Binary',
          Bin: 'AP8BAg==',
        },
        { PartitionKey: 'p', RowKey: 'bool', Timestamp: '2024-05-06T07:08:10.0000001Z', Flag: false },
      ],
    },
    { name: 'Empty', entities: [] },
  ],
};

async function mounted(page) {
  await page.locator('h1').waitFor({ timeout: 15_000 });
  await page.locator(PANEL).waitFor();
}

async function download(page, click) {
  const [file] = await Promise.all([page.waitForEvent('download'), click()]);
  return { name: file.suggestedFilename(), text: await readFile(await file.path(), 'utf8') };
}

/** The entities of a snapshot without their ETags, by table, for comparing with SNAPSHOT. */
function tablesOf(snapshot) {
  return Object.fromEntries(
    snapshot.tables.map((t) => [
      t.name,
      t.entities.map(({ 'odata.etag': _, ...rest }) => rest).sort((a, b) => (a.RowKey < b.RowKey ? -1 : 1)),
    ]),
  );
}

/**
 * A page controlled by the service worker, with SNAPSHOT imported and saved, and both halves
 * of the split wasm in the worker's cache.
 */
async function savedAndCached() {
  const page = await openPage(env.browser, env.url);
  await mounted(page);
  await page.evaluate(() => navigator.serviceWorker.ready);
  await page.reload();
  await mounted(page);
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 15_000 });

  await page
    .locator(`${PANEL} input[type=file]`)
    .setInputFiles({ name: 'eight.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(SNAPSHOT)) });
  await page.locator(`${PANEL} .storage-confirm button`).first().click();
  await page.locator('[data-table="Typed"]').waitFor();
  // Saved: the meta record lists both tables and the chunk holds both entities.
  await page.waitForFunction(async () => {
    const db = await new Promise((ok, fail) => {
      const r = indexedDB.open('tablescope-sandbox');
      r.onsuccess = () => ok(r.result);
      r.onerror = () => fail(r.error);
    });
    try {
      const tx = db.transaction(['meta', 'chunks']);
      const get = (r) => new Promise((ok) => (r.onsuccess = () => ok(r.result)));
      const meta = await get(tx.objectStore('meta').get('account'));
      const chunks = await get(tx.objectStore('chunks').getAll());
      // The start rescue's decoder reads either format of chunk record.
      const { chunkEntities } = await import(new URL('start-rescue.js', location.href));
      return meta?.tables?.length === 2 && chunks.length === 1 && chunkEntities(chunks[0]).length === 2;
    } finally {
      db.close();
    }
  });
  await page.waitForFunction(async () => {
    const keys = await (await caches.open('tablescope-v1')).keys();
    return keys.some((r) => /\/tablescope-deferred-[0-9a-f]+\.wasm$/.test(r.url));
  }, null, { timeout: 15_000, polling: 200 });
  return page;
}

test('offline, a reload shows saved entities of all eight types', async () => {
  const page = await savedAndCached();
  await page.context().setOffline(true);
  page.problems = [];
  await page.reload();
  await mounted(page);
  await page.locator('[data-table="Typed"]').waitFor();
  assert.equal(await page.locator('[data-table="Typed"] .table-counts').textContent(), '2 entities · 1 partition');
  const exported = await download(page, () =>
    page.locator(PANEL).getByRole('button', { name: 'Export all (JSON)' }).click(),
  );
  assert.deepEqual(tablesOf(JSON.parse(exported.text)), tablesOf(SNAPSHOT));
  assert.equal(await page.locator('#app-start-problem').count(), 0);
  // Offline, the worker's background refresh of each file fails; nothing else may.
  assert.deepEqual(page.problems.filter((p) => !p.includes('request failed')), []);
  await page.context().setOffline(false);
  await page.context().close();
});

test('offline, show as code opens although it was never opened online (its module is precached)', async () => {
  const page = await savedAndCached();
  await page.waitForFunction(async () => {
    const keys = await (await caches.open('tablescope-v1')).keys();
    return keys.some((r) => r.url.endsWith('/codegen_bg.wasm')) && keys.some((r) => r.url.endsWith('/codegen.js'));
  }, null, { timeout: 15_000, polling: 200 });
  await page.context().setOffline(true);
  await page.reload();
  await mounted(page);
  await page.locator('[data-table="Typed"] .table-facts').click();
  await page.locator('#nav-query').click();
  await page.locator('.run-query').click();
  const root = page.locator('.show-code[data-what="query"]');
  await root.locator('.show-code-toggle').click();
  const js = root.locator('.code-form[data-form="js"]');
  await js.waitFor({ timeout: 15_000 });
  assert.match(await js.textContent(), /tableClient\("Typed"\)/);
  await page.context().setOffline(false);
  await page.context().close();
});

test('a start that cannot load its code says why and offers the saved tables as a file', async () => {
  const page = await savedAndCached();
  // The deferred half is gone from the offline copy (as when the browser evicted it).
  await page.evaluate(async () => {
    const cache = await caches.open('tablescope-v1');
    for (const r of await cache.keys()) {
      if (/\/tablescope-deferred-[0-9a-f]+\.wasm$/.test(r.url)) await cache.delete(r);
    }
  });
  await page.context().setOffline(true);
  const started = Date.now();
  await page.reload();
  const problem = page.locator('#app-start-problem');
  await problem.waitFor({ timeout: 10_000 });
  const waited = Date.now() - started;
  const text = await problem.textContent();
  assert.match(text, /^Tablescope could not start: part of its code that reads your saved tables cannot be loaded \(\/tablescope-deferred-[0-9a-f]+\.wasm could not be fetched\)\. Connect to the network and reload\./);
  assert.match(text, /Your saved tables are still stored in this browser/);
  assert.equal(await page.locator('#app-loading').count(), 0, 'no endless "Loading…"');
  assert.ok(waited < 5_000, `said so after ${waited} ms`);
  await screenshot(page, 'start-problem-offline');

  const file = await download(page, () => problem.getByRole('button', { name: 'Download saved tables (JSON)' }).click());
  assert.equal(file.name, 'tablescope-saved-tables.json');
  assert.deepEqual(tablesOf(JSON.parse(file.text)), tablesOf(SNAPSHOT));
  assert.equal(await problem.locator('[aria-live]').textContent(), 'Downloaded 2 tables.');

  // Back online, a reload starts normally with the tables.
  await page.context().setOffline(false);
  await page.reload();
  await mounted(page);
  await page.locator('[data-table="Typed"]').waitFor();
  assert.equal(await page.locator('#app-start-problem').count(), 0);
  await page.context().close();
});

/** The requests the page made with a synchronous-capable API (XMLHttpRequest), by URL. */
const xhrs = (page) =>
  page.evaluate(() => performance.getEntriesByType('resource').filter((e) => e.initiatorType === 'xmlhttprequest').map((e) => e.name));

/** Resolves once the worker's cache holds a file whose path ends with each of `ends`. */
async function cached(page, ends) {
  await page.waitForFunction(async (ends) => {
    const paths = (await (await caches.open('tablescope-v1')).keys()).map((r) => new URL(r.url).pathname);
    return ends.every((end) => paths.some((p) => p.endsWith(end)));
  }, ends, { timeout: 30_000, polling: 200 });
}

test('offline, a start without saved tables works, and nothing it runs is fetched synchronously', async () => {
  // A first visit that opens Query and Learn, then a reload (the worker now controls the page).
  const page = await openPage(env.browser, env.url);
  await page.locator('html[data-ready]').waitFor({ state: 'attached', timeout: 15_000 });
  await page.evaluate(() => navigator.serviceWorker.ready);
  await page.locator('#nav-query').click();
  await page.locator('#nav-learn').click();
  await page.locator('.scenario-load').first().waitFor({ timeout: 20_000 });
  await page.reload();
  await page.locator('html[data-ready]').waitFor({ state: 'attached', timeout: 15_000 });
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 15_000 });
  await cached(page, ['.wasm', 'learn_bg.wasm']);
  await page.waitForFunction(async () => {
    const keys = await (await caches.open('tablescope-v1')).keys();
    return keys.some((r) => /\/tablescope-deferred-[0-9a-f]+\.wasm$/.test(r.url));
  }, null, { timeout: 15_000, polling: 200 });

  await page.context().setOffline(true);
  page.problems = [];
  await page.reload();
  await page.locator('html[data-ready]').waitFor({ state: 'attached', timeout: 15_000 });
  // Every section of the steps, and a write (deferred code) with the network gone.
  await page.locator('#nav-learn').click();
  await page.locator('.scenario-load').first().waitFor({ timeout: 15_000 });
  await page.locator('#nav-query').click();
  await page.locator('.run-query').first().waitFor();
  await page.locator('#nav-data').click();
  await page.getByLabel('New table').fill('Offline');
  await page.getByRole('button', { name: 'Create table' }).click();
  await page.locator('[data-table="Offline"] .table-counts').waitFor();
  assert.equal(await page.locator('[data-table="Offline"] .table-counts').textContent(), '0 entities · 0 partitions');
  assert.deepEqual(await xhrs(page), [], 'no synchronous request: the deferred wasm was compiled before the start');
  assert.equal(await page.locator('#app-start-problem, .start-failed').count(), 0);
  assert.deepEqual(page.problems.filter((p) => !p.includes('request failed')), []);
  await page.context().setOffline(false);
  await page.context().close();
});

test('offline, a lesson embed seen online opens again, and one in another language it never showed', async () => {
  const page = await openPage(env.browser, env.url);
  await page.locator('html[data-ready]').waitFor({ state: 'attached', timeout: 15_000 });
  await page.evaluate(() => navigator.serviceWorker.ready);
  // The worker precaches a docs embed's module, lessons in every language and catalogues.
  await cached(page, ['/lesson.js', '/lesson_bg.wasm', '/scenarios/en/log-tail.json', '/scenarios/nl/log-tail.json', '/locales/lesson/nl.json']);
  const embed = await page.context().newPage();
  embed.problems = [];
  embed.on('pageerror', (e) => embed.problems.push(String(e)));
  await embed.goto(`${env.url}?embed=1&scenario=log-tail.json`);
  await embed.locator('.scenario-player').waitFor({ timeout: 20_000 });
  assert.equal(await embed.evaluate(() => navigator.serviceWorker.controller !== null), true, 'the worker answers the embed');

  await page.context().setOffline(true);
  await embed.reload();
  const player = embed.locator('.scenario-player');
  await player.waitFor({ timeout: 20_000 });
  await player.getByRole('button', { name: 'Run all' }).click();
  await embed.locator('.step').first().waitFor();
  assert.equal(await embed.locator('.step[data-verdict="failed"]').count(), 0);
  assert.equal(await embed.getByText('Failed to fetch').count(), 0);
  assert.equal(await embed.locator('.start-failed').count(), 0);

  // Never shown in Dutch: its Dutch lesson and catalogue come from the precache.
  await embed.goto(`${env.url}?embed=1&scenario=log-tail.json&lang=nl`);
  await embed.locator('.scenario-player').waitFor({ timeout: 20_000 });
  await embed.locator('html[lang="nl"]').waitFor({ state: 'attached' });
  assert.equal(await embed.getByText('Failed to fetch').count(), 0);
  assert.equal(await embed.locator('.start-failed').count(), 0);
  const run = embed.locator('.scenario-player').getByRole('button', { name: 'Alles uitvoeren' });
  assert.equal(await run.count(), 1, 'the player speaks Dutch');
  assert.deepEqual(embed.problems, []);
  await page.context().setOffline(false);
  await page.context().close();
});
