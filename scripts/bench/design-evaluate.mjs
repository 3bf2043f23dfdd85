// The Design section's evaluation in the browser: a release build in
// headless Chromium imports the employees gallery design with ten patterns (its six and the
// four more of `crates/bench/benches/design.rs`, the native benchmark) at N entities, generates them, then
// evaluates every pattern ROUNDS times and reports each round's time (from the click to the
// last pattern's figures, `window.__tablescopeDesignEvaluateMs` with `?perf=1`), the longest
// task and the tasks over 50 ms while it ran.
//
//   node scripts/bench/design-evaluate.mjs [--count N] [--rounds R]
//   (after `scripts/dist.sh`)

import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { openDesign } from './lib/design-page.mjs';
import { start, REPO } from '../../tests/e2e/lib.mjs';

const arg = (name, fallback) => {
  const at = process.argv.indexOf(name);
  return at === -1 ? fallback : Number(process.argv[at + 1]);
};
const COUNT = arg('--count', 1_000_000);
const ROUNDS = arg('--rounds', 3);

/** The gallery design with the native benchmark's four extra patterns, at COUNT entities. */
function tenPatterns() {
  const d = JSON.parse(readFileSync(`${REPO}/crates/design/src/gallery/employees-by-department.json`, 'utf8'));
  d.patterns.unshift(
    { kind: 'read', name: 'Employees of a department at an age', entityType: 'Employee', rate: 1,
      conditions: [{ on: 'PartitionKey', op: 'eq' }, { on: 'Age', op: 'eq' }] },
    { kind: 'read', name: 'First 20 employees of a department', entityType: 'Employee', rate: 10,
      conditions: [{ on: 'PartitionKey', op: 'eq' }], resultSize: 20 },
    { kind: 'read', name: 'A page of 100 employee rows', entityType: 'Employee', rate: 10,
      conditions: [{ on: 'PartitionKey', op: 'eq' }, { on: 'RowKey', op: 'prefix', length: 4 }], resultSize: 100 },
    { kind: 'write', name: 'Change an employee', op: 'update', entityTypes: ['Employee'], rate: 5, readFirst: true },
  );
  d.entityTypes[0].count = COUNT;
  if (d.patterns.length !== 10) throw new Error('the bench design must have ten patterns');
  return JSON.stringify(d);
}

const env = await start();
try {
  const { context, page } = await openDesign(env);
  await page.locator('input.import-file').setInputFiles({
    name: 'ten-patterns.json', mimeType: 'application/json', buffer: Buffer.from(tenPatterns()),
  });
  await page.waitForFunction((n) => document.querySelector('fieldset.design-type[data-index="0"] input.type-count')?.value.replace(/\D/g, '') === String(n), COUNT);
  await page.locator('.design-generate button.generate').click();
  await page.locator('.generate-status', { hasText: 'Generated' }).waitFor({ timeout: 600_000 });
  await page.waitForFunction(() => window.__tablescopeSavesInFlight() === 0, null, { timeout: 600_000, polling: 50 });
  console.log(`| entities | round | evaluate 10 patterns | click to figures | longest task | tasks over 50 ms | load avg |`);
  console.log(`|---|---|---|---|---|---|---|`);
  for (let round = 1; round <= ROUNDS; round++) {
    const before = loadavg()[0];
    await page.evaluate(() => { window.__longTasks.length = 0; window.__tablescopeDesignEvaluateMs = undefined; });
    const t0 = Date.now();
    await page.locator('button.evaluate').click();
    await page.waitForFunction(() => window.__tablescopeDesignEvaluateMs !== undefined, null, { timeout: 600_000, polling: 20 });
    const wall = Date.now() - t0;
    const ms = await page.evaluate(() => window.__tablescopeDesignEvaluateMs);
    const rows = await page.locator('table.measured tbody tr').count();
    if (rows !== 10) throw new Error(`${rows} figure rows, not 10`);
    const problem = await page.locator('.evaluate-problem').textContent();
    if (problem.trim()) throw new Error(problem);
    const tasks = await page.evaluate(() => window.__longTasks);
    const longest = Math.round(Math.max(0, ...tasks));
    console.log(`| ${COUNT.toLocaleString('en')} | ${round} | ${Math.round(ms)} ms | ${wall} ms | ${longest} ms | ${tasks.filter((d) => d > 50).length} | ${before.toFixed(1)}→${loadavg()[0].toFixed(1)} |`);
  }
  await context.close();
} finally {
  await env.close();
}
