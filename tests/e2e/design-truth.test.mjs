// The Design section tells the truth about its data: an orders design generated at 100,000
// entities holds every declared value (counted back from the tables beside the declared
// ones), its status filter is measured at the declared share within sampling error, and a
// rare admin scan that dominates the load fails "query scope".

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { DESKTOP, assertClean, start } from './lib.mjs';
import { checklist, designJson, evaluate, generate, openDesign, put, rowCells } from './design-lib.mjs';

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
  version: 1, name: 'Orders', seed: 5, tables: ['Orders'],
  entityTypes: [{
    name: 'Order', table: 'Orders', partitionKey: 'c{CustomerId:05}', rowKey: 'o{OrderId:07}', count: 100000,
    properties: [
      prop('OrderId', 'Int64', { kind: 'sequential', start: 1 }),
      prop('CustomerId', 'Int32', { kind: 'uniform', min: 1, max: 10000 }),
      prop('Status', 'String', { kind: 'choice', values: ['new', 'paid', 'shipped', 'void'] }),
      prop('Total', 'Double', { kind: 'uniform', min: 5, max: 500 }),
    ],
  }],
  patterns: [
    { kind: 'read', name: 'Orders with a status', entityType: 'Order', rate: 0.1, conditions: [{ on: 'Status', op: 'eq' }] },
    { kind: 'read', name: 'Orders of a customer', entityType: 'Order', rate: 5, conditions: [{ on: 'PartitionKey', op: 'eq' }] },
  ],
};

async function importDesign(page, design) {
  await page.locator('input.import-file').setInputFiles({
    name: 'orders.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(design)),
  });
  await page.locator('.design-notice', { hasText: `Imported the design ${design.name}.` }).waitFor();
}

/** The profile table's rows: property → {values, top, share, ok}. */
async function profileRows(page) {
  return page.locator('table.profile tbody tr').evaluateAll((rows) =>
    Object.fromEntries(rows.map((tr) => [tr.dataset.property, {
      values: tr.querySelector('.p-values').textContent,
      top: tr.querySelector('.p-top').textContent,
      share: tr.querySelector('.p-share').textContent,
      ok: tr.querySelector('.p-ok').textContent,
    }])));
}

test('orders at 100,000: every declared value in the data, the status filter at its declared quarter', async () => {
  const page = await openDesign(env, { viewport: DESKTOP });
  await importDesign(page, ORDERS);
  const status = await generate(page, 300_000);
  assert.match(status, /100,000/);
  await page.locator('table.profile tbody tr').first().waitFor({ timeout: 120_000 });
  const rows = await profileRows(page);
  // Declared / in the data: every value, as the counts read back from the table.
  assert.deepEqual(rows.Status, { values: '4 / 4', top: 'new', share: '25% / 25%', ok: 'yes' });
  assert.equal(rows.CustomerId.values, '10,000 / 10,000');
  assert.equal(rows.Total.values, '496 / 496');
  assert.equal(rows.CustomerId.ok, 'yes');
  assert.equal(rows.Total.ok, 'yes');
  await page.locator('section.design-generate').screenshot({ path: `${SHOTS}/design-profile.png` });

  await evaluate(page);
  await page.locator('table.versus tbody tr').first().waitFor({ timeout: 60_000 });
  const byStatus = await rowCells(page, 'versus', 0);
  assert.equal(byStatus.name, 'Orders with a status');
  // One property is stratified exactly: 25,000 of 100,000 for any status drawn.
  assert.equal(byStatus.selectivity, '25% / 25%');
  assert.match(byStatus.why, /^agree within sampling error/);
  const byCustomer = await rowCells(page, 'versus', 1);
  assert.match(byCustomer.why, /^agree within sampling error/);
  await page.locator('section.design-versus').screenshot({ path: `${SHOTS}/design-versus.png` });
  // The comparison fits 1280 px without scrolling sideways.
  const overflow = await page.locator('section.design-versus .compare-scroll').evaluate((e) => e.scrollWidth - e.clientWidth);
  assert.ok(overflow <= 0, `the comparison scrolls by ${overflow} px`);
  assertClean(page);
  await page.context().close();
});

test('weighted choices are typed in the form as value:weight', async () => {
  const page = await openDesign(env, { viewport: DESKTOP });
  await importDesign(page, ORDERS);
  const row = page.locator('fieldset.design-type[data-index="0"] li.design-prop[data-index="2"]');
  await put(row.locator('input.prop-params'), 'new:1, paid:6, shipped:2, void:1');
  const d = await designJson(page);
  assert.deepEqual(d.entityTypes[0].properties[2].distribution,
    { kind: 'choice', values: ['new', 'paid', 'shipped', 'void'], weights: [1, 6, 2, 1] });
  assert.equal(await row.locator('input.prop-params').inputValue(), 'new:1, paid:6, shipped:2, void:1');
  assertClean(page);
  await page.context().close();
});

test('a rare admin scan that takes most of the load fails query scope', async () => {
  const page = await openDesign(env, { viewport: DESKTOP });
  const admin = structuredClone(ORDERS);
  admin.name = 'Orders with an admin export';
  admin.patterns = [
    { kind: 'read', name: 'Order by id', entityType: 'Order', rate: 2000,
      conditions: [{ on: 'PartitionKey', op: 'eq' }, { on: 'RowKey', op: 'eq' }] },
    { kind: 'read', name: 'Admin export', entityType: 'Order', rate: 0.1, conditions: [{ on: 'Total', op: 'eq' }] },
  ];
  await importDesign(page, admin);
  const items = await checklist(page);
  assert.equal(items['query-scope'].grade, 'fail');
  assert.equal(items['query-scope'].blame, 'Admin export');
  // At 10⁹ entities: 0.1 × 10⁹ scanned per second against 2,000.
  assert.match(items['query-scope'].evidence, /^A table scan takes 100% of the account's load .*fails from 10%/);
  await page.locator('section.design-checklist').screenshot({ path: `${SHOTS}/design-admin-scan.png` });
  assertClean(page);
  await page.context().close();
});
