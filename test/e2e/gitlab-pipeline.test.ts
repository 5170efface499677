import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { type RunningEmulator, startEmulator } from '../../src/emulator/index.js';
import { prCommentMarker } from '../../src/report/plan/markdown.js';
import { git } from '../helpers/git.js';
import { jsonOutputProblems } from '../helpers/json-output.js';
import {
  makeGitlabProject,
  type NotesApi,
  otherNotes,
  runJobScript,
  startNotesApi,
} from './gitlab-fixture.js';
import { ROOT, runCli } from './helpers.js';

const GCL = join(ROOT, 'node_modules/.bin/gitlab-ci-local');
const MARKER = prCommentMarker('development');
const PIPELINE = '.gitlab/wfsync.gitlab-ci.yml';

/** gitlab-ci-local (the real client, 4.64) in `cwd`: it parses, expands includes and checks GitLab's JSON schema. */
function gitlabCiLocal(cwd: string, args: string[]) {
  const result = spawnSync(process.execPath, [GCL, ...args], { cwd, encoding: 'utf8', timeout: 120_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** The variables GitLab sets for each kind of pipeline (CI_COMMIT_BRANCH is not set in merge request pipelines). */
const SOURCES: Record<string, string[]> = {
  'merge request': [
    '--variable',
    'CI_PIPELINE_SOURCE=merge_request_event',
    '--unset-variable',
    'CI_COMMIT_BRANCH',
  ],
  'push to the default branch': ['--variable', 'CI_PIPELINE_SOURCE=push'],
  'push to another branch': [
    '--variable',
    'CI_PIPELINE_SOURCE=push',
    '--variable',
    'CI_COMMIT_BRANCH=feature',
  ],
  schedule: ['--variable', 'CI_PIPELINE_SOURCE=schedule'],
};
const QUIET = ['--ignore-predefined-vars', 'CI_PIPELINE_SOURCE,CI_COMMIT_BRANCH'];

/** The jobs of a kind of pipeline, as gitlab-ci-local decides them from the rules. */
function jobsOf(cwd: string, source: string): string[] {
  const result = gitlabCiLocal(cwd, ['--list-json', ...SOURCES[source]!, ...QUIET]);
  expect(result.status, result.stderr).toBe(0);
  const jobs = JSON.parse(result.stdout) as Array<{ name: string; when: string }>;
  return jobs.filter((job) => job.when !== 'never').map((job) => job.name);
}

let emulator: RunningEmulator;
let notesApi: NotesApi | undefined;
const dirs: string[] = [];

beforeEach(async () => {
  emulator = await startEmulator({ seed: 1 });
});
afterEach(async () => {
  await emulator.close();
  await notesApi?.close();
  notesApi = undefined;
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function project(): Promise<string> {
  const cwd = await makeGitlabProject(emulator);
  dirs.push(cwd);
  return cwd;
}

describe('the pipeline `wfsync init --ci gitlab` writes, linted by gitlab-ci-local', () => {
  it('passes GitLab schema validation and the dependency chain of every kind of pipeline, each with its jobs', {
    timeout: 300_000,
  }, async () => {
    const cwd = await project();
    const expected: Record<string, string[]> = {
      'merge request': ['wfsync-validate', 'wfsync-plan'],
      'push to the default branch': [
        'wfsync-validate',
        'wfsync-sync',
        'wfsync-plan-production',
        'wfsync-promote',
      ],
      'push to another branch': [],
      schedule: ['wfsync-drift'],
    };
    for (const [source, jobs] of Object.entries(expected)) {
      expect(jobsOf(cwd, source), source).toEqual(jobs);
      const chain = gitlabCiLocal(cwd, ['--validate-dependency-chain', ...SOURCES[source]!, ...QUIET]);
      expect(chain.status, `${source}: ${chain.stderr}`).toBe(0);
      expect(chain.stdout + chain.stderr).toContain('json schema validated');
    }
  });

  it('expands to the jobs as described: image, stages, full history, resource group, Code Quality reports', async () => {
    const cwd = await project();
    const preview = gitlabCiLocal(cwd, ['--preview']);
    expect(preview.status, preview.stderr).toBe(0);
    const pipeline = parse(preview.stdout) as Record<string, Record<string, unknown>>;
    expect(pipeline.stages).toEqual(['.pre', 'test', 'deploy', '.post']);
    for (const job of ['wfsync-validate', 'wfsync-plan', 'wfsync-sync', 'wfsync-drift']) {
      expect(pipeline[job]!.image, job).toEqual({ name: 'node:24' });
      expect((pipeline[job]!.cache as Array<{ paths: string[] }>)[0]!.paths, job).toEqual(['.npm/']);
    }
    expect(pipeline['wfsync-plan']!.variables).toMatchObject({ GIT_DEPTH: '0' });
    expect(pipeline['wfsync-sync']!.resource_group).toBe('wfsync-development');
    expect(pipeline['wfsync-sync']!.stage).toBe('deploy');
    // Promotion: the production plan after the sync, then a manual job in the protected environment production.
    expect(pipeline['wfsync-plan-production']).toMatchObject({
      stage: 'deploy',
      needs: [{ job: 'wfsync-sync', artifacts: true, optional: false }],
    });
    expect(String(pipeline['wfsync-plan-production']!.script)).toContain(
      'npx wfsync plan --target production --out plan-production.json || code=$?',
    );
    expect(pipeline['wfsync-promote']).toMatchObject({
      stage: 'deploy',
      needs: [{ job: 'wfsync-plan-production', artifacts: true, optional: false }],
      environment: { name: 'production', deployment_tier: 'production' },
      resource_group: 'wfsync-production',
      allow_failure: { exit_codes: [78] },
    });
    expect(pipeline['wfsync-promote']!.rules).toContainEqual({
      if: '$CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH',
      when: 'manual',
    });
    expect(String(pipeline['wfsync-promote']!.script)).toContain(
      'npx wfsync sync --target production --out wfsync-promote.json || code=$?',
    );
    expect(String(pipeline['wfsync-promote']!.script)).toContain('no WFSYNC_PRODUCTION_API_KEY variable');
    expect(pipeline['wfsync-validate']!.artifacts).toMatchObject({
      reports: { codequality: 'gl-code-quality-validate.json' },
    });
    expect(pipeline['wfsync-plan']!.artifacts).toMatchObject({
      paths: ['plan.json', 'plan.md', 'wfsync-previews/'],
      reports: { codequality: 'gl-code-quality-plan.json' },
    });
  });

  it.each([
    [
      'a stage the pipeline does not declare',
      (text: string) => text.replace('stage: deploy', 'stage: deploi'),
      /stage:deploi not found/,
    ],
    [
      'a misspelt keyword',
      (text: string) => text.replace('resource_group:', 'resource_groups:'),
      /schema|additionalProperties/i,
    ],
    [
      'a need on a job the merge request pipeline lacks',
      (text: string) =>
        text.replace(
          '    - wfsync-validate\n  rules:\n    - if: $CI_PIPELINE_SOURCE == "merge_request_event"',
          '    - wfsync-sync\n  rules:\n    - if: $CI_PIPELINE_SOURCE == "merge_request_event"',
        ),
      /wfsync-sync/,
    ],
  ])('fails the lint on a broken pipeline: %s', async (_what, spoil, message) => {
    const cwd = await project();
    const path = join(cwd, PIPELINE);
    const broken = spoil(readFileSync(path, 'utf8'));
    expect(broken).not.toBe(readFileSync(path, 'utf8'));
    writeFileSync(path, broken);
    const result = gitlabCiLocal(cwd, [
      '--validate-dependency-chain',
      ...SOURCES['merge request']!,
      ...QUIET,
    ]);
    expect(result.status).not.toBe(0);
    expect(result.stdout + result.stderr).toMatch(message);
  });
});

/** A job's script as the pipeline file holds it. */
function jobScript(cwd: string, job: string): string {
  const pipeline = parse(readFileSync(join(cwd, PIPELINE), 'utf8')) as Record<string, { script: string[] }>;
  return pipeline[job]!.script.join('\n');
}

/** What GitLab sets for the plan job of merge request !7 of project 17 (and the job's own variables). */
function mergeRequestEnv(cwd: string, api: NotesApi, base: string): Record<string, string> {
  return {
    CI: 'true',
    GITLAB_CI: 'true',
    CI_PROJECT_DIR: cwd,
    CI_PIPELINE_SOURCE: 'merge_request_event',
    CI_PROJECT_ID: '17',
    CI_MERGE_REQUEST_IID: '7',
    CI_MERGE_REQUEST_TARGET_BRANCH_NAME: 'main',
    CI_MERGE_REQUEST_DIFF_BASE_SHA: base,
    CI_API_V4_URL: api.url,
    CI_JOB_URL: 'https://gitlab.example.com/acme/app/-/jobs/1',
    npm_config_cache: join(cwd, '.npm'),
    WFSYNC_DEVELOPMENT_API_KEY: emulator.apiKey,
    WFSYNC_GITLAB_TOKEN: api.token,
  };
}

function codeQuality(cwd: string, file: string) {
  const issues = JSON.parse(readFileSync(join(cwd, file), 'utf8')) as Array<Record<string, unknown>>;
  expect(jsonOutputProblems('codeclimate', issues)).toEqual([]);
  return issues;
}

describe('the generated jobs, run as the runner runs them (sh -e, the job variables) against the emulator', () => {
  it('plan on a merge request: creates the note, then updates the same one; passes on 2, fails on 6 naming the workflow', {
    timeout: 180_000,
  }, async () => {
    const cwd = await project();
    const key = { WFSYNC_DEVELOPMENT_API_KEY: emulator.apiKey };
    // The default branch is synced: the service holds the example.
    expect((await runCli(['sync', '--target', 'development'], { cwd, env: key })).status).toBe(0);
    const base = git(cwd, 'rev-parse', 'HEAD').trim();
    git(cwd, 'checkout', '-q', '-b', 'feature');
    expect((await runCli(['new', 'invoice paid', '--channel', 'email'], { cwd })).status).toBe(0);
    git(cwd, 'add', '-A');
    git(cwd, 'commit', '-qm', 'invoice paid');
    notesApi = await startNotesApi({ project: '17', mergeRequest: '7', others: otherNotes(130, MARKER) });
    const env = mergeRequestEnv(cwd, notesApi, base);
    const script = jobScript(cwd, 'wfsync-plan');

    const before = emulator.requests().length;
    const first = await runJobScript(script, cwd, env);
    expect(first.stdout).toContain('wfsync plan: merging creates what the plan note lists');
    expect(first.status, first.stderr).toBe(0);
    // One plan run writes the note, plan.json, the previews and Code Quality: the service is read once per workflow.
    // (Two plans, as the job once ran, ask everything twice.)
    const asked = emulator.requests().slice(before);
    expect(asked.every((r) => r.method === 'GET')).toBe(true);
    expect(asked.filter((r) => r.path.startsWith('/v1/workflows/')).map((r) => r.path)).toEqual([
      '/v1/workflows/invoice-paid',
      expect.stringMatching(/^\/v1\/workflows\/[0-9a-f]{24}$/),
    ]);
    expect(new Set(asked.map((r) => r.path)).size).toBe(asked.length);
    const ours = notesApi.notes.filter((n) => n.author.id === 42);
    expect(ours).toHaveLength(1);
    expect(ours[0]!.body).toContain(MARKER);
    expect(ours[0]!.body).toContain('invoice-paid');
    expect(notesApi.notes[0]!.body).toBe(`${MARKER}\nI quoted the bot`);
    // Every page was read before deciding to create (the marker quoted by someone else does not count).
    expect(
      notesApi.requests.filter((r) => r.startsWith('GET /api/v4/projects/17/merge_requests/7/notes')),
    ).toHaveLength(2);
    expect(codeQuality(cwd, 'gl-code-quality-plan.json')).toEqual([]);
    expect(existsSync(join(cwd, 'plan.json'))).toBe(true);
    // The previews artifact: an index and the page of the workflow the merge request adds.
    expect(readdirSync(join(cwd, 'wfsync-previews')).sort()).toEqual(['index.html', 'invoice-paid.html']);

    // A second push changes the synced example: it cannot be updated through the API, so a person must act.
    const welcome = join(cwd, 'workflows/welcome.yaml');
    writeFileSync(
      welcome,
      readFileSync(welcome, 'utf8').replace('Welcome, {{firstName}}!', 'Hello, {{firstName}}!'),
    );
    git(cwd, 'commit', '-qam', 'reword');
    notesApi.requests.length = 0;
    const second = await runJobScript(script, cwd, env);
    expect(second.status, second.stderr).toBe(6);
    expect(second.stdout).toContain('a workflow needs a person: welcome (changed-locally)');
    expect(notesApi.notes.filter((n) => n.author.id === 42)).toEqual([
      { ...ours[0]!, body: expect.stringContaining('welcome') },
    ]);
    expect(
      notesApi.requests.some((r) => r === `PUT /api/v4/projects/17/merge_requests/7/notes/${ours[0]!.id}`),
    ).toBe(true);
    expect(notesApi.requests.some((r) => r.startsWith('POST'))).toBe(false);
    const issues = codeQuality(cwd, 'gl-code-quality-plan.json');
    expect(issues.map((i) => [i.check_name, (i.location as { path: string }).path])).toEqual([
      ['wfsync-plan/changed-locally', 'workflows/welcome.yaml'],
    ]);
  });

  it("sync on the default branch, then the scheduled drift check: each ends with the relay's verdict", {
    timeout: 180_000,
  }, async () => {
    const cwd = await project();
    const env = {
      CI: 'true',
      GITLAB_CI: 'true',
      CI_PROJECT_DIR: cwd,
      CI_PIPELINE_SOURCE: 'push',
      npm_config_cache: join(cwd, '.npm'),
      WFSYNC_DEVELOPMENT_API_KEY: emulator.apiKey,
    };
    const sync = await runJobScript(jobScript(cwd, 'wfsync-sync'), cwd, env);
    expect(sync.status, sync.stderr).toBe(0);
    expect(sync.stdout).toContain('wfsync sync: development matches the definitions.');
    expect(JSON.parse(readFileSync(join(cwd, 'wfsync-sync.json'), 'utf8')).exitCode).toBe(0);
    const drift = jobScript(cwd, 'wfsync-drift');
    const schedule = { ...env, CI_PIPELINE_SOURCE: 'schedule' };
    const quiet = await runJobScript(drift, cwd, schedule);
    expect(quiet.status, quiet.stderr).toBe(0);
    expect(quiet.stdout).toContain('wfsync plan: nothing to change on development.');
    // The definition changes without a sync: the next check fails naming it, as plan.json says.
    const welcome = join(cwd, 'workflows/welcome.yaml');
    writeFileSync(
      welcome,
      readFileSync(welcome, 'utf8').replace('Welcome, {{firstName}}!', 'Hello, {{firstName}}!'),
    );
    git(cwd, 'commit', '-qam', 'reword');
    const drifted = await runJobScript(drift, cwd, schedule);
    expect(drifted.status, drifted.stderr).toBe(6);
    expect(drifted.stdout).toContain('wfsync plan: a workflow needs a person: welcome (changed-locally).');
  });

  it('plan without a diff base from GitLab fetches the target branch into a single-branch clone and compares with it', {
    timeout: 120_000,
  }, async () => {
    const origin = await project();
    git(origin, 'checkout', '-q', '-b', 'feature');
    expect((await runCli(['new', 'invoice paid', '--channel', 'email'], { cwd: origin })).status).toBe(0);
    git(origin, 'add', '-A');
    git(origin, 'commit', '-qm', 'invoice paid');
    // What the runner checks out: this branch only, origin/main unknown.
    const cwd = `${origin}-clone`;
    dirs.push(cwd);
    git(origin, 'clone', '-q', '--single-branch', '--branch', 'feature', origin, cwd);
    expect(() => git(cwd, 'rev-parse', '--verify', '-q', 'origin/main')).toThrow();
    notesApi = await startNotesApi({ project: '17', mergeRequest: '7', others: [] });
    const env = { ...mergeRequestEnv(cwd, notesApi, ''), CI_MERGE_REQUEST_DIFF_BASE_SHA: '' };
    const result = await runJobScript(jobScript(cwd, 'wfsync-plan'), cwd, env);
    expect(result.status, result.stdout + result.stderr).toBe(0);
    const plan = JSON.parse(readFileSync(join(cwd, 'plan.json'), 'utf8')) as { base?: { ref: string } };
    expect(plan.base?.ref).toBe('origin/main');
    expect(notesApi.notes).toHaveLength(1);
  });

  it('plan without the API key is skipped with the exit code the job allows (a warning), and posts nothing', async () => {
    const cwd = await project();
    notesApi = await startNotesApi({ project: '17', mergeRequest: '7', others: [] });
    const { WFSYNC_DEVELOPMENT_API_KEY: _, ...env } = mergeRequestEnv(cwd, notesApi, 'HEAD');
    const result = await runJobScript(jobScript(cwd, 'wfsync-plan'), cwd, env);
    expect(result.status).toBe(78);
    expect(result.stdout).toContain('wfsync plan skipped: no WFSYNC_DEVELOPMENT_API_KEY variable');
    expect(notesApi.requests).toEqual([]);
  });

  it('validate, one run, shows the problem in the log, writes the Code Quality report and fails', {
    timeout: 120_000,
  }, async () => {
    const cwd = await project();
    const welcome = join(cwd, 'workflows/welcome.yaml');
    writeFileSync(welcome, `${readFileSync(welcome, 'utf8')}colour: blue\n`);
    const result = await runJobScript(jobScript(cwd, 'wfsync-validate'), cwd, {
      CI_PROJECT_DIR: cwd,
      npm_config_cache: join(cwd, '.npm'),
    });
    expect(result.status).toBe(3);
    // The log: the human report, once (one run, not one per output).
    expect(result.stdout.split('[schema-additional-property]')).toHaveLength(2);
    expect(result.stdout).toMatch(/workflows\/welcome\.yaml:\d+:1 error .*`colour`/);
    const issues = codeQuality(cwd, 'gl-code-quality-validate.json');
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ location: { path: 'workflows/welcome.yaml' }, severity: 'major' });
  });
});

/** gitlab-ci-local runs jobs through rsync (its copies of the repository and of artifacts). */
const HAS_RSYNC = spawnSync('rsync', ['--version'], { stdio: 'ignore' }).status === 0;
if (!HAS_RSYNC && process.env.CI)
  throw new Error('rsync is missing: .ci/run installs it for the gitlab-ci-local runs');
if (!HAS_RSYNC)
  console.warn('skipping the gitlab-ci-local job runs: rsync is not installed (apt-get install rsync)');

describe.skipIf(!HAS_RSYNC)('the generated jobs, run by gitlab-ci-local with the shell executor', () => {
  it('validate, then plan on a merge request twice: the note is created, then updated', {
    timeout: 300_000,
  }, async () => {
    const cwd = await project();
    const base = git(cwd, 'rev-parse', 'HEAD').trim();
    git(cwd, 'checkout', '-q', '-b', 'feature');
    expect((await runCli(['new', 'invoice paid', '--channel', 'email'], { cwd })).status).toBe(0);
    git(cwd, 'add', '-A');
    git(cwd, 'commit', '-qm', 'invoice paid');
    notesApi = await startNotesApi({ project: '17', mergeRequest: '7', others: otherNotes(3, MARKER) });
    const variables = Object.entries({
      ...mergeRequestEnv(cwd, notesApi, base),
      CI_PROJECT_DIR: undefined,
      npm_config_cache: undefined,
    })
      .filter(([, value]) => value !== undefined)
      .flatMap(([name, value]) => ['--variable', `${name}=${value}`]);
    // Not spawnSync: the emulator and the notes API answer from this process.
    const run = () =>
      runJobScript(`"$0" "$@"`, cwd, {}, [
        process.execPath,
        GCL,
        '--force-shell-executor',
        '--needs',
        'wfsync-plan',
        ...SOURCES['merge request']!,
        ...variables,
        '--ignore-predefined-vars',
        'CI,GITLAB_CI,CI_PIPELINE_SOURCE,CI_COMMIT_BRANCH,CI_PROJECT_ID,CI_API_V4_URL,CI_JOB_URL,CI_MERGE_REQUEST_IID',
      ]);
    const first = await run();
    expect(first.stdout + first.stderr).toContain('merging creates what the plan note lists');
    expect(first.status, first.stdout + first.stderr).toBe(0);
    const created = notesApi.notes.filter((n) => n.author.id === 42);
    expect(created).toHaveLength(1);
    expect(created[0]!.body).toContain('invoice-paid');

    const second = await run();
    expect(second.status, second.stdout + second.stderr).toBe(0);
    expect(notesApi.notes.filter((n) => n.author.id === 42).map((n) => n.id)).toEqual([created[0]!.id]);
    expect(notesApi.requests.filter((r) => r.startsWith('PUT'))).toHaveLength(1);
  });
});
