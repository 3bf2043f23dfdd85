// The playground's split wasm (scripts/split.mjs): the page starts on the primary wasm alone,
// fetches the deferred wasm once the app is up, and instantiates it on the first call into
// it; a call that comes before the fetch has finished loads it synchronously. Run against the
// release build that scripts/test.sh split.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { DESKTOP, assertClean, openPage, start } from './lib.mjs';

let env;
before(async () => {
  env = await start();
});
after(async () => {
  await env?.close();
});

/** The .wasm requests the page made so far: [path, initiatorType]. */
function wasmRequests(page) {
  return page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .filter((e) => e.name.endsWith('.wasm'))
      .map((e) => [new URL(e.name).pathname.replace(/-[0-9a-f]{1,16}(_bg)?\.wasm$/, '-<hash>$1.wasm'), e.initiatorType]),
  );
}

const deferredLoaded = (page) =>
  page.evaluate(() => performance.getEntriesByName('tablescope-deferred-loaded').length);

async function createTable(page, name) {
  await page.getByLabel('New table').fill(name);
  await page.getByRole('button', { name: 'Create table' }).click();
  await page.locator(`[data-table="${name}"]`).waitFor();
}

test('the page starts on the primary wasm; the deferred wasm is fetched after, and loads on first use', async () => {
  const page = await openPage(env.browser, env.url);
  await page.locator('#entity-pk').waitFor({ timeout: 15_000 });
  // The deferred wasm is named in the page, for the service worker, relative to the page.
  const named = await page.locator('meta[name="tablescope-deferred"]').getAttribute('content');
  assert.match(named, /^tablescope-deferred-[0-9a-f]{1,16}\.wasm$/);
  await page.waitForFunction(
    (url) => performance.getEntriesByType('resource').some((e) => e.name.endsWith(url)),
    named,
    { timeout: 15_000 },
  );
  assert.deepEqual(
    (await wasmRequests(page)).filter(([path]) => !path.startsWith('/learn')),
    [
      ['/tablescope-<hash>_bg.wasm', 'fetch'],
      ['/tablescope-deferred-<hash>.wasm', 'fetch'],
    ],
  );
  // Starting and showing the empty app ran no deferred code.
  assert.equal(await deferredLoaded(page), 0);

  // Creating a table is not among the start-up flows: its code is deferred, and it works.
  await createTable(page, 'Split');
  assert.equal(await deferredLoaded(page), 1);
  const wait = await page.evaluate(() => performance.getEntriesByName('tablescope-deferred-loaded')[0].duration);
  console.log(`deferred wasm: the first call into it waited ${wait.toFixed(1)} ms (prefetched)`);
  assert.equal(await page.locator('[data-table="Split"] .table-counts').textContent(), '0 entities · 0 partitions');
  await createTable(page, 'Second');
  assert.equal(await deferredLoaded(page), 1, 'instantiated once');
  assertClean(page);
  await page.context().close();
});

test('a first use before the deferred wasm has arrived loads it synchronously', async () => {
  const context = await env.browser.newContext({ viewport: DESKTOP });
  await context.route('**/sw.js', (route) => route.abort());
  // The background fetch fails (as on a flaky network); the first call fetches it again.
  let refused = 0;
  await context.route('**/tablescope-deferred-*.wasm', (route) => {
    if (refused++ === 0) return route.abort();
    return route.continue();
  });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(env.url);
  await page.locator('#entity-pk').waitFor({ timeout: 15_000 });
  await page.waitForTimeout(300);
  assert.equal(refused, 1);
  assert.equal(await deferredLoaded(page), 0);

  await createTable(page, 'Late');
  assert.equal(await deferredLoaded(page), 1);
  const wait = await page.evaluate(() => performance.getEntriesByName('tablescope-deferred-loaded')[0].duration);
  console.log(`deferred wasm: the first call into it waited ${wait.toFixed(1)} ms (fetched then)`);
  const requests = (await wasmRequests(page)).filter(([path]) => path.includes('deferred'));
  assert.deepEqual(requests.at(-1), ['/tablescope-deferred-<hash>.wasm', 'xmlhttprequest']);
  assert.deepEqual(errors, []);
  await context.close();
});
