// Honest figures and names: the scan meter counts distinct partitions over a query's pages, a
// raw $filter that does not parse marks the builder stale with the real reason, the builder's
// condition rows are named groups, and the page starts with a skip link.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { DESKTOP, assertClean, openPage, screenshot, start } from './lib.mjs';

let env;
before(async () => {
  env = await start();
});
after(async () => {
  await env?.close();
});

/** Table `Books`: partitions A (3 entities), B (2) and C (3), every Year after 2000. */
async function seedBooks(page) {
  const statuses = await page.evaluate(() => {
    const base = 'http://127.0.0.1:10002/devstoreaccount1';
    const headers = [['Accept', 'application/json;odata=nometadata'], ['Content-Type', 'application/json']];
    const post = (path, body) =>
      window.tablescope.wire({ method: 'POST', url: base + path, headers, body: JSON.stringify(body) }).status;
    const out = [post('/Tables', { TableName: 'Books' })];
    for (const [pk, n] of [['A', 3], ['B', 2], ['C', 3]]) {
      for (let i = 1; i <= n; i += 1) out.push(post('/Books', { PartitionKey: pk, RowKey: `r${i}`, Year: 2000 + i }));
    }
    return out;
  });
  assert.deepEqual(statuses, [201, ...Array(8).fill(201)]);
  await page.locator('[data-table="Books"] .table-facts').click();
}

async function openApp() {
  const page = await openPage(env.browser, env.url, { viewport: DESKTOP });
  await page.locator('html[data-ready]').waitFor({ state: 'attached', timeout: 15_000 });
  return page;
}

async function figure(page, cls) {
  return Number((await page.locator(`.scan-meter ${cls}`).textContent()).replace(/[^0-9]/g, ''));
}

test('paged to the end, the meter counts 3 partitions, not 6 (1+2+2+1)', async () => {
  const page = await openApp();
  await seedBooks(page);
  await page.locator('#nav-query').click();
  await page.locator('#q-top').fill('2');
  await page.locator('#raw-filter').fill('Year gt 2000');
  await page.locator('#raw-filter').press('Control+Enter');
  await page.locator('.results-count', { hasText: 'Page 1:' }).waitFor();
  assert.equal(await figure(page, '.fig-partitions'), 1);
  let pages = 1;
  // Pages: A1 A2 | A3 B1 | B2 C1 | C2 C3: partitions 1, 2, 2, 1 per page.
  const after = [1, 2, 3, 3];
  while (await page.locator('.next-page').isVisible()) {
    await page.locator('.next-page').click();
    pages += 1;
    await page.locator('.results-count', { hasText: `Page ${pages}:` }).waitFor();
    assert.equal(await figure(page, '.fig-partitions'), after[pages - 1], `after page ${pages}`);
  }
  assert.equal(pages, 4);
  assert.equal(await figure(page, '.fig-pages'), 4);
  assert.equal(await figure(page, '.fig-scanned'), 8);
  assert.equal(await figure(page, '.fig-returned'), 8);
  assert.equal(await figure(page, '.fig-partitions'), 3);
  assertClean(page);
  await page.context().close();
});

test('a raw $filter that does not parse marks the builder stale with the syntax error\'s position', async () => {
  const page = await openApp();
  await seedBooks(page);
  await page.locator('#nav-query').click();
  const raw = page.locator('#raw-filter');
  const builder = page.locator('fieldset.builder');
  const hint = page.locator('#raw-filter-hint');
  await raw.fill('Year gt 2000');
  assert.equal(await builder.getAttribute('data-stale'), 'false');
  assert.equal(await page.locator('.condition-row .cond-value').inputValue(), '2000');
  assert.match(await hint.textContent(), /^Kept in sync with the builder/);

  await raw.fill('Year gt 2000 and');
  const syntax = (await page.locator('.syntax-message').textContent()).trim();
  const position = syntax.match(/^Position (\d+):/)[1];
  assert.equal(position, '16');
  assert.equal(await builder.getAttribute('data-stale'), 'true');
  assert.equal(
    (await hint.textContent()).trim(),
    'The filter has a syntax error at position 16: the builder still shows the last filter that could be read, not this one.',
  );
  assert.doesNotMatch(await hint.textContent(), /bare true or false/);
  assert.equal(await builder.getAttribute('aria-describedby'), 'raw-filter-hint');
  await screenshot(page, 'builder-stale');

  // Fixed, the builder reads it again.
  await raw.fill('Year gt 2001');
  assert.equal(await builder.getAttribute('data-stale'), 'false');
  assert.equal(await page.locator('.condition-row .cond-value').inputValue(), '2001');
  assert.match(await hint.textContent(), /^Kept in sync with the builder/);
  assertClean(page);
  await page.context().close();
});

test('each condition row is a group named by its place', async () => {
  const page = await openApp();
  await seedBooks(page);
  await page.locator('#nav-query').click();
  await page.locator('#raw-filter').fill("Year gt 2000 and (PartitionKey eq 'A' or RowKey eq 'r2')");
  const names = await page.locator('.condition-row').evaluateAll((rows) => rows.map((r) => [r.getAttribute('role'), r.getAttribute('aria-label')]));
  assert.deepEqual(names, [
    ['group', 'Condition 1: property, operator, type, value'],
    ['group', 'Condition 2: property, operator, type, value'],
    ['group', 'Condition 3: property, operator, type, value'],
  ]);
  const second = page.getByRole('group', { name: 'Condition 2: property, operator, type, value' });
  assert.equal(await second.locator('.cond-property').inputValue(), 'PartitionKey');
  // Removing the first renumbers the rest.
  await page.locator('.condition-row').first().locator('.remove-condition').click();
  assert.equal(await page.locator('.condition-row').first().getAttribute('aria-label'), 'Condition 1: property, operator, type, value');
  assert.equal(await page.getByRole('group', { name: 'Condition 1: property, operator, type, value' }).locator('.cond-property').inputValue(), 'PartitionKey');
  assertClean(page);
  await page.context().close();
});

test('the first Tab stop is a visible "Skip to content" link that moves focus to the sections', async () => {
  const page = await openApp();
  await page.keyboard.press('Tab');
  const link = await page.evaluate(() => {
    const a = document.activeElement;
    const r = a.getBoundingClientRect();
    return { tag: a.tagName, text: a.textContent, href: a.getAttribute('href'), top: r.top, bottom: r.bottom, left: r.left, width: r.width };
  });
  assert.equal(link.tag, 'A');
  assert.equal(link.text, 'Skip to content');
  assert.equal(link.href, '#content');
  assert.ok(link.top >= 0 && link.bottom <= 100 && link.left >= 0 && link.width > 40, `in sight when focused: ${JSON.stringify(link)}`);
  await page.screenshot({ path: new URL('./screenshots/skip-link.png', import.meta.url).pathname, clip: { x: 0, y: 0, width: 640, height: 120 } });
  await page.keyboard.press('Enter');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'content');
  // The next Tab reaches the section tabs, past the header and the side panels.
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'nav-data');
  // Unfocused, it is out of sight.
  const hidden = await page.locator('.skip-link').boundingBox();
  assert.ok(hidden.y + hidden.height <= 0, `out of sight: ${JSON.stringify(hidden)}`);
  assertClean(page);
  await page.context().close();
});
