// The common flows: what a visitor does in the first minutes, so the code it runs must be in
// the primary wasm. Everything these flows never call goes to the deferred wasm, which loads
// after the app has started. Played on an instrumented build in headless Chromium; the
// instrumented module records which functions ran.
//
// Add a flow here when a frequent action should never wait for the deferred wasm.

const section = (page, id) => page.locator(`#nav-${id}`).click();

async function createTable(page, name) {
  await page.getByLabel('New table').fill(name);
  await page.getByRole('button', { name: 'Create table' }).click();
  await page.locator(`[data-table="${name}"]`).waitFor();
}

async function addProperty(page, name, type, value) {
  await page.locator('.add-property').click();
  const row = page.locator('.property-row').last();
  await row.locator('.prop-name').fill(name);
  await row.locator('.prop-type').selectOption(type);
  await row.locator('input.prop-value').fill(value);
}

async function insert(page, pk, rk, properties = []) {
  await page.locator('#entity-pk').fill(pk);
  await page.locator('#entity-rk').fill(rk);
  for (const [name, type, value] of properties) await addProperty(page, name, type, value);
  await page.locator('.run-write').click();
  await page.locator('.editor-status', { hasText: '201' }).waitFor();
}

/**
 * The visits, in order, on one browser profile: the first starts from an empty profile, each
 * later one reloads the page. A reload starts a new wasm instance, so the profile is read at
 * the end of each visit, and the profiles of the visits marked `profiled` are merged: the
 * primary wasm is what those visits ran. The others only prepare data.
 *
 * The primary is kept to what the page needs to start and show the saved tables: everything
 * else, queries included, is in the deferred wasm, prefetched and compiled as soon as the app
 * has started, so a first click on anything else costs only its instantiation (a few ms).
 * Running a query was a flow until the page load needed room: it kept the filter parser, the
 * query planner and the results in the primary, 33 KB gzip of it.
 */
export const visits = [
  {
    name: 'first visit: an empty app',
    profiled: true,
    async play(page) {
      await page.locator('h1').waitFor({ timeout: 15_000 });
      await page.locator('#entity-pk').waitFor();
    },
  },
  {
    name: 'data for the later visits',
    profiled: false,
    async play(page) {
      await createTable(page, 'People');
      await insert(page, 'smith', 'ann', [
        ['Age', 'Int32', '30'],
        ['Email', 'String', 'ann@example.com'],
        ['Joined', 'DateTime', '2024-02-29T12:34:56.1234567Z'],
        ['Visits', 'Int64', '42'],
        ['Score', 'Double', '4.5'],
      ]);
      await insert(page, 'smith', 'bob');
      await insert(page, 'jones', 'cy');
    },
  },
  {
    name: 'a return visit: the saved tables load, and a table is opened',
    profiled: true,
    async play(page) {
      await page.locator('[data-table="People"] .table-facts').click({ timeout: 15_000 });
      await section(page, 'data');
      await page.locator('.data-panel .grid-row').first().waitFor();
    },
  },
];
