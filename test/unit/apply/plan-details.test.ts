import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { applyPlan } from '../../../src/apply/apply-plan.js';
import { withPlanDetails } from '../../../src/apply/result.js';
import type { Plan, PlanItemFields } from '../../../src/plan/types.js';
import { aPlanItem } from '../../helpers/plan-item.js';
import { harness, planNow, runSync } from './harness.js';

/** What addPlanDetails (api/plan-details.ts) adds to a differing item: where its first change is, what its diff is. */
function placed(
  plan: Plan,
  identifier: string,
  at: Pick<PlanItemFields, 'line' | 'endLine' | 'diffKind'>,
): Plan {
  return {
    ...plan,
    items: plan.items.map((item) =>
      item.identifier === identifier ? aPlanItem(identifier, item.action, { ...item, ...at }) : item,
    ),
  };
}

describe('sync outcomes carry the location and difference class of the plan item they executed', () => {
  it('a drifted outcome has the plan item file, line, endLine, attribution, diffKind and first changed pointer', async () => {
    const h = await harness();
    await runSync(h);
    h.emu.editWorkflow('order-shipped', (w) => {
      w.critical = !w.critical;
    });
    const plan = placed(await planNow(h), 'order-shipped', { line: 7, endLine: 9, diffKind: 'file' });
    const item = plan.items.find((i) => i.identifier === 'order-shipped')!;
    expect(item).toMatchObject({ action: 'drifted', attribution: 'state' });

    const result = await applyPlan({
      plan,
      desired: h.desired,
      client: h.client,
      store: h.store,
      concurrency: 2,
    });

    const outcome = result.outcomes.find((o) => o.identifier === 'order-shipped')!;
    expect(outcome).toMatchObject({
      outcome: 'drifted',
      file: item.file,
      line: 7,
      endLine: 9,
      attribution: 'state',
      diffKind: 'file',
    });
    expect(item.file).toMatch(/order-shipped\.yaml$/);
    expect(outcome.changes?.[0]?.pointer).toBe('/critical');
    // In-sync outcomes have no difference to place: no line, no class.
    const inSync = result.outcomes.find((o) => o.outcome === 'in-sync')!;
    expect(inSync.file).toBeDefined();
    expect(inSync).not.toHaveProperty('line');
    expect(inSync).not.toHaveProperty('attribution');
    expect(inSync).not.toHaveProperty('diffKind');
  });

  it('skipped and failed creates keep the plan item file and line', async () => {
    const h = await harness();
    const planned = await planNow(h);
    const [first, second] = planned.items;
    const plan = placed(placed(planned, first!.identifier, { line: 3 }), second!.identifier, { line: 4 });
    const controller = new AbortController();
    controller.abort();

    const skipped = await applyPlan({
      plan,
      desired: h.desired,
      client: h.client,
      store: h.store,
      concurrency: 1,
      signal: controller.signal,
    });
    expect(skipped.outcomes[0]).toMatchObject({ outcome: 'skipped', file: first!.file, line: 3 });

    // The plan creates a workflow no definition given to sync has: failed before anything is sent.
    const failed = await applyPlan({ plan, desired: [], client: h.client, store: h.store, concurrency: 1 });
    expect(failed.outcomes[1]).toMatchObject({ outcome: 'failed', file: second!.file, line: 4 });
    expect(failed.outcomes[1]).not.toHaveProperty('attribution');
  });
});

describe('withPlanDetails', () => {
  const item: PlanItemFields = {
    identifier: 'welcome',
    action: 'conflict',
    file: 'workflows/welcome.yaml',
    line: 12,
    endLine: 14,
    attribution: 'unknown',
    diffKind: 'projection',
    changes: [],
    next: 'n',
    remoteId: 'r1',
    desiredHash: `sha256:${'0'.repeat(64)}`,
  };

  it('copies exactly the location and class fields, under the plan names', () => {
    expect(withPlanDetails(item, { identifier: 'welcome', outcome: 'conflict' })).toEqual({
      identifier: 'welcome',
      outcome: 'conflict',
      file: 'workflows/welcome.yaml',
      line: 12,
      endLine: 14,
      attribution: 'unknown',
      diffKind: 'projection',
    });
  });

  it('keeps what the result already says, and adds nothing the plan item lacks', () => {
    const bare: PlanItemFields = { identifier: 'welcome', action: 'orphaned', changes: [], next: 'n' };
    expect(withPlanDetails(bare, { identifier: 'welcome', outcome: 'orphaned' })).toEqual({
      identifier: 'welcome',
      outcome: 'orphaned',
    });
    expect(
      withPlanDetails(item, { identifier: 'welcome', outcome: 'failed', file: 'workflows/other.yaml' }),
    ).toMatchObject({ file: 'workflows/other.yaml', line: 12 });
  });
});

describe('the sync schema', () => {
  const read = (name: string) =>
    JSON.parse(readFileSync(new URL(`../../../schemas/${name}`, import.meta.url), 'utf8')) as {
      $defs: Record<
        string,
        { properties: Record<string, { enum?: unknown[]; type?: string; minimum?: number }> }
      >;
    };
  it("gives an outcome's location and class fields the plan item's types and classes", () => {
    const plan = read('plan-output.schema.json').$defs.PlanItem!.properties;
    const sync = read('sync-output.schema.json').$defs.SyncItemResult!.properties;
    for (const key of ['file', 'line', 'endLine', 'attribution', 'diffKind']) {
      const { enum: values, type, minimum } = plan[key]!;
      expect({ enum: sync[key]?.enum, type: sync[key]?.type, minimum: sync[key]?.minimum }, key).toEqual({
        enum: values,
        type,
        minimum,
      });
    }
  });
});
