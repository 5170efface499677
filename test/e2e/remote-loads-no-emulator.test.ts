/**
 * A run against a remote target loads no emulator code: the embedded service is imported only for the `local` target
 * (src/remote/target-session.ts). Seen in the built CLI, spawned with a probe preloaded that notes every file of dist/
 * it reads or compiles, whichever loader does it (the compile cache's or Node's require); a loaded file holds emulator
 * code when it holds a text only the emulator has (the prefix of the keys it makes up).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli } from './helpers.js';
import { startTarget } from './plan-sync-target.js';

const DIST = join(ROOT, 'dist');
/** Written only by the emulator (src/emulator/server.ts): the key it makes up when given none. */
const EMULATOR_MARK = 'wfs_local_';

const PROBE = `const fs = require('node:fs');
const { writeFileSync } = fs;
const Module = require('node:module');
const dist = ${JSON.stringify(DIST)};
const seen = new Set();
const note = (file) => { if (typeof file === 'string' && file.startsWith(dist)) seen.add(file); };
const readFileSync = fs.readFileSync;
fs.readFileSync = function (file, ...rest) { note(file); return readFileSync.call(this, file, ...rest); };
const compile = Module.prototype._compile;
Module.prototype._compile = function (content, file) { note(file); return compile.call(this, content, file); };
process.on('exit', () => {
  writeFileSync(process.env.WFSYNC_TEST_LOADED, [...seen].join('\\n'));
  writeFileSync(process.env.WFSYNC_TEST_LOADED + '.builtins', process.moduleLoadList.join('\\n'));
});
`;

/** The files of dist/ a run read, and those of them holding emulator code. */
function loadedFiles(out: string): { files: string[]; emulator: string[] } {
  const files = readFileSync(out, 'utf8').split('\n').filter(Boolean);
  const emulator = files.filter(
    (file) => file.endsWith('.cjs') && readFileSync(file, 'utf8').includes(EMULATOR_MARK),
  );
  return { files, emulator };
}

function probeEnv(cwd: string): Record<string, string> {
  const probe = join(cwd, 'probe.cjs');
  writeFileSync(probe, PROBE);
  return {
    NODE_OPTIONS: `--require ${JSON.stringify(probe)}`,
    WFSYNC_TEST_LOADED: join(cwd, 'loaded.txt'),
  };
}

describe('the emulator is loaded only for the local target', () => {
  it('a remote plan and a remote sync --dry-run load no emulator code', async () => {
    const target = await startTarget();
    const env = probeEnv(target.cwd);
    for (const args of [['plan'], ['sync', '--dry-run']]) {
      const run = await target.run([...args, '--quiet'], env);
      expect(run.status, run.stderr).toBe(2);
      expect(run.requests.length).toBeGreaterThan(0);
      const { files, emulator } = loadedFiles(env.WFSYNC_TEST_LOADED as string);
      // The probe saw the run: the CLI's own chunks were read.
      expect(files.some((file) => file.endsWith('cli.cjs'))).toBe(true);
      expect(emulator, args.join(' ')).toEqual([]);
      // Only the undici it uses (src/remote/undici.ts): not its fetch (Node's own undici), nor its HTTP/2 client.
      const builtins = readFileSync(`${env.WFSYNC_TEST_LOADED}.builtins`, 'utf8').split('\n');
      expect(builtins).toContain('NativeModule http');
      expect(builtins).not.toContain('NativeModule http2');
      expect(builtins).not.toContain('NativeModule internal/deps/undici/undici');
    }
  });

  it('a plan of the local target loads it (the probe can tell)', async () => {
    const target = await startTarget();
    const env = probeEnv(target.cwd);
    const run = await runCli(['plan', '--quiet', '--target', 'local'], { cwd: target.cwd, env });
    expect(run.status, run.stderr).toBe(2);
    expect(loadedFiles(env.WFSYNC_TEST_LOADED as string).emulator).not.toEqual([]);
  });
});
