// The first visit. An empty playground says what Tablescope is and offers
// the first lesson or the guide's sample table (a real table, saved like any other); on a
// phone the sections come before the tables panel; a query's results scroll into view.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { DESKTOP, PHONE, assertClean, openPage, screenshot, start } from './lib.mjs';

const SHOTS = '/tmp/shots-ux-b';

let env;
before(async () => {
  env = await start();
  await mkdir(SHOTS, { recursive: true });
});
after(async () => {
  await env?.close();
});

async function open(viewport = DESKTOP, colorScheme = 'light') {
  const page = await openPage(env.browser, env.url, { viewport, colorScheme });
  await page.locator('html[data-ready]').waitFor({ state: 'attached', timeout: 15_000 });
  return page;
}

/** Saves the viewport (what a visitor sees first) to /tmp/shots-ux-b and the full page. */
async function shot(page, name) {
  await page.screenshot({ path: `${SHOTS}/${name}.png` });
  await screenshot(page, name);
}

async function loadSample(page) {
  await page.getByRole('button', { name: /Load sample data/ }).click();
  await page.locator('.data-panel .grid-count', { hasText: '9 entities loaded in 1 page' }).waitFor();
}

/** Whether the element lies wholly inside the window (top to bottom; with `across`, also side to side). */
async function inView(locator, across = true) {
  const box = await locator.boundingBox();
  const { height, width } = locator.page().viewportSize();
  // A pixel of slack: scrolling aligns to fractional positions.
  const down = box !== null && box.y >= -1 && box.y + box.height <= height + 1;
  return down && (!across || (box.x >= 0 && box.x + box.width <= width));
}

test('an empty playground says what Tablescope is and offers two starts', async () => {
  for (const colorScheme of ['light', 'dark']) {
    const page = await open(DESKTOP, colorScheme);
    const welcome = page.locator('.welcome');
    await welcome.waitFor();
    assert.equal(await welcome.locator('h2').textContent(), 'Try Azure Table storage, right here');
    assert.match(await welcome.locator('.welcome-intro').textContent(), /answered as the real service would, with what each query scanned/);
    assert.deepEqual(await welcome.locator('.start-title').allTextContents(), ['Learn in 5 minutes', 'Load sample data']);
    assert.ok(await inView(welcome.locator('.start-sample')), 'both starts in the first screen');
    await shot(page, `first-visit-desktop-${colorScheme}`);
    assertClean(page);
    await page.context().close();
  }
});

test('"Load sample data" creates the guide\'s Employees table as the user\'s own, saved', async () => {
  const page = await open();
  await loadSample(page);
  // Selected, in the Entities section, the welcome gone (there is a table now).
  assert.equal(await page.locator('[data-table="Employees"] .table-facts').getAttribute('aria-pressed'), 'true');
  assert.equal(await page.locator('#nav-data').getAttribute('aria-current'), 'page');
  assert.equal(await page.locator('.welcome').count(), 0);
  assert.equal(await page.locator('#data-heading').textContent(), 'Entities in Employees');
  assert.equal(await page.locator('[data-table="Employees"] .table-counts').textContent(), '9 entities · 2 partitions');
  const keys = await page
    .locator('.data-panel .grid-row')
    .evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll('td.pin')].map((td) => td.textContent).join('/')));
  assert.deepEqual(keys, [
    'Marketing/00001', 'Marketing/00002', 'Marketing/00003', 'Marketing/00004', 'Marketing/Department',
    'Sales/00010', 'Sales/00011', 'Sales/00012', 'Sales/Department',
  ]);
  // The guide's first row, typed as the lesson writes it.
  const don = await page.locator('.data-panel .grid-row').first().textContent();
  for (const value of ['Don', 'Hall', '34', 'donh@contoso.com']) assert.ok(don.includes(value), `${value} in ${don}`);
  await shot(page, 'sample-data-desktop');
  // Saved like any table: a reload (F5) finds it, and the user can change it.
  await page.reload();
  await page.locator('[data-table="Employees"] .table-counts', { hasText: '9 entities · 2 partitions' }).waitFor({ timeout: 15_000 });
  await page.locator('[data-table="Employees"] .table-facts').click();
  await page.locator('#entity-pk').fill('Sales');
  await page.locator('#entity-rk').fill('00013');
  await page.locator('.run-write').click();
  await page.locator('.editor-status', { hasText: '201' }).waitFor();
  assert.equal(await page.locator('[data-table="Employees"] .table-counts').textContent(), '10 entities · 2 partitions');
  assertClean(page);
  await page.context().close();
});

test('"Learn in 5 minutes" opens the first lesson, on its own data', async () => {
  const page = await open();
  await page.getByRole('button', { name: /Learn in 5 minutes/ }).click();
  assert.equal(await page.locator('#nav-learn').getAttribute('aria-current'), 'page');
  await page.locator('.scenario-player[data-scenario="Employees and departments"]').waitFor({ timeout: 20_000 });
  // The lesson's first step button has focus: Enter runs the first step.
  await page.waitForFunction(() => document.activeElement?.classList.contains('run-next'));
  await page.keyboard.press('Enter');
  await page.locator('.scenario-player .step[data-index="0"]').waitFor();
  // The user's own tables are untouched.
  assert.equal(await page.locator('.table-row').count(), 0);
  await shot(page, 'first-lesson-desktop');
  assertClean(page);
  await page.context().close();
});

test('on a phone the sections come first, the tables panel below them', async () => {
  const page = await open(PHONE);
  await page.locator('.welcome').waitFor();
  await shot(page, 'first-visit-360');
  // Every section tab and both starts in the first screen, without scrolling.
  for (const id of ['data', 'query', 'batch', 'learn']) {
    assert.ok(await inView(page.locator(`#nav-${id}`)), `#nav-${id} in the first screen`);
  }
  assert.ok(await inView(page.locator('.start-learn')), 'Learn in 5 minutes in the first screen');
  const y = async (selector) => (await page.locator(selector).boundingBox()).y;
  assert.ok((await y('#tables-heading')) > (await y('#section-data')), 'the tables panel is below the sections');
  await loadSample(page);
  // The sample's entities come into view (its heading takes focus).
  await page.waitForFunction(() => document.activeElement?.id === 'data-heading');
  assert.ok(await inView(page.locator('#data-heading')));
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
  assert.ok(overflow <= 0, `no horizontal scrolling at 360 px (${overflow} px)`);
  await page.evaluate(() => window.scrollTo(0, 0));
  await shot(page, 'sample-data-360');
  assertClean(page);
  await page.context().close();
});

for (const [label, viewport] of [['1280', DESKTOP], ['360', PHONE]]) {
  test(`after Run the results' first row is in view (${label} px)`, async () => {
    const page = await open(viewport);
    await loadSample(page);
    await page.locator('#nav-query').click();
    await page.locator('#raw-filter').fill("PartitionKey eq 'Sales' and Age gt 30");
    await page.locator('.run-query').click();
    const first = page.locator('#section-query .results .grid-row').first();
    await first.waitFor();
    // The scroll happens after the frame that paints the results.
    await page.waitForFunction(() => {
      const row = document.querySelector('#section-query .results .grid-row');
      const r = row?.getBoundingClientRect();
      return r && r.top >= 0 && r.bottom <= innerHeight;
    }, null, { timeout: 5_000 });
    // Top to bottom: on a phone the grid is wider than the window and scrolls sideways.
    assert.ok(await inView(first, false), 'the first result row is inside the window');
    assert.match(await first.textContent(), /Sales.*00011.*Mia/);
    await shot(page, `query-results-${label}`);
    assertClean(page);
    await page.context().close();
  });
}
