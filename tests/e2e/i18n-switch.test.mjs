// Switching the language keeps what the user was doing: with every section
// visited and holding state -- a query with its builder and results, a staged batch, code in
// the editor, a lesson part-way through -- a switch from English to German changes the text
// only. Afterwards no English word of the UI is left anywhere in the document: in text nodes
// and in the labels a screen reader reads (aria-label, title, placeholder, alt), of the
// sections shown and hidden alike. And Arabic at 360 px: every section, in use, right to left
// without sideways overflow and without English. Screenshots: /tmp/shots-i18n/switch-*.png and
// ar-section-*-360.png.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { DESKTOP, PHONE, assertClean, openPage, start } from './lib.mjs';
import { englishLeft, englishWords, noOverflow, shoot } from './i18n-lib.mjs';
import { openCode, setCode, editorText } from './code-lib.mjs';

const LESSON = 'query-kinds.json';
const CODE = 'const answer = 42;\nconsole.log(answer);';

let env;
before(async () => {
  env = await start();
});
after(async () => {
  await env?.close();
});

/**
 * Every text node and labelling attribute of the document (hidden sections included) that
 * holds a word of `english`, outside data runs (code, inputs, `dir="ltr"`, the service's own
 * message text): `[{ word, where, text }]`.
 */
async function englishAnywhere(page, english) {
  const texts = await page.evaluate(() => {
    const out = [];
    const data =
      'code, pre, textarea, input, select option, [dir="ltr"]:not(html), bdi, script, noscript, style, svg, .grid td, .error-message, .step-message, .cm-editor, .console-line, .wire-entry';
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const el = node.parentElement;
      if (!el || !node.textContent.trim() || el.closest(data)) continue;
      out.push({ where: el.className || el.tagName, text: node.textContent.trim() });
    }
    for (const el of document.body.querySelectorAll('*')) {
      // An element's own dir="ltr" (a grid of data, a filter box) does not make its label data.
      if (el.parentElement?.closest('[dir="ltr"]:not(html), code, pre, .cm-editor')) continue;
      for (const a of ['aria-label', 'title', 'placeholder', 'alt', 'aria-description']) {
        const v = el.getAttribute(a);
        if (v) out.push({ where: `${el.tagName.toLowerCase()}.${el.className}[${a}]`, text: v });
      }
    }
    return out;
  });
  const found = [];
  for (const { where, text } of texts) {
    for (const word of text.match(/[A-Za-z][A-Za-z'-]*[A-Za-z]/g) ?? []) {
      if (english.has(word.toLowerCase())) found.push({ word, where, text: text.slice(0, 100) });
    }
  }
  return found;
}

/** The value (or checked state) of every field of a section, in document order. */
function formState(page, section) {
  return page.locator(`#section-${section}`).evaluate((root) =>
    [...root.querySelectorAll('input, select, textarea')].map((f) =>
      f.type === 'checkbox' || f.type === 'radio' ? String(f.checked) : f.value,
    ),
  );
}

test("a switch keeps every section's state and leaves no English text or label", async () => {
  const english = await englishWords('de');
  const page = await openPage(env.browser, `${env.url}?lang=en`, { viewport: DESKTOP });
  await page.locator('#tables-heading').waitFor({ timeout: 20_000 });
  await page.locator('.start-sample').click();
  await page.locator('[data-table=Employees]').waitFor({ timeout: 15_000 });

  // A refused table name: the service's code and message, and Tablescope's explanation.
  await page.locator('#new-table-name').fill('ab');
  await page.locator('.create-table button[type=submit]').click();
  const detail = page.locator('.tables-panel .error-detail');
  assert.equal(await detail.textContent(), 'a table name has 3 to 63 characters; this one has 2');

  // Entities: two writes staged for a batch.
  await page.locator('#nav-data').click();
  for (const rk of ['x1', 'x2']) {
    await page.locator('#entity-pk').fill('Sales');
    await page.locator('#entity-rk').fill(rk);
    await page.locator('.stage-write').click();
  }
  await page.locator('#nav-batch').click();
  assert.equal(await page.locator('.staged').count(), 2);

  // Query: a filter the builder shows as two conditions, run.
  await page.locator('#nav-query').click();
  await page.locator('#raw-filter').fill("PartitionKey eq 'Marketing' and Age gt 30");
  await page.locator('.run-query').click();
  await page.locator('#section-query .results .grid').waitFor();
  const resultRows = await page.locator('#section-query .results .grid tbody tr').count();
  assert.ok(resultRows > 0);
  const queryForm = await formState(page, 'query');
  assert.ok(queryForm.includes('Marketing') && queryForm.includes('30'), queryForm.join(' | '));
  const dataForm = await formState(page, 'data');

  // Code: the editor holds the user's text.
  await openCode(page);
  await setCode(page, CODE);

  // Connect, then Learn: a lesson with three steps run.
  await page.locator('#nav-connect').click();
  await page.locator('#nav-learn').click();
  await page.locator(`.scenario-load[data-file="${LESSON}"]`).click({ timeout: 20_000 });
  for (let i = 0; i < 3; i++) await page.locator('.scenario-player .run-next').click();
  await page.locator('.scenario-player .step').nth(2).waitFor();
  const noteEn = await page.locator('.scenario-player .step .step-note').first().textContent();

  await page.locator('#lang-select').selectOption('de');
  await page.locator('#tables-heading', { hasText: 'Tabellen' }).waitFor();

  // The explanation follows the switch; the code and the service's message are API.
  assert.equal(await detail.textContent(), 'ein Tabellenname hat 3 bis 63 Zeichen; dieser hat 2');
  assert.equal(await page.locator('.tables-panel .error-code').textContent(), '400 OutOfRangeInput');
  // The lesson kept its three steps; their notes and figures now speak German.
  assert.equal(await page.locator('.scenario-player .step').count(), 3);
  const noteDe = await page.locator('.scenario-player .step .step-note').first().textContent();
  assert.notEqual(noteDe, noteEn);
  assert.match(noteDe, /Punktabfrage|Partition|Abfrage/);
  assert.equal(await page.locator('.scenario-player .step .step-number').first().textContent(), 'Schritt 1');
  await shoot(page, 'switch-learn-de');
  // Query: the filter, its builder and the results are still there.
  await page.locator('#nav-query').click();
  assert.equal(await page.locator('#raw-filter').inputValue(), "PartitionKey eq 'Marketing' and Age gt 30");
  assert.deepEqual(await formState(page, 'query'), queryForm);
  assert.equal(await page.locator('#section-query .results .grid tbody tr').count(), resultRows);
  await shoot(page, 'switch-query-de');
  // Batch: both staged writes. Entities: the keys typed last.
  await page.locator('#nav-batch').click();
  assert.equal(await page.locator('.staged').count(), 2);
  await page.locator('#nav-data').click();
  assert.equal(await page.locator('#entity-rk').inputValue(), 'x2');
  assert.deepEqual(await formState(page, 'data'), dataForm);
  // Code: the user's text.
  await page.locator('#nav-code').click();
  assert.equal(await editorText(page), CODE);

  assert.deepEqual(await englishAnywhere(page, english), [], 'English left after the switch');
  assertClean(page);
  await page.context().close();
});

test('Arabic at 360 px: every section in use, without sideways overflow or English', async () => {
  const english = await englishWords('ar');
  const page = await openPage(env.browser, `${env.url}?lang=ar`, { viewport: PHONE });
  await page.locator('#tables-heading').waitFor({ timeout: 20_000 });
  await page.locator('.start-sample').click();
  await page.locator('[data-table=Employees]').waitFor({ timeout: 15_000 });
  const check = async (section) => {
    assert.deepEqual(await englishLeft(page, english), [], `the ${section} section shows English`);
    await noOverflow(page, `ar 360 ${section}`);
    await shoot(page, `ar-section-${section}-360`);
  };
  await page.locator('#nav-data').click();
  await page.locator('#entity-pk').fill('Sales');
  await page.locator('#entity-rk').fill('x1');
  await page.locator('.stage-write').click();
  await check('data');
  await page.locator('#nav-batch').click();
  await page.locator('.staged').first().waitFor();
  await check('batch');
  await page.locator('#nav-query').click();
  await page.locator('#raw-filter').fill("PartitionKey eq 'Marketing' and Age gt 30");
  await page.locator('.run-query').click();
  await page.locator('#section-query .results .grid').waitFor();
  await check('query');
  await openCode(page);
  await check('code');
  await page.locator('#nav-connect').click();
  await check('connect');
  await page.locator('#nav-learn').click();
  await page.locator(`.scenario-load[data-file="${LESSON}"]`).click({ timeout: 20_000 });
  await page.locator('.scenario-player .run-next').click();
  await page.locator('.scenario-player .step').first().waitFor();
  await check('learn');
  assertClean(page);
  await page.context().close();
});

test('a $filter syntax error is explained in the language shown, its position kept', async () => {
  const page = await openPage(env.browser, `${env.url}?lang=de`);
  await page.locator('#tables-heading').waitFor({ timeout: 20_000 });
  await page.locator('#nav-query').click();
  await page.locator('#raw-filter').fill("PartitionKey eq 'a' and");
  const message = page.locator('.syntax-message');
  assert.equal(await message.textContent(), "Position 23: nach 'and' wurde eine Bedingung erwartet");
  await page.locator('#raw-filter').fill('Age = 3');
  assert.equal(await message.textContent(), "Position 4: unerwartetes Zeichen '=': Vergleiche schreibt man eq, ne, gt, ge, lt, le");
  await page.locator('#lang-select').selectOption('ar');
  await page.locator('html[lang=ar]').waitFor();
  // The nested explanation holds Latin text, so it is an isolated run (U+2068 … U+2069).
  assert.equal(await message.textContent(), "الموضع 4: \u2068حرف غير متوقع '=': تُكتب المقارنات eq وne وgt وge وlt وle\u2069");
  await shoot(page, 'syntax-error-ar');
  assertClean(page);
  await page.context().close();
});
