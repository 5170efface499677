import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stringify } from 'yaml';
import {
  AbortError,
  ExitCode,
  loadProject,
  plan,
  sync,
  validate,
  WfsyncError,
} from '../../../src/api/index.js';
import { main } from '../../../src/cli/main.js';
import { type RunningEmulator, startEmulator } from '../../../src/emulator/index.js';
import { git } from '../../helpers/git.js';
import { jsonOutputProblems } from '../../helpers/json-output.js';
import { useTempProjects, writeFiles } from '../../helpers/temp-project.js';
import { aWorkflowNamed, aWorkflowYaml } from '../../helpers/workflow.js';

/**
 * The programmatic API against the emulator over loopback: its results are the documents `--format json` prints
 * (the CLI run in-process on the same project, then both held to schemas/*-output.schema.json), its failures typed
 * errors, and it prints nothing.
 */

const NAMES = ['order shipped', 'password reset', 'welcome'];
const tempProject = useTempProjects('wfsync-api-');
let emulator: RunningEmulator;
let cwd: string;
let env: Record<string, string>;

async function makeProject(options: { latencyMs?: [number, number]; concurrency?: number } = {}) {
  emulator = await startEmulator({
    seed: 7,
    ...(options.latencyMs ? { faults: { latencyMs: options.latencyMs } } : {}),
  });
  cwd = tempProject({
    'wfsync.config.yaml': stringify({
      defaultTarget: 'dev',
      targets: {
        dev: {
          baseUrl: emulator.url,
          apiKeyEnv: 'DEV_KEY',
          notificationGroupId: emulator.notificationGroupId,
          concurrency: options.concurrency ?? 4,
        },
      },
    }),
    ...Object.fromEntries(
      NAMES.map((name) => [`workflows/${name.replace(/ /g, '-')}.yaml`, aWorkflowYaml(aWorkflowNamed(name))]),
    ),
  });
  // Only through the `env` option: process.env has no DEV_KEY.
  env = { DEV_KEY: emulator.apiKey };
}

/** `wfsync <args>` in-process on the project, as a user's shell would run it: stdout, stderr, exit code. */
async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const sink = (into: string[]) =>
    new Writable({
      write(chunk, _encoding, done) {
        into.push(String(chunk));
        done();
      },
    });
  const code = await main(args, {
    stdout: sink(out),
    stderr: sink(err),
    env: { ...env, NO_COLOR: '1', TZ: 'UTC' },
    cwd,
  });
  return { code, stdout: out.join(''), stderr: err.join('') };
}

afterEach(async () => {
  await emulator?.close();
});

describe('the API returns what --format json prints', () => {
  beforeEach(() => makeProject());

  it('validate: the same document, schema-valid; valid and exit 0', async () => {
    const result = await validate({ cwd });
    const printed = await cli(['validate', '--format', 'json']);
    expect(printed.code).toBe(0);
    expect(result.document).toEqual(JSON.parse(printed.stdout));
    expect(jsonOutputProblems('validate', result.document)).toEqual([]);
    expect(result).toMatchObject({ valid: true, exitCode: ExitCode.Ok });
    expect(result.document.summary.files).toBe(3);
  });

  it('validate: findings are a result (exit 3), not an error; paths and quiet as the flags', async () => {
    writeFiles(cwd, { 'workflows/broken.yaml': 'name: broken\nsteps: []\n' });
    const result = await validate({ cwd, paths: ['workflows/broken.yaml'] });
    const printed = await cli(['validate', '--format', 'json', 'workflows/broken.yaml']);
    expect(printed.code).toBe(3);
    expect(result.document).toEqual(JSON.parse(printed.stdout));
    expect(result).toMatchObject({ valid: false, exitCode: ExitCode.Invalid });
    expect(result.document.summary.files).toBe(1);
    expect(result.document.diagnostics.length).toBeGreaterThan(0);
    expect(jsonOutputProblems('validate', result.document)).toEqual([]);
  });

  it('plan, sync --dry-run, sync, then plan and sync again: the same documents as the CLI', async () => {
    const planned = await plan({ cwd, env });
    const printedPlan = await cli(['plan', '--format', 'json']);
    expect(printedPlan.code).toBe(ExitCode.Changes);
    expect(planned.document).toEqual(JSON.parse(printedPlan.stdout));
    expect(jsonOutputProblems('plan', planned.document)).toEqual([]);
    expect(planned).toMatchObject({ exitCode: ExitCode.Changes, needsPerson: false });
    expect(planned.document.summary.create).toBe(3);

    const dry = await sync({ cwd, env, dryRun: true });
    expect(dry.document).toEqual(planned.document);
    expect(emulator.workflows()).toEqual([]);

    const synced = await sync({ cwd, env });
    expect(jsonOutputProblems('sync', synced.document)).toEqual([]);
    expect(synced).toMatchObject({ exitCode: ExitCode.Ok, needsPerson: false });
    expect(synced.document.summary.created).toBe(3);
    expect(emulator.workflows()).toHaveLength(3);

    const again = await sync({ cwd, env });
    const printedSync = await cli(['sync', '--format', 'json']);
    expect(printedSync.code).toBe(0);
    expect(again.document).toEqual(JSON.parse(printedSync.stdout));
    expect(again.document.summary.inSync).toBe(3);
    const planAgain = await plan({ cwd, env, only: ['welcome'] });
    expect(planAgain.document).toEqual(
      JSON.parse((await cli(['plan', '--format', 'json', '--only', 'welcome'])).stdout),
    );
    expect(planAgain.document.items.map((i) => [i.identifier, i.action])).toEqual([['welcome', 'in-sync']]);
    expect(planAgain.exitCode).toBe(ExitCode.Ok);
  });

  it('a drifted workflow: needsPerson, exit 6, as the CLI says', async () => {
    await sync({ cwd, env });
    writeFiles(cwd, {
      'workflows/welcome.yaml': aWorkflowYaml(aWorkflowNamed('welcome', { description: 'changed here' })),
    });
    const planned = await plan({ cwd, env });
    const printed = await cli(['plan', '--format', 'json']);
    expect(printed.code).toBe(ExitCode.NeedsPerson);
    expect(planned.document).toEqual(JSON.parse(printed.stdout));
    expect(planned).toMatchObject({ exitCode: ExitCode.NeedsPerson, needsPerson: true });
  });

  it('loadProject: the target and the definitions, no secret', async () => {
    const project = await loadProject({ cwd, env });
    expect(project.target).toMatchObject({
      name: 'dev',
      kind: 'remote',
      baseUrl: emulator.url,
      apiKeyEnv: 'DEV_KEY',
    });
    expect(project.definitions.map((d) => [d.identifier, d.file])).toEqual([
      ['order-shipped', 'workflows/order-shipped.yaml'],
      ['password-reset', 'workflows/password-reset.yaml'],
      ['welcome', 'workflows/welcome.yaml'],
    ]);
    expect(project.configFile).toBe(join(cwd, 'wfsync.config.yaml'));
    expect(JSON.stringify(project)).not.toContain(emulator.apiKey);
  });

  it('prints nothing and never exits the process', async () => {
    const writes = [vi.spyOn(process.stdout, 'write'), vi.spyOn(process.stderr, 'write')];
    const exit = vi.spyOn(process, 'exit');
    const logged: string[] = [];
    try {
      await validate({ cwd });
      await plan({ cwd, env, verbose: true, onLog: (line) => logged.push(line) });
      await sync({ cwd, env, verbose: true, onLog: (line) => logged.push(line) });
      await plan({ cwd, env: {} }).catch(() => undefined);
      for (const spy of writes) expect(spy).not.toHaveBeenCalled();
      expect(exit).not.toHaveBeenCalled();
    } finally {
      for (const spy of [...writes, exit]) spy.mockRestore();
    }
    // --verbose's details went to onLog instead: where the requests went.
    expect(logged.some((line) => line.includes(emulator.url))).toBe(true);
  });
});

describe('typed errors instead of exit codes', () => {
  beforeEach(() => makeProject());

  it('invalid definitions: code invalid, exit code 3, the diagnostics; nothing sent', async () => {
    writeFiles(cwd, { 'workflows/broken.yaml': 'name: broken\nsteps: []\n' });
    const error = await plan({ cwd, env }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WfsyncError);
    expect(error).toMatchObject({ code: 'invalid', exitCode: ExitCode.Invalid });
    expect((error as WfsyncError).diagnostics.map((d) => d.file)).toContain('workflows/broken.yaml');
    await expect(sync({ cwd, env })).rejects.toMatchObject({ code: 'invalid', exitCode: 3 });
    await expect(loadProject({ cwd, env })).rejects.toMatchObject({ code: 'invalid' });
    expect(emulator.requests()).toEqual([]);
  });

  it('a wrong key: code auth, exit code 4, the key in no message', async () => {
    const wrong = 'wfs_local_00000000000000000000000000000bad';
    const error = await sync({ cwd, env: { DEV_KEY: wrong } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WfsyncError);
    expect(error).toMatchObject({ code: 'auth', exitCode: ExitCode.Auth });
    expect(String((error as Error).message)).not.toContain(wrong);
    expect(JSON.stringify(error)).not.toContain(wrong);
    // No key at all: the same class of error, saying which variable to set.
    await expect(plan({ cwd, env: {} })).rejects.toMatchObject({ code: 'auth', exitCode: ExitCode.Auth });
    expect(emulator.workflows()).toEqual([]);
  });

  it('an unknown target: code usage, exit code 64', async () => {
    await expect(plan({ cwd, env, target: 'nowhere' })).rejects.toMatchObject({
      code: 'usage',
      exitCode: ExitCode.Usage,
    });
  });

  it('the service down: code service, exit code 1', async () => {
    await emulator.close();
    await expect(plan({ cwd, env, concurrency: 1 })).rejects.toMatchObject({
      code: 'service',
      exitCode: ExitCode.Failure,
    });
  }, 60_000);
});

describe('an AbortSignal', () => {
  it('already aborted: an AbortError before anything is read or sent', async () => {
    await makeProject();
    const error = await plan({ cwd, env, signal: AbortSignal.abort() }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AbortError);
    expect(error).toMatchObject({ code: 'aborted', name: 'AbortError' });
    await expect(sync({ cwd, env, signal: AbortSignal.abort() })).rejects.toBeInstanceOf(AbortError);
    expect(emulator.requests()).toEqual([]);
  });

  it('during a sync: in-flight requests cancelled, an AbortError with what was done; state consistent, the next sync finishes', async () => {
    await makeProject({ latencyMs: [30, 60], concurrency: 1 });
    const controller = new AbortController();
    const progress: string[] = [];
    const error = await sync({
      cwd,
      env,
      signal: controller.signal,
      onEvent: (event) => {
        progress.push(event.type);
        // The first create is under way: abort it and everything after it.
        if (event.type === 'workflow' && event.status === 'creating') controller.abort();
      },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AbortError);
    const done = (error as AbortError<{ interrupted: boolean; summary: { created: number } }>).document;
    expect(done?.interrupted).toBe(true);
    expect(done!.summary.created).toBeLessThan(3);
    // The state file is whole, and a run without the signal ends with each workflow created exactly once.
    JSON.parse(readFileSync(join(cwd, '.wfsync/state/dev.json'), 'utf8'));
    const next = await sync({ cwd, env });
    expect(next.exitCode).toBe(ExitCode.Ok);
    const identifiers = emulator.workflows().map((w) => w.triggers[0]!.identifier);
    expect(identifiers.sort()).toEqual(['order-shipped', 'password-reset', 'welcome']);
  }, 60_000);

  it('during a plan: an AbortError', async () => {
    await makeProject({ latencyMs: [200, 300] });
    const controller = new AbortController();
    const error = await plan({
      cwd,
      env,
      signal: controller.signal,
      onClientEvent: (event) => {
        if (event.type === 'request') controller.abort();
      },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AbortError);
  }, 60_000);
});

describe("base: git runs with the env option, at the project's repository", () => {
  /** The project committed on main, then a branch; returns main's commit. */
  function commitProject(): string {
    git(cwd, 'init', '-q', '-b', 'main');
    git(cwd, 'add', '-A');
    git(cwd, 'commit', '-q', '-m', 'three workflows');
    git(cwd, 'checkout', '-q', '-b', 'change');
    return git(cwd, 'rev-parse', 'main').trim();
  }

  it("a GIT_DIR in env pointing at another repository: the project's base is read", async () => {
    await makeProject();
    const mergeBase = commitProject();
    const decoy = tempProject();
    git(decoy, 'init', '-q', '-b', 'main');
    git(decoy, 'commit', '-q', '--allow-empty', '-m', 'another repository');
    const decoyEnv = {
      GIT_DIR: join(decoy, '.git'),
      GIT_WORK_TREE: decoy,
      GIT_INDEX_FILE: join(decoy, 'x'),
    };
    const result = await plan({ cwd, base: 'main', env: { ...env, PATH: process.env.PATH, ...decoyEnv } });
    expect(result.document.base).toEqual({ ref: 'main', commit: mergeBase });
    expect(git(decoy, 'rev-parse', 'main').trim()).not.toBe(mergeBase);
  });

  it("git is looked up on env's PATH, not the process's: none there is a usage error", async () => {
    await makeProject();
    commitProject();
    const error = await plan({ cwd, base: 'main', env: { ...env, PATH: '/nonexistent' } }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(WfsyncError);
    expect((error as WfsyncError).exitCode).toBe(ExitCode.Usage);
    expect((error as WfsyncError).message).toBe('--base main: git is not installed (or not on PATH)');
  });
});
