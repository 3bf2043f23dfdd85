// Helpers for the grid tests: tables filled through the storage
// panel's CSV import (one write, however many rows), and what has focus.

import { DESKTOP, openPage } from './lib.mjs';

/** A fresh page at `viewport`, the app started. */
export async function openApp(env, { viewport = DESKTOP, colorScheme = 'light', query = '' } = {}) {
  const page = await openPage(env.browser, env.url + query, { viewport, colorScheme });
  await page.locator('h1').waitFor({ timeout: 15_000 });
  return page;
}

/** Row `i` of a numbered table: partition `p<i/100>`, RowKey `r` + 4 digits, so the
 * service's order (PartitionKey, then RowKey) is the numbering. */
export const rowKey = (i) => `r${String(i).padStart(4, '0')}`;

/** Imports `csv` as table `name` through the storage panel and selects the table. */
export async function importCsv(page, name, csv) {
  await page
    .locator('.storage-file input[type="file"]')
    .setInputFiles({ name: `${name}.typed.csv`, mimeType: 'text/csv', buffer: Buffer.from(csv) });
  const confirm = page.locator('.storage-confirm');
  await confirm.waitFor();
  await confirm.locator('input.import-target').fill(name);
  await confirm.locator('button.primary').click();
  await confirm.waitFor({ state: 'detached' });
  await page.locator(`[data-table="${name}"] button[aria-pressed]`).click();
  await page.locator('.data-panel .grid-row').first().waitFor();
}

/** Reaches the grid of `where` with the pointer, and waits for its bar (chooser, selection). */
export async function engage(page, where = '.data-panel') {
  await page.locator(`${where} .grid-area`).hover();
  await page.locator(`${where} .columns-toggle`).waitFor();
}

/** A table of `n` numbered rows with an Int32 `N` and a String `Name`. */
export async function numberedTable(page, name, n) {
  const lines = ['PartitionKey,RowKey,N,N@type,Name,Name@type'];
  for (let i = 0; i < n; i += 1) {
    lines.push(`p${Math.floor(i / 100)},${rowKey(i)},${i},Edm.Int32,name ${i},Edm.String`);
  }
  await importCsv(page, name, lines.join('\r\n') + '\r\n');
}

/** What has focus: the grid row's index and RowKey, or the element's tag and class. */
export async function focused(page) {
  // While the grid scrolls to a row not yet rendered, its scroller holds focus until the row
  // is drawn (the next frame): wait for that.
  await page
    .waitForFunction(() => !document.activeElement?.matches('.grid-scroll'), null, { timeout: 2_000 })
    .catch(() => {});
  return page.evaluate(() => {
    const a = document.activeElement;
    const row = a?.closest?.('tr.grid-row');
    if (row && a === row) {
      return {
        index: Number(row.dataset.index),
        rowKey: row.querySelector('td.pin-2')?.textContent,
        grid: row.closest('section')?.className ?? '',
      };
    }
    return { tag: a?.tagName, cls: a?.className ?? '', text: a?.textContent?.trim() ?? '' };
  });
}
