// The Learn section end to end, on the release build in dist/: every shipped scenario runs
// with every expectation green, the lessons' figures show, the partition map marks scanned
// and returned entities, and the simulator throttles the hot design only.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DESKTOP, PHONE, REPO, assertClean, openPage, start } from './lib.mjs';

let env;
before(async () => {
  env = await start();
});
after(async () => {
  await env?.close();
});

const index = JSON.parse(await readFile(join(REPO, 'www/scenarios/index.json'), 'utf8'));

/** Opens the app and waits for the scenario list. */
async function openLearn(viewport = DESKTOP) {
  const page = await openPage(env.browser, env.url, { viewport });
  await page.locator('h1').waitFor({ timeout: 15_000 });
  const nav = page.locator('#nav-learn');
  if (await nav.count()) await nav.click();
  await page.locator('.scenario-load').first().waitFor({ timeout: 15_000 });
  return page;
}

/** Loads a scenario by file and runs all its steps; returns the player locator. */
async function runScenario(page, file) {
  await page.locator(`.scenario-load[data-file="${file}"]`).click();
  const player = page.locator('.scenario-player');
  await player.waitFor();
  await player.getByRole('button', { name: 'Run all' }).click();
  await player.locator('.step').first().waitFor();
  return player;
}

/** The figure `field` of step `index` (0-based) as text. */
async function figure(player, index, field) {
  return (await player.locator(`.step[data-index="${index}"] .fig[data-field="${field}"] dd`).textContent()).trim();
}

test('every shipped scenario runs with every expectation green', async () => {
  const page = await openLearn();
  assert.equal(await page.locator('.scenario-load').count(), index.scenarios.length);
  for (const { file } of index.scenarios) {
    const text = JSON.parse(await readFile(join(REPO, 'www/scenarios', file), 'utf8'));
    const player = await runScenario(page, file);
    await player.locator(`.step[data-index="${text.steps.length - 1}"]`).waitFor();
    assert.equal(await player.locator('.step').count(), text.steps.length, file);
    assert.equal(await player.locator('.step[data-verdict="failed"]').count(), 0, `${file}: a failed step`);
    assert.equal(await player.locator('.expectations li[data-state="failed"]').count(), 0, file);
    const withExpect = text.steps.filter((s) => s.expect).length;
    assert.equal(await player.locator('.step[data-verdict="held"]').count(), withExpect, file);
    assert.equal(await player.locator('.player-progress').getAttribute('data-failed'), '0', file);
  }
  assertClean(page);
  await page.context().close();
});

test('query-kinds: the table scan shows scanned 40, and the partition map marks it', async () => {
  const page = await openLearn();
  const player = await runScenario(page, 'query-kinds.json');
  const steps = JSON.parse(await readFile(join(REPO, 'www/scenarios/query-kinds.json'), 'utf8')).steps;
  // The first table scan that returns 9 of 40.
  const i = steps.findIndex((s) => s.expect?.kind === 'tableScan' && s.expect?.count === 9);
  assert.ok(i > 0);
  assert.equal(await figure(player, i, 'scanned'), '40');
  assert.equal(await figure(player, i, 'returned'), '9');
  assert.equal(await figure(player, i, 'kind'), 'Table scan');
  assert.equal(await figure(player, i, 'partitions'), '5');
  assert.equal(await figure(player, i, 'continuation'), 'none');
  const map = player.locator(`.step[data-index="${i}"] .partition-map`);
  assert.equal(await map.getAttribute('data-bucket'), '1');
  assert.equal(await map.locator('.map-partition').count(), 5);
  assert.equal(await map.locator('.map-cell').count(), 40);
  assert.equal(await map.locator('.map-cell[data-state="returned"]').count(), 9);
  assert.equal(await map.locator('.map-cell[data-state="scanned"]').count(), 31);
  assert.equal(await map.locator('.map-cell[data-state="untouched"]').count(), 0);

  // A point query: one cell returned, the other 39 untouched.
  const p = steps.findIndex((s) => s.expect?.kind === 'point' && s.expect?.count === 1);
  const point = player.locator(`.step[data-index="${p}"] .partition-map`);
  assert.equal(await point.locator('.map-cell[data-state="returned"]').count(), 1);
  assert.equal(await point.locator('.map-cell[data-state="scanned"]').count(), 0);
  assert.equal(await point.locator('.map-cell[data-state="untouched"]').count(), 39);

  // A partition scan of Books: 8 scanned, 2 returned, the 32 others untouched.
  const s = steps.findIndex((x) => x.expect?.kind === 'partitionScan' && x.expect?.scanned === 8);
  const scan = player.locator(`.step[data-index="${s}"] .partition-map`);
  assert.equal(await scan.locator('.map-cell[data-state="returned"]').count(), steps[s].expect.count);
  assert.equal(await scan.locator('.map-cell[data-state="scanned"]').count(), 8 - steps[s].expect.count);
  assert.equal(await scan.locator('.map-cell[data-state="untouched"]').count(), 32);

  // The viewport, not the full page (a run of all steps is thousands of pixels tall).
  await page.locator('.learn-panel').scrollIntoViewIfNeeded();
  await page.locator('#learn-heading').evaluate((e) => e.scrollIntoView());
  await page.screenshot({ path: join(REPO, 'tests/e2e/screenshots/teach-desktop-learn.png') });
  // Earlier steps are folded to one line: open this one for its map.
  await player.locator(`.step[data-index="${i}"] .step-toggle`).click();
  await player.locator(`.step[data-index="${i}"]`).screenshot({ path: join(REPO, 'tests/e2e/screenshots/teach-desktop-partition-map.png') });
  assertClean(page);
  await page.context().close();
});

test('the player runs one step at a time and resets', async () => {
  const page = await openLearn();
  await page.locator('.scenario-load[data-file="employees.json"]').click();
  const player = page.locator('.scenario-player');
  await player.getByRole('button', { name: 'Run next step' }).click();
  await player.locator('.step[data-index="0"]').waitFor();
  assert.equal(await player.locator('.step').count(), 1);
  await player.getByRole('button', { name: 'Run next step' }).click();
  await player.locator('.step[data-index="1"]').waitFor();
  assert.equal(await player.locator('.step').count(), 2);
  await player.getByRole('button', { name: 'Reset' }).click();
  await page.waitForFunction(() => document.querySelectorAll('.scenario-player .step').length === 0);
  // The user's own tables are untouched by the lesson.
  assert.equal(await page.locator('.table-row').count(), 0);
  assertClean(page);
  await page.context().close();
});

test('the simulator throttles the hot partition and not the spread design', async () => {
  const page = await openLearn();
  const sim = page.locator('.simulator-panel');
  await sim.locator('#sim-ops').fill('5000');
  await sim.locator('#sim-seconds').fill('10');
  await sim.locator('#sim-spike').fill('0');
  await sim.getByRole('button', { name: 'Simulate' }).click();
  const total = async (side, field) =>
    Number((await sim.locator(`.sim-design[data-design="${side}"] .fig[data-field="${field}"] dd`).textContent()).replace(/[^0-9]/g, ''));
  assert.match(await sim.locator('.sim-design[data-design="a"] h3').textContent(), /date/);
  assert.match(await sim.locator('.sim-design[data-design="b"] h3').textContent(), /hash % 10/);
  assert.equal(await total('a', 'offered'), 50_000);
  assert.equal(await total('b', 'offered'), 50_000);
  assert.ok((await total('a', 'failed')) > 0, 'the hot partition fails writes');
  assert.ok((await total('a', 'throttled')) > 0);
  assert.equal(await total('b', 'throttled'), 0, 'the spread design is never throttled');
  assert.equal(await total('b', 'succeeded'), 50_000);
  assert.ok((await sim.locator('.sim-design[data-design="a"] .heat-cell[data-state="throttled"]').count()) > 0);
  assert.equal(await sim.locator('.sim-design[data-design="b"] .heat-cell[data-state="throttled"]').count(), 0);
  assert.equal(await sim.locator('.sim-design[data-design="b"] .heat-row').count(), 10);

  // Without retries, same workload: more failures on the hot design, still none on the spread.
  await sim.locator('#sim-retry').uncheck();
  await sim.getByRole('button', { name: 'Simulate' }).click();
  await page.waitForFunction(() => document.querySelector('.sim-design[data-design="a"] [data-field="retries"] dd')?.textContent === '0');
  assert.equal(await total('a', 'failed'), 29_820);
  assert.equal(await total('b', 'failed'), 0);
  await sim.scrollIntoViewIfNeeded();
  await sim.screenshot({ path: join(REPO, 'tests/e2e/screenshots/teach-desktop-simulator.png') });
  assertClean(page);
  await page.context().close();
});

test('screenshots of Learn, the partition map and the simulator at 360 px', async () => {
  const page = await openLearn(PHONE);
  const player = await runScenario(page, 'query-kinds.json');
  // The newest step is open (with its map), the earlier ones folded.
  await player.locator('.step:last-child .partition-map').waitFor();
  const noOverflow = await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
  assert.ok(noOverflow, 'nothing overflows the 360 px viewport');
  await page.locator('#learn-heading').evaluate((e) => e.scrollIntoView());
  await page.screenshot({ path: join(REPO, 'tests/e2e/screenshots/teach-phone-learn.png') });
  const i = 12;
  await player.locator(`.step[data-index="${i}"] .step-toggle`).click();
  await player.locator(`.step[data-index="${i}"]`).evaluate((e) => e.scrollIntoView());
  await page.screenshot({ path: join(REPO, 'tests/e2e/screenshots/teach-phone-partition-map.png') });
  await page.locator('.simulator-panel').screenshot({ path: join(REPO, 'tests/e2e/screenshots/teach-phone-simulator.png') });
  assertClean(page);
  await page.context().close();
});

/** The paths of the wasm files `page` requests from now on. */
function wasmRequests(page) {
  const seen = [];
  page.on('request', (r) => {
    const path = new URL(r.url()).pathname;
    if (path.endsWith('.wasm')) seen.push(path);
  });
  return seen;
}

test('the lessons module loads on first use of Learn, and retries after a failed load', async () => {
  const context = await env.browser.newContext({ viewport: DESKTOP });
  const page = await context.newPage();
  // No service worker in this context, so every request reaches page.route.
  await context.route('**/sw.js', (route) => route.abort());
  const wasm = wasmRequests(page);
  await page.goto(env.url);
  await page.locator('h1').waitFor({ timeout: 15_000 });
  // The playground's deferred wasm follows once the app has started (tests/e2e/split.test.mjs).
  await page.waitForFunction(() => performance.getEntriesByType('resource').some((e) => e.name.includes('/tablescope-deferred-')));
  await page.waitForTimeout(300);
  assert.deepEqual(
    wasm.map((p) => p.replace(/-[0-9a-f]{1,16}(_bg)?\.wasm$/, '-<hash>$1.wasm')),
    ['/tablescope-<hash>_bg.wasm', '/tablescope-deferred-<hash>.wasm'],
    'the playground alone at start',
  );
  // The first attempt fails (as when offline before the first visit): the section says so
  // and offers to try again.
  await page.route('**/learn_bg.wasm', (route) => route.abort());
  await page.locator('#nav-learn').click();
  const failed = page.locator('.lessons-failed');
  await failed.waitFor({ timeout: 15_000 });
  assert.match(await failed.textContent(), /The lessons could not be loaded/);
  await page.unroute('**/learn_bg.wasm');
  await failed.getByRole('button', { name: 'Try again' }).click();
  await page.locator('.scenario-load').first().waitFor({ timeout: 15_000 });
  assert.equal(await page.locator('.lessons-failed').count(), 0);
  assert.equal(await page.locator('.scenario-load').count(), index.scenarios.length);
  assert.ok(wasm.includes('/learn_bg.wasm'));
  // The share panel stays in the playground's own module, below the lessons.
  await page.locator('.share-panel').waitFor();
  await context.close();
});

test('a docs embed downloads the lesson module only', async () => {
  const context = await env.browser.newContext({ viewport: PHONE });
  const page = await context.newPage();
  await context.route('**/sw.js', (route) => route.abort());
  const wasm = wasmRequests(page);
  await page.goto(`${env.url}?embed=1&scenario=compound-keys.json`);
  await page.locator('.scenario-player').waitFor({ timeout: 15_000 });
  assert.deepEqual(wasm, ['/lesson_bg.wasm']);
  await context.close();
});

test("a lesson's own query box runs on the lesson's tables with figures and a map", async () => {
  const page = await openLearn();
  const player = await runScenario(page, 'query-kinds.json');
  const box = player.locator('.try-query');
  await box.waitFor();
  assert.equal(await box.locator('.try-table-select').inputValue(), 'Products');
  // A partition scan of one category: every entity of the partition read, the matches returned.
  await box.locator('.try-filter').fill("PartitionKey eq 'Books' and Price gt 20");
  await box.locator('.try-filter').press('Control+Enter');
  const result = box.locator('.try-result');
  await result.waitFor();
  // The lesson's Books partition holds 8 entities, 4 of them priced over 20.
  assert.equal(await result.getAttribute('data-kind'), 'Partition scan');
  assert.equal(await result.getAttribute('data-scanned'), '8');
  assert.equal(await result.getAttribute('data-returned'), '4');
  const map = result.locator('.partition-map');
  assert.equal(await map.getAttribute('data-scanned'), '8');
  assert.equal(await map.getAttribute('data-returned'), '4');
  assert.equal(await map.locator('.map-partition[data-partition="Books"] .map-cell[data-state="returned"]').count(), 4);
  await box.screenshot({ path: new URL('./screenshots/teach-desktop-try-query.png', import.meta.url).pathname });
  // A syntax error is the service's 400, shown beside the box; the last result is gone.
  await box.locator('.try-filter').fill("Price gt");
  await box.getByRole('button', { name: 'Run' }).click();
  await box.locator('.error-notice').waitFor();
  assert.match(await box.locator('.error-code').textContent(), /^400 /);
  assert.equal(await box.locator('.try-result').count(), 0);
  // Hostile text in the filter stays text.
  await box.locator('.try-filter').fill("Name eq '<img src=x onerror=window.__pwned=1>'");
  await box.getByRole('button', { name: 'Run' }).click();
  await result.waitFor();
  assert.equal(await page.evaluate(() => window.__pwned), undefined);
  assertClean(page);
  await page.context().close();
});
