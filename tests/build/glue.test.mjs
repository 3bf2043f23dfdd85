// The split patches wasm-bindgen's JavaScript glue by its exact text (scripts/split/glue.mjs),
// which is only right for the wasm-bindgen those patches were written for. These tests fail,
// naming both versions, as soon as the checkout or the machine uses another one, before any
// build has run; scripts/split.mjs makes the same check before it patches.
//
//   node --test tests/build/

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PATCHED_FOR, checkWasmBindgen, patchGlue, wasmBindgenVersions } from '../../scripts/split/glue.mjs';

test(`Cargo.lock, Trunk.toml and the wasm-bindgen CLI are all ${PATCHED_FOR}, the version the glue patches were written for`, () => {
  const versions = wasmBindgenVersions({ cli: true });
  for (const [where, version] of Object.entries(versions)) {
    assert.equal(
      version,
      PATCHED_FOR,
      `${where} says wasm-bindgen ${version}, but scripts/split/glue.mjs patches the glue of wasm-bindgen ${PATCHED_FOR} by its text: ` +
        'compare the new glue with its edits, redo them, and set PATCHED_FOR',
    );
  }
  assert.doesNotThrow(() => checkWasmBindgen({ cli: true }));
});

test('a glue without the text a patch anchors on is refused, saying which text is missing', () => {
  assert.throws(() => patchGlue('export { initSync };', 'tablescope_bg.js', 'tablescope-deferred-1.wasm'), /the wasm-bindgen glue has no ""\.\/tablescope_bg\.js": import0,"/);
  const glue = '"./tablescope_bg.js": import0,\nwasm.__wbindgen_start();\n' +
    'const { instance, module } = await __wbg_load(await module_or_path, imports);\nexport { initSync };';
  const patched = patchGlue(glue, 'tablescope_bg.js', 'tablescope-deferred-1.wasm');
  assert.match(patched, /placeholder: __deferred_placeholders\(\)/);
  assert.match(patched, /__deferred_prefetch_when_idle\(\);/);
  // A page the service worker controls compiles the deferred wasm before the app starts.
  assert.match(patched, /await Promise\.all\(\[__wbg_load\(await module_or_path, imports\), __deferred_before_start\(\)\]\)/);
  assert.match(patched, /new URL\('tablescope-deferred-1\.wasm', import\.meta\.url\)/);
});
