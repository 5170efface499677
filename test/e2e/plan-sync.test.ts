import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXAMPLE_IDENTIFIERS, startTarget, type Target } from './plan-sync-target.js';

/** plan/sync/pull/state against an emulator: the lifecycle of the 9 example workflows. */

const SHIPPED = 'content: Order {{orderNumber}} has shipped with {{carrier}}.';

async function syncedTarget(): Promise<Target> {
  const target = await startTarget();
  const first = await target.run(['sync']);
  expect(first.stderr).not.toMatch(/unexpected|error/i);
  expect(first.stdout).toContain('Sync: 9 created, 0 in sync, 0 drifted, 0 failed, 0 skipped.');
  expect(first.status).toBe(0);
  return target;
}

/** Every state entry names the workflow the emulator holds under that identifier. */
function expectStateMatchesService(target: Target): void {
  const state = target.state()!;
  expect(Object.keys(state.workflows).sort()).toEqual(EXAMPLE_IDENTIFIERS);
  expect(state.pending).toEqual({});
  for (const workflow of target.emulator.workflows()) {
    expect(state.workflows[workflow.triggers[0]!.identifier]?.id).toBe(workflow._id);
  }
}

describe('plan and sync (the built CLI against the emulator)', () => {
  it('the first sync creates all 9 examples; then plan and sync are in sync and send no POST', async () => {
    const target = await startTarget();
    const planned = await target.run(['plan']);
    expect(planned.stdout).toContain('Plan: 9 to create, 0 in sync.');
    expect(planned.stdout).toMatch(/^\+ create {2}order-shipped {2}workflows\/order-shipped\.yaml:\d+$/m);
    expect(planned.status).toBe(2);
    expect(planned.posts).toBe(0);

    const first = await target.run(['sync']);
    expect(first.status).toBe(0);
    expect(first.stdout).toContain('Sync: 9 created, 0 in sync, 0 drifted, 0 failed, 0 skipped.');
    expect(first.posts).toBe(9);
    expect(target.stored()).toEqual(EXAMPLE_IDENTIFIERS);
    expectStateMatchesService(target);
    expect(Object.values(target.state()!.workflows).every((e) => e.origin === 'created')).toBe(true);

    const second = await target.run(['sync']);
    expect(second.status).toBe(0);
    expect(second.stdout).toContain('Sync: 0 created, 9 in sync, 0 drifted, 0 failed, 0 skipped.');
    expect(second.posts).toBe(0);

    const again = await target.run(['plan']);
    expect(again.status).toBe(0);
    expect(again.stdout).toContain('No changes. 9 workflows in sync.');
    expect(again.stdout).toMatch(/^✔ in sync {2}password-reset {2}workflows\/password-reset\.yaml$/m);
    expect(again.posts).toBe(0);
    expect(target.stored()).toEqual(EXAMPLE_IDENTIFIERS);
  });

  it('a file edited after its workflow was created: plan and sync exit 6 with the diff; nothing is created', async () => {
    const target = await syncedTarget();
    const file = join(target.cwd, 'workflows/order-shipped.yaml');
    const text = readFileSync(file, 'utf8');
    expect(text).toContain(SHIPPED);
    writeFileSync(
      file,
      text.replace(SHIPPED, 'content: Order {{orderNumber}} is on its way with {{carrier}}.'),
    );

    const plan = await target.run(['plan']);
    expect(plan.status).toBe(6);
    expect(plan.posts).toBe(0);
    expect(plan.stdout).toMatch(
      /^! changed locally {2}order-shipped {2}workflows\/order-shipped\.yaml:\d+$/m,
    );
    expect(plan.stdout).toContain(
      'steps[1] "shipping notice".template.content: "Order {{orderNumber}} has shipped with {{carrier}}." → "Order {{orderNumber}} is on its way with {{carrier}}."',
    );
    expect(plan.stdout).toMatch(
      /^ +- +content: Order \{\{orderNumber\}\} has shipped with \{\{carrier\}\}\.$/m,
    );
    expect(plan.stdout).toMatch(
      /^ +\+ +content: Order \{\{orderNumber\}\} is on its way with \{\{carrier\}\}\.$/m,
    );
    expect(plan.stdout).toContain('Plan: 0 to create, 8 in sync, 1 changed locally.');

    const sync = await target.run(['sync']);
    expect(sync.status).toBe(6);
    expect(sync.posts).toBe(0);
    expect(sync.stdout).toMatch(/^! changed locally {2}order-shipped/m);
    expect(sync.stdout).toContain('0 created, 8 in sync');
    expect(target.stored()).toEqual(EXAMPLE_IDENTIFIERS);
  });

  it('a workflow changed on the service is drift; pull accepts it into the file, then plan is clean', async () => {
    const target = await syncedTarget();
    const edited = target.emulator.editWorkflow('order-shipped', (w) => {
      (w.steps[1]!.template as { content: string }).content =
        'Order {{orderNumber}} left the warehouse with {{carrier}}.';
    });

    const plan = await target.run(['plan']);
    expect(plan.status).toBe(6);
    expect(plan.posts).toBe(0);
    expect(plan.stdout).toMatch(/^~ drifted {2}order-shipped {2}workflows\/order-shipped\.yaml:\d+$/m);
    expect(plan.stdout).toMatch(
      /^ +- +content: Order \{\{orderNumber\}\} left the warehouse with \{\{carrier\}\}\.$/m,
    );
    expect(plan.stdout).toMatch(
      /^ +\+ +content: Order \{\{orderNumber\}\} has shipped with \{\{carrier\}\}\.$/m,
    );
    expect(plan.stdout).toContain('wfsync pull order-shipped');
    expect(plan.stdout).toContain('Plan: 0 to create, 8 in sync, 1 drifted.');

    const pull = await target.run(['pull', 'order-shipped']);
    expect(pull.stderr).toBe('');
    expect(pull.stdout).toMatch(/^pulled order-shipped\b.* → workflows\/order-shipped\.yaml$/m);
    expect(target.state()!.workflows['order-shipped']!.id).toBe(edited._id);
    expect(pull.status).toBe(0);
    expect(pull.posts).toBe(0);
    const pulled = readFileSync(join(target.cwd, 'workflows/order-shipped.yaml'), 'utf8');
    expect(pulled).toContain('content: Order {{orderNumber}} left the warehouse with {{carrier}}.');
    expect(pulled).not.toContain(SHIPPED);

    const after = await target.run(['plan']);
    expect(after.stdout).toContain('No changes. 9 workflows in sync.');
    expect(after.status).toBe(0);
    expect(after.posts).toBe(0);
    expect(target.stored()).toEqual(EXAMPLE_IDENTIFIERS);
  });

  it('a deleted state file: plan finds everything by identifier, sync records it without a POST, rebuild works', async () => {
    const target = await syncedTarget();
    const ids = target.state()!.workflows;
    rmSync(target.statePath);

    const plan = await target.run(['plan']);
    expect(plan.stdout).toContain('No changes. 9 workflows in sync.');
    // Nothing to create and nothing needs a person: recording the 9 identities in state is not a change.
    expect(plan.status).toBe(0);
    expect(plan.posts).toBe(0);

    const sync = await target.run(['sync']);
    expect(sync.stdout).toContain('Sync: 0 created, 9 in sync, 0 drifted, 0 failed, 0 skipped.');
    expect(sync.status).toBe(0);
    expect(sync.posts).toBe(0);
    expectStateMatchesService(target);
    for (const [identifier, entry] of Object.entries(target.state()!.workflows)) {
      expect(entry.id).toBe(ids[identifier]!.id);
    }

    rmSync(target.statePath);
    const rebuild = await target.run(['state', 'rebuild']);
    expect(rebuild.status).toBe(0);
    expect(rebuild.stdout).toContain(`rebuilt ${target.statePath}: 9 of 9 definitions found on the service`);
    expect(rebuild.stdout).toContain(`  order-shipped: ${ids['order-shipped']!.id}\n`);
    expect(rebuild.posts).toBe(0);
    expectStateMatchesService(target);
    expect(Object.values(target.state()!.workflows).every((e) => e.origin === 'rebuilt')).toBe(true);

    const show = await target.run(['state', 'show']);
    expect(show.status).toBe(0);
    expect(show.stdout).toMatch(/^state of target dev \(http:\/\/127\.0\.0\.1:\d+\): 9 workflows$/m);

    const last = await target.run(['sync']);
    expect(last.status).toBe(0);
    expect(last.posts).toBe(0);
    expect(target.stored()).toEqual(EXAMPLE_IDENTIFIERS);
  });
});
