// The catalogues a page downloads (scripts/locales.mjs): the key hash the wasm checks them
// by, which messages a module's wasm is found to show, and the shipped form. No build needed.
//
//   node --test tests/build/

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { keysHash, keysIn, shipped } from '../../scripts/locales.mjs';

test("the key hash is Rust's (src/i18n/keys_hash.rs), which the wasm compares a catalogue's first entry with", () => {
  // Both values as the Rust function prints them with `{:x}`.
  assert.equal(keysHash([]), 'cbf29ce484222325');
  assert.equal(keysHash(['a_key', 'b_key', 'zürich']), '50d843eeaa487e8d');
});

const en = {
  a_plural: { one: 'one table', other: '{count} tables' },
  b_text: 'Delete {name}',
  c_unused: 'Never shown',
  d_short: 'no',
};

test("a module's messages are those whose English text (any plural form) is in its wasm", () => {
  const wasm = Buffer.from('\0asm...{count} tables...Delete {name}...not now', 'utf8');
  // `no` is found inside "not now": a message too many, never one too few.
  assert.deepEqual([...keysIn(en, [wasm])], ['a_plural', 'b_text', 'd_short']);
  assert.deepEqual([...keysIn(en, [Buffer.from('Never shown'), Buffer.from('Delete {name}')])], ['b_text', 'c_unused']);
  assert.deepEqual([...keysIn(en, [Buffer.from('xyz')])], []);
});

test('the shipped form is the key hash, then each message in key order, 0 where left out', () => {
  const de = {
    a_plural: { one: 'eine Tabelle', other: '{count} Tabellen' },
    b_text: '{name} löschen',
    c_unused: 'Nie gezeigt',
    d_short: 'nein',
  };
  assert.deepEqual(shipped(en, de, new Set(['a_plural', 'd_short'])), [
    keysHash(['a_plural', 'b_text', 'c_unused', 'd_short']),
    { one: 'eine Tabelle', other: '{count} Tabellen' },
    0,
    0,
    'nein',
  ]);
});

test('the Dutch catalogue keeps one register: the formal u/uw, never je/jij/jouw', async () => {
  const nl = JSON.parse(await readFile(new URL('../../www/locales/nl.json', import.meta.url), 'utf8'));
  const texts = Object.entries(nl).flatMap(([key, v]) => (typeof v === 'string' ? [[key, v]] : Object.values(v).map((t) => [key, t])));
  const informal = texts.filter(([, t]) => /(^|[^\p{L}])(je|jij|jouw)(?![\p{L}])/iu.test(t)).map(([k]) => k);
  assert.deepEqual(informal, []);
  assert.ok(texts.filter(([, t]) => /(^|[^\p{L}])(u|uw)(?![\p{L}])/iu.test(t)).length >= 30);
});
