// The projection explains its scaling: an orders design (30,000 orders of customers
// uniform 1..10000 beside 70,000 events) projected to 10⁹ entities keeps 10,000 customers,
// so "orders of a customer" returns 30,000 per call; switched to growing with the entity
// count, CustomerId reaches 1..100000000 and the call returns 3. The scaling table says so,
// in English and Dutch, and the property form shows the same choice.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { DESKTOP, assertClean, start } from './lib.mjs';
import { designJson, openDesign, rowCells } from './design-lib.mjs';

const SHOTS = 'tests/e2e/screenshots';
let env;
before(async () => {
  env = await start();
  await mkdir(SHOTS, { recursive: true });
});
after(async () => {
  await env?.close();
});

const prop = (name, type, distribution) => ({ name, type, distribution });
const ORDERS = {
  version: 1, name: 'Orders', seed: 5, tables: ['Orders', 'Events'],
  entityTypes: [{
    name: 'Order', table: 'Orders', partitionKey: 'c{CustomerId:05}', rowKey: 'o{OrderId:09}', count: 30000,
    properties: [
      prop('OrderId', 'Int64', { kind: 'sequential', start: 1 }),
      prop('CustomerId', 'Int32', { kind: 'uniform', min: 1, max: 10000 }),
      prop('Status', 'String', { kind: 'choice', values: ['new', 'paid', 'sent', 'done'] }),
    ],
  }, {
    name: 'Event', table: 'Events', partitionKey: 'e{EventId:010}', rowKey: 'x', count: 70000,
    properties: [prop('EventId', 'Int64', { kind: 'sequential', start: 1 })],
  }],
  patterns: [
    { kind: 'read', name: 'orders of a customer', entityType: 'Order', rate: 10, conditions: [{ on: 'PartitionKey', op: 'eq' }] },
    { kind: 'read', name: 'orders by status', entityType: 'Order', rate: 0.001, conditions: [{ on: 'Status', op: 'eq' }] },
  ],
};

/** The scaling table: "Type · Property" → [declared, at the target, distinct, scale]. */
async function scalingRows(page) {
  return page.locator('table.design-scaling tbody tr').evaluateAll((rows) =>
    Object.fromEntries(rows.map((tr) => {
      const cell = (c) => tr.querySelector(c).textContent;
      const select = tr.querySelector('select.sc-choice');
      const scale = select ? select.selectedOptions[0].textContent : cell('.sc-scale');
      return [tr.dataset.property, [cell('.sc-declared'), cell('.sc-target'), cell('.sc-distinct'), scale]];
    })));
}

const TEXT = {
  en: {
    caption: 'How the properties scale to 1,000,000,000 entities',
    fixed: 'keeps its range', grows: 'grows with the count',
    unique: 'unique per entity', listed: 'keeps its listed values',
    n: (x) => x.toLocaleString('en-US'), returnedFixed: '30,000', pagesFixed: '30', hundredMillion: '100M',
    head: ['Property', 'Declared', 'At the target size', 'Distinct values', 'At other sizes'],
  },
  nl: {
    caption: 'Hoe de eigenschappen schalen naar 1.000.000.000 entiteiten',
    fixed: 'houdt het bereik', grows: 'groeit mee met het aantal',
    unique: 'uniek per entiteit', listed: 'houdt de opgesomde waarden',
    n: (x) => x.toLocaleString('nl-NL'), returnedFixed: '30.000', pagesFixed: '30', hundredMillion: '100\u00a0mln.',
    head: ['Eigenschap', 'Gedeclareerd', 'Op de doelgrootte', 'Verschillende waarden', 'Bij andere groottes'],
  },
};

for (const lang of ['en', 'nl']) {
  test(`${lang}: CustomerId fixed gives 30,000 orders a call at 10⁹, growing gives 3, and the table says why`, async () => {
    const want = TEXT[lang];
    const page = await openDesign(env, { viewport: DESKTOP, hash: `?lang=${lang}` });
    await page.locator('input.import-file').setInputFiles({
      name: 'orders.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(ORDERS)),
    });
    await page.waitForFunction(() => document.querySelector('input.design-name')?.value === 'Orders');
    assert.equal(await page.locator('input.design-target').inputValue(), '1000000000');

    const scaling = page.locator('table.design-scaling');
    await scaling.waitFor();
    assert.equal(await scaling.locator('caption').textContent(), want.caption);
    assert.deepEqual(await scaling.locator('thead th').allTextContents(), want.head);
    // It fits the 1280 px page without scrolling sideways.
    assert.ok(await scaling.evaluate((t) => t.parentElement.scrollWidth <= t.parentElement.clientWidth));
    assert.deepEqual(await scalingRows(page), {
      'Order · OrderId': ['1', '1..300000000', want.n(300_000_000), want.unique],
      'Order · CustomerId': ['1..10000', '1..10000', want.n(10_000), want.fixed],
      'Order · Status': ['new, paid, sent, done', 'new, paid, sent, done', '4', want.listed],
      'Event · EventId': ['1', '1..700000000', want.n(700_000_000), want.unique],
    });
    let ofCustomer = await rowCells(page, 'projected', 0);
    assert.equal(ofCustomer.name, 'orders of a customer');
    assert.equal(ofCustomer.returned, want.returnedFixed);
    assert.equal(ofCustomer.pages, want.pagesFixed);
    assert.equal((await rowCells(page, 'projected', 1)).partitions, want.n(10_000));

    // CustomerId grows: 1..10000 at 30,000 orders is 1..100000000 at 300,000,000.
    await scaling.locator('tr[data-property="Order · CustomerId"] select.sc-choice').selectOption('grows');
    await page.waitForFunction(() =>
      document.querySelector('table.projected tr[data-pattern="0"] .f-returned')?.textContent === '3');
    ofCustomer = await rowCells(page, 'projected', 0);
    assert.equal(ofCustomer.returned, '3');
    assert.equal(ofCustomer.pages, '1');
    assert.equal((await rowCells(page, 'projected', 1)).partitions, want.hundredMillion);
    assert.equal((await rowCells(page, 'projected', 1, { exact: true })).partitions, want.n(100_000_000));
    const rows = await scalingRows(page);
    assert.deepEqual(rows['Order · CustomerId'], ['1..10000', '1..100000000', want.n(100_000_000), want.grows]);
    assert.ok(await scaling.locator('tr[data-property="Order · CustomerId"]').evaluate((tr) => tr.classList.contains('sc-grew')));
    // The property form shows the same choice, and the design keeps it.
    const form = page.locator('.design-type[data-index="0"] li.design-prop[data-index="1"] select.prop-scale');
    assert.equal(await form.inputValue(), 'grows');
    // Sequential and choice properties offer no such choice in the form.
    assert.equal(await page.locator('.design-type[data-index="0"] li.design-prop[data-index="0"] select.prop-scale').count(), 0);
    assert.equal(await page.locator('.design-type[data-index="0"] li.design-prop[data-index="2"] select.prop-scale').count(), 0);
    const saved = await designJson(page);
    assert.equal(saved.entityTypes[0].properties[1].scale, 'grows');
    assert.equal(saved.entityTypes[0].properties[0].scale, undefined);

    if (lang === 'en') {
      await page.locator('section.design-project').screenshot({ path: `${SHOTS}/design-scaling.png` });
    }
    // Back through the form: fixed again, 30,000 a call.
    await form.selectOption('fixed');
    await page.waitForFunction((n) =>
      document.querySelector('table.projected tr[data-pattern="0"] .f-returned')?.textContent === n, want.returnedFixed);
    assert.deepEqual((await scalingRows(page))['Order · CustomerId'], ['1..10000', '1..10000', want.n(10_000), want.fixed]);
    await assertClean(page);
    await page.close();
  });
}
