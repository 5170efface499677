// npm run bench:startup — what a short run costs: `wfsync validate` of a 10-file project (what a pre-commit hook pays
// on every commit), `wfsync --help` and `wfsync --version`, side by side with `node -e 0`, the floor of any Node CLI,
// and each run three ways, to weigh the CLI's own compile cache (src/cli/boot.ts, src/cli/compile-cache.ts) against
// what the platform offers:
// - "wfsync's cache": today's loader, warm (a folder of the benchmark's own, filled by a first run);
// - "Node's cache": Node's own module compile cache (NODE_COMPILE_CACHE, what module.enableCompileCache() turns on;
//   Node 22.1 and later), warm, with wfsync's off;
// - "no cache": both off.
// Then `validate` with wfsync's cache empty (the first run after an install or an upgrade, which also writes it),
// `--cache` cold and warm, and the hook's own call (two staged files given as paths, the rest read for their
// identifiers), all with wfsync's cache warm.
// BENCH_RUNS rounds (default 15), interleaved, best of them; wall and CPU time (user + system, from GNU time when
// present: steadier on a shared machine). Goal (issue 25): validate of a 10-file project ≤ 1.5× `node -e 0` on Node 24.
// BENCH_NODE=<path>[:<path>…] measures with other Node binaries, one table each (bash .ci/run keeps official 22 and 24
// builds in .ci/nodes/: BENCH_NODE=$(ls -d $PWD/.ci/nodes/*/bin/node | paste -sd:)).
// BENCH_INSTRUCTIONS=1 also counts the instructions each `validate` executes under valgrind (callgrind, ~1 min a
// Node): the one figure no other tenant of the machine can disturb.
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
const nodes = (process.env.BENCH_NODE ?? process.execPath).split(':').filter(Boolean);
const FILES = 10;

const dir = mkdtempSync(join(tmpdir(), 'wfsync-bench-startup-'));
mkdirSync(join(dir, 'workflows'));
for (let i = 0; i < FILES; i++) writeFileSync(join(dir, 'workflows', `wf-${i}.yaml`), syntheticDefinition(i));
writeFileSync(join(dir, 'wfsync.config.yaml'), 'workflowsDir: workflows\n');
const cacheFile = join(dir, 'validate-cache.json');
const cache = ['--cache', '--cache-location', cacheFile];
const staged = ['workflows/wf-3.yaml', 'workflows/wf-7.yaml'];

for (const node of nodes) benchNode(node);
rmSync(dir, { recursive: true, force: true });

function benchNode(node) {
  const version = spawnSync(node, ['-p', 'process.version'], { encoding: 'utf8' }).stdout.trim();
  // Node's own compile cache arrived in 22.1: on older Nodes that row is left out.
  const [major, minor] = version.slice(1).split('.').map(Number);
  const nodeCacheExists = major > 22 || (major === 22 && minor >= 1);
  const folder = join(dir, version);
  /** The environment of each way to run: the caches in folders of this Node's own. */
  const CACHE = {
    "wfsync's cache": { WFSYNC_COMPILE_CACHE: join(folder, 'wfsync') },
    ...(nodeCacheExists
      ? { "Node's cache": { WFSYNC_COMPILE_CACHE: 'off', NODE_COMPILE_CACHE: join(folder, 'node') } }
      : {}),
    'no cache': { WFSYNC_COMPILE_CACHE: 'off' },
  };
  const wfsyncCache = CACHE["wfsync's cache"];

  /** One timed wfsync run; it must end as it should, or the figures mean nothing. */
  const run = (args, env, expect = /valid\n$/) => {
    const result = measure(node, [wfsync, ...args], {
      cwd: dir,
      env: { ...process.env, NO_COLOR: '1', ...env },
    });
    if (result.status !== 0 || !expect.test(result.stdout)) {
      throw new Error(
        `wfsync ${args.join(' ')} failed (exit ${result.status}):\n${result.stdout}${result.stderr}`,
      );
    }
    return result;
  };
  const help = (env) => run(['--help'], env, /^Usage: wfsync/);

  // Untimed: fill every warm cache (each compile cache twice: Node's writes what it lacked on each run).
  for (const env of Object.values(CACHE)) for (let i = 0; i < 2; i++) run(['validate'], env) && help(env);
  run(['validate', ...cache], wfsyncCache);
  const cases = [
    ['node -e 0', () => measure(node, ['-e', '0'])],
    ['wfsync --version', () => run(['--version'], {}, /^\d+\.\d+\.\d+/)],
    ...Object.entries(CACHE).map(([name, env]) => [`wfsync --help (${name})`, () => help(env)]),
    ...Object.entries(CACHE).map(([name, env]) => [
      `wfsync validate (${name})`,
      () => run(['validate'], env),
    ]),
    [
      "wfsync validate (wfsync's cache empty)",
      () => {
        const empty = join(folder, 'empty');
        rmSync(empty, { recursive: true, force: true });
        return run(['validate'], { WFSYNC_COMPILE_CACHE: empty });
      },
    ],
    [
      'wfsync validate --cache (cold)',
      () => {
        rmSync(cacheFile, { force: true });
        return run(['validate', ...cache], wfsyncCache);
      },
    ],
    [
      'wfsync validate --cache (warm)',
      () => {
        run(['validate', ...cache], wfsyncCache); // the cold case removed it: fill it again, untimed
        return run(['validate', ...cache], wfsyncCache);
      },
    ],
    ['wfsync validate --cache 2 paths (hook)', () => run(['validate', ...cache, ...staged], wfsyncCache)],
  ];
  const results = bestInterleaved(
    runs,
    cases.map(([, fn]) => fn),
  );
  const byName = new Map(cases.map(([name], i) => [name, results[i]]));
  const [floor] = results;
  const ratio = (a, b) => (a === undefined || !b ? '-' : `${(a / b).toFixed(2)}×`);
  const rows = [['command', 'wall ms', 'CPU ms', 'wall vs node', 'CPU vs node']];
  cases.forEach(([name], i) => {
    const r = results[i];
    rows.push([name, fmt(r.ms, 1), fmt(r.cpuMs, 0), ratio(r.ms, floor.ms), ratio(r.cpuMs, floor.cpuMs)]);
  });
  console.log(
    `\nshort runs vs node -e 0 (Node ${version}, ${FILES}-file project, best of ${runs}; goal: validate ≤ 1.5× on Node 24)`,
  );
  console.log(table(rows));
  // The decision the benchmark is for (issue 25): wfsync's loader stays only while it saves ≥ 10% of a short run.
  for (const command of ['validate', '--help']) {
    const ours = byName.get(`wfsync ${command} (wfsync's cache)`);
    for (const other of ["Node's cache", 'no cache']) {
      const theirs = byName.get(`wfsync ${command} (${other})`);
      if (theirs === undefined) continue;
      console.log(
        `wfsync ${command}: wfsync's cache / ${other}: wall ${ratio(ours.ms, theirs.ms)}, CPU ${ratio(ours.cpuMs, theirs.cpuMs)}`,
      );
    }
  }

  if (process.env.BENCH_INSTRUCTIONS === '1' && existsSync('/usr/bin/valgrind')) {
    /** Instructions executed by one run (all threads), from callgrind's summary. */
    const instructions = (args, env = {}) => {
      const out = join(dir, 'callgrind.out');
      const result = spawnSync(
        '/usr/bin/valgrind',
        ['--tool=callgrind', `--callgrind-out-file=${out}`, node, ...args],
        { cwd: dir, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', ...env } },
      );
      const refs = /I\s+refs:\s+([\d,]+)/.exec(result.stderr);
      rmSync(out, { force: true });
      if (!refs) throw new Error(`valgrind gave no count:\n${result.stderr.slice(-2000)}`);
      return Number(refs[1].replaceAll(',', ''));
    };
    const nodeFloor = instructions(['-e', '0']);
    run(['validate', ...cache], wfsyncCache); // the cold case removed it
    const counted = [
      ...Object.entries(CACHE).map(([name, env]) => [
        `wfsync validate (${name})`,
        instructions([wfsync, 'validate'], env),
      ]),
      ['wfsync validate --cache (warm)', instructions([wfsync, 'validate', ...cache], wfsyncCache)],
      [
        'wfsync validate --cache 2 paths (hook)',
        instructions([wfsync, 'validate', ...cache, ...staged], wfsyncCache),
      ],
    ];
    const lines = [['command', 'instructions (M)', 'vs node']];
    lines.push(['node -e 0', fmt(nodeFloor / 1e6), '1.00×']);
    for (const [name, n] of counted) lines.push([name, fmt(n / 1e6), ratio(n, nodeFloor)]);
    console.log(`\ninstructions executed (Node ${version}, valgrind callgrind, one run each)`);
    console.log(table(lines));
  }
}
