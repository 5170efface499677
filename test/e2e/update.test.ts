import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { StoredWorkflow } from '../../src/emulator/types.js';
import { type ContractFake, startContractFake } from '../helpers/contract-fake/index.js';
import { contractFakeProject } from './contract-fake-project.js';
import { makeProject, runCli } from './helpers.js';
import { EXAMPLE_IDENTIFIERS, startTarget, type Target } from './plan-sync-target.js';

/**
 * Issue 27's update, tried as a team would: a change that edits content, reorders, adds and removes steps, changes
 * a step's channel and deactivates a workflow, planned and synced by the built CLI against the emulator.
 */

function edit(target: Pick<Target, 'cwd'>, file: string, change: (text: string) => string): void {
  const path = join(target.cwd, 'workflows', file);
  writeFileSync(path, change(readFileSync(path, 'utf8')));
}

/** The pull request's edits: three workflows changed, six untouched. */
function editWorkflows(target: Pick<Target, 'cwd'>): void {
  // Content edited, steps reordered (the in-app notice first), a chat step added.
  edit(target, 'order-shipped.yaml', (text) => {
    const email = text.indexOf('  - name: shipping email');
    const notice = text.indexOf('  - name: shipping notice');
    const triggers = text.indexOf('triggers:');
    const emailStep = text
      .slice(email, notice)
      .replace(
        'subject: Your order {{orderNumber}} has shipped',
        'subject: Order {{orderNumber}} is on its way',
      );
    const chat =
      '  - name: shipping chat\n    template:\n      type: chat\n      content: "Order {{orderNumber}} shipped."\n';
    return text.slice(0, email) + text.slice(notice, triggers) + emailStep + chat + text.slice(triggers);
  });
  // A step removed, another's channel changed (sms → chat; no sms left, so no phone to declare).
  edit(target, 'appointment-reminder.yaml', (text) =>
    text
      .replace(/ {2}- name: reminder push\n(?: {4}.*\n)+/, '')
      .replace(
        '  - name: reminder sms\n    template:\n      type: sms',
        '  - name: reminder sms\n    template:\n      type: chat',
      )
      .replace('    subscriberVariables:\n      - name: phone\n', ''),
  );
  // Deactivated.
  edit(target, 'password-reset.yaml', (text) => text.replace(/^active: true$/m, 'active: false'));
}

/** What this test reads of a JSON plan item. */
interface PlannedItem {
  steps: Array<{ name: string; match: string }>;
  body?: unknown;
  active?: boolean;
}

const byName = (workflow: StoredWorkflow | undefined) =>
  new Map((workflow?.steps ?? []).map((s) => [s.name as string, s._templateId as string]));

function storedAs(target: Target, identifier: string): StoredWorkflow | undefined {
  return target.emulator.workflows().find((w) => w.triggers[0]!.identifier === identifier);
}

const writes = (run: { requests: Array<{ method: string; path: string }> }) =>
  run.requests
    .filter((r) => r.method !== 'GET')
    .map((r) => `${r.method} ${r.path.replace(/[0-9a-f]{24}/, '{id}')}`);

describe('update (the built CLI against the emulator)', () => {
  it('plans update (exit 2) with --allow update; one sync makes the service equal to the files, templates kept', async () => {
    const target = await startTarget();
    expect((await target.run(['sync'])).status).toBe(0);
    const before = new Map(
      ['order-shipped', 'appointment-reminder'].map((id) => [id, byName(storedAs(target, id))]),
    );
    editWorkflows(target);

    // Without allow, nothing changes from today: changed locally (exit 6), and sync writes nothing.
    const refused = await target.run(['plan']);
    expect(refused.status).toBe(6);
    expect(refused.stdout).toContain('Plan: 0 to create, 6 in sync, 3 changed locally.');
    expect(refused.stdout).toContain('`--allow update`');
    const unsynced = await target.run(['sync']);
    expect(unsynced.status).toBe(6);
    expect(writes(unsynced)).toEqual([]);

    const planned = await target.run(['plan', '--allow', 'update', '--format', 'json']);
    expect(planned.status).toBe(2);
    const plan = JSON.parse(planned.stdout);
    expect(plan.summary).toMatchObject({ update: 3, inSync: 6, changedLocally: 0 });
    const items = new Map(plan.items.map((i: { identifier: string }) => [i.identifier, i]));
    const shipped = items.get('order-shipped') as PlannedItem;
    expect(shipped.steps).toEqual([
      {
        name: 'shipping notice',
        channel: 'in_app',
        match: 'kept',
        templateId: before.get('order-shipped')!.get('shipping notice'),
      },
      {
        name: 'shipping email',
        channel: 'email',
        match: 'kept',
        templateId: before.get('order-shipped')!.get('shipping email'),
      },
      { name: 'shipping chat', channel: 'chat', match: 'new' },
    ]);
    const reminder = items.get('appointment-reminder') as PlannedItem;
    expect(reminder.steps.map((s) => [s.name, s.match])).toEqual([
      ['wait until reminder time', 'kept'],
      ['reminder sms', 'replaced'],
      ['reminder push', 'removed'],
    ]);
    const reset = items.get('password-reset') as PlannedItem;
    expect(reset.body).toBeUndefined();
    expect(reset.active).toBe(false);

    const synced = await target.run(['sync', '--allow', 'update']);
    expect(synced.stderr).not.toMatch(/unexpected/i);
    expect(synced.status).toBe(0);
    expect(synced.stdout).toContain('Sync: 0 created, 3 updated, 6 in sync, 0 drifted, 0 failed, 0 skipped.');
    // One PUT per changed workflow, one status call for the deactivated one, nothing created.
    expect(writes(synced).sort()).toEqual([
      'PUT /v1/workflows/{id}',
      'PUT /v1/workflows/{id}',
      'PUT /v1/workflows/{id}/status',
    ]);
    expect(target.stored()).toHaveLength(9);
    // Every kept step kept its template.
    const shippedNow = byName(storedAs(target, 'order-shipped'));
    for (const name of ['shipping email', 'shipping notice'])
      expect(shippedNow.get(name)).toBe(before.get('order-shipped')!.get(name));
    expect(storedAs(target, 'order-shipped')!.steps.map((s) => s.name)).toEqual([
      'shipping notice',
      'shipping email',
      'shipping chat',
    ]);
    const reminderNow = storedAs(target, 'appointment-reminder')!;
    expect(reminderNow.steps.map((s) => [s.name, (s.template as { type: string }).type])).toEqual([
      ['wait until reminder time', 'delay'],
      ['reminder sms', 'chat'],
    ]);
    expect(byName(reminderNow).get('wait until reminder time')).toBe(
      before.get('appointment-reminder')!.get('wait until reminder time'),
    );
    expect(storedAs(target, 'password-reset')!.active).toBe(false);
    expect(target.state()!.pending).toEqual({});

    // The service equals the files: the next sync writes nothing, and plan has nothing to do.
    const again = await target.run(['sync', '--allow', 'update']);
    expect(again.status).toBe(0);
    expect(again.stdout).toContain('Sync: 0 created, 9 in sync, 0 drifted, 0 failed, 0 skipped.');
    expect(writes(again)).toEqual([]);
    expect((await target.run(['plan', '--allow', 'update'])).status).toBe(0);
  });

  it('a dashboard edit between plan --out and sync --plan: refused, nothing written', async () => {
    const target = await startTarget();
    expect((await target.run(['sync'])).status).toBe(0);
    edit(target, 'password-reset.yaml', (text) => text.replace(/^active: true$/m, 'active: false'));
    const planFile = join(target.cwd, 'plan.json');
    expect((await target.run(['plan', '--allow', 'update', '--out', planFile])).status).toBe(2);
    target.emulator.editWorkflow('password-reset', (w) => {
      w.tags = ['edited-in-dashboard'];
    });
    const stale = await target.run(['sync', '--allow', 'update', '--plan', planFile]);
    expect(stale.status).toBe(2);
    expect(stale.stderr).toContain(
      'password-reset: the workflow on the service changed since the plan was made',
    );
    expect(writes(stale)).toEqual([]);
    expect(storedAs(target, 'password-reset')!.active).toBe(true);
  });

  it("the sync a plan suggests repeats its --allow (not the config's), in every format", async () => {
    const target = await startTarget({ targetConfig: ['allow: [create, update]'] });
    expect((await target.run(['sync'])).status).toBe(0);
    edit(target, 'password-reset.yaml', (text) => text.replace(/^active: true$/m, 'active: false'));
    // The config allows update already: nothing to repeat.
    const configured = await target.run(['plan']);
    expect(configured.status).toBe(2);
    expect(configured.stdout).toContain('Run "wfsync sync --target dev" to update.');

    const human = await target.run(['plan', '--allow', 'delete,update', '--allow', 'update']);
    expect(human.status).toBe(2);
    expect(human.stdout).toContain('Run "wfsync sync --target dev --allow update,delete" to update.');
    const json = JSON.parse((await target.run(['plan', '--allow', 'delete', '--format', 'json'])).stdout);
    const item = json.items.find((i: { identifier: string }) => i.identifier === 'password-reset');
    expect(item.next).toBe('`wfsync sync --target dev --allow delete` will update it.');
    const markdown = await target.run(['plan', '--allow', 'delete', '--format', 'markdown']);
    expect(markdown.stdout).toContain('Run "wfsync sync --target dev --allow delete" to update.**');
    expect(markdown.stdout).toContain(
      "- After merging, a sync with this plan's `--allow` (`wfsync sync --target dev --allow delete`) will update 1 workflow",
    );
    // What the plan said, run: the update happens.
    const synced = await target.run(['sync', '--allow', 'delete']);
    expect(synced.status).toBe(0);
    expect(storedAs(target, 'password-reset')!.active).toBe(false);
  });

  it('drift is never updated, whatever allow says', async () => {
    const target = await startTarget();
    expect((await target.run(['sync'])).status).toBe(0);
    target.emulator.editWorkflow('password-reset', (w) => {
      w.active = false;
    });
    const run = await target.run(['sync', '--allow', 'update']);
    expect(run.status).toBe(6);
    expect(run.stdout).toContain('1 drifted');
    expect(writes(run)).toEqual([]);
  });
});

describe('update against the independent contract fake', () => {
  let fake: ContractFake | undefined;
  let cwd: string | undefined;
  afterEach(async () => {
    await fake?.close();
    if (cwd !== undefined) rmSync(cwd, { recursive: true, force: true });
  });

  it('the same change: one PUT per workflow plus one status call, the files reached, kept templates kept', async () => {
    fake = await startContractFake();
    const service = fake;
    cwd = makeProject(contractFakeProject(service, EXAMPLE_IDENTIFIERS, ['create', 'update']));
    const project = cwd;
    const run = async (args: string[]) => {
      const before = service.requests.length;
      const result = await runCli([...args, '--target', 'fake'], {
        cwd: project,
        env: { FAKE_KEY: service.devKey },
      });
      return { ...result, requests: service.requests.slice(before) };
    };
    expect((await run(['sync'])).status).toBe(0);
    const templates = (identifier: string) => {
      const found = service
        .workflows()
        .find((w) => (w.triggers as Array<{ identifier: string }>)[0]!.identifier === identifier);
      const steps = (found?.steps ?? []) as Array<{ name: string; _templateId: string }>;
      return new Map(steps.map((s) => [s.name, s._templateId]));
    };
    const shippedBefore = templates('order-shipped');
    editWorkflows({ cwd });

    const planned = await run(['plan']);
    expect(planned.status).toBe(2);
    expect(planned.stdout).toContain(
      'Plan: 0 to create, 3 to update, 6 in sync. Run "wfsync sync --target fake" to update.',
    );
    const synced = await run(['sync']);
    expect(synced.status).toBe(0);
    expect(synced.stdout).toContain('Sync: 0 created, 3 updated, 6 in sync, 0 drifted, 0 failed, 0 skipped.');
    expect(writes(synced).sort()).toEqual([
      'PUT /v1/workflows/{id}',
      'PUT /v1/workflows/{id}',
      'PUT /v1/workflows/{id}/status',
    ]);
    const shippedNow = templates('order-shipped');
    for (const name of ['shipping email', 'shipping notice'])
      expect(shippedNow.get(name)).toBe(shippedBefore.get(name));
    const again = await run(['sync']);
    expect(again.status).toBe(0);
    expect(writes(again)).toEqual([]);
  });
});
