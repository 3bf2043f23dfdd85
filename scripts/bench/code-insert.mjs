#!/usr/bin/env node
// The Code section's insert benchmark: the snippet
// scripts/bench/code-insert-snippet.js inserts 1,000 entities through the official SDK, one
// createEntity (one HTTP request through the in-page transport) at a time, typed into the Code
// section's editor of the release build in headless Chromium and run with its Run button.
//
//   node scripts/bench/code-insert.mjs [--runs N] [--dist DIR]      (defaults: 7 runs, dist/)
//
// Each run prints three figures; the median of each is printed at the end:
// - inserts: the 1,000-insert loop as the snippet times it (performance.now() in the worker);
// - run: the runner's own figure ("Done in N ms"), from Run to settled, which adds starting
//   the sandbox worker, loading the SDK into it, and deleting and creating the table;
// - click to done: from the click on Run to the outcome on screen, seen from Node (adds
//   Playwright's polling).
// The page is reloaded between runs, so each starts from the same state (the table is deleted
// by the snippet itself, and the page's saved tables are those of the fresh context).

import { readFile } from 'node:fs/promises';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '..', '..');

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const runs = Number(option('--runs', '7'));
process.env.E2E_DIST = resolve(option('--dist', process.env.E2E_DIST ?? join(ROOT, 'dist')));
const { start } = await import('../../tests/e2e/lib.mjs');

const snippet = await readFile(join(HERE, 'code-insert-snippet.js'), 'utf8');
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

const env = await start();
const figures = { inserts: [], run: [], clickToDone: [] };
try {
  const context = await env.browser.newContext();
  const page = await context.newPage();
  page.on('pageerror', (e) => console.error('page error:', e.message));
  for (let i = 0; i < runs; i++) {
    await page.goto(env.url);
    await page.locator('#nav-code').click();
    await page.locator('.code-editor .cm-content').waitFor({ timeout: 30_000 });
    await page.locator('.run-code:not([disabled])').waitFor();
    await page.locator('#code-limit').fill('60');
    await page.locator('.code-editor .cm-content').click();
    await page.keyboard.press('Control+A');
    await page.keyboard.insertText(snippet);
    const t0 = performance.now();
    await page.locator('.run-code').click();
    await page.locator('.code-outcome .code-done, .code-outcome .code-error').waitFor({ timeout: 120_000 });
    const clickToDone = performance.now() - t0;
    const error = await page.locator('.code-outcome .code-error').count();
    if (error) throw new Error(`the snippet failed: ${await page.locator('.code-error').textContent()}`);
    const logged = await page.locator('.console-line').last().textContent();
    const inserts = Number(logged.match(/in (\d+) ms/)?.[1]);
    const done = await page.locator('.code-done').textContent();
    const run = Number(done.replace(/[^\d]/g, ''));
    const requests = (await page.locator('.wire-count').textContent()).trim();
    figures.inserts.push(inserts);
    figures.run.push(run);
    figures.clickToDone.push(clickToDone);
    console.log(
      `run ${i + 1}: inserts ${inserts} ms, run ${run} ms, click to done ${clickToDone.toFixed(0)} ms (${requests} requests in the wire log)`,
    );
  }
} finally {
  await env.close();
}
const cpus = os.cpus();
console.log(
  `\nmedian of ${runs}: 1,000 inserts ${median(figures.inserts)} ms; run ${median(figures.run)} ms; ` +
    `click to done ${median(figures.clickToDone).toFixed(0)} ms\n` +
    `machine: ${cpus.length} × ${cpus[0]?.model ?? 'cpu'}, load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`,
);
