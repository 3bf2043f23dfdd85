// Starting a local endpoint for a test: `tablescope serve` (target/debug/tablescope-serve, built
// by the test command's `cargo test --workspace`, or here if it is missing) or any command that
// listens on a port.

import { spawn, execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { REPO } from './lib.mjs';

export const ACCOUNT = 'devstoreaccount1';

/** Starts `command args` and resolves once `port` accepts connections; `stop()` ends it. */
export async function launch(command, args, port, cwd) {
  const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${command} exited: ${output}`);
    const up = await fetch(`http://127.0.0.1:${port}/`).then(() => true, () => false);
    if (up) break;
    if (Date.now() > deadline) throw new Error(`${command} is not listening: ${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    endpoint: `http://127.0.0.1:${port}/${ACCOUNT}`,
    output: () => output,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', resolve);
        child.kill('SIGTERM');
      }),
  };
}

/** The debug build of `tablescope serve`, built first if it is missing. */
export function serveBinary() {
  const bin = join(REPO, 'target', 'debug', 'tablescope-serve');
  if (!existsSync(bin)) {
    execFileSync('cargo', ['build', '-p', 'tablescope-serve'], { cwd: REPO, stdio: 'inherit' });
  }
  return bin;
}
