// The workload through the official JS SDK (@azure/data-tables, from the repo's package.json)
// against a Table endpoint over HTTP. Every server line of the benchmark runs this function.

import { AzureNamedKeyCredential, TableClient, odata } from "@azure/data-tables";
import { median } from "./report.mjs";
import { entity } from "./workload.mjs";

// Azurite's and tablescope serve's development account (the well-known emulator key).
export const DEV_ACCOUNT = "devstoreaccount1";
export const DEV_KEY =
  "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

const seconds = (startNs) => Number(process.hrtime.bigint() - startNs) / 1e9;

function clientCpuSeconds() {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
}

const spent = (before, after) => ({
  server: after.server - before.server,
  client: after.client - before.client,
});

function check(what, actual, expected) {
  if (actual !== expected) {
    throw new Error(`${what}: expected ${expected}, got ${actual}`);
  }
}

/**
 * Runs the workload of `plan` against `http://host:port/devstoreaccount1`. `server` reads the
 * server process: `memory()` once the load is acknowledged, `cpuSeconds()` around each timed
 * phase (where the time went: the server's CPU against the phase's wall time, the rest being
 * the client's and the wait). Reads run once untimed, then timed: reads warm, as a user's
 * second query. The queries' figure is the median of plan.queryPasses timed passes.
 *
 * Returns seconds per phase; throws when a read returns other than the plan expects.
 */
export async function runWorkload(url, plan, server) {
  const credential = new AzureNamedKeyCredential(DEV_ACCOUNT, DEV_KEY);
  // No retries: a failed or throttled request must surface, not be hidden in a slower figure.
  const client = new TableClient(url, plan.table, credential, {
    allowInsecureConnection: true,
    retryOptions: { maxRetries: 0 },
  });
  await client.createTable();

  // Batches are built before the clock starts: the load times the SDK and the server only.
  const batches = [];
  for (let p = 0; p < plan.partitions; p++) {
    for (let first = 0; first < plan.perPartition; first += plan.batchSize) {
      const last = Math.min(first + plan.batchSize, plan.perPartition);
      const actions = [];
      for (let i = first; i < last; i++) actions.push(["create", entity(p, i)]);
      batches.push(actions);
    }
  }
  const cpu = async () => ({ server: await server.cpuSeconds(), client: clientCpuSeconds() });
  const cpuBefore = await cpu();
  const start = process.hrtime.bigint();
  for (const actions of batches) {
    const response = await client.submitTransaction(actions);
    check("batch status", response.status, 202);
  }
  const insert = seconds(start);
  const insertCpu = spent(cpuBefore, await cpu());
  const memory = await server.memory();

  const pointGet = async () => {
    for (const key of plan.pointGets) {
      const got = await client.getEntity(key.partitionKey, key.rowKey);
      check(`Bucket of ${key.partitionKey}/${key.rowKey}`, got.Bucket, key.bucket);
    }
  };
  const partitionQuery = async () => {
    const filter = odata`PartitionKey eq ${plan.partitionQuery.partitionKey}`;
    let count = 0;
    for await (const page of client.listEntities({ queryOptions: { filter } }).byPage()) {
      count += page.length;
    }
    check("partition query entities", count, plan.partitionQuery.expected);
  };
  const tableScan = async () => {
    const filter = plan.tableScan.filter;
    let count = 0;
    let pages = 0;
    for await (const page of client.listEntities({ queryOptions: { filter } }).byPage()) {
      count += page.length;
      pages += 1;
    }
    check("table scan entities", count, plan.tableScan.expected);
    return pages;
  };

  // One untimed pass, then `repeats` timed ones; the figure is their median (the 1,000 point
  // gets are one pass: they are many requests already).
  const timed = async (read, repeats) => {
    await read();
    const passes = [];
    let value;
    const before = await cpu();
    for (let r = 0; r < repeats; r++) {
      const t = process.hrtime.bigint();
      value = await read();
      passes.push(seconds(t));
    }
    const used = spent(before, await cpu());
    const perPass = { server: used.server / repeats, client: used.client / repeats };
    return { seconds: median(passes), passes, value, cpu: perPass };
  };
  const gets = await timed(pointGet, 1);
  const partition = await timed(partitionQuery, plan.queryPasses);
  const scan = await timed(tableScan, plan.queryPasses);

  return {
    insertSeconds: insert,
    pointGetSeconds: gets.seconds,
    partitionQuerySeconds: partition.seconds,
    partitionQueryPasses: partition.passes,
    tableScanSeconds: scan.seconds,
    tableScanPasses: scan.passes,
    tableScanPages: scan.value,
    memory,
    // CPU seconds of the server and of this client (the SDK), per phase (per pass for reads).
    cpu: { insert: insertCpu, pointGet: gets.cpu, partitionQuery: partition.cpu,
      tableScan: scan.cpu },
  };
}
