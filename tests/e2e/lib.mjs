// Shared helpers for the end-to-end tests: serve dist/, launch Debian's Chromium through
// playwright-core (never a downloaded browser), and collect every page error.

import { chromium } from 'playwright-core';
import { mkdir, readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from './serve.mjs';

const here = dirname(fileURLToPath(import.meta.url));
export const REPO = resolve(here, '..', '..');
export const SCREENSHOTS = join(here, 'screenshots');
export const DIST = resolve(REPO, process.env.E2E_DIST ?? 'dist');
export const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 360, height: 740 };

/** The package version from Cargo.toml (what the header must show). */
export async function cargoVersion() {
  const toml = await readFile(join(REPO, 'Cargo.toml'), 'utf8');
  return toml.match(/^\s*version\s*=\s*"([^"]+)"/m)[1];
}

/** Serves dist/ and launches Chromium (with `extraArgs` added); `close()` stops both. */
export async function start({ extraArgs = [] } = {}) {
  await readFile(join(DIST, 'index.html')).catch(() => {
    throw new Error(`${DIST}/index.html is missing: run \`trunk build index.html --release\` first`);
  });
  const server = await serve(DIST, 0);
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--headless=new',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
      ...extraArgs,
    ],
  });
  return {
    url: server.url,
    served: server.served,
    browser,
    async close() {
      await browser.close();
      await server.close();
    },
  };
}

/**
 * A fresh page (own context, so no shared storage) that records console errors, uncaught
 * exceptions and failed requests in `page.problems`; `assertClean(page)` fails on any.
 */
export async function openPage(browser, url, { viewport = DESKTOP, colorScheme = 'light' } = {}) {
  const context = await browser.newContext({ viewport, colorScheme });
  const page = await context.newPage();
  page.problems = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') page.problems.push(`console error: ${msg.text()}`);
  });
  page.on('pageerror', (err) => page.problems.push(`uncaught exception: ${err.stack ?? err}`));
  // The page warns before it is left while a save is in flight (`beforeunload`); a test's
  // reload or goto leaves anyway, as a person who confirms the warning does. Counted, so a
  // test can assert that the warning came.
  page.leaveWarnings = 0;
  page.on('dialog', (dialog) => {
    // Any other dialog is dismissed, as Playwright does when nothing listens.
    if (dialog.type() !== 'beforeunload') return dialog.dismiss().catch(() => {});
    page.leaveWarnings += 1;
    dialog.accept().catch(() => {});
  });
  // A reload or a new goto cancels the old document's loads in flight (the deferred wasm
  // is often one): those aborts are the navigation's doing, not the page's problem.
  let navigating = 0;
  for (const name of ['reload', 'goto']) {
    const navigate = page[name].bind(page);
    page[name] = async (...args) => {
      navigating += 1;
      try {
        return await navigate(...args);
      } finally {
        navigating -= 1;
      }
    };
  }
  page.on('requestfailed', (req) => {
    const error = req.failure()?.errorText;
    if (navigating > 0 && error === 'net::ERR_ABORTED') return;
    page.problems.push(`request failed: ${req.url()} (${error})`);
  });
  page.on('response', (res) => {
    if (res.status() >= 400) page.problems.push(`HTTP ${res.status()}: ${res.url()}`);
  });
  await page.goto(url);
  return page;
}

/** Throws with every problem the page reported. */
export function assertClean(page) {
  if (page.problems.length > 0) {
    throw new Error(`the page reported problems:\n  ${page.problems.join('\n  ')}`);
  }
}

/** Saves a full-page screenshot as tests/e2e/screenshots/<name>.png. */
export async function screenshot(page, name) {
  await mkdir(SCREENSHOTS, { recursive: true });
  const path = join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

/**
 * The page's own memory, as the `?perf=1` hook and the DevTools protocol see it after a
 * garbage collection: the JS heap in use and the wasm's linear memory, in bytes.
 */
export async function pageMemory(page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.send('Performance.enable');
  const { metrics } = await cdp.send('Performance.getMetrics');
  const heap = metrics.find((m) => m.name === 'JSHeapUsedSize').value;
  const wasm = await page.evaluate(() => window.__tablescopeWasmBytes());
  return { heap, wasm };
}

/** Waits until no save is queued or in flight (the `?perf=1` hook). */
export async function savesSettled(page, timeout) {
  await page.waitForFunction(() => window.__tablescopeSavesInFlight() === 0, null, { timeout, polling: 50 });
}

/** The RowKeys a whole-table query of `table` returns through the page's in-page transport
 * (`window.tablescope.wire`, the `?perf=1` hook), in the order returned. */
export async function rowKeysOf(page, table) {
  return page.evaluate((t) => {
    const r = window.tablescope.wire({
      method: 'GET',
      url: `http://127.0.0.1:10002/devstoreaccount1/${t}()`,
      headers: [['Accept', 'application/json;odata=nometadata']],
    });
    return JSON.parse(new TextDecoder().decode(r.body)).value.map((e) => e.RowKey);
  }, table);
}
