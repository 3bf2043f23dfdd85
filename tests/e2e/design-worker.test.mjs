// The Design generator's Web Worker (src/ui/sections/design/offthread.rs, www/design-worker.js): the
// entities are drawn off the page's main thread when a worker starts, and in the page when
// none can (here: its script refused). Both ways must write exactly the same entities, and a
// cancelled run keeps (and saves) what it wrote.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { assertClean, start } from './lib.mjs';
import { generate, openDesign, put } from './design-lib.mjs';

let env;
before(async () => {
  env = await start();
});
after(async () => {
  await env?.close();
});

const COUNT = 3_000;

/** Every entity of `table` through the page's own endpoint (window.tablescope.wire), paged
 * by continuation, without Timestamps and ETags (each run takes its own from the clock). */
async function entities(page, table) {
  return page.evaluate(async (table) => {
    const base = `http://127.0.0.1:10002/devstoreaccount1/${table}()`;
    const decoder = new TextDecoder();
    const out = [];
    let next = '';
    for (;;) {
      const response = window.tablescope.wire({
        method: 'GET',
        url: base + next,
        headers: [['Accept', 'application/json;odata=nometadata'], ['x-ms-version', '2019-02-02']],
      });
      if (response.status !== 200) throw new Error(`status ${response.status}`);
      for (const e of JSON.parse(decoder.decode(response.body)).value) {
        delete e.Timestamp;
        out.push(e);
      }
      const header = (name) => response.headers.find(([n]) => n.toLowerCase() === name.toLowerCase())?.[1];
      const pk = header('x-ms-continuation-NextPartitionKey');
      if (!pk) return out;
      next = `?NextPartitionKey=${encodeURIComponent(pk)}&NextRowKey=${encodeURIComponent(header('x-ms-continuation-NextRowKey'))}`;
    }
  }, table);
}

/** The employees gallery design at `count` entities, on a fresh page. */
async function employees(count, route) {
  const context = await env.browser.newContext();
  if (route) await context.route('**/design-worker.js', route);
  const page = await context.newPage();
  page.problems = [];
  page.on('pageerror', (err) => page.problems.push(`uncaught exception: ${err.stack ?? err}`));
  page.on('console', (msg) => {
    if (msg.type() === 'error') page.problems.push(`console error: ${msg.text()}`);
  });
  await page.goto(`${env.url}?perf=1`);
  await page.locator('html[data-ready]').waitFor({ state: 'attached', timeout: 20_000 });
  await page.locator('#nav-design').click();
  await page.locator('.gallery-open[data-gallery="employees-by-department"]').click({ timeout: 30_000 });
  await page.waitForFunction(() => document.querySelector('input.design-name')?.value === 'Employees by department');
  await put(page.locator('fieldset.design-type[data-index="0"] input.type-count'), count);
  return { context, page };
}

test('the worker and the page generate exactly the same entities', async () => {
  const inWorker = await employees(COUNT);
  assert.match(await generate(inWorker.page), /Generated 3,000 entities/);
  const times = await inWorker.page.evaluate(() => window.__tablescopeDesignGenerate);
  assert.equal(times.offThread, true, 'the entities were drawn in the worker');
  const a = await entities(inWorker.page, 'Employees');
  assertClean(inWorker.page);

  // The worker's script refused: the page draws the entities itself.
  const inPage = await employees(COUNT, (route) => route.fulfill({ status: 503, body: 'refused by the test' }));
  assert.match(await generate(inPage.page), /Generated 3,000 entities/);
  const fallback = await inPage.page.evaluate(() => window.__tablescopeDesignGenerate);
  assert.equal(fallback.offThread, false, 'no worker: the entities were drawn in the page');
  const b = await entities(inPage.page, 'Employees');
  // A failed worker script is reported by the browser as a console error: that one only.
  assert.ok(inPage.page.problems.every((p) => /design-worker/.test(p) || /503/.test(p)), inPage.page.problems.join('\n'));

  assert.equal(a.length, COUNT);
  assert.deepEqual(Object.keys(a[0]).sort(), ['Age', 'DepartmentId', 'Email', 'EmployeeId', 'FirstName', 'HireDate', 'LastName', 'PartitionKey', 'RowKey']);
  assert.deepEqual(a, b);
  // Every EmployeeId once, 1 to 3,000, each under its own RowKey.
  assert.deepEqual(a.map((e) => e.EmployeeId).sort((x, y) => x - y), Array.from({ length: COUNT }, (_, i) => i + 1));
  assert.ok(a.every((e) => e.RowKey === `emp_${String(e.EmployeeId).padStart(6, '0')}` && e.PartitionKey === e.DepartmentId));
  await inWorker.context.close();
  await inPage.context.close();
});

test('a cancelled run in the worker keeps what it wrote, saved', async () => {
  const { context, page } = await employees(1_000_000);
  await page.locator('.design-generate button.generate').click();
  await page.waitForFunction(() => /\d/.test(document.querySelector('.generate-status')?.textContent ?? '') && Number(document.querySelector('progress.generate-progress')?.value) >= 20_000, null, { timeout: 60_000, polling: 20 });
  await page.locator('.cancel-generate').click();
  const status = page.locator('.generate-status', { hasText: 'Cancelled' });
  await status.waitFor({ timeout: 30_000 });
  const kept = Number((await status.textContent()).match(/[\d,]+/)[0].replaceAll(',', ''));
  assert.ok(kept >= 20_000 && kept < 1_000_000, `kept ${kept}`);
  // As many entities as the status says, in the table and after a reload (saved).
  await page.waitForFunction(() => window.__tablescopeSavesInFlight() === 0, null, { timeout: 60_000, polling: 50 });
  await page.reload();
  await page.locator('html[data-ready]').waitFor({ state: 'attached', timeout: 60_000 });
  const status200 = await page.evaluate(() => {
    const response = window.tablescope.wire({
      method: 'GET',
      url: "http://127.0.0.1:10002/devstoreaccount1/Tables('Employees')",
      headers: [['Accept', 'application/json;odata=nometadata'], ['x-ms-version', '2019-02-02']],
    });
    return response.status;
  });
  assert.equal(status200, 200);
  const facts = await page.locator('[data-table="Employees"] .table-facts').textContent();
  assert.match(facts, new RegExp(kept.toLocaleString('en')));
  assert.deepEqual(page.problems ?? [], []);
  await context.close();
});
