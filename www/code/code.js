// The Code section's page side (issue #12): the editor (CodeMirror 6) and the runner that
// starts a sandbox worker (www/code/worker.js) for each run and answers its requests with the
// page's engine.
//
// scripts/bundle-code.mjs bundles this file into code/tablescope-code-<hash>.js and the worker
// into code/tablescope-code-worker-<hash>.js; the page imports this one on first use of the
// Code section, never at start.
//
//   const code = await import(url);
//   const editor = code.createEditor(parent, { doc: 'console.log(1)', onRun: () => … });
//   const run = code.runCode({ code: editor.text(), limitMs: 5000, onLog, onExchange });
//   const outcome = await run.settled;   // { status: 'done' | 'error' | 'timeout' | 'stopped', error? }

import { EditorView, keymap, lineNumbers, highlightActiveLine, highlightActiveLineGutter, drawSelection } from '@codemirror/view';
import { EditorState, Prec } from '@codemirror/state';
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { HighlightStyle, bracketMatching, indentOnInput, syntaxHighlighting } from '@codemirror/language';
import { tags } from '@lezer/highlight';
import { javascript } from '@codemirror/lang-javascript';
import STYLE from './code.css';

/**
 * The syntax colours, as the page's CSS variables (www/code/code.css defines them for light and
 * dark): CodeMirror's default style is for light pages only, and its strings and keywords fall
 * to 1.1–2.3:1 contrast on the dark theme (axe-core, tests/e2e/a11y.test.mjs).
 */
const HIGHLIGHT = HighlightStyle.define([
  { tag: tags.keyword, color: 'var(--code-keyword)' },
  { tag: [tags.string, tags.special(tags.string), tags.regexp], color: 'var(--code-string)' },
  { tag: [tags.number, tags.bool, tags.null, tags.atom], color: 'var(--code-literal)' },
  { tag: tags.comment, color: 'var(--code-comment)', fontStyle: 'italic' },
  { tag: [tags.definition(tags.variableName), tags.function(tags.variableName)], color: 'var(--code-definition)' },
  { tag: tags.propertyName, color: 'var(--code-property)' },
  { tag: tags.invalid, color: 'var(--danger)' },
]);

/** The Code section's CSS, added to the page once, when this bundle first loads. */
function addStyle(doc = globalThis.document) {
  if (!doc || doc.getElementById('tablescope-code-style')) return;
  const style = doc.createElement('style');
  style.id = 'tablescope-code-style';
  style.textContent = STYLE;
  doc.head.append(style);
}
addStyle();

/** The worker's file, next to this one (scripts/bundle-code.mjs defines it). */
// eslint-disable-next-line no-undef
export const WORKER_URL = new URL(__TABLESCOPE_CODE_WORKER__, import.meta.url).href;

/** The SDK bundle the page names (scripts/bundle-sdk.mjs), as an absolute URL. */
export function sdkUrl(doc = document) {
  const hash = doc.querySelector('meta[name="tablescope-sdk"]')?.content;
  if (!hash) throw new Error('this page names no SDK bundle (<meta name="tablescope-sdk">)');
  return new URL(`sdk/tablescope-sdk-${hash}.js`, doc.baseURI).href;
}

/**
 * An editor in `parent`: JavaScript highlighting, line numbers, undo history, and
 * Ctrl/Cmd+Enter calling `onRun`. `label` names it for assistive technology.
 * Returns `{ view, text(), setText(text), focus(), destroy() }`.
 */
export function createEditor(parent, { doc = '', onRun = () => {}, onChange = () => {}, label = 'Code' } = {}) {
  const run = Prec.highest(
    keymap.of([
      {
        key: 'Mod-Enter',
        run: () => {
          onRun();
          return true;
        },
      },
    ]),
  );
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc,
      extensions: [
        run,
        lineNumbers(),
        highlightActiveLineGutter(),
        highlightActiveLine(),
        drawSelection(),
        history(),
        indentOnInput(),
        bracketMatching(),
        syntaxHighlighting(HIGHLIGHT),
        javascript(),
        keymap.of([...defaultKeymap, ...historyKeymap]),
        // tabindex: the editor is what the keyboard reaches in its scrolling region.
        EditorView.contentAttributes.of({ 'aria-label': label, tabindex: '0' }),
        EditorView.updateListener.of((u) => {
          if (u.docChanged) onChange(u.state.doc.toString());
        }),
      ],
    }),
  });
  return {
    view,
    text: () => view.state.doc.toString(),
    setText: (text) => view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } }),
    focus: () => view.focus(),
    destroy: () => view.destroy(),
  };
}

const decoder = new TextDecoder();

function bodyText(body) {
  if (body === undefined || body === null) return '';
  if (typeof body === 'string') return body;
  return decoder.decode(body);
}

/** The default runaway limit, in milliseconds. */
export const DEFAULT_LIMIT_MS = 5000;

/** How long a sandbox may take to load the SDK and start the code. */
const START_MS = 30_000;

/**
 * Runs `code` in a fresh sandbox worker. `wire` answers its HTTP requests (default: the
 * page's `window.tablescope.wire`). `onLog({level, values})` hears console output;
 * `onExchange({request, response, stats, ms})` every request with its answer (bodies as text).
 * `limitMs` after the code starts, the worker is terminated, whatever it is doing.
 *
 * Returns `{ settled, stop() }`; `settled` resolves once with `{status, error?, ms}`:
 * `done`, `error` (`error`: `{name, message, line?, column?, status?, code?}`), `timeout`,
 * or `stopped` (by `stop()`). The worker never outlives its run.
 */
export function runCode({
  code,
  limitMs = DEFAULT_LIMIT_MS,
  wire = (request) => globalThis.tablescope.wire(request),
  onLog = () => {},
  onExchange = () => {},
  sdk = sdkUrl(),
  workerUrl = WORKER_URL,
}) {
  const started = performance.now();
  const worker = new Worker(workerUrl, { type: 'module', name: 'tablescope-code' });
  let finish;
  let timer;
  const settled = new Promise((resolve) => {
    finish = (outcome) => {
      clearTimeout(timer);
      worker.terminate();
      resolve({ ...outcome, ms: performance.now() - started });
      finish = () => {};
    };
  });
  // The limit counts from the moment the code starts, not while the worker loads the SDK
  // (which a busy machine may take seconds to do); a worker that never starts fails too.
  timer = setTimeout(
    () => finish({ status: 'error', error: { name: 'Error', message: `the sandbox did not start within ${START_MS / 1000} s` } }),
    START_MS,
  );
  worker.addEventListener('error', (event) => {
    event.preventDefault();
    finish({ status: 'error', error: { name: 'Error', message: event.message || 'the sandbox failed to start' } });
  });
  worker.addEventListener('message', (event) => {
    const m = event.data;
    switch (m?.type) {
      case 'wire':
        answer(m);
        break;
      case 'started':
        clearTimeout(timer);
        timer = setTimeout(() => finish({ status: 'timeout', limitMs }), limitMs);
        break;
      case 'log':
        if (Array.isArray(m.values)) onLog({ level: String(m.level), values: m.values });
        break;
      case 'done':
        finish({ status: 'done' });
        break;
      case 'error':
        finish({ status: 'error', error: m.error });
        break;
      default:
        break; // Anything else the code posts is ignored.
    }
  });
  function answer(m) {
    const began = performance.now();
    let response;
    try {
      response = wire(m.request);
    } catch (e) {
      worker.postMessage({ type: 'wire', id: m.id, error: e?.message ?? String(e) });
      return;
    }
    try {
      onExchange({
        request: {
          method: m.request.method,
          url: m.request.url,
          headers: m.request.headers,
          body: bodyText(m.request.body),
        },
        response: { status: response.status, headers: response.headers, body: bodyText(response.body) },
        stats: response.stats,
        ms: performance.now() - began,
      });
    } catch (e) {
      console.warn('tablescope code: an exchange listener failed', e);
    }
    worker.postMessage({ type: 'wire', id: m.id, response });
  }
  worker.postMessage({ type: 'run', code, sdkUrl: sdk });
  return { settled, stop: () => finish({ status: 'stopped' }) };
}
