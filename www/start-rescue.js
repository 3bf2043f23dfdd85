// Tablescope's start rescue: the start guard's (www/start-guard.js) "Download saved tables",
// loaded only when it is clicked, so a normal start never downloads it.
//
// It reads IndexedDB directly, without the app: every saved table as a Tablescope export
// (format "tablescope-account", version 1) that "Import" in the app reads back. Chunk records
// already hold entities in the export's form, so they are copied, not decoded. It never
// creates the database.

const DB = 'tablescope-sandbox';

// Every user-facing string of this file.
const TEXT = {
  downloaded: (tables, skipped) =>
    `Downloaded ${tables} table${tables === 1 ? '' : 's'}` +
    (skipped.length ? `; skipped damaged records: ${skipped.join(', ')}.` : '.'),
  empty: 'There are no saved tables in this browser.',
  unreadable: 'The saved tables cannot be read: ',
};

function reasonOf(e) {
  if (e && typeof e.message === 'string' && e.message) return e.message;
  return String(e);
}

/** Reads every saved table; resolves to { tables, skipped } or null when nothing is saved. */
async function readSaved() {
  const names = await indexedDB.databases?.();
  if (names && !names.some((d) => d.name === DB)) return null;
  const db = await new Promise((ok, fail) => {
    const r = indexedDB.open(DB);
    // Never create the database here: abort an upgrade (the database did not exist).
    r.onupgradeneeded = () => r.transaction.abort();
    r.onsuccess = () => ok(r.result);
    r.onerror = () => (r.error?.name === 'AbortError' ? ok(null) : fail(r.error));
  });
  if (!db) return null;
  try {
    const tx = db.transaction(['meta', 'chunks'], 'readonly');
    const get = (request) => new Promise((ok, fail) => {
      request.onsuccess = () => ok(request.result);
      request.onerror = () => fail(request.error);
    });
    const [meta, keys, values] = await Promise.all([
      get(tx.objectStore('meta').get('account')),
      get(tx.objectStore('chunks').getAllKeys()),
      get(tx.objectStore('chunks').getAll()),
    ]);
    const tables = new Map((meta?.tables ?? []).map((name) => [name, []]));
    const skipped = [];
    keys.forEach((key, i) => {
      const text = values[i];
      const table = String(key).split('/')[0];
      try {
        if (typeof text !== 'string' || !Array.isArray(JSON.parse(text))) throw new Error();
      } catch {
        skipped.push(String(key));
        return;
      }
      const inner = text.trim().slice(1, -1).trim();
      if (!tables.has(table)) tables.set(table, []);
      if (inner) tables.get(table).push(inner);
    });
    return { tables, skipped };
  } finally {
    db.close();
  }
}

export async function download(status) {
  try {
    const saved = await readSaved();
    if (!saved || saved.tables.size === 0) {
      status.textContent = TEXT.empty;
      return;
    }
    const parts = ['{"format":"tablescope-account","version":1,"tables":['];
    let first = true;
    for (const [name, chunks] of saved.tables) {
      parts.push(`${first ? '' : ','}{"name":${JSON.stringify(name)},"entities":[`, chunks.join(','), ']}');
      first = false;
    }
    parts.push(']}');
    const url = URL.createObjectURL(new Blob(parts, { type: 'application/json' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = 'tablescope-saved-tables.json';
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
    status.textContent = TEXT.downloaded(saved.tables.size, saved.skipped);
  } catch (e) {
    status.textContent = TEXT.unreadable + reasonOf(e);
  }
}
