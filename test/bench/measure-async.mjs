// Like lib.mjs's measure(), but without blocking the event loop: the sync bench serves the emulator from this
// same process while the CLI runs, which spawnSync would freeze.
import { spawn } from 'node:child_process';
import { withPeakRss } from './lib.mjs';

/** Run a command once; resolves {ms, rssMb, cpuMs, status, stdout, stderr} (rssMb, cpuMs: undefined without GNU time). */
export function measureAsync(command, args, options = {}) {
  const { cmd, argv, usage } = withPeakRss(command, args);
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const child = spawn(cmd, argv, { stdio: ['ignore', 'pipe', 'pipe'], ...options });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d) => {
      stdout += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (status) => {
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      resolve({ ms, ...usage(), status, stdout, stderr });
    });
  });
}
