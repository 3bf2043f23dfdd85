#!/usr/bin/env node
// Records the expectations of Tablescope's conformance scenarios from Azurite.
//
//   node scripts/conformance/record.mjs [files or folders...]   record (default: all of crates/engine/tests/conformance)
//   node scripts/conformance/record.mjs --check [files...]       validate only, no Azurite needed
//
// For each scenario the recorder starts from an empty account (it deletes every table),
// runs every step against Azurite (127.0.0.1:10002; started from node_modules for the run
// if nothing listens there) and rewrites the step's `expect` with what Azurite answered:
// status, code, messagePrefix (batch failures), entity (get/insert), entities/count/
// continuation (query) and tables (listTables). Fields only Tablescope can know (scanned,
// partitions, kind) are kept as written. Then the hand corrections of corrections.json
// (where Azurite differs from the service, docs/differences.md#where-azurite-differs-from-the-service) are applied on top, so a re-run never
// undoes them. Files listed there as handWritten are never recorded, only checked.
// Output: 2-space JSON, stable key order, trailing newline.
import fs from "node:fs";
import path from "node:path";
import net from "node:net";
import os from "node:os";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { parse, stringify, wire, equal, JNum } from "./lib/json.mjs";
import { Client, entityRequest, batchBody } from "./lib/azure.mjs";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, "../..");
const SCEN_DIR = path.join(ROOT, "crates/engine/tests/conformance");
const CORRECTIONS = path.join(HERE, "corrections.json");

// ---------------------------------------------------------------- format (docs/service/lessons.md)

const TOP_FIELDS = ["format", "name", "description", "steps"];
const COMMON = ["op", "note", "expect"];
const OPS = {
  createTable: { req: ["table"], opt: [] },
  deleteTable: { req: ["table"], opt: [] },
  listTables: { req: [], opt: ["filter", "top"] },
  insert: { req: ["table", "entity"], opt: [] },
  upsertReplace: { req: ["table", "entity"], opt: [] },
  upsertMerge: { req: ["table", "entity"], opt: [] },
  replace: { req: ["table", "entity", "ifMatch"], opt: [] },
  merge: { req: ["table", "entity", "ifMatch"], opt: [] },
  delete: { req: ["table", "partitionKey", "rowKey", "ifMatch"], opt: [] },
  get: { req: ["table", "partitionKey", "rowKey"], opt: ["select"] },
  query: { req: ["table"], opt: ["filter", "select", "top", "continuation", "pageBudget"] },
  batch: { req: ["table", "operations"], opt: [] },
};
const BATCH_OPS = ["insert", "upsertReplace", "upsertMerge", "replace", "merge", "delete", "get"];
const EXPECT_FIELDS = ["status", "code", "messagePrefix", "entity", "entities", "count", "continuation", "tables", "scanned", "partitions", "kind"];
const RECORDED = ["status", "code", "messagePrefix", "entity", "entities", "count", "continuation", "tables"];
const KINDS = ["point", "partitionRange", "partitionScan", "tableRange", "tableScan"];
const STEP_ORDER = ["op", "table", "partitionKey", "rowKey", "entity", "ifMatch", "filter", "select", "top", "continuation", "pageBudget", "operations", "note", "expect"];

function validate(doc, file, { requireExpect = true } = {}) {
  const errs = [];
  const err = (where, msg) => errs.push(`${file}: ${where}: ${msg}`);
  if (doc === null || typeof doc !== "object" || Array.isArray(doc)) return [`${file}: not a JSON object`];
  for (const k of Object.keys(doc)) if (!TOP_FIELDS.includes(k)) err("top", `unknown field "${k}"`);
  if (!(doc.format instanceof JNum) || doc.format.raw !== "1") err("top", "format must be 1");
  if (typeof doc.name !== "string" || !doc.name) err("top", "name must be a non-empty string");
  if (doc.description !== undefined && typeof doc.description !== "string") err("top", "description must be a string");
  if (!Array.isArray(doc.steps) || doc.steps.length === 0) { err("top", "steps must be a non-empty list"); return errs; }
  const isInt = (v) => v instanceof JNum && v.isInteger;
  const stepRef = (v, i) => v && typeof v === "object" && !Array.isArray(v) && Object.keys(v).length === 1 && isInt(v.step) && Number(v.step) >= 0 && Number(v.step) < i;
  const checkStep = (s, where, i, inBatch) => {
    if (s === null || typeof s !== "object" || Array.isArray(s)) return err(where, "step must be an object");
    const spec = OPS[s.op];
    if (!spec) return err(where, `unknown op ${JSON.stringify(s.op)}`);
    if (inBatch && !BATCH_OPS.includes(s.op)) err(where, `op ${s.op} is not allowed in a batch`);
    const req = inBatch ? spec.req.filter((f) => f !== "table") : spec.req;
    const allowed = [...COMMON, ...req, ...spec.opt];
    for (const k of Object.keys(s)) if (!allowed.includes(k)) err(where, `unknown field "${k}" for op ${s.op}`);
    for (const k of req) if (s[k] === undefined) err(where, `missing field "${k}" for op ${s.op}`);
    if (inBatch && s.table !== undefined) err(where, "batch operations carry no table");
    if (s.note !== undefined && typeof s.note !== "string") err(where, "note must be a string");
    if (s.table !== undefined && typeof s.table !== "string") err(where, "table must be a string");
    if (s.entity !== undefined && (s.entity === null || typeof s.entity !== "object" || Array.isArray(s.entity))) err(where, "entity must be an object");
    for (const k of ["partitionKey", "rowKey", "filter"]) if (s[k] !== undefined && typeof s[k] !== "string") err(where, `${k} must be a string`);
    if (s.select !== undefined && !(Array.isArray(s.select) && s.select.every((x) => typeof x === "string"))) err(where, "select must be a list of strings");
    if (s.top !== undefined && !isInt(s.top)) err(where, "top must be an integer");
    if (s.pageBudget !== undefined && !isInt(s.pageBudget)) err(where, "pageBudget must be an integer");
    if (s.ifMatch !== undefined && typeof s.ifMatch !== "string" && !stepRef(s.ifMatch, i)) err(where, 'ifMatch must be a string or {"step": N} with N an earlier step');
    if (s.continuation !== undefined) {
      const c = s.continuation;
      const tokenObj = c && typeof c === "object" && !Array.isArray(c) && Object.keys(c).length > 0 &&
        Object.keys(c).every((k) => ["nextPartitionKey", "nextRowKey"].includes(k) && (typeof c[k] === "string" || c[k] === null));
      if (!stepRef(c, i) && !tokenObj) err(where, 'continuation must be {"nextPartitionKey", "nextRowKey"} or {"step": N} with N an earlier step');
    }
    if (s.op === "batch") {
      if (!Array.isArray(s.operations) || s.operations.length === 0) err(where, "operations must be a non-empty list");
      else s.operations.forEach((o, j) => checkStep(o, `${where}.operations[${j}]`, i, true));
    }
    if (s.expect !== undefined) {
      const e = s.expect;
      if (e === null || typeof e !== "object" || Array.isArray(e)) return err(where, "expect must be an object");
      for (const k of Object.keys(e)) if (!EXPECT_FIELDS.includes(k)) err(where, `unknown expect field "${k}"`);
      if (e.status !== undefined && !isInt(e.status)) err(where, "expect.status must be an integer");
      if (e.code !== undefined && e.code !== null && typeof e.code !== "string") err(where, "expect.code must be a string or null");
      if (e.messagePrefix !== undefined && typeof e.messagePrefix !== "string") err(where, "expect.messagePrefix must be a string");
      for (const k of ["count", "scanned", "partitions"]) if (e[k] !== undefined && !isInt(e[k])) err(where, `expect.${k} must be an integer`);
      if (e.kind !== undefined && !KINDS.includes(e.kind)) err(where, `expect.kind must be one of ${KINDS.join(", ")}`);
      if (e.entities !== undefined && !Array.isArray(e.entities)) err(where, "expect.entities must be a list");
      if (e.entities && e.count !== undefined && Number(e.count) !== e.entities.length) err(where, "expect.count differs from the number of expect.entities");
      if (e.tables !== undefined && !(Array.isArray(e.tables) && e.tables.every((x) => typeof x === "string"))) err(where, "expect.tables must be a list of names");
      if (e.continuation !== undefined && typeof e.continuation !== "boolean" && (typeof e.continuation !== "object" || e.continuation === null)) err(where, "expect.continuation must be true/false or a token object");
    }
  };
  doc.steps.forEach((s, i) => {
    checkStep(s, `steps[${i}]`, i, false);
    if (!requireExpect) return;
    if (s && s.expect === undefined) err(`steps[${i}]`, "every conformance step carries an expect");
    else if (s && s.expect && (s.expect.status === undefined || !("code" in s.expect))) err(`steps[${i}]`, "expect needs at least status and code");
  });
  return errs;
}

// ---------------------------------------------------------------- canonical form

function canonStep(s) {
  const out = {};
  for (const k of STEP_ORDER) {
    if (s[k] === undefined) continue;
    if (k === "operations") out[k] = s[k].map(canonStep);
    else if (k === "expect") out[k] = canonExpect(s[k]);
    else out[k] = s[k];
  }
  for (const k of Object.keys(s)) if (!(k in out)) out[k] = s[k]; // unknown fields survive to fail validation
  return out;
}

function canonExpect(e) {
  const out = {};
  for (const k of EXPECT_FIELDS) if (e[k] !== undefined) out[k] = e[k];
  for (const k of Object.keys(e)) if (!(k in out)) out[k] = e[k];
  return out;
}

function canonDoc(doc) {
  const out = {};
  for (const k of TOP_FIELDS) if (doc[k] !== undefined) out[k] = k === "steps" ? doc.steps.map(canonStep) : doc[k];
  for (const k of Object.keys(doc)) if (!(k in out)) out[k] = doc[k];
  return out;
}

const write = (file, doc) => fs.writeFileSync(file, stringify(canonDoc(doc)) + "\n");

// An entity as the service's JSON form: odata.* and Timestamp dropped; Int32 as an integer,
// finite Double as a number with a decimal point, Int64/DateTime/Guid/Binary/non-finite
// Double as annotated strings.
function typedEntity(raw) {
  const out = {};
  for (const [k, v] of Object.entries(raw)) {
    if (k.startsWith("odata.") || k.includes("@odata.") || k === "Timestamp") continue;
    const t = raw[`${k}@odata.type`];
    if (v === null) { out[k] = null; continue; }
    if (t === "Edm.Double" || (t === undefined && v instanceof JNum && !v.isInteger)) {
      if (typeof v === "string") { out[k] = v; out[`${k}@odata.type`] = "Edm.Double"; }
      else out[k] = doubleLexeme(Number(v));
      continue;
    }
    if (t === undefined || t === "Edm.String" || t === "Edm.Boolean" || t === "Edm.Int32") { out[k] = v; continue; }
    out[k] = v;
    out[`${k}@odata.type`] = t;
  }
  return out;
}

function doubleLexeme(x) {
  if (!Number.isFinite(x)) return x; // cannot happen for a JSON number
  let s = String(x);
  if (Object.is(x, -0)) s = "-0";
  if (!s.includes(".")) s = s.includes("e") ? s.replace("e", ".0e") : s + ".0";
  return new JNum(s);
}

// ---------------------------------------------------------------- running against Azurite

function errorOf(body) {
  try {
    const j = JSON.parse(body);
    const e = j["odata.error"] || j.error;
    if (e) return { code: e.code, message: typeof e.message === "string" ? e.message : e.message?.value };
  } catch { /* not JSON */ }
  const m = /<Code>([^<]*)<\/Code>\s*<Message>([^<]*)/.exec(body);
  if (m) return { code: m[1], message: m[2] };
  return { code: "UnparsedError", message: body.slice(0, 200) };
}

function decodeToken(v) {
  return v === undefined ? undefined : Buffer.from(v, "base64").toString("utf8");
}
function encodeToken(v) {
  return Buffer.from(v, "utf8").toString("base64");
}

async function resetAccount(client) {
  for (;;) {
    const r = await client.request("GET", "/Tables");
    if (r.status !== 200) throw new Error(`listing tables failed: ${r.status} ${r.body}`);
    const names = JSON.parse(r.body).value.map((t) => t.TableName);
    if (names.length === 0) return;
    for (const n of names) {
      const d = await client.request("DELETE", `/Tables('${encodeURIComponent(n)}')`);
      if (d.status !== 204) throw new Error(`deleting table ${n} failed: ${d.status} ${d.body}`);
    }
  }
}

function resolveIfMatch(step, etags, file, i) {
  if (step.ifMatch === undefined || typeof step.ifMatch === "string") return step;
  const n = Number(step.ifMatch.step);
  if (etags[n] === undefined) throw new Error(`${file}: step ${i} uses the ETag of step ${n}, which returned none from Azurite`);
  return { ...step, ifMatch: etags[n] };
}

async function runStep(client, step, ctx, i) {
  const { etags, tokens, file } = ctx;
  const fail = (r) => { const e = errorOf(r.body); return { status: r.status, code: e.code, message: e.message }; };
  switch (step.op) {
    case "createTable": {
      const r = await client.request("POST", "/Tables", {
        headers: { "Content-Type": "application/json", Prefer: "return-content" },
        body: JSON.stringify({ TableName: step.table }),
      });
      return r.status < 300 ? { status: r.status, code: null } : fail(r);
    }
    case "deleteTable": {
      const r = await client.request("DELETE", `/Tables('${encodeURIComponent(step.table.replace(/'/g, "''"))}')`);
      return r.status < 300 ? { status: r.status, code: null } : fail(r);
    }
    case "listTables": {
      const query = [];
      if (step.filter !== undefined) query.push(["$filter", step.filter]);
      if (step.top !== undefined) query.push(["$top", step.top.raw]);
      const r = await client.request("GET", "/Tables", { query });
      if (r.status >= 300) return fail(r);
      return { status: r.status, code: null, tables: JSON.parse(r.body).value.map((t) => t.TableName) };
    }
    case "query": {
      const query = [];
      if (step.filter !== undefined) query.push(["$filter", step.filter]);
      if (step.select !== undefined) query.push(["$select", step.select.join(",")]);
      if (step.top !== undefined) query.push(["$top", step.top.raw]);
      if (step.continuation !== undefined) {
        let tok = step.continuation;
        if (tok.step !== undefined) {
          tok = tokens[Number(tok.step)];
          if (!tok) throw new Error(`${file}: step ${i} continues the query of step ${tok}, which returned no token`);
        } else {
          tok = {
            pk: typeof tok.nextPartitionKey === "string" ? encodeToken(tok.nextPartitionKey) : undefined,
            rk: typeof tok.nextRowKey === "string" ? encodeToken(tok.nextRowKey) : undefined,
          };
        }
        if (tok.pk !== undefined) query.push(["NextPartitionKey", tok.pk]);
        if (tok.rk !== undefined) query.push(["NextRowKey", tok.rk]);
      }
      const r = await client.request("GET", `/${encodeURIComponent(step.table)}()`, { query });
      if (r.status >= 300) return fail(r);
      const value = parse(r.body, "azurite response").value;
      const pk = r.headers["x-ms-continuation-nextpartitionkey"];
      const rk = r.headers["x-ms-continuation-nextrowkey"];
      if (pk !== undefined || rk !== undefined) tokens[i] = { pk, rk, decoded: { nextPartitionKey: decodeToken(pk), nextRowKey: decodeToken(rk) } };
      const entities = value.map(typedEntity);
      return { status: r.status, code: null, entities, count: new JNum(String(entities.length)), continuation: tokens[i] !== undefined };
    }
    case "batch": {
      const ops = step.operations.map((o, j) => resolveIfMatch(o, etags, file, `${i}.operations[${j}]`));
      const { contentType, body } = batchBody(client.base, step.table, ops);
      const r = await client.request("POST", "/$batch", { headers: { "Content-Type": contentType }, body });
      if (r.status >= 300) { const f = fail(r); return { ...f, messagePrefix: prefixOf(f.message) }; }
      const parts = [...r.body.matchAll(/HTTP\/1\.1 (\d{3})[^\r\n]*\r?\n([\s\S]*?)(?=\r?\n--|$)/g)];
      const bad = parts.find((p) => Number(p[1]) >= 300);
      if (bad) {
        const jsonStart = bad[2].indexOf("{");
        const e = errorOf(jsonStart >= 0 ? bad[2].slice(jsonStart) : bad[2]);
        return { status: Number(bad[1]), code: e.code, message: e.message, messagePrefix: prefixOf(e.message) };
      }
      return { status: r.status, code: null };
    }
    default: {
      const s = resolveIfMatch(step, etags, file, i);
      const q = entityRequest(s.op, s.table, s);
      const r = await client.request(q.method, q.path, q);
      if (r.headers.etag) etags[i] = r.headers.etag;
      if (r.status >= 300) return fail(r);
      const out = { status: r.status, code: null };
      if ((s.op === "get" || s.op === "insert") && r.body) out.entity = typedEntity(parse(r.body, "azurite response"));
      return out;
    }
  }
}

function prefixOf(message) {
  const m = /^(\d+):/.exec(message || "");
  return m ? m[0] : undefined;
}

async function recordFile(client, file, corrections) {
  const rel = path.relative(ROOT, file).split(path.sep).join("/");
  const doc = parse(fs.readFileSync(file, "utf8"), rel);
  const errs = validate(doc, rel, { requireExpect: false });
  if (errs.length) throw new Error(errs.join("\n"));
  await resetAccount(client);
  const ctx = { etags: {}, tokens: {}, file: rel };
  const warnings = [];
  const fixes = corrections.files[rel] || {};
  for (const [i, step] of doc.steps.entries()) {
    const got = await runStep(client, step, ctx, i);
    const old = step.expect || {};
    const e = {};
    for (const k of Object.keys(old)) if (!RECORDED.includes(k)) e[k] = old[k];
    e.status = new JNum(String(got.status));
    e.code = got.code;
    if (got.status >= 300 && step.op === "batch" && got.messagePrefix !== undefined) e.messagePrefix = got.messagePrefix;
    for (const k of ["entity", "entities", "count", "continuation", "tables"]) if (got[k] !== undefined) e[k] = got[k];
    const fix = fixes[String(i)];
    if (fix) {
      const az = fix.azurite || {};
      for (const [k, v] of Object.entries(az)) {
        const actual = k === "status" ? got.status : k === "message" ? got.message : got[k];
        const same = k === "status" ? Number(v) === actual : equal(v, actual);
        if (!same) warnings.push(`${rel} step ${i}: corrections.json says Azurite answered ${k}=${JSON.stringify(wire(v))}, it now answers ${JSON.stringify(k === "status" || typeof actual === "string" || actual == null ? actual : wire(actual))}`);
      }
      const before = { ...e };
      for (const k of fix.drop || []) delete e[k];
      for (const [k, v] of Object.entries(fix.expect || {})) e[k] = v;
      if (equal(before, e)) warnings.push(`${rel} step ${i}: correction is redundant, Azurite already answers that`);
    }
    step.expect = e;
    ctx.log = ctx.log || [];
    ctx.log.push(`  [${i}] ${step.op} → ${got.status} ${got.code ?? ""}${got.message && got.status >= 300 ? " " + JSON.stringify(got.message.split("\n")[0].slice(0, 120)) : ""}${fix ? "  (corrected)" : ""}`);
  }
  for (const k of Object.keys(fixes)) if (!(Number(k) < doc.steps.length)) warnings.push(`${rel}: corrections.json names step ${k}, which does not exist`);
  write(file, doc);
  return { rel, log: ctx.log, warnings };
}

// ---------------------------------------------------------------- check mode

function checkFile(file, corrections) {
  const rel = path.relative(ROOT, file).split(path.sep).join("/");
  let doc;
  try { doc = parse(fs.readFileSync(file, "utf8"), rel); } catch (e) { return [String(e.message)]; }
  const errs = validate(doc, rel);
  const fixes = corrections.files[rel] || {};
  for (const [i, fix] of Object.entries(fixes)) {
    const e = doc.steps?.[Number(i)]?.expect;
    if (!e) { errs.push(`${rel}: corrections.json names step ${i}, which has no expect`); continue; }
    for (const [k, v] of Object.entries(fix.expect || {})) if (!equal(e[k], v)) errs.push(`${rel} step ${i}: expect.${k} differs from corrections.json (re-record or fix the sidecar)`);
    for (const k of fix.drop || []) if (e[k] !== undefined) errs.push(`${rel} step ${i}: expect.${k} should be dropped per corrections.json`);
  }
  if (Object.keys(fixes).length && !/Corrected from Azurite/.test(doc.description || "")) errs.push(`${rel}: has corrections but its description does not say "Corrected from Azurite"`);
  if (corrections.handWritten[rel] && !/hand-written|SPEC-only/i.test(doc.description || "")) errs.push(`${rel}: hand-written file should say so in its description`);
  const canon = stringify(canonDoc(doc)) + "\n";
  if (!errs.length && canon !== fs.readFileSync(file, "utf8")) errs.push(`${rel}: not in canonical form (run record.mjs --format ${rel})`);
  return errs;
}

// ---------------------------------------------------------------- main

function listScenarios(args) {
  const out = [];
  const walk = (p) => {
    const st = fs.statSync(p);
    if (st.isDirectory()) for (const n of fs.readdirSync(p).sort()) walk(path.join(p, n));
    else if (p.endsWith(".json")) out.push(p);
  };
  for (const a of args.length ? args : [SCEN_DIR]) walk(path.resolve(a));
  return out;
}

function loadCorrections() {
  const c = fs.existsSync(CORRECTIONS) ? parse(fs.readFileSync(CORRECTIONS, "utf8"), "corrections.json") : {};
  return { handWritten: c.handWritten || {}, files: c.files || {} };
}

function portOpen(port) {
  return new Promise((resolve) => {
    const s = net.connect({ host: "127.0.0.1", port }, () => { s.end(); resolve(true); });
    s.on("error", () => resolve(false));
  });
}

async function withAzurite(port, fn) {
  if (await portOpen(port)) return fn();
  const bin = path.join(HERE, "node_modules/.bin/azurite-table");
  if (!fs.existsSync(bin)) throw new Error("Azurite is not installed: run `npm ci` in scripts/conformance");
  const cwd = fs.mkdtempSync(path.join(os.tmpdir(), "azurite-"));
  const child = spawn(bin, ["--tableHost", "127.0.0.1", "--tablePort", String(port), "--inMemoryPersistence",
    "--skipApiVersionCheck", "--loose", "--disableTelemetry", "--silent"], { stdio: "ignore", cwd });
  try {
    for (let t = 0; t < 100 && !(await portOpen(port)); t++) await new Promise((r) => setTimeout(r, 100));
    return await fn();
  } finally {
    const exited = new Promise((r) => child.once("exit", r));
    child.kill("SIGTERM");
    await Promise.race([exited, new Promise((r) => setTimeout(r, 3000))]);
    fs.rmSync(cwd, { recursive: true, force: true });
  }
}

async function main() {
  const argv = process.argv.slice(2);
  const flags = new Set(argv.filter((a) => a.startsWith("--")));
  const args = argv.filter((a) => !a.startsWith("--"));
  const corrections = loadCorrections();
  const files = listScenarios(args);
  if (flags.has("--format")) {
    for (const f of files) write(f, parse(fs.readFileSync(f, "utf8"), f));
    return;
  }
  if (flags.has("--check")) {
    const errs = files.flatMap((f) => checkFile(f, corrections));
    for (const rel of [...Object.keys(corrections.files), ...Object.keys(corrections.handWritten)])
      if (!fs.existsSync(path.join(ROOT, rel))) errs.push(`corrections.json names ${rel}, which does not exist`);
    for (const e of errs) console.error(e);
    console.log(`${files.length - new Set(errs.map((e) => e.split(":")[0])).size} passed, ${new Set(errs.map((e) => e.split(":")[0])).size} failed`);
    process.exit(errs.length ? 1 : 0);
  }
  const port = 10002;
  const client = new Client({ port });
  const warnings = [];
  await withAzurite(port, async () => {
    for (const f of files) {
      const rel = path.relative(ROOT, f).split(path.sep).join("/");
      if (corrections.handWritten[rel]) { console.log(`${rel}: hand-written (${corrections.handWritten[rel]}), not recorded`); continue; }
      const r = await recordFile(client, f, corrections);
      console.log(r.rel);
      if (flags.has("--verbose") || flags.has("-v")) for (const l of r.log) console.log(l);
      warnings.push(...r.warnings);
    }
    await resetAccount(client);
  });
  for (const w of warnings) console.warn("warning: " + w);
  const bad = files.flatMap((f) => checkFile(f, corrections));
  for (const e of bad) console.error(e);
  if (bad.length) process.exit(1);
}

main().catch((e) => { console.error(e.stack || String(e)); process.exit(1); });
