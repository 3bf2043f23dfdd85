// The lesson that moves one table from Table storage to Cosmos DB for Table, on the release
// build in dist/: every expectation green; the same queries read differently on each service
// (order, scanned, index entries read, estimated request units); the switch says what it
// kept; in Arabic at 360 px nothing overflows; in a docs embed, which leaves Cosmos out, the
// switch step says in the reader's language to open the lesson in the playground.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { DESKTOP, PHONE, assertClean, openPage, screenshot, start } from './lib.mjs';
import { noOverflow } from './i18n-lib.mjs';

let env;
before(async () => {
  env = await start();
});
after(async () => {
  await env?.close();
});

const FILE = 'cosmos-table.json';
// Steps of the lesson (0-based), as www/scenarios/cosmos-table.json orders them.
const STORAGE_SCAN = 6;
const SWITCH = 7;
const COSMOS_PARTITION = 8;
const COSMOS_INDEXED = 9;
const COSMOS_GET = 10;
const COSMOS_INSERT = 11;
const BACK = 13;
const STEPS = 15;

/** Opens the lesson in the Learn section and runs every step; returns the player. */
async function runLesson(url, viewport) {
  const page = await openPage(env.browser, url, { viewport });
  await page.locator('h1').waitFor({ timeout: 20_000 });
  await page.locator('#nav-learn').click();
  await page.locator(`.scenario-load[data-file="${FILE}"]`).click();
  const player = page.locator('.scenario-player');
  await player.locator('.run-all').click();
  await player.locator(`.step[data-index="${STEPS - 1}"]`).waitFor();
  return { page, player };
}

const step = (player, i) => player.locator(`.step[data-index="${i}"]`);

/** The figure `field` of step `i`, or null when the step shows none. */
async function figure(player, i, field) {
  const dd = step(player, i).locator(`.fig[data-field="${field}"] dd`);
  return (await dd.count()) ? (await dd.textContent()).trim() : null;
}

/** Opens every step's body, so each figure can be read and seen. */
async function openAll(player) {
  for (let i = 0; i < STEPS; i++) {
    const toggle = step(player, i).locator('.step-toggle');
    if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
  }
}

test('the same queries on both services: order, scanned, index entries and request units', async () => {
  const { page, player } = await runLesson(env.url, DESKTOP);
  assert.equal(await player.locator('.step').count(), STEPS);
  assert.equal(await player.locator('.step[data-verdict="failed"]').count(), 0);
  assert.equal(await player.locator('.expectations li[data-state="failed"]').count(), 0);
  assert.equal(await player.locator('.player-progress').getAttribute('data-failed'), '0');
  await openAll(player);

  // Table storage reads the whole table for a property filter, and charges no request units.
  assert.deepEqual(
    [await figure(player, STORAGE_SCAN, 'scanned'), await figure(player, STORAGE_SCAN, 'returned')],
    ['7', '3'],
  );
  assert.equal(await figure(player, STORAGE_SCAN, 'indexEntries'), null);
  assert.equal(await step(player, STORAGE_SCAN).locator('.ru-estimate').count(), 0);

  // The switch names the service and what it kept.
  assert.equal(
    (await step(player, SWITCH).locator('.step-headline').textContent()).trim(),
    'switch to Azure Cosmos DB for Table',
  );
  assert.equal(
    (await step(player, SWITCH).locator('.step-switched').textContent()).trim(),
    'Now on Azure Cosmos DB for Table. Tables kept: 1; entities kept: 7.',
  );

  // On Cosmos the same filter is answered from the index: 3 entries, 3 read, 3 returned.
  assert.deepEqual(
    [
      await figure(player, COSMOS_INDEXED, 'scanned'),
      await figure(player, COSMOS_INDEXED, 'returned'),
      await figure(player, COSMOS_INDEXED, 'indexEntries'),
    ],
    ['3', '3', '3'],
  );
  const ru = (i) => step(player, i).locator('.ru-estimate');
  assert.equal(await ru(COSMOS_INDEXED).getAttribute('data-ru'), '3');
  assert.equal((await ru(COSMOS_INDEXED).locator('.ru-value').textContent()).trim(), '3 RU');
  assert.equal(await ru(COSMOS_PARTITION).getAttribute('data-ru'), '3');
  assert.equal(await ru(COSMOS_GET).getAttribute('data-ru'), '1');
  assert.equal((await ru(COSMOS_INSERT).locator('.ru-value').textContent()).trim(), '4.95 RU');
  // The expectations name the figures they checked.
  const held = await step(player, COSMOS_INDEXED).locator('.expectations li[data-state="held"]').allTextContents();
  assert.ok(held.includes('✓ index entries read 3'), held.join(' | '));
  assert.ok(held.includes('✓ Request units (estimate) 3 RU'), held.join(' | '));

  // Back on Table storage: no request units again.
  assert.equal(
    (await step(player, BACK).locator('.step-switched').textContent()).trim(),
    'Now on Azure Table storage. Tables kept: 1; entities kept: 8.',
  );
  assert.equal(await ru(BACK + 1).count(), 0);
  await step(player, COSMOS_INDEXED).scrollIntoViewIfNeeded();
  await screenshot(page, 'teach-cosmos-en');
  assertClean(page);
  await page.context().close();
});

test('in Arabic at 360 px: the lesson runs green, speaks Arabic, and fits', async () => {
  const { page, player } = await runLesson(`${env.url}?lang=ar`, PHONE);
  assert.equal(await player.locator('.step[data-verdict="failed"]').count(), 0);
  await openAll(player);
  assert.equal((await player.locator('.scenario-name').textContent()).trim(), 'الجدول نفسه على Cosmos DB for Table');
  assert.equal(
    (await step(player, SWITCH).locator('.step-headline').textContent()).trim(),
    // The service's name is an isolate of its own in the right-to-left sentence.
    'الانتقال إلى \u2068Azure Cosmos DB for Table\u2069',
  );
  assert.equal(
    (await step(player, COSMOS_INDEXED).locator('.fig[data-field="indexEntries"] dt').textContent()).trim(),
    'إدخالات الفهرس المقروءة',
  );
  assert.equal((await step(player, COSMOS_INDEXED).locator('.ru-label').textContent()).trim(), 'وحدات الطلب (تقدير)');
  await noOverflow(page, 'the Cosmos lesson at 360 px');
  await step(player, COSMOS_INDEXED).scrollIntoViewIfNeeded();
  await screenshot(page, 'teach-cosmos-ar-360');
  assertClean(page);
  await page.context().close();
});

test('in a docs embed the switch step sends the reader to the playground, in their language', async () => {
  for (const [lang, text] of [
    ['en', '✗ This embed runs lessons on Table storage only. Open the lesson in the playground to run it on Cosmos DB for Table.'],
    ['de', '✗ Diese Einbettung führt Lektionen nur auf Table Storage aus. Öffnen Sie die Lektion im Playground, um sie auf Cosmos DB for Table auszuführen.'],
  ]) {
    const page = await openPage(env.browser, `${env.url}?embed=1&scenario=${FILE}&lang=${lang}`, { viewport: DESKTOP });
    const player = page.locator('.scenario-player');
    await player.locator('.run-all').waitFor({ timeout: 20_000 });
    await player.locator('.run-all').click();
    await step(player, STEPS - 1).waitFor();
    // Every step before the switch holds; the switch fails with the reason.
    assert.equal(await player.locator('.step[data-verdict="failed"]').first().getAttribute('data-index'), String(SWITCH));
    const sw = step(player, SWITCH);
    if ((await sw.locator('.step-toggle').getAttribute('aria-expanded')) !== 'true') await sw.locator('.step-toggle').click();
    assert.equal((await sw.locator('.expectations li[data-state="failed"]').last().textContent()).trim(), text);
    assert.equal(await page.locator('.embed-open').getAttribute('href'), `./?scenario=${FILE}#learn`);
    assertClean(page);
    await page.context().close();
  }
});

test('the throughput simulator on Cosmos DB for Table: RU/s per physical partition, 429, 20 GB', async () => {
  const page = await openPage(env.browser, env.url, { viewport: DESKTOP });
  await page.locator('h1').waitFor({ timeout: 20_000 });
  await page.locator('#nav-learn').click();
  const sim = page.locator('.simulator-panel');
  await sim.locator('#sim-service').selectOption('cosmos');
  await sim.locator('#sim-ru').fill('50000');
  await sim.locator('#sim-ops').fill('5000');
  await sim.locator('#sim-seconds').fill('10');
  await sim.locator('#sim-spike').fill('0');
  await sim.locator('#sim-retry').uncheck();
  await sim.locator('.sim-run').click();
  await sim.locator('.sim-design[data-design="a"] .sim-cosmos').waitFor();
  const total = async (side, field) =>
    Number((await sim.locator(`.sim-design[data-design="${side}"] .fig[data-field="${field}"] dd`).textContent()).replace(/[^0-9]/g, ''));
  const label = (side) => sim.locator(`.sim-design[data-design="${side}"] .fig[data-field="throttled"] dt`).textContent();
  // One key lives in one physical partition of 10,000 RU/s: (1,000 + 999 × 100) / 4.95 writes
  // succeed; ten hashed keys over five partitions carry all 5,000 writes/s.
  assert.equal(await total('a', 'failed'), 29_617);
  assert.equal(await total('a', 'throttled'), 29_617);
  assert.equal(await label('a'), '429 responses (retries included)');
  assert.equal(await total('b', 'failed'), 0);
  assert.equal(
    (await sim.locator('.sim-design[data-design="a"] .sim-cosmos').textContent()).trim(),
    'Physical partitions: 5, each serving 10,000 RU/s; a 1 KiB write costs about 4.95 RU (estimate). ' +
      'At this rate the logical partition 2026-11-22 reaches its 20 GB limit in 1.2 hours.',
  );
  assert.match(
    await sim.locator('.sim-design[data-design="b"] .sim-cosmos').textContent(),
    /reaches its 20 GB limit in 11\.4 hours\.$/,
  );
  // The chart's target line is what one physical partition's RUs pay for: 2,020 writes/s.
  assert.equal(await sim.locator('.sim-design[data-design="a"] .target-label').textContent(), '2,020/s');

  // At 10,000 RU/s the whole container is one partition: the spread design fails as much.
  await sim.locator('#sim-ru').fill('10000');
  await sim.locator('.sim-run').click();
  await page.waitForFunction(
    () => document.querySelector('.sim-design[data-design="b"] [data-field="failed"] dd')?.textContent.replace(/[^0-9]/g, '') === '29617',
  );
  // Back on Table storage: 503 and the partition target.
  await sim.locator('#sim-service').selectOption('storage');
  await sim.locator('.sim-run').click();
  await sim.locator('.sim-cosmos').first().waitFor({ state: 'detached' });
  assert.equal(await label('a'), '503 responses (retries included)');
  assert.equal(await total('a', 'failed'), 29_820);
  await sim.locator('#sim-service').selectOption('cosmos');
  await sim.locator('.sim-run').click();
  await sim.locator('.sim-cosmos').first().waitFor();
  await sim.scrollIntoViewIfNeeded();
  await screenshot(page, 'teach-cosmos-simulator');
  assertClean(page);
  await page.context().close();
});
