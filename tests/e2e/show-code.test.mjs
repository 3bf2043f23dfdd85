// "Show as code" in headless Chromium on the release build: a query
// with its options and paging, an entity write (with its ETag as If-Match) and a staged batch
// each open a panel with five forms (HTTP, JavaScript, Python, C#, Java); the JavaScript form,
// opened in the Code section and run there, gives the same result as the UI's own action (the
// same entities, the same status).
//
//   E2E_DIST=/tmp/dist-x node --test tests/e2e/show-code.test.mjs   (default dist: dist/)

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { assertClean, openPage, start } from './lib.mjs';
import {
  BASE,
  deleteAllTables,
  editorText,
  loggedMembers,
  runEditor,
  tableRows,
  wire,
  wireLog,
} from './code-lib.mjs';

const SHOTS = '/tmp/shots-code-ui';
const FORMS = ['HTTP', 'JavaScript', 'Python', 'C#', 'Java'];
const IDS = { HTTP: 'http', JavaScript: 'js', Python: 'python', 'C#': 'csharp', Java: 'java' };
let env;
let page;
before(async () => {
  await mkdir(SHOTS, { recursive: true });
  env = await start();
  page = await openPage(env.browser, env.url);
  await page.locator('h1').waitFor({ timeout: 15_000 });
  await page.waitForFunction(() => typeof window.tablescope?.wire === 'function');
  await deleteAllTables(page);
});
after(async () => {
  await env?.close();
});

async function selectTable(name) {
  await page.locator(`[data-table="${name}"] .table-facts`).click();
  await page.locator(`[data-table="${name}"].selected`).waitFor();
}

/** Opens the show-as-code panel `what` and reads every form: `{ HTTP: text, … }`. */
async function forms(what) {
  const root = page.locator(`.show-code[data-what="${what}"]`);
  if ((await root.locator('.code-forms').count()) === 0) await root.locator('.show-code-toggle').click();
  assert.deepEqual(await root.locator('.code-form-tab').allTextContents(), FORMS);
  assert.equal(await root.locator('.code-form-tab[aria-selected="true"]').textContent(), 'JavaScript');
  const out = {};
  for (const form of FORMS) {
    await root.locator(`.code-form-tab[data-form="${IDS[form]}"]`).click();
    await root.locator(`.code-form-tab[data-form="${IDS[form]}"][aria-selected="true"]`).waitFor();
    out[form] = await root.locator(`.code-form[data-form="${IDS[form]}"]`).textContent();
  }
  // Back on JavaScript, which the Code section runs.
  await root.locator('.code-form-tab[data-form="js"]').click();
  await root.locator('.code-form[data-form="js"]').waitFor();
  return out;
}

/** "Open in Code section" on panel `what`, then runs it there; the outcome. */
async function runInCode(what, js) {
  await page.locator(`.show-code[data-what="${what}"] .open-in-code`).click();
  await page.locator('#section-code:not([hidden]) .run-code:not([disabled])').waitFor({ timeout: 30_000 });
  await page.waitForFunction(() => !document.querySelector('.code-loading'));
  await page.waitForFunction(
    (first) => document.querySelector('.code-editor .cm-line')?.textContent === first,
    js.split('\n')[0],
  );
  assert.equal(await editorText(page), js);
  return runEditor(page);
}

test('a query page (options and continuation) as code; its JavaScript returns the same entities', async () => {
  await wire(page, 'POST', 'Tables', { TableName: 'Showq' });
  for (const rk of ['1', '2', '3', '4', '5']) {
    await wire(page, 'POST', 'Showq', { PartitionKey: 'p', RowKey: rk, Name: `n${rk}` });
  }
  await selectTable('Showq');
  await page.locator('#nav-query').click();
  await page.locator('#raw-filter').fill("PartitionKey eq 'p'");
  await page.locator('#q-top').fill('2');
  await page.locator('.run-query').click();
  await page.locator('.next-page:not([hidden])').click();
  await page.waitForFunction(() => document.querySelector('.results-count')?.textContent === 'Page 2: 2 entities');
  const shown = await page.locator('.results .grid-row td.pin-2').allTextContents();
  assert.deepEqual(shown, ['3', '4']);

  const f = await forms('query');
  const http = f.HTTP.split('\n')[0];
  assert.match(http, /^GET http:\/\/127\.0\.0\.1:10002\/devstoreaccount1\/Showq\(\)\?/);
  assert.match(http, /\$top=2/);
  assert.match(http, /\$filter=PartitionKey%20eq%20'p'/);
  assert.match(http, /NextPartitionKey=[^&]+&NextRowKey=[^& ]+ HTTP\/1\.1$/);
  assert.match(f.JavaScript, /^const client = tableClient\("Showq"\);\n/);
  assert.match(f.JavaScript, /filter: "PartitionKey eq 'p'"/);
  assert.match(f.JavaScript, /byPage\(\{ maxPageSize: 2, continuationToken: "[A-Za-z0-9+/=]+" \}\)/);
  assert.match(f.Python, /from azure\.data\.tables import TableServiceClient/);
  assert.match(f.Python, /"Showq"/);
  assert.match(f['C#'], /using Azure\.Data\.Tables;/);
  assert.match(f['C#'], /GetTableClient\("Showq"\)/);
  assert.match(f.Java, /import com\.azure\.data\.tables\.\*;/);
  assert.match(f.Java, /"Showq"/);
  await page.screenshot({ path: `${SHOTS}/show-code-query.png`, fullPage: true });

  const o = await runInCode('query', f.JavaScript);
  assert.equal(o.kind, 'done', o.text);
  // One console line per entity, then the continuation token.
  const rowKeys = await loggedMembers(page, 'rowKey');
  assert.deepEqual(rowKeys.slice(0, -1), shown);
  const log = await wireLog(page);
  assert.equal(log.length, 1);
  assert.deepEqual(log[0][3], { kind: 'Partition scan', scanned: 2, returned: 2 });
});

test('an entity write as code, with its ETag; the JavaScript gives the same entity and status', async () => {
  await wire(page, 'POST', 'Tables', { TableName: 'Showw' });
  await selectTable('Showw');
  await page.locator('#nav-data').click();
  await page.locator('#entity-pk').fill("O'Brien 100%");
  await page.locator('#entity-rk').fill('1');
  const props = [
    ['Name', 'String', 'Ada'],
    ['Big', 'Int64', '9007199254740993'],
    ['When', 'DateTime', '2024-02-29T23:59:58.1234567Z'],
  ];
  for (const [name, type, value] of props) {
    await page.locator('.add-property').click();
    const row = page.locator('.property-row').last();
    await row.locator('.prop-name').fill(name);
    await row.locator('.prop-type').selectOption(type);
    await row.locator('input.prop-value').fill(value);
  }
  const insert = await forms('write');
  assert.match(insert.JavaScript, /await client\.createEntity\(\{\n  partitionKey: "O'Brien 100%",/);
  assert.match(insert.JavaScript, /Big: 9007199254740993n,/);
  assert.match(insert.HTTP, /^POST http:\/\/127\.0\.0\.1:10002\/devstoreaccount1\/Showw HTTP\/1\.1\n/);

  const o = await runInCode('write', insert.JavaScript);
  assert.equal(o.kind, 'done', o.text);
  assert.deepEqual(await wireLog(page), [['POST', `${BASE}/Showw`, 204]]);
  const byCode = await tableRows(page, 'Showw');
  assert.equal(byCode.length, 1);
  assert.equal(byCode[0]['Big@odata.type'], 'Edm.Int64');

  // The same write from the UI, on the same starting state.
  await wire(page, 'DELETE', `Showw(PartitionKey='O''Brien%20100%25',RowKey='1')`);
  assert.deepEqual(await tableRows(page, 'Showw'), []);
  await page.locator('#nav-data').click();
  await page.locator('.run-write').click();
  // The editor asks for the entity back (201); the SDK sends Prefer: return-no-content (204).
  await page.waitForFunction(() => document.querySelector('.editor-status')?.textContent.startsWith('201'));
  assert.deepEqual(await tableRows(page, 'Showw'), byCode);

  // A replace with a stale ETag: 412 both ways.
  await page.locator('input[name="write-op"][value="replace"]').check();
  const stale = `W/"datetime'2020-01-01T00%3A00%3A00.0000000Z'"`;
  await page.locator('#entity-etag').fill(stale);
  const replace = await forms('write');
  assert.match(replace.JavaScript, /"Replace", \{ etag: "W\/\\"datetime'2020-01-01T00%3A00%3A00\.0000000Z'\\"" \}\);/);
  assert.match(replace.HTTP, /\nIf-Match: W\/"datetime'2020-01-01T00%3A00%3A00\.0000000Z'"\n/);
  const failed = await runInCode('write', replace.JavaScript);
  assert.equal(failed.kind, 'error');
  assert.match(failed.text, /\(412 UpdateConditionNotSatisfied\)$/);
  await page.locator('#nav-data').click();
  await page.locator('.run-write').click();
  await page.locator('#section-data .error-notice').waitFor();
  assert.match(await page.locator('#section-data .error-notice').textContent(), /412[\s\S]*UpdateConditionNotSatisfied/);
  assert.deepEqual(await tableRows(page, 'Showw'), byCode, 'neither replace changed the entity');
});

test('a staged batch as code; the JavaScript commits the same entities with the same status', async () => {
  await wire(page, 'POST', 'Tables', { TableName: 'Showb' });
  await wire(page, 'POST', 'Showb', { PartitionKey: 'b', RowKey: '3', N: 3 });
  await selectTable('Showb');
  await page.locator('#nav-batch').click();
  await page.locator('.by-hand summary').click();
  const stage = async (op, json) => {
    await page.locator('#hand-op').selectOption(op);
    await page.locator('#hand-json').fill(json);
    await page.locator('.stage-by-hand').click();
  };
  await stage('insert', '{"PartitionKey":"b","RowKey":"1","N":1}');
  await stage('upsert-merge', '{"PartitionKey":"b","RowKey":"2","N":2,"Big":"5","Big@odata.type":"Edm.Int64"}');
  await stage('delete', '{"PartitionKey":"b","RowKey":"3"}');
  const f = await forms('batch');
  assert.match(f.JavaScript, /await client\.submitTransaction\(\[/);
  assert.match(f.HTTP, /^POST http:\/\/127\.0\.0\.1:10002\/devstoreaccount1\/\$batch HTTP\/1\.1\n/);
  await page.screenshot({ path: `${SHOTS}/show-code-batch.png`, fullPage: true });

  const o = await runInCode('batch', f.JavaScript);
  assert.equal(o.kind, 'done', o.text);
  assert.deepEqual(await wireLog(page), [['POST', `${BASE}/$batch`, 202]]);
  const byCode = await tableRows(page, 'Showb');
  assert.deepEqual(byCode.map((r) => r.RowKey), ['1', '2']);

  // Back to the starting state, then the UI's commit.
  await wire(page, 'DELETE', `Showb(PartitionKey='b',RowKey='1')`);
  await wire(page, 'DELETE', `Showb(PartitionKey='b',RowKey='2')`);
  await wire(page, 'POST', 'Showb', { PartitionKey: 'b', RowKey: '3', N: 3 });
  await page.locator('#nav-batch').click();
  await page.locator('.commit-batch').click();
  await page.waitForFunction(() => document.querySelector('.batch-status')?.textContent.startsWith('202'));
  assert.deepEqual(await tableRows(page, 'Showb'), byCode);
  assertClean(page);
});
