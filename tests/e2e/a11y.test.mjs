// Axe-core (npm, node_modules/axe-core) over every section — Entities with
// a table and an opened entity, Query with results, Batch with a staged operation, Code after a
// run (console and wire log), the account's settings with a refused CORS rule, Connect with the
// CORS guidance, Design with a generated and
// evaluated design, Learn with a
// lesson open, and the Tables sidebar beside each — in light and dark, at 1280x800 and
// 360x740: no serious or critical violation.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DESKTOP, PHONE, REPO, assertClean, start } from './lib.mjs';
import { numberedTable, openApp } from './grid-helpers.mjs';
import { openCode, runEditor, setCode } from './code-lib.mjs';

let env;
let axeSource;
before(async () => {
  env = await start();
  axeSource = await readFile(join(REPO, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');
});
after(async () => {
  await env?.close();
});

/** The serious and critical violations axe finds in the page as it is now. */
async function audit(page, where) {
  if (!(await page.evaluate(() => typeof window.axe === 'object'))) {
    // Evaluated through the debugger protocol, so no page policy stands in the way.
    await page.evaluate(axeSource);
  }
  const violations = await page.evaluate(async () => {
    const result = await window.axe.run(document, { resultTypes: ['violations'] });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        nodes: v.nodes.slice(0, 5).map((n) => `${n.target.join(' ')} — ${n.failureSummary?.split('\n').slice(1, 3).join(' ')}`),
      }));
  });
  return violations.map((v) => ({ where, ...v }));
}

for (const colorScheme of ['light', 'dark']) {
  for (const [size, viewport] of [['desktop', DESKTOP], ['360px', PHONE]]) {
    test(`no serious or critical axe violation in any section: ${colorScheme}, ${size}`, async () => {
      const page = await openApp(env, { viewport, colorScheme });
      // Colours at rest: no hover or press transition half-way when axe measures contrast.
      await page.emulateMedia({ reducedMotion: 'reduce' });
      const found = [];
      await numberedTable(page, 'People', 30);
      // Entities: the grid with a selected row and its JSON, the editor, the sidebar.
      await page.locator('.data-panel .grid-row[data-index="2"]').click();
      await page.locator('.data-panel .entity-json').waitFor();
      await page.locator('.data-panel .columns-toggle').click();
      found.push(...(await audit(page, 'Entities')));
      await page.keyboard.press('Escape');
      // Stage one operation for the Batch section.
      await page.locator('.data-panel .edit-entity').click();
      await page.locator('.stage-write').click();

      await page.locator('#nav-query').click();
      await page.locator('#raw-filter').fill("PartitionKey eq 'p0' and N ge 10");
      await page.locator('#raw-filter').press('Control+Enter');
      await page.locator('.results .grid-row').first().waitFor();
      await page.locator('.scan-meter').waitFor();
      found.push(...(await audit(page, 'Query')));

      await page.locator('#nav-batch').click();
      await page.locator('#section-batch .panel').first().waitFor();
      found.push(...(await audit(page, 'Batch')));

      // The account's settings: the editor open, a CORS rule refused beside its methods.
      await page.locator('.settings-toggle').click();
      await page.locator('.settings-cors').getByRole('button', { name: 'Add rule' }).click();
      await page.locator('.settings-cors .settings-item').getByLabel('GET', { exact: true }).uncheck();
      await page.locator('.settings-cors button[type=submit]').click();
      await page.locator('.settings-cors .field-problem').waitFor();
      found.push(...(await audit(page, 'Account settings')));

      // Code: the editor, a run's console output (an expandable object) and its wire log.
      await openCode(page);
      await setCode(page, "const c = tableClient('People');\nconsole.log(await c.getEntity('p0', 'r0000'));");
      assert.equal((await runEditor(page)).kind, 'done');
      found.push(...(await audit(page, 'Code')));

      // Connect: the form, and the guidance an unreachable endpoint gets (no CORS answer).
      await page.locator('#nav-connect').click();
      // Nothing listens on port 47 (and Chromium does not block it as an unsafe port).
      await page.locator('#connect-url').fill('http://127.0.0.1:47/devstoreaccount1');
      await page.locator('.connect-add').click();
      await page.locator('.connect-cors').waitFor();
      found.push(...(await audit(page, 'Connect')));
      page.problems = page.problems.filter((p) => !p.includes('127.0.0.1:47/') && !p.includes('net::ERR_CONNECTION_REFUSED'));

      // Design: a gallery design generated and evaluated (every panel of the section shown).
      await page.locator('#nav-design').click();
      await page.locator('.gallery-open[data-gallery="employees-by-department"]').click();
      await page.waitForFunction(() => document.querySelector('input.design-name')?.value === 'Employees by department');
      await page.locator('.design-generate button.generate').click();
      await page.locator('.generate-status', { hasText: 'Generated' }).waitFor({ timeout: 60_000 });
      await page.locator('button.evaluate').click();
      await page.locator('table.versus').waitFor({ timeout: 60_000 });
      found.push(...(await audit(page, 'Design')));

      await page.locator('#nav-learn').click();
      await page.locator('.scenario-load').first().waitFor({ timeout: 20_000 });
      found.push(...(await audit(page, 'Learn')));
      await page.locator('.scenario-load').first().click();
      const player = page.locator('.scenario-player');
      await player.waitFor({ timeout: 20_000 });
      await player.getByRole('button', { name: 'Run all' }).click();
      await player.locator('.step').first().waitFor({ timeout: 20_000 });
      found.push(...(await audit(page, 'Learn (a lesson)')));

      assert.deepEqual(found, [], JSON.stringify(found, null, 2));
      assertClean(page);
      await page.context().close();
    });
  }
}
