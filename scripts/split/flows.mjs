// The start-up flows: what the page runs before it is usable, so that code must be in the
// primary wasm. Everything these flows never call goes to the deferred wasm, which loads after
// the app has started. Played by scripts/split/profile.mjs (`scripts/dist.sh --profile`) on an
// instrumented build in headless Chromium, in a browser set to each language the UI speaks;
// the instrumented module records which functions ran, and the names of those functions
// become scripts/split/primary.txt.
//
// Add a flow here when an action should never wait for the deferred wasm, then run
// `scripts/dist.sh --profile` and commit the list. The flows find elements by id, class or
// attribute, never by their text, so they play the same in every language.

/** The UI's languages (src/i18n/lang.rs), each as a browser set to it announces itself. */
export const LANGUAGES = [
  { code: 'en', locale: 'en-US' },
  { code: 'de', locale: 'de-DE' },
  { code: 'nl', locale: 'nl-NL' },
  { code: 'ar', locale: 'ar-EG' },
];

async function createTable(page, name) {
  await page.locator('#new-table-name').fill(name);
  await page.locator('form.create-table button[type="submit"]').click();
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
 * The visits, in order, on one fresh browser profile per language: the first starts from an
 * empty profile, each later one reloads the page. A reload starts a new wasm instance, so the
 * profile is read at the end of each visit, and the profiles of the visits marked `profiled`
 * are merged: the primary wasm is what those visits ran. `everyLanguage` visits are played in
 * each language, the others in English only.
 *
 * The primary is kept to what a first visit needs to become usable, in its language: the page
 * load's budget (docs/size.md) is about that visit. A return visit with saved tables waits for
 * the deferred wasm before it decodes them (src/persist.rs, src/split.rs): the primary needs
 * only what it runs until then, for that wait must be the first call that needs the deferred
 * wasm (offline, the service worker answers no other way of loading it). The profile step
 * stalls that wait (scripts/split/profile.mjs) and reads the profile there. Everything else, queries and the
 * display of saved tables included, is in the deferred wasm, prefetched and compiled as soon as
 * the app has started, so a first click on anything else costs only its instantiation.
 */
export const visits = [
  {
    name: 'first visit: an empty app, usable in the browser\'s language',
    profiled: true,
    everyLanguage: true,
    async play(page, language) {
      await page.locator('h1').waitFor({ timeout: 15_000 });
      await page.locator('#entity-pk').waitFor();
      await page.locator(`html[data-ready][lang="${language.code}"]`).waitFor({ state: 'attached' });
    },
  },
  {
    name: 'saved tables for the next visit',
    profiled: false,
    async play(page) {
      await page.locator('#entity-pk').waitFor({ timeout: 15_000 });
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
    name: 'a return visit, until it waits for the deferred wasm to decode the saved tables',
    profiled: true,
    async play(page) {
      await page.waitForFunction(() => window.__tablescopeDeferredAsked === true, null, { timeout: 15_000 });
      // What the start runs after asking and before it waits (reading the stored batches).
      await page.waitForTimeout(1000);
    },
  },
];
