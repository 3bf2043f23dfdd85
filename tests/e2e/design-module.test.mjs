// The Design section is its own wasm (design.js, design_bg.wasm, src/bin/design.rs),
// loaded the first time the section is shown (src/ui/sections/design/host.rs):
//
// - the page downloads the module only when Design is opened, never with the playground;
// - the section follows the playground's language without a reload, and its design (kept by
//   the section under tablescope.design) survives a reload in the chosen language.
// Screenshots: /tmp/shots-design/module-*.png.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { PHONE, DESKTOP, assertClean, openPage, start } from './lib.mjs';
import { evaluate, generate, ready } from './design-lib.mjs';

/**
 * Opens the employees gallery design and waits until the editor shows it (it is fetched), named
 * in the page's language.
 */
async function openEmployees(page) {
  await page.locator('.gallery-open[data-gallery="employees-by-department"]').click();
  const named = { en: 'Employees by department', ar: 'الموظفون حسب الإدارة' };
  const lang = await page.evaluate(() => document.documentElement.lang);
  await page.waitForFunction((name) => document.querySelector('input.design-name')?.value === name, named[lang]);
}

const SHOTS = '/tmp/shots-design';
let env;
before(async () => {
  env = await start();
  await mkdir(SHOTS, { recursive: true });
});
after(async () => {
  await env?.close();
});

/** The paths of `page`'s requests for the Design module's files, as they are made. */
function moduleRequests(page) {
  const seen = [];
  page.on('request', (r) => {
    const path = new URL(r.url()).pathname;
    if (path.endsWith('/design.js') || path.endsWith('/design_bg.wasm')) seen.push(path);
  });
  return seen;
}

test('the page downloads the Design module only when the section is opened', async () => {
  const page = await openPage(env.browser, env.url);
  const seen = moduleRequests(page);
  await ready(page);
  // Time for anything the start fetches after it is usable (the deferred wasm, fonts).
  await page.waitForTimeout(1500);
  assert.deepEqual(seen, [], 'nothing of the Design module before the section is opened');
  await page.locator('#nav-design').click();
  await page.locator('#design-heading').waitFor({ timeout: 30_000 });
  assert.deepEqual(seen.sort(), ['/design.js', '/design_bg.wasm']);
  assert.equal(await page.locator('#design-heading').textContent(), 'Design studio');
  // Switching away and back keeps the mounted section: no second download.
  await page.locator('#nav-data').click();
  await page.locator('#nav-design').click();
  assert.equal(seen.length, 2);
  assertClean(page);
  await page.close();
});

test('the section follows a language switch, and its design survives a reload', async () => {
  const page = await openPage(env.browser, env.url);
  await ready(page);
  await page.locator('#nav-design').click();
  await page.locator('#design-heading').waitFor({ timeout: 30_000 });
  await page.locator('.gallery-open[data-gallery="log-tail"]').click();
  await page.waitForFunction(() => document.querySelector('input.design-name')?.value === 'The log tail');
  const types = await page.locator('input.type-name').evaluateAll((xs) => xs.map((x) => x.value));
  assert.ok(types.length > 0);

  // The playground's language switch reaches the module (its own catalogues).
  await page.locator('#lang-select').selectOption('de');
  await page.locator('#design-heading', { hasText: 'Entwurfsstudio' }).waitFor({ timeout: 10_000 });
  assert.equal(await page.locator('#nav-design').textContent(), 'Entwurf');
  assert.equal(await page.locator('input.design-name').inputValue(), 'The log tail');

  // Kept beside the workspace, by the section itself.
  const saved = await page.evaluate(() => JSON.parse(localStorage.getItem('tablescope.design')));
  assert.equal(saved.design.name, 'The log tail');

  await page.reload();
  await ready(page);
  await page.locator('#nav-design').click();
  await page.locator('#design-heading', { hasText: 'Entwurfsstudio' }).waitFor({ timeout: 30_000 });
  assert.equal(await page.locator('input.design-name').inputValue(), 'The log tail');
  assert.deepEqual(await page.locator('input.type-name').evaluateAll((xs) => xs.map((x) => x.value)), types);

  // A gallery design opened in German speaks German (designs/translations.json): its name and
  // its patterns' names; the entity types and everything the patterns refer to are the same.
  await page.locator('.gallery-open[data-gallery="log-tail"]').click();
  await page.waitForFunction(() => document.querySelector('input.design-name')?.value === 'Das Ende des Protokolls');
  assert.deepEqual(await page.locator('input.pattern-name').evaluateAll((xs) => xs.map((x) => x.value)), [
    'Die letzten 50 Zeilen eines Dienstes',
    'Zeilen eines Dienstes auf einer Stufe',
    'Eine Protokollzeile schreiben',
  ]);
  assert.deepEqual(await page.locator('input.type-name').evaluateAll((xs) => xs.map((x) => x.value)), types);
  assertClean(page);
  await page.close();
});

for (const [lang, viewport, name] of [
  ['en', DESKTOP, 'en-desktop'],
  ['en', PHONE, 'en-360'],
  ['ar', DESKTOP, 'ar-desktop'],
  ['ar', PHONE, 'ar-360'],
]) {
  test(`screenshot: the section in ${name}`, async () => {
    const page = await openPage(env.browser, `${env.url}?lang=${lang}`, { viewport });
    await ready(page);
    await page.locator('#nav-design').click();
    await page.locator('#design-heading').waitFor({ timeout: 30_000 });
    await openEmployees(page);
    await generate(page);
    await evaluate(page);
    await page.locator('table.versus').waitFor({ timeout: 60_000 });
    if (lang === 'ar') {
      assert.deepEqual(await page.evaluate(() => document.documentElement.dir), 'rtl');
      assert.equal(await page.locator('#design-heading').textContent(), 'استوديو التصميم');
    }
    await page.screenshot({ path: `${SHOTS}/module-${name}.png`, fullPage: false });
    // The projection's figures break between a number and its share, never inside a number.
    const summary = page.locator('.design-project dl.design-summary');
    await summary.scrollIntoViewIfNeeded();
    const broken = await summary.evaluate((dl) => [...dl.querySelectorAll('dd')].flatMap((dd) => {
      const text = dd.firstChild;
      const out = [];
      for (const m of text.data.matchAll(/[\d.,]+/g)) {
        const r = document.createRange();
        r.setStart(text, m.index);
        r.setEnd(text, m.index + m[0].length);
        const tops = new Set([...r.getClientRects()].map((c) => Math.round(c.top)));
        if (tops.size > 1) out.push(m[0]);
      }
      return out;
    }));
    assert.deepEqual(broken, [], `numbers broken across lines in ${name}`);
    await summary.screenshot({ path: `${SHOTS}/module-${name}-summary.png` });
    await page.locator('#section-design table.measured').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/module-${name}-figures.png`, fullPage: false });
    assertClean(page);
    await page.close();
  });
}

for (const lang of ['en', 'de', 'nl', 'ar']) {
  test(`at 360 px in ${lang}, the generator's "replace" label stays inside its panel`, async () => {
    const page = await openPage(env.browser, `${env.url}?lang=${lang}`, { viewport: PHONE });
    await ready(page);
    await page.locator('#nav-design').click();
    await page.locator('#design-heading').waitFor({ timeout: 30_000 });
    const label = page.locator('label:has(input.generate-replace)');
    await label.scrollIntoViewIfNeeded();
    const [box, panel] = await Promise.all([
      label.boundingBox(),
      page.locator('.design-generate').boundingBox(),
    ]);
    await page.locator('.design-generate').screenshot({ path: `${SHOTS}/module-replace-${lang}-360.png` });
    assert.ok(box.x >= panel.x && box.x + box.width <= panel.x + panel.width,
      `label ${box.x}..${box.x + box.width} inside panel ${panel.x}..${panel.x + panel.width}`);
    // The checkbox keeps its size beside the wrapped text (Arabic's label fits one line).
    const check = await page.locator('input.generate-replace').boundingBox();
    assert.ok(check.width >= 12, `the checkbox is ${check.width} px wide`);
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth), true,
      'no horizontal scrolling');
    assertClean(page);
    await page.close();
  });
}

test('"Open in Code section" of a pattern crosses the bridge: the playground shows the code in its editor', async () => {
  const page = await openPage(env.browser, env.url);
  await ready(page);
  await page.locator('#nav-design').click();
  await openEmployees(page);
  assert.match(await generate(page), /^Generated 10,000 entities/);
  await evaluate(page);
  const show = page.locator('.design-code li').first().locator('.show-code');
  await show.waitFor({ timeout: 60_000 });
  await show.locator('.show-code-toggle').click();
  const form = show.locator('.code-form[data-form="js"]');
  await form.waitFor({ timeout: 30_000 });
  const js = await form.textContent();
  await show.locator('.open-in-code').click();
  await page.locator('#section-code:not([hidden])').waitFor({ timeout: 10_000 });
  assert.equal(await page.locator('#section-design').getAttribute('hidden'), '');
  await page.waitForFunction(
    (first) => document.querySelector('.code-editor .cm-line')?.textContent === first,
    js.split('\n')[0],
    { timeout: 30_000 },
  );
  // Back in Design, the section is as it was (mounted once).
  await page.locator('#nav-design').click();
  assert.equal(await page.locator('.design-code li').count() > 0, true);
  assertClean(page);
  await page.close();
});

test('a bridge the module cannot use is a shown error with a retry, not a panic', async () => {
  const page = await openPage(env.browser, env.url);
  await ready(page);
  // The evaluator's reads go through window.tablescope.wire: without it the module refuses
  // the bridge, and the host says so.
  await page.evaluate(() => { delete window.tablescope.wire; });
  await page.locator('#nav-design').click();
  const failed = page.locator('#section-design .design-failed[role="alert"]');
  await failed.waitFor({ timeout: 30_000 });
  assert.equal(await failed.locator('p').textContent(), 'Design could not be loaded: the bridge has no function wire.');
  assert.equal(await failed.locator('button.retry-design').textContent(), 'Try again');
  assert.equal(await page.locator('#design-heading').count(), 0);
  assertClean(page);
  await page.close();
});
