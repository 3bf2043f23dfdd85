// Teaches wasm-bindgen's generated JS (the `--target web` glue of wasm-bindgen 0.2.130, pinned
// in Cargo.toml) to run a split module: the primary wasm imports one placeholder per deferred
// function, and the deferred wasm, once instantiated, overwrites those placeholders in the
// shared function table with the real functions.
//
// The edits are written for one wasm-bindgen version, PATCHED_FOR: `checkWasmBindgen` (called
// by scripts/split.mjs before it patches, and by tests/build/glue.test.mjs) refuses any other,
// naming both. Every edit also anchors on exact text of the glue and throws when the text is
// missing. A new wasm-bindgen therefore fails the build here instead of shipping an app that
// cannot start: read its glue, redo the edits, and raise PATCHED_FOR.

import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The wasm-bindgen whose glue the edits below were written for. */
export const PATCHED_FOR = '0.2.130';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The wasm-bindgen versions this checkout builds with: the crate in Cargo.lock, the CLI
 * Trunk.toml pins, and (when `cli` is set) the CLI on PATH. */
export function wasmBindgenVersions({ cli = false } = {}) {
  const lock = readFileSync(join(repo, 'Cargo.lock'), 'utf8');
  const trunk = readFileSync(join(repo, 'Trunk.toml'), 'utf8');
  const versions = {
    'Cargo.lock': lock.match(/^name = "wasm-bindgen"\nversion = "([^"]+)"/m)?.[1] ?? 'none',
    'Trunk.toml [tools] wasm_bindgen': trunk.match(/^wasm_bindgen = "([^"]+)"/m)?.[1] ?? 'none',
  };
  if (cli) {
    let found;
    try {
      found = execFileSync('wasm-bindgen', ['--version'], { encoding: 'utf8' }).trim().replace(/^wasm-bindgen /, '');
    } catch {
      found = 'not on PATH';
    }
    versions['wasm-bindgen --version'] = found;
  }
  return versions;
}

/** Throws, saying what to do, unless every wasm-bindgen version this checkout uses is PATCHED_FOR. */
export function checkWasmBindgen(options) {
  const wrong = Object.entries(wasmBindgenVersions(options)).filter(([, v]) => v !== PATCHED_FOR);
  if (wrong.length > 0) {
    throw new Error(
      `scripts/split/glue.mjs patches the JavaScript glue of wasm-bindgen ${PATCHED_FOR} by its exact text, ` +
        `but this build uses ${wrong.map(([where, v]) => `${v} (${where})`).join(', ')}. ` +
        `Compare the new glue with the edits in scripts/split/glue.mjs, redo them, and set PATCHED_FOR.`,
    );
  }
}

/** The loader appended to the glue. `DEFERRED` is replaced by the deferred wasm's file name. */
const LOADER = `
// Deferred code (scripts/split.mjs): the functions the common flows never call live in a second
// wasm that shares this one's memory and tables. It is fetched and compiled once the app has
// started and the page is idle; the first call into it instantiates it. That must be synchronous (a placeholder
// returns the real function's result), so if the compiled module is not ready yet the bytes
// are fetched synchronously.
const __deferred_url = new URL('DEFERRED', import.meta.url);
let __deferred_module;
let __deferred_compiling;
let __deferred_loaded = false;

function __deferred_prefetch() {
    __deferred_compiling ??= fetch(__deferred_url)
        .then((response) => {
            if (!response.ok) throw new Error(\`\${response.status} fetching \${__deferred_url}\`);
            return response.arrayBuffer();
        })
        .then((bytes) => WebAssembly.compile(bytes))
        .then((module) => { __deferred_module = module; })
        .catch(() => { __deferred_compiling = undefined; });
}

// Not at once: fetching and compiling it competes with the app's own start (the saved tables
// loading, the first render) for the same cores and the same connection. So only once the app
// is usable (the tablescope-ready event, src/ui.rs) and the page idle: a first visit's page load is the
// primary alone.
function __deferred_prefetch_when_idle() {
    const idle = () => {
        if (typeof requestIdleCallback === 'function') {
            requestIdleCallback(__deferred_prefetch, { timeout: 2000 });
        } else {
            setTimeout(__deferred_prefetch, 500);
        }
    };
    if (document.documentElement.hasAttribute('data-ready')) idle();
    else addEventListener('tablescope-ready', idle, { once: true });
}

function __deferred_bytes_now() {
    const request = new XMLHttpRequest();
    request.open('GET', __deferred_url, false);
    request.overrideMimeType('text/plain; charset=x-user-defined');
    request.send();
    if (request.status !== 200) throw new Error(\`\${request.status} fetching \${__deferred_url}\`);
    const text = request.responseText;
    const bytes = new Uint8Array(text.length);
    for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i) & 0xff;
    return bytes;
}

function __deferred_load() {
    if (__deferred_loaded) return;
    const start = performance.now();
    const module = __deferred_module ?? new WebAssembly.Module(__deferred_bytes_now());
    new WebAssembly.Instance(module, { primary: wasm });
    __deferred_loaded = true;
    // How long the first call waited for the deferred code (the split e2e test reads it).
    performance.measure('tablescope-deferred-loaded', { start });
}

// A page the service worker controls has the deferred wasm in its cache (the worker precaches
// it with the shell): it is fetched and compiled while the primary loads, and the app starts
// once both are ready, so no call into it ever needs the synchronous fetch, which a service
// worker does not answer (offline, that fetch fails). A failure here changes nothing: the
// placeholders still load it on first use.
async function __deferred_before_start() {
    if (!globalThis.navigator?.serviceWorker?.controller) return;
    __deferred_prefetch();
    await __deferred_compiling;
}

// The start path awaits this (src/split.rs) before it decodes saved tables, so nothing it runs
// needs the synchronous fetch above: a service worker does not answer a synchronous request,
// so offline that fetch fails. Resolves once the deferred wasm is instantiated. When it cannot
// be fetched, the page's start guard (www/start-guard.js) says why and offers the saved tables,
// and the promise never settles: the app's code for any other outcome may be in the very wasm
// that is missing. Without a start guard it rejects, saying why.
globalThis.__tablescope_deferred_ready = () => {
    if (__deferred_loaded) return Promise.resolve();
    __deferred_prefetch();
    return __deferred_compiling.then(() => {
        if (__deferred_module) {
            __deferred_load();
            return;
        }
        const reason = \`\${__deferred_url.pathname} could not be fetched\`;
        const guard = globalThis.__tablescopeStart;
        if (!guard) throw new Error(reason);
        guard.fail(\`part of its code that reads your saved tables cannot be loaded (\${reason}). Connect to the network and reload.\`);
        return new Promise(() => {});
    });
};

function __deferred_placeholders() {
    return new Proxy({}, {
        get: (_, index) => (...args) => {
            __deferred_load();
            return wasm.table.get(Number(index))(...args);
        },
    });
}
`;

function replaceOnce(text, anchor, replacement) {
  const at = text.indexOf(anchor);
  if (at < 0 || text.indexOf(anchor, at + 1) >= 0) {
    throw new Error(`split: the wasm-bindgen glue has ${at < 0 ? 'no' : 'more than one'} "${anchor}"`);
  }
  return text.slice(0, at) + replacement + text.slice(at + anchor.length);
}

/** The glue `js` (of the module whose wasm-bindgen import module is `bgName`) made split-aware. */
export function patchGlue(js, bgName, deferredName) {
  let out = replaceOnce(
    js,
    `"./${bgName}": import0,`,
    `"./${bgName}": import0,\n        placeholder: __deferred_placeholders(),`,
  );
  out = replaceOnce(
    out,
    'const { instance, module } = await __wbg_load(await module_or_path, imports);',
    'const [{ instance, module }] = await Promise.all([__wbg_load(await module_or_path, imports), __deferred_before_start()]);',
  );
  out = replaceOnce(
    out,
    'wasm.__wbindgen_start();',
    'wasm.__wbindgen_start();\n    __deferred_prefetch_when_idle();',
  );
  const exportAt = out.lastIndexOf('export {');
  if (exportAt < 0) throw new Error('split: the wasm-bindgen glue has no export list');
  return out.slice(0, exportAt) + LOADER.replace('DEFERRED', deferredName) + '\n' + out.slice(exportAt);
}
