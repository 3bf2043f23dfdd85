// A docs embed's code cell: the sandbox runner (www/code/runner.js) without
// the Code section's editor, and the console's and wire log's CSS (www/code/output.css, shared with the Code section) with
// the cell's own (www/code/cell.css), added to the page once
// when this bundle loads. scripts/bundle-code.mjs bundles it as code/tablescope-cell-<hash>.js;
// the cell module (src/ui/sections/cell.rs) imports it on an embed page that asks for a snippet.

import OUTPUT_STYLE from './output.css';
import CELL_STYLE from './cell.css';

export { DEFAULT_LIMIT_MS, runCode } from './runner.js';

function addStyle(doc = globalThis.document) {
  if (!doc || doc.getElementById('tablescope-cell-style')) return;
  const style = doc.createElement('style');
  style.id = 'tablescope-cell-style';
  style.textContent = OUTPUT_STYLE + CELL_STYLE;
  doc.head.append(style);
}
addStyle();
