// Helpers for the Code section's end-to-end tests (code-section.test.mjs, show-code.test.mjs):
// driving the section through its UI as a person does (editor, Run, the outcome, console and
// wire log as rendered), and reading the page's tables through its wire.

export const BASE = 'http://127.0.0.1:10002/devstoreaccount1';

/** Opens the Code section and waits for its editor. */
export async function openCode(page) {
  await page.locator('#nav-code').click();
  await page.locator('#section-code .code-editor .cm-content').waitFor({ timeout: 30_000 });
  await page.locator('#section-code .run-code:not([disabled])').waitFor();
}

/** Replaces the editor's text as typing would (CodeMirror takes the input events). */
export async function setCode(page, text) {
  await page.locator('.code-editor .cm-content').click();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(text);
}

/** The editor's text, line by line (CodeMirror renders one .cm-line per line). */
export async function editorText(page) {
  return (await page.locator('.code-editor .cm-line').allTextContents()).join('\n');
}

/**
 * Runs the editor's code (Ctrl+Enter in the editor, or the Run button) and waits for its
 * outcome: `{ kind: 'done'|'error'|'timeout'|'stopped', text, line }`.
 */
export async function runEditor(page, { keyboard = false, timeout = 30_000 } = {}) {
  const before = Number(await page.locator('.code-outcome').getAttribute('data-run'));
  if (keyboard) {
    await page.locator('.code-editor .cm-content').press('Control+Enter');
  } else {
    await page.locator('.run-code').click();
  }
  const outcome = page.locator(`.code-outcome[data-run="${before + 1}"] > span`);
  await outcome.waitFor({ timeout });
  const cls = await outcome.getAttribute('class');
  return {
    kind: cls.replace('code-', ''),
    text: (await outcome.textContent()).trim(),
    line: await outcome.getAttribute('data-line'),
  };
}

/** The console as rendered: per line, its values' text (JSON trees by their summary). */
export async function consoleLines(page) {
  return page.locator('.console-line').evaluateAll((lines) =>
    lines.map((li) =>
      [...li.children].map((v) => (v.matches('details') ? v.querySelector('summary').textContent : v.textContent)),
    ),
  );
}

/** A logged object's member `name` per console line (read from the rendered JSON tree). */
export async function loggedMembers(page, name) {
  return page.locator('.console-line').evaluateAll(
    (lines, n) =>
      lines.map((li) => {
        const key = [...li.querySelectorAll('.json-key')].find((k) => k.textContent === `${n}: `);
        return key ? JSON.parse(key.nextElementSibling.textContent) : undefined;
      }),
    name,
  );
}

/** The wire log as rendered: method, decoded URL, status, and a query's kind and figures. */
export async function wireLog(page) {
  return page.locator('.wire-entry').evaluateAll((entries) =>
    entries.map((li) => {
      const q = li.querySelector('.wire-query');
      const row = [li.dataset.method, li.querySelector('.wire-url').textContent, Number(li.dataset.status)];
      if (q) row.push({ kind: q.dataset.kind, scanned: Number(q.dataset.scanned), returned: Number(q.dataset.returned) });
      return row;
    }),
  );
}

/** Deletes every table of the page's account, through its wire. */
export async function deleteAllTables(page) {
  await page.evaluate((base) => {
    const accept = [['Accept', 'application/json;odata=nometadata']];
    const listed = window.tablescope.wire({ method: 'GET', url: `${base}/Tables`, headers: accept });
    const names = JSON.parse(new TextDecoder().decode(listed.body)).value.map((t) => t.TableName);
    for (const name of names) {
      window.tablescope.wire({ method: 'DELETE', url: `${base}/Tables('${name}')`, headers: accept });
    }
  }, BASE);
}

/** Sends one request through the page's wire; `{status, body}` (body parsed when JSON). */
export async function wire(page, method, path, body) {
  return page.evaluate(
    ([base, m, p, b]) => {
      const headers = [
        ['Accept', 'application/json;odata=fullmetadata'],
        ['Content-Type', 'application/json'],
        ['Prefer', 'return-no-content'],
        ['If-Match', '*'],
      ];
      const r = window.tablescope.wire({ method: m, url: `${base}/${p}`, headers, body: b === undefined ? undefined : JSON.stringify(b) });
      const text = new TextDecoder().decode(r.body);
      let parsed = text;
      try {
        parsed = text ? JSON.parse(text) : null;
      } catch {
        // Not JSON: kept as text.
      }
      return { status: r.status, body: parsed };
    },
    [BASE, method, path, body],
  );
}

/** A table's entities with their typed values, without Timestamp and ETag. */
export async function tableRows(page, table) {
  const { body } = await wire(page, 'GET', `${table}()`);
  return body.value.map((row) => {
    const out = {};
    for (const [k, v] of Object.entries(row)) {
      if (k === 'Timestamp' || k.startsWith('Timestamp@') || k.startsWith('odata.')) continue;
      out[k] = v;
    }
    return out;
  });
}
