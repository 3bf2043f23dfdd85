// The entity grid is a keyboard grid (roving tabindex over virtualised
// rows), every confirmation takes focus on its safe choice and gives it back, and the entity
// editor writes with Ctrl+Enter. All in the release build, in headless Chromium.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { DESKTOP, assertClean, start } from './lib.mjs';
import { engage, focused, numberedTable, openApp, rowKey } from './grid-helpers.mjs';

let env;
before(async () => {
  env = await start();
});
after(async () => {
  await env?.close();
});

const ROW = '.data-panel .grid-row';

/** Tabs from the select-all box (the last control before the rows) into the grid. */
async function tabIntoGrid(page) {
  if ((await page.locator('.data-panel .grid-area').count()) === 0) {
    // A build without the keyboard grid (to see this test fail there): focus the first row.
    await page.locator(`${ROW}[data-index="0"]`).focus();
    return;
  }
  await engage(page);
  await page.locator('.data-panel .pick-all').focus();
  await page.keyboard.press('Tab');
}

test('a 50-row table: Tab enters on one row, arrows, Home/End and pages move, Tab leaves and comes back', async () => {
  const page = await openApp(env);
  await numberedTable(page, 'Fifty', 50);
  await page.locator('.grid-count', { hasText: '50 entities' }).waitFor();

  await tabIntoGrid(page);
  assert.deepEqual(await focused(page), { index: 0, rowKey: rowKey(0), grid: 'panel data-panel' });
  // Exactly one row is in the Tab order.
  assert.equal(await page.locator(`${ROW}[tabindex="0"]`).count(), 1);

  await page.keyboard.press('End');
  assert.deepEqual(await focused(page), { index: 49, rowKey: rowKey(49), grid: 'panel data-panel' });
  await page.keyboard.press('Home');
  assert.equal((await focused(page)).rowKey, rowKey(0));

  for (let i = 0; i < 30; i += 1) await page.keyboard.press('ArrowDown');
  assert.deepEqual(await focused(page), { index: 30, rowKey: rowKey(30), grid: 'panel data-panel' });
  await page.keyboard.press('ArrowUp');
  assert.equal((await focused(page)).rowKey, rowKey(29));

  // A page moves by the rows the scroller shows (440 px: 11 rows under the header).
  await page.keyboard.press('PageDown');
  const down = await focused(page);
  assert.ok(down.index > 29 + 5 && down.index <= 49, JSON.stringify(down));
  await page.keyboard.press('PageUp');
  assert.equal((await focused(page)).rowKey, rowKey(29));

  // Tab leaves the grid (to the first control after it), Shift+Tab returns to the same row.
  await page.keyboard.press('Tab');
  const outside = await focused(page);
  assert.equal(outside.index, undefined, JSON.stringify(outside));
  await page.keyboard.press('Shift+Tab');
  assert.equal((await focused(page)).rowKey, rowKey(29));

  // Enter opens the focused row's JSON.
  await page.keyboard.press('Enter');
  assert.equal(JSON.parse(await page.locator('.data-panel .entity-json').textContent()).RowKey, rowKey(29));
  assertClean(page);
  await page.context().close();
});

test('a 1,000-row table: every row is reached by ArrowDown with focus kept in the grid, End and Home jump', async () => {
  const page = await openApp(env);
  await numberedTable(page, 'Thousand', 1000);
  await page.locator('.grid-count', { hasText: '1,000 entities' }).waitFor();
  // Only the rows in view are in the DOM.
  assert.ok((await page.locator(ROW).count()) < 60);

  await tabIntoGrid(page);
  await page.keyboard.press('End');
  assert.deepEqual(await focused(page), { index: 999, rowKey: rowKey(999), grid: 'panel data-panel' });
  await page.keyboard.press('Home');
  assert.deepEqual(await focused(page), { index: 0, rowKey: rowKey(0), grid: 'panel data-panel' });

  await page.evaluate(() => {
    window.__reached = new Set();
    document.querySelector('.data-panel .grid').addEventListener('focusin', (e) => {
      if (e.target.matches('tr.grid-row')) window.__reached.add(e.target.dataset.index);
    });
  });
  for (let i = 0; i < 999; i += 1) await page.keyboard.press('ArrowDown');
  assert.deepEqual(await focused(page), { index: 999, rowKey: rowKey(999), grid: 'panel data-panel' });
  assert.equal(await page.evaluate(() => window.__reached.size), 999);

  // PageUp from the end reaches the top in pages.
  let pages = 0;
  while ((await focused(page)).index !== 0 && pages < 200) {
    await page.keyboard.press('PageUp');
    pages += 1;
  }
  assert.equal((await focused(page)).rowKey, rowKey(0));
  assert.ok(pages > 50 && pages < 120, `${pages} pages`);

  // Scrolled away with the mouse wheel, the active row leaves the DOM; Tab from before the
  // grid still lands on it.
  for (let i = 0; i < 5; i += 1) await page.keyboard.press('ArrowDown');
  await page.locator('.data-panel .pick-all').focus();
  await page.locator('.data-panel .grid-scroll').evaluate((el) => {
    el.scrollTop = el.scrollHeight;
  });
  await page.waitForFunction(() => !document.querySelector('.data-panel tr.grid-row[data-index="5"]'));
  await page.keyboard.press('Tab');
  assert.deepEqual(await focused(page), { index: 5, rowKey: rowKey(5), grid: 'panel data-panel' });
  assertClean(page);
  await page.context().close();
});

test('confirmations focus Cancel, close with Escape and give focus back; the import one is in view', async () => {
  const page = await openApp(env, { viewport: DESKTOP });
  await numberedTable(page, 'Confirm', 3);

  // Reset.
  const reset = page.locator('.storage-actions button', { hasText: 'Reset' });
  await reset.click();
  await page.locator('.storage-confirm').waitFor();
  await page.waitForFunction(() => document.activeElement?.textContent?.trim() === 'Cancel');
  assert.ok(await page.evaluate(() => document.activeElement.closest('.storage-confirm') !== null));
  await page.keyboard.press('Escape');
  await page.locator('.storage-confirm').waitFor({ state: 'detached' });
  await page.waitForFunction(() => document.activeElement?.textContent?.trim() === 'Reset…');
  // Cancel by click gives focus back too.
  await reset.click();
  await page.locator('.storage-confirm .cancel').click();
  await page.waitForFunction(() => document.activeElement?.textContent?.trim() === 'Reset…');

  // Delete table: Cancel (not Delete) has focus; Escape returns to the row's Delete button.
  const row = page.locator('[data-table="Confirm"]');
  await row.locator('button.delete').click();
  await row.locator('.confirm').waitFor();
  await page.waitForFunction(() => document.activeElement?.matches('.table-row .confirm .cancel'));
  await page.keyboard.press('Escape');
  await page.waitForFunction(() => document.activeElement?.matches('.table-row button.delete'));

  // Import at 1280x800: the confirmation comes into view with focus on Cancel.
  await page.evaluate(() => window.scrollTo(0, 0));
  // A user opens the file chooser from the input, so it has focus when the file arrives.
  await page.locator('.storage-file input[type="file"]').focus();
  await page
    .locator('.storage-file input[type="file"]')
    .setInputFiles({ name: 'Orders.typed.csv', mimeType: 'text/csv', buffer: Buffer.from('PartitionKey,RowKey\r\np,1\r\n') });
  await page.locator('.storage-confirm').waitFor();
  await page.waitForFunction(() => document.activeElement?.matches('.storage-confirm .cancel'));
  const inView = await page.evaluate(() => {
    const r = document.querySelector('.storage-confirm').getBoundingClientRect();
    return r.top >= 0 && r.bottom <= window.innerHeight;
  });
  assert.ok(inView, 'the import confirmation is in the viewport');
  await page.keyboard.press('Escape');
  await page.waitForFunction(() => document.activeElement?.matches('.storage-file input[type="file"]'));

  // Delete selected entities: Cancel has focus; Escape returns to "Delete selected…".
  await engage(page);
  await page.locator(`.data-panel .grid-row[data-index="0"] input.pick`).click();
  await page.locator('.data-panel .delete-picked').click();
  await page.locator('.grid-confirm').waitFor();
  await page.waitForFunction(() => document.activeElement?.matches('.grid-confirm .cancel'));
  await page.keyboard.press('Escape');
  await page.locator('.grid-confirm').waitFor({ state: 'detached' });
  await page.waitForFunction(() => document.activeElement?.matches('.data-panel .delete-picked'));
  assert.equal(await page.locator('.data-panel .grid-row').count(), 3);
  assertClean(page);
  await page.context().close();
});

test('the entity editor writes with Ctrl+Enter', async () => {
  const page = await openApp(env);
  await page.locator('#new-table-name').fill('Keys');
  await page.locator('.create-table button[type="submit"]').click();
  await page.locator('[data-table="Keys"]').waitFor();
  await page.locator('#entity-pk').fill('p');
  await page.locator('#entity-rk').fill('r');
  await page.locator('#entity-rk').press('Control+Enter');
  await page.locator('.editor-status', { hasText: '201' }).waitFor({ timeout: 5_000 });
  assert.equal(await page.locator(ROW).count(), 1);
  // ⌘+Enter too (macOS).
  await page.locator('#entity-rk').fill('s');
  await page.locator('#entity-rk').press('Meta+Enter');
  await page.locator('.grid-count', { hasText: '2 entities' }).waitFor({ timeout: 5_000 });
  assertClean(page);
  await page.context().close();
});

/** The focused cell: its row's index, its place in the row (from 1), its text; or null. */
function focusedCell(page) {
  return page.evaluate(() => {
    const a = document.activeElement;
    if (a?.tagName !== 'TD' || !a.closest('tr.grid-row')) return null;
    const tr = a.closest('tr.grid-row');
    return { index: Number(tr.dataset.index), cell: [...tr.children].indexOf(a) + 1, cells: tr.children.length, text: a.textContent };
  });
}

test('cell by cell: arrows move across a row and keep the column between rows, Home/End and Ctrl+Home/End', async () => {
  const page = await openApp(env);
  await numberedTable(page, 'Cells', 30);
  await page.locator('.grid-count', { hasText: '30 entities' }).waitFor();
  // The ARIA grid pattern's roles.
  assert.equal(await page.locator('.data-panel table.grid').getAttribute('role'), 'grid');
  assert.equal(await page.locator(`${ROW}[data-index="0"]`).getAttribute('role'), 'row');
  assert.equal(await page.locator(`${ROW}[data-index="0"] td`).first().getAttribute('role'), 'gridcell');

  await tabIntoGrid(page);
  assert.deepEqual(await focused(page), { index: 0, rowKey: rowKey(0), grid: 'panel data-panel' });
  // ArrowRight enters the row's cells: PartitionKey, then RowKey.
  await page.keyboard.press('ArrowRight');
  const first = await focusedCell(page);
  assert.deepEqual({ index: first.index, cell: first.cell, text: first.text }, { index: 0, cell: 1, text: 'p0' });
  await page.keyboard.press('ArrowRight');
  assert.deepEqual(await focusedCell(page), { ...first, cell: 2, text: rowKey(0) });
  // Exactly one element of the grid is in the Tab order: the active cell.
  assert.equal(await page.locator('.data-panel tbody [tabindex="0"]').count(), 1);
  assert.equal(await page.locator(`${ROW}[data-index="0"] td:nth-child(2)`).getAttribute('tabindex'), '0');
  assert.equal(await page.locator(`${ROW}[data-index="0"]`).getAttribute('tabindex'), '-1');
  // Down keeps the column.
  await page.keyboard.press('ArrowDown');
  assert.deepEqual(await focusedCell(page), { ...first, index: 1, cell: 2, text: rowKey(1) });
  // End and Home: the row's last and first cells.
  await page.keyboard.press('End');
  const last = await focusedCell(page);
  assert.equal(last.index, 1);
  assert.equal(last.cell, last.cells);
  assert.ok(last.cells > 3, `more than the two keys: ${last.cells} cells`);
  await page.keyboard.press('ArrowRight');
  assert.equal((await focusedCell(page)).cell, last.cells, 'ArrowRight stops at the last cell');
  await page.keyboard.press('Home');
  assert.deepEqual(await focusedCell(page), { ...first, index: 1, cell: 1, text: 'p0' });
  // Ctrl+End and Ctrl+Home: the last and first rows, same column.
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Control+End');
  assert.deepEqual(await focusedCell(page), { ...first, index: 29, cell: 2, text: rowKey(29) });
  await page.keyboard.press('Control+Home');
  assert.deepEqual(await focusedCell(page), { ...first, index: 0, cell: 2, text: rowKey(0) });
  // ArrowLeft past the first cell goes back to the row; Home/End then move between rows.
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  assert.deepEqual(await focused(page), { index: 0, rowKey: rowKey(0), grid: 'panel data-panel' });
  await page.keyboard.press('End');
  assert.deepEqual(await focused(page), { index: 29, rowKey: rowKey(29), grid: 'panel data-panel' });
  // Tab leaves and Shift+Tab comes back to the active cell.
  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Tab');
  assert.equal(await focusedCell(page), null);
  await page.keyboard.press('Shift+Tab');
  assert.deepEqual(await focusedCell(page), { ...first, index: 0, cell: 1, text: 'p0' });
  // Enter on a cell opens its row.
  await page.keyboard.press('Enter');
  assert.equal(JSON.parse(await page.locator('.data-panel .entity-json').textContent()).RowKey, rowKey(0));
  assertClean(page);
  await page.context().close();
});
