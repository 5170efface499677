// npm run bench:validate — wfsync validate (as by default, the other way — worker threads on or off — and warm with
// --cache) vs ajv-cli vs the floor (yaml.parse + compiled ajv, no positions/rules), on 1,000 and 10,000 synthetic
// definitions that must all be valid without a warning; then `wfsync --version` vs `node -e 0`. Prints files/s, peak
// RSS, ratios.
// Goals (issue 2): wfsync ≥ ajv-cli speed, ≤ 1.5× the floor, 10,000 files < 3 s, --version ≤ 2× node -e 0.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bestInterleaved, fmt, measure, median, table } from './lib.mjs';
import { syntheticDefinition } from './synthetic.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const wfsync = join(root, 'bin/wfsync.js');
const ajvCli = join(root, 'node_modules/ajv-cli/dist/index.js');
const floor = join(root, 'test/bench/floor-validate.mjs');
const schema = join(root, 'schemas/workflow.schema.json');
const runs = Number(process.env.BENCH_RUNS ?? 3);

/** One timed `wfsync validate --format json`; the run fails unless wfsync found nothing at all to report. */
function runWfsync(workflows, cwd, env, extra = []) {
  const run = measure(process.execPath, [wfsync, 'validate', workflows, '--format', 'json', ...extra], {
    cwd,
    // The defaults unless a row says otherwise, whatever this shell has set.
    env: { ...process.env, WFSYNC_WORKERS: '', WFSYNC_WORKERS_MIN_FILES: '', ...env },
  });
  let diagnostics;
  try {
    diagnostics = JSON.parse(run.stdout).diagnostics;
  } catch {
    diagnostics = undefined;
  }
  if (run.status !== 0 || !Array.isArray(diagnostics) || diagnostics.length > 0) {
    throw new Error(
      `wfsync validate must accept the synthetic files without a finding (exit ${run.status}):\n` +
        `${run.stdout.slice(0, 2000)}${run.stderr}`,
    );
  }
  return run;
}

/** Whether wfsync, left to its defaults, checks these files with worker threads: as its --verbose line says. */
function usesWorkersByDefault(workflows, cwd) {
  const { stderr } = runWfsync(workflows, cwd, {}, ['--verbose']);
  const line = /^wfsync: checked .* on the main thread(?: and (\d+) worker threads?)?$/m.exec(stderr);
  if (!line) throw new Error(`wfsync --verbose did not say which threads checked the files:\n${stderr}`);
  return line[1] !== undefined;
}

const rows = [['files', 'tool', 'wall ms', 'files/s', 'peak RSS MB', 'vs floor', 'vs ajv-cli']];
for (const count of [1_000, 10_000]) {
  const dir = mkdtempSync(join(tmpdir(), 'wfsync-bench-validate-'));
  const workflows = join(dir, 'workflows');
  mkdirSync(workflows);
  for (let i = 0; i < count; i++) writeFileSync(join(workflows, `wf-${i}.yaml`), syntheticDefinition(i));

  const byDefault = usesWorkersByDefault(workflows, dir); // worker threads on, by default
  // Warm: the cache already holds every file (filled here, untouched by the timed runs), as in a repeated local run.
  const cache = ['--cache', '--cache-location', join(dir, 'validate-cache.json')];
  runWfsync(workflows, dir, {}, cache);
  // Interleaved rounds (each tool once per round, best of the rounds): a burst of load on a shared machine then
  // hurts every tool's round alike instead of all runs of one tool.
  const [ours, other, warm, ajv, bare] = bestInterleaved(runs, [
    () => runWfsync(workflows, dir, {}),
    // The other choice than the default for this many files: what worker threads bring, or would cost.
    () => runWfsync(workflows, dir, byDefault ? { WFSYNC_WORKERS: '0' } : { WFSYNC_WORKERS_MIN_FILES: '1' }),
    () => runWfsync(workflows, dir, {}, cache),
    () => {
      const args = [
        'validate',
        '--spec=draft2020',
        '--strict=false',
        '-s',
        schema,
        '-d',
        `${workflows}/*.yaml`,
      ];
      const run = measure(process.execPath, [ajvCli, ...args], { cwd: dir });
      if (run.status !== 0) throw new Error(`ajv-cli failed (${run.status}):\n${run.stderr.slice(0, 2000)}`);
      return run;
    },
    () => {
      const run = measure(process.execPath, [floor, schema, workflows], { cwd: dir });
      if (run.status !== 0 || run.stdout !== '0 invalid\n') throw new Error(`floor failed:\n${run.stderr}`);
      return run;
    },
  ]);

  for (const [name, r] of [
    [`wfsync validate (${byDefault ? 'with workers' : 'one thread'}, default)`, ours],
    [`wfsync validate (${byDefault ? 'one thread' : 'with workers'})`, other],
    ['wfsync validate --cache (warm)', warm],
    ['ajv-cli validate', ajv],
    ['floor (yaml.parse+ajv)', bare],
  ]) {
    rows.push([
      count,
      name,
      fmt(r.ms),
      fmt((count / r.ms) * 1000),
      fmt(r.rssMb, 1),
      `${(r.ms / bare.ms).toFixed(2)}×`,
      `${(r.ms / ajv.ms).toFixed(2)}×`,
    ]);
  }
  rmSync(dir, { recursive: true, force: true });
}
console.log(table(rows));

// Start-up: median of 15 runs each.
const nodeTimes = [];
const versionTimes = [];
for (let i = 0; i < 15; i++) {
  nodeTimes.push(measure(process.execPath, ['-e', '0']).ms);
  versionTimes.push(measure(process.execPath, [wfsync, '--version']).ms);
}
const nodeMs = median(nodeTimes);
const versionMs = median(versionTimes);
console.log(
  `\nstart-up: node -e 0 ${fmt(nodeMs, 1)} ms, wfsync --version ${fmt(versionMs, 1)} ms, ratio ${(versionMs / nodeMs).toFixed(2)}× (goal ≤ 2×)`,
);
