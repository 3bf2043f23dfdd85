// The account's service: Table storage or Azure Cosmos DB for Table. The switch asks first and
// keeps the data; on Cosmos the query meter and the batch result show request units from the
// model (a point read per entity read below 1 KB: 1 RU; an insert below 1 KB: 4.95 RU); the
// comparison runs the same query on a copy on the other service; a reload keeps the service.
// In English at 1280 px and in Arabic at 360 px.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { DESKTOP, PHONE, assertClean, openPage, rowKeysOf, savesSettled, screenshot, start } from './lib.mjs';
import { openCode, runEditor, setCode } from './code-lib.mjs';

let env;
before(async () => {
  env = await start();
});
after(async () => {
  await env?.close();
});

const RED = ['2', '5', '9'];

/** Table `Orders`: partition p, RowKeys 1…10 inserted in that order, Color red on 2, 5, 9. */
async function seed(page) {
  const statuses = await page.evaluate((red) => {
    const base = 'http://127.0.0.1:10002/devstoreaccount1';
    const headers = [['Accept', 'application/json;odata=nometadata'], ['Content-Type', 'application/json']];
    const post = (path, body) =>
      window.tablescope.wire({ method: 'POST', url: base + path, headers, body: JSON.stringify(body) }).status;
    const out = [post('/Tables', { TableName: 'Orders' })];
    for (let i = 1; i <= 10; i += 1) {
      out.push(post('/Orders', { PartitionKey: 'p', RowKey: String(i), Color: red.includes(String(i)) ? 'red' : 'blue' }));
    }
    return out;
  }, RED);
  assert.deepEqual(statuses, Array(11).fill(201));
  await page.locator('[data-table="Orders"] .table-facts').click();
}

/** The RowKeys of table Orders, in the order a whole-table query returns them. */
const rowKeys = (page) => rowKeysOf(page, 'Orders');

async function open(lang, viewport) {
  const page = await openPage(env.browser, `${env.url}?lang=${lang}&perf=1`, { viewport });
  await page.locator('html[data-ready]').waitFor({ state: 'attached', timeout: 15_000 });
  return page;
}

async function runQuery(page, filter) {
  await page.locator('#nav-query').click();
  await page.locator('#raw-filter').fill(filter);
  await page.locator('#raw-filter').press('Control+Enter');
  await page.locator('.scan-meter').waitFor();
}

/** Waits until the meter's figure reads `n` (the meter of the run before may still show). */
async function figure(page, cls, n) {
  await page.waitForFunction(
    ([sel, want]) => document.querySelector(sel)?.textContent.replace(/[^0-9]/g, '') === want,
    [`.scan-meter ${cls}`, String(n)],
  );
  return Number((await page.locator(`.scan-meter ${cls}`).textContent()).replace(/[^0-9]/g, ''));
}

async function side(page, target) {
  const s = page.locator(`.target-compare .side-${target}`);
  return {
    rows: await s.locator('.cmp-rows li').allTextContents(),
    scanned: Number(await s.locator('.cmp-scanned').textContent()),
    returned: Number(await s.locator('.cmp-returned').textContent()),
    index: await s.locator('.cmp-index').textContent(),
    cost: await s.locator('.cmp-cost').textContent(),
    ru: await s.locator('.cmp-cost').getAttribute('data-ru'),
    wire: await s.locator('.cmp-wire').textContent(),
  };
}

test('the switch asks, keeps the data, and Cosmos shows its order, RUs and the comparison', async () => {
  const page = await open('en', DESKTOP);
  await seed(page);
  assert.deepEqual(await rowKeys(page), ['1', '10', '2', '3', '4', '5', '6', '7', '8', '9']);
  // The switch heads the Query section.
  await page.locator('#nav-query').click();
  assert.equal(await page.locator('.target-option.table-storage input').isChecked(), true);

  // Storage: no request units anywhere.
  await runQuery(page, "Color eq 'red'");
  assert.equal(await figure(page, '.fig-scanned', 10), 10);
  assert.equal(await page.locator('.scan-meter .ru-estimate').count(), 0);

  // The confirmation says what changes; Cancel has focus; nothing changed yet.
  await page.locator('.target-option.cosmos-table input').check();
  const confirm = page.locator('.target-confirm');
  await confirm.waitFor();
  const question = await confirm.locator('.target-question').textContent();
  assert.match(question, /in the order they were written, not in PartitionKey and RowKey order/);
  assert.match(question, /ETags and Timestamps keep all seven fraction digits/);
  assert.match(question, /a RowKey may hold at most 255 bytes, a batch at most 2 MB/);
  await page.waitForFunction(() => document.activeElement?.classList.contains('cancel'));
  assert.deepEqual(await rowKeys(page), ['1', '10', '2', '3', '4', '5', '6', '7', '8', '9']);
  await confirm.locator('.switch-target').click();
  await page.locator('.target-switched').waitFor();
  assert.equal(
    await page.locator('.target-switched').textContent(),
    'Now on Azure Cosmos DB for Table. Tables kept: 1; entities kept: 10.',
  );
  assert.equal(await page.locator('.target-option.cosmos-table input').isChecked(), true);
  // Insertion order on Cosmos.
  assert.deepEqual(await rowKeys(page), ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10']);

  // The index answers the filter: 3 read, 3 RU (3 entities under 1 KB, 1 RU each).
  await runQuery(page, "Color eq 'red'");
  assert.equal(await figure(page, '.fig-scanned', 3), 3);
  assert.equal(await figure(page, '.fig-returned', 3), 3);
  const ru = page.locator('.scan-meter .ru-estimate');
  assert.equal(await ru.getAttribute('data-ru'), '3');
  assert.equal(await ru.locator('.ru-label').textContent(), 'Request units (estimate)');
  assert.equal(await ru.locator('.ru-value').textContent(), '3 RU');
  await ru.locator('.ru-model summary').click();
  assert.match(await ru.locator('.ru-model').textContent(), /reading an item of 1 KB costs 1 RU/);
  assert.equal(
    await ru.locator('.ru-model a').getAttribute('href'),
    'https://learn.microsoft.com/azure/cosmos-db/understand-request-unit-consumption',
  );

  // The same query on a copy on Table storage.
  assert.equal(await page.locator('.compare-targets').textContent(), 'Compare with Azure Table storage');
  await page.locator('.compare-targets').click();
  await page.locator('.target-compare').waitFor();
  const cosmos = await side(page, 'cosmos-table');
  const storage = await side(page, 'table-storage');
  assert.deepEqual(cosmos.rows, ['p / 2', 'p / 5', 'p / 9']);
  assert.deepEqual(storage.rows, ['p / 2', 'p / 5', 'p / 9']);
  assert.deepEqual([cosmos.scanned, cosmos.returned, storage.scanned, storage.returned], [3, 3, 10, 3]);
  assert.equal(cosmos.index, '3');
  assert.equal(storage.index, 'none: no property index');
  assert.equal(cosmos.ru, '3');
  assert.equal(cosmos.cost, '3 RU (estimate)');
  assert.equal(storage.ru, null);
  assert.equal(storage.cost, 'Billed transactions: 1');
  assert.match(cosmos.wire, /^HTTP\/1\.1 200 OK/);
  assert.match(storage.wire, /^HTTP\/1\.1 200 OK/);
  assert.match(storage.wire, /\nx-ms-version: 2019-02-02/);
  // The whole table: insertion order here, key order on the copy.
  await runQuery(page, '');
  await page.locator('.scan-meter .ru-estimate[data-ru="10"]').waitFor();
  await page.locator('.compare-targets').click();
  await page.locator('.side-cosmos-table .cmp-rows li').nth(9).waitFor();
  assert.deepEqual((await side(page, 'cosmos-table')).rows, ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10'].map((r) => `p / ${r}`));
  assert.deepEqual((await side(page, 'table-storage')).rows, ['1', '10', '2', '3', '4', '5', '6', '7', '8', '9'].map((r) => `p / ${r}`));
  await screenshot(page, 'cosmos-compare-en-desktop');

  // A batch of three inserts under 1 KB: 3 × 4.95 RU.
  await page.locator('#nav-batch').click();
  await page.locator('.by-hand summary').click();
  for (const rk of ['11', '12', '13']) {
    await page.locator('#hand-op').selectOption('insert');
    await page.locator('#hand-json').fill(`{"PartitionKey":"p","RowKey":"${rk}","Color":"green"}`);
    await page.locator('.stage-by-hand').click();
  }
  await page.locator('.commit-batch').click();
  await page.locator('.batch-panel .ru-estimate').waitFor();
  assert.equal(await page.locator('.batch-panel .ru-estimate').getAttribute('data-ru'), '14.85');
  assert.equal(await page.locator('.batch-panel .ru-value').textContent(), '14.85 RU');
  await screenshot(page, 'cosmos-batch-en-desktop');

  // A reload keeps the account on Cosmos, with its order.
  await savesSettled(page);
  await page.reload();
  await page.locator('html[data-ready]').waitFor({ state: 'attached', timeout: 15_000 });
  await page.locator('#nav-query').click();
  assert.equal(await page.locator('.target-option.cosmos-table input').isChecked(), true);
  assert.deepEqual(await rowKeys(page), ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11', '12', '13']);

  // And back to storage: key order, no request units.
  await page.locator('.target-option.table-storage input').check();
  assert.match(await page.locator('.target-question').textContent(), /queries return entities in PartitionKey and RowKey order/);
  await page.locator('.switch-target').click();
  await page.locator('.target-switched', { hasText: 'Now on Azure Table storage. Tables kept: 1; entities kept: 13.' }).waitFor();
  assert.deepEqual(await rowKeys(page), ['1', '10', '11', '12', '13', '2', '3', '4', '5', '6', '7', '8', '9']);
  assertClean(page);
  await page.close();
});

test('in Arabic at 360 px: the switch by keyboard, Escape cancels, RU and comparison fit', async () => {
  const page = await open('ar', PHONE);
  assert.equal(await page.evaluate(() => document.documentElement.dir), 'rtl');
  await seed(page);
  await page.locator('#nav-query').click();
  assert.equal(await page.locator('#target-heading').textContent(), 'الخدمة');

  // Arrow keys move within the radio group; the confirmation opens with Cancel focused, and
  // Escape closes it with nothing changed.
  await page.locator('.target-option.table-storage input').focus();
  await page.keyboard.press('ArrowDown');
  await page.locator('.target-confirm').waitFor();
  await page.waitForFunction(() => document.activeElement?.classList.contains('cancel'));
  await page.keyboard.press('Escape');
  await page.locator('.target-confirm').waitFor({ state: 'detached' });
  assert.equal(await page.locator('.target-option.table-storage input').isChecked(), true);
  assert.deepEqual(await rowKeys(page), ['1', '10', '2', '3', '4', '5', '6', '7', '8', '9']);

  await page.locator('.target-option.cosmos-table input').check();
  await page.locator('.switch-target').click();
  await page.locator('.target-switched').waitFor();
  assert.equal(
    await page.locator('.target-switched').textContent(),
    'الآن على Azure Cosmos DB for Table. الجداول المحفوظة: 1؛ الكيانات المحفوظة: 10.'.replace(
      'Azure Cosmos DB for Table',
      '\u2068Azure Cosmos DB for Table\u2069',
    ),
  );
  await screenshot(page, 'cosmos-switch-ar-360');

  await runQuery(page, "Color eq 'red'");
  await figure(page, '.fig-scanned', 3);
  assert.equal(await page.locator('.scan-meter .ru-label').textContent(), 'وحدات الطلب (تقدير)');
  assert.equal(await page.locator('.scan-meter .ru-estimate').getAttribute('data-ru'), '3');
  await page.locator('.compare-targets').click();
  await page.locator('.target-compare').waitFor();
  assert.deepEqual((await side(page, 'cosmos-table')).rows, ['p / 2', 'p / 5', 'p / 9']);
  assert.equal((await side(page, 'table-storage')).scanned, 10);
  assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 360);
  await page.locator('.target-compare').scrollIntoViewIfNeeded();
  await screenshot(page, 'cosmos-compare-ar-360');
  assertClean(page);
  await page.close();
});

test("on Cosmos the Code section's wire log shows each answer's estimated request units", async () => {
  const page = await open('en', DESKTOP);
  await seed(page);
  await page.locator('#nav-query').click();
  await page.locator('.target-option.cosmos-table input').check();
  await page.locator('.switch-target').click();
  await page.locator('.target-switched').waitFor();
  await openCode(page);
  await setCode(
    page,
    [
      'const orders = tableClient("Orders");',
      'await orders.createEntity({ partitionKey: "p", rowKey: "11", Color: "red" });',
      'await orders.getEntity("p", "2");',
      'for await (const e of orders.listEntities({ queryOptions: { filter: "Color eq \'red\'" } })) {}',
    ].join('\n'),
  );
  assert.equal((await runEditor(page)).kind, 'done');
  const entries = page.locator('.wire-entry');
  await entries.nth(2).waitFor();
  const ru = await entries.evaluateAll((lis) =>
    lis.map((li) => [li.dataset.method, li.querySelector('.wire-ru')?.dataset.ru, li.querySelector('.wire-ru')?.textContent]),
  );
  // An insert and a point read under 1 KB, then the index answering the filter: 4 entities read.
  assert.deepEqual(ru, [
    ['POST', '4.95', '4.95 RU (estimate)'],
    ['GET', '1', '1 RU (estimate)'],
    ['GET', '4', '4 RU (estimate)'],
  ]);
  assert.equal(await entries.nth(2).locator('.wire-query').getAttribute('data-scanned'), '4');
  // The exchange's details carry the estimate with how it is computed.
  await entries.nth(0).locator('summary').first().click();
  const estimate = entries.nth(0).locator('.wire-details .ru-estimate');
  assert.equal(await estimate.getAttribute('data-ru'), '4.95');
  assert.equal(
    await estimate.locator('.ru-model a').getAttribute('href'),
    'https://learn.microsoft.com/azure/cosmos-db/understand-request-unit-consumption',
  );
  await screenshot(page, 'cosmos-wire-log-en-desktop');
  assertClean(page);
  await page.close();
});

