// Helpers for the Design section's tests: open the section, edit the design
// through its form (each field is committed on `change`, as a person leaving the field does),
// generate, evaluate, and read figures back.

import { openPage } from './lib.mjs';

export const ready = (page) =>
  page.locator('html[data-ready]').waitFor({ state: 'attached', timeout: 20_000 });

/** A fresh page with the app started, on the Design section. */
export async function openDesign(env, { viewport, colorScheme, hash = '' } = {}) {
  const page = await openPage(env.browser, env.url + hash, { viewport, colorScheme });
  await ready(page);
  await page.locator('#nav-design').click();
  await page.locator('#design-heading').waitFor();
  return page;
}

/** Types `value` into `locator` and commits it (change fires when the field is left). */
export async function put(locator, value) {
  await locator.fill(String(value));
  await locator.dispatchEvent('change');
}

/** The design as the export would write it (read from where the section keeps it). */
export async function designJson(page) {
  // The workspace is written 300 ms after a change.
  await page.waitForTimeout(400);
  return page.evaluate(() => {
    const saved = JSON.parse(localStorage.getItem('tablescope.design') ?? '{}');
    return saved.design ?? null;
  });
}

/** Generates the design's data and waits until it is written; returns the status text. */
export async function generate(page, timeout = 120_000) {
  await page.locator('.design-generate button.generate').click();
  const status = page.locator('.generate-status');
  // Done when the button is enabled again and the status says how it ended.
  await page.waitForFunction(
    () =>
      !document.querySelector('.design-generate button.generate')?.disabled &&
      (document.querySelector('.generate-status')?.textContent ?? '') !== '',
    null,
    { timeout, polling: 100 },
  );
  return status.textContent();
}

/** Evaluates every pattern and waits for the measured table. */
export async function evaluate(page) {
  await page.locator('button.evaluate').click();
  await page.locator('table.measured tbody tr').first().waitFor({ timeout: 60_000 });
}

/** The cells of one figure table row by class (`f-scanned` → `scanned`; the pattern's name
 * and kind from its heading), as shown; with `exact`, a cell's exact figures where it shows a
 * short form (its title). The projection's rows join its load table's (`projected-load`). */
export async function rowCells(page, table, i, { exact = false } = {}) {
  const tables = table === 'projected' ? ['projected', 'projected-load'] : [table];
  await page.locator(`table.${table} tbody tr[data-pattern="${i}"]`).waitFor();
  return page.evaluate(({ tables, i, exact }) => {
    const out = {};
    for (const table of tables) {
      const tr = document.querySelector(`table.${table} tbody tr[data-pattern="${i}"]`);
      const th = tr.querySelector('th');
      out.name = (th.querySelector('.f-name') ?? th).textContent;
      for (const cell of tr.querySelectorAll('td, th [class]')) {
        const cls = [...cell.classList].find((c) => /^[fv]-/.test(c) && c !== 'f-name');
        if (cls) out[cls.slice(2)] = (exact && cell.getAttribute('title')) || cell.textContent;
      }
    }
    return out;
  }, { tables, i, exact });
}

/** Every checklist item: rule → {grade, evidence, blame, item, source, cite, original, lesson}:
 * `item` the text shown in the page's language, `source` where it comes from (`guide`,
 * `translation`, `checklist`), `cite` the sentence saying so, `original` the German
 * checklist item behind the disclosure (null in German, where the item is the original). */
export async function checklist(page) {
  return page.locator('.design-checklist .checklist-item').evaluateAll((items) =>
    Object.fromEntries(
      items.map((li) => [
        li.dataset.rule,
        {
          grade: li.dataset.grade,
          evidence: li.querySelector('.evidence')?.textContent,
          blame: li.querySelector('.blame bdi')?.textContent ?? null,
          item: li.querySelector('.item')?.textContent,
          source: li.querySelector('.cite')?.dataset.source,
          cite: li.querySelector('.cite')?.textContent,
          original: li.querySelector('details.cite-original q')?.textContent ?? null,
          lesson: li.querySelector('a.lesson')?.getAttribute('href'),
        },
      ]),
    ),
  );
}
