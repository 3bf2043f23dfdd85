// The start rescue (www/start-rescue.js: "Download saved tables" when the app cannot start)
// speaks the page's language, as the start guard does: its text comes from
// www/start-guard-text.js, which the guard has loaded before anyone can click, so neither a
// normal start nor an embed downloads anything more. Each language: the message with nothing
// saved, then with one and with three saved tables (Arabic's plural forms).

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { assertClean, openPage, start } from './lib.mjs';

let env;
before(async () => {
  env = await start();
});
after(async () => {
  await env?.close();
});

/** What the rescue's download says on this page (its status line). */
async function rescue(page) {
  return page.evaluate(async () => {
    const { download } = await import(new URL('start-rescue.js', location.href).href);
    const status = document.createElement('p');
    await download(status);
    return status.textContent;
  });
}

async function createTable(page, name) {
  await page.locator('#new-table-name').fill(name);
  await page.locator('.create-table button[type=submit]').click();
  await page.locator(`[data-table="${name}"]`).waitFor();
}

/** The rescue's text once the saved tables number `n` (saving is asynchronous). */
async function rescueWhenSaved(page, expected) {
  let said;
  for (let i = 0; i < 50; i++) {
    said = await rescue(page);
    if (said === expected) return said;
    await page.waitForTimeout(100);
  }
  return said;
}

const EXPECTED = {
  en: ['There are no saved tables in this browser.', 'Downloaded 1 table.', 'Downloaded 3 tables.'],
  de: ['In diesem Browser sind keine Tabellen gespeichert.', '1 Tabelle heruntergeladen.', '3 Tabellen heruntergeladen.'],
  nl: ['Er zijn geen opgeslagen tabellen in deze browser.', '1 tabel gedownload.', '3 tabellen gedownload.'],
  ar: ['لا توجد جداول محفوظة في هذا المتصفح.', 'نُزِّل جدول واحد.', 'نُزِّلت 3 جداول.'],
};

for (const [lang, [empty, one, three]] of Object.entries(EXPECTED)) {
  test(`the start rescue speaks ${lang}`, async () => {
    const page = await openPage(env.browser, `${env.url}?lang=${lang}`);
    await page.locator('#tables-heading').waitFor({ timeout: 20_000 });
    assert.equal(await rescue(page), empty);
    await createTable(page, 'Alpha');
    assert.equal(await rescueWhenSaved(page, one), one);
    await createTable(page, 'Beta');
    await createTable(page, 'Gamma');
    assert.equal(await rescueWhenSaved(page, three), three);
    assertClean(page);
    await page.context().close();
  });
}
