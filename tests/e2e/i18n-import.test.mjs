// Import and JSON errors in the reader's language (issue #14), and problems that follow a
// language switch: a refused workspace file and CSV file in the "Your data" panel, text typed
// as an entity's JSON in the batch stager, and the entity editor's form problems. Each is
// said in the language shown and says itself again when the language changes, without a
// new attempt; the data in it (file names, positions, column names, quoted values) is kept.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { assertClean, openPage, start } from './lib.mjs';
import { shoot } from './i18n-lib.mjs';

const PANEL = '.storage-panel';

let env;
before(async () => {
  env = await start();
});
after(async () => {
  await env?.close();
});

async function chooseFile(page, name, text) {
  await page
    .locator(`${PANEL} input[type=file]`)
    .setInputFiles({ name, mimeType: 'text/plain', buffer: Buffer.from(text, 'utf8') });
  await page.locator(`${PANEL} .storage-confirm, ${PANEL} .storage-error`).first().waitFor();
}

async function switchTo(page, lang) {
  await page.locator('#lang-select').selectOption(lang);
  await page.locator(`html[lang=${lang}]`).waitFor();
}

test('a refused workspace or CSV file is explained in the language shown, and follows a switch', async () => {
  const page = await openPage(env.browser, `${env.url}?lang=de`);
  await page.locator('#tables-heading').waitFor({ timeout: 20_000 });
  const error = page.locator(`${PANEL} .storage-error`);

  // A workspace file is read and checked when chosen: a broken one is refused at once, with
  // no confirmation to answer.
  await chooseFile(page, 'kaputt.json', '{"format": "tablescope-account", "version": 1, "tables": [');
  await error.filter({ hasText: 'kaputt.json' }).waitFor();
  assert.equal(
    await error.textContent(),
    'kaputt.json wurde nicht importiert: InvalidInput: kein gültiges JSON: der Text endet mitten in einem Array in Zeile 1, Spalte 58',
  );
  await switchTo(page, 'nl');
  assert.equal(
    await error.textContent(),
    'kaputt.json is niet geïmporteerd: InvalidInput: geen geldige JSON: de tekst eindigt midden in een array op regel 1, kolom 58',
  );

  const extra = JSON.stringify({ format: 'tablescope-account', version: 1, tables: [], extra: 1 });
  await chooseFile(page, 'extra.json', extra);
  await error.filter({ hasText: 'extra.json' }).waitFor();
  assert.equal(
    await error.textContent(),
    'extra.json is niet geïmporteerd: InvalidInput: onjuist opgebouwde export: onbekend veld `extra`, verwacht wordt een van `format`, `version`, `target`, `serviceProperties`, `tables`',
  );

  await chooseFile(page, 'Zahlen.csv', 'PartitionKey,RowKey,N,N@type\r\np,1,x,Edm.Int32\r\n');
  await page.getByRole('textbox', { name: 'Tabel om in te importeren' }).fill('Zahlen');
  await page.locator(`${PANEL} .storage-confirm button`).first().click();
  assert.equal(
    await error.textContent(),
    "Zahlen.csv is niet geïmporteerd: regel 2, kolom N: 'x' is geen geldige Edm.Int32",
  );
  await switchTo(page, 'ar');
  assert.equal(
    await error.textContent(),
    // Data (the file, the column, the value, the type) is in isolated runs, U+2068 … U+2069,
    // and so is the nested sentence that holds some.
    "لم يُستورد \u2068Zahlen.csv\u2069: \u2068السطر 2، العمود \u2068N\u2069: \u2068'\u2068x\u2069' ليست قيمة \u2068Edm.Int32\u2069 صالحة\u2069\u2069",
  );
  await shoot(page, 'import-error-ar');
  assert.equal(await page.locator('[data-table="Zahlen"]').count(), 0, 'nothing was imported');
  assertClean(page);
  await page.context().close();
});

test("the batch stager's JSON problem and the editor's form problems follow a switch", async () => {
  const page = await openPage(env.browser, `${env.url}?lang=de`);
  await page.locator('#tables-heading').waitFor({ timeout: 20_000 });

  // Text typed as an entity's JSON that is not JSON.
  await page.locator('#nav-batch').click();
  await page.locator('.by-hand summary').click();
  await page.locator('#hand-json').fill('{"PartitionKey": "p", "RowKey": }');
  await page.locator('.stage-by-hand').click();
  const problem = page.locator('.by-hand .field-error');
  assert.equal(await problem.textContent(), 'Kein JSON-Objekt: erwartet wird ein Wert in Zeile 1, Spalte 33');
  await page.locator('#hand-json').fill('[1]');
  await page.locator('.stage-by-hand').click();
  assert.equal(
    await problem.textContent(),
    'Kein JSON-Objekt: falscher Typ: ein Array, erwartet wird eine Entität als JSON-Objekt in Zeile 1, Spalte 0',
  );
  await switchTo(page, 'nl');
  assert.equal(
    await problem.textContent(),
    'Geen JSON-object: verkeerd type: een array, verwacht wordt een entiteit als JSON-object op regel 1, kolom 0',
  );

  // The editor: a property without a name and one whose value is not its type, sent.
  await page.locator('#nav-data').click();
  await page.locator('#entity-pk').fill('p');
  await page.locator('#entity-rk').fill('1');
  await page.locator('.add-property').click();
  const row = page.locator('.property-row').last();
  await row.locator('.prop-name').fill('N');
  await row.locator('.prop-type').selectOption('Int32');
  await row.locator('input.prop-value').fill('x');
  await page.locator('.add-property').click();
  await page.locator('.property-row').last().locator('input.prop-value').fill('y');
  await page.locator('.stage-write').click();
  const problems = page.locator('.editor .form-problems li');
  const nl = await problems.allTextContents();
  assert.equal(nl.length, 2, nl.join(' | '));
  assert.match(nl[0], /^N: /);
  assert.equal(nl[1], "(zonder naam): '' is geen geldige eigenschapsnaam (eerst een letter of _, dan letters, cijfers of _)");
  await switchTo(page, 'de');
  const de = await problems.allTextContents();
  assert.equal(de.length, 2);
  assert.match(de[0], /^N: /);
  assert.equal(de[1], "(ohne Namen): '' ist kein gültiger Eigenschaftsname (zuerst ein Buchstabe oder _, dann Buchstaben, Ziffern oder _)");
  assert.notEqual(de[0], nl[0], 'the problem is said again in German');
  await shoot(page, 'editor-problems-de');
  assertClean(page);
  await page.context().close();
});
