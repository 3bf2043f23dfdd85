// Persistence end to end, on the release build in dist/: tables survive a reload, a deleted
// table stays deleted, and the database holds the documented layout (tablescope-sandbox,
// meta "account" with format 1 and the table names, chunk keys <Table>/<PartitionKey>/<start>).
//
// Skips (rather than fails) while the UI does not call crate::persist yet: then no
// tablescope-sandbox database ever appears.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { assertClean, openPage, start } from './lib.mjs';

let env;
before(async () => {
  env = await start();
});
after(async () => {
  await env?.close();
});

async function mounted(page) {
  await page.locator('h1').waitFor({ timeout: 15_000 });
}

async function createTable(page, name) {
  await page.getByLabel('New table').fill(name);
  await page.getByRole('button', { name: 'Create table' }).click();
  await page.locator(`[data-table="${name}"]`).waitFor();
}

/**
 * The sandbox database as stored: { meta, keys }, or null while it does not exist. Never
 * creates it (opening a missing database would create an empty version 1 without stores).
 */
function stored(page) {
  return page.evaluate(async () => {
    const names = (await indexedDB.databases()).map((d) => d.name);
    if (!names.includes('tablescope-sandbox')) return null;
    const done = (request) =>
      new Promise((ok, fail) => {
        request.onsuccess = () => ok(request.result);
        request.onerror = () => fail(request.error);
      });
    const db = await done(indexedDB.open('tablescope-sandbox'));
    try {
      if (!db.objectStoreNames.contains('meta')) return null;
      const tx = db.transaction(['meta', 'chunks'], 'readonly');
      const meta = await done(tx.objectStore('meta').get('account'));
      const keys = await done(tx.objectStore('chunks').getAllKeys());
      return { meta: meta ?? null, keys };
    } finally {
      db.close();
    }
  });
}

/** Polls the stored state until `ready(state)` holds; null on timeout. */
async function storedWhen(page, ready, timeoutMs = 5_000) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const state = await stored(page);
    if (ready(state)) return state;
    if (Date.now() > end) return null;
    await new Promise((ok) => setTimeout(ok, 100));
  }
}

test('tables survive a reload and a deleted table stays deleted', async (t) => {
  const page = await openPage(env.browser, env.url);
  await mounted(page);
  await createTable(page, 'Kept');
  await createTable(page, 'Dropped');

  const disk = await storedWhen(page, (s) => s?.meta?.tables?.includes('Dropped'));
  if (disk === null && (await stored(page)) === null) {
    t.skip('the UI does not call crate::persist yet: no tablescope-sandbox database');
    await page.context().close();
    return;
  }
  assert.ok(disk, 'both tables reach the meta record');
  assert.equal(disk.meta.format, 1);
  assert.deepEqual([...disk.meta.tables].sort(), ['Dropped', 'Kept']);
  assert.deepEqual(disk.keys, [], 'empty tables have no chunks');

  const dropped = page.locator('[data-table="Dropped"]');
  await dropped.getByRole('button', { name: 'Delete' }).click();
  await dropped.locator('.confirm-delete').click();
  await dropped.waitFor({ state: 'detached' });
  assert.ok(
    await storedWhen(page, (s) => s?.meta && !s.meta.tables.includes('Dropped')),
    'the deletion reaches the disk',
  );

  await page.reload();
  await mounted(page);
  await page.locator('[data-table="Kept"]').waitFor();
  assert.deepEqual(await page.locator('.table-name').allTextContents(), ['Kept']);
  assertClean(page);
  await page.context().close();
});

test('a new browser profile starts empty', async () => {
  const page = await openPage(env.browser, env.url);
  await mounted(page);
  assert.match(await page.locator('.empty').textContent(), /No tables yet/);
  assertClean(page);
  await page.context().close();
});
