// Like lib.mjs's measure(), but without blocking the event loop: the sync bench serves the emulator from this
// same process while the CLI runs, which spawnSync would freeze.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const GNU_TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;

/** Run a command once; resolves {ms, rssMb, status, stdout, stderr}. rssMb is undefined without GNU time. */
export function measureAsync(command, args, options = {}) {
  const rssFile = join(tmpdir(), `wfsync-bench-rss-${process.pid}-${Math.random().toString(16).slice(2)}`);
  const [cmd, argv] = GNU_TIME ? [GNU_TIME, ['-f', '%M', '-o', rssFile, command, ...args]] : [command, args];
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
      let rssMb;
      if (GNU_TIME && existsSync(rssFile)) {
        // GNU time prints "Command exited with non-zero status N" before the number when the command fails.
        const kb = Number(readFileSync(rssFile, 'utf8').trim().split('\n').pop());
        rssMb = kb / 1024;
        rmSync(rssFile, { force: true });
      }
      resolve({ ms, rssMb, status, stdout, stderr });
    });
  });
}
