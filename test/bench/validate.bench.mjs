// npm run bench:validate — wfsync validate (cold, and warm with --cache) vs ajv-cli vs the floor (yaml.parse +
// compiled ajv, no positions/rules), on 1,000 and 10,000 synthetic definitions (BENCH_FILES=2000,5000 for other
// counts) that must all be valid without a warning; then `wfsync --version` vs `node -e 0`. Prints files/s, peak RSS,
// ratios. BENCH_RUNS rounds (default 3), best of them.
// Goals (issue 2): wfsync ≥ ajv-cli speed, ≤ 1.5× the floor, 10,000 files < 3 s, --version ≤ 2× node -e 0.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bestInterleaved, fmt, measure, median, table } from './lib.mjs';
import { syntheticDefinition } from './synthetic.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const wfsync = join(root, 'bin/wfsync.cjs');
const ajvCli = join(root, 'node_modules/ajv-cli/dist/index.js');
const floor = join(root, 'test/bench/floor-validate.mjs');
const schema = join(root, 'schemas/workflow.schema.json');
const runs = Number(process.env.BENCH_RUNS ?? 3);
const counts = (process.env.BENCH_FILES ?? '1000,10000').split(',').map(Number);

/** One timed `wfsync validate --format json`; the run fails unless wfsync found nothing at all to report. */
function runWfsync(workflows, cwd, extra = []) {
  const run = measure(process.execPath, [wfsync, 'validate', workflows, '--format', 'json', ...extra], {
    cwd,
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

const rows = [['files', 'tool', 'wall ms', 'files/s', 'peak RSS MB', 'vs floor', 'vs ajv-cli']];
for (const count of counts) {
  const dir = mkdtempSync(join(tmpdir(), 'wfsync-bench-validate-'));
  const workflows = join(dir, 'workflows');
  mkdirSync(workflows);
  for (let i = 0; i < count; i++) writeFileSync(join(workflows, `wf-${i}.yaml`), syntheticDefinition(i));

  // Warm: the cache already holds every file (filled here, untouched by the timed runs), as in a repeated local run.
  const cache = ['--cache', '--cache-location', join(dir, 'validate-cache.json')];
  runWfsync(workflows, dir, cache);
  // Interleaved rounds (each tool once per round, best of the rounds): a burst of load on a shared machine then
  // hurts every tool's round alike instead of all runs of one tool.
  const [ours, warm, ajv, bare] = bestInterleaved(runs, [
    () => runWfsync(workflows, dir),
    () => runWfsync(workflows, dir, cache),
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
    ['wfsync validate', ours],
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
