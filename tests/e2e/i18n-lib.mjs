// One language's pages on the release build: the first screen, the Query section
// after a query, a lesson, a docs embed and a storage banner, each walked for English words
// left in a page of another language, and photographed at desktop and 360 px width into
// /tmp/shots-i18n/. Used by tests/e2e/i18n-{en,de,nl,ar}.test.mjs.
//
// The English words: every word of www/locales/en.json and of the lessons' English texts
// (www/scenarios), less the words the page's own catalogue and lessons use too (Partition,
// Batch, Tabelle…), less the allow-list: API terms (PartitionKey, RowKey, $filter, operation
// names, error codes) and the entity data the test created. Text inside data runs (code, pre,
// dir="ltr", inputs) is data and not walked, nor is the service's own message text.

import assert from 'node:assert/strict';
import { mkdir, readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { DESKTOP, PHONE, REPO, openPage } from './lib.mjs';

export const SHOTS = '/tmp/shots-i18n';

const LESSON = 'query-kinds.json';

/** API terms and data: never translated. */
const ALLOWED = new Set(
  [
    'PartitionKey', 'RowKey', 'PartitionKeys', 'RowKeys', 'Timestamp', 'Timestamps', 'ETag', 'ETags', 'If-Match', 'filter', 'select', 'top', 'and', 'or', 'not',
    'eq', 'ne', 'gt', 'ge', 'lt', 'le', 'true', 'false', 'insert', 'upsert', 'replace', 'merge', 'delete',
    'get', 'query', 'batch', 'createTable', 'deleteTable', 'String', 'Int32', 'Int64', 'Double', 'Boolean',
    'DateTime', 'Guid', 'Binary', 'Edm', 'JSON', 'CSV', 'TSV', 'IndexedDB', 'Tablescope', 'Azure', 'SDK',
    'OData', 'MiB', 'KB', 'MB', 'ms', 'Ctrl', 'Enter', 'Shift', 'Space', 'base64', 'hex', 'ServerBusy',
    'EntityAlreadyExists', 'AuthorizationPermissionMismatch', 'English', 'Deutsch', 'Nederlands', 'Code',
    // Entity data the tests create (the guide's Employees sample, the lesson's products).
    'Employees', 'Marketing', 'Sales', 'Department', 'Products', 'Books', 'Games', 'Music', 'Tools', 'Orders',
  ].map((w) => w.toLowerCase()),
);

function words(text) {
  return (text.match(/[A-Za-z][A-Za-z'-]*[A-Za-z]/g) ?? []).map((w) => w.toLowerCase());
}

/** Every string of a JSON value, in `lang` where it is an object of translations. */
function strings(value, lang, out = []) {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) value.forEach((v) => strings(v, lang, out));
  else if (value && typeof value === 'object') {
    if (typeof value.en === 'string' && !('op' in value)) strings(value[lang] ?? '', lang, out);
    else Object.values(value).forEach((v) => strings(v, lang, out));
  }
  return out;
}

/** The words of the UI and the lessons in `lang`. */
async function vocabulary(lang) {
  const catalogue = JSON.parse(await readFile(join(REPO, 'www/locales', `${lang}.json`), 'utf8'));
  const texts = strings(catalogue, lang);
  const dir = join(REPO, 'www/scenarios');
  for (const file of await readdir(dir)) {
    if (!file.endsWith('.json')) continue;
    const lesson = JSON.parse(await readFile(join(dir, file), 'utf8'));
    for (const key of ['name', 'description', 'summary']) texts.push(...strings(lesson[key] ?? '', lang));
    for (const entry of lesson.scenarios ?? []) texts.push(...strings([entry.name, entry.summary], lang));
    for (const step of lesson.steps ?? []) if (step.note) texts.push(...strings(step.note, lang));
  }
  return new Set(texts.flatMap(words));
}

/** English words of the UI and lessons that `lang` does not use itself. */
export async function englishWords(lang) {
  const [en, own] = await Promise.all([vocabulary('en'), vocabulary(lang)]);
  return new Set([...en].filter((w) => w.length > 2 && !own.has(w) && !ALLOWED.has(w)));
}

/**
 * The visible text of the page outside data runs, with every word of `english` in it:
 * `[{ word, text }]`, empty when the page speaks its language throughout.
 */
export async function englishLeft(page, english) {
  const texts = await page.evaluate(() => {
    const out = [];
    // Data runs, and the service's own messages (its error text is API, like its codes).
    const data =
      'code, pre, textarea, input, select option, [dir="ltr"]:not(html), bdi, script, style, svg, .grid td, .error-message, .step-message';
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const el = node.parentElement;
      if (!el || !node.textContent.trim() || el.closest(data)) continue;
      if (!el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) continue;
      out.push(node.textContent.trim());
    }
    // Labels a screen reader reads.
    for (const el of document.querySelectorAll('[aria-label], [title], [placeholder]')) {
      if (el.closest('[dir="ltr"]:not(html), code, pre') || !el.checkVisibility()) continue;
      for (const a of ['aria-label', 'title', 'placeholder']) if (el.getAttribute(a)) out.push(el.getAttribute(a));
    }
    return out;
  });
  const found = [];
  for (const text of texts) {
    for (const word of text.match(/[A-Za-z][A-Za-z'-]*[A-Za-z]/g) ?? []) {
      if (english.has(word.toLowerCase())) found.push({ word, text: text.slice(0, 120) });
    }
  }
  return found;
}

/** Saves a full-page screenshot as /tmp/shots-i18n/<name>.png, and what the window shows as
 * <name>-top.png (a long page's full shot is too tall to look at). */
export async function shoot(page, name) {
  await mkdir(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
  await page.screenshot({ path: join(SHOTS, `${name}-top.png`) });
}

/** Asserts the page has no sideways overflow. */
export async function noOverflow(page, what) {
  const [scroll, client] = await page.evaluate(() => [
    document.documentElement.scrollWidth,
    document.documentElement.clientWidth,
  ]);
  assert.ok(scroll <= client, `${what}: the page is ${scroll} px wide in a ${client} px window`);
}

async function checkWords(page, english, lang, what) {
  if (lang === 'en') return;
  const left = await englishLeft(page, english);
  assert.deepEqual(left, [], `${what} in ${lang} shows English`);
}

/** The first screen, loaded sample data, a query, and the scan meter. */
export async function playground(env, lang, english, viewport, name) {
  const page = await openPage(env.browser, `${env.url}?lang=${lang}`, { viewport });
  await page.locator('#tables-heading').waitFor({ timeout: 20_000 });
  assert.equal(await page.evaluate(() => document.documentElement.lang), lang);
  await checkWords(page, english, lang, 'the first screen');
  await noOverflow(page, `${lang} first screen`);
  await shoot(page, `${lang}-first-${name}`);
  // The guide's Employees table, then a partition query in the Query section.
  await page.locator('.start-sample').click();
  await page.locator('[data-table=Employees]').waitFor({ timeout: 15_000 });
  await page.locator('#nav-query').click();
  await page.locator('#raw-filter').fill("PartitionKey eq 'Marketing' and Age gt 30");
  await page.locator('.run-query').click();
  await page.locator('.scan-meter').waitFor();
  await page.locator('#section-query .results .grid').waitFor();
  await checkWords(page, english, lang, 'the Query section after a query');
  await noOverflow(page, `${lang} query`);
  await shoot(page, `${lang}-query-${name}`);
  return page;
}

/** The Learn section with a lesson run to its end. */
export async function lesson(page, english, lang, name) {
  await page.locator('#nav-learn').click();
  await page.locator(`.scenario-load[data-file="${LESSON}"]`).click({ timeout: 20_000 });
  await page.locator('.scenario-player .run-all').click();
  await page.locator('.scenario-player .step').nth(18).waitFor();
  await checkWords(page, english, lang, 'a lesson');
  await noOverflow(page, `${lang} lesson`);
  await shoot(page, `${lang}-lesson-${name}`);
}

/** A docs embed of the lesson: the lesson's text in its language only. */
export async function embed(env, english, lang, viewport, name) {
  const page = await openPage(env.browser, `${env.url}?embed=1&lang=${lang}&scenario=${LESSON}`, { viewport });
  await page.locator('.scenario-player .run-all').click({ timeout: 20_000 });
  await page.locator('.scenario-player .step').nth(18).waitFor();
  const lessons = await page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .map((e) => new URL(e.name).pathname)
      .filter((p) => p.includes('/scenarios/')),
  );
  assert.deepEqual(lessons, [`/scenarios/${lang}/${LESSON}`], 'the embed downloads its language only');
  await checkWords(page, english, lang, 'the embed');
  await noOverflow(page, `${lang} embed`);
  await shoot(page, `${lang}-embed-${name}`);
  return page;
}

/** A second tab: read-only, and its banner says so. */
export async function banner(page, english, lang, name) {
  const second = await page.context().newPage();
  await second.goto(page.url());
  const notice = second.locator('.storage-banner');
  await notice.waitFor({ timeout: 15_000 });
  await checkWords(second, english, lang, 'the storage banner');
  await noOverflow(second, `${lang} banner`);
  await shoot(second, `${lang}-banner-${name}`);
  const text = await notice.locator('p').first().textContent();
  await second.close();
  return text;
}

/** Every page of one language, at both widths. */
export async function allPages(env, lang) {
  const english = await englishWords(lang);
  const banners = [];
  for (const [viewport, name] of [
    [DESKTOP, 'desktop'],
    [PHONE, '360'],
  ]) {
    const page = await playground(env, lang, english, viewport, name);
    banners.push(await banner(page, english, lang, name));
    await lesson(page, english, lang, name);
    await page.context().close();
    const e = await embed(env, english, lang, viewport, name);
    await e.context().close();
  }
  return { english, banners };
}
