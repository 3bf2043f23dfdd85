// The million-entity benchmark: a release build in headless Chromium with
// 1,000,000 saved entities (1,000 partitions × 1,000, the `?perf=1` fill hook), measuring
//
// - the persistence save after the fill: from the fill's end until no save is in flight;
// - a reload: from navigation until the saved tables are shown (the table's row with its
//   count), and the longest task on the main thread meanwhile;
// - the page's memory once loaded: the wasm's linear memory plus the JavaScript heap;
// - a point query from key press (Ctrl+Enter in the filter box) to the next paint of its
//   result, the median of several.
//
//   node scripts/bench/million.mjs [--partitions N] [--rows N] [--queries N]
//   (after `scripts/dist.sh`)
//
// A benchmark, not a test: it prints figures (Markdown), the machine's load with them.

import { loadavg, cpus } from 'node:os';
import { pageMemory, savesSettled, start } from '../../tests/e2e/lib.mjs';

const arg = (name, fallback) => {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? fallback : Number(process.argv[at + 1]);
};
const PARTITIONS = arg('partitions', 1000);
const ROWS = arg('rows', 1000);
const QUERIES = arg('queries', 7);
const TABLE = 'Million';

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (x) => `${Math.round(x)} ms`;
const mb = (x) => `${(x / 2 ** 20).toFixed(0)} MB`;

/** Records every long task (over 50 ms) from the page's start, as `window.__longTasks`. */
function watchLongTasks() {
  window.__longTasks = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__longTasks.push(e.duration);
  }).observe({ type: 'longtask', buffered: true });
}

/** Ctrl+Enter in the filter box to the first paint after the result changed, in ms. */
async function pointQuery(page, pk, rk) {
  await page.locator('#raw-filter').fill(`PartitionKey eq '${pk}' and RowKey eq '${rk}'`);
  // Listening before the key is pressed: the promise is kept on the page, awaited after.
  await page.evaluate(() => {
    window.__queried = new Promise((resolve) => {
      let pressed = 0;
      addEventListener('keydown', () => { pressed = performance.now(); }, { capture: true, once: true });
      const seen = new MutationObserver(() => {
        if (!pressed) return;
        seen.disconnect();
        requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - pressed), 0));
      });
      seen.observe(document.body, { subtree: true, childList: true, characterData: true });
    });
  });
  await page.locator('#raw-filter').press('Control+Enter');
  return page.evaluate(() => window.__queried);
}

const env = await start();
try {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addInitScript(watchLongTasks);
  const page = await context.newPage();
  page.on('pageerror', (e) => console.error(`page error: ${e}`));
  page.on('crash', () => console.error('page crashed'));
  page.on('console', (m) => m.type() === 'error' && console.error(`console: ${m.text()}`));
  await page.goto(`${env.url}?perf=1`);
  await page.getByLabel('New table').waitFor({ timeout: 30_000 });
  await page.getByLabel('New table').fill(TABLE);
  await page.getByRole('button', { name: 'Create table' }).click();
  await page.locator(`[data-table="${TABLE}"]`).waitFor();
  await savesSettled(page, 10_000);

  const fillStart = Date.now();
  const written = await page.evaluate(
    ([t, p, r]) => window.__tablescopeFill(t, p, r),
    [TABLE, PARTITIONS, ROWS],
  );
  const fillMs = Date.now() - fillStart;
  if (written !== PARTITIONS * ROWS) throw new Error(`the fill wrote ${written} entities`);
  const saveStart = Date.now();
  await savesSettled(page, 600_000);
  const saveMs = Date.now() - saveStart;

  const navStart = Date.now();
  await page.reload();
  await page.locator(`[data-table="${TABLE}"] .table-counts`).waitFor({ timeout: 120_000 });
  const mountMs = Date.now() - navStart;
  await page.waitForTimeout(2_000);
  const longest = Math.max(0, ...(await page.evaluate(() => window.__longTasks)));
  // Where the reload's time went: the start's marks (src/ui.rs) and the wasm downloads.
  const phases = await page.evaluate(() => [
    ...performance.getEntriesByType('resource')
      .filter((e) => e.name.endsWith('.wasm'))
      .map((e) => [`${new URL(e.name).pathname} fetched`, e.responseEnd]),
    ...performance.getEntriesByType('mark')
      .filter((e) => e.name.startsWith('tablescope-'))
      .map((e) => [e.name, e.startTime]),
  ].sort((a, b) => a[1] - b[1]));
  const { heap, wasm } = await pageMemory(page);

  await page.locator(`[data-table="${TABLE}"] .table-facts`).click();
  await page.locator('#nav-query').click();
  await page.locator('#raw-filter').waitFor();
  const times = [];
  for (let i = 0; i < QUERIES; i++) {
    const p = String(Math.floor(((i + 1) * PARTITIONS) / (QUERIES + 1))).padStart(4, '0');
    times.push(await pointQuery(page, `p${p}`, `r${String(i * 97 % ROWS).padStart(6, '0')}`));
  }

  console.log(`\n${PARTITIONS * ROWS} entities (${PARTITIONS} partitions × ${ROWS}); ` +
    `${cpus().length} cores, load ${loadavg().map((x) => x.toFixed(1)).join(' ')}\n`);
  console.log('| measure | figure | target |');
  console.log('|---|---|---|');
  console.log(`| fill through the hook (batches of 100) | ${ms(fillMs)} | — |`);
  console.log(`| save after the fill | ${ms(saveMs)} | under 5 s |`);
  console.log(`| reload until the tables show | ${ms(mountMs)} | under 2 s |`);
  console.log(`| longest task during the reload | ${ms(longest)} | under 200 ms |`);
  console.log(`| page memory (wasm ${mb(wasm)} + JS heap ${mb(heap)}) | ${mb(wasm + heap)} | under 500 MB |`);
  console.log(`| point query, key press to paint (median of ${QUERIES}; min ${ms(Math.min(...times))}, max ${ms(Math.max(...times))}) | ${ms(median(times))} | under 50 ms |`);
  console.log(`\nThe reload, from navigation: ${phases.map(([n, t]) => `${n} ${ms(t)}`).join(', ')}`);
  await context.close();
} finally {
  await env.close();
}
