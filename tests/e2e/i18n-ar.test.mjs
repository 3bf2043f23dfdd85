// The first screen, the Query section after a query, a lesson, a docs
// embed and a storage banner, at desktop and 360 px width (/tmp/shots-i18n/ar-*.png), with no
// English left outside API terms and data (tests/e2e/i18n-lib.mjs); right to left throughout,
// with no sideways overflow at 360 px, the sidebar on the right, $filter text and keys
// left to right, and a key mixing Arabic and Latin shown in its own order.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { DESKTOP, PHONE, assertClean, openPage, start } from './lib.mjs';
import { allPages, englishLeft, englishWords, noOverflow, shoot } from './i18n-lib.mjs';

let env;
before(async () => {
  env = await start();
});
after(async () => {
  await env?.close();
});

test('every page speaks Arabic', async () => {
  const { banners } = await allPages(env, 'ar');
  assert.match(banners[0], /Tablescope مفتوح في علامة تبويب أخرى/);
});

test('right to left: the sidebar on the right, data left to right, a mixed key in order', async () => {
  const english = await englishWords('ar');
  for (const [viewport, name] of [
    [DESKTOP, 'desktop'],
    [PHONE, '360'],
  ]) {
    const page = await openPage(env.browser, `${env.url}?lang=ar`, { viewport });
    await page.locator('#tables-heading').waitFor({ timeout: 20_000 });
    assert.deepEqual(await page.evaluate(() => [document.documentElement.lang, document.documentElement.dir]), ['ar', 'rtl']);
    // A table and an entity whose PartitionKey mixes Arabic and Latin.
    await page.locator('#new-table-name').fill('Mixed');
    await page.locator('.tables-panel button[type=submit]').click();
    await page.locator('[data-table=Mixed]').waitFor();
    await page.locator('#entity-pk').fill('قسم-A1');
    await page.locator('#entity-rk').fill('r1');
    await page.locator('.run-write').click();
    const cell = page.locator('#section-data .grid td.pin-1').first();
    await cell.waitFor();
    assert.equal(await cell.textContent(), 'قسم-A1');
    // In its own left-to-right run the key reads as typed: the Arabic word on the left, then
    // "-A1"; unisolated in a right-to-left page, "A1" would sit left of the Arabic.
    const [arabicX, latinX, direction] = await cell.evaluate((td) => {
      // The key's text, in its left-to-right isolate after the row's check box.
      const text = td.querySelector('bdi').firstChild;
      const at = (i) => {
        const r = document.createRange();
        r.setStart(text, i);
        r.setEnd(text, i + 1);
        return r.getBoundingClientRect().x;
      };
      return [at(0), at(4), getComputedStyle(td.querySelector('bdi')).direction];
    });
    assert.equal(direction, 'ltr');
    assert.ok(arabicX < latinX, `the Arabic part at x=${arabicX}, "A" at x=${latinX}`);
    if (name === 'desktop') {
      const sidebar = await page.locator('.tables-panel').boundingBox();
      const entities = await page.locator('.data-panel').boundingBox();
      assert.ok(sidebar.x > entities.x, `sidebar at x=${sidebar.x}, entities at x=${entities.x}`);
    }
    // $filter: typed and shown left to right.
    await page.locator('#nav-query').click();
    await page.locator('#raw-filter').fill("PartitionKey eq 'قسم-A1'");
    assert.equal(await page.locator('#raw-filter').evaluate((t) => getComputedStyle(t).direction), 'ltr');
    await page.locator('.run-query').click();
    await page.locator('.scan-meter').waitFor();
    assert.equal(await page.locator('.explain-filter code').evaluate((c) => getComputedStyle(c).direction), 'ltr');
    assert.equal(await page.locator('.fig-kind').textContent(), 'فحص قسم');
    assert.deepEqual(await englishLeft(page, english), []);
    await noOverflow(page, `ar ${name}`);
    await shoot(page, `ar-mixed-key-${name}`);
    assertClean(page);
    await page.context().close();
  }
});

/** The x of a text's `i`th character, for checking the visual order of a mixed run. */
function charX(element, needle) {
  const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const at = node.data.indexOf(needle);
    if (at < 0) continue;
    const x = (i) => {
      const r = document.createRange();
      r.setStart(node, at + i);
      r.setEnd(node, at + i + 1);
      return r.getBoundingClientRect().x;
    };
    return [x(0), x(1)];
  }
  return null;
}

test('code and query options inside Arabic prose read as written: "$top 5", not "top 5$"', async () => {
  // A lesson's description quotes `$top 5` in a code span.
  const page = await openPage(env.browser, `${env.url}?embed=1&lang=ar&scenario=log-tail.json`);
  const code = page.locator('code', { hasText: '$top 5' }).first();
  await code.waitFor({ timeout: 20_000 });
  const [dollar, t] = await code.evaluate(charX, '$top');
  assert.ok(dollar < t, `"$" at x=${dollar}, "t" at x=${t}`);
  await page.context().close();

  // A message that names $top in running text (too large a $top in the Query section).
  const app = await openPage(env.browser, `${env.url}?lang=ar`);
  await app.locator('#new-table-name').fill('Top');
  await app.locator('.tables-panel button[type=submit]').click();
  await app.locator('[data-table=Top]').waitFor();
  await app.locator('#nav-query').click();
  await app.locator('#q-top').fill('5000');
  await app.locator('.run-query').click();
  const notice = app.locator('.error-notice', { hasText: '$top' }).first();
  await notice.waitFor();
  const [d2, t2] = await notice.evaluate(charX, '$top');
  assert.ok(d2 < t2, `"$" at x=${d2}, "t" at x=${t2}`);
  await shoot(app, 'ar-top-message');
  await app.context().close();
});

