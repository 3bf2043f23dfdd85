#!/usr/bin/env node
// The side-by-side benchmark of issues #11 and #16: the official JS SDK (@azure/data-tables)
// runs one workload (lib/workload.mjs) against Azurite and against tablescope serve, in memory
// and durable, each a fresh process, the servers alternated over three rounds; it prints a
// Markdown table (figures, and ratios against Azurite with min, median and max) with the
// machine and its load, and writes the raw figures as JSON under target/bench/.
//
// Run it with scripts/bench/run.sh (installs Azurite, builds tablescope serve). By hand:
//   node scripts/bench/sdk-vs-azurite.mjs [--serve-bin target/serve/tablescope-serve]
//        [--engine-bin target/serve/engine-bench]
//        [--engine-wasm target/wasm32-unknown-unknown/release/engine-bench.wasm]
//        [--quick] [--rounds N] [--only azurite,serve-memory,...] [--out DIR] [--floor]
//
// --engine-bin and --engine-wasm add the engine's four in-process lines (lib/engine.mjs):
// engine-native-typed, engine-native (Account::execute), engine-wasm-typed, engine-wasm.
//
// --floor adds a line against lib/floor-server.mjs, a server that answers with canned bytes and
// stores nothing: the SDK's own cost, which bounds what any server can reach through the SDK.
//
// A line is a target: `{ id, label, run(plan) }`, where run does the whole workload once on a
// fresh instance and returns the figures of lib/sdk.mjs's runWorkload (seconds per phase,
// memory after the load). The engine natively and in headless Chromium join as
// more targets taking the same `plan`, with no change to the rounds or the report.

import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { runWorkload } from "./lib/sdk.mjs";
import { probe, withAzurite, withFloor, withTablescope } from "./lib/servers.mjs";
import { cpuLines, figure, lines, markdown, pairRatios, summarise } from "./lib/report.mjs";
import { runNative, runWasm } from "./lib/engine.mjs";
import { FULL, QUICK, plan as makePlan } from "./lib/workload.mjs";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, "../..");

function parseArgs(argv) {
  const args = { quick: false, rounds: null, only: null, serveBin: null, out: null, floor: false,
    engineBin: null, engineWasm: null };
  for (let i = 0; i < argv.length; i++) {
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${argv[i - 1]} needs a value`);
      return v;
    };
    switch (argv[i]) {
      case "--quick": args.quick = true; break;
      case "--floor": args.floor = true; break;
      case "--rounds": args.rounds = Number(value()); break;
      case "--only": args.only = value().split(","); break;
      case "--serve-bin": args.serveBin = value(); break;
      case "--engine-bin": args.engineBin = value(); break;
      case "--engine-wasm": args.engineWasm = value(); break;
      case "--out": args.out = value(); break;
      default: throw new Error(`unknown argument ${argv[i]} (see the comment at the top)`);
    }
  }
  if (args.rounds !== null && !(Number.isInteger(args.rounds) && args.rounds > 0)) {
    throw new Error("--rounds needs a positive integer");
  }
  return args;
}

/** The package.json of the package that `specifier` resolves to from this script. */
function packageJson(specifier) {
  let dir = path.dirname(fileURLToPath(import.meta.resolve(specifier)));
  for (;;) {
    const file = path.join(dir, "package.json");
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, "utf8"));
      if (pkg.name === specifier) return { dir, pkg };
    }
    const up = path.dirname(dir);
    if (up === dir) throw new Error(`no package.json for ${specifier}`);
    dir = up;
  }
}

function git(...args) {
  try {
    return execFileSync("git", ["-C", ROOT, ...args], { encoding: "utf8" }).trim();
  } catch {
    return null;
  }
}

function machine() {
  const cpus = os.cpus();
  return {
    cpu: cpus[0]?.model.trim() ?? "unknown CPU",
    cores: cpus.length,
    memoryBytes: os.totalmem(),
    os: `${os.type()} ${os.release()}`,
  };
}

function targetsFor(args) {
  const azurite = packageJson("azurite");
  const azuriteMain = path.join(azurite.dir, azurite.pkg.bin["azurite-table"]);
  const all = [
    {
      id: "azurite",
      label: `Azurite ${azurite.pkg.version}, in memory`,
      run: (plan) =>
        withAzurite(azuriteMain, ({ url, pid }) => runWorkload(url, plan, probe(pid))),
    },
  ];
  // Absolute: each server runs in its own temporary working directory.
  const serve = args.serveBin && existsSync(args.serveBin) ? path.resolve(args.serveBin) : null;
  if (serve) {
    for (const durable of [false, true]) {
      all.push({
        id: durable ? "serve-durable" : "serve-memory",
        label: durable ? "tablescope serve, durable" : "tablescope serve, in memory",
        run: (plan) =>
          withTablescope(serve, durable, ({ url, pid }) => runWorkload(url, plan, probe(pid))),
      });
    }
  } else {
    console.error(
      `tablescope serve: no binary${args.serveBin ? ` at ${args.serveBin}` : " given"}; ` +
        "its two lines (in memory, durable) are skipped. Build it with " +
        "`cargo build --profile serve -p tablescope-serve` " +
        "and pass --serve-bin target/serve/tablescope-serve (scripts/bench/run.sh does both).",
    );
  }
  // The engine in-process: natively and in headless Chromium, each through the
  // typed API and through Account::execute.
  for (const [file, where, runner] of [
    [args.engineBin, "native", runNative],
    [args.engineWasm, "wasm", runWasm],
  ]) {
    if (!file) continue;
    if (!existsSync(file)) throw new Error(`engine ${where}: no ${file}`);
    const place = where === "native" ? "native, opt-level 3"
      : "wasm in Chromium, release profile";
    all.push(
      {
        id: `engine-${where}-typed`,
        label: `engine typed API (${place})`,
        run: (plan) => runner(path.resolve(file), "typed", plan),
      },
      {
        id: `engine-${where}`,
        label: `engine \`execute\` (${place})`,
        run: (plan) => runner(path.resolve(file), "execute", plan),
      },
    );
  }
  if (args.floor) {
    all.push({
      id: "floor",
      label: "SDK floor (canned answers, no storage)",
      run: (plan) => withFloor(plan, ({ url, pid }) => runWorkload(url, plan, probe(pid))),
    });
  }
  const chosen = args.only ? all.filter((t) => args.only.includes(t.id)) : all;
  if (chosen.length === 0) throw new Error(`--only matches none of ${all.map((t) => t.id)}`);
  return chosen;
}

function progress(target, round, rounds, run, plan) {
  const f = (x) => figure(x);
  console.error(
    `round ${round + 1}/${rounds} ${target.label}: ` +
      `insert ${f(run.insertSeconds)} s (${f(plan.entities / run.insertSeconds)} entities/s), ` +
      `point get ${f((run.pointGetSeconds / plan.pointGets.length) * 1e6)} µs, ` +
      `partition query ${f(run.partitionQuerySeconds * 1e3)} ms, ` +
      `table scan ${f(run.tableScanSeconds * 1e3)} ms in ${run.tableScanPages} pages, ` +
      `RSS ${f(run.memory.rssBytes / 2 ** 20)} MiB; server CPU: insert ` +
      `${f(run.cpu.insert.server)} s, gets ${f(run.cpu.pointGet.server)} s, ` +
      `partition ${f(run.cpu.partitionQuery.server * 1e3)} ms, ` +
      `scan ${f(run.cpu.tableScan.server * 1e3)} ms (load ${os.loadavg()[0].toFixed(2)})`,
  );
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const sizes = args.quick ? QUICK : FULL;
  const roundCount = args.rounds ?? (args.quick ? 1 : 3);
  const plan = makePlan(sizes);
  const targets = targetsFor(args);
  const sdk = packageJson("@azure/data-tables").pkg.version;
  const azurite = packageJson("azurite").pkg.version;
  const commit = git("rev-parse", "--short", "HEAD") ?? "unknown";
  const dirty = git("status", "--porcelain", "--untracked-files=no") ? "+changes" : "";

  const date = new Date().toISOString();
  const before = os.loadavg();
  let highest = before[0];
  const sampler = setInterval(() => (highest = Math.max(highest, os.loadavg()[0])), 2_000);
  const started = process.hrtime.bigint();
  const rounds = [];
  try {
    // The client's code is compiled on first use: a small workload, not recorded, against the
    // first target, so the first measured run does not pay for it.
    console.error(`client warm-up: a small workload against ${targets[0].label}, not recorded`);
    await targets[0].run(makePlan({ ...QUICK, partitions: 5, queryPasses: 2 }));
    for (let round = 0; round < roundCount; round++) {
      // Rotate the order each round, so no server always runs first (or after the same one).
      const order = targets.map((_, i) => targets[(i + round) % targets.length]);
      const results = {};
      for (const target of order) {
        const loadBefore = os.loadavg();
        const run = await target.run(plan);
        results[target.id] = { ...run, loadBefore, loadAfter: os.loadavg() };
        progress(target, round, roundCount, run, plan);
      }
      rounds.push(results);
    }
  } finally {
    clearInterval(sampler);
  }
  const after = os.loadavg();
  highest = Math.max(highest, after[0]);
  const wallSeconds = Number(process.hrtime.bigint() - started) / 1e9;

  const baselineId = targets.some((t) => t.id === "azurite") ? "azurite" : null;
  const summary = summarise(lines(plan), targets, rounds, baselineId);
  const cpu = summarise(cpuLines(plan), targets, rounds, baselineId);
  // The targets: execute within 1.25× of the typed API, wasm within 1.5× of native.
  const timeLines = lines(plan).filter((line) => line.id !== "memory");
  const pairs = pairRatios(timeLines, targets, rounds, [
    { of: "engine-native", against: "engine-native-typed", label: "native: execute ÷ typed",
      target: 1.25 },
    { of: "engine-wasm", against: "engine-wasm-typed", label: "wasm: execute ÷ typed",
      target: 1.25 },
    { of: "engine-wasm", against: "engine-native", label: "execute: wasm ÷ native",
      target: 1.5 },
  ]);
  const report = {
    date,
    machine: machine(),
    versions: {
      node: process.version,
      sdk,
      azurite,
      tablescope: `${commit}${dirty}`,
      serveBinary: targets.some((t) => t.id.startsWith("serve-")) ? args.serveBin : null,
    },
    load: { before, after, highest, wallSeconds },
    workload: { ...sizes, entities: plan.entities, partitionQuery: plan.partitionQuery,
      tableScan: plan.tableScan },
    targets: targets.map(({ id, label }) => ({ id, label })),
    rounds,
    summary,
    cpu,
    pairs,
  };
  const text = markdown({ ...report, plan, targets });
  const outDir = args.out ?? path.join(ROOT, "target", "bench");
  await mkdir(outDir, { recursive: true });
  const stamp = date.replace(/[:.]/g, "-");
  const jsonFile = path.join(outDir, `sdk-vs-azurite-${stamp}.json`);
  await writeFile(jsonFile, JSON.stringify(report, null, 2) + "\n");
  await writeFile(path.join(outDir, `sdk-vs-azurite-${stamp}.md`), text + "\n");
  console.log(text);
  const shown = path.relative(process.cwd(), jsonFile);
  console.error(`\nraw results: ${shown.startsWith("..") ? jsonFile : shown}`);
}

main().catch((error) => {
  console.error(error?.stack ?? error);
  process.exit(1);
});
