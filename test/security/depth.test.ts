/**
 * Hostile nesting: a service, state, lock, cache and plan files, and definitions nested thousands of levels deep.
 * Each is refused by name before anything walks it (a stack overflow used to end the whole run as "a bug"); a
 * service answer fails its own workflow only, and the rest of the run goes on.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, request, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningEmulator, startEmulator } from '../../src/emulator/index.js';
import { makeExampleProject, makeProject, type RunResult, runCli } from '../e2e/helpers.js';
import { EXAMPLE_IDENTIFIERS } from '../e2e/plan-sync-target.js';
import { parseJsonOutput } from '../helpers/json-output.js';

const VICTIM = 'order-shipped';
const OTHERS = EXAMPLE_IDENTIFIERS.filter((id) => id !== VICTIM);
const TOO_DEEP = 'nested deeper than 128 levels';
const BUG = /this is a bug|Maximum call stack|RangeError/;

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** `[[…]]` `depth` levels deep, as text (JSON.stringify itself overflows past about 10,000 levels). */
function deepArrays(depth: number): string {
  return `${'['.repeat(depth)}${']'.repeat(depth)}`;
}

/**
 * A loopback service that forwards every request to the emulator, and answers any workflow whose trigger is
 * VICTIM with its `data` replaced by arrays `depth` levels deep: a valid envelope, a valid workflow otherwise.
 */
async function deepService(emulator: RunningEmulator, depth: number): Promise<string> {
  const upstream = new URL(emulator.url);
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const forward = request(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: req.method,
          path: req.url,
          headers: req.headers,
        },
        (answer) => {
          const parts: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => parts.push(chunk));
          answer.on('end', () => {
            let body = Buffer.concat(parts).toString('utf8');
            const parsed = body === '' ? undefined : (JSON.parse(body) as { data?: Record<string, unknown> });
            const workflow = parsed?.data;
            const triggers = workflow?.triggers as Array<{ identifier?: string }> | undefined;
            if (workflow && triggers?.[0]?.identifier === VICTIM) {
              workflow.data = { deep: 'DEEP' };
              body = JSON.stringify(parsed).replace('"DEEP"', deepArrays(depth));
            }
            const headers = { ...answer.headers };
            delete headers['content-length'];
            res.writeHead(answer.statusCode ?? 502, headers);
            res.end(body);
          });
        },
      );
      forward.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise((resolve) => server.close(resolve)));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

interface World {
  emulator: RunningEmulator;
  cwd: string;
  run(args: string[]): Promise<RunResult>;
}

/** The examples, target `dev` pointing at `baseUrl` (the emulator itself when absent). */
async function world(baseUrl?: (emulator: RunningEmulator) => Promise<string>): Promise<World> {
  const emulator = await startEmulator({ seed: 1 });
  cleanups.push(() => emulator.close());
  const cwd = makeExampleProject();
  cleanups.push(() => rmSync(cwd, { recursive: true, force: true }));
  // The victim declares `data`, so plan compares it (and the diff would print it).
  writeFileSync(
    join(cwd, 'workflows', `${VICTIM}.yaml`),
    `${readFileSync(join(cwd, 'workflows', `${VICTIM}.yaml`), 'utf8')}data:\n  deep: []\n`,
  );
  const url = baseUrl === undefined ? emulator.url : await baseUrl(emulator);
  writeFileSync(
    join(cwd, 'wfsync.config.yaml'),
    [
      'workflowsDir: workflows',
      'targets:',
      '  dev:',
      `    baseUrl: ${url}`,
      '    apiKeyEnv: DEV_KEY',
      `    notificationGroupId: ${emulator.notificationGroupId}`,
      `    notificationGroups: { transactional: ${emulator.notificationGroupId} }`,
      '    retries: { maxAttempts: 2 }',
      '',
    ].join('\n'),
  );
  return {
    emulator,
    cwd,
    run: (args) => runCli([...args, '--target', 'dev'], { cwd, env: { DEV_KEY: emulator.apiKey } }),
  };
}

/** Sync straight to the emulator, with a state file of its own (the one of target `dev` names the deep service). */
function createDirectly(w: World): Promise<RunResult> {
  return runCli(['sync', '--target', 'dev', '--base-url', w.emulator.url, '--state', 'direct.json'], {
    cwd: w.cwd,
    env: { DEV_KEY: w.emulator.apiKey },
  });
}

function stored(emulator: RunningEmulator): string[] {
  return emulator
    .workflows()
    .map((w) => w.triggers[0]!.identifier)
    .sort();
}

describe.each([
  ['2,000', 2000],
  ['100,000', 100_000],
])('a service answering one workflow nested %s levels deep', (_label, depth) => {
  it('sync creates and verifies the others; the one fails by name, exit 1 without a crash', async () => {
    const w = await world((emulator) => deepService(emulator, depth));
    const result = await w.run(['sync']);
    expect(result.stderr).not.toMatch(BUG);
    expect(result.status).toBe(1);
    expect(result.stdout).toContain(`✖ failed   ${VICTIM}  workflows/${VICTIM}.yaml`);
    expect(result.stdout).toContain(`POST /v1/workflows: 201 with a response ${TOO_DEEP}`);
    for (const id of OTHERS) expect(result.stdout).toContain(`+ created  ${id}  workflows/${id}.yaml`);
    expect(result.stdout).toContain('Sync: 8 created, 0 in sync, 0 drifted, 1 failed, 0 skipped.');
    expect(stored(w.emulator)).toEqual([...EXAMPLE_IDENTIFIERS].sort());
  });

  it('plan checks the others; the one is an error naming the endpoint, exit 1', async () => {
    const w = await world((emulator) => deepService(emulator, depth));
    // Everything created on the emulator first: plan then looks each one up through the deep service.
    const direct = await createDirectly(w);
    expect(direct.status).toBe(0);
    const result = await w.run(['plan']);
    expect(result.stderr).not.toMatch(BUG);
    expect(result.status).toBe(1);
    expect(result.stdout).toContain(`✖ error    ${VICTIM}  workflows/${VICTIM}.yaml`);
    expect(result.stdout).toContain(`error: GET /v1/workflows/${VICTIM}: 200 with a response ${TOO_DEEP}`);
    for (const id of OTHERS) expect(result.stdout).toContain(`✔ in sync  ${id}  workflows/${id}.yaml`);
    expect(result.stdout).toContain('Plan: 0 to create, 8 in sync, 1 error.');
  });

  it('pull writes the others; the one fails by name, exit 1', async () => {
    const w = await world((emulator) => deepService(emulator, depth));
    const direct = await createDirectly(w);
    expect(direct.status).toBe(0);
    rmSync(join(w.cwd, 'workflows', 'password-reset.yaml'));
    const result = await w.run(['pull', VICTIM, 'password-reset', '--format', 'json']);
    expect(result.stderr).not.toMatch(BUG);
    expect(result.status).toBe(1);
    const document = parseJsonOutput('pull', result.stdout) as { workflows: Array<Record<string, unknown>> };
    expect(document.workflows).toEqual([
      {
        requested: VICTIM,
        action: 'failed',
        reason: expect.stringContaining(`GET /v1/workflows/${VICTIM}: 200 with a response ${TOO_DEEP}`),
      },
      expect.objectContaining({ requested: 'password-reset', action: 'written', created: true }),
    ]);
    expect(readFileSync(join(w.cwd, 'workflows', 'password-reset.yaml'), 'utf8')).toContain('password-reset');
  });
});

describe('files nested 100,000 levels deep', () => {
  const deepObject = (depth: number) => `{"version":1,"x":${deepArrays(depth)}}`;

  it('a state file: refused as corrupted, naming it, with how to rebuild', async () => {
    const w = await world();
    const state = join(w.cwd, '.wfsync', 'state', 'dev.json');
    mkdirSync(join(w.cwd, '.wfsync', 'state'), { recursive: true });
    writeFileSync(state, deepObject(100_000));
    const result = await w.run(['plan']);
    expect(result.stderr).not.toMatch(BUG);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(`the state file ${state} is corrupted: it is ${TOO_DEEP}`);
    expect(result.stderr).toContain('wfsync state rebuild');
    expect(w.emulator.requests()).toEqual([]);
  });

  it('a lock file: its holder unreadable, named in the lock error', async () => {
    // 5,000 levels: deep enough to overflow any recursive walk, small enough for the lock file's size cap.
    const w = await world();
    const lock = join(w.cwd, '.wfsync', 'state', 'dev.json.lock');
    mkdirSync(join(w.cwd, '.wfsync', 'state'), { recursive: true });
    writeFileSync(
      lock,
      `{"pid":${process.pid},"hostname":"h","startedAt":"s","command":${deepArrays(5_000)}}`,
    );
    const result = await w.run(['sync', '--lock-timeout', '0']);
    expect(result.stderr).not.toMatch(BUG);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('the state is locked by a process that has not written its details');
    expect(result.stderr).toContain(`delete ${lock} by hand`);
    expect(w.emulator.workflows()).toEqual([]);
  });

  it('a validate cache: discarded, saying why, and rebuilt', async () => {
    const cwd = makeExampleProject();
    cleanups.push(() => rmSync(cwd, { recursive: true, force: true }));
    mkdirSync(join(cwd, '.wfsync', 'cache'), { recursive: true });
    const cache = join(cwd, '.wfsync', 'cache', 'validate.json');
    writeFileSync(cache, `{"wfsync":"validate-cache","entries":[],"x":${deepArrays(100_000)}}`);
    const result = await runCli(['validate', '--cache', '--verbose'], { cwd });
    expect(result.stderr).not.toMatch(BUG);
    expect(result.status).toBe(0);
    expect(result.stderr).toContain(`(.wfsync/cache/validate.json was ${TOO_DEEP}: rebuilt)`);
    expect(readFileSync(cache, 'utf8')).toContain('"wfsync":"validate-cache"');
  });

  it('a reviewed plan for sync --plan: refused, exit 3, nothing sent', async () => {
    const w = await world();
    writeFileSync(join(w.cwd, 'plan.json'), `{"version":1,"items":[],"x":${deepArrays(100_000)}}`);
    const result = await w.run(['sync', '--plan', 'plan.json']);
    expect(result.stderr).not.toMatch(BUG);
    expect(result.status).toBe(3);
    expect(result.stderr).toContain(`plan.json is not a plan written by "wfsync plan --out": ${TOO_DEEP}`);
    expect(w.emulator.workflows()).toEqual([]);
  });
});

describe('definitions nested thousands of levels deep', () => {
  const HEAD = [
    'name: NAME',
    'triggers:',
    '  - identifier: NAME',
    '    type: event',
    'steps:',
    '  - name: s',
    '    template:',
    '      type: in_app',
  ].join('\n');
  const definition = (name: string, rest: string) => `${HEAD.replaceAll('NAME', name)}\n${rest}`;
  const block = (n: number, line: (i: number) => string) =>
    Array.from({ length: n }, (_, i) => line(i)).join('');
  const content = (lines: string) => `      content: |\n${lines}`;
  // Within 1 MiB, the largest file read, with one-space steps of indentation.
  const BLOCK = 1200;
  // Every case: its file, its text, the code, and where the diagnostic points (line, column): at the 65th level.
  // A template's text starts on line 10, one block (or `(`) per line; the sub-expressions start on line 11.
  const cases: Array<[string, string, string, number, number]> = [
    [
      'flow-seq',
      definition('flow-seq', `      content: x\ndata: ${deepArrays(100_000)}\n`),
      'yaml-too-deep',
      10,
      70,
    ],
    [
      'flow-map',
      definition('flow-map', `      content: x\ndata: ${'{a: '.repeat(5000)}1${'}'.repeat(5000)}\n`),
      'yaml-too-deep',
      10,
      259,
    ],
    [
      'flow-mixed',
      definition('flow-mixed', `      content: x\ndata: ${'[{a: '.repeat(5000)}1${'}]'.repeat(5000)}\n`),
      'yaml-too-deep',
      10,
      163,
    ],
    [
      'block-map',
      definition('block-map', `      content: x\ndata:\n${block(BLOCK, (i) => `${' '.repeat(i + 1)}a:\n`)}`),
      'yaml-too-deep',
      74,
      65,
    ],
    [
      'block-seq',
      definition('block-seq', `      content: x\ndata:\n${block(BLOCK, (i) => `${' '.repeat(i + 1)}-\n`)}`),
      'yaml-too-deep',
      74,
      65,
    ],
    [
      'compact-seq',
      definition('compact-seq', `      content: x\ndata:\n  ${'- '.repeat(50_000)}1\n`),
      'yaml-too-deep',
      11,
      129,
    ],
    [
      'aliases',
      `${block(3000, (i) => `x${i}: &a${i} [${i === 0 ? 1 : `*a${i - 1}`}]\n`)}${definition('aliases', 'data: *a2999\n')}`,
      'yaml-too-deep',
      64,
      12,
    ],
    [
      'template-blocks',
      definition(
        'template-blocks',
        content(`${'        {{#if a}}\n'.repeat(20_000)}${'        {{/if}}\n'.repeat(20_000)}`),
      ),
      'template-syntax',
      10 + 64,
      9,
    ],
    [
      'template-each',
      definition(
        'template-each',
        content(`${'        {{#each a}}\n'.repeat(20_000)}${'        {{/each}}\n'.repeat(20_000)}`),
      ),
      'template-syntax',
      10 + 64,
      9,
    ],
    [
      'template-else-if',
      definition(
        'template-else-if',
        content(`        {{#if a}}\n${'        {{else if b}}\n'.repeat(20_000)}        {{/if}}\n`),
      ),
      'template-syntax',
      10 + 64,
      9,
    ],
    [
      'template-sub-expressions',
      definition(
        'template-sub-expressions',
        content(`        {{h\n${'        (h\n'.repeat(20_000)}        x${')'.repeat(20_000)}}}\n`),
      ),
      'template-syntax',
      10 + 65,
      9,
    ],
  ];

  it('validate reports each with a positioned diagnostic and a stable code, never a crash; the rest is checked', async () => {
    const files: Record<string, string> = {
      'workflows/fine.yaml': definition('fine', '      content: hello {{name}}\n'),
    };
    for (const [name, text] of cases) files[`workflows/${name}.yaml`] = text;
    const cwd = makeProject(files);
    cleanups.push(() => rmSync(cwd, { recursive: true, force: true }));
    const result = await runCli(['validate', '--format', 'json'], { cwd, timeoutMs: 120_000 });
    expect(result.stderr).not.toMatch(BUG);
    expect(result.status).toBe(3);
    const report = parseJsonOutput('validate', result.stdout) as {
      summary: { files: number; filesWithProblems: number };
      diagnostics: Array<{ file: string; code: string; line: number; column: number; severity: string }>;
    };
    expect(report.summary).toMatchObject({ files: cases.length + 1, filesWithProblems: cases.length });
    // The first error of each file (an alias chain is refused at every use that goes too deep).
    const first = new Map<string, [string, string, number, number]>();
    for (const { file, code, line, column, severity } of report.diagnostics) {
      if (severity === 'error' && !first.has(file)) first.set(file, [file, code, line, column]);
    }
    const found = [...first.values()];
    expect(found).toEqual(
      cases
        .map(([name, , code, line, column]) => [`workflows/${name}.yaml`, code, line, column])
        .sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    );
  });
});
