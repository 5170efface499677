import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createCommandMark } from '../../../src/cli/command-mark.js';
import type { PlanArguments } from '../../../src/cli/commands/plan-run.js';
import type { SyncArguments } from '../../../src/cli/commands/sync-run.js';
import type { CommandContext } from '../../../src/cli/context.js';
import type * as Program from '../../../src/cli/program.js';

/**
 * argv → one typed value per command: the real program parses, lazyAction merges the global options once, and the
 * run module's parser makes the command's arguments (the run itself replaced, to see what it would get).
 */

const parsed = { value: undefined as unknown };
const PLAN_RUN = '../../../src/cli/commands/plan-run.js';
const SYNC_RUN = '../../../src/cli/commands/sync-run.js';
let program: typeof Program;
// The unit project shares modules between files (isolate: false): the program is imported afresh over the replaced
// run modules, and the module registry reset again after.
beforeAll(async () => {
  vi.doMock(PLAN_RUN, replacePlanRun);
  vi.doMock(SYNC_RUN, replaceSyncRun);
  vi.resetModules();
  program = await import('../../../src/cli/program.js');
});
afterAll(() => {
  vi.doUnmock(PLAN_RUN);
  vi.doUnmock(SYNC_RUN);
  vi.resetModules();
});

async function replacePlanRun(importOriginal: () => Promise<unknown>) {
  const actual = (await importOriginal()) as typeof import('../../../src/cli/commands/plan-run.js');
  return {
    ...actual,
    runPlan: async (_ctx: unknown, paths: string[], values: Parameters<typeof actual.runPlan>[2]) => {
      parsed.value = actual.parsePlanArguments(paths, values);
      return 0;
    },
  };
}

async function replaceSyncRun(importOriginal: () => Promise<unknown>) {
  const actual = (await importOriginal()) as typeof import('../../../src/cli/commands/sync-run.js');
  return {
    ...actual,
    runSync: async (_ctx: unknown, paths: string[], values: Parameters<typeof actual.runSync>[2]) => {
      parsed.value = actual.parseSyncArguments(paths, values);
      return 0;
    },
  };
}

const sink = () =>
  new Writable({
    write(_chunk, _encoding, done) {
      done();
    },
  });

async function parse(args: string[]): Promise<unknown> {
  const ctx: CommandContext = {
    stdout: sink(),
    stderr: sink(),
    env: {},
    cwd: '/',
    commandMark: createCommandMark(() => 'mark:'),
    exitCode: 0,
  };
  parsed.value = undefined;
  await program.buildProgram(ctx, args).parseAsync(args, { from: 'user' });
  return parsed.value;
}

describe('the arguments of a command that talks to a target, parsed once', () => {
  it('plan: every flag, the global ones included, in its place of one typed value', async () => {
    const args = await parse([
      ...['--config', 'c.yaml', '--verbose', 'plan', 'workflows/a', 'workflows/b'],
      ...['--target', 'dev', '--base-url', 'https://api.example.com', '--state', 's.json'],
      ...['--concurrency', '3', '--allow-insecure-http', '--only', 'order-*', '-q'],
      ...['--format', 'json', '--out', 'plan.json', '--show-ignored', '--base', 'main'],
      ...['--previews', 'previews', '--codequality', 'cq.json', '--report-unused-disable'],
    ]);
    expect(args).toEqual({
      options: {
        config: 'c.yaml',
        target: 'dev',
        baseUrl: 'https://api.example.com',
        state: 's.json',
        concurrency: 3,
        allowInsecureHttp: true,
        only: ['order-*'],
        paths: ['workflows/a', 'workflows/b'],
        reportUnusedDisable: true,
      },
      quiet: true,
      verbose: true,
      format: 'json',
      out: 'plan.json',
      showIgnored: true,
      base: 'main',
      previews: 'previews',
      codequality: 'cq.json',
    } satisfies PlanArguments);
  });

  it('plan with no flag: the defaults, and nothing the user did not give', async () => {
    expect(await parse(['plan'])).toStrictEqual({
      options: { paths: [] },
      quiet: false,
      verbose: false,
      format: 'human',
      showIgnored: false,
    } satisfies PlanArguments);
  });

  it("sync: its own flags beside the target's", async () => {
    expect(
      await parse([
        ...['sync', '--dry-run', '--lock-timeout', '5', '--plan', 'p.json', '-t', 'prod'],
        '--report-unused-disable',
      ]),
    ).toStrictEqual({
      options: { target: 'prod', paths: [], reportUnusedDisable: true },
      quiet: false,
      verbose: false,
      format: 'human',
      dryRun: true,
      lockTimeout: 5,
      plan: 'p.json',
    } satisfies SyncArguments);
  });
});
