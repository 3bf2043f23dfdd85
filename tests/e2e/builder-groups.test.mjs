// The query builder writes `or` groups as well as `and`, and `not`, so a
// raw filter of comparisons joined by and/or/not reads into the builder and back.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { DESKTOP, assertClean, openPage, screenshot, start } from './lib.mjs';
import { seedEmployees } from './employees.mjs';

let env;
before(async () => {
  env = await start();
});
after(async () => {
  await env?.close();
});

test('an or group edited in the builder is the raw filter, and runs', async () => {
  const page = await openPage(env.browser, env.url, { viewport: DESKTOP });
  await page.locator('html[data-ready]').waitFor({ state: 'attached', timeout: 15_000 });
  await seedEmployees(page);
  await page.locator('#nav-query').click();
  const raw = page.locator('#raw-filter');
  const rawIs = (text) => page.waitForFunction((t) => document.querySelector('#raw-filter').value === t, text);

  // Raw → builder: the `or` is the root group's join.
  await raw.fill('Age lt 30 or Age gt 50');
  const root = page.locator('.cond-group.root-group');
  assert.equal(await root.getAttribute('data-join'), 'or');
  assert.equal(await root.locator('> .group-head .group-join').inputValue(), 'or');
  const rows = root.locator('.condition-row');
  assert.deepEqual(await rows.locator('.cond-property').evaluateAll((e) => e.map((i) => i.value)), ['Age', 'Age']);
  assert.deepEqual(await rows.locator('.cond-op').evaluateAll((e) => e.map((i) => i.value)), ['lt', 'gt']);
  assert.deepEqual(await rows.locator('.cond-type').evaluateAll((e) => e.map((i) => i.value)), ['Int32', 'Int32']);
  assert.match(await page.locator('#raw-filter-hint').textContent(), /^Kept in sync with the builder/);

  // Builder → raw: a value, then a group inside the `or` (an `and` group), then `not`.
  await rows.nth(1).locator('.cond-value').fill('45');
  await rawIs('Age lt 30 or Age gt 45');
  await root.locator('> .group-actions .add-group').click();
  const inner = root.locator('.cond-group');
  assert.equal(await inner.getAttribute('data-join'), 'and');
  await inner.locator('.add-condition').click();
  await inner.locator('.add-condition').click();
  await inner.locator('.cond-property').nth(0).fill('PartitionKey');
  await inner.locator('.cond-value').nth(0).fill('Sales');
  await inner.locator('.cond-property').nth(1).fill('FirstName');
  await inner.locator('.cond-value').nth(1).fill('Raj');
  await rawIs("Age lt 30 or Age gt 45 or PartitionKey eq 'Sales' and FirstName eq 'Raj'");
  await inner.locator('.group-negate').check();
  await rawIs("Age lt 30 or Age gt 45 or not (PartitionKey eq 'Sales' and FirstName eq 'Raj')");
  await screenshot(page, 'builder-or-group');
  await page.screenshot({ path: '/tmp/shots-ux-b/builder-or-group.png', fullPage: true });
  await inner.locator('.group-negate').uncheck();

  // It runs as written: under 30 (Ana, Ken), over 45 (Jun, Lee), and Raj in Sales.
  await page.locator('.run-query').click();
  await page.locator('.results .results-count', { hasText: 'Page 1: 5 entities' }).waitFor();
  const keys = await page
    .locator('#section-query .results .grid-row')
    .evaluateAll((r) => r.map((row) => [...row.querySelectorAll('td.pin')].map((td) => td.textContent).join('/')));
  assert.deepEqual(keys, ['Marketing/00002', 'Marketing/00003', 'Marketing/00004', 'Sales/00010', 'Sales/00012']);

  // The root's join: `and` now; the inner group keeps its parentheses; removing it.
  await root.locator('> .group-head .group-join').selectOption('and');
  await rawIs("Age lt 30 and Age gt 45 and (PartitionKey eq 'Sales' and FirstName eq 'Raj')");
  await inner.locator('> .group-head .remove-group').click();
  await rawIs('Age lt 30 and Age gt 45');

  // Nested precedence reads into nested groups: or ⊃ and ⊃ not.
  await raw.fill('a eq 1 or b eq 2 and not (c eq 3)');
  assert.equal(await root.getAttribute('data-join'), 'or');
  const and = root.locator('> .cond-group');
  assert.equal(await and.getAttribute('data-join'), 'and');
  assert.equal(await and.locator('> .cond-group .group-negate').isChecked(), true);
  assert.equal(await and.locator('> .cond-group .cond-property').inputValue(), 'c');
  assert.match(await page.locator('#raw-filter-hint').textContent(), /^Kept in sync with the builder/);
  // Editing the innermost value keeps the shape.
  await and.locator('> .cond-group .cond-value').fill('4');
  await rawIs('a eq 1 or b eq 2 and not (c eq 4)');
  assertClean(page);
  await page.context().close();
});
