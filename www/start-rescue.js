// Tablescope's start rescue: the start guard's (www/start-guard.js) "Download saved tables",
// loaded only when it is clicked, so a normal start never downloads it.
//
// It reads IndexedDB directly, without the app: every saved table as a Tablescope export
// (format "tablescope-account", version 1) that "Import" in the app reads back. It never
// creates the database. Chunk records are decoded by `chunkEntities`, which the e2e tests use
// too: format 2 stores bytes (src/persist/binary.rs), format 1 stored the export's JSON text.

const DB = 'tablescope-sandbox';

// Every user-facing string of this file, in English; www/start-guard-text.js has them in the
// other languages (the start guard has loaded it before anyone can click "Download").
const TEXT = {
  downloaded: (tables, skipped) =>
    `Downloaded ${tables} table${tables === 1 ? '' : 's'}` +
    (skipped.length ? `; skipped damaged records: ${skipped.join(', ')}.` : '.'),
  empty: 'There are no saved tables in this browser.',
  unreadable: 'The saved tables cannot be read: ',
};

/** The text in the page's language (by the app's rule, as the guard picks it); English when
 * the text file cannot load. */
async function pageText() {
  try {
    const { pick } = await import(new URL('start-guard-text.js', import.meta.url).href);
    return pick(TEXT);
  } catch {
    return TEXT;
  }
}

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
      const table = String(key).split('/')[0];
      let entities;
      try {
        entities = chunkEntities(values[i]);
      } catch {
        skipped.push(String(key));
        return;
      }
      if (!tables.has(table)) tables.set(table, []);
      for (const entity of entities) tables.get(table).push(JSON.stringify(entity));
    });
    return { tables, skipped };
  } finally {
    db.close();
  }
}

/** The Unix epoch in the engine's ticks (100 ns since 1601-01-01, src: engine datetime.rs). */
const EPOCH_TICKS = 116444736000000000n;

/**
 * An instant in ticks as ISO 8601 text, as the app writes it: seven fractional digits, or
 * (`whole`, DateTime values) none on a whole second.
 */
function isoOfTicks(ticks, whole = false) {
  const since = ticks - EPOCH_TICKS;
  let secs = since / 10_000_000n;
  if (secs * 10_000_000n > since) secs -= 1n; // floor, for instants before 1970
  const frac = since - secs * 10_000_000n;
  const seconds = new Date(Number(secs) * 1000).toISOString().slice(0, 19);
  return whole && frac === 0n ? `${seconds}Z` : `${seconds}.${String(frac).padStart(7, '0')}Z`;
}

/**
 * A chunk record's entities in the export's JSON form: the service's, with `@odata.type`
 * wherever JSON alone would lose the type. Throws on a damaged record.
 *
 * Format 2 (a Uint8Array; the layout is in src/persist/binary.rs): "TSC2", the PartitionKey,
 * the property names, then each entity's RowKey, Timestamp (ticks since 1601) and typed
 * properties.
 */
export function chunkEntities(value) {
  if (typeof value === 'string') {
    const rows = JSON.parse(value);
    if (!Array.isArray(rows)) throw new Error('not an array of entities');
    return rows;
  }
  if (!(value instanceof Uint8Array)) throw new Error('not a chunk');
  let at = 0;
  const take = (n) => {
    if (at + n > value.length) throw new Error('the chunk ends early');
    at += n;
    return value.subarray(at - n, at);
  };
  const view = (n) => {
    const bytes = take(n);
    return new DataView(bytes.buffer, bytes.byteOffset, n);
  };
  const len = () => {
    let n = 0;
    for (let shift = 0; shift < 35; shift += 7) {
      const b = take(1)[0];
      n += (b & 0x7f) * 2 ** shift;
      if (!(b & 0x80)) return n;
    }
    throw new Error('a length is too long');
  };
  const utf8 = new TextDecoder('utf-8', { fatal: true });
  const str = () => utf8.decode(take(len()));
  const i64 = () => view(8).getBigInt64(0, true);
  const hex = (bytes) => [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
  // Each tag's value as [JSON value, its @odata.type or null]; tags as binary.rs numbers them.
  const TYPED = [
    () => [str(), null],
    () => [view(4).getInt32(0, true), null],
    () => [String(i64()), 'Edm.Int64'],
    () => {
      // As the app writes JSON: a fractional number needs no annotation; a whole one does
      // (JSON.stringify drops its ".0", which would make it an Int32), and NaN and the
      // infinities are text.
      const v = view(8).getFloat64(0, true);
      if (!Number.isFinite(v)) return [String(v), 'Edm.Double'];
      return [v, Number.isInteger(v) ? 'Edm.Double' : null];
    },
    () => {
      const b = take(1)[0];
      if (b > 1) throw new Error('a Boolean out of range');
      return [b === 1, null];
    },
    () => [isoOfTicks(i64(), true), 'Edm.DateTime'],
    () => {
      const h = hex(take(16));
      return [`${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`, 'Edm.Guid'];
    },
    () => {
      let text = '';
      for (const b of take(len())) text += String.fromCharCode(b);
      return [btoa(text), 'Edm.Binary'];
    },
  ];
  if (utf8.decode(take(4)) !== 'TSC2') throw new Error('not a chunk of format 2');
  const partitionKey = str();
  const names = Array.from({ length: len() }, str);
  const entities = Array.from({ length: len() }, () => {
    const entity = { PartitionKey: partitionKey, RowKey: str(), Timestamp: isoOfTicks(i64()) };
    for (let n = len(); n > 0; n--) {
      const name = names[len()];
      const typed = TYPED[take(1)[0]];
      if (name === undefined || !typed) throw new Error('a damaged property');
      const [v, type] = typed();
      entity[name] = v;
      if (type) entity[`${name}@odata.type`] = type;
    }
    return entity;
  });
  if (at !== value.length) throw new Error('bytes follow the last entity');
  return entities;
}

export async function download(status) {
  const t = await pageText();
  try {
    const saved = await readSaved();
    if (!saved || saved.tables.size === 0) {
      status.textContent = t.empty;
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
    status.textContent = t.downloaded(saved.tables.size, saved.skipped);
  } catch (e) {
    status.textContent = t.unreadable + reasonOf(e);
  }
}
