// The Design section's two-target table: every pattern of a gallery design on Table storage
// and on Cosmos DB for Table side by side, the monthly cost on each with Cosmos's editable
// price table, and what becomes of the guide's index copies on Cosmos; in English at
// 1280 px and in Arabic at 360 px.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { DESKTOP, PHONE, SCREENSHOTS, assertClean, openPage, start } from './lib.mjs';
import { put, ready } from './design-lib.mjs';

let env;
before(async () => {
  env = await start();
});
after(async () => {
  await env?.close();
});

/** The Design section in `lang`, with gallery design `id` projected to `target` entities. */
async function openTwo(lang, viewport, id, target) {
  const page = await openPage(env.browser, `${env.url}?lang=${lang}`, { viewport });
  await ready(page);
  await page.locator('#nav-design').click();
  await page.locator('#design-heading').waitFor();
  await page.locator(`.gallery-open[data-gallery="${id}"]`).click();
  await page.locator(`.design-two table.two-targets tbody tr`).first().waitFor();
  await put(page.locator('input.design-target'), target);
  return page;
}

/** Every cell of the row of pattern `name`, by class. */
function cells(page, name) {
  return page.locator(`.design-two tr[data-pattern="${name}"]`).evaluate((tr) => {
    const out = {};
    for (const td of tr.querySelectorAll('td')) out[td.className] = td.textContent;
    return out;
  });
}

test('the email index on both targets, in English at 1280 px', async () => {
  const page = await openTwo('en', DESKTOP, 'email-index', '20000');
  const two = page.locator('.design-two');
  await two.locator('caption', { hasText: 'Projected at 20,000 entities, per call' }).waitFor();
  // A scan for a property on storage; the automatic index reads what it returns on Cosmos.
  assert.deepEqual(await cells(page, 'Employee by email, department unknown'), {
    's-read': '20,000 / 2',
    's-trips': '2',
    's-latency': 'scan (10,000 or more read)',
    'c-read': '2 / 2',
    'c-index': 'Email',
    'c-ru': '2 (0.02/s)',
    'c-latency': 'one round trip',
  });
  assert.deepEqual(await cells(page, 'Employee by email in a department'), {
    's-read': '1 / 1', 's-trips': '1', 's-latency': 'point read',
    'c-read': '1 / 1', 'c-index': 'keys only', 'c-ru': '1 (100/s)', 'c-latency': 'point read',
  });
  // The employee and its index entity in one batch: two writes of 4.95 RU each.
  assert.equal((await cells(page, 'Hire an employee with the email index'))['c-ru'], '9.9 (9.9/s)');
  // The month on each target: 4,276.8 RU/s provisioned as 4,300.
  assert.equal(await two.locator('.cost-storage').textContent(), '10.03 USD');
  await two.locator('dt', { hasText: 'Cosmos DB, 4,300 RU/s provisioned, per month' }).waitFor();
  assert.equal(await two.locator('.cost-provisioned').evaluate((dd) => dd.firstChild.textContent), '251.12 USD');
  assert.equal(await two.locator('.cost-provisioned small').textContent(), '251.12 USD for throughput, 0.0007 USD for 0.003 GB');
  assert.match(await two.locator('.cost-serverless').textContent(), /^2,809\.86 USD/);
  // The guide's copy and the storage scan, judged on Cosmos.
  assert.deepEqual(await two.locator('.two-verdicts li').evaluateAll((li) => li.map((x) => [x.className, x.textContent])), [
    ['verdict-copy', 'EmployeeByEmail (intra-partition secondary index) is unnecessary on Cosmos DB for Table: “Employee by email in a department” becomes a filter on DepartmentId, Email of Employee, which the automatic index answers. Leaving it out saves its writes (1/s), about 4.95 RU/s and 0.001 GB.'],
    ['verdict-scan', '“Employee by email, department unknown” scans on Table storage, where the guide\'s answer is an index copy; on Cosmos DB for Table the automatic index answers it, with nothing to add.'],
  ]);
  // Every figure is an estimate with its model one click away.
  await two.locator('details.ru-model summary', { hasText: 'How is this estimated?' }).waitFor();
  // Prices are editable: twice the price of 100 RU/s for an hour, twice the throughput cost.
  await two.locator('.cosmos-prices summary').click();
  assert.match(await two.locator('.cosmos-prices summary').textContent(), /^Cosmos DB prices as of 2026-11-28, from https:\/\/azure\.microsoft\.com\//);
  await put(two.locator('input.price-ru-hour'), '0.016');
  await page.waitForFunction(() => document.querySelector('.design-two .cost-provisioned').textContent.startsWith('502.24 USD'));
  await two.screenshot({ path: join(SCREENSHOTS, 'design-two-en.png') });
  // The table fits the main column at 1280 px without scrolling sideways.
  const widths = await two.locator('.compare-scroll').evaluate((el) => [el.scrollWidth, el.clientWidth]);
  assert.ok(widths[0] <= widths[1], `table ${widths[0]} px in ${widths[1]} px`);
  // The price table is kept with the design.
  const saved = await page.evaluate(() => JSON.parse(localStorage.getItem('tablescope.design')).cosmosPrices.per100RuPerSecHour);
  assert.equal(saved, 0.016);
  assertClean(page);
  await page.context().close();
});

test('the log tail on both targets, in Arabic at 360 px', async () => {
  const page = await openTwo('ar', PHONE, 'log-tail', '20000');
  const two = page.locator('.design-two');
  assert.equal(await page.locator('html').getAttribute('dir'), 'rtl');
  await two.locator('h2', { hasText: 'على الهدفين' }).waitFor();
  // The level filter reads only its matches on Cosmos; the latest lines lose their order.
  // The gallery's designs open in the page's language.
  const level = await cells(page, 'أسطر خدمة في مستوى معيّن');
  assert.equal(level['c-index'], 'Level');
  assert.equal(level['s-read'], '2,500 / 961');
  assert.equal(level['c-read'], '961 / 961');
  assert.deepEqual(await two.locator('.two-verdicts li').evaluateAll((li) => li.map((x) => [x.className, x.textContent])), [
    ['verdict-order', 'يأخذ «آخر 50 سطرًا من خدمة» أول الكيانات بترتيب المفاتيح؛ وعلى Cosmos DB for Table يحصل بدلًا منها على أول ما كُتب.'],
  ]);
  await two.screenshot({ path: join(SCREENSHOTS, 'design-two-ar-360.png') });
  // Nothing overflows the phone's width: the table scrolls inside its own box.
  const wide = await page.evaluate(() =>
    [...document.querySelectorAll('.design-two *')].filter((e) => e.getBoundingClientRect().left < -1 || e.getBoundingClientRect().right > innerWidth + 1)
      .filter((e) => !e.closest('.compare-scroll')).map((e) => e.tagName + '.' + e.className).slice(0, 5));
  assert.deepEqual(wide, []);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.equal(overflow, 0);
  assertClean(page);
  await page.context().close();
});
