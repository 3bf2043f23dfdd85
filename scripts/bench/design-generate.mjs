// The Design section's generator in the browser: a release build in
// headless Chromium opens the employees gallery design, sets its count, generates, and reports
// the generation's time (the Design module generates, in its Web Worker where one starts, and
// the playground's account stores: see src/ui/sections/design/run.rs; the `tablescope-design-generate` User Timing measure, from the first
// slice to the last), the longest task meanwhile, the time until the last save committed,
// and the evaluation of every pattern.
//
//   node scripts/bench/design-generate.mjs [--count N]
//   (after `scripts/dist.sh`)

import { loadavg } from 'node:os';
import { openDesign } from './lib/design-page.mjs';
import { start } from '../../tests/e2e/lib.mjs';

const at = process.argv.indexOf('--count');
const COUNT = at === -1 ? 1_000_000 : Number(process.argv[at + 1]);

const env = await start();
try {
  const { context, page } = await openDesign(env);
  await page.locator('.gallery-open[data-gallery="employees-by-department"]').click();
  await page.waitForFunction(() => document.querySelector('input.design-name')?.value === 'Employees by department');
  const count = page.locator('fieldset.design-type[data-index="0"] input.type-count');
  await count.fill(String(COUNT));
  await count.dispatchEvent('change');
  const before = loadavg()[0];
  await page.evaluate(() => { window.__longTasks.length = 0; });
  const t0 = Date.now();
  await page.locator('.design-generate button.generate').click();
  await page.locator('.generate-status', { hasText: 'Generated' }).waitFor({ timeout: 600_000 });
  const wall = Date.now() - t0;
  const measured = await page.evaluate(() => performance.getEntriesByName('tablescope-design-generate').at(-1)?.duration);
  const during = await page.evaluate(() => window.__longTasks);
  const split = await page.evaluate(() => window.__tablescopeDesignGenerate);
  const slices = split.offThread
    ? `the hand-over to the playground (the bridge, the playground's inserts; the entities drawn in the Design module's worker meanwhile) ${Math.round(split.engineMs)} ms in ${split.slices} slices, waiting for the worker ${Math.round(split.waitMs)} ms`
    : `generation and hand-over to the playground (the Design module's engine in the page, the bridge, the playground's inserts) ${Math.round(split.engineMs)} ms in ${split.slices} slices`;
  console.log(`${slices}, the saves' planning ${Math.round(split.saveMs)} ms, the rest (rendering, timers) ${Math.round(measured - split.engineMs - split.saveMs - (split.waitMs ?? 0))} ms`);
  const s0 = Date.now();
  await page.waitForFunction(() => window.__tablescopeSavesInFlight() === 0, null, { timeout: 600_000, polling: 50 });
  const save = Date.now() - s0;
  await page.evaluate(() => { window.__longTasks.length = 0; });
  const e0 = Date.now();
  await page.locator('button.evaluate').click();
  await page.locator('table.measured tbody tr').first().waitFor({ timeout: 600_000 });
  const evaluation = Date.now() - e0;
  const evalTasks = await page.evaluate(() => window.__longTasks);
  const max = (xs) => Math.round(Math.max(0, ...xs));
  console.log(`| entities | generate (measure) | generate (click to status) | longest task while generating | tasks over 100 ms | saves settled after | evaluate 6 patterns | longest task evaluating | load avg |`);
  console.log(`|---|---|---|---|---|---|---|---|---|`);
  console.log(`| ${COUNT.toLocaleString('en')} | ${Math.round(measured)} ms | ${wall} ms | ${max(during)} ms | ${during.filter((d) => d > 100).length} | ${save} ms | ${evaluation} ms | ${max(evalTasks)} ms | ${before.toFixed(1)}→${loadavg()[0].toFixed(1)} |`);
  await context.close();
} finally {
  await env.close();
}
