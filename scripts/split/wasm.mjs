// The few WebAssembly binary facts the split needs: sections, the table exports, the functions'
// names, and one rewrite of wasm-bindgen's output that Debian's wasm-split cannot read.

function leb(bytes, at) {
  let value = 0;
  let shift = 0;
  for (;;) {
    const byte = bytes[at++];
    value += (byte & 0x7f) * 2 ** shift;
    shift += 7;
    if (byte < 0x80) return [value, at];
  }
}

/** The module's sections as { id, start, end } (start/end bound the contents). */
export function sections(bytes) {
  const out = [];
  let at = 8;
  while (at < bytes.length) {
    const id = bytes[at];
    const [size, start] = leb(bytes, at + 1);
    out.push({ id, start, end: start + size });
    at = start + size;
  }
  return out;
}

/** Table exports: name → { index, at, width } (at/width locate the index's LEB bytes). */
export function tableExports(bytes) {
  const out = new Map();
  const exports = sections(bytes).find((s) => s.id === 7);
  if (!exports) return out;
  let [count, at] = leb(bytes, exports.start);
  const text = new TextDecoder();
  while (count-- > 0) {
    const [length, nameAt] = leb(bytes, at);
    const name = text.decode(bytes.subarray(nameAt, nameAt + length));
    const kind = bytes[nameAt + length];
    const indexAt = nameAt + length + 1;
    const [index, next] = leb(bytes, indexAt);
    if (kind === 1) out.set(name, { index, at: indexAt, width: next - indexAt });
    at = next;
  }
  return out;
}

/**
 * Debian's wasm-split (binaryen 108) writes every table export as table 0. Points each table
 * export of `split` back at the table the same name had in `original`; throws on anything it
 * cannot patch in place. Returns how many it fixed.
 */
export function fixTableExports(original, split) {
  let fixed = 0;
  for (const [name, want] of tableExports(original)) {
    const have = tableExports(split).get(name);
    if (!have) continue;
    if (have.index === want.index) continue;
    if (have.width !== 1 || want.index > 127) throw new Error(`cannot patch table export ${name}`);
    split[have.at] = want.index;
    fixed++;
  }
  return fixed;
}

function name(bytes, at) {
  const [length, start] = leb(bytes, at);
  return [new TextDecoder().decode(bytes.subarray(start, start + length)), start + length];
}

/** How many functions the module imports (they come first in the function index space). */
export function importedFunctions(bytes) {
  const imports = sections(bytes).find((s) => s.id === 2);
  if (!imports) return 0;
  let [count, at] = leb(bytes, imports.start);
  let functions = 0;
  const limits = (p) => {
    const flags = bytes[p];
    let [, next] = leb(bytes, p + 1);
    if (flags & 1) [, next] = leb(bytes, next);
    return next;
  };
  while (count-- > 0) {
    [, at] = name(bytes, at);
    [, at] = name(bytes, at);
    const kind = bytes[at++];
    if (kind === 0) {
      functions++;
      [, at] = leb(bytes, at);
    } else if (kind === 1) {
      at = limits(at + 1);
    } else if (kind === 2) {
      at = limits(at);
    } else if (kind === 3) {
      at += 2;
    } else if (kind === 4) {
      [, at] = leb(bytes, at + 1);
    } else {
      throw new Error(`unknown import kind ${kind}`);
    }
  }
  return functions;
}

/** The "name" section's function names, by function index (imports included). */
export function namesByIndex(bytes) {
  const names = new Map();
  for (const s of sections(bytes)) {
    if (s.id !== 0) continue;
    const [section, at0] = name(bytes, s.start);
    if (section !== 'name') continue;
    for (let at = at0; at < s.end; ) {
      const [size, start] = leb(bytes, at + 1);
      if (bytes[at] === 1) {
        let [count, p] = leb(bytes, start);
        while (count-- > 0) {
          let index;
          let text;
          [index, p] = leb(bytes, p);
          [text, p] = name(bytes, p);
          names.set(index, text);
        }
      }
      at = start + size;
    }
  }
  return names;
}

/** The functions the module exports, by function index. */
export function exportedFunctions(bytes) {
  const out = new Set();
  const exports = sections(bytes).find((s) => s.id === 7);
  if (!exports) return out;
  let [count, at] = leb(bytes, exports.start);
  while (count-- > 0) {
    [, at] = name(bytes, at);
    const kind = bytes[at];
    let index;
    [index, at] = leb(bytes, at + 1);
    if (kind === 0) out.add(index);
  }
  return out;
}

/** The functions the module's element segments put in its tables, by function index. */
export function tableFunctions(bytes) {
  const out = new Set();
  const elements = sections(bytes).find((s) => s.id === 9);
  if (!elements) return out;
  let [count, at] = leb(bytes, elements.start);
  const skipExpr = (p) => {
    // A constant offset expression: i32.const n, end (what wasm-ld and binaryen write).
    if (bytes[p] !== 0x41) throw new Error('tableFunctions: an element offset that is not i32.const');
    p++;
    while (bytes[p] & 0x80) p++;
    if (bytes[p + 1] !== 0x0b) throw new Error('tableFunctions: an element offset that is not i32.const');
    return p + 2;
  };
  while (count-- > 0) {
    let kind;
    [kind, at] = leb(bytes, at);
    if (kind === 0) at = skipExpr(at);
    else if (kind === 2) at = skipExpr(leb(bytes, at)[1]) + 1;
    else if (kind === 1 || kind === 3) at += 1;
    else throw new Error(`tableFunctions: element segment kind ${kind}`);
    let n;
    [n, at] = leb(bytes, at);
    while (n-- > 0) {
      let f;
      [f, at] = leb(bytes, at);
      out.add(f);
    }
  }
  return out;
}

/**
 * The functions the primary keeps: those of the module's own functions that `listed` names,
 * and the functions without a name (the tools write some: wasm-opt's merged function bodies,
 * for one) that are exported, in a table, or called or referenced by a kept function,
 * transitively. Nothing identifies an
 * unnamed function from one build to the next, so it follows its callers. Returns binaryen
 * 108's names for them (wasm-split --keep-funcs), and how many of each kind.
 */
export function primaryFunctions(bytes, listed) {
  const imported = importedFunctions(bytes);
  const names = namesByIndex(bytes);
  const graph = calls(bytes);
  const wanted = new Set(listed);
  const kept = new Set();
  for (const index of graph.keys()) if (wanted.has(names.get(index))) kept.add(index);
  const named = kept.size;
  // Unnamed functions that are exported or in a table can be called from anywhere (the glue
  // calls wasm-bindgen's closures so), so no caller tells whether the start needs them: kept.
  for (const index of [...tableFunctions(bytes), ...exportedFunctions(bytes)]) {
    if (index >= imported && !names.has(index)) kept.add(index);
  }
  const queue = [...kept];
  while (queue.length > 0) {
    for (const callee of graph.get(queue.pop()) ?? []) {
      if (callee >= imported && !names.has(callee) && !kept.has(callee)) {
        kept.add(callee);
        queue.push(callee);
      }
    }
  }
  // binaryen names a function the name section leaves unnamed by its position among the
  // module's own functions.
  const keep = [...kept].map((index) => (names.has(index) ? escapeName(names.get(index)) : String(index - imported)));
  return { keep, named, unnamed: kept.size - named };
}

/** The names the "name" custom section gives the module's own (not imported) functions, in
 * function index order; empty when the module has no names. */
export function definedFunctionNames(bytes) {
  const names = [];
  const imported = importedFunctions(bytes);
  for (const s of sections(bytes)) {
    if (s.id !== 0) continue;
    const [section, at0] = name(bytes, s.start);
    if (section !== 'name') continue;
    let at = at0;
    while (at < s.end) {
      const kind = bytes[at];
      const [size, start] = leb(bytes, at + 1);
      if (kind === 1) {
        let [count, p] = leb(bytes, start);
        while (count-- > 0) {
          let index;
          let text;
          [index, p] = leb(bytes, p);
          [text, p] = name(bytes, p);
          if (index >= imported) names.push(text);
        }
      }
      at = start + size;
    }
  }
  return names;
}

function sleb(bytes, at) {
  let value = 0;
  let shift = 0;
  let byte;
  do {
    byte = bytes[at++];
    value |= (byte & 0x7f) << shift;
    shift += 7;
  } while (byte & 0x80);
  if (shift < 32 && byte & 0x40) value |= -1 << shift;
  return [value, at];
}

function encodeLeb(value) {
  const out = [];
  do {
    let byte = value & 0x7f;
    value = Math.floor(value / 128);
    if (value !== 0) byte |= 0x80;
    out.push(byte);
  } while (value !== 0);
  return out;
}

function encodeSleb(value) {
  const out = [];
  for (;;) {
    const byte = value & 0x7f;
    value >>= 7;
    if ((value === 0 && !(byte & 0x40)) || (value === -1 && byte & 0x40)) {
      out.push(byte);
      return out;
    }
    out.push(byte | 0x80);
  }
}

/**
 * wasm-bindgen's externref shims clear their stack slots with one `table.fill` when the module
 * declares bulk memory (its target_features section, which a build that keeps names keeps):
 * `local.get fp; ref.null extern; i32.const n; table.fill t`. Debian's wasm-split (binaryen
 * 108) cannot read `table.fill`, so each is written out as the `n` `table.set`s wasm-bindgen
 * itself writes without bulk memory. Only in functions named `… externref shim`; returns the
 * module (a new buffer when anything changed) and how many it rewrote.
 */
export function lowerTableFill(bytes) {
  const names = namesByIndex(bytes);
  const imported = importedFunctions(bytes);
  const code = sections(bytes).find((s) => s.id === 10);
  if (!code) return { bytes, lowered: 0 };
  let [count, at] = leb(bytes, code.start);
  const bodies = [];
  let lowered = 0;
  for (let i = 0; i < count; i++) {
    const [size, start] = leb(bytes, at);
    let body = bytes.subarray(start, start + size);
    at = start + size;
    if ((names.get(imported + i) ?? '').endsWith('externref shim')) {
      const out = [];
      let copied = 0;
      for (let p = 0; p < body.length; p++) {
        if (body[p] !== 0x20) continue;
        const [fp, q] = leb(body, p + 1);
        if (body[q] !== 0xd0 || body[q + 1] !== 0x6f || body[q + 2] !== 0x41) continue;
        const [n, r] = sleb(body, q + 3);
        if (body[r] !== 0xfc || body[r + 1] !== 0x11 || n < 0 || n > 64) continue;
        const [table, end] = leb(body, r + 2);
        out.push(...body.subarray(copied, p));
        for (let k = 0; k < n; k++) {
          out.push(0x20, ...encodeLeb(fp));
          if (k > 0) out.push(0x41, ...encodeSleb(k), 0x6a);
          out.push(0xd0, 0x6f, 0x26, ...encodeLeb(table));
        }
        copied = end;
        p = end - 1;
        lowered++;
      }
      if (copied > 0) body = Uint8Array.from([...out, ...body.subarray(copied)]);
    }
    bodies.push(body);
  }
  if (lowered === 0) return { bytes, lowered };
  const contents = [...encodeLeb(count)];
  const parts = [Uint8Array.from(contents)];
  let length = contents.length;
  for (const body of bodies) {
    const size = Uint8Array.from(encodeLeb(body.length));
    parts.push(size, body);
    length += size.length + body.length;
  }
  const header = Uint8Array.from([10, ...encodeLeb(length)]);
  const out = Buffer.concat([bytes.subarray(0, headerStart(bytes, code)), header, ...parts, bytes.subarray(code.end)]);
  return { bytes: out, lowered };
}

/** Where section `s` (from sections()) begins: its id byte. */
function headerStart(bytes, s) {
  let at = 8;
  while (at < bytes.length) {
    const [size, start] = leb(bytes, at + 1);
    if (start === s.start) return at;
    at = start + size;
  }
  throw new Error('section not found');
}

// Debian's wasm-split (binaryen 108) escapes a function's name as it reads it: every byte that
// is not a WebAssembly text identifier character becomes `\xx` (its hex), as in its symbol
// maps; `--keep-funcs` matches the escaped form. The list keeps names as the name section has
// them, and these convert.
const ID_CHARS = /[0-9A-Za-z!#$%&'*+\-./:<=>?@^_`|~]/;

/** `name` as binaryen 108 holds it. */
export function escapeName(name) {
  if ([...name].every((c) => ID_CHARS.test(c))) return name;
  let out = '';
  for (const byte of new TextEncoder().encode(name)) {
    const c = String.fromCharCode(byte);
    out += byte < 0x80 && ID_CHARS.test(c) ? c : `\\${byte.toString(16).padStart(2, '0')}`;
  }
  return out;
}

/** A name as binaryen 108 prints it (a symbol map) back as the name section has it. */
export function unescapeName(escaped) {
  const bytes = [];
  for (let i = 0; i < escaped.length; i++) {
    if (escaped[i] === '\\' && /^[0-9a-f]{2}$/.test(escaped.slice(i + 1, i + 3))) {
      bytes.push(parseInt(escaped.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      bytes.push(...new TextEncoder().encode(escaped[i]));
    }
  }
  return new TextDecoder().decode(Uint8Array.from(bytes));
}

/** The functions each of the module's own functions calls or takes a reference to (`call`,
 * `ref.func`), by function index: [index of caller → Set of callee indices]. Decodes the
 * instructions of the features the app's wasm uses. */
export function calls(bytes) {
  const imported = importedFunctions(bytes);
  const code = sections(bytes).find((s) => s.id === 10);
  const out = new Map();
  if (!code) return out;
  let [count, at] = leb(bytes, code.start);
  const skipLeb = (p) => {
    while (bytes[p] & 0x80) p++;
    return p + 1;
  };
  for (let i = 0; i < count; i++) {
    const [size, start] = leb(bytes, at);
    const end = start + size;
    at = end;
    const callees = new Set();
    out.set(imported + i, callees);
    let [groups, p] = leb(bytes, start);
    while (groups-- > 0) p = skipLeb(p) + 1;
    while (p < end) {
      const op = bytes[p++];
      if (op === 0x10 || op === 0xd2) {
        let callee;
        [callee, p] = leb(bytes, p);
        callees.add(callee);
      } else if (op === 0x02 || op === 0x03 || op === 0x04) {
        const t = bytes[p];
        p = t === 0x40 || (t >= 0x6f && t <= 0x7f) ? p + 1 : skipLeb(p);
      } else if (op === 0x0c || op === 0x0d || (op >= 0x20 && op <= 0x26)) {
        p = skipLeb(p);
      } else if (op === 0x0e) {
        let [n, q] = leb(bytes, p);
        for (n += 1; n > 0; n--) q = skipLeb(q);
        p = q;
      } else if (op === 0x11) {
        p = skipLeb(skipLeb(p));
      } else if (op === 0x1c) {
        const [n, q] = leb(bytes, p);
        p = q + n;
      } else if (op >= 0x28 && op <= 0x3e) {
        p = skipLeb(skipLeb(p));
      } else if (op === 0x3f || op === 0x40 || op === 0xd0) {
        p += 1;
      } else if (op === 0x41 || op === 0x42) {
        p = skipLeb(p);
      } else if (op === 0x43) {
        p += 4;
      } else if (op === 0x44) {
        p += 8;
      } else if (op === 0xfc) {
        let sub;
        [sub, p] = leb(bytes, p);
        if (sub === 8) p = skipLeb(p) + 1;
        else if (sub === 10) p += 2;
        else if (sub === 11) p += 1;
        else if (sub === 12 || sub === 14) p = skipLeb(skipLeb(p));
        else if (sub === 9 || sub === 13 || (sub >= 15 && sub <= 17)) p = skipLeb(p);
        else if (sub > 7) throw new Error(`calls: unknown instruction 0xfc ${sub} in function ${imported + i}`);
      } else if (op === 0xfd || op === 0xfb || op === 0xfe) {
        throw new Error(`calls: instruction prefix 0x${op.toString(16)} (a feature the app does not use) in function ${imported + i}`);
      }
    }
    if (p !== end) throw new Error(`calls: function ${imported + i} did not decode to its end`);
  }
  return out;
}

