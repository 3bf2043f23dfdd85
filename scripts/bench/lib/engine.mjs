// The engine's lines of the side-by-side benchmark: the workload in-process,
// through the typed API or through Account::execute, natively (the engine-bench binary,
// built with the serve profile: opt-level 3, as `tablescope serve` ships) and in headless
// Chromium (the same code as a bare wasm module, built with the release profile as the
// playground ships: opt-level z, the engine crate too; Trunk's wasm-opt pass is not run). crates/bench holds the Rust side; a run returns the figures of
// lib/sdk.mjs's runWorkload, so the report treats these lines like the servers'.

import { spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import { chromium } from "playwright-core";

const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";

/** In-process: no client side (the report shows "none"). */
function inProcess(figures) {
  for (const phase of Object.values(figures.cpu)) phase.client = NaN;
  return figures;
}

/** Figures of one run of `plan` by the native binary `bin` along `path` ("typed"/"execute"). */
export function runNative(bin, path, plan) {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, [path], { stdio: ["pipe", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (chunk) => (out += chunk));
    child.on("error", reject);
    child.on("close", (code) => {
      try {
        const figures = JSON.parse(out);
        if (figures.error || code !== 0) {
          reject(new Error(`engine-bench ${path}: ${figures.error ?? `exit ${code}`}`));
        } else {
          resolve(inProcess(figures));
        }
      } catch (e) {
        reject(new Error(`engine-bench ${path}: exit ${code}, output ${out.slice(0, 200)}`));
      }
    });
    child.stdin.end(JSON.stringify(plan));
  });
}

/**
 * Figures of one run of `plan` by the wasm module at `wasmFile` along `path`, in a fresh
 * headless Chromium page (a fresh browser each run, as each server line gets a fresh process).
 */
export async function runWasm(wasmFile, path, plan) {
  const bytes = (await readFile(wasmFile)).toString("base64");
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--no-sandbox", "--headless=new", "--disable-gpu", "--disable-dev-shm-usage",
      "--disable-background-networking", "--disable-component-update", "--no-first-run"],
  });
  try {
    const page = await browser.newPage();
    const errors = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    await page.goto("about:blank");
    const out = await page.evaluate(
      async ({ bytes, plan, path }) => {
        const binary = Uint8Array.from(atob(bytes), (c) => c.charCodeAt(0));
        const { instance } = await WebAssembly.instantiate(binary, {
          env: { now: () => performance.now() },
        });
        const { memory, alloc, run, output_len: outputLen } = instance.exports;
        const input = new TextEncoder().encode(plan);
        const at = alloc(input.length);
        new Uint8Array(memory.buffer, at, input.length).set(input);
        const result = run(path === "typed" ? 0 : 1);
        return new TextDecoder().decode(new Uint8Array(memory.buffer, result, outputLen()));
      },
      { bytes, plan: JSON.stringify(plan), path },
    );
    if (errors.length) throw new Error(`wasm ${path}: ${errors.join("; ")}`);
    const figures = JSON.parse(out);
    if (figures.error) throw new Error(`wasm ${path}: ${figures.error}`);
    return inProcess(figures);
  } finally {
    await browser.close();
  }
}
