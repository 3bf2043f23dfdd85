// Nothing lost on reload. F5 restores the section, the selected table, the
// query's text, builder and options, the run history and the staged batch; saved workspace
// data that is damaged or of another version never breaks the start.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { DESKTOP, assertClean, openPage, start } from './lib.mjs';
import { seedEmployees } from './employees.mjs';

let env;
before(async () => {
  env = await start();
});
after(async () => {
  await env?.close();
});

const KEY = 'tablescope.workspace';
const ready = (page) => page.locator('html[data-ready]').waitFor({ state: 'attached', timeout: 15_000 });

async function open() {
  const page = await openPage(env.browser, env.url, { viewport: DESKTOP });
  await ready(page);
  return page;
}

/**
 * A fresh page whose saved workspace is `text` before the app first starts (written from a
 * plain file of the same origin, so no start of the app is cut short by a reload).
 */
async function openWithSaved(text) {
  const page = await openPage(env.browser, `${env.url}scenarios/index.json`, { viewport: DESKTOP });
  await page.evaluate(([key, value]) => localStorage.setItem(key, value), [KEY, text]);
  // A JSON document has no favicon: that 404 belongs to this set-up, not to the app.
  await page.waitForLoadState('networkidle');
  page.problems.length = 0;
  await page.goto(env.url);
  await ready(page);
  return page;
}

const values = (locator) => locator.evaluateAll((els) => els.map((e) => e.value));

/** Everything a reload must bring back, as the page shows it. */
async function workspace(page) {
  const pressed = await page
    .locator('.table-facts[aria-pressed="true"] .table-name')
    .allTextContents();
  const section = await page.locator('.nav-tab[aria-current="page"]').getAttribute('id');
  // The Query section's state (built the first time it is shown).
  await page.locator('#nav-query').click();
  const query = {
    raw: await page.locator('#raw-filter').inputValue(),
    kind: await page.locator('input[name="query-kind"]:checked').getAttribute('value'),
    pk: await page.locator('#q-pk').inputValue(),
    prefix: await page.locator('#q-prefix').inputValue(),
    properties: await values(page.locator('.cond-property')),
    ops: await values(page.locator('.cond-op')),
    types: await values(page.locator('.cond-type')),
    texts: await values(page.locator('.cond-value')),
    select: await page.locator('#q-select').inputValue(),
    top: await page.locator('#q-top').inputValue(),
    budget: await page.locator('#q-budget').inputValue(),
    runs: await page.locator('#compare-a option').allTextContents(),
  };
  await page.locator('#nav-batch').click();
  const batch = {
    badge: await page.locator('#nav-batch .badge').allTextContents(),
    staged: await page.locator('.staged').evaluateAll((s) => s.map((e) => e.textContent.replace(/\s+/g, ' ').trim())),
  };
  await page.locator(`#${section}`).click();
  return { pressed, section, query, batch };
}

test('a reload restores the section, table, query, builder, options, history and batch', async () => {
  const page = await open();
  await seedEmployees(page);
  // Two staged operations.
  for (const rk of ['00009', '00008']) {
    await page.locator('#entity-pk').fill('Marketing');
    await page.locator('#entity-rk').fill(rk);
    await page.locator('.stage-write').click();
  }
  await page.locator('#nav-batch .badge', { hasText: '2' }).waitFor();
  // Two runs, options set, the builder holding a partition query with an `or` group.
  await page.locator('#nav-query').click();
  await page.locator('#raw-filter').fill('Age gt 40');
  await page.locator('.run-query').click();
  await page.locator('#q-select').fill('FirstName, Age');
  await page.locator('#q-top').fill('3');
  await page.locator('#q-budget').fill('500');
  await page.locator('#raw-filter').fill("PartitionKey eq 'Marketing' and Age lt 50 and Age ne 34");
  await page.locator('.run-query').click();
  await page.locator('#compare-a option').nth(2).waitFor({ state: 'attached' });

  const before = await workspace(page);
  assert.deepEqual(before, {
    pressed: ['Employees'],
    section: 'nav-query',
    query: {
      raw: "PartitionKey eq 'Marketing' and Age lt 50 and Age ne 34",
      kind: 'Partition',
      pk: 'Marketing',
      prefix: '',
      properties: ['Age', 'Age'],
      ops: ['lt', 'ne'],
      types: ['Int32', 'Int32'],
      texts: ['50', '34'],
      select: 'FirstName, Age',
      top: '3',
      budget: '500',
      runs: before.query.runs,
    },
    batch: { badge: ['2'], staged: before.batch.staged },
  });
  assert.equal(before.query.runs.length, 3, `two runs: ${before.query.runs}`);
  assert.match(before.query.runs[1], /^#1 .*Age gt 40$/);
  assert.match(before.batch.staged[0], /insert.*PartitionKey 'Marketing', RowKey '00009'/);

  await page.reload();
  await ready(page);
  const after = await workspace(page);
  assert.deepEqual(after, before);
  // The restored history still compares: run #1 against run #2.
  await page.locator('#nav-query').click();
  const scanned = await page.locator('.compare tr', { hasText: 'Scanned' }).locator('td').allTextContents();
  assert.deepEqual(scanned, ['9', '5']);
  // An `or` group too: the builder is the saved filter read back.
  await page.locator('#raw-filter').fill('Age lt 30 or (Age gt 50 and not (FirstName eq \'Lee\'))');
  await page.reload();
  await ready(page);
  assert.equal(await page.locator('#nav-query').getAttribute('aria-current'), 'page');
  assert.equal(await page.locator('.cond-group.root-group').getAttribute('data-join'), 'or');
  assert.equal(await page.locator('.root-group > .cond-group').getAttribute('data-join'), 'and');
  assert.equal(await page.locator('.root-group .group-negate:checked').count(), 1);
  assert.equal(await page.locator('#raw-filter').inputValue(), "Age lt 30 or (Age gt 50 and not (FirstName eq 'Lee'))");
  assertClean(page);
  await page.context().close();
});

test('damaged, odd or old saved workspace data: the app starts with the defaults', async () => {
  const cases = [
    ['not JSON', '{"version":1,"section":'],
    ['another version', JSON.stringify({ version: 99, section: 'query', query: { filter: 'Age gt 1' } })],
    ['not an object', '[1,2,3]'],
    [
      'every field of the wrong shape',
      JSON.stringify({
        version: 1,
        section: 42,
        table: ['Employees'],
        query: { filter: 7, select: null, top: {}, budget: [] },
        history: [{ table: 1 }, 'x', { table: 'T', filter: '', kind: 'k', pages: 'no' }, null],
        batch: [{ op: 'nope' }, 5, null, { op: 'insert' }],
      }),
    ],
  ];
  for (const [name, text] of cases) {
    const page = await openWithSaved(text);
    assert.deepEqual(
      await workspace(page),
      {
        pressed: [],
        section: 'nav-data',
        query: {
          raw: '', kind: 'Table', pk: '', prefix: '', properties: [], ops: [], types: [],
          texts: [], select: '', top: '', budget: '10000', runs: ['choose a run…'],
        },
        batch: { badge: [], staged: [] },
      },
      name,
    );
    assertClean(page);
    await page.context().close();
  }
  // What still reads is kept, field by field: a table that no longer exists is not selected,
  // an operation that does not read back is dropped.
  const partial = {
    version: 1,
    section: 'query',
    table: 'Gone',
    query: { filter: "PartitionKey eq 'p'", top: '7' },
    batch: [{ op: 'insert', entity: { PartitionKey: 'p', RowKey: 'r' } }, { op: 'insert' }],
  };
  const page = await openWithSaved(JSON.stringify(partial));
  const got = await workspace(page);
  assert.equal(got.section, 'nav-query');
  assert.deepEqual(got.pressed, []);
  assert.deepEqual([got.query.raw, got.query.kind, got.query.pk, got.query.top, got.query.budget], ["PartitionKey eq 'p'", 'Partition', 'p', '7', '10000']);
  assert.deepEqual(got.batch.badge, ['1']);
  assertClean(page);
  await page.context().close();
});
