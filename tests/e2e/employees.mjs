// The guide's Employees table as test data, shared by the end-to-end tests that need it.

import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { REPO } from './lib.mjs';

/**
 * The guide's Employees table (the entities scenarios/employees.json inserts), written through
 * the page's own endpoint and then selected: set up without the welcome's sample button, so
 * this test checks only its own item.
 */
export async function seedEmployees(page) {
  const lesson = JSON.parse(await readFile(join(REPO, 'www', 'scenarios', 'employees.json'), 'utf8'));
  const entities = lesson.steps.filter((s) => s.op === 'insert').map((s) => s.entity);
  const statuses = await page.evaluate((list) => {
    const base = 'http://127.0.0.1:10002/devstoreaccount1';
    const headers = [['Accept', 'application/json;odata=nometadata'], ['Content-Type', 'application/json']];
    const post = (path, body) =>
      window.tablescope.wire({ method: 'POST', url: base + path, headers, body: JSON.stringify(body) }).status;
    return [post('/Tables', { TableName: 'Employees' }), ...list.map((e) => post('/Employees', e))];
  }, entities);
  assert.deepEqual(statuses, [201, ...entities.map(() => 201)]);
  await page.locator('[data-table="Employees"] .table-facts').click();
}
