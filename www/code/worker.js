// The Code section's sandbox: a module Web Worker that runs the user's code with the official
// @azure/data-tables in scope, and whose only way to the tables is the in-page transport, by
// message to the page (www/code/code.js answers with window.tablescope.wire).
//
// Protocol (page <-> worker, structured-cloned messages):
//   page -> worker  { type: 'run', code, sdkUrl }                  once per worker
//   worker -> page  { type: 'wire', id, request }                  an HTTP request of the SDK
//   page -> worker  { type: 'wire', id, response } | { ..., error } its answer
//   worker -> page  { type: 'started' }                            the code starts (limit runs)
//   worker -> page  { type: 'log', level, values }                 console.log & co.
//   worker -> page  { type: 'done' } | { type: 'error', error }     the code settled
//
// Invariants:
// - Before user code runs, every way out of the worker but the transport is gone from its
//   global scope: fetch, XMLHttpRequest, WebSocket, EventSource, WebTransport, indexedDB,
//   caches, nested Worker/SharedWorker, BroadcastChannel, importScripts, navigator.locks,
//   navigator.storage and navigator.serviceWorker. A worker has no DOM, window or
//   localStorage to begin with. (A dynamic `import()` cannot be taken away from JavaScript;
//   only a Content-Security-Policy could stop one.)
// - Syntax errors: V8 reports no position for code compiled with the Function constructor,
//   so when it refuses the code, acorn parses it again for the line and column. acorn is a
//   file of its own (ACORN_FILE), imported only then: a run of code that parses (a docs
//   embed's code cell, whose download has a budget) never downloads it. Runtime errors take
//   their line from the stack, where the code is named CODE_FILE.
// - Stopping runaway code is the page's job: it terminates this worker once the code has run
//   for its limit (counted from 'started', so loading the SDK does not count).

/** acorn's bundle, next to this file (scripts/bundle-code.mjs names it). */
const ACORN_FILE = __TABLESCOPE_CODE_ACORN__;

/** The name the user's code has in stack traces. */
const CODE_FILE = 'tablescope-code.js';
/** Lines the AsyncFunction constructor puts before the body (`async function anonymous(…\n) {\n`). */
const HEADER_LINES = 2;

const post = self.postMessage.bind(self);
const pending = new Map();
let nextId = 1;
let started = false;

self.addEventListener('message', (event) => {
  const m = event.data;
  if (m?.type === 'wire') {
    const waiting = pending.get(m.id);
    pending.delete(m.id);
    if (!waiting) return;
    if (m.error !== undefined) waiting.reject(new Error(m.error));
    else waiting.resolve(m.response);
  } else if (m?.type === 'run' && !started) {
    started = true;
    run(m.code, m.sdkUrl);
  }
});
self.addEventListener('unhandledrejection', (event) => {
  event.preventDefault();
  post({ type: 'log', level: 'error', values: [text('Uncaught (in promise)'), describe(event.reason)] });
});

/** The transport's `wire`: one request to the page, answered by its engine. */
function askPage(request) {
  return new Promise((resolve, reject) => {
    const id = nextId++;
    pending.set(id, { resolve, reject });
    post({ type: 'wire', id, request });
  });
}

const GLOBALS = [
  'fetch', 'XMLHttpRequest', 'WebSocket', 'EventSource', 'WebTransport', 'indexedDB', 'caches',
  'Worker', 'SharedWorker', 'BroadcastChannel', 'importScripts',
];
const NAVIGATOR = ['locks', 'storage', 'serviceWorker'];

/** Removes `name` from `target` and every prototype it inherits from, then pins it undefined. */
function remove(target, name) {
  for (let o = target; o; o = Object.getPrototypeOf(o)) {
    if (Object.getOwnPropertyDescriptor(o, name)) {
      try {
        delete o[name];
      } catch {
        // A non-configurable property stays; the pin below shadows it on `target`.
      }
    }
  }
  try {
    Object.defineProperty(target, name, { value: undefined, writable: false, configurable: false });
  } catch {
    // Already pinned.
  }
}

function lockDown() {
  for (const name of GLOBALS) remove(self, name);
  for (const name of NAVIGATOR) remove(self.navigator, name);
}

/** A credential the SDK takes (named key, SAS, token): not an options bag. */
function isCredential(x) {
  return !!x && (typeof x.getToken === 'function' || 'key' in x || 'signature' in x);
}

/** Where an SDK call was made, kept on the error it rejects with (see `withCallSites`). */
const CALL_SITE = Symbol('tablescope call site');

/**
 * `client` whose methods remember where the code called them: an SDK error is created deep in
 * the SDK's promise chain, and its stack no longer reaches the code's line. A rejected call,
 * or a failing page of a listing, carries the caller's stack in CALL_SITE.
 */
function withCallSites(client) {
  const mark = (site) => (e) => {
    if (e && typeof e === 'object' && !(CALL_SITE in e)) {
      try {
        e[CALL_SITE] = site.stack;
      } catch {
        // A frozen error keeps its own stack only.
      }
    }
    throw e;
  };
  const iterator = (it, site) => ({
    next: (...a) => it.next(...a).catch(mark(site)),
    return: it.return ? (...a) => it.return(...a) : undefined,
    [Symbol.asyncIterator]() {
      return this;
    },
    byPage: it.byPage ? (...a) => iterator(it.byPage(...a), site) : undefined,
  });
  return new Proxy(client, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function' || prop === 'constructor') return value;
      return function (...args) {
        const site = new Error();
        const result = value.apply(target, args);
        if (result && typeof result.then === 'function') return result.catch(mark(site));
        if (result && typeof result.next === 'function' && result[Symbol.asyncIterator]) {
          return iterator(result, site);
        }
        return result;
      };
    },
  });
}

/** The scope the code sees: the SDK pointed at the playground through the transport. */
function scopeOf(sdk, consoleLike) {
  const httpClient = sdk.createTransport({ wire: askPage });
  const options = (own) => sdk.clientOptions({ httpClient, ...own });
  // `new TableClient(url, table[, credential][, options])` reaches the playground too: the
  // transport answers whatever URL it is given.
  class TableClient extends sdk.TableClient {
    constructor(url, table, credentialOrOptions, maybeOptions) {
      if (isCredential(credentialOrOptions)) super(url, table, credentialOrOptions, options(maybeOptions));
      else super(url, table, options(credentialOrOptions));
      return withCallSites(this);
    }
  }
  class TableServiceClient extends sdk.TableServiceClient {
    constructor(url, credentialOrOptions, maybeOptions) {
      if (isCredential(credentialOrOptions)) super(url, credentialOrOptions, options(maybeOptions));
      else super(url, options(credentialOrOptions));
      return withCallSites(this);
    }
  }
  return {
    serviceClient: withCallSites(sdk.serviceClient({ httpClient })),
    tableClient: (name, own) => withCallSites(sdk.tableClient(name, options(own))),
    TableClient,
    TableServiceClient,
    odata: sdk.odata,
    TableTransaction: sdk.TableTransaction,
    console: consoleLike,
  };
}

const consoleLike = Object.freeze(
  Object.fromEntries(
    ['log', 'info', 'warn', 'error', 'debug'].map((level) => [
      level,
      (...values) => post({ type: 'log', level, values: values.map(describe) }),
    ]),
  ),
);

async function run(code, sdkUrl) {
  let sdk;
  try {
    sdk = await import(sdkUrl);
  } catch (e) {
    post({ type: 'error', error: { name: 'LoadError', message: `the SDK did not load: ${e?.message ?? e}` } });
    return;
  }
  lockDown();
  const scope = scopeOf(sdk, consoleLike);
  let body;
  try {
    const AsyncFunction = (async () => {}).constructor;
    body = new AsyncFunction(...Object.keys(scope), `${code}\n//# sourceURL=${CODE_FILE}`);
  } catch (e) {
    // Where: acorn's position, or (acorn accepts what V8 refuses, rare; or acorn did not
    // load) V8's message without one.
    const syntax = await syntaxError(code).catch(() => null);
    post({ type: 'error', error: syntax ?? { name: e?.name ?? 'SyntaxError', message: e?.message ?? String(e) } });
    return;
  }
  post({ type: 'started' });
  try {
    await body(...Object.values(scope));
    post({ type: 'done' });
  } catch (e) {
    post({ type: 'error', error: runtimeError(e) });
  }
}

/** `{ name, message, line, column }` of code that does not parse, or null. */
async function syntaxError(code) {
  const { parse } = await import(new URL(ACORN_FILE, import.meta.url).href);
  try {
    parse(code, {
      ecmaVersion: 'latest',
      sourceType: 'script',
      allowAwaitOutsideFunction: true,
      allowReturnOutsideFunction: true,
    });
    return null;
  } catch (e) {
    if (!(e instanceof SyntaxError) || !e.loc) throw e;
    return {
      name: 'SyntaxError',
      message: e.message.replace(/ \(\d+:\d+\)$/, ''),
      line: e.loc.line,
      column: e.loc.column + 1,
    };
  }
}

/** What the page shows of an error the code threw: message, line, and the service's answer. */
function runtimeError(e) {
  const error = {
    name: e?.name ?? 'Error',
    message: e?.message ?? String(e),
  };
  const file = new RegExp(`${CODE_FILE.replace('.', '\\.')}:(\\d+):(\\d+)`);
  const stacks = [e?.stack, e?.[CALL_SITE]].filter((s) => typeof s === 'string');
  const at = stacks.map((s) => s.match(file)).find((m) => m);
  if (at) {
    error.line = Number(at[1]) - HEADER_LINES;
    error.column = Number(at[2]);
  }
  if (typeof e?.statusCode === 'number') error.status = e.statusCode;
  const code = e?.response?.parsedBody?.odataError?.code ?? e?.code;
  if (typeof code === 'string') error.code = code;
  return error;
}

function text(value) {
  return { text: value };
}

/**
 * A logged value as the page shows it: `{ text }` for a string, else `{ json }` with a value
 * structured clone and JSON can carry (bigint as `"123n"`, Date as its ISO text, bytes as a
 * number array, Map and Set as object and array, errors as `{name, message}`, a cycle as
 * `"[Circular]"`).
 */
function describe(value) {
  if (typeof value === 'string') return text(value);
  return { json: jsonable(value, new Set(), 0) };
}

function jsonable(value, seen, depth) {
  switch (typeof value) {
    case 'undefined':
      return null;
    case 'bigint':
      return `${value}n`;
    case 'number':
      return Number.isFinite(value) ? value : String(value);
    case 'string':
    case 'boolean':
      return value;
    case 'function':
      return `[Function ${value.name || 'anonymous'}]`;
    case 'symbol':
      return value.toString();
    default:
      break;
  }
  if (value === null) return null;
  if (seen.has(value)) return '[Circular]';
  if (depth > 20) return '[…]';
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? 'Invalid Date' : value.toISOString();
  if (ArrayBuffer.isView(value)) return Array.from(new Uint8Array(value.buffer, value.byteOffset, value.byteLength));
  if (value instanceof Error) return { name: value.name, message: value.message };
  seen.add(value);
  let out;
  if (Array.isArray(value) || value instanceof Set) {
    out = [...value].map((v) => jsonable(v, seen, depth + 1));
  } else if (value instanceof Map) {
    out = Object.fromEntries([...value].map(([k, v]) => [String(k), jsonable(v, seen, depth + 1)]));
  } else {
    out = {};
    for (const [k, v] of Object.entries(value)) out[k] = jsonable(v, seen, depth + 1);
  }
  seen.delete(value);
  return out;
}
