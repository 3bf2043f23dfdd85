// The smaller defects a new user ran into, each checked in the release build.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { DESKTOP, assertClean, openPage, start } from './lib.mjs';

let env;
before(async () => {
  env = await start();
});
after(async () => {
  await env?.close();
});

async function open(query = '') {
  const page = await openPage(env.browser, env.url + query, { viewport: DESKTOP });
  await page.locator('h1').waitFor({ timeout: 15_000 });
  return page;
}

async function createTable(page, name) {
  await page.locator('#new-table-name').fill(name);
  await page.locator('.create-table button[type="submit"]').click();
  await page.locator(`[data-table="${name}"]`).waitFor();
}

test('a 409 in the Tables panel goes once the user moves on', async () => {
  const page = await open();
  await createTable(page, 'Orders');
  await page.locator('#new-table-name').fill('Orders');
  await page.locator('.create-table button[type="submit"]').click();
  const notice = page.locator('.tables-panel .error-notice');
  await notice.waitFor();
  assert.equal(await notice.getAttribute('data-code'), 'TableAlreadyExists');
  // The next success (another table created) leaves no stale 409 behind.
  await page.locator('#new-table-name').fill('Invoices');
  await page.locator('.create-table button[type="submit"]').click();
  await page.locator('[data-table="Invoices"]').waitFor();
  assert.equal(await notice.count(), 0);
  // Nor does selecting a table after a failure.
  await page.locator('#new-table-name').fill('Orders');
  await page.locator('.create-table button[type="submit"]').click();
  await notice.waitFor();
  await page.locator('[data-table="Orders"] button[aria-pressed]').click();
  await notice.waitFor({ state: 'detached' });
  assertClean(page);
  await page.context().close();
});

test("the editor does not keep another table's draft", async () => {
  const page = await open();
  await createTable(page, 'First');
  await page.locator('#entity-pk').fill('p1');
  await page.locator('#entity-rk').fill('r1');
  await page.locator('.add-property').click();
  await page.locator('.property-row .prop-name').last().fill('Meant');
  await createTable(page, 'Second'); // selects Second
  await page.waitForFunction(() => document.querySelector('#entity-pk')?.value === '');
  assert.equal(await page.locator('#entity-rk').inputValue(), '');
  assert.equal(await page.locator('.property-row .prop-name').evaluateAll((els) => els.filter((e) => e.value === 'Meant').length), 0);
  await page.context().close();
});

test('a DateTime typed with nine fractional digits says what is stored', async () => {
  const page = await open();
  await createTable(page, 'Times');
  await page.locator('.add-property').click();
  const row = page.locator('.property-row').last();
  await row.locator('.prop-name').fill('When');
  await row.locator('.prop-type').selectOption('DateTime');
  await row.locator('input.prop-value').fill('2024-05-06T07:08:09.123456789Z');
  const note = row.locator('.field-note');
  await note.waitFor();
  assert.equal(
    (await note.textContent()).trim(),
    'DateTime keeps 7 fractional digits (100 ns): stored as 2024-05-06T07:08:09.1234567Z',
  );
  await page.context().close();
});

test('a CSV whose file name is not a table name proposes a cleaned-up one, never the selected table', async () => {
  const page = await open();
  await createTable(page, 'Selected');
  const csv = 'PartitionKey,RowKey,Total,Total@type\r\np,1,5,Edm.Int32\r\n';
  await page
    .locator('.storage-file input[type="file"]')
    .setInputFiles({ name: 'Orders (1).typed.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  const target = page.locator('.storage-confirm input.import-target');
  await target.waitFor();
  assert.equal(await target.inputValue(), 'Orders');
  assert.match(await page.locator('.storage-confirm p').first().textContent(), /Orders \(1\)\.typed\.csv.*table named here/);
  // A name with nothing usable proposes nothing: the user names the table.
  await page.locator('.storage-confirm button', { hasText: 'Cancel' }).click();
  await page
    .locator('.storage-file input[type="file"]')
    .setInputFiles({ name: '2.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await target.waitFor();
  assert.equal(await target.inputValue(), '');
  await page.context().close();
});

test("lesson step headlines show $top, so steps 13 and 14 of 'Five kinds of query' differ", async () => {
  const page = await open('?scenario=query-kinds.json#learn');
  const player = page.locator('.scenario-player');
  await player.waitFor({ timeout: 20_000 });
  await player.getByRole('button', { name: 'Run all' }).click();
  const headline = (i) => player.locator(`.step[data-index="${i}"] .step-headline`).textContent();
  await player.locator('.step[data-index="13"]').waitFor();
  assert.equal(await headline(12), 'query Products where Price gt 50');
  assert.equal(await headline(13), 'query Products where Price gt 50 $top=2');
  await page.context().close();
});

test('the plan summary and advice show code spans, never raw backticks', async () => {
  const page = await open();
  await createTable(page, 'People');
  await page.locator('#nav-query').click();
  await page.locator('#raw-filter').fill("PartitionKey eq 'a' or PartitionKey eq 'b'");
  await page.locator('#raw-filter').press('Control+Enter');
  const explain = page.locator('.explain');
  await explain.waitFor();
  const text = await explain.locator('.explain-summary, .advice').allTextContents();
  assert.ok(text.join(' ').length > 0);
  assert.ok(!text.join(' ').includes('`'), `raw backticks: ${text.join(' | ')}`);
  assert.ok((await explain.locator('.advice code').count()) > 0, 'the advice names its filter as code');
  await page.context().close();
});

test('the simulator labels 503 responses as counting retries, beside the writes offered', async () => {
  const page = await open();
  await page.locator('#nav-learn').click();
  const sim = page.locator('.simulator-panel');
  await sim.waitFor({ timeout: 20_000 });
  await sim.locator('#sim-ops').fill('5000');
  await sim.locator('#sim-seconds').fill('10');
  await sim.locator('#sim-spike').fill('0');
  await sim.getByRole('button', { name: 'Simulate' }).click();
  const design = sim.locator('.sim-design[data-design="a"]');
  await design.waitFor();
  assert.equal((await design.locator('.fig[data-field="throttled"] dt').textContent()).trim(), '503 responses (retries included)');
  assert.equal((await design.locator('.fig[data-field="offered"] dt').textContent()).trim(), 'writes offered');
  assert.match(await design.locator('.sim-counting').textContent(), /first tries and retries alike/);
  await page.context().close();
});
