// Starting and stopping the servers the SDK workload runs against: Azurite's table service and
// tablescope serve, each on a free loopback port, each a fresh process per run, and their
// resident memory read from /proc.

import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";

const HOST = "127.0.0.1";
const KEEP_LINES = 40;

/** A port nothing listens on now (the OS picks it; a race with another program is unlikely). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, HOST, () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** VmRSS of a process, in bytes, from /proc/<pid>/status. */
export async function residentBytes(pid) {
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  const match = /^VmRSS:\s+(\d+)\s+kB$/m.exec(status);
  if (!match) throw new Error(`no VmRSS in /proc/${pid}/status`);
  return Number(match[1]) * 1024;
}

/**
 * CPU seconds (user + system) a process has used, from /proc/<pid>/stat (in clock ticks,
 * USER_HZ = 100 on Linux, so a resolution of 10 ms).
 */
export async function cpuSeconds(pid) {
  const stat = await readFile(`/proc/${pid}/stat`, "utf8");
  // Fields after the command name, which is in parentheses and may itself hold spaces.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  return (utime + stime) / 100;
}

/** What the workload reads of a server process: its memory and its CPU time. */
export function probe(pid) {
  return {
    memory: async () => ({ rssBytes: await residentBytes(pid) }),
    cpuSeconds: () => cpuSeconds(pid),
  };
}

function connects(port) {
  return new Promise((resolve) => {
    const socket = net.connect(port, HOST);
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/**
 * A child process whose output is drained (a full pipe would stall it) and whose last lines
 * are kept for the error message when it fails.
 */
function launch(label, command, args, cwd) {
  const child = spawn(command, args, { cwd, stdio: ["ignore", "pipe", "pipe"] });
  const tail = [];
  const keep = (chunk) => {
    for (const line of chunk.toString("utf8").split("\n")) {
      if (line.trim() === "") continue;
      tail.push(line);
      if (tail.length > KEEP_LINES) tail.shift();
    }
  };
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
  const exited = new Promise((resolve) => {
    child.once("exit", (code, signal) => resolve({ code, signal }));
    child.once("error", (error) => resolve({ code: null, signal: null, error }));
  });
  const describe = () => `${label} (${command} ${args.join(" ")})\n  ${tail.join("\n  ")}`;
  return { child, exited, describe };
}

async function waitUntilListening(server, port, timeoutMs = 30_000) {
  let done = null;
  server.exited.then((how) => (done = how));
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (done) {
      const why = done.error ? done.error.message : `exit code ${done.code}, signal ${done.signal}`;
      throw new Error(`${server.describe()}\nexited before listening: ${why}`);
    }
    if (await connects(port)) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${server.describe()}\nnot listening on ${HOST}:${port} after ${timeoutMs} ms`);
}

async function stop(server) {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return;
  server.child.kill("SIGTERM");
  const killed = setTimeout(() => server.child.kill("SIGKILL"), 10_000);
  await server.exited;
  clearTimeout(killed);
}

/**
 * Starts a server in a fresh temporary directory (its working directory), hands `{ url, pid }`
 * to `use`, then stops the server and removes the directory, whatever `use` did.
 */
async function withServer(label, command, argsFor, use) {
  const dir = await mkdtemp(path.join(os.tmpdir(), "tablescope-bench-"));
  const port = await freePort();
  const server = launch(label, command, argsFor(port, dir), dir);
  try {
    await waitUntilListening(server, port);
    try {
      return await use({ url: `http://${HOST}:${port}/devstoreaccount1`, pid: server.child.pid });
    } catch (error) {
      error.message += `\n--- last output of ${server.describe()}`;
      throw error;
    }
  } finally {
    await stop(server);
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Azurite's table-only service (`azurite-table`, run by this Node so the pid is the server's),
 * in memory, access log and telemetry off, API version check skipped and loose mode on (the
 * SDK's version is newer than some Azurite releases know). Azurite refuses --location with
 * --inMemoryPersistence, so its working directory is the temporary one: whatever it writes
 * there is removed after.
 */
export function withAzurite(azuriteMain, use) {
  return withServer(
    "azurite-table",
    process.execPath,
    (port) => [
      azuriteMain,
      "--tableHost", HOST,
      "--tablePort", String(port),
      "--inMemoryPersistence",
      "--skipApiVersionCheck",
      "--loose",
      "--silent",
      "--disableTelemetry",
    ],
    use,
  );
}

/**
 * tablescope serve (devstoreaccount1 with the development key by default): in memory, or
 * durable with its data in a fresh temporary directory; request log off, as Azurite's.
 * `extra`: more of its flags (`--threads 1`).
 */
export function withTablescope(bin, durable, use, extra = []) {
  return withServer(
    durable ? "tablescope serve (durable)" : "tablescope serve (in memory)",
    bin,
    (port, dir) => [
      "--host", HOST,
      "--port", String(port),
      ...(durable ? ["--location", dir] : ["--in-memory"]),
      "--silent",
      ...extra,
    ],
    use,
  );
}

/** The SDK-floor server (lib/floor-server.mjs): canned answers, no storage work. */
export function withFloor(plan, use) {
  const script = new URL("./floor-server.mjs", import.meta.url).pathname;
  return withServer(
    "floor server",
    process.execPath,
    (port) => [script, String(port), String(plan.partitions), String(plan.perPartition)],
    use,
  );
}
