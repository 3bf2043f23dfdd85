// A million saved entities, on the split release build in dist/: filled
// through the `?perf=1` hook (1,000 partitions × 1,000, src/ui/state/perf.rs), saved, and reloaded.
// The reload decodes in slices and says how far it has got; every entity comes back, and a
// point query finds one. The figures (save and reload times, longest task, memory) are the
// benchmark's: `node scripts/bench/million.mjs`, in the README. This test asserts what must
// hold whatever the machine's load: counts, contents, progress shown in steps, and memory.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { DESKTOP, assertClean, openPage, pageMemory, savesSettled, screenshot, start } from './lib.mjs';

let env;
before(async () => {
  env = await start();
});
after(async () => {
  await env?.close();
});

const TABLE = 'Million';
const PARTITIONS = 1000;
const ROWS = 1000;

/** Records each text the start's loading message shows (src/ui.rs), from the page's start. */
function watchLoading() {
  window.__loadingTexts = [];
  new MutationObserver(() => {
    const text = document.getElementById('app-loading')?.textContent;
    if (text && window.__loadingTexts.at(-1) !== text) window.__loadingTexts.push(text);
  }).observe(document, { subtree: true, childList: true, characterData: true });
}

test('a million entities are saved, reload in slices with progress, and answer a point query', async () => {
  const page = await openPage(env.browser, `${env.url}?perf=1`, { viewport: DESKTOP });
  await page.context().addInitScript(watchLoading);
  await page.locator('h1').waitFor({ timeout: 15_000 });
  await page.getByLabel('New table').fill(TABLE);
  await page.getByRole('button', { name: 'Create table' }).click();
  await page.locator(`[data-table="${TABLE}"]`).waitFor();
  const written = await page.evaluate(
    ([t, p, r]) => window.__tablescopeFill(t, p, r),
    [TABLE, PARTITIONS, ROWS],
  );
  assert.equal(written, PARTITIONS * ROWS);
  await savesSettled(page, 180_000);

  // On disk: the meta record and every chunk (at most 256 entities each, so at least 4 per
  // partition of 1,000).
  const chunks = await page.evaluate(async () => {
    const done = (r) => new Promise((ok, fail) => ((r.onsuccess = () => ok(r.result)), (r.onerror = () => fail(r.error))));
    const db = await done(indexedDB.open('tablescope-sandbox'));
    try {
      return await done(db.transaction('chunks').objectStore('chunks').count());
    } finally {
      db.close();
    }
  });
  assert.equal(chunks, PARTITIONS * 4);

  await page.reload();
  const counts = page.locator(`[data-table="${TABLE}"] .table-counts`);
  await counts.waitFor({ timeout: 120_000 });
  assert.equal((await counts.textContent()).trim(), '1,000,000 entities · 1,000 partitions');
  // The load went in slices, telling its progress: several distinct percentages, rising.
  const texts = await page.evaluate(() => window.__loadingTexts);
  const percents = texts
    .map((t) => /(\d+)%/.exec(t)?.[1])
    .filter((p) => p !== undefined)
    .map(Number);
  assert.ok(percents.length >= 3, `progress shown ${percents.length} times: ${texts.join(' | ')}`);
  assert.deepEqual(percents, [...percents].sort((a, b) => a - b), 'progress only rises');
  assert.ok(percents.every((p) => p >= 0 && p <= 100));

  // The page's memory once loaded, against the 500 MB.
  const { heap, wasm } = await pageMemory(page);
  assert.ok(heap + wasm < 500 * 2 ** 20, `page memory ${Math.round((heap + wasm) / 2 ** 20)} MB`);

  // A point query in the middle: exactly that entity, one scanned.
  await page.locator(`[data-table="${TABLE}"] .table-facts`).click();
  await page.locator('#nav-query').click();
  await page.locator('#raw-filter').fill("PartitionKey eq 'p0500' and RowKey eq 'r000777'");
  await page.locator('#raw-filter').press('Control+Enter');
  const meter = page.locator('.scan-meter');
  await meter.locator('.fig-kind', { hasText: 'Point query' }).waitFor({ timeout: 15_000 });
  assert.equal((await meter.locator('.fig-scanned').textContent()).trim(), '1');
  assert.equal((await meter.locator('.fig-returned').textContent()).trim(), '1');
  const row = page.locator('#section-query .results .grid-row').first();
  await row.waitFor();
  const cells = (await row.locator('td').allTextContents()).map((t) => t.trim());
  for (const want of ['p0500', 'r000777', '777', 'entity 777 of p0500']) {
    assert.ok(cells.includes(want), `${want} in ${cells.join(' | ')}`);
  }
  await screenshot(page, 'million-point-query');
  assertClean(page);
  await page.context().close();
});
