// The first screen end to end, on the release build in dist/: header, create, list, the
// service's errors inline, delete after an inline confirmation; no console error anywhere.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { DESKTOP, PHONE, assertClean, cargoVersion, openPage, screenshot, start } from './lib.mjs';

let env;
before(async () => {
  env = await start();
});
after(async () => {
  await env?.close();
});

/** Types a table name and presses the create button. */
async function createTable(page, name) {
  await page.getByLabel('New table').fill(name);
  await page.getByRole('button', { name: 'Create table' }).click();
}

/** Waits until the app has mounted (the header is there), failing fast if it never does. */
async function mounted(page) {
  await page.locator('h1').waitFor({ timeout: 15_000 });
}

test('the app loads and shows its name and version', async () => {
  const page = await openPage(env.browser, env.url);
  await mounted(page);
  assert.equal(await page.locator('h1').textContent(), 'Tablescope');
  assert.equal(await page.locator('.version').textContent(), `v${await cargoVersion()}`);
  assert.equal(await page.title(), 'Tablescope');
  assert.match(await page.locator('.empty').textContent(), /No tables yet/);
  assertClean(page);
  await page.context().close();
});

test('tables: create, errors inline, delete after confirming', async () => {
  const page = await openPage(env.browser, env.url, { viewport: DESKTOP });
  await mounted(page);

  await createTable(page, 'Employees');
  const row = page.locator('[data-table="Employees"]');
  await row.waitFor();
  assert.equal(await row.locator('.table-name').textContent(), 'Employees');
  assert.equal(await row.locator('.table-counts').textContent(), '0 entities · 0 partitions');
  assert.equal(await page.getByLabel('New table').inputValue(), '', 'the field clears');

  await createTable(page, 'ab');
  const tooShort = page.locator('.error-notice[data-code="OutOfRangeInput"]');
  await tooShort.waitFor();
  assert.equal(
    (await tooShort.locator('.error-service').textContent()).trim(),
    '400 OutOfRangeInput: One of the request inputs is out of range.',
  );
  assert.match(await tooShort.locator('.error-detail').textContent(), /3 to 63 characters/);
  assert.equal(await page.getByRole('alert').count(), 1);

  await createTable(page, '1abc');
  const badName = page.locator('.error-notice[data-code="InvalidResourceName"]');
  await badName.waitFor();
  assert.match(await badName.textContent(), /400 InvalidResourceName/);
  assert.equal(await page.locator('.table-row').count(), 1, 'failed creates add nothing');

  await createTable(page, 'Scratch');
  await page.locator('[data-table="Scratch"]').waitFor();
  assert.equal(await page.locator('.error-notice').count(), 0, 'a success clears the error');
  await screenshot(page, 'desktop-tables');

  // Delete asks first, inline; Cancel keeps the table.
  const scratch = page.locator('[data-table="Scratch"]');
  await scratch.getByRole('button', { name: 'Delete' }).click();
  const confirm = scratch.locator('.confirm-delete');
  await confirm.waitFor();
  assert.equal(await page.locator('.table-row').count(), 2, 'nothing is deleted before confirming');
  await screenshot(page, 'desktop-confirm-delete');
  await scratch.getByRole('button', { name: 'Cancel' }).click();
  await confirm.waitFor({ state: 'detached' });
  assert.equal(await page.locator('.table-row').count(), 2);

  // Keyboard only: Cancel hands focus back to Delete; Enter opens the confirmation and focuses
  // its safe choice, Cancel; Escape cancels; Enter, Shift+Tab to the confirmation's
  // Delete, Enter deletes.
  const isFocused = (cls) =>
    page.waitForFunction((c) => document.activeElement?.classList.contains(c), cls);
  await isFocused('delete');
  await page.keyboard.press('Enter');
  await confirm.waitFor();
  await isFocused('cancel');
  await page.keyboard.press('Escape');
  await confirm.waitFor({ state: 'detached' });
  await isFocused('delete');
  await page.keyboard.press('Enter');
  await isFocused('cancel');
  await page.keyboard.press('Shift+Tab');
  await isFocused('confirm-delete');
  await page.keyboard.press('Enter');
  await scratch.waitFor({ state: 'detached' });
  assert.deepEqual(await page.locator('.table-name').allTextContents(), ['Employees']);
  assert.equal(await page.getByRole('status').textContent(), 'Deleted table Scratch.');

  assertClean(page);
  await page.context().close();
});

for (const colorScheme of ['light', 'dark']) {
  test(`screenshots and layout at 360 px and 1280 px (${colorScheme})`, async () => {
    for (const [label, viewport] of [['phone', PHONE], ['desktop', DESKTOP]]) {
      const page = await openPage(env.browser, env.url, { viewport, colorScheme });
      await mounted(page);
      await createTable(page, 'Employees');
      await createTable(page, 'ProductCatalog2026');
      await page.locator('[data-table="ProductCatalog2026"]').waitFor();
      await createTable(page, 'ab');
      await page.locator('.error-notice').waitFor();
      await page.locator('[data-table="Employees"]').getByRole('button', { name: 'Delete' }).click();
      await page.locator('.confirm-delete').waitFor();
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      assert.equal(overflow, 0, `no horizontal scrolling at ${viewport.width} px`);
      await screenshot(page, `${label}-${colorScheme}`);
      assertClean(page);
      await page.context().close();
    }
  });
}
