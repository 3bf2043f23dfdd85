// The few WebAssembly binary facts the split step needs: sections, and the table exports.

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
