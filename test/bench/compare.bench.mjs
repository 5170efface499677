// npm run bench:compare [-- <git-ref>] — this working tree side by side with another commit (default HEAD^), on the
// same synthetic project in one run: `wfsync validate`, `wfsync plan` (every workflow to create: one GET each) and
// `wfsync sync` (create and verify every workflow) against the emulator served from this process without added
// latency, so the rows measure wfsync's own work, not the network. Prints each command's best wall time and peak RSS
// for both builds and the ratio (this tree / the other): a change that should not cost anything is held to ~1.00×.
//
// The other commit is checked out into a temporary git worktree and built there (its own dist/, our node_modules);
// this tree must be built already (`npm run build`). Runs are interleaved (base, ours, base, ours…) so a burst of
// load on a shared machine hurts both alike. Environment: BENCH_COUNT (files, default 2000), BENCH_RUNS (best of,
// default 5), BENCH_CONCURRENCY (target concurrency, default 16).
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { fmt, table } from './lib.mjs';
import { measureAsync } from './measure-async.mjs';
import { syntheticDefinition } from './synthetic.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const ref = process.argv[2] ?? 'HEAD^';
const count = Number(process.env.BENCH_COUNT ?? 2000);
const runs = Number(process.env.BENCH_RUNS ?? 5);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 16);

if (!existsSync(join(root, 'dist/cli.cjs'))) throw new Error('build this tree first: npm run build');
const { startEmulator } = await import(pathToFileURL(join(root, 'dist/emulator.js')).href);

/** The other commit, built in a temporary worktree that shares this tree's node_modules. */
function checkoutBase() {
  const dir = mkdtempSync(join(tmpdir(), 'wfsync-bench-base-'));
  const git = (...args) =>
    execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
  const commit = git('rev-parse', '--short', ref);
  git('worktree', 'add', '--detach', dir, commit);
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: dir, stdio: 'ignore' });
  return {
    commit,
    // The entry was bin/wfsync.js before the CLI became CommonJS.
    bin: ['bin/wfsync.cjs', 'bin/wfsync.js'].map((file) => join(dir, file)).find((file) => existsSync(file)),
    remove: () => git('worktree', 'remove', '--force', dir),
  };
}

function makeProject() {
  const dir = mkdtempSync(join(tmpdir(), 'wfsync-bench-compare-'));
  mkdirSync(join(dir, 'workflows'));
  for (let i = 0; i < count; i++)
    writeFileSync(join(dir, 'workflows', `wf-${i}.yaml`), syntheticDefinition(i));
  cpSync(join(root, 'schemas'), join(dir, 'schemas'), { recursive: true });
  return dir;
}

/** A fresh emulator and state for one run: plan sees every workflow missing, sync creates every one. */
async function withTarget(dir, fn) {
  const emulator = await startEmulator({ seed: 1 });
  rmSync(join(dir, '.wfsync'), { recursive: true, force: true });
  writeFileSync(
    join(dir, 'wfsync.config.yaml'),
    [
      'targets:',
      '  bench:',
      `    baseUrl: ${emulator.url}`,
      '    apiKeyEnv: BENCH_KEY',
      `    notificationGroupId: ${emulator.notificationGroupId}`,
      `    concurrency: ${concurrency}`,
      '    rateLimit: 100000',
      '',
    ].join('\n'),
  );
  try {
    return await fn(emulator);
  } finally {
    await emulator.close();
  }
}

const COMMANDS = [
  { name: 'validate', args: ['validate', '--format', 'json'], status: 0, target: false },
  { name: 'plan (all to create)', args: ['plan', '--quiet'], status: 2, target: true },
  { name: 'sync (create + verify)', args: ['sync', '--quiet'], status: 0, target: true },
];

async function runOnce(bin, dir, command) {
  const go = async (key) => {
    const env = { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', TZ: 'UTC', BENCH_KEY: key };
    const extra = command.target ? ['--target', 'bench'] : [];
    const r = await measureAsync(process.execPath, [bin, ...command.args, ...extra], { cwd: dir, env });
    if (r.status !== command.status) {
      throw new Error(
        `${bin} ${command.args.join(' ')} exited ${r.status}:\n${r.stdout.slice(-1500)}${r.stderr}`,
      );
    }
    return r;
  };
  return command.target ? withTarget(dir, (emulator) => go(emulator.apiKey)) : go('');
}

const base = checkoutBase();
const dir = makeProject();
try {
  const rows = [
    [
      'command',
      `${base.commit} ms`,
      'this tree ms',
      'ratio',
      `${base.commit} cpu ms`,
      'this tree cpu ms',
      'cpu ratio',
      `${base.commit} MB`,
      'this tree MB',
    ],
  ];
  for (const command of COMMANDS) {
    const best = { base: undefined, ours: undefined };
    for (let i = 0; i < runs; i++) {
      for (const [side, bin] of [
        ['base', base.bin],
        ['ours', join(root, 'bin/wfsync.cjs')],
      ]) {
        const r = await runOnce(bin, dir, command);
        const prev = best[side];
        const rssMb = Math.max(r.rssMb ?? 0, prev?.rssMb ?? 0) || undefined;
        // Wall time and CPU time are each the best of the runs (not necessarily the same run).
        const cpuMs = Math.min(r.cpuMs ?? Number.POSITIVE_INFINITY, prev?.cpuMs ?? Number.POSITIVE_INFINITY);
        const cpu = Number.isFinite(cpuMs) ? cpuMs : undefined;
        best[side] =
          !prev || r.ms < prev.ms ? { ms: r.ms, rssMb, cpuMs: cpu } : { ...prev, rssMb, cpuMs: cpu };
      }
    }
    rows.push([
      `${command.name}, ${count} files`,
      fmt(best.base.ms),
      fmt(best.ours.ms),
      `${(best.ours.ms / best.base.ms).toFixed(3)}×`,
      fmt(best.base.cpuMs),
      fmt(best.ours.cpuMs),
      best.base.cpuMs && best.ours.cpuMs ? `${(best.ours.cpuMs / best.base.cpuMs).toFixed(3)}×` : 'n/a',
      fmt(best.base.rssMb, 1),
      fmt(best.ours.rssMb, 1),
    ]);
  }
  console.log(table(rows));
  console.log(
    `\nbest of ${runs} interleaved runs each (wall and CPU time each the best of its runs; CPU = user + system of the` +
      ` wfsync process, the steadier figure on a shared machine); ratio = this tree / ${base.commit} (below 1 is faster)`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
  base.remove();
}
