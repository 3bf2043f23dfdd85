// The Design form expresses the guide's designs without the JSON editor: a RowKey prefix
// through a template field ("the lines of one order", the compound-keys lesson's pattern),
// an index entity as a copy of the order, and one write that covers the order, its index
// entity and its 5 lines in one entity group transaction; generated, evaluated, reviewed.

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

/** Adds entity type `i` through the form: name, count, keys, copy source, properties. */
async function addType(page, i, { name, count, pk, rk, copyOf, props }) {
  await page.locator('button.add-type').click();
  const ty = page.locator(`fieldset.design-type[data-index="${i}"]`);
  await put(ty.locator('input.type-name'), name);
  await put(ty.locator('input.type-count'), count);
  await put(ty.locator('input.type-pk'), pk);
  await put(ty.locator('input.type-rk'), rk);
  if (copyOf) await ty.locator('select.type-copy-of').selectOption(copyOf);
  for (const [j, [prop, type, dist, params]] of props.entries()) {
    await ty.locator('button.add-prop').click();
    const row = ty.locator(`li.design-prop[data-index="${j}"]`);
    await put(row.locator('input.prop-name'), prop);
    await row.locator('select.prop-type').selectOption(type);
    await row.locator('select.prop-dist').selectOption(dist);
    await put(row.locator('input.prop-params'), params);
  }
}

const ORDER_PROPS = [
  ['OrderId', 'Int32', 'sequential', '1'],
  ['CustomerId', 'Int32', 'uniform', '1..200'],
];

/** 2,000 orders, an index entity per order, 10,000 lines (5 per order), all partitioned by a
 * hash of the order; a read of one order's lines and a write of an order with its index entity
 * and 5 lines. */
async function buildOrders(page) {
  await page.locator('button.new-design').click();
  await put(page.locator('input.design-name'), 'Orders and lines');
  await put(page.locator('input.design-seed'), '5');
  await page.locator('input.new-table').fill('Orders');
  await page.locator('button.add-table').click();
  await addType(page, 0, { name: 'Order', count: 2000, pk: '{hash(OrderId) % 16}', rk: 'order_{OrderId:08}', props: ORDER_PROPS });
  await addType(page, 1, {
    name: 'OrderByCustomer', count: 2000, pk: '{hash(OrderId) % 16}', rk: 'cust_{CustomerId:03}_{OrderId:08}',
    copyOf: 'Order', props: ORDER_PROPS,
  });
  await addType(page, 2, {
    name: 'Line', count: 10000, pk: '{hash(OrderId) % 16}', rk: '{OrderId:08}_{LineId:08}',
    props: [
      ['OrderId', 'Int32', 'uniform', '1..2000'],
      ['CustomerId', 'Int32', 'uniform', '1..200'],
      ['LineId', 'Int32', 'sequential', '1'],
      ['Quantity', 'Int32', 'uniform', '1..10'],
    ],
  });

  await page.locator('button.add-read').click();
  const read = page.locator('li.design-pattern[data-index="0"]');
  await put(read.locator('input.pattern-name'), 'Lines of one order');
  await put(read.locator('input.pattern-rate'), '50');
  await read.locator('select.pattern-type').selectOption('Line');
  await read.locator('select.pattern-pk').selectOption('eq');
  // The RowKey's choices come from Line's template: a prefix through each of its fields.
  assert.deepEqual(await read.locator('select.pattern-rk option').allTextContents(),
    ['no condition', "equal to the drawn entity's", 'prefix through OrderId', 'prefix through LineId']);
  await read.locator('select.pattern-rk').selectOption('through:OrderId');
  assert.equal(await read.locator('input.pattern-conditions').inputValue(), 'PartitionKey, RowKey^OrderId');

  await page.locator('button.add-write').click();
  const write = page.locator('li.design-pattern[data-index="1"]');
  await put(write.locator('input.pattern-name'), 'Place an order');
  await put(write.locator('input.pattern-rate'), '2');
  await write.locator('input.pattern-batch').check();
  // The write starts with the first type; each "add" offers the next type it lacks.
  await write.locator('button.add-write-type').click();
  await write.locator('button.add-write-type').click();
  const types = write.locator('li.write-type select.write-type-name');
  assert.deepEqual(await types.evaluateAll((xs) => xs.map((x) => x.value)), ['Order', 'OrderByCustomer', 'Line']);
  await put(write.locator('li.write-type[data-index="2"] input.write-type-count'), '5');
}

test('an order with its index entity and lines, and the lines of one order, built in the form', async () => {
  const page = await openDesign(env, { viewport: DESKTOP });
  await buildOrders(page);
  assert.equal(await page.locator('.design-problems li').count(), 0, await page.locator('.design-problems').textContent());

  // The document the form wrote: the key prefix by its field, the copy, the lines per call.
  const d = await designJson(page);
  assert.deepEqual(d.patterns[0].conditions, [{ on: 'PartitionKey', op: 'eq' }, { on: 'RowKey', op: 'prefix', through: 'OrderId' }]);
  assert.equal(d.entityTypes[1].copyOf, 'Order');
  assert.deepEqual(d.patterns[1].entityTypes, ['Order', 'OrderByCustomer', 'Line']);
  assert.deepEqual(d.patterns[1].perCall, { Line: 5 });

  const status = await generate(page);
  assert.match(status, /^Generated 14,000 entities in [\d.]+ s\.$/);
  await evaluate(page);
  const lines = await rowCells(page, 'measured', 0);
  // One partition's range holding the order's 5 lines and nothing else.
  assert.deepEqual(
    [lines.name, lines.kind, lines.scanned, lines.returned, lines.pages, lines.partitions],
    ['Lines of one order', 'partition range', '5', '5', '1', '1'],
  );
  const placed = await rowCells(page, 'measured', 1);
  // 7 operations (order, index entity, 5 lines) in one partition: one batch request.
  assert.deepEqual(
    [placed.name, placed.kind, placed.scanned, placed.returned, placed.pages, placed.partitions, placed.batch],
    ['Place an order', 'write', '7', '0', '1', '1', 'yes'],
  );
  const filter = await page.locator('.design-code li').nth(0).locator('.pattern-filter').textContent();
  assert.match(filter, /^PartitionKey eq '\d{2}' and RowKey ge '(\d{8})_' and RowKey lt '\1`'$/);
  const versus = await rowCells(page, 'versus', 0);
  assert.equal(versus.scanned, '5 / 5');
  assert.equal(versus.returned, '5 / 5');

  let items = await checklist(page);
  assert.equal(items.batches.grade, 'pass');
  assert.equal(items.batches.evidence, 'The entities share one partition, so one batch can write them: yes.');
  await page.locator('section.design-patterns').screenshot({ path: `${SHOTS}/design-form-patterns.png` });

  // 100 lines per order: 102 operations, more than a batch takes.
  const write = page.locator('li.design-pattern[data-index="1"]');
  await put(write.locator('li.write-type[data-index="2"] input.write-type-count'), '100');
  await page.locator('.design-checklist .checklist-item[data-rule="batches"][data-grade="fail"]').waitFor();
  items = await checklist(page);
  assert.equal(items.batches.evidence, 'A call writes 102 entities; an entity group transaction takes at most 100 operations.');
  assert.equal(items.batches.blame, 'Place an order');
  await page.locator('section.design-checklist').screenshot({ path: `${SHOTS}/design-form-batch-limit.png` });

  // Lines keyed by customer leave their order's partition: no batch can hold the write.
  await put(write.locator('li.write-type[data-index="2"] input.write-type-count'), '5');
  await put(page.locator('fieldset.design-type[data-index="2"] input.type-pk'), 'c{CustomerId:03}');
  await page.locator('.design-checklist .checklist-item[data-rule="batches"][data-grade="fail"]').waitFor();
  items = await checklist(page);
  assert.equal(items.batches.evidence, 'The entities share one partition, so one batch can write them: no.');
  assert.equal(items.batches.blame, 'Line · PartitionKey c{CustomerId:03}');
  assertClean(page);
  await page.context().close();
});

test('a key prefix through a field the template lacks is said beside the conditions; a range typed', async () => {
  const page = await openDesign(env, { viewport: DESKTOP });
  await buildOrders(page);
  const read = page.locator('li.design-pattern[data-index="0"]');
  await put(read.locator('input.pattern-conditions'), 'PartitionKey, RowKey^Sku');
  const problem = read.locator('.design-field-problem');
  await problem.first().waitFor();
  assert.deepEqual(await problem.allTextContents(), [
    'Conditions: the RowKey template has no field "Sku" (its fields: OrderId, LineId)',
  ]);
  // A range over 10 orders' lines, typed; the RowKey select names it.
  await put(read.locator('input.pattern-conditions'), 'PartitionKey, RowKey^OrderId+10');
  await read.locator('.design-field-problem').waitFor({ state: 'detached' });
  const rk = read.locator('select.pattern-rk');
  assert.equal(await rk.inputValue(), 'range:OrderId:10');
  assert.equal(await rk.locator('option:checked').textContent(), 'range over 10 values of OrderId');
  let d = await designJson(page);
  assert.deepEqual(d.patterns[0].conditions[1], { on: 'RowKey', op: 'range', through: 'OrderId', span: 10 });
  // Removing a write's type drops its count with it.
  const write = page.locator('li.design-pattern[data-index="1"]');
  await write.locator('li.write-type[data-index="2"] button.remove-write-type').click();
  d = await designJson(page);
  assert.deepEqual(d.patterns[1].entityTypes, ['Order', 'OrderByCustomer']);
  assert.equal(d.patterns[1].perCall, undefined);
  assertClean(page);
  await page.context().close();
});
