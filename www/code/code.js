// The Code section's page side: the editor (CodeMirror 6) and the runner that
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
//
// The runner itself is www/code/runner.js, shared with the docs embed's code cell.

import { EditorView, keymap, lineNumbers, highlightActiveLine, highlightActiveLineGutter, drawSelection } from '@codemirror/view';
import { EditorState, Prec } from '@codemirror/state';
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { HighlightStyle, bracketMatching, indentOnInput, syntaxHighlighting } from '@codemirror/language';
import { tags } from '@lezer/highlight';
import { javascript } from '@codemirror/lang-javascript';
import EDITOR_STYLE from './code.css';
import OUTPUT_STYLE from './output.css';

export { WORKER_URL, DEFAULT_LIMIT_MS, runCode, sdkUrl } from './runner.js';

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
  style.textContent = EDITOR_STYLE + OUTPUT_STYLE;
  doc.head.append(style);
}
addStyle();

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
