// Code cells in docs embeds, on the release build (split, as shipped).
//
// `?embed=1&snippet=<file>.js` or `?embed=1&code=<text>`, with `&scenario=<lesson>.json` for the
// lesson's data: the code runs in the Code section's sandbox worker, on an account of the
// cell's own, and shows its console output and a compact wire log. Checked here: a snippet by
// name and code by text with their exact output lines and wire entries (methods, URLs,
// statuses, a query's figures); the lesson's exact entities; every run starting from the
// lesson's data again; runaway code stopped at the limit; Stop, by mouse and by keyboard; the
// limit field applying to the next run; a wire entry opened to its exact request and response
// (request line, headers, body; status, headers), data shown as text; a syntax error with its
// line; bad addresses with a clear error; code from the URL shown as text, never HTML; "Open in
// the playground" opening the code in the Code section; axe on the cell with an entry open
// (light and dark, desktop and 360 px); the cell's text in all four languages. Screenshots:
// /tmp/shots-cells/.
//
//   E2E_DIST=/tmp/dist-x node --test tests/e2e/code-cell.test.mjs   (default dist: dist/)

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DESKTOP, PHONE, REPO, assertClean, openPage, start } from './lib.mjs';
import { englishLeft, englishWords, noOverflow } from './i18n-lib.mjs';

const SHOTS = '/tmp/shots-cells';
const ACCOUNT = 'http://127.0.0.1:10002/devstoreaccount1';

let env;
let axeSource;
before(async () => {
  env = await start();
  axeSource = await readFile(join(REPO, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');
  await mkdir(SHOTS, { recursive: true });
});
after(async () => {
  await env?.close();
});

const cellUrl = (params) => `${env.url}?${new URLSearchParams({ embed: '1', ...params })}`;

async function openCell(params, options) {
  const page = await openPage(env.browser, cellUrl(params), options);
  await page.locator('.cell-embed .run-code:not([disabled])').waitFor({ timeout: 20_000 });
  return page;
}

const runNumber = async (page) => Number((await page.locator('.cell-embed .code-outcome').getAttribute('data-run')) ?? 0);

/** The outcome of run `n` once it has ended: `{ kind, text, line }`. */
async function outcomeOf(page, n) {
  const outcome = page.locator(
    `.cell-embed .code-outcome[data-run="${n}"] :is(.code-done, .code-error, .code-timeout, .code-stopped)`,
  );
  await outcome.waitFor({ timeout: 30_000 });
  const kind = (await outcome.getAttribute('class')).replace('code-', '');
  return { kind, text: await outcome.textContent(), line: await outcome.getAttribute('data-line') };
}

/** Clicks Run and waits for the outcome of that run. */
async function run(page) {
  const n = (await runNumber(page)) + 1;
  await page.locator('.cell-embed .run-code').click();
  return outcomeOf(page, n);
}

const consoleLines = (page) => page.locator('.cell-embed .console-line').allTextContents();
const wireEntries = (page) =>
  page.locator('.cell-embed .wire-entry').evaluateAll((entries) =>
    entries.map((e) => `${e.dataset.method} ${decodeURIComponent(e.dataset.url)} ${e.dataset.status}`),
  );

test('a snippet by name runs in the sandbox and shows its exact output and wire log', async () => {
  const page = await openCell({ snippet: 'paging-with-continuation.js' });
  const code = await page.locator('#cell-code').inputValue();
  assert.equal(code, await readFile(join(REPO, 'www/snippets/paging-with-continuation.js'), 'utf8'));
  // No editor bundle, no lessons module, no playground: the cell's own module and the runner.
  const loaded = await page.evaluate(() => performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname));
  assert.ok(loaded.includes('/cell_bg.wasm'), loaded.join('\n'));
  assert.ok(!loaded.some((p) => p.startsWith('/learn') || p.startsWith('/lesson') || p.startsWith('/tablescope-') || p.includes('tablescope-code-')), loaded.join('\n'));

  const outcome = await run(page);
  assert.equal(outcome.kind, 'done', outcome.text);
  assert.deepEqual(await consoleLines(page), [
    'page 1: 10 orders, 0001 to 0010',
    'page 2: 10 orders, 0011 to 0020',
    'page 3: 5 orders, 0021 to 0025',
  ]);
  const filter = "$filter=PartitionKey eq '2024-06'";
  assert.deepEqual(await wireEntries(page), [
    `POST ${ACCOUNT}/Tables 201`,
    `POST ${ACCOUNT}/$batch 202`,
    `GET ${ACCOUNT}/Orders()?$top=10&${filter} 200`,
    `GET ${ACCOUNT}/Orders()?$top=10&${filter}&NextPartitionKey=1!12!MjAyNC0wNg--&NextRowKey=1!8!MDAxMQ-- 200`,
    `GET ${ACCOUNT}/Orders()?$top=10&${filter}&NextPartitionKey=1!12!MjAyNC0wNg--&NextRowKey=1!8!MDAyMQ-- 200`,
  ]);
  assert.equal(await page.locator('.cell-embed .wire-count').textContent(), '5');
  const figures = await page.locator('.cell-embed .wire-query').evaluateAll((q) =>
    q.map((e) => `${e.dataset.kind} ${e.dataset.scanned} ${e.dataset.returned}`),
  );
  assert.deepEqual(figures, ['Partition scan 10 10', 'Partition scan 10 10', 'Partition scan 5 5']);
  // Run again: the cell's account starts afresh, so createTable succeeds again.
  const again = await run(page);
  assert.equal(again.kind, 'done', again.text);
  assert.equal((await wireEntries(page))[0], `POST ${ACCOUNT}/Tables 201`);
  await page.screenshot({ path: join(SHOTS, 'cell-snippet-desktop.png'), fullPage: true });
  assertClean(page);
  await page.context().close();
});

const MARKETING_OVER_40 = [
  'const employees = tableClient("Employees");',
  'const filter = odata`PartitionKey eq ${"Marketing"} and Age gt ${40}`;',
  'for await (const e of employees.listEntities({ queryOptions: { filter } })) {',
  '  console.log(e.rowKey, e.FirstName, e.Age);',
  '}',
  'await employees.deleteEntity("Marketing", "00002");',
  'console.log((await employees.getEntity("Marketing", "Department")).EmployeeCount);',
].join('\n');

test("code by text runs on the lesson's data, and every run starts from it again", async () => {
  const page = await openCell({ scenario: 'employees.json', code: MARKETING_OVER_40 }, { viewport: PHONE });
  assert.equal(await page.locator('#cell-code').inputValue(), MARKETING_OVER_40);
  assert.equal(
    await page.locator('.cell-data').textContent(),
    'Runs on the data of the lesson “Employees and departments”, in an account of its own. Every run starts again from this data.',
  );
  for (const round of [1, 2]) {
    const outcome = await run(page);
    assert.equal(outcome.kind, 'done', `run ${round}: ${outcome.text}`);
    // The lesson's end: Jun and Lee are over 40, and its batch made the Department's count 154.
    // The second run finds Jun again: the first run's delete did not last.
    assert.deepEqual(await consoleLines(page), ['00002 Jun 47', '00004 Lee 52', '154'], `run ${round}`);
    assert.deepEqual(await wireEntries(page), [
      `GET ${ACCOUNT}/Employees()?$filter=PartitionKey eq 'Marketing' and Age gt 40 200`,
      `DELETE ${ACCOUNT}/Employees(PartitionKey='Marketing',RowKey='00002') 204`,
      `GET ${ACCOUNT}/Employees(PartitionKey='Marketing',RowKey='Department') 200`,
    ]);
    const query = page.locator('.cell-embed .wire-query');
    assert.equal(await query.count(), 1);
    assert.deepEqual(
      [await query.getAttribute('data-kind'), await query.getAttribute('data-scanned'), await query.getAttribute('data-returned')],
      ['Partition scan', '6', '2'],
    );
  }
  await noOverflow(page, 'the cell at 360 px');
  await page.screenshot({ path: join(SHOTS, 'cell-lesson-360.png'), fullPage: true });
  assertClean(page);
  await page.context().close();
});

test('runaway code stops at the limit, and a syntax error shows its line', async () => {
  const page = await openCell({ code: 'console.log("start");\nwhile (true) {}', limit: '1' });
  // `&limit=` is the field's first value.
  assert.equal(await page.locator('#cell-limit').inputValue(), '1');
  const started = Date.now();
  const timeout = await run(page);
  assert.equal(timeout.kind, 'timeout');
  assert.equal(timeout.text, 'Stopped at the time limit (1 s).');
  assert.ok(Date.now() - started < 15_000);
  assert.deepEqual(await consoleLines(page), ['start']);
  // The same cell, edited: the textarea is the code.
  await page.locator('#cell-code').fill('const a = 1;\nconst = 2;\n');
  const syntax = await run(page);
  assert.equal(syntax.kind, 'error');
  assert.equal(syntax.line, '2');
  assert.match(syntax.text, /^Line 2: SyntaxError: /);
  // And a runtime error from the service, with its line, by Ctrl+Enter.
  await page.locator('#cell-code').fill('\n\nawait tableClient("Nope").getEntity("p", "r");');
  await page.locator('#cell-code').press('Control+Enter');
  const failed = page.locator('.cell-embed .code-outcome[data-run="3"] .code-error');
  await failed.waitFor({ timeout: 30_000 });
  assert.equal(await failed.getAttribute('data-line'), '3');
  assert.match(await failed.textContent(), /^Line 3: RestError: .*\(404 TableNotFound\)$/s);
  assertClean(page);
  await page.context().close();
});

const RUNAWAY = 'console.log("start");\nwhile (true) {}';
const focusedClass = (page) => page.evaluate(() => document.activeElement?.className ?? '');

test('Stop ends a run, by mouse and by keyboard, and the limit field applies to the next run', async () => {
  const page = await openCell({ code: RUNAWAY });
  const runButton = page.locator('.cell-embed .run-code');
  const stop = page.locator('.cell-embed .stop-code');
  const limit = page.locator('#cell-limit');
  // The limit is a labelled number field, the Code section's default until changed.
  assert.equal(await page.locator('label[for="cell-limit"]').textContent(), 'Time limit (s)');
  assert.deepEqual(
    await limit.evaluate((e) => [e.type, e.value, e.min, e.max]),
    ['number', '5', '0.1', '3600'],
  );
  assert.equal(await stop.textContent(), 'Stop');
  assert.equal(await stop.isDisabled(), true, 'Stop is disabled between runs');

  // By mouse: Stop ends the loop long before the 5 s limit.
  const started = Date.now();
  await runButton.click();
  await page.locator('.cell-embed .console-line').first().waitFor({ timeout: 30_000 });
  assert.equal(await runButton.isDisabled(), true);
  await stop.click();
  const stopped = await outcomeOf(page, 1);
  assert.deepEqual([stopped.kind, stopped.text], ['stopped', 'Stopped.']);
  assert.ok(Date.now() - started < 5_000, `stopped after ${Date.now() - started} ms`);
  assert.deepEqual(await consoleLines(page), ['start']);
  assert.equal(await runButton.isDisabled(), false, 'Run is back');
  assert.equal(await stop.isDisabled(), true);

  // By keyboard: Enter on Run starts, the focus moves to Stop, Enter there stops, and the
  // focus is back on Run.
  await runButton.focus();
  await page.keyboard.press('Enter');
  await page.locator('.cell-embed .stop-code:not([disabled])').waitFor();
  assert.equal(await focusedClass(page), 'stop-code');
  await page.locator('.cell-embed .code-outcome[data-run="2"] .code-running').waitFor();
  await page.locator('.cell-embed .console-line').first().waitFor({ timeout: 30_000 });
  await page.keyboard.press('Enter');
  const byKey = await outcomeOf(page, 2);
  assert.deepEqual([byKey.kind, byKey.text], ['stopped', 'Stopped.']);
  assert.equal(await focusedClass(page), 'primary run-code');

  // A 1 s limit typed into the field stops the next run at 1 s, and says so.
  await limit.fill('1');
  const before = Date.now();
  const timeout = await run(page);
  const took = Date.now() - before;
  assert.deepEqual([timeout.kind, timeout.text], ['timeout', 'Stopped at the time limit (1 s).']);
  assert.ok(took >= 1_000 && took < 4_500, `the 1 s limit stopped the run after ${took} ms`);
  assert.equal(await runButton.isDisabled(), false);
  assertClean(page);
  await page.context().close();
});

/** A table Pets with one cat, whose creation's answer is `made`. */
const PETS_SETUP = [
  'const pets = tableClient("Pets");',
  'await pets.createTable();',
  'const made = await pets.createEntity({ partitionKey: "cats", rowKey: "001", Name: "<b>Tom</b>", Age: 3 });',
];

const PETS = [
  ...PETS_SETUP,
  'console.log(made.etag);',
  'for await (const e of pets.listEntities({ queryOptions: { filter: odata`PartitionKey eq ${"cats"}` } })) {}',
].join('\n');

test('a wire entry opens to its exact request and response, shown as text', async () => {
  const page = await openCell({ code: PETS });
  assert.equal((await run(page)).kind, 'done');
  const [etag] = await consoleLines(page);
  assert.match(etag, /^W\/"datetime'.+'"$/);
  const entries = page.locator('.cell-embed .wire-entry');
  assert.equal(await entries.count(), 3);
  // Closed, an entry is its one-line summary; the query's keeps its figures there.
  assert.equal(await page.locator('.cell-embed .wire-details').count(), 0);
  assert.equal(await entries.nth(1).locator('summary').textContent(), `POST ${ACCOUNT}/Pets 204`);
  const figures = entries.nth(2).locator('summary .wire-query');
  assert.deepEqual(
    await figures.evaluate((e) => [e.dataset.kind, e.dataset.scanned, e.dataset.returned, e.textContent]),
    ['Partition scan', '1', '1', 'Partition scan: scanned 1, returned 1'],
  );

  // The insert, opened by keyboard: its request line, headers and JSON body; the response's
  // status and headers, with the ETag the SDK returned.
  await entries.nth(1).locator('summary').focus();
  await page.keyboard.press('Enter');
  const request = (await entries.nth(1).locator('pre.wire-request').textContent()).split('\n');
  assert.equal(request[0], `POST ${ACCOUNT}/Pets`);
  for (const header of ['Content-Type: application/json;odata=nometadata', 'x-ms-version: 2019-02-02', 'Prefer: return-no-content']) {
    assert.ok(request.includes(header), `${header} in\n${request.join('\n')}`);
  }
  assert.equal(request.at(-2), '', 'a blank line before the body');
  assert.equal(request.at(-1), '{"PartitionKey":"cats","RowKey":"001","Name":"<b>Tom</b>","Age":3}');
  const response = (await entries.nth(1).locator('pre.wire-response').textContent()).split('\n');
  assert.equal(response[0], '204');
  assert.ok(response.includes(`ETag: ${etag}`), `ETag: ${etag} in\n${response.join('\n')}`);
  assert.ok(response.includes(`Location: ${ACCOUNT}/Pets(PartitionKey='cats',RowKey='001')`), response.join('\n'));
  assert.deepEqual(await entries.nth(1).locator('.wire-details h4').allTextContents(), ['Request', 'Response']);
  // Data, left to right, never HTML.
  assert.deepEqual(await entries.nth(1).locator('pre').evaluateAll((p) => p.map((e) => e.dir)), ['ltr', 'ltr']);
  assert.equal(await page.locator('.cell-embed .wire-details b').count(), 0);

  // The table's creation, opened by mouse: 201 and the service's JSON answer.
  await entries.nth(0).locator('summary').click();
  const created = (await entries.nth(0).locator('pre.wire-response').textContent()).split('\n');
  assert.equal(created[0], '201');
  assert.equal(
    created.at(-1),
    `{"odata.metadata":"${ACCOUNT}/$metadata#Tables/@Element","TableName":"Pets"}`,
  );
  assert.equal((await entries.nth(0).locator('pre.wire-request').textContent()).split('\n').at(-1), '{"TableName":"Pets"}');
  // Closing and opening again does not build the details twice.
  await entries.nth(0).locator('summary').click();
  await entries.nth(0).locator('summary').click();
  assert.equal(await entries.nth(0).locator('.wire-details').count(), 1);
  // A new run empties the log.
  assert.equal((await run(page)).kind, 'done');
  assert.equal(await page.locator('.cell-embed .wire-details').count(), 0);
  assert.equal(await entries.count(), 3);
  assertClean(page);
  await page.context().close();
});

for (const lang of ['en', 'ar']) {
  for (const [size, viewport] of [['desktop', DESKTOP], ['360px', PHONE]]) {
    test(`screenshot: the cell's controls and an opened wire entry, ${lang}, ${size}`, async () => {
      const catalogue = JSON.parse(await readFile(join(REPO, `www/locales/${lang}.json`), 'utf8'));
      const page = await openCell({ lang, code: PETS }, { viewport });
      assert.equal(await page.locator('.stop-code').textContent(), catalogue.code_stop);
      assert.equal(await page.locator('label[for="cell-limit"]').textContent(), catalogue.code_limit);
      assert.equal((await run(page)).kind, 'done');
      await page.locator('.cell-embed .wire-entry summary').nth(1).click();
      assert.deepEqual(
        await page.locator('.cell-embed .wire-details h4').allTextContents(),
        [catalogue.code_wire_request, catalogue.code_wire_response],
      );
      await noOverflow(page, `the cell with an opened entry in ${lang} at ${size}`);
      await page.screenshot({ path: join(SHOTS, `cell-controls-${lang}-${size}.png`), fullPage: true });
      assertClean(page);
      await page.context().close();
    });
  }
}

test('a bad address gets a clear error, and code from the URL is text, never HTML', async () => {
  const cases = [
    [{ code: 'x'.repeat(4001) }, 'The code in the address is 4,001 characters long; a code cell takes at most 4,000.'],
    [{ snippet: '../secret.js' }, '“../secret.js” is not a snippet file name (expected a name like paging-with-continuation.js).'],
    [{ snippet: 'a.js', code: '1' }, 'This embed names both a snippet and code: give only one of snippet= and code=.'],
    [{ code: '1', scenario: 'https://evil.example/x.json' }, '“https://evil.example/x.json” is not a lesson file name (expected a name like query-kinds.json).'],
  ];
  for (const [params, message] of cases) {
    const page = await openPage(env.browser, cellUrl(params));
    const error = page.locator('.cell-embed .cell-error');
    await error.waitFor({ timeout: 20_000 });
    assert.equal(await error.textContent(), message);
    assert.equal(await error.getAttribute('role'), 'alert');
    assert.equal(await page.locator('.run-code').isVisible(), false);
    assertClean(page);
    await page.context().close();
  }
  // A snippet that does not exist: the fetch's answer, said as the cell's.
  const missing = await openPage(env.browser, cellUrl({ snippet: 'no-such-snippet.js' }));
  const error = missing.locator('.cell-embed .cell-error');
  await error.waitFor({ timeout: 20_000 });
  assert.equal(await error.textContent(), 'The code cell could not start: snippets/no-such-snippet.js: HTTP 404');
  await missing.context().close();

  const html = '<img src=x onerror="window.__owned=1"><b>bold</b>';
  const page = await openCell({ code: `// ${html}\nconsole.log(${JSON.stringify(html)});` });
  assert.equal(await run(page).then((o) => o.kind), 'done');
  assert.deepEqual(await consoleLines(page), [html]);
  assert.equal(await page.locator('img, b').count(), 0);
  assert.equal(await page.evaluate(() => window.__owned), undefined);
  await page.context().close();
});

const LOGS_AN_ENTITY = [
  ...PETS_SETUP,
  'const e = await pets.getEntity("cats", "001");',
  'console.log("got", { name: e.Name, age: e.Age, tags: ["a", 2, null] }, 7);',
].join('\n');

test('a logged object is a tree, as in the Code section: its summary, its members, nested values closed', async () => {
  const page = await openCell({ code: LOGS_AN_ENTITY });
  assert.equal((await run(page)).kind, 'done');
  const line = page.locator('.cell-embed .console-line');
  assert.equal(await line.count(), 1);
  // A string as written, the object as an open tree, the number as its JSON text.
  const values = await line.evaluate((li) => [...li.children].map((v) => `${v.tagName} ${v.className}`));
  assert.deepEqual(values, ['SPAN log-text', 'DETAILS json-tree', 'SPAN json-number']);
  const tree = line.locator(':scope > details.json-tree');
  assert.equal(await tree.getAttribute('open'), '');
  assert.equal(await tree.locator(':scope > summary').textContent(), '{name: "<b>Tom</b>", age: 3, tags: ["a", 2, null]}');
  const members = await tree.locator(':scope > ul > li').evaluateAll((lis) =>
    lis.map((li) => [li.querySelector('.json-key').textContent, li.children[1].className, li.children[1].textContent]),
  );
  assert.deepEqual(members.slice(0, 2), [
    ['name: ', 'json-string', '"<b>Tom</b>"'],
    ['age: ', 'json-number', '3'],
  ]);
  // The array is a closed tree of its own, its items named by index.
  const tags = tree.locator(':scope > ul > li:nth-child(3) > details.json-tree');
  assert.equal(await tags.getAttribute('open'), null);
  assert.equal(await tags.locator(':scope > summary').textContent(), '["a", 2, null]');
  await tags.locator(':scope > summary').click();
  assert.deepEqual(await tags.locator(':scope > ul > li').allTextContents(), ['0: "a"', '1: 2', '2: null']);
  assert.deepEqual(await consoleLines(page), ['got {name: "<b>Tom</b>", age: 3, tags: ["a", 2, null]}name: "<b>Tom</b>"age: 3tags: ["a", 2, null]0: "a"1: 22: null 7']);
  // The user's text stays text.
  assert.equal(await page.locator('.cell-embed b').count(), 0);
  await page.screenshot({ path: join(SHOTS, 'cell-console-tree.png') });
  assertClean(page);
  await page.context().close();
});

test('"Open in the playground" opens the code in the Code section', async () => {
  const page = await openCell({ code: 'console.log("from a cell");' });
  await page.locator('#cell-code').fill('console.log("edited in the cell");');
  const link = page.locator('.cell-open');
  assert.equal(await link.getAttribute('target'), '_blank');
  const [playground] = await Promise.all([page.context().waitForEvent('page'), link.click()]);
  await playground.locator('#code-heading').waitFor({ timeout: 20_000 });
  await playground.locator('.code-editor .cm-content').waitFor({ timeout: 20_000 });
  assert.equal(
    await playground.locator('.code-editor .cm-content').evaluate((e) => e.cmView?.view?.state.doc.toString() ?? e.innerText),
    'console.log("edited in the cell");',
  );
  // The fragment is taken once: a reload keeps the editor's own text, from the address-free URL.
  assert.equal(new URL(playground.url()).hash, '');
  await page.context().close();
});

async function audit(page, where) {
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const result = await window.axe.run(document, { resultTypes: ['violations'] });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({ id: v.id, help: v.help, nodes: v.nodes.slice(0, 5).map((n) => n.target.join(' ')) }));
  });
  return violations.map((v) => ({ where, ...v }));
}

for (const colorScheme of ['light', 'dark']) {
  for (const [size, viewport] of [['desktop', DESKTOP], ['360px', PHONE]]) {
    test(`no serious or critical axe violation in a code cell after a run: ${colorScheme}, ${size}`, async () => {
      const page = await openCell({ scenario: 'employees.json', code: MARKETING_OVER_40 }, { viewport, colorScheme });
      await page.emulateMedia({ reducedMotion: 'reduce' });
      assert.equal((await run(page)).kind, 'done');
      // With a wire entry open: its headings and scrollable request and response.
      await page.locator('.cell-embed .wire-entry summary').first().click();
      await page.locator('.cell-embed .wire-details').waitFor();
      const found = await audit(page, `cell ${colorScheme} ${size}`);
      await page.locator('#cell-code').fill('const = 1');
      assert.equal((await run(page)).kind, 'error');
      found.push(...(await audit(page, `cell with an error ${colorScheme} ${size}`)));
      assert.deepEqual(found, [], JSON.stringify(found, null, 2));
      // Keyboard: the code, then Run, then (Stop being disabled between runs) the time limit.
      await page.locator('#cell-code').focus();
      await page.keyboard.press('Tab');
      assert.equal(await page.evaluate(() => document.activeElement.className), 'primary run-code');
      await page.keyboard.press('Tab');
      assert.equal(await page.evaluate(() => document.activeElement.id), 'cell-limit');
      await page.screenshot({ path: join(SHOTS, `cell-${colorScheme}-${size}.png`), fullPage: true });
      await page.context().close();
    });
  }
}

for (const lang of ['en', 'de', 'nl', 'ar']) {
  test(`a code cell speaks ${lang}`, async () => {
    const catalogue = JSON.parse(await readFile(join(REPO, `www/locales/${lang}.json`), 'utf8'));
    const page = await openCell({ lang, scenario: 'employees.json', code: MARKETING_OVER_40 }, { viewport: PHONE });
    assert.equal(await page.evaluate(() => document.documentElement.lang), lang);
    assert.equal(await page.evaluate(() => document.documentElement.dir), lang === 'ar' ? 'rtl' : 'ltr');
    assert.equal(await page.locator('.cell-embed .embed-bar strong').textContent(), catalogue.cell_title);
    assert.equal(await page.locator('.cell-open').textContent(), catalogue.cell_open_playground);
    assert.equal(await page.locator('.run-code').textContent(), catalogue.code_run);
    assert.equal(await page.locator('label[for="cell-code"]').textContent(), catalogue.code_editor_label);
    assert.equal((await run(page)).kind, 'done');
    assert.equal(await page.locator('#code-console-heading').textContent(), catalogue.code_console);
    if (lang !== 'en') {
      assert.deepEqual(await englishLeft(page, await englishWords(lang)), [], `the cell in ${lang} shows English`);
    }
    await noOverflow(page, `the cell in ${lang}`);
    await page.screenshot({ path: join(SHOTS, `cell-${lang}-360.png`), fullPage: true });
    assertClean(page);
    await page.context().close();
  });
}
