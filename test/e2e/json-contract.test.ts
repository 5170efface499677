import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PR_COMMENT_MARKER, prCommentMarker } from '../../src/report/plan/markdown.js';
import { parseJsonOutput } from '../helpers/json-output.js';
import { runCli } from './helpers.js';
import { closedPort, EXAMPLE_IDENTIFIERS, startTarget } from './plan-sync-target.js';

/**
 * The JSON contract and the failure documents, end to end: every command in `--format json` prints one document of
 * its schema (runCli checks that on every run; here each command is run once on purpose), and a command that fails
 * as a whole still prints one document: the error document in json, a failed-plan comment in markdown.
 */

describe('every command in --format json', () => {
  it('prints one document of its schema: validate, plan (and --out), sync --dry-run, sync, state show, pull', async () => {
    const target = await startTarget();
    // validate takes no --target (target.run appends one).
    const validate = await runCli(['validate', '--format', 'json'], { cwd: target.cwd });
    expect(parseJsonOutput('validate', validate.stdout).summary.errors).toBe(0);

    const plan = await target.run(['plan', '--format', 'json', '--out', 'plan.json', '--quiet']);
    expect(plan.status).toBe(2);
    const planned = parseJsonOutput('plan', plan.stdout);
    expect(planned.summary.create).toBe(EXAMPLE_IDENTIFIERS.length);
    // --out writes the same document.
    expect(readFileSync(join(target.cwd, 'plan.json'), 'utf8')).toBe(plan.stdout);

    const dryRun = await target.run(['sync', '--dry-run', '--format', 'json', '--quiet']);
    expect(parseJsonOutput('plan', dryRun.stdout).summary.create).toBe(EXAMPLE_IDENTIFIERS.length);

    const sync = await target.run(['sync', '--format', 'json', '--quiet']);
    expect(sync.status).toBe(0);
    const synced = parseJsonOutput('sync', sync.stdout);
    expect(synced.summary).toEqual({
      created: 9,
      updated: 0,
      deleted: 0,
      promoted: 0,
      inSync: 0,
      drifted: 0,
      changedLocally: 0,
      missingRemotely: 0,
      conflict: 0,
      orphaned: 0,
      failed: 0,
      skipped: 0,
    });

    const state = await target.run(['state', 'show', '--format', 'json']);
    const shown = parseJsonOutput('state', state.stdout);
    expect(Object.keys(shown.workflows).sort()).toEqual(EXAMPLE_IDENTIFIERS);

    const pull = await target.run(['pull', 'order-shipped', '--format', 'json', '--quiet']);
    expect(parseJsonOutput('pull', pull.stdout).summary).toEqual({ written: 0, unchanged: 1, failed: 0 });
  });
});

describe('sync --plan and the plan document version', () => {
  it('writes its verdict, and refuses another schemaVersion naming both', async () => {
    const target = await startTarget();
    expect((await target.run(['plan', '--out', 'plan.json', '--quiet'])).status).toBe(2);
    const { schemaVersion, exitCode, needsPerson, meaning, ...rest } = JSON.parse(
      readFileSync(join(target.cwd, 'plan.json'), 'utf8'),
    );
    expect(schemaVersion).toBe(4);
    expect({ exitCode, needsPerson, meaning }).toEqual({
      exitCode: 2,
      needsPerson: [],
      meaning: 'changes that sync applies (workflows to create, update or delete)',
    });
    writeFileSync(join(target.cwd, 'newer.json'), JSON.stringify({ ...rest, schemaVersion: 5 }));
    const refused = await target.run(['sync', '--plan', 'newer.json', '--format', 'json', '--quiet']);
    expect(refused.status).toBe(3);
    expect(refused.posts).toBe(0);
    expect(parseJsonOutput('sync', refused.stdout).error).toEqual({
      code: 'invalid',
      message:
        'newer.json is not a plan written by "wfsync plan --out": the plan has schemaVersion 5; this wfsync reads ' +
        'schemaVersion 2, 3 and 4 (and plans written with "version": 1): make the plan with the wfsync that syncs it',
      exitCode: 3,
    });
  });

  it.each([
    ['"version": 1', { version: 1 }],
    ['schemaVersion 2, before the verdict', { schemaVersion: 2 }],
  ])('applies a plan written with %s', async (_name, version) => {
    const target = await startTarget();
    expect((await target.run(['plan', '--out', 'plan.json', '--quiet'])).status).toBe(2);
    const {
      schemaVersion: _,
      exitCode: _c,
      needsPerson: _w,
      meaning: _m,
      ...rest
    } = JSON.parse(readFileSync(join(target.cwd, 'plan.json'), 'utf8'));
    writeFileSync(join(target.cwd, 'old.json'), JSON.stringify({ ...version, ...rest }));
    const applied = await target.run(['sync', '--plan', 'old.json', '--quiet']);
    expect(applied.status, applied.stderr).toBe(0);
    expect(applied.posts).toBe(EXAMPLE_IDENTIFIERS.length);
  });
});

describe('a command that fails as a whole, in --format json', () => {
  it('invalid definitions: exit 3, the error with its diagnostics; stderr keeps the human report', async () => {
    const target = await startTarget();
    const file = join(target.cwd, 'workflows/order-shipped.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('type: in_app', 'type: in_ap'));
    const run = await target.run(['plan', '--format', 'json']);
    expect(run.status).toBe(3);
    const { error } = parseJsonOutput('plan', run.stdout);
    expect(error.code).toBe('invalid');
    expect(error.diagnostics.map((d: { file: string; code: string }) => [d.file, d.code])).toEqual([
      ['workflows/order-shipped.yaml', 'schema-enum'],
    ]);
    expect(run.stderr).toContain('wfsync: 1 problem in the definitions; nothing was sent');
    expect(run.requests).toEqual([]);
  });

  it('a rejected key: exit 4, the request and status, and never the key', async () => {
    const target = await startTarget();
    const key = 'sk_wrong_0123456789abcdef';
    const run = await target.run(['sync', '--format', 'json', '--quiet'], { DEV_KEY: key });
    expect(run.status).toBe(4);
    const { error } = parseJsonOutput('sync', run.stdout);
    expect(error).toMatchObject({ code: 'auth', exitCode: 4, status: 401, endpoint: { method: 'GET' } });
    expect(run.stdout + run.stderr).not.toContain(key);
  });

  it('the service down: exit 1, service-network, naming the request', async () => {
    const target = await startTarget({ baseUrl: `http://127.0.0.1:${await closedPort()}` });
    const run = await target.run(['plan', '--format', 'json', '--quiet']);
    expect(run.status).toBe(1);
    const { error } = parseJsonOutput('plan', run.stdout);
    expect(error.code).toBe('service-network');
    expect(error.endpoint.method).toBe('GET');
    expect(run.stderr).toContain(error.message);
  });

  it('a usage error of a command given --format json: exit 64, code usage; validate alike', async () => {
    const target = await startTarget();
    const run = await target.run(['plan', '--format', 'json', '--bogus']);
    expect(run.status).toBe(64);
    expect(parseJsonOutput('plan', run.stdout).error).toEqual({
      code: 'usage',
      message: "unknown option '--bogus'",
      exitCode: 64,
    });
    const validate = await runCli(['validate', 'nowhere', '--format=json'], { cwd: target.cwd });
    expect(validate.status).toBe(64);
    expect(parseJsonOutput('validate', validate.stdout).error).toEqual({
      code: 'usage',
      message: 'no such file or directory: nowhere',
      exitCode: 64,
    });
    // Another format: nothing on stdout.
    expect((await target.run(['plan', '--bogus'])).stdout).toBe('');
  });
});

describe('plan --format markdown', () => {
  it('stamps the comment with GITHUB_SHA, the time (SOURCE_DATE_EPOCH) and the target', async () => {
    const target = await startTarget();
    const run = await target.run(['plan', '--format', 'markdown', '--quiet'], {
      GITHUB_SHA: 'c0ffee0123456789c0ffee0123456789c0ffee01',
      SOURCE_DATE_EPOCH: '1764124200',
    });
    expect(run.status).toBe(2);
    expect(run.stdout).toContain('\n<sub>Commit `c0ffee0` · 2025-11-26 02:30 UTC · target `dev`</sub>\n');
    expect(run.stdout).toContain("main's sync (`wfsync sync --target dev`) will create 9 workflows:");
  });

  it('stamps it with the commit git has checked out when GITHUB_SHA is not set', async () => {
    const target = await startTarget();
    const git = (...args: string[]) =>
      spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], {
        cwd: target.cwd,
        encoding: 'utf8',
      });
    git('init', '-q');
    git('add', '.');
    git('commit', '-qm', 'definitions');
    const head = git('rev-parse', '--short', 'HEAD').stdout.trim();
    expect(head).toMatch(/^[0-9a-f]{7,}$/);
    const run = await target.run(['plan', '--format', 'markdown', '--quiet']);
    expect(run.stdout).toMatch(
      new RegExp(`\\n<sub>Commit \`${head}\` · \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC · target`),
    );
  });

  it('the service down: exit 1, and one comment with the markers saying the plan failed and why', async () => {
    const target = await startTarget({ baseUrl: `http://127.0.0.1:${await closedPort()}` });
    const run = await target.run(['plan', '--format', 'markdown', '--quiet'], {
      SOURCE_DATE_EPOCH: '1764124200',
    });
    expect(run.status).toBe(1);
    const lines = run.stdout.split('\n');
    expect(lines.slice(0, 5)).toEqual([
      PR_COMMENT_MARKER,
      prCommentMarker('dev'),
      '## ✖ wfsync plan failed · dev',
      '',
      '<sub>2025-11-26 02:30 UTC · target `dev`</sub>',
    ]);
    expect(run.stdout).toContain('**No plan: the plan could not be made (exit 1, `service-network`).**');
    expect(run.stdout).toContain(
      '**What to do:** the service could not be asked: re-run the job once it answers',
    );
    expect(run.stdout.split(PR_COMMENT_MARKER)).toHaveLength(2);
    expect(run.stderr).toContain('wfsync: GET /v1/workflows');
  });
});
