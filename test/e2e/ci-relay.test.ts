/**
 * `wfsync ci-relay`, the built CLI, as the CI jobs run it after wfsync: against a loopback stand-in for GitLab's
 * notes API (gitlab-fixture.ts), with the documents a run writes.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { prCommentMarker } from '../../src/report/plan/markdown.js';
import { useTempProjects } from '../helpers/temp-project.js';
import { type NotesApi, otherNotes, startNotesApi } from './gitlab-fixture.js';
import { runCli } from './helpers.js';
import { relayedPlan } from './relay-document.js';

const MARKER = prCommentMarker('development');
let api: NotesApi | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});
const workdir = useTempProjects('wfsync-relay-');

/** What GitLab sets in merge request !7's plan job (no CI_MERGE_REQUEST_IID: a scheduled or branch pipeline). */
function gitlabEnv(notes: NotesApi | undefined, mergeRequest = true): Record<string, string> {
  return {
    GITLAB_CI: 'true',
    CI_PROJECT_ID: '17',
    ...(mergeRequest ? { CI_MERGE_REQUEST_IID: '7' } : {}),
    CI_JOB_URL: 'https://gitlab.example.com/acme/app/-/jobs/1',
    ...(notes === undefined ? {} : { CI_API_V4_URL: notes.url, WFSYNC_GITLAB_TOKEN: notes.token }),
  };
}

const relay = (cwd: string, env: Record<string, string>, ...args: string[]) =>
  runCli(['ci-relay', '--target', 'development', ...args], { cwd, env });

const planDocument = (exitCode: number, needsPerson: string[] = []) =>
  relayedPlan(exitCode, needsPerson, 'changed-locally');

describe('wfsync ci-relay on GitLab', () => {
  it('creates the note, then updates the same one (never a second); the body through the markdown channel', async () => {
    api = await startNotesApi({ project: '17', mergeRequest: '7', others: otherNotes(120, MARKER) });
    const hostile = 'ping @everyone about #12 <!-- wfsync-plan target=development --> here';
    const cwd = workdir({
      'plan.md': `<!-- wfsync-plan -->\n${MARKER}\n### wfsync plan\n\n${hostile}\n`,
      'plan.json': planDocument(2),
    });
    const args = ['--command', 'plan', '--document', 'plan.json', '--markdown', 'plan.md'];
    const first = await relay(cwd, gitlabEnv(api), ...args, '--exit-code', '2');
    expect(first.stdout).toContain('wfsync: wrote the plan note');
    expect(first.stdout).toContain('wfsync plan: merging creates what the plan note lists');
    expect(first.status).toBe(0);
    const ours = () => api!.notes.filter((n) => n.author.id === 42);
    expect(ours()).toHaveLength(1);
    const body = ours()[0]!.body;
    expect(body.startsWith(`<!-- wfsync-plan -->\n${MARKER}\n### wfsync plan`)).toBe(true);
    // The markers are ours alone: the quoted one is broken, as are the mention and the issue reference.
    expect(body.split(MARKER)).toHaveLength(2);
    expect(body).toContain('@\u200beveryone');
    expect(body).toContain('#\u200b12');

    writeFileSync(join(cwd, 'plan.json'), planDocument(6, ['welcome']));
    writeFileSync(join(cwd, 'plan.md'), `<!-- wfsync-plan -->\n${MARKER}\n### wfsync plan\n\nsecond\n`);
    const second = await relay(cwd, gitlabEnv(api), ...args, '--exit-code', '6');
    expect(second.status).toBe(6);
    expect(second.stdout).toContain(`wfsync: updated the plan note (${ours()[0]!.id}) on !7`);
    expect(second.stdout).toContain('wfsync plan: a workflow needs a person: welcome (changed-locally).');
    expect(ours()).toHaveLength(1);
    expect(ours()[0]!.body).toContain('second');
    expect(api.requests.filter((r) => r.startsWith('POST'))).toHaveLength(1);
    for (const run of [first, second]) expect(run.stdout + run.stderr).not.toContain(api.token);
  });

  it('a plan that printed nothing gets a note that points at the job log; the job keeps the code and its meaning', async () => {
    api = await startNotesApi({ project: '17', mergeRequest: '7', others: [] });
    const cwd = workdir({
      'plan.md': '',
      'plan.json': JSON.stringify({ exitCode: 4, needsPerson: [], meaning: 'the API key was refused' }),
    });
    const run = await relay(
      cwd,
      gitlabEnv(api),
      '--command',
      'plan',
      '--exit-code',
      '4',
      '--document',
      'plan.json',
      '--markdown',
      'plan.md',
    );
    expect(run.status).toBe(4);
    expect(run.stdout).toContain('wfsync plan: failed (exit 4: the API key was refused)');
    expect(api.notes).toHaveLength(1);
    expect(api.notes[0]!.body).toBe(
      `<!-- wfsync-plan -->\n${MARKER}\n### wfsync plan failed\n\n\`wfsync plan\` exited 4 without printing a plan: see [the job log](https://gitlab.example.com/acme/app/-/jobs/1).\n`,
    );
    // The job URL goes into a link only as a web URL, its parentheses escaped; anything else is not linked.
    const args = ['--command', 'plan', '--exit-code', '4', '--markdown', 'plan.md'];
    await relay(cwd, { ...gitlabEnv(api), CI_JOB_URL: 'https://x.example/a)[b](javascript:1' }, ...args);
    expect(api.notes[0]!.body).toContain('see [the job log](https://x.example/a%29[b]%28javascript:1).');
    await relay(cwd, { ...gitlabEnv(api), CI_JOB_URL: 'javascript:alert(1)' }, ...args);
    expect(api.notes[0]!.body).toContain("see this job's log.");
    expect(api.notes).toHaveLength(1);
  });

  it('a plan with nothing to change and no earlier note posts nothing; without the token it says how to get the note', async () => {
    api = await startNotesApi({ project: '17', mergeRequest: '7', others: [] });
    const cwd = workdir({ 'plan.md': `<!-- wfsync-plan -->\n${MARKER}\nnothing\n` });
    const quiet = await relay(
      cwd,
      gitlabEnv(api),
      '--command',
      'plan',
      '--exit-code',
      '0',
      '--markdown',
      'plan.md',
    );
    expect(quiet.status).toBe(0);
    expect(quiet.stdout).toContain('nothing to post');
    expect(api.requests.some((r) => r.startsWith('POST') || r.startsWith('PUT'))).toBe(false);
    const { WFSYNC_GITLAB_TOKEN: _, ...noToken } = gitlabEnv(api);
    api.requests.length = 0;
    const skipped = await relay(
      cwd,
      noToken,
      '--command',
      'plan',
      '--exit-code',
      '2',
      '--markdown',
      'plan.md',
    );
    expect(skipped.status).toBe(0);
    expect(skipped.stdout).toContain('no WFSYNC_GITLAB_TOKEN variable');
    expect(api.requests).toEqual([]);
  });

  it('a note that cannot be written fails a plan that would pass, without printing the token', async () => {
    api = await startNotesApi({ project: '17', mergeRequest: '7', others: [] });
    const cwd = workdir({ 'plan.md': `<!-- wfsync-plan -->\n${MARKER}\nplan\n` });
    const env = { ...gitlabEnv(api), WFSYNC_GITLAB_TOKEN: 'glpat-wrong-token' };
    const run = await relay(cwd, env, '--command', 'plan', '--exit-code', '2', '--markdown', 'plan.md');
    expect(run.status).toBe(1);
    expect(run.stdout).toContain('could not write the merge request note: GET /user: GitLab answered 401');
    expect(run.stdout).toContain('the merge request note could not be written');
    expect(run.stdout + run.stderr).not.toContain('glpat-wrong-token');
  });

  it('sync and the scheduled drift check: the verdict from the document, no note', async () => {
    const cwd = workdir({
      'sync.json': JSON.stringify({
        exitCode: 6,
        needsPerson: ['billing'],
        meaning: 'x',
        outcomes: [{ identifier: 'billing', outcome: 'drifted' }],
        plan: { target: { name: 'development' } },
      }),
      'plan.json': planDocument(2),
    });
    const sync = await relay(
      cwd,
      gitlabEnv(undefined, false),
      '--command',
      'sync',
      '--exit-code',
      '6',
      '--document',
      'sync.json',
    );
    expect(sync.status).toBe(6);
    expect(sync.stdout).toContain(
      'wfsync sync: synced what sync may apply, but a workflow needs a person: billing (drifted).',
    );
    const drift = await relay(
      cwd,
      gitlabEnv(undefined, false),
      '--command',
      'plan',
      '--exit-code',
      '2',
      '--document',
      'plan.json',
    );
    expect(drift.status).toBe(0);
    expect(drift.stdout).toContain(
      'warning: wfsync plan: workflows in the definitions are not on development yet',
    );
  });
});

describe('wfsync ci-relay on GitHub', () => {
  it('says the verdict as an annotation the runner reads, and exits with the code', async () => {
    const cwd = workdir({ 'plan.json': planDocument(6, ['welcome']) });
    const env = { GITHUB_ACTIONS: 'true', GITHUB_EVENT_NAME: 'pull_request' };
    const run = await relay(cwd, env, '--command', 'plan', '--exit-code', '6', '--document', 'plan.json');
    expect(run.status).toBe(6);
    expect(run.stdout).toBe(
      '::error title=wfsync plan::a workflow needs a person: welcome (changed-locally). Sync will not apply this; the plan says what to do for each.\n',
    );
  });

  it('is refused outside a CI job unless told the provider', async () => {
    const run = await relay(workdir({}), {}, '--command', 'plan', '--exit-code', '0');
    expect(run.status).toBe(64);
    expect(run.stderr).toContain('pass --provider');
  });
});
