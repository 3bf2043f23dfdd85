// Turns the rounds' raw figures into medians and paired ratios, and writes the Markdown table.

/** The measured lines: how each figure is derived from a run, and which way is better. */
export function lines(plan) {
  const n = (x) => x.toLocaleString("en-US");
  return [
    {
      id: "insert",
      label: `insert, batches of ${plan.batchSize} (${n(plan.entities)} entities)`,
      unit: "entities/s",
      higherIsBetter: true,
      figure: (run) => plan.entities / run.insertSeconds,
    },
    {
      id: "pointGet",
      label: `point get (${n(plan.pointGets.length)} gets; time per get)`,
      unit: "µs",
      higherIsBetter: false,
      figure: (run) => (run.pointGetSeconds / plan.pointGets.length) * 1e6,
    },
    {
      id: "partitionQuery",
      label: `partition query (${n(plan.partitionQuery.expected)} entities)`,
      unit: "ms",
      higherIsBetter: false,
      figure: (run) => run.partitionQuerySeconds * 1e3,
    },
    {
      id: "tableScan",
      label: `table scan, \`${plan.tableScan.filter}\` (1%; entities scanned/s)`,
      unit: "entities/s",
      higherIsBetter: true,
      figure: (run) => plan.entities / run.tableScanSeconds,
    },
    {
      id: "memory",
      label: "resident memory after the load (VmRSS)",
      unit: "MiB",
      higherIsBetter: false,
      figure: (run) => run.memory.rssBytes / 2 ** 20,
    },
  ];
}

/**
 * CPU time per operation (from /proc and process.cpuUsage, the server's in 10 ms ticks summed
 * over the phase): what the server spends, without the SDK's cost or the wait for a busy
 * machine's cores; and what the client (the SDK) spends, which no server can take away, so
 * it bounds every ratio of the first table. The client's rows have no ratio.
 */
export function cpuLines(plan) {
  const phases = [
    ["insert", "insert", "per entity", "µs", (s) => (s / plan.entities) * 1e6],
    ["pointGet", "point get", "per get", "µs", (s) => (s / plan.pointGets.length) * 1e6],
    ["partitionQuery", "partition query", "per query", "ms", (s) => s * 1e3],
    ["tableScan", "table scan", "per scan", "ms", (s) => s * 1e3],
  ];
  const rows = [];
  for (const side of ["server", "client"]) {
    for (const [phase, name, per, unit, scale] of phases) {
      rows.push({
        id: `${phase}Cpu${side === "server" ? "Server" : "Client"}`,
        label: `${name}: ${side === "server" ? "server" : "client (SDK)"} CPU ${per}`,
        unit,
        higherIsBetter: false,
        noRatio: side === "client",
        figure: (run) => scale(run.cpu[phase][side]),
      });
    }
  }
  return rows;
}

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * Per line and target: the figure of every round, its median, and the ratio against the
 * baseline taken round by round (the baseline's run of the same round), so a round disturbed
 * by load elsewhere on the machine moves one ratio, not every median. Ratios read "N× better":
 * baseline time ÷ target time, target throughput ÷ baseline throughput, baseline memory ÷
 * target memory.
 */
export function summarise(lineSet, targets, rounds, baselineId) {
  return lineSet.map((line) => {
    const perTarget = {};
    for (const target of targets) {
      const figures = rounds.map((round) => line.figure(round[target.id]));
      const entry = { figures, median: median(figures) };
      if (baselineId && target.id !== baselineId && !line.noRatio) {
        // A figure of 0 (CPU time under one 10 ms tick) has no ratio.
        const ratios = rounds
          .map((round) => {
            const base = line.figure(round[baselineId]);
            const mine = line.figure(round[target.id]);
            return line.higherIsBetter ? mine / base : base / mine;
          })
          .filter((ratio) => Number.isFinite(ratio) && ratio > 0);
        entry.ratios = ratios;
        if (ratios.length > 0) {
          entry.ratio = {
            min: Math.min(...ratios),
            median: median(ratios),
            max: Math.max(...ratios),
          };
        }
      }
      perTarget[target.id] = entry;
    }
    return { id: line.id, label: line.label, unit: line.unit, targets: perTarget };
  });
}

/** Three significant digits, thousands grouped: 98,765 → "98,800"; 0.01234 → "0.0123". */
export function figure(value) {
  if (!Number.isFinite(value)) return String(value);
  if (value === 0) return "0";
  // Digits from the rounded value, so 9.9999 prints "10.0", not "10.00".
  const rounded = Number(value.toPrecision(3));
  const digits = Math.max(0, 2 - Math.floor(Math.log10(Math.abs(rounded))));
  return rounded.toLocaleString("en-US", {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
}

/** "4.4×" below 10, "42×" and "8,500×" above (two significant digits at least). */
export function times(ratio) {
  if (!Number.isFinite(ratio)) return String(ratio);
  if (ratio < 9.95) return `${ratio.toFixed(1)}×`;
  return `${Math.round(ratio).toLocaleString("en-US")}×`;
}

const gib = (bytes) => (bytes / 2 ** 30).toFixed(1);
const loads = (l) => l.map((x) => x.toFixed(2)).join(" / ");

/**
 * Ratios between two lines of the same round: `cost(of) ÷ cost(against)` per round, so 1.2× means `of`
 * takes 1.2 times as long (or as much memory, or 1.2 times fewer entities/s). Only pairs
 * whose two targets ran.
 */
export function pairRatios(lineSet, targets, rounds, pairs) {
  const ran = new Set(targets.map((t) => t.id));
  return pairs
    .filter((pair) => ran.has(pair.of) && ran.has(pair.against))
    .map((pair) => ({
      ...pair,
      lines: lineSet.map((line) => {
        const ratios = rounds.map((round) => {
          const a = line.figure(round[pair.of]);
          const b = line.figure(round[pair.against]);
          return line.higherIsBetter ? b / a : a / b;
        });
        return {
          id: line.id,
          label: line.label,
          ratios,
          min: Math.min(...ratios),
          median: median(ratios),
          max: Math.max(...ratios),
        };
      }),
    }));
}

function pairTable(pairs) {
  if (pairs.length === 0) return [];
  const header = ["line", ...pairs.map((p) => p.label)];
  const rows = [`| ${header.join(" | ")} |`, `|${header.map(() => "---").join("|")}|`];
  for (const [i, line] of pairs[0].lines.entries()) {
    const cells = pairs.map((p) => {
      const { min, median: mid, max } = p.lines[i];
      const x = (r) => `${r.toFixed(2)}×`;
      return `**${x(mid)}** (${x(min)}–${x(max)}), target ≤ ${p.target}×`;
    });
    rows.push(`| ${line.label} | ${cells.join(" | ")} |`);
  }
  return rows;
}

/** The Markdown block: a header with the machine and versions, then the tables. */
export function markdown({ date, machine, versions, plan, rounds, targets, summary, cpu, load,
  pairs = [] }) {
  const n = (x) => x.toLocaleString("en-US");
  const roundCount = `${rounds.length} round${rounds.length === 1 ? "" : "s"}`;
  const out = [];
  out.push(`### SDK workload: tablescope serve vs Azurite (${date.slice(0, 10)})`);
  out.push("");
  out.push(
    `Machine: ${machine.cpu}, ${machine.cores} cores, ${gib(machine.memoryBytes)} GiB RAM, ` +
      `${machine.os}. Node ${versions.node}, \`@azure/data-tables\` ${versions.sdk}, ` +
      `Azurite ${versions.azurite}, tablescope ${versions.tablescope}.`,
  );
  out.push(
    `Load average (1 / 5 / 15 min): ${loads(load.before)} before, ${loads(load.after)} after, ` +
      `highest 1-min ${load.highest.toFixed(2)} during the run (${roundCount}, ` +
      `${Math.round(load.wallSeconds)} s); the benchmark's own client and server account ` +
      `for up to 2 of it.`,
  );
  out.push("");
  out.push(
    `Workload, the same for every server, through the SDK (\`AzureNamedKeyCredential\`, ` +
      `devstoreaccount1, HTTP on loopback): ${n(plan.entities)} entities in ` +
      `${n(plan.partitions)} partitions inserted with \`submitTransaction\` in batches of ` +
      `${plan.batchSize}, one after another; ${n(plan.pointGets.length)} \`getEntity\` on ` +
      `seeded random keys; \`listEntities\` of one partition; \`listEntities\` with ` +
      `\`${plan.tableScan.filter}\` paged to the end. Reads warm: each read ran once before ` +
      `it was timed, and each query's time is the median of ${plan.queryPasses} timed passes. ` +
      `Each server a fresh process per round; ${roundCount}, servers alternated. Figures: ` +
      `median of the rounds. Ratios: **median** (min–max) over the rounds, each round against ` +
      `Azurite's run of the same round; N× = N times faster (N times less memory).`,
  );
  if (targets.some((t) => t.id.startsWith("engine-"))) {
    out.push("");
    out.push(
      "The engine's lines run the same plan in-process, no SDK and no HTTP (crates/bench): " +
        "natively the `engine-bench` binary built with the serve profile (opt-level 3), in " +
        "headless Chromium the same code as a bare wasm module built with the release profile " +
        "as the playground ships (opt-level z, the engine crate too; no wasm-opt pass). `typed` " +
        "goes through `Account::insert`, " +
        "`Account::get` and `query::execute_page`; `execute` through `Account::execute` with " +
        "the requests the UI sends (entities in their JSON form, batches of " +
        `${plan.batchSize}). Their memory is the process's VmRSS natively and the module's ` +
        "linear memory (its high-water mark) in wasm; their CPU rows are the engine's own " +
        "time (in-process, one thread). Each read kind first runs untimed for a second (in " +
        "the browser, time for its optimised code to be compiled, as by a user's second " +
        "query), then its 1,000 point gets are timed as " +
        `the median of ${plan.queryPasses} passes of ten laps each, its queries of fifty ` +
        "(a browser's clock steps by 100 µs). A fresh process or browser per run.",
    );
  }
  out.push("");
  out.push(...table(targets, summary));
  if (pairs.length > 0) {
    out.push("");
    out.push(
      "Ratios between lines of the same round: cost of the first ÷ cost of the " +
        "second (time, memory, or inverse throughput); **median** (min–max) over the rounds.",
    );
    out.push("");
    out.push(...pairTable(pairs));
  }
  out.push("");
  out.push(
    "Where the time goes: CPU time per operation, the server's (from /proc, in 10 ms ticks " +
      "summed over the phase) and the client's, the SDK's own cost, which no server can take " +
      "away and which bounds every ratio above.",
  );
  out.push("");
  out.push(...table(targets, cpu));
  return out.join("\n");
}

function table(targets, summary) {
  const header = ["line", ...targets.map((t) => t.label)];
  const rows = [`| ${header.join(" | ")} |`, `|${header.map(() => "---").join("|")}|`];
  for (const line of summary) {
    const cells = targets.map((target) => {
      const entry = line.targets[target.id];
      // An in-process line (the engine's) has no client and no HTTP.
      if (Number.isNaN(entry.median)) return "none (in-process)";
      // CPU time is counted in 10 ms ticks: a phase that used less reads as 0.
      if (entry.median === 0) return "under a 10 ms tick";
      const value = `${figure(entry.median)} ${line.unit}`;
      if (!entry.ratio) return value;
      if (entry.ratios.length < entry.figures.length) return `${value} · some rounds under a tick`;
      const { min, median: mid, max } = entry.ratio;
      return `${value} · **${times(mid)}** (${times(min)}–${times(max)})`;
    });
    rows.push(`| ${line.label} | ${cells.join(" | ")} |`);
  }
  return rows;
}
