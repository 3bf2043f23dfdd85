// The Design section tells the truth about its data: an orders design generated at 100,000
// entities holds every declared value (counted back from the tables beside the declared
// ones), its status filter is measured at the declared share within sampling error, and a
// rare admin scan that dominates the load fails "query scope".

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { DESKTOP, assertClean, start } from './lib.mjs';
import { checklist, designJson, evaluate, generate, openDesign, put, rowCells } from './design-lib.mjs';

const SHOTS = 'tests/e2e/screenshots';
let env;
before(async () => {
  env = await start();
  await mkdir(SHOTS, { recursive: true });
});
after(async () => {
  await env?.close();
});

const prop = (name, type, distribution) => ({ name, type, distribution });
const ORDERS = {
  version: 1, name: 'Orders', seed: 5, tables: ['Orders'],
  entityTypes: [{
    name: 'Order', table: 'Orders', partitionKey: 'c{CustomerId:05}', rowKey: 'o{OrderId:07}', count: 100000,
    properties: [
      prop('OrderId', 'Int64', { kind: 'sequential', start: 1 }),
      prop('CustomerId', 'Int32', { kind: 'uniform', min: 1, max: 10000 }),
      prop('Status', 'String', { kind: 'choice', values: ['new', 'paid', 'shipped', 'void'] }),
      prop('Total', 'Double', { kind: 'uniform', min: 5, max: 500 }),
    ],
  }],
  patterns: [
    { kind: 'read', name: 'Orders with a status', entityType: 'Order', rate: 0.1, conditions: [{ on: 'Status', op: 'eq' }] },
    { kind: 'read', name: 'Orders of a customer', entityType: 'Order', rate: 5, conditions: [{ on: 'PartitionKey', op: 'eq' }] },
  ],
};

async function importDesign(page, design) {
  await page.locator('input.import-file').setInputFiles({
    name: 'orders.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(design)),
  });
  await page.locator('.design-notice', { hasText: `Imported the design ${design.name}.` }).waitFor();
}

/** The profile table's rows: property → {values, top, share, ok}. */
async function profileRows(page) {
  return page.locator('table.profile tbody tr').evaluateAll((rows) =>
    Object.fromEntries(rows.map((tr) => [tr.dataset.property, {
      values: tr.querySelector('.p-values').textContent,
      top: tr.querySelector('.p-top').textContent,
      share: tr.querySelector('.p-share').textContent,
      ok: tr.querySelector('.p-ok').textContent,
    }])));
}

test('orders at 100,000: every declared value in the data, the status filter at its declared quarter', async () => {
  const page = await openDesign(env, { viewport: DESKTOP });
  await importDesign(page, ORDERS);
  const status = await generate(page, 300_000);
  assert.match(status, /100,000/);
  await page.locator('table.profile tbody tr').first().waitFor({ timeout: 120_000 });
  const rows = await profileRows(page);
  // Declared / in the data: every value, as the counts read back from the table.
  assert.deepEqual(rows.Status, { values: '4 / 4', top: 'new', share: '25% / 25%', ok: 'yes' });
  assert.equal(rows.CustomerId.values, '10,000 / 10,000');
  assert.equal(rows.Total.values, '496 / 496');
  assert.equal(rows.CustomerId.ok, 'yes');
  assert.equal(rows.Total.ok, 'yes');
  await page.locator('section.design-generate').screenshot({ path: `${SHOTS}/design-profile.png` });

  await evaluate(page);
  await page.locator('table.versus tbody tr').first().waitFor({ timeout: 60_000 });
  const byStatus = await rowCells(page, 'versus', 0);
  assert.equal(byStatus.name, 'Orders with a status');
  // One property is stratified exactly: 25,000 of 100,000 for any status drawn.
  assert.equal(byStatus.selectivity, '25% / 25%');
  assert.match(byStatus.why, /^agree within sampling error/);
  const byCustomer = await rowCells(page, 'versus', 1);
  assert.match(byCustomer.why, /^agree within sampling error/);
  await page.locator('section.design-versus').screenshot({ path: `${SHOTS}/design-versus.png` });
  // The comparison fits 1280 px without scrolling sideways.
  const overflow = await page.locator('section.design-versus .compare-scroll').evaluate((e) => e.scrollWidth - e.clientWidth);
  assert.ok(overflow <= 0, `the comparison scrolls by ${overflow} px`);
  assertClean(page);
  await page.context().close();
});

test('weighted choices are typed in the form as value:weight', async () => {
  const page = await openDesign(env, { viewport: DESKTOP });
  await importDesign(page, ORDERS);
  const row = page.locator('fieldset.design-type[data-index="0"] li.design-prop[data-index="2"]');
  await put(row.locator('input.prop-params'), 'new:1, paid:6, shipped:2, void:1');
  const d = await designJson(page);
  assert.deepEqual(d.entityTypes[0].properties[2].distribution,
    { kind: 'choice', values: ['new', 'paid', 'shipped', 'void'], weights: [1, 6, 2, 1] });
  assert.equal(await row.locator('input.prop-params').inputValue(), 'new:1, paid:6, shipped:2, void:1');
  assertClean(page);
  await page.context().close();
});

test('a rare admin scan that takes most of the load fails query scope', async () => {
  const page = await openDesign(env, { viewport: DESKTOP });
  const admin = structuredClone(ORDERS);
  admin.name = 'Orders with an admin export';
  admin.patterns = [
    { kind: 'read', name: 'Order by id', entityType: 'Order', rate: 2000,
      conditions: [{ on: 'PartitionKey', op: 'eq' }, { on: 'RowKey', op: 'eq' }] },
    { kind: 'read', name: 'Admin export', entityType: 'Order', rate: 0.1, conditions: [{ on: 'Total', op: 'eq' }] },
  ];
  await importDesign(page, admin);
  const items = await checklist(page);
  assert.equal(items['query-scope'].grade, 'fail');
  assert.equal(items['query-scope'].blame, 'Admin export');
  // At 10⁹ entities: 0.1 × 10⁹ scanned per second against 2,000.
  assert.match(items['query-scope'].evidence, /^A table scan takes 100% of the account's load .*fails from 10%/);
  await page.locator('section.design-checklist').screenshot({ path: `${SHOTS}/design-admin-scan.png` });
  assertClean(page);
  await page.context().close();
});

// The checklist in the reader's language: the design guide's own sentence where the guide (in
// English, Dutch and Arabic) states the rule, a translation of the German checklist item
// marked as one otherwise, the German original one click away; in German the original.
const CHECKLIST_TEXT = {
  en: {
    scope: 'Is your schema designed so that most reads are point queries and table queries are rare?',
    spread: 'That is, using more partitions increases the scalability of your application, because Azure has more opportunities for load balancing requests across nodes.',
    translated: 'Our translation of the German performance checklist item: the English design guide has no such sentence.',
    guide: 'Quoted from the design guide “Design scalable and performant tables”.',
  },
  nl: {
    scope: "Is uw schema zo ontworpen dat de meeste leesacties puntquery's zijn en tabelquery's zelden voorkomen?",
    spread: 'Dat wil dat het gebruik van meer partities de schaalbaarheid van uw toepassing verhoogt, omdat Azure meer mogelijkheden heeft voor taakverdelingsaanvragen over knooppunten.',
    translated: 'Onze vertaling van het punt uit de Duitse prestatiechecklist: de Nederlandse ontwerpgids heeft geen zulke zin.',
    guide: 'Geciteerd uit de ontwerpgids „Schaalbare en beter bruikbare tabellen ontwerpen”.',
  },
  ar: {
    scope: 'هل صُمّم مخططك بحيث تكون معظم القراءات استعلامات نقطة واستعلامات الجدول نادرة؟',
    spread: 'أي أن استخدام المزيد من الأقسام يزيد من قابلية تطوير تطبيقك، لأن Azure لديه المزيد من الفرص لطلبات موازنة التحميل عبر العقد.',
    translated: 'ترجمتنا لبند قائمة تحقق الأداء الألمانية: لا يتضمن دليل التصميم العربي جملة كهذه.',
    guide: 'مقتبس من دليل التصميم «تصميم جداول قابلة للتوسع ذات أداء».',
  },
};
const GERMAN = {
  scope: 'Abfragebereich: Haben Sie Ihr Schema so konzipiert, dass in den meisten Fällen Punktabfragen verwendet werden können und Tabellenabfragen nur sparsam erfolgen?',
  spread: 'Heiße Partitionen: Verteilen sich Ihre Einfügungen/Aktualisierungen auf mehrere Partitionen?',
};

test('the checklist in the reader\'s language: the guide quoted, the checklist translated, the German one click away', async () => {
  for (const lang of ['en', 'nl', 'ar', 'de']) {
    const page = await openDesign(env, { viewport: DESKTOP, hash: `?lang=${lang}` });
    await page.locator('input.import-file').setInputFiles({
      name: 'orders.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(ORDERS)),
    });
    await page.waitForFunction(() => document.querySelector('input.design-name')?.value === 'Orders');
    await page.locator('.design-checklist .checklist-item[data-rule="write-spread"]').waitFor();
    const items = await checklist(page);
    const scope = items['query-scope'];
    const spread = items['write-spread'];
    if (lang === 'de') {
      // The German page shows the checklist's own words and no disclosure.
      assert.equal(scope.item, GERMAN.scope.split(': ')[1]);
      assert.equal(spread.item, GERMAN.spread.split(': ')[1]);
      assert.deepEqual([scope.source, spread.source], ['checklist', 'checklist']);
      assert.equal(scope.cite, 'Aus der „Checkliste zu Leistung und Skalierbarkeit für Table Storage“.');
      assert.deepEqual([scope.original, spread.original], [null, null]);
      assert.equal(await page.locator('details.cite-original').count(), 0);
    } else {
      const want = CHECKLIST_TEXT[lang];
      assert.deepEqual(
        { item: scope.item, source: scope.source, cite: scope.cite, original: scope.original },
        { item: want.scope, source: 'translation', cite: want.translated, original: GERMAN.scope },
      );
      assert.deepEqual(
        { item: spread.item, source: spread.source, cite: spread.cite, original: spread.original },
        { item: want.spread, source: 'guide', cite: want.guide, original: GERMAN.spread },
      );
      // Three items are the guide's sentences, six translations.
      const sources = Object.values(items).map((i) => i.source).sort();
      assert.deepEqual(sources, [...Array(3).fill('guide'), ...Array(6).fill('translation')]);
      // The original is hidden until its summary is clicked, then shown in German.
      const li = page.locator('.checklist-item[data-rule="query-scope"]');
      const original = li.locator('details.cite-original q');
      assert.equal(await original.isVisible(), false);
      await li.locator('details.cite-original summary').click();
      assert.equal(await original.isVisible(), true);
      assert.equal(await original.getAttribute('lang'), 'de');
      await li.screenshot({ path: `${SHOTS}/design-checklist-${lang}.png` });
    }
    assertClean(page);
    await page.context().close();
  }
});

// Problems beside the fields they concern, in the reader's language, and the list under the
// editor naming each element by its name, never by a 0-based path.
const FIELD_PROBLEMS = {
  en: {
    rate: 'Calls/s: a rate is a number of calls per second, 0 or more',
    params: 'Parameters: uniform needs min <= max and at most 1,000,000,000 values',
    list: [
      'Order · CustomerId · Parameters: uniform needs min <= max and at most 1,000,000,000 values',
      'Orders of a customer · Calls/s: a rate is a number of calls per second, 0 or more',
    ],
  },
  nl: {
    rate: 'Aanroepen/s: een frequentie is een aantal aanroepen per seconde, 0 of meer',
    params: 'Parameters: uniform vraagt min <= max en hoogstens 1.000.000.000 waarden',
    list: [
      'Order · CustomerId · Parameters: uniform vraagt min <= max en hoogstens 1.000.000.000 waarden',
      'Orders of a customer · Aanroepen/s: een frequentie is een aantal aanroepen per seconde, 0 of meer',
    ],
  },
};

test('a design\'s problems beside their fields, in the reader\'s language, named by element', async () => {
  for (const lang of ['en', 'nl']) {
    const page = await openDesign(env, { viewport: DESKTOP, hash: `?lang=${lang}` });
    await page.locator('input.import-file').setInputFiles({
      name: 'orders.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(ORDERS)),
    });
    await page.waitForFunction(() => document.querySelector('input.design-name')?.value === 'Orders');
    const pattern = page.locator('li.design-pattern[data-index="1"]');
    const prop = page.locator('.design-type[data-index="0"] li.design-prop[data-index="1"]');
    assert.equal(await page.locator('.design-field-problem').count(), 0);
    await put(pattern.locator('input.pattern-rate'), '-5');
    await put(prop.locator('input.prop-params'), '50..10');
    const want = FIELD_PROBLEMS[lang];
    await pattern.locator('.design-field-problem').waitFor();
    assert.deepEqual(await pattern.locator('.design-field-problem').allTextContents(), [want.rate]);
    assert.equal(await pattern.locator('.design-field-problem').getAttribute('data-path'), 'patterns[1].rate');
    assert.deepEqual(await prop.locator('.design-field-problem').allTextContents(), [want.params]);
    // Only those two rows speak: the entity type and the other rows have nothing to say.
    assert.equal(await page.locator('.design-field-problem').count(), 2);
    const list = await page.locator('ul.design-problems li').allTextContents();
    assert.deepEqual(list.sort(), want.list);
    assert.ok(list.every((t) => !/\[\d+\]/.test(t)), list.join('\n'));
    if (lang === 'en') await page.locator('section.design-editor').screenshot({ path: `${SHOTS}/design-field-problems.png` });
    // Fixed, the problems go.
    await put(pattern.locator('input.pattern-rate'), '5');
    await put(prop.locator('input.prop-params'), '1..10000');
    await page.locator('.design-field-problem').first().waitFor({ state: 'detached' });
    assert.equal(await page.locator('ul.design-problems li').count(), 0);
    assertClean(page);
    await page.context().close();
  }
});
