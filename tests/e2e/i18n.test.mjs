// The UI's languages on the release build: English needs
// no download, another language's catalogue is fetched only when it is shown, `?lang=` and
// the saved choice pick it, `<html lang dir>` follow it, the header's switcher shows each
// language in its own name. Screenshots: tests/e2e/screenshots/i18n-*.png.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { DESKTOP, PHONE, assertClean, openPage, screenshot, start } from './lib.mjs';

let env;
before(async () => {
  env = await start();
});
after(async () => {
  await env?.close();
});

/** The catalogues the page has downloaded, by language code. */
async function catalogues(page) {
  const urls = await page.evaluate(() =>
    performance.getEntriesByType('resource').map((e) => e.name),
  );
  return urls
    .map((u) => new URL(u).pathname.match(/\/locales\/([a-z]+)\.json$/)?.[1])
    .filter(Boolean)
    .sort();
}

async function mounted(page) {
  await page.locator('#tables-heading').waitFor({ timeout: 15_000 });
}

async function htmlLangDir(page) {
  return page.evaluate(() => [document.documentElement.lang, document.documentElement.dir]);
}

test('English: compiled in, no catalogue downloaded', async () => {
  const page = await openPage(env.browser, `${env.url}?lang=en`);
  await mounted(page);
  assert.deepEqual(await htmlLangDir(page), ['en', 'ltr']);
  assert.equal(await page.locator('#tables-heading').textContent(), 'Tables');
  assert.deepEqual(await page.locator('#lang-select option').allTextContents(), [
    'English',
    'Deutsch',
    'Nederlands',
    'العربية',
  ]);
  assert.deepEqual(await catalogues(page), []);
  assertClean(page);
  await page.context().close();
});

test('?lang=ar: only the Arabic catalogue, right to left', async () => {
  for (const [viewport, name] of [
    [DESKTOP, 'desktop'],
    [PHONE, '360'],
  ]) {
    const page = await openPage(env.browser, `${env.url}?lang=ar`, { viewport });
    await mounted(page);
    assert.deepEqual(await htmlLangDir(page), ['ar', 'rtl']);
    assert.equal(await page.locator('#tables-heading').textContent(), 'الجداول');
    assert.equal(await page.locator('#nav-data').textContent(), 'الكيانات');
    assert.equal(await page.locator('#lang-select').inputValue(), 'ar');
    await page.getByLabel('جدول جديد').fill('Orders');
    await page.getByRole('button', { name: 'إنشاء جدول' }).click();
    const row = page.locator('[data-table=Orders]');
    assert.equal(await row.locator('.table-counts').textContent(), 'لا كيانات · لا أقسام');
    assert.equal(await page.locator('.tables-panel .status').textContent(), 'تم إنشاء الجدول \u2068Orders\u2069.', 'the table name is its own isolated run');
    assert.deepEqual(await catalogues(page), ['ar']);
    // Mirrored: the tables sidebar is on the right of the entities (or above them on a phone,
    // where the columns stack), and nothing overflows sideways.
    const sidebar = await page.locator('.tables-panel').boundingBox();
    const entities = await page.locator('.data-panel').boundingBox();
    if (name === 'desktop') assert.ok(sidebar.x > entities.x, `sidebar at x=${sidebar.x}, entities at x=${entities.x}`);
    assert.deepEqual(
      await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]),
      [viewport.width, viewport.width],
    );
    await screenshot(page, `i18n-ar-${name}`);
    assertClean(page);
    await page.context().close();
  }
});

test('the switcher downloads a language on first use, saves it, and a reload keeps it', async () => {
  const page = await openPage(env.browser, env.url);
  await mounted(page);
  assert.deepEqual(await catalogues(page), []);
  await page.locator('#lang-select').selectOption('de');
  await page.locator('#tables-heading', { hasText: 'Tabellen' }).waitFor();
  assert.deepEqual(await htmlLangDir(page), ['de', 'ltr']);
  assert.equal(await page.locator('#nav-query').textContent(), 'Abfrage');
  assert.deepEqual(await catalogues(page), ['de']);
  await page.reload();
  await mounted(page);
  assert.equal(await page.locator('#tables-heading').textContent(), 'Tabellen');
  assert.equal(await page.locator('#lang-select').inputValue(), 'de');
  await page.locator('#lang-select').selectOption('nl');
  await page.locator('#nav-learn', { hasText: 'Leren' }).waitFor();
  assert.equal(await page.locator('#tables-heading').textContent(), 'Tabellen');
  assert.deepEqual(await htmlLangDir(page), ['nl', 'ltr']);
  await screenshot(page, 'i18n-nl-desktop');
  assertClean(page);
  await page.context().close();
});

test('the stylesheets use logical properties only, so a right-to-left page mirrors', async () => {
  // A physical side (margin-left, border-right, left:, text-align: right, a four-value
  // padding) would stay put in Arabic while everything else mirrors.
  const physical = /(?:^|[\s;{])(?:(?:margin|padding|border)-(?:left|right)(?:-[a-z]+)?|left|right|float)\s*:|text-align:\s*(?:left|right)|(?:margin|padding):\s*\S+\s+\S+\s+\S+\s+\S+\s*;/;
  for (const file of ['style.css', 'playground.css', 'teach.css']) {
    const lines = (await readFile(new URL(`../../www/${file}`, import.meta.url), 'utf8')).split('\n');
    const found = lines.map((line, i) => [i + 1, line.trim()]).filter(([, line]) => physical.test(line));
    assert.deepEqual(found, [], `${file}: physical properties`);
    // And every rule is closed: a lost brace (a merge's) silently swallows the rules after it.
    let depth = 0;
    for (const [i, line] of lines.entries()) {
      depth += (line.match(/{/g) ?? []).length - (line.match(/}/g) ?? []).length;
      assert.ok(depth >= 0, `${file}:${i + 1}: a } too many`);
      if (/^\s*(?:\/\*|[.#@:\w[])/.test(line) && depth > 1 && !/^\s/.test(line)) {
        assert.fail(`${file}:${i + 1}: a rule starts inside an unclosed one`);
      }
    }
    assert.equal(depth, 0, `${file}: unclosed braces`);
  }
});
