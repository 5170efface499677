import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { diffArrays } from 'diff';
import { describe, expect, it } from 'vitest';
import { parseJsonOutput } from '../helpers/json-output.js';
import { EXAMPLE_IDENTIFIERS, startTarget, type Target } from './plan-sync-target.js';

/**
 * `wfsync pull` into files that already exist (the built CLI against the emulator): drift accepted from the
 * dashboard edits the file in place, so its diff is the drift and nothing else, and plan is clean afterwards.
 */

async function syncedTarget(): Promise<Target> {
  const target = await startTarget();
  const first = await target.run(['sync']);
  expect(first.stdout).toContain('Sync: 9 created, 0 in sync, 0 drifted, 0 failed, 0 skipped.');
  expect(first.status).toBe(0);
  return target;
}

function lineDiff(before: string, after: string): { removed: string[]; added: string[] } {
  const removed: string[] = [];
  const added: string[] = [];
  for (const change of diffArrays(before.split('\n'), after.split('\n'))) {
    if (change.removed) removed.push(...change.value);
    if (change.added) added.push(...change.value);
  }
  return { removed, added };
}

const comments = (text: string) => text.split('\n').filter((line) => line.trimStart().startsWith('#'));

async function expectPlanClean(target: Target): Promise<void> {
  const plan = await target.run(['plan']);
  expect(plan.stdout).toContain(`No changes. ${EXAMPLE_IDENTIFIERS.length} workflows in sync.`);
  expect(plan.status).toBe(0);
  // State recorded the hash of what each file now says: nothing left for sync to record.
  const json = await target.run(['plan', '--format', 'json']);
  const { items } = parseJsonOutput('plan', json.stdout) as {
    items: Array<{ desiredHash: string; stateHash: string }>;
  };
  expect(items).toHaveLength(EXAMPLE_IDENTIFIERS.length);
  for (const item of items) expect(item.stateHash).toBe(item.desiredHash);
}

describe('pull into an existing definition file', () => {
  it('a step edited in the dashboard: exactly that line changes, comments and group reference stay; plan is clean', async () => {
    const target = await syncedTarget();
    const file = join(target.cwd, 'workflows/order-shipped.yaml');
    const before = readFileSync(file, 'utf8');
    target.emulator.editWorkflow('order-shipped', (w) => {
      (w.steps[1]!.template as { content: string }).content =
        'Order {{orderNumber}} left the warehouse with {{carrier}}.';
    });

    const pull = await target.run(['pull', 'order-shipped']);
    expect(pull.stderr).toBe('');
    expect(pull.stdout).toBe(
      'pulled order-shipped: 1 field changed (steps[1].template.content) → workflows/order-shipped.yaml\n',
    );
    expect(pull.status).toBe(0);
    expect(pull.posts).toBe(0);
    const after = readFileSync(file, 'utf8');
    expect(lineDiff(before, after)).toEqual({
      removed: ['      content: Order {{orderNumber}} has shipped with {{carrier}}.'],
      added: ['      content: Order {{orderNumber}} left the warehouse with {{carrier}}.'],
    });
    expect(comments(after)).toEqual(comments(before));
    expect(comments(after)).toHaveLength(2);
    // The target's default group is also `transactional`: pull alone would have left the reference out.
    expect(after).toContain('notificationGroupId: group:transactional\n');
    expect(target.state()!.workflows['order-shipped']).toMatchObject({ origin: 'adopted' });

    await expectPlanClean(target);
    const again = await target.run(['pull', 'order-shipped']);
    expect(again.stdout).toBe(
      'pulled order-shipped: workflows/order-shipped.yaml already matches the service\n',
    );
    expect(again.status).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(after);
  });

  it('tags and a removed description: the flow sequence stays on its line; a file with written-out defaults keeps them', async () => {
    const target = await syncedTarget();
    const file = join(target.cwd, 'workflows/comment-mention.yaml');
    const before = readFileSync(file, 'utf8');
    expect(before).toContain('  in_app: true\n');
    target.emulator.editWorkflow('comment-mention', (w) => {
      w.tags = ['collaboration', 'mentions'];
      delete w.description;
    });

    const pull = await target.run(['pull', 'comment-mention']);
    expect(pull.stdout).toBe(
      'pulled comment-mention: 2 fields changed (description, tags) → workflows/comment-mention.yaml\n',
    );
    expect(pull.status).toBe(0);
    expect(lineDiff(before, readFileSync(file, 'utf8'))).toEqual({
      removed: ['description: Someone mentioned the subscriber in a comment.', 'tags: [collaboration]'],
      added: ['tags: [collaboration, mentions]'],
    });
    await expectPlanClean(target);
  });

  it('--dir with an identifier that already has a file: that file is updated, and the output says so', async () => {
    const target = await syncedTarget();
    target.emulator.editWorkflow('password-reset', (w) => {
      w.critical = false;
    });

    const pull = await target.run(['pull', 'password-reset', '--dir', 'imported']);
    expect(pull.stderr).toBe('');
    expect(pull.stdout).toBe(
      'pulled password-reset: 1 field changed (critical) → workflows/password-reset.yaml ' +
        '(its existing file; --dir only places new files)\n',
    );
    expect(pull.status).toBe(0);
    expect(existsSync(join(target.cwd, 'imported'))).toBe(false);
    const text = readFileSync(join(target.cwd, 'workflows/password-reset.yaml'), 'utf8');
    // The comment above the deleted key went with it; the rest of the file is as it was.
    expect(text).not.toMatch(/critical|Security mail must arrive/);
    await expectPlanClean(target);
  });

  it('a workflow without a file is still written whole where --dir says', async () => {
    const target = await startTarget();
    expect((await target.run(['sync'])).status).toBe(0);
    const created = await fetch(`${target.emulator.url}/v1/workflows`, {
      method: 'POST',
      headers: { authorization: `ApiKey ${target.emulator.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'made in dashboard',
        notificationGroupId: target.emulator.notificationGroupId,
        steps: [{ template: { type: 'sms', content: 'Hi {{who}}' } }],
      }),
    });
    const answer = await created.text();
    expect(created.status, answer).toBe(201);
    const { data } = JSON.parse(answer) as { data: { _id: string } };

    const pull = await target.run(['pull', 'made-in-dashboard', '--dir', 'imported']);
    expect(pull.stdout).toBe(`pulled made-in-dashboard (id ${data._id}) → imported/made-in-dashboard.yaml\n`);
    expect(pull.status).toBe(0);
    const text = readFileSync(join(target.cwd, 'imported/made-in-dashboard.yaml'), 'utf8');
    expect(
      text.startsWith(
        '# yaml-language-server: $schema=../schemas/workflow.schema.json\nname: made in dashboard\n',
      ),
    ).toBe(true);
  });

  it('--format json: one document of what was written, left alone and not found; exit 1 for the failure', async () => {
    const target = await syncedTarget();
    target.emulator.editWorkflow('order-shipped', (w) => {
      w.tags = ['shipping', 'dashboard'];
    });
    const id = (name: string) => target.state()!.workflows[name]!.id;

    const pull = await target.run(['pull', 'order-shipped', 'password-reset', 'nope', '--format', 'json']);
    expect(pull.stderr).toBe('');
    const workflow = (name: string, action: string, changed: string[]) => ({
      requested: name,
      identifier: name,
      id: id(name),
      file: `workflows/${name}.yaml`,
      action,
      created: false,
      changed,
      includes: [],
      // Merged into: the file keeps its own modeline.
      modeline: { source: 'file', schema: '../schemas/workflow.schema.json' },
      recorded: true,
      notes: [],
    });
    expect(pull.stdout).toBe(
      `${JSON.stringify(
        {
          schemaVersion: 4,
          target: 'dev',
          summary: { written: 1, unchanged: 1, failed: 1 },
          workflows: [
            workflow('order-shipped', 'written', ['tags']),
            workflow('password-reset', 'unchanged', []),
            { requested: 'nope', action: 'failed', reason: 'not found on target "dev"' },
          ],
        },
        null,
        2,
      )}\n`,
    );
    expect(pull.status).toBe(1);
    expect(readFileSync(join(target.cwd, 'workflows/order-shipped.yaml'), 'utf8')).toContain('dashboard');
  });
});
