// "Compare with …" for a staged batch: the batch sent as the SDKs send it to a copy of the
// tables on Table storage and on Cosmos DB for Table, side by side: statuses, each operation's
// Timestamp (one for the batch on storage, one per operation on Cosmos), request units against
// one billed transaction, and the wire answers; a batch with two operations on one entity is
// one failing part on storage and refused at the top on Cosmos. The workspace never changes.
// In English at 1280 px and in Arabic at 360 px.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { DESKTOP, PHONE, assertClean, openPage, rowKeysOf, screenshot, start } from './lib.mjs';

let env;
before(async () => {
  env = await start();
});
after(async () => {
  await env?.close();
});

/** The playground in `lang`, with table `Orders` holding one entity (p / 1), selected. */
async function open(lang, viewport) {
  const page = await openPage(env.browser, `${env.url}?lang=${lang}&perf=1`, { viewport });
  await page.locator('html[data-ready]').waitFor({ state: 'attached', timeout: 15_000 });
  const statuses = await page.evaluate(() => {
    const base = 'http://127.0.0.1:10002/devstoreaccount1';
    const headers = [['Accept', 'application/json;odata=nometadata'], ['Content-Type', 'application/json']];
    const post = (path, body) =>
      window.tablescope.wire({ method: 'POST', url: base + path, headers, body: JSON.stringify(body) }).status;
    return [post('/Tables', { TableName: 'Orders' }), post('/Orders', { PartitionKey: 'p', RowKey: '1' })];
  });
  assert.deepEqual(statuses, [201, 201]);
  await page.locator('[data-table="Orders"] .table-facts').click();
  await page.locator('#nav-batch').click();
  await page.locator('.by-hand summary').click();
  return page;
}

async function stage(page, op, rowKey) {
  await page.locator('#hand-op').selectOption(op);
  await page.locator('#hand-json').fill(`{"PartitionKey":"p","RowKey":"${rowKey}","Color":"green"}`);
  await page.locator('.stage-by-hand').click();
}

/** One side of the comparison. */
function side(page, target) {
  return page.locator(`.batch-compare .side-${target}`).evaluate((s) => ({
    status: s.querySelector('.cmp-status').textContent,
    cost: s.querySelector('.cmp-cost').textContent,
    parts: [...s.querySelectorAll('.cmp-parts li')].map((li) => [li.querySelector('.part-status').textContent, li.querySelector('.part-time').textContent]),
    refused: !s.querySelector('.cmp-refused').hidden,
    wire: s.querySelector('.cmp-wire').textContent,
    body: s.querySelector('.cmp-body pre').textContent,
  }));
}

/** The RowKeys of table Orders, in the order a whole-table query returns them. */
const rowKeys = (page) => rowKeysOf(page, 'Orders');

test('two inserts and a duplicate row, compared in English at 1280 px', async () => {
  const page = await open('en', DESKTOP);
  const button = page.locator('.compare-batch-targets');
  assert.equal(await button.isDisabled(), true, 'nothing staged');
  await stage(page, 'insert', '2');
  await stage(page, 'insert', '3');
  assert.equal(await button.textContent(), 'Compare with Azure Cosmos DB for Table');
  await button.click();
  await page.locator('.batch-compare .side-cosmos-table .cmp-parts li').nth(1).waitFor();
  const storage = await side(page, 'table-storage');
  const cosmos = await side(page, 'cosmos-table');
  assert.equal(storage.status, '202');
  assert.equal(cosmos.status, '202');
  assert.deepEqual(storage.parts.map((p) => p[0]), ['204', '204']);
  assert.deepEqual(cosmos.parts.map((p) => p[0]), ['204', '204']);
  // Storage stamps every insert of a batch with one Timestamp; Cosmos each operation with its own.
  assert.equal(storage.parts[0][1], storage.parts[1][1]);
  assert.match(storage.parts[0][1], /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
  assert.match(cosmos.parts[0][1], /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{7}Z$/);
  assert.ok(cosmos.parts[0][1] < cosmos.parts[1][1], `${cosmos.parts[0][1]} before ${cosmos.parts[1][1]}`);
  // Two inserts under 1 KB: 2 × 4.95 RU, against one billed transaction.
  assert.equal(cosmos.cost, '9.9 RU (estimate)');
  assert.equal(storage.cost, 'Billed transactions: 1');
  assert.match(storage.wire, /^HTTP\/1\.1 202 Accepted\nContent-Type: multipart\/mixed; boundary=batchresponse_/);
  assert.match(storage.wire, /\nx-ms-version: 2019-02-02/);
  assert.doesNotMatch(cosmos.wire, /x-ms-version/);
  // Cosmos numbers its parts, and ends its part headers in a bare LF where storage sends CRLF.
  assert.match(cosmos.body, /\nContent-ID: 1\\r\n/);
  assert.doesNotMatch(storage.body, /Content-ID/);
  assert.match(cosmos.body, /\nContent-Type: application\/http\nContent-Transfer-Encoding: binary\n\nHTTP\/1\.1 204 No Content\\r\n/);
  assert.match(storage.body, /\nContent-Type: application\/http\\r\nContent-Transfer-Encoding: binary\\r\n\\r\nHTTP\/1\.1 204 No Content\\r\n/);
  // Nothing changed: the table holds its one entity and the batch is still staged.
  assert.deepEqual(await rowKeys(page), ['1']);
  assert.equal(await page.locator('.staged-list li').count(), 2);
  await screenshot(page, 'batch-compare-en-desktop');

  // Two operations on one entity: one failing part on storage, refused at the top on Cosmos.
  await page.locator('.clear-batch').click();
  await stage(page, 'insert', '2');
  await stage(page, 'upsert-replace', '2');
  await button.click();
  await page.locator('.batch-compare .side-cosmos-table .cmp-status', { hasText: '400' }).waitFor();
  const storage2 = await side(page, 'table-storage');
  const cosmos2 = await side(page, 'cosmos-table');
  assert.equal(storage2.status, '202');
  assert.deepEqual(storage2.parts.map((p) => p[0]), ['400']);
  assert.equal(storage2.refused, false);
  assert.equal(cosmos2.refused, true);
  assert.deepEqual(cosmos2.parts, []);
  assert.match(cosmos2.body, /The batch request contains multiple changes with same row key/);
  assert.deepEqual(await rowKeys(page), ['1']);
  assertClean(page);
  await page.close();
});

test('in Arabic at 360 px the comparison fits the screen', async () => {
  const page = await open('ar', PHONE);
  await stage(page, 'insert', '2');
  await page.locator('.compare-batch-targets').click();
  await page.locator('.batch-compare .side-cosmos-table .cmp-parts li').first().waitFor();
  assert.equal(await page.locator('#batch-compare-heading').textContent(), 'الدفعة نفسها على الخدمتين');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.equal(overflow, 0);
  await page.locator('.batch-compare').scrollIntoViewIfNeeded();
  await screenshot(page, 'batch-compare-ar-phone');
  assertClean(page);
  await page.close();
});
