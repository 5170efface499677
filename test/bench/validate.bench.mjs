// npm run bench:validate — wfsync validate vs ajv-cli vs the floor (yaml.parse + compiled ajv, no positions/rules),
// on 1,000 and 10,000 synthetic definitions; then `wfsync --version` vs `node -e 0`. Prints files/s, peak RSS, ratios.
// Goals (issue 2): wfsync ≥ ajv-cli speed, ≤ 1.5× the floor, 10,000 files < 3 s, --version ≤ 2× node -e 0.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { best, fmt, measure, median, table } from './lib.mjs';
import { syntheticDefinition } from './synthetic.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const wfsync = join(root, 'bin/wfsync.js');
const ajvCli = join(root, 'node_modules/ajv-cli/dist/index.js');
const floor = join(root, 'test/bench/floor-validate.mjs');
const schema = join(root, 'schemas/workflow.schema.json');
const runs = Number(process.env.BENCH_RUNS ?? 3);

const rows = [['files', 'tool', 'wall ms', 'files/s', 'peak RSS MB', 'vs floor', 'vs ajv-cli']];
for (const count of [1_000, 10_000]) {
  const dir = mkdtempSync(join(tmpdir(), 'wfsync-bench-validate-'));
  const workflows = join(dir, 'workflows');
  mkdirSync(workflows);
  for (let i = 0; i < count; i++) writeFileSync(join(workflows, `wf-${i}.yaml`), syntheticDefinition(i));

  const ours = best(runs, () =>
    measure(process.execPath, [wfsync, 'validate', workflows, '--format', 'json'], { cwd: dir }),
  );
  if (ours.status !== 0)
    throw new Error(`wfsync validate failed (${ours.status}):\n${ours.stdout.slice(0, 2000)}${ours.stderr}`);
  const ajv = best(runs, () =>
    measure(
      process.execPath,
      [ajvCli, 'validate', '--spec=draft2020', '--strict=false', '-s', schema, '-d', `${workflows}/*.yaml`],
      { cwd: dir },
    ),
  );
  if (ajv.status !== 0) throw new Error(`ajv-cli failed (${ajv.status}):\n${ajv.stderr.slice(0, 2000)}`);
  const bare = best(runs, () => measure(process.execPath, [floor, schema, workflows], { cwd: dir }));
  if (bare.status !== 0) throw new Error(`floor failed:\n${bare.stderr}`);

  for (const [name, r] of [
    ['wfsync validate', ours],
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
