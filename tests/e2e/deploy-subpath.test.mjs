// The built site under a sub-path (README "Deploy it anywhere"): dist/ served at /tablescope/
// only, as a GitHub Pages project site or a docs sub-folder serves it (nothing exists at the
// host's root), the playground, its service worker and its offline copy work there, a lesson
// and a code cell embed work in sandboxed iframes of a page on another origin, and a file
// missing from the deploy is named, with the server's status, instead of a guessed cause.
//
//   node --test tests/e2e/deploy-subpath.test.mjs      (against dist/, E2E_DIST to change it)

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { cp, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM, DESKTOP, DIST, screenshot } from './lib.mjs';
import { serve } from './serve.mjs';

const PREFIX = '/tablescope/';

let site; // dist/ at PREFIX
let host; // the docs page's origin
let hostDir;
let browser;
let broken; // a copy of dist/ with files missing, at PREFIX
let brokenDir;
before(async () => {
  site = await serve(DIST, 0, { prefix: PREFIX });
  // The docs pages are files a server on another port serves (a page Playwright fulfils is a
  // public page to Chromium, whose frames may not then reach 127.0.0.1).
  hostDir = await mkdtemp(join(tmpdir(), 'tablescope-docs-'));
  host = await serve(hostDir, 0);
  brokenDir = await mkdtemp(join(tmpdir(), 'tablescope-broken-'));
  await cp(DIST, brokenDir, { recursive: true });
  const primary = (await readdir(brokenDir)).find((f) => /^tablescope-[0-9a-f]+_bg\.wasm$/.test(f));
  await rm(join(brokenDir, primary));
  await rm(join(brokenDir, 'lesson.js'));
  broken = await serve(brokenDir, 0, { prefix: PREFIX });
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--headless=new', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run', '--disable-quic'],
  });
});
after(async () => {
  await browser?.close();
  await site?.close();
  await host?.close();
  await broken?.close();
  if (brokenDir) await rm(brokenDir, { recursive: true, force: true });
  if (hostDir) await rm(hostDir, { recursive: true, force: true });
});

/** A fresh page recording every failed request and every answer of 400 or more. */
async function page(url) {
  const context = await browser.newContext({ viewport: DESKTOP });
  const p = await context.newPage();
  p.problems = [];
  p.on('pageerror', (e) => p.problems.push(`uncaught: ${e}`));
  p.on('response', (r) => r.status() >= 400 && p.problems.push(`HTTP ${r.status()}: ${r.url()}`));
  if (url) await p.goto(url);
  return p;
}

/** A page on the host's origin embedding `src` in a sandboxed iframe, as the README shows. */
let docs = 0;
async function hosted(src) {
  const file = `docs-${++docs}.html`;
  await writeFile(
    join(hostDir, file),
    `<!DOCTYPE html><title>docs</title><iframe title="Tablescope" style="width:100%;height:700px"
      sandbox="allow-scripts allow-popups allow-popups-to-escape-sandbox" src="${src.replaceAll('&', '&amp;')}"></iframe>`,
  );
  return page(`${host.url}${file}`);
}

test('the playground at /tablescope/ loads every file from there, and works offline from there', async () => {
  const p = await page(site.url);
  await p.locator('h1').waitFor({ timeout: 20_000 });
  await p.locator('html[data-ready]').waitFor({ state: 'attached' });
  // Its own code at work, deferred half included: a table is created.
  await p.locator('#new-table-name').fill('SubPath');
  await p.locator('form.create-table button[type="submit"]').click();
  await p.locator('[data-table="SubPath"]').waitFor();
  const outside = site.served.filter((e) => !e.path.startsWith(PREFIX)).map((e) => e.path);
  assert.deepEqual(outside, [], 'nothing is asked for outside the sub-path');
  assert.deepEqual(p.problems, []);

  // The service worker's scope is the sub-path, and it precaches there: the modules, the
  // lessons in every language, a docs embed's catalogues.
  const scope = await p.evaluate(async () => (await navigator.serviceWorker.ready).scope);
  assert.equal(scope, site.url);
  const wanted = ['learn_bg.wasm', 'lesson_bg.wasm', 'scenarios/query-kinds.json', 'scenarios/nl/query-kinds.json', 'locales/lesson/ar.json']
    .map((f) => new URL(f, site.url).href);
  await p.waitForFunction(
    async (urls) => {
      const have = new Set((await (await caches.open('tablescope-v1')).keys()).map((r) => r.url));
      return urls.every((u) => have.has(u));
    },
    wanted,
    { timeout: 30_000, polling: 250 },
  );
  await p.reload();
  await p.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 15_000 });
  await p.locator('h1').waitFor({ timeout: 20_000 });
  await p.context().setOffline(true);
  await p.reload();
  await p.locator('h1').waitFor({ timeout: 20_000 });
  await p.locator('#nav-learn').click();
  await p.locator('.scenario-load').first().waitFor({ timeout: 20_000 });
  assert.equal(await p.locator('.start-failed, #app-start-problem').count(), 0);
  await p.context().close();
});

test('a lesson embed from /tablescope/ works in a sandboxed iframe of a page on another origin', async () => {
  const p = await hosted(`${site.url}?embed=1&scenario=query-kinds.json`);
  const frame = p.frameLocator('iframe');
  const player = frame.locator('.scenario-player');
  await player.waitFor({ timeout: 20_000 });
  await player.getByRole('button', { name: 'Run all' }).click();
  await frame.locator('.step').first().waitFor();
  assert.equal(await frame.locator('.step[data-verdict="failed"]').count(), 0);
  assert.equal(await p.frames()[1].evaluate(() => self.origin), 'null', 'the frame is sandboxed');
  assert.deepEqual(p.problems, []);
  await screenshot(p, 'deploy-subpath-lesson-embed');
  await p.context().close();
});

test('a code cell embed from /tablescope/ runs in a sandboxed iframe of a page on another origin', async () => {
  const code = 'const t = tableClient("Employees");\nconsole.log((await t.getEntity("Sales", "00011")).FirstName);';
  const p = await hosted(`${site.url}?embed=1&scenario=employees.json&code=${encodeURIComponent(code)}`);
  const frame = p.frameLocator('iframe');
  await frame.locator('.cell-embed .run-code:not([disabled])').click({ timeout: 20_000 });
  await frame.locator('.cell-embed .code-done').waitFor({ timeout: 30_000 });
  assert.deepEqual(await frame.locator('.console-line').allTextContents(), ['Mia']);
  assert.deepEqual(p.problems, []);
  await p.context().close();
});

test('a lesson embed whose module is missing from the deploy names the file and the 404', async () => {
  const p = await hosted(`${broken.url}?embed=1&scenario=query-kinds.json`);
  const notice = p.frameLocator('iframe').locator('.start-failed');
  await notice.waitFor({ timeout: 20_000 });
  assert.equal(
    await notice.textContent(),
    `This Tablescope lesson could not start: the server answered 404 for lesson.js (${broken.url}lesson.js). ` +
      'Every file of the build (dist/) must be served from the folder this page is in.',
  );
  assert.equal(await notice.getAttribute('role'), 'alert');
  await p.context().close();
});

test('the playground whose wasm is missing from the deploy names the file and the 404', async () => {
  const p = await page(broken.url);
  const notice = p.locator('.start-failed');
  await notice.waitFor({ timeout: 20_000 });
  const wasm = await p.locator('#tablescope-start').getAttribute('data-wasm');
  const file = wasm.replace(/^\.\//, '');
  assert.match(file, /^tablescope-[0-9a-f]+_bg\.wasm$/);
  assert.equal(
    await notice.textContent(),
    `Tablescope could not start: the server answered 404 for ${file} (${broken.url}${file}). ` +
      'Every file of the build (dist/) must be served from the folder this page is in.',
  );
  // The start guard says nothing more: the cause is already on the page.
  assert.equal(await p.locator('#app-start-problem').count(), 0);
  await screenshot(p, 'deploy-subpath-missing-wasm');
  await p.context().close();
});
