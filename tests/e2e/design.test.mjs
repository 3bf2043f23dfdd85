// Issue #13: the Design section in headless Chromium. A design built from nothing through the
// form, 100,000 entities generated into the sandbox, every pattern evaluated, the projection
// to 10⁹ and the checklist read back with exact figures (the model is deterministic: same
// design and seed, same data and figures); export → import and share link round trips
// exact; two gallery designs compared side by side.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readFile } from 'node:fs/promises';
import { DESKTOP, assertClean, start } from './lib.mjs';
import { checklist, designJson, evaluate, generate, openDesign, put, rowCells } from './design-lib.mjs';

const SHOTS = '/tmp/shots-design';
let env;
before(async () => {
  env = await start();
  await mkdir(SHOTS, { recursive: true });
});
after(async () => {
  await env?.close();
});

/** Builds the "Shop orders" design field by field, as a person would. */
async function buildOrders(page) {
  await page.locator('button.new-design').click();
  await put(page.locator('input.design-name'), 'Shop orders');
  await put(page.locator('input.design-seed'), '7');
  await page.locator('input.new-table').fill('Orders');
  await page.locator('button.add-table').click();
  await page.locator('button.add-type').click();
  const ty = page.locator('fieldset.design-type[data-index="0"]');
  await put(ty.locator('input.type-name'), 'Order');
  await put(ty.locator('input.type-count'), '100000');
  await put(ty.locator('input.type-pk'), '{CustomerId}');
  await put(ty.locator('input.type-rk'), 'ord_{OrderId:08}');
  const props = [
    ['CustomerId', 'String', 'uniform', '1..500', 'cust', 4],
    ['OrderId', 'Int64', 'sequential', '1', '', 0],
    ['Total', 'Int32', 'uniform', '1..1000', '', 0],
    ['Placed', 'DateTime', 'timestamps', '2026-01-01T00:00:00Z .. 2026-11-01T00:00:00Z', '', 0],
  ];
  for (const [j, [name, type, dist, params, prefix, pad]] of props.entries()) {
    await ty.locator('button.add-prop').click();
    const row = ty.locator(`li.design-prop[data-index="${j}"]`);
    await put(row.locator('input.prop-name'), name);
    await row.locator('select.prop-type').selectOption(type);
    await row.locator('select.prop-dist').selectOption(dist);
    await put(row.locator('input.prop-params'), params);
    if (prefix) await put(row.locator('input.prop-prefix'), prefix);
    if (pad) await put(row.locator('input.prop-pad'), String(pad));
  }
  const patterns = [
    ['read', 'Order by id', '100', 'PartitionKey, RowKey'],
    ['read', 'Orders of a customer', '10', 'PartitionKey', 'OrderId, Total'],
    ['read', 'Orders with a total', '1', 'Total'],
    ['write', 'Place an order', '50'],
  ];
  for (const [i, [kind, name, rate, conditions, needs]] of patterns.entries()) {
    await page.locator(kind === 'read' ? 'button.add-read' : 'button.add-write').click();
    const p = page.locator(`li.design-pattern[data-index="${i}"]`);
    await put(p.locator('input.pattern-name'), name);
    await put(p.locator('input.pattern-rate'), rate);
    if (conditions) await put(p.locator('input.pattern-conditions'), conditions);
    if (needs) {
      await put(p.locator('input.pattern-needs'), needs);
      await p.locator('input.pattern-select').check();
    }
  }
}

test('a design built from nothing: generate 100,000, evaluate, project to 10⁹, checklist', async () => {
  const page = await openDesign(env, { viewport: DESKTOP });
  await buildOrders(page);
  assert.equal(await page.locator('.design-problems li').count(), 0, await page.locator('.design-problems').textContent());
  assert.equal(await page.locator('.generate-total').textContent(), 'The generator writes 100,000 entities.');

  const status = await generate(page);
  assert.match(status, /^Generated 100,000 entities in [\d.]+ s\.$/);
  // Ordinary sandbox data: the tables sidebar counts it.
  await page.locator('[data-table="Orders"]').waitFor();
  assert.match(await page.locator('[data-table="Orders"]').textContent(), /100,000/);

  await evaluate(page);
  const point = await rowCells(page, 'measured', 0);
  assert.deepEqual(point, {
    name: 'Order by id', kind: 'point', scanned: '1', returned: '1', pages: '1',
    bytes: point.bytes, 'bytes-select': point['bytes-select'], partitions: '1', batch: '',
  });
  await page.screenshot({ path: `${SHOTS}/evaluated.png`, fullPage: true });

  // Projected vs measured at 100,000: within 1% for every pattern.
  const gaps = await page.locator('table.versus td.v-gap').allTextContents();
  assert.equal(gaps.length, 4);
  for (const g of gaps) assert.ok(Number(g.replace('%', '')) <= 1, `gap ${g}`);

  // The projection to 10⁹ (the default target).
  await put(page.locator('input.design-target'), '1e9');
  const customer = await rowCells(page, 'projected', 1);
  assert.equal(customer.kind, 'partition scan');
  const findings = await checklist(page);
  assert.equal(Object.keys(findings).length, 9);
  const measured = [];
  for (let i = 0; i < 4; i += 1) measured.push(await rowCells(page, 'measured', i));
  const versus = [];
  for (let i = 0; i < 4; i += 1) versus.push(await rowCells(page, 'versus', i));
  console.log(JSON.stringify({ measured, versus, point, customer, findings, projected: await rowCells(page, 'projected', 2),
    write: await rowCells(page, 'projected', 3),
    summary: await page.locator('.design-summary').textContent(), hottest: await page.locator('.design-hottest').textContent() }, null, 1));
  await page.screenshot({ path: `${SHOTS}/projected.png`, fullPage: true });
  for (const part of ['design-editor', 'design-patterns', 'design-evaluate', 'design-project', 'design-checklist']) {
    await page.locator(`section.${part}`).screenshot({ path: `${SHOTS}/${part}.png` });
  }
  assertClean(page);
  await page.context().close();
});

test('export then import, and a share link, give back the design exactly; bad JSON changes nothing', async () => {
  const page = await openDesign(env, { viewport: DESKTOP });
  await buildOrders(page);
  const built = await designJson(page);
  assert.equal(built.name, 'Shop orders');

  const [download] = await Promise.all([page.waitForEvent('download'), page.locator('button.export-design').click()]);
  assert.equal(download.suggestedFilename(), 'Shop-orders.design.json');
  const exported = await readFile(await download.path(), 'utf8');
  assert.deepEqual(JSON.parse(exported), built);

  // Bad JSON: a clear message, and the design stays as it was.
  const file = page.locator('input.import-file');
  await file.setInputFiles({ name: 'broken.json', mimeType: 'application/json', buffer: Buffer.from('{"version": 1, "name": ') });
  await page.locator('.design-notice', { hasText: 'This is not a design file, nothing was changed:' }).waitFor();
  assert.deepEqual(await designJson(page), built);
  await file.setInputFiles({ name: 'future.json', mimeType: 'application/json', buffer: Buffer.from(exported.replace('"version": 1', '"version": 9')) });
  await page.locator('.design-notice', { hasText: 'This design file has version 9; this Tablescope reads version 1. Nothing was changed.' }).waitFor();
  assert.deepEqual(await designJson(page), built);

  // Import into a new, empty design: the exported text comes back byte for byte.
  await page.locator('button.new-design').click();
  assert.equal((await designJson(page)).tables.length, 0);
  await file.setInputFiles({ name: 'orders.json', mimeType: 'application/json', buffer: Buffer.from(exported) });
  await page.locator('.design-notice', { hasText: 'Imported the design Shop orders.' }).waitFor();
  assert.deepEqual(await designJson(page), built);
  const [again] = await Promise.all([page.waitForEvent('download'), page.locator('button.export-design').click()]);
  assert.equal(await readFile(await again.path(), 'utf8'), exported);

  // The share link opens the same design in a fresh browser profile.
  await page.locator('button.share-design').click();
  const link = await page.locator('input.design-link').inputValue();
  assert.match(link, /#design=[A-Za-z0-9_-]+$/);
  const other = await openDesign(env, { viewport: DESKTOP, hash: link.slice(link.indexOf('#')) });
  await other.locator('.design-notice', { hasText: 'Opened the design Shop orders from the link.' }).waitFor();
  assert.deepEqual(await designJson(other), built);
  assert.equal(await other.evaluate(() => location.hash), '');
  assertClean(page);
  assertClean(other);
  await page.context().close();
  await other.context().close();
});

test('two gallery designs side by side: the hot partition and its bucketed fix', async () => {
  const page = await openDesign(env, { viewport: DESKTOP });
  const cmp = page.locator('.design-compare');
  await cmp.locator('select.compare-left').selectOption('date-keyed-hot-partition');
  await cmp.locator('select.compare-right').selectOption('date-keyed-bucketed');
  const row = async (id) => cmp.locator(`tr[data-row="${id}"]`).evaluate((tr) => [tr.querySelector('.left').textContent, tr.querySelector('.right').textContent]);
  assert.deepEqual(await row('name'), ['Date-keyed events (hot partition)', 'Date-keyed events, bucketed (the fix)']);
  const spread = await row('rule-write-spread');
  const sim = await row('simulator');
  const all = {};
  for (const id of ['account', 'hottest', 'cost', 'pattern-0', 'rule-append-only', 'rule-write-spread', 'simulator']) all[id] = await row(id);
  console.log(JSON.stringify(all, null, 1));
  assert.deepEqual(spread, ['Fail', 'Pass']);
  assert.match(sim[0], /^Record an event: 30,000 writes, [1-9][\d,]* throttled$/);
  assert.match(sim[1], /^Record an event: 30,000 writes, 0 throttled$/);
  await page.screenshot({ path: `${SHOTS}/compare.png`, fullPage: true });
  assertClean(page);
  await page.context().close();
});
