// What the split (scripts/split.mjs) and its profile step (scripts/split/profile.mjs) share.

import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The list of start-up functions, committed: one function name a line, `#` comments. */
export const LIST = join(dirname(fileURLToPath(import.meta.url)), 'primary.txt');

/** The features the wasm uses (the same list as index.html gives wasm-opt). */
export const FEATURES = [
  '--enable-bulk-memory',
  '--enable-nontrapping-float-to-int',
  '--enable-sign-ext',
  '--enable-mutable-globals',
  '--enable-reference-types',
  '--enable-multivalue',
];

/** The names primary.txt lists. */
export async function readList() {
  const text = await readFile(LIST, 'utf8').catch(() => {
    throw new Error(`split: ${LIST} is missing: run scripts/dist.sh --profile once, and commit it`);
  });
  return text.split('\n').filter((line) => line && !line.startsWith('#'));
}
