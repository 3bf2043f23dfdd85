// The grid as Storage Explorer users expect it: a column chooser (show,
// hide, reorder, kept per table), the Timestamp column (hidden until chosen), several rows
// selected and copied as TSV or deleted as one confirmed action, and one column order for the
// Entities section and the query results. Release build, headless Chromium.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { PHONE, assertClean, start } from './lib.mjs';
import { engage, focused, openApp } from './grid-helpers.mjs';

const SHOTS = process.env.SHOTS ?? '/tmp/shots-ux-a';

let env;
before(async () => {
  env = await start();
  await mkdir(SHOTS, { recursive: true });
});
after(async () => {
  await env?.close();
});

async function createTable(page, name) {
  await page.locator('#new-table-name').fill(name);
  await page.locator('.create-table button[type="submit"]').click();
  await page.locator(`[data-table="${name}"]`).waitFor();
}

/** Inserts entities through the in-page service endpoint (as an SDK would). */
async function insert(page, table, entities) {
  const statuses = await page.evaluate(
    ([table, entities]) =>
      entities.map(
        (e) =>
          window.tablescope.wire({
            method: 'POST',
            url: `http://127.0.0.1:10002/devstoreaccount1/${table}`,
            headers: { 'content-type': 'application/json', accept: 'application/json;odata=nometadata', prefer: 'return-no-content' },
            body: JSON.stringify(e),
          }).status,
      ),
    [table, entities],
  );
  assert.deepEqual(statuses, entities.map(() => 204));
}

// Three entities whose properties appear in the order alpha, Zeta, Mid: the order a grid
// that follows first appearance would show, unlike ordinal order (Mid, Zeta, alpha).
const SHAPES = [
  { PartitionKey: 'a', RowKey: '1', alpha: 'first' },
  { PartitionKey: 'a', RowKey: '2', Zeta: 2, Mid: 'm2' },
  { PartitionKey: 'b', RowKey: '3', Zeta: 3, alpha: 'third', Mid: 'm3' },
];

const header = (page, where) => page.locator(`${where} .grid thead th .col-name`).allTextContents();

async function runQuery(page, filter) {
  await page.locator('#nav-query').click();
  await page.locator('#raw-filter').fill(filter);
  await page.locator('#raw-filter').press('Control+Enter');
  await page.locator('.results .grid-row').first().waitFor();
}

async function shapes(page) {
  await createTable(page, 'Shapes');
  await insert(page, 'Shapes', SHAPES);
  await page.locator('.grid-count', { hasText: '3 entities' }).waitFor();
}

test('Entities and Query order columns the same way: keys, then properties in ordinal order', async () => {
  const page = await openApp(env);
  await shapes(page);
  assert.deepEqual(await header(page, '.data-panel'), ['PartitionKey', 'RowKey', 'Mid', 'Zeta', 'alpha']);
  await runQuery(page, "PartitionKey ne 'z'");
  assert.deepEqual(await header(page, '.results'), ['PartitionKey', 'RowKey', 'Mid', 'Zeta', 'alpha']);
  const first = await page.locator('.results .grid-row').first().locator('td').allTextContents();
  assert.deepEqual(first, ['a', '1', '', '', 'first']);
  // A projection without the keys: the selected properties show, the keys stay empty (the
  // service did not return them).
  await page.locator('#q-select').fill('alpha,Zeta');
  await runQuery(page, "PartitionKey ne 'z'");
  assert.deepEqual(await header(page, '.results'), ['PartitionKey', 'RowKey', 'Zeta', 'alpha']);
  const projected = await page.locator('.results .grid-row').evaluateAll((rows) =>
    rows.map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent)),
  );
  assert.deepEqual(projected.map((cells) => cells.slice(-4)), [
    ['', '', '', 'first'],
    ['', '', '2', ''],
    ['', '', '3', 'third'],
  ]);
  assertClean(page);
  await page.context().close();
});

test('the column chooser shows Timestamp, hides and reorders columns, per table, in both views', async () => {
  const page = await openApp(env);
  await shapes(page);
  await createTable(page, 'Other');
  await insert(page, 'Other', [{ PartitionKey: 'o', RowKey: '1', Mid: 'x', alpha: 'y' }]);
  await page.locator('[data-table="Shapes"] button[aria-pressed]').click();
  await page.locator('.grid-count', { hasText: '3 entities' }).waitFor();

  const toggle = page.locator('.data-panel .columns-toggle');
  // The bar above the grid is there from the start, before any pointer or focus reaches
  // the grid (a screen reader's browse mode finds it too).
  await toggle.waitFor({ timeout: 5_000 });
  assert.equal(await page.locator('.data-panel .grid-area:hover, .data-panel .grid-area:focus-within').count(), 0);
  await engage(page);
  await toggle.click();
  assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
  const panel = page.locator('.data-panel .columns-panel');
  const listed = await panel.locator('li').evaluateAll((lis) =>
    lis.map((li) => [li.dataset.column, li.querySelector('input').checked]),
  );
  assert.deepEqual(listed, [['Timestamp', false], ['Mid', true], ['Zeta', true], ['alpha', true]]);

  // Show Timestamp: it follows the keys; its cells are the service's timestamps.
  await panel.locator('li[data-column="Timestamp"] input').check();
  assert.deepEqual(await header(page, '.data-panel'), ['PartitionKey', 'RowKey', 'Timestamp', 'Mid', 'Zeta', 'alpha']);
  const stamp = await page.locator('.data-panel .grid-row').first().locator('td').nth(2).textContent();
  assert.match(stamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{7}Z$/);
  // Hide Mid, move alpha earlier (before Zeta).
  await panel.locator('li[data-column="Mid"] input').uncheck();
  await panel.locator('li[data-column="alpha"] .column-up').click();
  assert.deepEqual(await header(page, '.data-panel'), ['PartitionKey', 'RowKey', 'Timestamp', 'alpha', 'Zeta']);
  // The moved column's button keeps focus.
  await page.waitForFunction(() => document.activeElement?.matches('li[data-column="alpha"] .column-up'));
  await page.screenshot({ path: `${SHOTS}/grid-column-chooser.png`, fullPage: false });
  // Escape closes it and gives focus back to its button.
  await page.keyboard.press('Escape');
  assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
  await page.waitForFunction(() => document.activeElement?.className === 'columns-toggle', null, { timeout: 5_000 });

  // Another table keeps its own (default) arrangement; coming back restores this one.
  await page.locator('[data-table="Other"] button[aria-pressed]').click();
  await page.locator('.grid-count', { hasText: '1 entity' }).waitFor();
  assert.deepEqual(await header(page, '.data-panel'), ['PartitionKey', 'RowKey', 'Mid', 'alpha']);
  await page.locator('[data-table="Shapes"] button[aria-pressed]').click();
  await page.locator('.grid-count', { hasText: '3 entities' }).waitFor();
  assert.deepEqual(await header(page, '.data-panel'), ['PartitionKey', 'RowKey', 'Timestamp', 'alpha', 'Zeta']);

  // The query results of that table honour the same arrangement.
  await runQuery(page, "PartitionKey ne 'z'");
  assert.deepEqual(await header(page, '.results'), ['PartitionKey', 'RowKey', 'Timestamp', 'alpha', 'Zeta']);
  // A reload keeps every table's arrangement, with the rest of the workspace.
  await page.reload();
  await page.locator('#nav-data').click();
  await page.locator('.grid-count', { hasText: '3 entities' }).waitFor();
  assert.deepEqual(await header(page, '.data-panel'), ['PartitionKey', 'RowKey', 'Timestamp', 'alpha', 'Zeta']);
  await page.locator('[data-table="Other"] button[aria-pressed]').click();
  await page.locator('.grid-count', { hasText: '1 entity' }).waitFor();
  assert.deepEqual(await header(page, '.data-panel'), ['PartitionKey', 'RowKey', 'Mid', 'alpha']);
  await page.locator('[data-table="Shapes"] button[aria-pressed]').click();
  await page.locator('.grid-count', { hasText: '3 entities' }).waitFor();
  await engage(page);
  // "Default order" brings the default back.
  await toggle.click();
  await panel.locator('.columns-reset').click();
  assert.deepEqual(await header(page, '.data-panel'), ['PartitionKey', 'RowKey', 'Mid', 'Zeta', 'alpha']);
  assertClean(page);
  await page.context().close();
});

test('several rows: click, Shift+click, Ctrl+click and Space select; Copy as TSV copies them with a header row', async () => {
  const page = await openApp(env);
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(env.url).origin });
  await shapes(page);
  const row = (i) => page.locator(`.data-panel .grid-row[data-index="${i}"]`);
  const picked = () => page.locator('.data-panel .grid-picked').textContent();

  await row(0).click();
  assert.equal(await picked(), '1 selected');
  await row(2).click({ modifiers: ['Shift'] });
  assert.equal(await picked(), '3 selected');
  await row(1).click({ modifiers: ['Control'] });
  assert.equal(await picked(), '2 selected');
  assert.deepEqual(
    await page.locator('.data-panel .grid-row').evaluateAll((rs) => rs.map((r) => r.getAttribute('aria-selected'))),
    ['true', 'false', 'true'],
  );
  await page.locator('.data-panel .copy-tsv').click();
  await page.locator('.data-panel .grid-status', { hasText: 'Copied 2 rows as TSV.' }).waitFor();
  assert.equal(
    await page.evaluate(() => navigator.clipboard.readText()),
    'PartitionKey\tRowKey\tMid\tZeta\talpha\na\t1\t\t\tfirst\nb\t3\tm3\t3\tthird\n',
  );

  // Space on the active row (row 1, the last clicked) adds it back.
  await row(1).focus();
  assert.equal((await focused(page)).index, 1);
  await page.keyboard.press('Space');
  assert.equal(await picked(), '3 selected');
  // The select-all box clears and sets every row.
  await page.locator('.data-panel .pick-all').uncheck();
  // With nothing selected, the selection's actions are not shown.
  await page.locator('.data-panel .grid-picked').waitFor({ state: 'detached' });
  assert.equal(await page.locator('.data-panel .copy-tsv').count(), 0);
  await page.locator('.data-panel .pick-all').check();
  assert.equal(await picked(), '3 selected');
  await page.locator('.data-panel .copy-tsv').click();
  await page.locator('.data-panel .grid-status', { hasText: 'Copied 3 rows as TSV.' }).waitFor();
  assert.equal(
    await page.evaluate(() => navigator.clipboard.readText()),
    'PartitionKey\tRowKey\tMid\tZeta\talpha\na\t1\t\t\tfirst\na\t2\tm2\t2\t\nb\t3\tm3\t3\tthird\n',
  );
  assertClean(page);
  await page.context().close();
});

test('Delete selected: one confirmation naming the count, then entity by entity across partitions', async () => {
  const page = await openApp(env);
  await shapes(page);
  await insert(page, 'Shapes', [{ PartitionKey: 'c', RowKey: '4', Mid: 'kept' }]);
  await page.locator('.grid-count', { hasText: '4 entities' }).waitFor();
  await page.locator('.data-panel .grid-row[data-index="0"]').click();
  await page.locator('.data-panel .grid-row[data-index="2"]').click({ modifiers: ['Shift'] });
  await page.locator('.data-panel .delete-picked').click();
  const ask = page.locator('.grid-confirm');
  await ask.waitFor();
  assert.equal(await ask.locator('.confirm-question').textContent(), 'Delete these 3 entities? This cannot be undone.');
  // Nothing is deleted until confirmed.
  assert.equal(await page.locator('.data-panel .grid-row').count(), 4);
  await ask.locator('.confirm-delete-picked', { hasText: 'Delete 3 entities' }).click();
  await page.locator('.data-panel .grid-status', { hasText: 'Deleted 3 entities.' }).waitFor();
  await page.locator('.grid-count', { hasText: '1 entity' }).waitFor();
  assert.deepEqual(await page.locator('.data-panel .grid-row td.pin-2').allTextContents(), ['4']);
  assert.equal(await page.locator('[data-table="Shapes"] .table-counts').textContent(), '1 entity · 1 partition');
  assertClean(page);
  await page.context().close();
});

test('Delete selected stops at the first failure and says how many were deleted (a read-only tab)', async () => {
  const first = await openApp(env);
  await shapes(first);
  // Wait until the saving tab has stored the entities, then open a second, read-only tab.
  await first.waitForFunction(async () => {
    const done = (r) => new Promise((ok, fail) => ((r.onsuccess = () => ok(r.result)), (r.onerror = () => fail(r.error))));
    const db = await done(indexedDB.open('tablescope-sandbox'));
    try {
      const values = await done(db.transaction('chunks').objectStore('chunks').getAll());
      const { chunkEntities } = await import(new URL('start-rescue.js', location.href));
      return JSON.stringify(values.map(chunkEntities)).includes('third');
    } finally {
      db.close();
    }
  }, null, { timeout: 5_000, polling: 100 });
  const second = await first.context().newPage();
  await second.goto(env.url);
  await second.locator('.storage-banner', { hasText: 'read-only' }).waitFor({ timeout: 15_000 });
  await second.locator('[data-table="Shapes"] button[aria-pressed]').click();
  await second.locator('.data-panel .grid-row').first().waitFor();
  await engage(second);
  await second.locator('.data-panel .pick-all').check();
  await second.locator('.data-panel .delete-picked').click();
  await second.locator('.grid-confirm .confirm-delete-picked').click();
  const status = second.locator('.data-panel .grid-status');
  await status.filter({ hasText: 'Deleted 0 entities.' }).waitFor();
  assert.match(await status.textContent(), /^Deleted 0 entities\. Stopped at \(a, 1\): 403 AuthorizationPermissionMismatch: .*The rest were not deleted\.$/);
  assert.equal(await second.locator('.data-panel .grid-row').count(), 3);
  await first.context().close();
});

test('the grid at 360 px: toolbar, chooser and rows fit the screen', async () => {
  const page = await openApp(env, { viewport: PHONE });
  await shapes(page);
  await page.locator('.data-panel .grid-row[data-index="1"]').click();
  await engage(page);
  await page.locator('.data-panel .columns-toggle').click();
  const box = await page.locator('.data-panel .columns-panel').boundingBox();
  assert.ok(box.x >= 0 && box.x + box.width <= PHONE.width, JSON.stringify(box));
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.equal(overflow, 0);
  await page.locator('.data-panel').scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/grid-360.png`, fullPage: true });
  assertClean(page);
  await page.context().close();
});
