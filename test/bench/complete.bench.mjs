// npm run bench:complete — what one Tab costs: bash running the script `wfsync completion bash` prints, asked to
// complete four lines in a project of 10 definitions and two targets (commands, an option's choices, targets read
// from the config, identifiers read from the definitions), and the one `wfsync __complete` spawn each Tab makes,
// side by side with `node -e 0`, the floor of any Node CLI. BENCH_BASE=<dir> puts another built checkout's script
// (say the commit before, which answered commands and choices in the shell itself) beside ours, line for line.
// BENCH_RUNS rounds (default 15), interleaved, best of them. The built CLI (npm run build) is measured.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bestInterleaved, fmt, measure, table } from './lib.mjs';
import { syntheticDefinition } from './synthetic.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const runs = Number(process.env.BENCH_RUNS ?? 15);
const node = process.execPath;
const builds = [['this tree', root], ...(process.env.BENCH_BASE ? [['base', process.env.BENCH_BASE]] : [])];

const dir = mkdtempSync(join(tmpdir(), 'wfsync-bench-complete-'));
mkdirSync(join(dir, 'workflows'));
for (let i = 0; i < 10; i++) writeFileSync(join(dir, 'workflows', `wf-${i}.yaml`), syntheticDefinition(i));
writeFileSync(
  join(dir, 'wfsync.config.yaml'),
  'targets:\n  staging:\n    baseUrl: https://staging.example.com\n  production:\n    baseUrl: https://api.example.com\n',
);

/** Per build: a `wfsync` on PATH (as a user's shell finds it) and the bash script it prints. */
const installed = builds.map(([name, checkout]) => {
  const bin = join(dir, `bin-${name.replace(/\W/g, '-')}`);
  mkdirSync(bin);
  const cli = join(checkout, 'bin/wfsync.cjs');
  writeFileSync(join(bin, 'wfsync'), `#!/bin/sh\nexec "${node}" "${cli}" "$@"\n`);
  chmodSync(join(bin, 'wfsync'), 0o755);
  const script = join(bin, 'wfsync.bash');
  writeFileSync(script, spawnSync(node, [cli, 'completion', 'bash'], { encoding: 'utf8' }).stdout);
  return { name, cli, script, env: { ...process.env, PATH: `${bin}${delimiter}${process.env.PATH}` } };
});

const LINES = [
  ['wfsync ', 'plan'],
  ['wfsync plan --format ', 'json'],
  ['wfsync sync --target ', 'staging'],
  ['wfsync pull ', 'bench-workflow-'],
];

/** One Tab in bash: the script sourced, the line's words set as bash sets them, the function run. */
function tab(build, line, expected) {
  const words = line.split(' ');
  const set = `COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}`;
  const run = measure(
    'bash',
    ['-c', `source '${build.script}'; ${set}; _wfsync; printf '%s\\n' "\${COMPREPLY[@]}"`],
    { cwd: dir, env: build.env },
  );
  if (run.status !== 0 || !run.stdout.split('\n').some((l) => l.startsWith(expected)))
    throw new Error(`${build.name}: Tab after "${line}" offered no ${expected}:\n${run.stdout}${run.stderr}`);
  return run;
}

const cases = [['node -e 0', () => measure(node, ['-e', '0'])]];
for (const [line, expected] of LINES) {
  for (const build of installed)
    cases.push([`${build.name}: Tab after "${line}"`, () => tab(build, line, expected)]);
}
for (const [line] of LINES) {
  const words = line.split(' ').slice(1);
  const ours = installed[0];
  cases.push([
    `wfsync __complete -- ${words.map((w) => w || "''").join(' ')}`,
    () => measure(node, [ours.cli, '__complete', '--', ...words], { cwd: dir }),
  ]);
}

const results = bestInterleaved(
  runs,
  cases.map(([, fn]) => fn),
);
const [floor] = results;
const rows = [['what', 'wall ms', 'CPU ms', 'wall vs node']];
cases.forEach(([name], i) => {
  const r = results[i];
  rows.push([
    name,
    fmt(r.ms, 1),
    r.cpuMs === undefined ? '-' : fmt(r.cpuMs, 0),
    `${(r.ms / floor.ms).toFixed(2)}×`,
  ]);
});
console.log(`one Tab in bash, and the __complete run it makes (Node ${process.version}, best of ${runs})`);
console.log(table(rows));
rmSync(dir, { recursive: true, force: true });
