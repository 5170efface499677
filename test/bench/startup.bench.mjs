// npm run bench:startup — what a pre-commit hook pays on every commit: `wfsync validate` of a 10-file project (no
// cache; --cache cold, its file removed before each run; --cache warm; and the hook's own call, two staged files
// given as paths with the rest read for their identifiers) side by side with `node -e 0`, the floor of any Node CLI.
// Every row runs with the CLI's compile cache warm (a folder of the benchmark's own), but two: `validate` with it off,
// and with it empty (the first run after an install or an upgrade, which also writes it).
// BENCH_RUNS rounds (default 15), interleaved, best of them; wall and CPU time (user + system, from GNU time when
// present: steadier on a shared machine). Goal (issue 14): validate of a 10-file project under 2× `node -e 0`.
// BENCH_INSTRUCTIONS=1 also counts the instructions each executes under valgrind (callgrind, ~1 min): the one
// figure no other tenant of the machine can disturb.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bestInterleaved, fmt, measure, table } from './lib.mjs';
import { syntheticDefinition } from './synthetic.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const wfsync = join(root, 'bin/wfsync.cjs');
const runs = Number(process.env.BENCH_RUNS ?? 15);
// BENCH_NODE=<path> measures every row, `node -e 0` included, with another Node binary (an official 22 or 24 build,
// say, whose own start-up is much shorter than a distribution's 20).
const node = process.env.BENCH_NODE ?? process.execPath;
const FILES = 10;

const dir = mkdtempSync(join(tmpdir(), 'wfsync-bench-startup-'));
mkdirSync(join(dir, 'workflows'));
for (let i = 0; i < FILES; i++) writeFileSync(join(dir, 'workflows', `wf-${i}.yaml`), syntheticDefinition(i));
writeFileSync(join(dir, 'wfsync.config.yaml'), 'workflowsDir: workflows\n');
const cacheFile = join(dir, 'validate-cache.json');
// The CLI's compile cache (src/cli/compile-cache.ts) in a folder of the benchmark's own: warm after the first run,
// as on a developer's machine after the first commit; the `off` and `empty` rows show what it saves.
const compileCache = join(dir, 'compile-cache');
const COMPILE = { warm: { WFSYNC_COMPILE_CACHE: compileCache }, off: { WFSYNC_COMPILE_CACHE: 'off' } };
const cache = ['--cache', '--cache-location', cacheFile];
const staged = ['workflows/wf-3.yaml', 'workflows/wf-7.yaml'];

/** One timed `wfsync validate`; it must pass with the usual one line, or the figures mean nothing. */
function validate(args, compile = COMPILE.warm) {
  const run = measure(node, [wfsync, 'validate', ...args], {
    cwd: dir,
    env: { ...process.env, NO_COLOR: '1', ...compile },
  });
  if (run.status !== 0 || !/valid\n$/.test(run.stdout)) {
    throw new Error(
      `wfsync validate ${args.join(' ')} failed (exit ${run.status}):\n${run.stdout}${run.stderr}`,
    );
  }
  return run;
}

validate(cache); // fills the cache the warm runs read (they leave it as it is: nothing changed)
validate([]); // and the compile cache of `validate`
const cases = [
  ['node -e 0', () => measure(node, ['-e', '0'])],
  ['wfsync validate', () => validate([])],
  ['wfsync validate (compile cache off)', () => validate([], COMPILE.off)],
  [
    'wfsync validate (compile cache empty)',
    () => {
      const empty = join(dir, 'compile-cache-empty');
      rmSync(empty, { recursive: true, force: true });
      return validate([], { WFSYNC_COMPILE_CACHE: empty });
    },
  ],
  [
    'wfsync validate --cache (cold)',
    () => {
      rmSync(cacheFile, { force: true });
      return validate(cache);
    },
  ],
  [
    'wfsync validate --cache (warm)',
    () => {
      // The cold case removed it: fill it again, untimed.
      validate(cache);
      return validate(cache);
    },
  ],
  ['wfsync validate --cache 2 paths (hook)', () => validate([...cache, ...staged])],
];
const results = bestInterleaved(
  runs,
  cases.map(([, fn]) => fn),
);
const [floor] = results;
const rows = [['command', 'wall ms', 'CPU ms', 'wall vs node', 'CPU vs node']];
cases.forEach(([name], i) => {
  const r = results[i];
  rows.push([
    name,
    fmt(r.ms, 1),
    r.cpuMs === undefined ? '-' : fmt(r.cpuMs, 0),
    `${(r.ms / floor.ms).toFixed(2)}×`,
    r.cpuMs === undefined || !floor.cpuMs ? '-' : `${(r.cpuMs / floor.cpuMs).toFixed(2)}×`,
  ]);
});
console.log(
  `validate of a ${FILES}-file project vs node -e 0 (Node ${nodeVersion()}, best of ${runs}; goal: under 2×)`,
);
console.log(table(rows));

if (process.env.BENCH_INSTRUCTIONS === '1' && existsSync('/usr/bin/valgrind')) {
  /** Instructions executed by one run (all threads), from callgrind's summary. */
  const instructions = (args, compile = COMPILE.warm) => {
    const out = join(dir, 'callgrind.out');
    const run = spawnSync(
      '/usr/bin/valgrind',
      ['--tool=callgrind', `--callgrind-out-file=${out}`, node, ...args],
      {
        cwd: dir,
        encoding: 'utf8',
        env: { ...process.env, NO_COLOR: '1', ...compile },
      },
    );
    const refs = /I\s+refs:\s+([\d,]+)/.exec(run.stderr);
    rmSync(out, { force: true });
    if (!refs) throw new Error(`valgrind gave no count:\n${run.stderr.slice(-2000)}`);
    return Number(refs[1].replaceAll(',', ''));
  };
  const floor = instructions(['-e', '0']);
  validate(cache); // the cold case removed it
  const counted = [
    ['wfsync validate', instructions([wfsync, 'validate'])],
    ['wfsync validate (compile cache off)', instructions([wfsync, 'validate'], COMPILE.off)],
    ['wfsync validate --cache (warm)', instructions([wfsync, 'validate', ...cache])],
    ['wfsync validate --cache 2 paths (hook)', instructions([wfsync, 'validate', ...cache, ...staged])],
  ];
  const lines = [['command', 'instructions (M)', 'vs node']];
  lines.push(['node -e 0', fmt(floor / 1e6), '1.00×']);
  for (const [name, n] of counted) lines.push([name, fmt(n / 1e6), `${(n / floor).toFixed(2)}×`]);
  console.log('\ninstructions executed (valgrind callgrind, one run each)');
  console.log(table(lines));
}
rmSync(dir, { recursive: true, force: true });

function nodeVersion() {
  return spawnSync(node, ['-p', 'process.version'], { encoding: 'utf8' }).stdout.trim();
}
