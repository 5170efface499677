import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PlanOutput } from '../../src/generated/plan-output.js';
import type { SyncOutput } from '../../src/generated/sync-output.js';
import { startTarget, type Target } from './plan-sync-target.js';

type PlanDocument = Extract<PlanOutput, { items: unknown }>;
type SyncDocument = Extract<SyncOutput, { outcomes: unknown }>;

/**
 * `sync --format json` outcomes say where each workflow is and what kind of difference it has, as the plan item it
 * executed does; `sync --format github` annotates those lines. (runCli holds the json documents to their schemas.)
 */

const ORDER_SHIPPED = 'workflows/order-shipped.yaml';
const NEW_FILE = 'workflows/password-reset-2.yaml';

/** Synced, then: order-shipped's SMS text edited in the dashboard (drift), and a new definition to create. */
async function driftedAndNew(options: Parameters<typeof startTarget>[0] = {}): Promise<Target> {
  const target = await startTarget(options);
  const first = await target.run(['sync']);
  expect(first.status).toBe(0);
  target.emulator.editWorkflow('order-shipped', (w) => {
    (w.steps[1]!.template as { content: string }).content = 'Order {{orderNumber}} left with {{carrier}}.';
  });
  const reset = readFileSync(join(target.cwd, 'workflows/password-reset.yaml'), 'utf8');
  const copy = reset
    .replace('name: password reset', 'name: password reset 2')
    .replace('identifier: password-reset', 'identifier: password-reset-2');
  writeFileSync(join(target.cwd, NEW_FILE), copy);
  return target;
}

function lineOf(target: Target, file: string, line: number): string {
  return readFileSync(join(target.cwd, file), 'utf8').split('\n')[line - 1] ?? '';
}

describe('sync outcomes carry their plan item location and difference class', () => {
  it('drifted: file, line, endLine, attribution, diffKind and first pointer as plan; created: its file', async () => {
    const target = await driftedAndNew();
    const planRun = await target.run(['plan', '--format', 'json']);
    expect(planRun.status).toBe(6);
    const plan = JSON.parse(planRun.stdout) as PlanDocument;
    const planned = plan.items.find((i) => i.identifier === 'order-shipped')!;
    expect(planned).toMatchObject({
      action: 'drifted',
      file: ORDER_SHIPPED,
      attribution: 'state',
      diffKind: 'file',
    });

    const sync = await target.run(['sync', '--format', 'json']);
    expect(sync.status).toBe(6);
    const doc = JSON.parse(sync.stdout) as SyncDocument;
    const drifted = doc.outcomes.find((o) => o.identifier === 'order-shipped')!;
    expect(drifted).toMatchObject({
      outcome: 'drifted',
      file: ORDER_SHIPPED,
      line: planned.line,
      endLine: planned.endLine,
      attribution: 'state',
      diffKind: 'file',
    });
    expect(drifted.changes?.[0]?.pointer).toBe('/steps/1/template/content');
    // The line is the file's own: the changed field's.
    expect(lineOf(target, ORDER_SHIPPED, drifted.line!)).toContain(
      'content: Order {{orderNumber}} has shipped with {{carrier}}.',
    );
    expect(drifted.endLine).toBeGreaterThanOrEqual(drifted.line!);
    // Same as the item of the plan the sync executed (its own, in the document).
    const own = doc.plan.items.find((i) => i.identifier === 'order-shipped')!;
    expect([own.line, own.endLine, own.attribution, own.diffKind]).toEqual([
      drifted.line,
      drifted.endLine,
      drifted.attribution,
      drifted.diffKind,
    ]);

    const created = doc.outcomes.find((o) => o.identifier === 'password-reset-2')!;
    expect(created).toMatchObject({ outcome: 'created', file: NEW_FILE });
    expect(created).not.toHaveProperty('attribution');
    const inSync = doc.outcomes.find((o) => o.identifier === 'trial-ending')!;
    expect(inSync).toMatchObject({ outcome: 'in-sync', file: 'workflows/trial-ending.yaml' });
    expect(inSync).not.toHaveProperty('line');
  });

  it('github: the drift annotation is on the changed lines; a failed create is annotated on its file', async () => {
    const target = await driftedAndNew({ targetConfig: ['retries: { maxAttempts: 1 }'] });
    target.emulator.setFaults({ errorRate: 1, only: ['POST'] });
    const json = await target.run(['plan', '--format', 'json']);
    const planned = (JSON.parse(json.stdout) as PlanDocument).items.find(
      (i) => i.identifier === 'order-shipped',
    )!;
    expect(planned.line).toBeGreaterThan(1);

    const sync = await target.run(['sync', '--format', 'github'], { GITHUB_ACTIONS: 'true' });
    expect(sync.status).toBe(1);
    expect(sync.stdout).toMatch(
      new RegExp(
        `^::warning file=workflows/order-shipped\\.yaml,line=${planned.line},endLine=${planned.endLine},title=wfsync sync \\(drifted\\)::order-shipped: drifted%0A`,
        'm',
      ),
    );
    expect(sync.stdout).toMatch(
      /^::error file=workflows\/password-reset-2\.yaml,line=\d+,endLine=\d+,title=wfsync sync \(failed\)::password-reset-2: failed%0A/m,
    );
  });

  it('json: a failed create keeps its file', async () => {
    const target = await driftedAndNew({ targetConfig: ['retries: { maxAttempts: 1 }'] });
    target.emulator.setFaults({ errorRate: 1, only: ['POST'] });
    const sync = await target.run(['sync', '--format', 'json']);
    expect(sync.status).toBe(1);
    const doc = JSON.parse(sync.stdout) as SyncDocument;
    expect(doc.outcomes.find((o) => o.identifier === 'password-reset-2')).toMatchObject({
      outcome: 'failed',
      file: NEW_FILE,
    });
    expect(doc.outcomes.find((o) => o.identifier === 'order-shipped')).toMatchObject({
      outcome: 'drifted',
      diffKind: 'file',
      attribution: 'state',
    });
  });
});
