// The account's settings beside "Your data", end to end on the release build: a CORS rule and
// a table's stored access policies edited through the UI; a refusal shows the service's code
// and the exact problem beside the field, keeping what was typed; a valid save survives a
// reload; show as code offers the request; axe finds nothing serious with the editor open; a
// reset empties the open editor; and the editor in Arabic, right to left. Screenshots: tests/e2e/screenshots/settings-*.png.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { REPO, assertClean, openPage, savesSettled, screenshot, start } from './lib.mjs';

let env;
before(async () => {
  env = await start();
});
after(async () => {
  await env?.close();
});

const PANEL = '.settings-panel';
const CORS = `${PANEL} .settings-cors`;
const ACL = `${PANEL} .settings-policies`;

async function mounted(page) {
  await page.locator('h1').waitFor({ timeout: 15_000 });
  await page.locator(PANEL).waitFor();
}

/** A screenshot with the window tall enough for the sidebar, which scrolls on its own, to show
 * the whole editor. */
async function shoot(page, name) {
  const size = page.viewportSize();
  await page.setViewportSize({ width: size.width, height: 2600 });
  await screenshot(page, name);
  await page.setViewportSize(size);
}

async function openEditor(page, name = 'Edit CORS rules and access policies') {
  await page.locator(PANEL).getByRole('button', { name }).click();
  await page.locator(CORS).waitFor();
}

/** The id prefix (`cors-3`, `policy-5`) of the `n`th item (from 0) of a list. */
async function itemId(page, list, n) {
  const id = await page.locator(`${list} .settings-item`).nth(n).locator('input[type=text]').first().getAttribute('id');
  return id.replace(/-[a-z]+$/, '');
}

async function check(page, list, n, label, on) {
  const box = page.locator(`${list} .settings-item`).nth(n).getByLabel(label, { exact: true });
  if (on) await box.check();
  else await box.uncheck();
}

test('a CORS rule and stored access policies: refused with the exact problem, saved, and kept across a reload', async () => {
  const page = await openPage(env.browser, `${env.url}?perf=1`);
  await mounted(page);
  await page.locator('#new-table-name').fill('Things');
  await page.getByRole('button', { name: 'Create table' }).click();
  await page.locator('[data-table="Things"]').waitFor();
  assert.match(await page.locator(`${PANEL} .settings-summary`).textContent(), /^0 CORS rules\. Logging: off\./);

  await openEditor(page);
  await page.locator(CORS).getByRole('button', { name: 'Add rule' }).click();
  const rule = await itemId(page, CORS, 0);
  await page.locator(`#${rule}-origins`).fill('https://example.com, http://127.0.0.1:8080');
  await check(page, CORS, 0, 'GET', false);
  await page.locator(`#${rule}-max-age`).fill('600');
  await page.locator(CORS).getByRole('button', { name: 'Save CORS rules' }).click();

  // Refused: the service's code, and the rule it broke beside the methods.
  await page.locator(`${CORS} .error-notice`).waitFor();
  assert.equal(await page.locator(`${CORS} .error-code`).textContent(), '400 InvalidXmlDocument');
  assert.equal(
    await page.locator(`#${rule}-methods-problem`).textContent(),
    'a CORS rule needs at least one entry in AllowedMethods',
  );
  assert.equal(await page.locator(`#${rule}-methods`).getAttribute('aria-describedby'), `${rule}-methods-problem`);
  // Nothing typed is lost.
  assert.equal(await page.locator(`#${rule}-origins`).inputValue(), 'https://example.com, http://127.0.0.1:8080');
  assert.equal(await page.locator(`#${rule}-max-age`).inputValue(), '600');

  await check(page, CORS, 0, 'GET', true);
  await check(page, CORS, 0, 'PUT', true);
  await page.locator(`#${rule}-allowed-headers`).fill('x-ms-meta-*');
  await page.locator(CORS).getByRole('button', { name: 'Save CORS rules' }).click();
  await page.locator(`${CORS} .status`, { hasText: 'CORS rules saved.' }).waitFor();
  assert.equal(await page.locator(`${CORS} .error-notice`).count(), 0);
  assert.match(await page.locator(`${PANEL} .settings-summary`).textContent(), /^1 CORS rule\./);

  // Show as code: the edit as the SDK's call.
  const code = page.locator('.show-code[data-what="settings-cors"]');
  await code.locator('.show-code-toggle').click();
  const js = code.locator('.code-form[data-form="js"]');
  await js.waitFor({ timeout: 15_000 });
  assert.match(await js.textContent(), /await serviceClient\.setProperties\(\{\n {2}cors: \[\n/);
  assert.match(await js.textContent(), /allowedMethods: "GET,PUT"/);

  // Stored access policies of Things: an id given twice is refused beside the second.
  assert.equal(await page.locator('#settings-policy-table').inputValue(), 'Things');
  const add = page.locator(ACL).getByRole('button', { name: 'Add policy' });
  await add.click();
  await add.click();
  const first = await itemId(page, ACL, 0);
  const second = await itemId(page, ACL, 1);
  await page.locator(`#${first}-id`).fill('readers');
  await page.locator(`#${first}-start`).fill('2030-01-01T00:00:00Z');
  await page.locator(`#${first}-expiry`).fill('2030-12-31T00:00:00Z');
  await check(page, ACL, 0, 'a: add', true);
  await page.locator(`#${second}-id`).fill('readers');
  await page.locator(`#${second}-expiry`).fill('next week');
  const save = page.locator(ACL).getByRole('button', { name: 'Save access policies' });
  await save.click();
  // A time the editor cannot read is said beside it, before anything is sent.
  assert.equal(
    await page.locator(`#${second}-expiry-problem`).textContent(),
    '"next week" is not a date and time like 2030-01-31T12:00:00Z.',
  );
  assert.equal(await page.locator(`${ACL} .error-notice`).count(), 0);
  await page.locator(`#${second}-expiry`).fill('');
  await save.click();
  await page.locator(`${ACL} .error-notice`).waitFor();
  assert.equal(await page.locator(`${ACL} .error-code`).textContent(), '400 InvalidXmlDocument');
  assert.equal(
    await page.locator(`#${second}-id-problem`).textContent(),
    'the stored access policy "readers" is given twice',
  );
  assert.equal(await page.locator(`#${second}-id`).getAttribute('aria-invalid'), 'true');
  assert.equal(await page.locator(`#${first}-start`).inputValue(), '2030-01-01T00:00:00Z');

  await page.locator(`#${second}-id`).fill('query-only');
  await save.click();
  await page.locator(`${ACL} .status`, { hasText: 'Stored access policies of Things saved.' }).waitFor();
  assert.equal(await page.locator(`${ACL} .error-notice`).count(), 0);
  await shoot(page, 'settings-en');

  // Kept across a reload.
  await savesSettled(page, 10_000);
  await page.reload();
  await mounted(page);
  assert.match(await page.locator(`${PANEL} .settings-summary`).textContent(), /^1 CORS rule\./);
  await openEditor(page);
  const kept = await itemId(page, CORS, 0);
  assert.equal(await page.locator(`#${kept}-origins`).inputValue(), 'https://example.com, http://127.0.0.1:8080');
  assert.equal(await page.locator(`#${kept}-allowed-headers`).inputValue(), 'x-ms-meta-*');
  assert.equal(await page.locator(`#${kept}-max-age`).inputValue(), '600');
  const methods = page.locator(`${CORS} .settings-item`).nth(0);
  for (const [m, on] of [['GET', true], ['PUT', true], ['DELETE', false]]) {
    assert.equal(await methods.getByLabel(m, { exact: true }).isChecked(), on, m);
  }
  assert.equal(await page.locator(`${ACL} .settings-item`).count(), 2);
  const p1 = await itemId(page, ACL, 0);
  const p2 = await itemId(page, ACL, 1);
  assert.equal(await page.locator(`#${p1}-id`).inputValue(), 'readers');
  assert.equal(await page.locator(`#${p1}-start`).inputValue(), '2030-01-01T00:00:00Z');
  assert.equal(await page.locator(`#${p1}-expiry`).inputValue(), '2030-12-31T00:00:00Z');
  assert.equal(await page.locator(`${ACL} .settings-item`).nth(0).getByLabel('a: add').isChecked(), true);
  assert.equal(await page.locator(`#${p2}-id`).inputValue(), 'query-only');

  // Accessibility with the editor open and a refusal shown.
  await page.locator(`#${p2}-id`).fill('readers');
  await save.click();
  await page.locator(`${ACL} .error-notice`).waitFor();
  const axe = await readFile(join(REPO, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');
  await page.evaluate(axe);
  const violations = await page.evaluate(async () => {
    const result = await window.axe.run(document.querySelector('.settings-panel'), { resultTypes: ['violations'] });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
  assert.deepEqual(violations, []);
  await shoot(page, 'settings-en-refused');

  // A reset deletes the settings with the tables, and the open editor shows it.
  await page.locator('.storage-panel').getByRole('button', { name: 'Reset…' }).click();
  await page.locator('.storage-confirm').getByRole('button', { name: 'Delete everything' }).click();
  await page.locator(`${CORS} .settings-item`).waitFor({ state: 'detached' });
  assert.match(await page.locator(`${PANEL} .settings-summary`).textContent(), /^0 CORS rules\./);
  assert.equal(await page.locator(`${CORS} .empty`).textContent(), 'No CORS rules: the service answers no preflight from another origin.');
  assert.equal(await page.locator(`${ACL} .empty`).textContent(), 'Create a table to give it stored access policies.');
  assertClean(page);
  await page.context().close();
});

test('the settings editor in Arabic: right to left, the problem said in Arabic', async () => {
  const page = await openPage(env.browser, `${env.url}?lang=ar`);
  await mounted(page);
  await page.locator('html[lang="ar"][dir="rtl"]').waitFor();
  await page.locator('#new-table-name').fill('Things');
  await page.locator('.create-table button[type=submit]').click();
  await page.locator('[data-table="Things"]').waitFor();
  await openEditor(page, 'تحرير قواعد CORS ونُهج الوصول');
  await page.locator(CORS).getByRole('button', { name: 'إضافة قاعدة' }).click();
  const rule = await itemId(page, CORS, 0);
  await check(page, CORS, 0, 'GET', false);
  await page.locator(CORS).locator('button[type=submit]').click();
  assert.equal(
    await page.locator(`#${rule}-methods-problem`).textContent(),
    'تحتاج قاعدة CORS إلى إدخال واحد على الأقل في \u2068AllowedMethods (الطرق المسموح بها)\u2069',
  );
  await page.locator(ACL).getByRole('button', { name: 'إضافة نهج' }).click();
  const noSideways = await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
  assert.ok(noSideways, 'no sideways overflow');
  await shoot(page, 'settings-ar');
  assertClean(page);
  await page.context().close();
});
