// The lean-client benchmark: the servers themselves, without the SDK's own CPU in the way.
// Azurite (in memory) and tablescope serve (in memory and durable) run side by side on
// loopback ports, each loaded with the SDK workload's entities (lib/workload.mjs); then
// autocannon (keep-alive, an account SAS in the URL, so no client-side signing) drives each
// line at 1 and 16 connections for a few seconds a cell, the servers alternated within every
// cell over the rounds. Server CPU is the server process's utime + stime from /proc over the
// cell, divided by the requests it answered: it holds even where the load generator, which
// shares the machine's cores, is the bottleneck.
//
//   node scripts/bench/serve-vs-azurite.mjs --serve-bin target/serve/tablescope-serve
//        [--rounds N] [--seconds S] [--connections 1,16] [--quick]
//        [--only azurite,serve-memory,serve-durable,serve-memory-1t,serve-durable-1t]
//        [--lines pointGet,partitionQuery,insert,scan]
//
// Run it through scripts/bench/lean.sh, which installs and builds what it needs.

import { createRequire } from "node:module";
import { mkdir, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { AzureNamedKeyCredential, TableClient, generateAccountSas } from "@azure/data-tables";
import { DEV_ACCOUNT, DEV_KEY } from "./lib/sdk.mjs";
import { cpuSeconds, residentBytes, withAzurite, withTablescope } from "./lib/servers.mjs";
import { median } from "./lib/report.mjs";
import { FULL, QUICK, SCAN_FILTER, TABLE, entity, partitionKey, rowKey } from "./lib/workload.mjs";

const require = createRequire(new URL("./lean/package.json", import.meta.url));
const autocannon = require("autocannon");
const AZURITE_MAIN = new URL("./node_modules/azurite/dist/src/table/main.js", import.meta.url)
  .pathname;

function parseArgs(argv) {
  const o = {
    serveBin: null,
    rounds: 2,
    seconds: 4,
    connections: [1, 16],
    quick: false,
    only: ["azurite", "serve-memory", "serve-durable"],
    lines: ["pointGet", "partitionQuery", "insert", "scan"],
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = () => argv[++i];
    if (a === "--serve-bin") o.serveBin = next();
    else if (a === "--rounds") o.rounds = Number(next());
    else if (a === "--seconds") o.seconds = Number(next());
    else if (a === "--connections") o.connections = next().split(",").map(Number);
    else if (a === "--quick") o.quick = true;
    else if (a === "--only") o.only = next().split(",");
    else if (a === "--lines") o.lines = next().split(",");
    else throw new Error(`unknown argument ${a}`);
  }
  if (o.serveBin) o.serveBin = path.resolve(o.serveBin);
  else o.only = o.only.filter((s) => s === "azurite");
  return o;
}

const opts = parseArgs(process.argv.slice(2));
const sizes = opts.quick ? QUICK : FULL;
const ENTITIES = sizes.partitions * sizes.perPartition;
const INSERT_TABLE = "LeanInserts";

const loadavg = () => os.loadavg().map((x) => x.toFixed(2)).join(" ");

/** An account SAS for everything, valid for a day: the same query string for every server. */
function accountSas() {
  const credential = new AzureNamedKeyCredential(DEV_ACCOUNT, DEV_KEY);
  const sas = generateAccountSas(credential, {
    expiresOn: new Date(Date.now() + 24 * 3600 * 1000),
    permissions: { query: true, add: true, update: true, delete: true, write: true, list: true, read: true, create: true },
    resourceTypes: "sco",
  });
  return sas.startsWith("?") ? sas.slice(1) : sas;
}

/** Loads the workload's entities through the SDK, a few batches in flight. */
async function load(url) {
  const credential = new AzureNamedKeyCredential(DEV_ACCOUNT, DEV_KEY);
  const options = { allowInsecureConnection: true, retryOptions: { maxRetries: 0 } };
  const client = new TableClient(url, TABLE, credential, options);
  await client.createTable();
  await new TableClient(url, INSERT_TABLE, credential, options).createTable();
  const batches = [];
  for (let p = 0; p < sizes.partitions; p++) {
    for (let first = 0; first < sizes.perPartition; first += sizes.batchSize) {
      const actions = [];
      for (let i = first; i < Math.min(first + sizes.batchSize, sizes.perPartition); i++) {
        actions.push(["create", entity(p, i)]);
      }
      batches.push(actions);
    }
  }
  let next = 0;
  const worker = async () => {
    while (next < batches.length) {
      const response = await client.submitTransaction(batches[next++]);
      if (response.status !== 202) throw new Error(`batch status ${response.status}`);
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
}

const HEADERS = {
  accept: "application/json;odata=nometadata",
  "x-ms-version": "2019-02-02",
  dataserviceversion: "3.0",
};

/** The request of each line, as autocannon's `setupRequest` (k counts the requests made). */
function requestsFor(line, prefix, sas) {
  let k = 0;
  const base = `/${prefix}`;
  switch (line) {
    case "pointGet":
      return (req) => {
        const n = (k++ * 7919) % ENTITIES;
        const pk = partitionKey(Math.floor(n / sizes.perPartition));
        const rk = rowKey(n % sizes.perPartition);
        return { ...req, method: "GET", path: `${base}/${TABLE}(PartitionKey='${pk}',RowKey='${rk}')?${sas}`, headers: HEADERS };
      };
    case "partitionQuery":
      return (req) => {
        const filter = encodeURIComponent(`PartitionKey eq '${partitionKey(k++ % sizes.partitions)}'`);
        return { ...req, method: "GET", path: `${base}/${TABLE}()?$filter=${filter}&${sas}`, headers: HEADERS };
      };
    case "insert": {
      // Keys unique to this process and cell, so no insert conflicts with an earlier one.
      const run = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
      return (req) => {
        const n = k++;
        const body = JSON.stringify({
          PartitionKey: `q${run}-${n % 100}`,
          RowKey: `r${String(n).padStart(8, "0")}`,
          Name: `Customer ${n}`,
          Bucket: n % 100,
          Balance: String(n * 97),
          "Balance@odata.type": "Edm.Int64",
          Score: n / 7,
          "Score@odata.type": "Edm.Double",
          Active: n % 3 === 0,
        });
        return {
          ...req,
          method: "POST",
          path: `${base}/${INSERT_TABLE}?${sas}`,
          headers: { ...HEADERS, "content-type": "application/json", prefer: "return-no-content" },
          body,
        };
      };
    }
    default:
      throw new Error(`no request for ${line}`);
  }
}

function fire(options) {
  return new Promise((resolve, reject) => {
    autocannon(options, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

/** One cell: `connections` keep-alive connections for `seconds` against one server. */
async function cell(server, line, connections) {
  const url = new URL(server.url);
  const cpu0 = await cpuSeconds(server.pid);
  const t0 = process.hrtime.bigint();
  const result = await fire({
    url: `${url.origin}`,
    connections,
    pipelining: 1,
    duration: opts.seconds,
    requests: [{ setupRequest: requestsFor(line, DEV_ACCOUNT, server.sas) }],
  });
  const wall = Number(process.hrtime.bigint() - t0) / 1e9;
  const cpu = (await cpuSeconds(server.pid)) - cpu0;
  const answered = result["2xx"] + result.non2xx;
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0) {
    throw new Error(
      `${server.name} ${line} x${connections}: ${result.non2xx} non-2xx, ${result.errors} errors, ` +
        `${result.timeouts} timeouts of ${answered}`,
    );
  }
  // autocannon's latencies are whole milliseconds: the mean comes from Little's law instead
  // (a closed loop: connections / rate), exact however short the requests.
  return {
    rps: answered / wall,
    meanMs: (connections / (answered / wall)) * 1e3,
    p99Ms: result.latency.p99,
    cpuUs: (cpu / answered) * 1e6,
    answered,
  };
}

/** The filtered scan `Bucket eq 42` over every page, one client: wall ms, server CPU ms, the
 * pages it took, and this client's own CPU ms per scan (fetch, reading and parsing the JSON):
 * the wall time cannot fall below the client's own work. */
async function scan(server) {
  const filter = encodeURIComponent(SCAN_FILTER);
  let pages = 0;
  const once = async () => {
    let next = "";
    let count = 0;
    pages = 0;
    for (;;) {
      pages += 1;
      const response = await fetch(`${server.url}/${TABLE}()?$filter=${filter}&${server.sas}${next}`, { headers: HEADERS });
      if (response.status !== 200) throw new Error(`${server.name} scan: status ${response.status}`);
      count += (await response.json()).value.length;
      const pk = response.headers.get("x-ms-continuation-nextpartitionkey");
      const rk = response.headers.get("x-ms-continuation-nextrowkey");
      if (!pk) break;
      next = `&NextPartitionKey=${encodeURIComponent(pk)}` + (rk ? `&NextRowKey=${encodeURIComponent(rk)}` : "");
    }
    if (count !== ENTITIES / 100) throw new Error(`${server.name} scan: ${count} entities, not ${ENTITIES / 100}`);
  };
  await once();
  // Wall time: the median pass. CPU: over all passes (/proc counts 10 ms ticks).
  const passes = 20;
  const walls = [];
  const clients = [];
  const cpu0 = await cpuSeconds(server.pid);
  for (let i = 0; i < passes; i++) {
    const c0 = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    await once();
    walls.push(Number(process.hrtime.bigint() - t0) / 1e6);
    const c = process.cpuUsage(c0);
    clients.push((c.user + c.system) / 1e3);
  }
  const cpuMs = (((await cpuSeconds(server.pid)) - cpu0) * 1e3) / passes;
  return { wallMs: median(walls), cpuMs, clientCpuMs: median(clients), pages };
}

const STARTERS = {
  azurite: (use) => withAzurite(AZURITE_MAIN, use),
  "serve-memory": (use) => withTablescope(opts.serveBin, false, use),
  "serve-durable": (use) => withTablescope(opts.serveBin, true, use),
  // On one thread (a current-thread runtime), to weigh what the other cores cost and give.
  "serve-memory-1t": (use) => withTablescope(opts.serveBin, false, use, ["--threads", "1"]),
  "serve-durable-1t": (use) => withTablescope(opts.serveBin, true, use, ["--threads", "1"]),
};

/** Starts every server (nested, so all run at once), loads each, then hands them to `use`. */
async function withAll(names, use, started = []) {
  if (names.length === 0) return use(started);
  const [name, ...rest] = names;
  return STARTERS[name](async ({ url, pid }) => {
    const t0 = Date.now();
    await load(url);
    const loadMs = Date.now() - t0;
    const rssMiB = (await residentBytes(pid)) / 2 ** 20;
    console.error(`${name}: loaded ${ENTITIES} entities in ${(loadMs / 1000).toFixed(1)} s; VmRSS ${rssMiB.toFixed(0)} MiB; load ${loadavg()}`);
    return withAll(rest, use, [...started, { name, url, pid, sas: accountSas(), rssMiB }]);
  });
}

const fmt = (x, digits = 0) =>
  x >= 100 ? Math.round(x).toLocaleString("en-US") : x.toFixed(x >= 10 ? Math.max(digits, 1) : 2);

function ratioText(values) {
  if (values.some((v) => !Number.isFinite(v) || v === 0)) return "—";
  const m = median(values);
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  return `${m.toFixed(1)}× (${lo.toFixed(1)}–${hi.toFixed(1)})`;
}

async function main() {
  const loadBefore = loadavg();
  const started = new Date().toISOString();
  const results = {}; // results[line][connections][server] = [cell per round]
  let scans = {}; // scans[server] = [per round]
  const rssMiB = {};
  await withAll(opts.only, async (servers) => {
    for (const s of servers) rssMiB[s.name] = s.rssMiB;
    for (let round = 0; round < opts.rounds; round++) {
      // Alternate: each round starts the rotation at another server.
      const order = servers.map((_, i) => servers[(i + round) % servers.length]);
      for (const line of opts.lines.filter((l) => l !== "scan")) {
        for (const c of opts.connections) {
          for (const server of order) {
            const r = await cell(server, line, c);
            ((results[line] ??= {})[c] ??= {})[server.name] ??= [];
            results[line][c][server.name].push(r);
            console.error(
              `round ${round + 1} ${line} x${c} ${server.name}: ${fmt(r.rps)} req/s, mean ${r.meanMs.toFixed(2)} ms, ` +
                `p99 ${r.p99Ms} ms, server CPU ${r.cpuUs.toFixed(1)} µs/req; load ${loadavg()}`,
            );
          }
        }
      }
      if (opts.lines.includes("scan")) {
        for (const server of order) {
          const r = await scan(server);
          (scans[server.name] ??= []).push(r);
          console.error(`round ${round + 1} scan ${server.name}: ${r.wallMs.toFixed(2)} ms wall, ${r.cpuMs.toFixed(1)} ms server CPU, ${r.clientCpuMs.toFixed(2)} ms client CPU, ${r.pages} pages`);
        }
      }
    }
  });
  const loadAfter = loadavg();

  const names = opts.only;
  const out = [];
  out.push(`Lean client (autocannon ${require("autocannon/package.json").version}, keep-alive, account SAS in the URL), ` +
    `${ENTITIES.toLocaleString("en-US")} entities in ${sizes.partitions} partitions; ${opts.seconds} s a cell, ` +
    `medians of ${opts.rounds} round(s), servers alternated; ${os.cpus().length} cores; ` +
    `1/5/15-minute load ${loadBefore} before, ${loadAfter} after; ${started}.`);
  out.push("");
  out.push("× Azurite: how many times better than Azurite (a higher rate, a lower latency or CPU), " +
    "the median of the rounds' paired ratios (min–max). Mean latency by Little's law (connections / rate).");
  out.push("");
  const baseline = names.includes("azurite") ? "azurite" : null;
  const header = ["line", ...names.flatMap((n) => (n === baseline || !baseline ? [n] : [n, "× Azurite"]))];
  out.push(`| ${header.join(" | ")} |`);
  out.push(`|${header.map(() => "---").join("|")}|`);
  const labels = { pointGet: "point get", partitionQuery: `partition query (${sizes.perPartition} entities)`, insert: "single-entity insert" };
  const metrics = [
    ["rps", "requests/s", true],
    ["meanMs", "mean latency (ms)", false],
    ["p99Ms", "p99 latency (ms, whole ms: 0 is under 1)", false],
    ["cpuUs", "server CPU per request (µs)", false],
  ];
  for (const line of Object.keys(results)) {
    for (const c of Object.keys(results[line])) {
      for (const [key, label, higher] of metrics) {
        const row = [`${labels[line]}, ${c} conn: ${label}`];
        const per = results[line][c];
        for (const n of names) {
          const values = per[n].map((r) => r[key]);
          row.push(fmt(median(values)));
          if (baseline && n !== baseline) {
            const ratios = per[n].map((r, i) => (higher ? r[key] / per[baseline][i][key] : per[baseline][i][key] / r[key]));
            row.push(ratioText(ratios));
          }
        }
        out.push(`| ${row.join(" | ")} |`);
      }
    }
  }
  if (Object.keys(scans).length) {
    for (const [key, label] of [["wallMs", "wall ms"], ["cpuMs", "server CPU ms"], ["clientCpuMs", "client CPU ms"], ["pages", "pages"]]) {
      const row = [`filtered scan \`${SCAN_FILTER}\`, all pages, one client: ${label}`];
      for (const n of names) {
        row.push(fmt(median(scans[n].map((r) => r[key]))));
        if (baseline && n !== baseline) {
          row.push(ratioText(scans[n].map((r, i) => scans[baseline][i][key] / r[key])));
        }
      }
      out.push(`| ${row.join(" | ")} |`);
    }
  }
  const row = ["resident memory after the load (MiB)"];
  for (const n of names) {
    row.push(fmt(rssMiB[n]));
    if (baseline && n !== baseline) row.push("");
  }
  out.push(`| ${row.join(" | ")} |`);
  const ins = results.insert;
  if (ins) {
    out.push("");
    for (const c of Object.keys(ins)) {
      if (ins[c]["serve-durable"] && ins[c]["serve-memory"]) {
        const ratios = ins[c]["serve-durable"].map((r, i) => r.rps / ins[c]["serve-memory"][i].rps);
        out.push(`Durable inserts at ${c} connection(s): ${(median(ratios) * 100).toFixed(0)}% of the in-memory rate ` +
          `(${(Math.min(...ratios) * 100).toFixed(0)}–${(Math.max(...ratios) * 100).toFixed(0)}%).`);
      }
    }
  }
  console.log(out.join("\n"));
  const dir = path.join(process.cwd(), "target", "bench");
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, `lean-${started.replace(/[:.]/g, "-")}.json`);
  await writeFile(file, JSON.stringify({ started, loadBefore, loadAfter, opts, sizes, results, scans, rssMiB }, null, 1));
  console.error(`raw figures: ${path.relative(process.cwd(), file)}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
