// What a first visit and a docs embed really download, counted by the server (tests/e2e/serve.mjs
// records every answer, with its body's gzip -9 size), and what then works offline; in every
// language the UI speaks, each opened by a browser set to it (not by `?lang=`), as docs/size.md
// states the budget.
//
// - The playground: at most 300 KB gzip before it is usable in its language; the service
//   worker starts precaching only afterwards, the deferred half of the split wasm is not
//   needed to start, and no file is downloaded twice (the worker takes the page's downloads
//   from the HTTP cache).
// - After that one visit, every lesson opens offline, not only those opened before.
// - An embed registers no service worker, downloads neither the playground nor anything in the
//   background, and stays within 300 KB gzip; so does a code cell embed, counting the sandbox
//   worker and the SDK its run loads, without the lessons or the editor.
// - An embed in a sandboxed iframe (no allow-same-origin) works, and where the host sends no
//   CORS header, the frame says why instead of staying blank.

import { after, afterEach, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DESKTOP, DIST, PHONE, REPO, screenshot, start } from './lib.mjs';
import { serve } from './serve.mjs';

const BUDGET = 300 * 1024;
const index = JSON.parse(await readFile(join(REPO, 'www/scenarios/index.json'), 'utf8'));

/** The UI's languages, each as a browser set to it announces itself. */
const LANGUAGES = [
  { code: 'en', locale: 'en-US' },
  { code: 'de', locale: 'de-DE' },
  { code: 'nl', locale: 'nl-NL' },
  { code: 'ar', locale: 'ar-EG' },
];

let env;
before(async () => {
  // Every origin here is loopback, so Chromium's Local Network Access checks would take the
  // sandboxed frame (an opaque origin) for a public page reaching into the local network and
  // block it; a docs page and Tablescope on the web are both public, so switch them off.
  env = await start({ extraArgs: ['--disable-features=LocalNetworkAccessChecks'] });
});
after(async () => {
  await env?.close();
});

const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
const downloads = (entries) => entries.filter((e) => e.status === 200);
const gzipTotal = (entries) => entries.reduce((sum, e) => sum + e.gzipBytes, 0);
const listing = (entries) => entries.map((e) => `${e.status} ${e.path} ${kb(e.gzipBytes)}`).join('\n  ');

/** Collects the page's problems (errors, failed requests) like lib.mjs's openPage. */
function watch(page) {
  page.problems = [];
  page.on('pageerror', (err) => page.problems.push(`uncaught exception: ${err.stack ?? err}`));
  page.on('console', (msg) => {
    if (msg.type() === 'error') page.problems.push(`console error: ${msg.text()}`);
  });
  return page;
}

/** A fresh context (no storage) of a browser set to `language`, closed after the test. */
async function browserIn(language, viewport) {
  const context = await env.browser.newContext({ viewport, locale: language.locale });
  contexts.push(context);
  return context;
}

/** Resolves once every lesson file and the lessons module are in the worker's cache. */
async function precached(page) {
  await page.evaluate(() => navigator.serviceWorker.ready);
  const wanted = ['/learn.js', '/learn_bg.wasm', ...index.scenarios.map((s) => `/scenarios/${s.file}`)];
  await page.waitForFunction(
    async (paths) => {
      const cache = await caches.open('tablescope-v1');
      const have = new Set((await cache.keys()).map((r) => new URL(r.url).pathname));
      return paths.every((p) => have.has(p));
    },
    wanted,
    { timeout: 30_000, polling: 250 },
  );
}

let visited; // the first visit's page, reused offline by the next test

// Every context a test opens is closed after it, pass or fail: a context left open keeps its
// service worker running, and its requests would be counted against the next test.
const contexts = [];
afterEach(async () => {
  const keep = visited?.context();
  for (const c of contexts.splice(0)) if (c !== keep) await c.close().catch(() => {});
});
after(async () => {
  await visited?.context().close().catch(() => {});
});

/** The test of a first visit by a browser set to `language`. */
function firstVisit(language) {
  const { code } = language;
  test(`a first visit by a browser set to ${code} downloads at most 300 KB gzip before the playground is usable, none of it deferred code, and no file twice`, async () => {
    const context = await browserIn(language, DESKTOP);
    // The moment the app is usable in the browser's language, by the page's own clock (the
    // server's, on the same machine): it has started (`tablescope-ready`) and shows the language.
    await context.addInitScript((lang) => {
      const usable = () => {
        if (window.__usableAt === undefined && document.documentElement.hasAttribute('data-ready') && document.documentElement.lang === lang) {
          window.__usableAt = Date.now();
        }
      };
      addEventListener('tablescope-ready', usable);
      // On the document: the init script runs before <html> exists.
      new MutationObserver(usable).observe(document, { subtree: true, attributes: true, attributeFilter: ['lang', 'data-ready'] });
    }, code);
    const page = watch(await context.newPage());
    const mark = env.served.length;
    await page.goto(env.url);
    const create = page.locator('form.create-table button[type="submit"]');
    await create.waitFor({ timeout: 20_000 });
    await page.locator(`html[data-ready][lang="${code}"]`).waitFor({ state: 'attached', timeout: 20_000 });
    const usableAt = await page.evaluate(() => window.__usableAt);
    assert.equal(typeof usableAt, 'number', 'the app announced it is usable');
    const beforeUsable = env.served.slice(mark).filter((e) => e.at <= usableAt);
    const usableBytes = gzipTotal(downloads(beforeUsable));
    console.log(`# first visit, browser set to ${code}, before usable: ${kb(usableBytes)} gzip\n  ${listing(beforeUsable)}`);
    assert.ok(usableBytes > 50 * 1024, `implausibly small: ${kb(usableBytes)}`);
    const early = beforeUsable.map((e) => e.path).filter((p) => p === '/sw.js' || p.startsWith('/learn') || p.startsWith('/scenarios/'));
    assert.deepEqual(early, [], 'nothing for the service worker or the lessons before the app is usable');
    assert.equal(
      beforeUsable.filter((e) => /^\/tablescope-[0-9a-f]{1,16}_bg\.wasm$/.test(e.path)).length,
      1,
      'the primary wasm is part of the page load',
    );
    const deferred = beforeUsable.filter((e) => e.path.startsWith('/tablescope-deferred-'));
    assert.deepEqual(deferred.map((e) => e.path), [], `the start needed the deferred wasm (scripts/split/primary.txt lacks start-up functions of this language: scripts/dist.sh --profile):\n  ${listing(beforeUsable)}`);
    assert.ok(usableBytes <= BUDGET, `${kb(usableBytes)} before usable:\n  ${listing(beforeUsable)}`);

    // Usable means usable: the table is created.
    await page.locator('#new-table-name').fill('Visited');
    await create.click();
    await page.locator('.tables-panel').getByText('Visited', { exact: true }).first().waitFor();

    // The worker arrives once the page is idle, and precaches the rest without a second download.
    await precached(page);
    const visit = env.served.slice(mark);
    const counts = new Map();
    for (const e of downloads(visit)) counts.set(e.path, (counts.get(e.path) ?? 0) + 1);
    const twice = [...counts].filter(([, n]) => n > 1);
    assert.deepEqual(twice, [], `downloaded more than once:\n  ${listing(visit)}`);
    assert.ok(counts.has('/sw.js') && counts.has('/learn_bg.wasm'), listing(visit));
    console.log(`# the whole first visit (${code}), precache included: ${kb(gzipTotal(downloads(visit)))} gzip`);
    assert.deepEqual(page.problems, []);
    // The English visit's page is reused offline by the next test.
    if (code === 'en') visited = page;
  });
}

firstVisit(LANGUAGES[0]);

test('after one online visit, every lesson opens offline, including those never opened', async () => {
  assert.ok(visited, 'needs the first visit');
  const page = visited;
  try {
    await page.context().setOffline(true);
    await page.reload();
    await page.locator('h1').waitFor({ timeout: 15_000 });
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 15_000 });
    await page.locator('#nav-learn').click();
    await page.locator('.scenario-load').first().waitFor({ timeout: 15_000 });
    assert.equal(await page.locator('.scenario-load').count(), index.scenarios.length);
    for (const { file } of index.scenarios) {
      const text = JSON.parse(await readFile(join(DIST, 'scenarios', file), 'utf8'));
      await page.locator(`.scenario-load[data-file="${file}"]`).click();
      await page.waitForFunction(
        (name) => document.querySelector('.scenario-player')?.getAttribute('data-scenario') === name,
        // A lesson's name is a string, or its translations with the English under `en`.
        text.name.en ?? text.name,
        { timeout: 10_000 },
      );
      assert.equal(await page.getByText('Failed to fetch').count(), 0, `${file} offline`);
    }
  } finally {
    await page.context().close();
    visited = undefined;
  }
});

// The other languages, once the English visit's context (and its service worker) is closed.
for (const language of LANGUAGES.slice(1)) firstVisit(language);

for (const language of LANGUAGES) {
  const { code } = language;
  test(`a docs embed in a browser set to ${code} registers no service worker and downloads at most 300 KB gzip, foreground and background`, async () => {
    const context = await browserIn(language, PHONE);
    const page = watch(await context.newPage());
    const mark = env.served.length;
    await page.goto(`${env.url}?embed=1&scenario=query-kinds.json`);
    await page.locator('.scenario-player').waitFor({ timeout: 20_000 });
    await page.locator(`html[lang="${code}"]`).waitFor({ state: 'attached', timeout: 20_000 });
    // Whatever an embed would fetch in the background has had its chance: idle callbacks run.
    await page.evaluate(() => new Promise((done) => requestIdleCallback(() => setTimeout(done, 2500))));
    assert.deepEqual(await page.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length), 0);
    const fetched = env.served.slice(mark);
    const paths = fetched.map((e) => e.path);
    assert.ok(!paths.some((p) => p.startsWith('/tablescope-') || p === '/sw.js'), `the playground was fetched:\n  ${listing(fetched)}`);
    assert.ok(paths.includes(`/scenarios/${code}/query-kinds.json`), `the lesson in ${code}:\n  ${listing(fetched)}`);
    // The lesson module, not the Learn section's; its catalogue is its own, holding only the
    // messages that module shows (scripts/locales.mjs); English is compiled in.
    assert.deepEqual(paths.filter((p) => p.endsWith('.wasm')), ['/lesson_bg.wasm'], listing(fetched));
    assert.deepEqual(paths.filter((p) => p.startsWith('/locales/')), code === 'en' ? [] : [`/locales/lesson/${code}.json`], listing(fetched));
    const total = gzipTotal(downloads(fetched));
    console.log(`# a docs embed (${code}), everything: ${kb(total)} gzip\n  ${listing(fetched)}`);
    assert.deepEqual(page.problems, []);
    assert.ok(total <= BUDGET, `${kb(total)}:\n  ${listing(fetched)}`);
  });

  test(`a code cell embed in a browser set to ${code} downloads at most 300 KB gzip with a run, and neither the lessons, the editor nor the playground`, async () => {
    const context = await browserIn(language, PHONE);
    const page = watch(await context.newPage());
    const mark = env.served.length;
    await page.goto(`${env.url}?embed=1&scenario=employees.json&snippet=paging-with-continuation.js`);
    const runButton = page.locator('.cell-embed .run-code:not([disabled])');
    await runButton.waitFor({ timeout: 20_000 });
    await page.locator(`html[lang="${code}"]`).waitFor({ state: 'attached', timeout: 20_000 });
    // A run loads the sandbox worker and the SDK: they count too.
    await runButton.click();
    await page.locator('.cell-embed .code-done').waitFor({ timeout: 30_000 });
    await page.evaluate(() => new Promise((done) => requestIdleCallback(() => setTimeout(done, 2500))));
    assert.deepEqual(await page.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length), 0);
    const fetched = env.served.slice(mark);
    const paths = fetched.map((e) => e.path);
    const wrong = paths.filter(
      (p) => p.startsWith('/tablescope-') || p === '/sw.js' || p.startsWith('/learn') || p.startsWith('/lesson') || p.includes('/tablescope-code-') && !p.includes('-worker-') || p === '/teach.css',
    );
    assert.deepEqual(wrong, [], `fetched what a cell does not need:\n  ${listing(fetched)}`);
    for (const needed of [/^\/cell_bg\.wasm$/, /^\/code\/tablescope-cell-[0-9a-f]{16}\.js$/, /^\/code\/tablescope-code-worker-/, /^\/sdk\/tablescope-sdk-/, new RegExp(`^/scenarios/${code}/employees\\.json$`), /^\/snippets\/paging-with-continuation\.js$/]) {
      assert.equal(paths.filter((p) => needed.test(p)).length, 1, `${needed} once:\n  ${listing(fetched)}`);
    }
    assert.deepEqual(paths.filter((p) => p.startsWith('/locales/')), code === 'en' ? [] : [`/locales/cell/${code}.json`], listing(fetched));
    const total = gzipTotal(downloads(fetched));
    console.log(`# a code cell embed (${code}) with a run, everything: ${kb(total)} gzip\n  ${listing(fetched)}`);
    assert.deepEqual(page.problems, []);
    assert.ok(total <= BUDGET, `${kb(total)}:\n  ${listing(fetched)}`);
  });
}

/** A host page on another origin embedding `src` in a sandboxed iframe, as the example page does. */
async function hostPage(src) {
  const context = await env.browser.newContext({ viewport: DESKTOP });
  contexts.push(context);
  const page = watch(await context.newPage());
  const host = await serve(join(REPO, 'tests/e2e'), 0); // any other origin will do
  await page.route(`${host.url}host.html`, (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: `<!DOCTYPE html><title>host</title><iframe title="lesson" style="width:100%;height:700px"
        sandbox="allow-scripts allow-popups allow-popups-to-escape-sandbox" src="${src}"></iframe>`,
    }),
  );
  await page.goto(`${host.url}host.html`);
  return { page, context, host };
}

test('an embed in a sandboxed iframe (no allow-same-origin) works and needs no storage', async () => {
  const { page, context, host } = await hostPage(`${env.url}?embed=1&scenario=query-kinds.json`);
  const frame = page.frameLocator('iframe');
  const player = frame.locator('.scenario-player');
  await player.waitFor({ timeout: 20_000 });
  await player.getByRole('button', { name: 'Run all' }).click();
  await frame.locator('.step').first().waitFor();
  assert.equal(await frame.locator('.step[data-verdict="failed"]').count(), 0);
  assert.equal(await page.frames()[1].evaluate(() => self.origin), 'null', 'the frame is sandboxed');
  assert.deepEqual(page.problems, []);
  await screenshot(page, 'embed-sandboxed-iframe');
  await context.close();
  await host.close();
});

test('a code cell in a sandboxed iframe (no allow-same-origin) starts its sandbox worker and runs', async () => {
  const code = 'const t = tableClient("Employees");\nconsole.log((await t.getEntity("Sales", "00011")).FirstName);';
  const src = `${env.url}?embed=1&scenario=employees.json&code=${encodeURIComponent(code)}`;
  const { page, context, host } = await hostPage(src);
  const frame = page.frameLocator('iframe');
  await frame.locator('.cell-embed .run-code:not([disabled])').click({ timeout: 20_000 });
  await frame.locator('.cell-embed .code-done').waitFor({ timeout: 30_000 });
  assert.deepEqual(await frame.locator('.console-line').allTextContents(), ['Mia']);
  assert.equal(await page.frames()[1].evaluate(() => self.origin), 'null', 'the frame is sandboxed');
  assert.deepEqual(page.problems, []);
  await context.close();
  await host.close();
});

test('a sandboxed embed from a host without CORS headers says why instead of staying blank', async () => {
  const strict = await serve(DIST, 0, { cors: false });
  const { page, context, host } = await hostPage(`${strict.url}?embed=1&scenario=query-kinds.json`);
  const notice = page.frameLocator('iframe').locator('.start-failed');
  await notice.waitFor({ timeout: 20_000 });
  assert.match(await notice.textContent(), /sandboxed without allow-same-origin.*Access-Control-Allow-Origin/);
  assert.equal(await notice.getAttribute('role'), 'alert');
  await context.close();
  await host.close();
  await strict.close();
});
