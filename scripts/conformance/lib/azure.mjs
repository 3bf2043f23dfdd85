// Minimal Azure Table REST client for Azurite on 127.0.0.1, SharedKeyLite auth against
// the well-known devstoreaccount1 key. Plain node:http so every request goes out exactly as
// a scenario describes (raw entity JSON, literal If-Match values, multipart $batch).
import http from "node:http";
import crypto from "node:crypto";
import { wire } from "./json.mjs";

export const ACCOUNT = "devstoreaccount1";
const KEY = Buffer.from("Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==", "base64");
const JSON_MINIMAL = "application/json;odata=minimalmetadata";

export class Client {
  constructor({ host = "127.0.0.1", port = 10002 } = {}) {
    if (host !== "127.0.0.1") throw new Error("the recorder only talks to 127.0.0.1");
    this.host = host;
    this.port = port;
    this.base = `http://${host}:${port}/${ACCOUNT}`;
  }

  // path: after the account, already percent-encoded, e.g. "/Tables" or "/T(PartitionKey='a',RowKey='b')"
  request(method, path, { query = [], headers = {}, body } = {}) {
    const date = new Date().toUTCString();
    const fullPath = `/${ACCOUNT}${path}`;
    const comp = query.find(([k]) => k === "comp");
    const stringToSign = `${date}\n/${ACCOUNT}${fullPath}${comp ? "?comp=" + comp[1] : ""}`;
    const sig = crypto.createHmac("sha256", KEY).update(stringToSign, "utf8").digest("base64");
    const qs = query.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join("&");
    const buf = body === undefined ? undefined : Buffer.isBuffer(body) ? body : Buffer.from(body, "utf8");
    const h = {
      "x-ms-date": date,
      "x-ms-version": "2019-02-02",
      "DataServiceVersion": "3.0;NetFx",
      "MaxDataServiceVersion": "3.0;NetFx",
      "Accept": JSON_MINIMAL,
      "Authorization": `SharedKeyLite ${ACCOUNT}:${sig}`,
      ...headers,
    };
    if (buf) h["Content-Length"] = String(buf.length);
    return new Promise((resolve, reject) => {
      const req = http.request(
        { host: this.host, port: this.port, method, path: fullPath + (qs ? "?" + qs : ""), headers: h },
        (res) => {
          const chunks = [];
          res.on("data", (c) => chunks.push(c));
          res.on("end", () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") }));
          res.on("error", reject);
        },
      );
      req.on("error", reject);
      if (buf) req.write(buf);
      req.end();
    });
  }
}

// OData key literal inside a URL path: quotes doubled, then percent-encoded.
export function keyLiteral(s) {
  return encodeURIComponent(`'${s.replace(/'/g, "''")}'`).replace(/'/g, "%27");
}

export function entityPath(table, pk, rk) {
  return `/${encodeURIComponent(table)}(PartitionKey=${keyLiteral(pk)},RowKey=${keyLiteral(rk)})`;
}

// Builds an HTTP request description for one entity operation (also used inside $batch).
export function entityRequest(op, table, step) {
  const json = { "Content-Type": "application/json", "Accept": JSON_MINIMAL };
  const e = step.entity;
  const keysOf = () => {
    if (op === "delete" || op === "get") return [step.partitionKey, step.rowKey];
    return [e.PartitionKey, e.RowKey];
  };
  const ifMatch = (h) => {
    if (step.ifMatch !== undefined) h["If-Match"] = step.ifMatch;
    return h;
  };
  switch (op) {
    case "insert":
      return { method: "POST", path: `/${encodeURIComponent(table)}`, headers: { ...json, Prefer: "return-content" }, body: wire(e) };
    case "replace":
      return { method: "PUT", path: entityPathSafe(table, ...keysOf()), headers: ifMatch({ ...json }), body: wire(e) };
    case "merge":
      return { method: "MERGE", path: entityPathSafe(table, ...keysOf()), headers: ifMatch({ ...json }), body: wire(e) };
    case "upsertReplace":
      return { method: "PUT", path: entityPathSafe(table, ...keysOf()), headers: { ...json }, body: wire(e) };
    case "upsertMerge":
      return { method: "MERGE", path: entityPathSafe(table, ...keysOf()), headers: { ...json }, body: wire(e) };
    case "delete":
      return { method: "DELETE", path: entityPathSafe(table, ...keysOf()), headers: ifMatch({ Accept: JSON_MINIMAL }) };
    case "get": {
      const query = step.select ? [["$select", step.select.join(",")]] : [];
      return { method: "GET", path: entityPathSafe(table, ...keysOf()), headers: { Accept: JSON_MINIMAL }, query };
    }
    default:
      throw new Error(`not an entity operation: ${op}`);
  }
}

// An entity without keys (e.g. a PropertiesNeedValue test) still needs a URL for
// replace/merge: use empty keys, as a client library would send for a missing value.
function entityPathSafe(table, pk, rk) {
  return entityPath(table, typeof pk === "string" ? pk : "", typeof rk === "string" ? rk : "");
}

// multipart/mixed $batch body with one changeset (or a lone GET outside any changeset).
export function batchBody(base, table, operations) {
  const batchId = "batch_" + crypto.randomUUID();
  const csId = "changeset_" + crypto.randomUUID();
  const lines = [];
  const isRead = operations.length === 1 && operations[0].op === "get";
  const part = (op) => {
    const r = entityRequest(op.op, table, op);
    const q = (r.query || []).map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join("&");
    const out = [
      "Content-Type: application/http",
      "Content-Transfer-Encoding: binary",
      "",
      `${r.method} ${base}${r.path}${q ? "?" + q : ""} HTTP/1.1`,
    ];
    const headers = { ...r.headers, DataServiceVersion: "3.0;NetFx" };
    if (op.op !== "get" && op.op !== "delete") headers.Prefer = "return-no-content";
    for (const [k, v] of Object.entries(headers)) out.push(`${k}: ${v}`);
    out.push("");
    if (r.body !== undefined) out.push(r.body);
    return out;
  };
  if (isRead) {
    lines.push(`--${batchId}`, ...part(operations[0]), `--${batchId}--`, "");
  } else {
    lines.push(`--${batchId}`, `Content-Type: multipart/mixed; boundary=${csId}`, "");
    for (const op of operations) lines.push(`--${csId}`, ...part(op));
    lines.push(`--${csId}--`, `--${batchId}--`, "");
  }
  return { contentType: `multipart/mixed; boundary=${batchId}`, body: lines.join("\r\n") };
}
