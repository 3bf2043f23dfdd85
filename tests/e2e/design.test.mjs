// The Design section in headless Chromium. A design built from nothing through the
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
  const row = (name, kind, scanned, returned, pages, bytes, selected, partitions, batch) =>
    ({ name, kind, scanned, returned, pages, bytes, 'bytes-select': selected, partitions, batch });
  const measured = [];
  for (let i = 0; i < 4; i += 1) measured.push(await rowCells(page, 'measured', i));
  assert.deepEqual(measured, [
    row('Order by id', 'point', '1', '1', '1', '319 / 320', '319 / 320', '1', ''),
    row('Orders of a customer', 'partition scan', '200', '200', '1', '63,925 / 63,952', '25,543 / 25,566', '1', ''),
    // Total is uniform over 1..1000: one value in a thousand, 100 of 100,000, in pages of the
    // scan budget; the entity size is sampled on the first page's matches (about 10 of them).
    row('Orders with a total', 'table scan', '100,000', '100', '10', '31,946 / 31,992', '31,946 / 31,992', '500', ''),
    row('Place an order', 'write', '1', '0', '1', '0', '0', '1', 'yes'),
  ]);
  await page.screenshot({ path: `${SHOTS}/evaluated.png`, fullPage: true });

  // Projected vs measured at 100,000: equal for every pattern (the issue asks within 1%).
  assert.equal(await page.locator('.design-versus h2').textContent(), 'Projected vs measured at 100,000');
  const versus = [];
  for (let i = 0; i < 4; i += 1) versus.push(await rowCells(page, 'versus', i));
  assert.deepEqual(versus, [
    { name: 'Order by id', scanned: '1 / 1', returned: '1 / 1', pages: '1 / 1', gap: '0%',
      selectivity: '0% / 0%', why: 'agree within sampling error (± 0%)' },
    { name: 'Orders of a customer', scanned: '200 / 200', returned: '200 / 200', pages: '1 / 1', gap: '0%',
      selectivity: '0.2% / 0.2%', why: 'agree within sampling error (± 0%)' },
    { name: 'Orders with a total', scanned: '100,000 / 100,000', returned: '100 / 100', pages: '10 / 10', gap: '0%',
      selectivity: '0.1% / 0.1%', why: 'agree within sampling error (± 0%)' },
    { name: 'Place an order', scanned: '1 / 1', returned: '0 / 0', pages: '1 / 1', gap: '0%', selectivity: '', why: '' },
  ]);
  // Each read pattern's $filter as sent (the first draw).
  const codes = page.locator('.design-code li');
  assert.equal(await codes.count(), 3);
  const filter = await codes.nth(0).locator('.pattern-filter').textContent();
  assert.match(filter, /^PartitionKey eq 'cust\d{4}' and RowKey eq 'ord_\d{8}'$/);
  // …and as SDK code (the show-as-code generators), the same filter in it.
  const show = codes.nth(0).locator('.show-code');
  await show.locator('.show-code-toggle').click();
  await show.locator('.code-form[data-form="js"]').waitFor({ timeout: 20_000 });
  const js = await show.locator('.code-form[data-form="js"]').textContent();
  assert.ok(js.includes(filter.replaceAll("'", "''")) || js.includes(filter), js);

  // The projection to 10⁹ entities.
  await put(page.locator('input.design-target'), '1e9');
  await page.locator('table.projected caption', { hasText: 'Projected at 1,000,000,000 entities' }).waitFor();
  // From a million on, the short form, the exact figures in the cell's title.
  assert.deepEqual(await rowCells(page, 'projected', 1), {
    name: 'Orders of a customer', kind: 'partition scan', scanned: '2M', returned: '2M',
    pages: '2,000', bytes: '649M / 650M', 'bytes-select': '263M / 264M', partitions: '1', batch: '',
    load: '20M', hot: '40,000 (2,000%)', tx: '52.6B',
  });
  assert.deepEqual(await rowCells(page, 'projected', 2), {
    name: 'Orders with a total', kind: 'table scan', scanned: '1B', returned: '1M',
    pages: '100,000', bytes: '325M / 325M', 'bytes-select': '325M / 325M', partitions: '500', batch: '',
    load: '1B', hot: '2M (100,000%)', tx: '263B',
  });
  // The projection's tables fit the main column at 1280 px without scrolling sideways.
  for (const table of ['projected', 'projected-load']) {
    const [wide, room] = await page.locator(`table.${table}`).evaluate((t) => [t.parentElement.scrollWidth, t.parentElement.clientWidth]);
    assert.ok(wide <= room, `table.${table}: ${wide} px in ${room} px`);
  }
  assert.equal(await page.locator('table.projected-load caption').textContent(),
    'Load at 1,000,000,000 entities: per second, on the hottest partition, and transactions a month');
  assert.deepEqual(await rowCells(page, 'projected', 1, { exact: true }), {
    name: 'Orders of a customer', kind: 'partition scan', scanned: '2,000,000', returned: '2,000,000',
    pages: '2,000', bytes: '649,375,000 / 650,000,000', 'bytes-select': '263,375,000 / 264,000,000', partitions: '1', batch: '',
    load: '20,000,000', hot: '40,000 (2,000%)', tx: '52,560,000,000',
  });
  assert.deepEqual(await rowCells(page, 'projected', 2, { exact: true }), {
    name: 'Orders with a total', kind: 'table scan', scanned: '1,000,000,000', returned: '1,000,000',
    pages: '100,000', bytes: '324,500,000 / 325,000,000', 'bytes-select': '324,500,000 / 325,000,000', partitions: '500', batch: '',
    load: '1,000,000,000', hot: '2,000,000 (100,000%)', tx: '262,800,000,000',
  });
  assert.deepEqual(await rowCells(page, 'projected', 3), {
    name: 'Place an order', kind: 'write', scanned: '1', returned: '0', pages: '1', bytes: '0',
    'bytes-select': '0', partitions: '1', batch: 'yes', load: '50', hot: '0.1 (0%)', tx: '131M',
  });
  const text = (sel) => page.locator(sel).textContent();
  assert.equal(await text('.s-account'), '1,020,000,150 (5,100,001%)');
  assert.equal(await text('.s-stored'), '174 GB');
  assert.equal(await text('.s-cost-tx'), '11,367.15 USD');
  assert.equal(await text('.s-cost-storage'), '7.82 USD');
  assert.equal(await text('.s-cost'), '11,374.97 USD');
  assert.equal(await text('.design-hottest'), "Hottest partition: cust0001 in Orders, 2,000,000 entities/s (100,000% of 2,000/s), 0.2% of the account's load.");
  // The price table is dated, names its source, and is editable.
  await page.locator('details.design-prices summary').click();
  assert.equal(await text('details.design-prices summary'), 'Prices as of 2026-11-23, from https://azure.microsoft.com/en-us/pricing/details/storage/tables/ (editable)');
  await put(page.locator('input.price-tx'), '0.00072');
  assert.equal(await text('.s-cost-tx'), '22,734.30 USD');

  // The checklist: every item graded, with its figures, the element to blame and the lesson.
  const findings = await checklist(page);
  assert.deepEqual(Object.fromEntries(Object.entries(findings).map(([k, v]) => [k, v.grade])), {
    'query-scope': 'fail', 'query-density': 'fail', projection: 'pass', denormalisation: 'pass',
    batches: 'pass', upsert: 'pass', 'append-only': 'pass', 'write-spread': 'pass', 'data-series': 'pass',
  });
  assert.deepEqual(findings['query-scope'], {
    // Weighed by load: the table scan at 1 call/s scans 10⁹ entities per call.
    grade: 'fail', evidence: "A table scan takes 98% of the account's load (entities scanned per second): a table scan fails from 10%, whatever its rate.", blame: 'Orders with a total',
    item: 'Is your schema designed so that most reads are point queries and table queries are rare?',
    source: 'translation',
    cite: 'Our translation of the German performance checklist item: the English design guide has no such sentence.',
    original: 'Abfragebereich: Haben Sie Ihr Schema so konzipiert, dass in den meisten Fällen Punktabfragen verwendet werden können und Tabellenabfragen nur sparsam erfolgen?',
    lesson: './?scenario=query-kinds.json#learn',
  });
  assert.deepEqual(findings['query-density'], {
    grade: 'fail', evidence: '1,000 entities scanned per entity returned at worst (pass up to 5).', blame: 'Orders with a total',
    item: 'Do your queries usually scan only the rows your application will use?',
    source: 'translation',
    cite: 'Our translation of the German performance checklist item: the English design guide has no such sentence.',
    original: 'Abfragedichte: Erfassen Ihre Abfragen normalerweise nur Zeilen für die Rückgabe, die Ihre Anwendung auch verwenden wird?',
    lesson: './?scenario=index-entities.json#learn',
  });
  assert.equal(findings['write-spread'].evidence, 'The busiest partition takes 0.1 entities/s against the 2,000/s target.');
  assert.deepEqual(await rowCells(page, 'projected', 0), {
    name: 'Order by id', kind: 'point', scanned: '1', returned: '1', pages: '1', bytes: '325 / 325',
    'bytes-select': '325 / 325', partitions: '1', batch: '', load: '100', hot: '0.2 (0%)', tx: '263M',
  });
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
  const p = (name, type, distribution, extra = {}) => ({ name, type, distribution, ...extra });
  assert.deepEqual(built, {
    version: 1, name: 'Shop orders', seed: 7, tables: ['Orders'],
    entityTypes: [{
      name: 'Order', table: 'Orders', partitionKey: '{CustomerId}', rowKey: 'ord_{OrderId:08}', count: 100000,
      properties: [
        p('CustomerId', 'String', { kind: 'uniform', min: 1, max: 500 }, { prefix: 'cust', pad: 4 }),
        p('OrderId', 'Int64', { kind: 'sequential', start: 1 }),
        p('Total', 'Int32', { kind: 'uniform', min: 1, max: 1000 }),
        p('Placed', 'DateTime', { kind: 'timestamps', from: '2026-01-01T00:00:00Z', to: '2026-11-01T00:00:00Z' }),
      ],
    }],
    patterns: [
      { kind: 'read', name: 'Order by id', entityType: 'Order', rate: 100, select: false, fanOut: false,
        conditions: [{ on: 'PartitionKey', op: 'eq' }, { on: 'RowKey', op: 'eq' }] },
      { kind: 'read', name: 'Orders of a customer', entityType: 'Order', rate: 10, select: true, fanOut: false,
        conditions: [{ on: 'PartitionKey', op: 'eq' }], needs: ['OrderId', 'Total'] },
      { kind: 'read', name: 'Orders with a total', entityType: 'Order', rate: 1, select: false, fanOut: false,
        conditions: [{ on: 'Total', op: 'eq' }] },
      { kind: 'write', name: 'Place an order', op: 'insert', entityTypes: ['Order'], rate: 50, batch: false, readFirst: false },
    ],
  });

  // Kept beside the workspace (tablescope.design): a reload brings the design back.
  await page.reload();
  await page.locator('html[data-ready]').waitFor({ state: 'attached', timeout: 20_000 });
  await page.locator('#nav-design').click();
  await page.locator('input.design-name').waitFor();
  assert.equal(await page.locator('input.design-name').inputValue(), 'Shop orders');
  assert.deepEqual(await designJson(page), built);

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
  // The link is made asynchronously (the browser's deflate).
  await page.waitForFunction(() => document.querySelector('input.design-link')?.value !== '');
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
  // The starter gallery opens the guide's examples as designs.
  const names = [];
  for (const id of ['employees-by-department', 'email-index', 'log-tail', 'date-keyed-hot-partition', 'date-keyed-bucketed']) {
    const before = await page.locator('input.design-name').inputValue();
    await page.locator(`.gallery-open[data-gallery="${id}"]`).click();
    await page.waitForFunction((b) => document.querySelector('input.design-name').value !== b, before);
    names.push(await page.locator('input.design-name').inputValue());
  }
  assert.deepEqual(names, ['Employees by department', 'The email index', 'The log tail', 'Date-keyed events (hot partition)', 'Date-keyed events, bucketed (the fix)']);
  const cmp = page.locator('.design-compare');
  await cmp.locator('select.compare-left').selectOption('date-keyed-hot-partition');
  await cmp.locator('select.compare-right').selectOption('date-keyed-bucketed');
  // The gallery designs are fetched on first use.
  await cmp.locator('table.design-comparison thead th', { hasText: 'Date-keyed events (hot partition)' }).waitFor();
  await cmp.locator('table.design-comparison thead th', { hasText: 'Date-keyed events, bucketed (the fix)' }).waitFor();
  const row = async (id) => cmp.locator(`tr[data-row="${id}"]`).evaluate((tr) => [tr.querySelector('.left').textContent, tr.querySelector('.right').textContent]);
  assert.deepEqual(await row('name'), ['Date-keyed events (hot partition)', 'Date-keyed events, bucketed (the fix)']);
  // Both projected to the same size (the target, 10⁹ entities), with the same prices.
  assert.deepEqual(await row('account'), ['336,383 (1,682%)', '336,383 (1,682%)']);
  // The hottest partition against its own 2,000/s target, and as a share of the account's load.
  assert.deepEqual(await row('hottest'), [
    "2026-11-06 · 11,113 (556% of its 2,000/s; 3.3% of the account's load)",
    "00_2026-11-06 · 694 (34.7% of its 2,000/s; 0.2% of the account's load)",
  ]);
  assert.deepEqual(await row('cost'), ['327.36 USD', '327.64 USD']);
  assert.deepEqual(await row('pattern-0'), ['Record an event: write, scanned 1, returned 0, pages 1', 'Record an event: write, scanned 1, returned 0, pages 1']);
  assert.deepEqual(await row('rule-append-only'), ['Fail', 'Pass']);
  assert.deepEqual(await row('rule-write-spread'), ['Fail', 'Pass']);
  assert.deepEqual(await row('rule-query-scope'), ['Pass', 'Pass']);
  // The throughput simulator, 10 s of each design's writes: the hot partition throttles.
  assert.deepEqual(await row('simulator'), ['Record an event: 30,000 writes, 113,752 throttled', 'Record an event: 30,000 writes, 0 throttled']);
  await page.screenshot({ path: `${SHOTS}/compare.png`, fullPage: true });
  assertClean(page);
  await page.context().close();
});
