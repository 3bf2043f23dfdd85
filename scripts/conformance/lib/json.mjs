// Lossless JSON for scenario files.
//
// JSON.parse loses two things a scenario file must keep exactly:
//  * the lexeme of a number (`2.0` is an Edm.Double, `2` an Edm.Int32), and
//  * repeated property names inside an entity (a request that names a property
//    twice must reach the service as written, to get DuplicatePropertiesSpecified).
// parse() returns plain JS values, except that every number is a JNum holding its
// source text, and an object whose source repeats a key carries the full entry list
// under DUPS. stringify() writes them back exactly (2-space indent, stable order).

export class JNum {
  constructor(raw) { this.raw = raw; }
  valueOf() { return Number(this.raw); }
  toString() { return this.raw; }
  get isInteger() { return /^-?\d+$/.test(this.raw); }
}

export const DUPS = Symbol("duplicate-entries");

export function num(x) {
  return x instanceof JNum ? x : new JNum(String(x));
}

export function parse(text, origin = "<json>") {
  let i = 0;
  const fail = (msg) => {
    const upto = text.slice(0, i);
    const line = upto.split("\n").length;
    throw new Error(`${origin}:${line}: ${msg}`);
  };
  const ws = () => { while (i < text.length && " \t\r\n".includes(text[i])) i++; };
  const value = () => {
    ws();
    const c = text[i];
    if (c === "{") return object();
    if (c === "[") return array();
    if (c === '"') return string();
    if (c === "-" || (c >= "0" && c <= "9")) return number();
    if (text.startsWith("true", i)) { i += 4; return true; }
    if (text.startsWith("false", i)) { i += 5; return false; }
    if (text.startsWith("null", i)) { i += 4; return null; }
    fail(`unexpected ${c === undefined ? "end of input" : JSON.stringify(c)}`);
  };
  const number = () => {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (!m) fail("bad number");
    i += m[0].length;
    return new JNum(m[0]);
  };
  const string = () => {
    const start = i;
    i++;
    while (i < text.length && text[i] !== '"') {
      if (text[i] === "\\") i++;
      else if (text.charCodeAt(i) < 0x20) fail("raw control character in string");
      i++;
    }
    if (i >= text.length) fail("unterminated string");
    i++;
    return JSON.parse(text.slice(start, i));
  };
  const array = () => {
    i++;
    const out = [];
    ws();
    if (text[i] === "]") { i++; return out; }
    for (;;) {
      out.push(value());
      ws();
      if (text[i] === ",") { i++; continue; }
      if (text[i] === "]") { i++; return out; }
      fail("expected , or ]");
    }
  };
  const object = () => {
    i++;
    const out = {};
    const entries = [];
    let dup = false;
    ws();
    if (text[i] === "}") { i++; return out; }
    for (;;) {
      ws();
      if (text[i] !== '"') fail("expected a key");
      const k = string();
      ws();
      if (text[i] !== ":") fail("expected :");
      i++;
      const v = value();
      if (Object.prototype.hasOwnProperty.call(out, k)) dup = true;
      out[k] = v;
      entries.push([k, v]);
      ws();
      if (text[i] === ",") { i++; continue; }
      if (text[i] === "}") { i++; break; }
      fail("expected , or }");
    }
    if (dup) Object.defineProperty(out, DUPS, { value: entries, enumerable: false });
    return out;
  };
  const v = value();
  ws();
  if (i !== text.length) fail("trailing text");
  return v;
}

function entriesOf(o) {
  return o[DUPS] || Object.entries(o);
}

// Pretty form: 2-space indent; arrays of scalars and small flat objects stay on one line
// when short, so entity lists read well. Deterministic for equal input.
// JSON.stringify escapes C0 controls and lone surrogates; also escape C1 controls and DEL
// so that keys made of them stay visible in the files.
export function str(s) {
  return JSON.stringify(s).replace(/[\u007f-\u009f\u2028\u2029]/g, (c) => "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0"));
}

export function stringify(v, indent = "") {
  if (v === null) return "null";
  if (v instanceof JNum) return v.raw;
  if (typeof v === "number") {
    if (!Number.isFinite(v)) throw new Error("non-finite number in JSON output");
    return String(v);
  }
  if (typeof v === "boolean") return String(v);
  if (typeof v === "string") return str(v);
  const inner = indent + "  ";
  if (Array.isArray(v)) {
    if (v.length === 0) return "[]";
    const flat = compact(v);
    if (flat.length + indent.length <= 100 && !flat.includes("\n")) return flat;
    return "[\n" + v.map((x) => inner + stringify(x, inner)).join(",\n") + "\n" + indent + "]";
  }
  if (typeof v === "object") {
    const es = entriesOf(v).filter(([, x]) => x !== undefined);
    if (es.length === 0) return "{}";
    const flat = compact(v);
    if (flat.length + indent.length <= 100) return flat;
    return "{\n" + es.map(([k, x]) => inner + str(k) + ": " + stringify(x, inner)).join(",\n") + "\n" + indent + "}";
  }
  throw new Error(`cannot write ${typeof v}`);
}

// One-line form, also the request body form.
export function compact(v) {
  if (v === null) return "null";
  if (v instanceof JNum) return v.raw;
  if (typeof v === "number") return String(v);
  if (typeof v === "boolean") return String(v);
  if (typeof v === "string") return str(v);
  if (Array.isArray(v)) return "[" + v.map(compact).join(", ") + "]";
  return "{" + entriesOf(v).filter(([, x]) => x !== undefined).map(([k, x]) => str(k) + ": " + compact(x)).join(", ") + "}";
}

// Body form without spaces (what is sent on the wire).
export function wire(v) {
  if (v === null) return "null";
  if (v instanceof JNum) return v.raw;
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  if (typeof v === "string") return str(v);
  if (Array.isArray(v)) return "[" + v.map(wire).join(",") + "]";
  return "{" + entriesOf(v).filter(([, x]) => x !== undefined).map(([k, x]) => JSON.stringify(k) + ":" + wire(x)).join(",") + "}";
}

// Deep structural equality that treats numbers by lexeme-independent value but keeps
// the Int32/Double distinction (integer lexeme vs not).
export function equal(a, b) {
  if (a instanceof JNum || b instanceof JNum || typeof a === "number" || typeof b === "number") {
    if (!(a instanceof JNum || typeof a === "number") || !(b instanceof JNum || typeof b === "number")) return false;
    const ai = a instanceof JNum ? a.isInteger : Number.isInteger(a) && !String(a).includes(".");
    const bi = b instanceof JNum ? b.isInteger : Number.isInteger(b) && !String(b).includes(".");
    return ai === bi && Number(a) === Number(b);
  }
  if (a === null || b === null || typeof a !== "object" || typeof b !== "object") return a === b;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === b.length && a.every((x, i) => equal(x, b[i]));
  const ka = Object.keys(a), kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && equal(a[k], b[k]));
}
