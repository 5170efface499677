import { describe, expect, it } from 'vitest';
import { applyPlan } from '../../../src/apply/apply-plan.js';
import { harness, loadExamples, planNow, posts, readStateFile, runSync, simpleDesired } from './harness.js';

const PRODUCTION_KEY = 'wfs_production_key_0123456789abcdef';

describe('stopping early', () => {
  it('a signal aborted before the first create: every create skipped, nothing sent', async () => {
    const h = await harness();
    const controller = new AbortController();
    controller.abort();
    const { result } = await runSync(h, { signal: controller.signal });
    expect(result.interrupted).toBe(true);
    expect(result.status).toBe('action-needed');
    expect(result.summary.skipped).toBe(h.desired.length);
    expect(result.outcomes.every((o) => o.message === 'not attempted: sync was interrupted')).toBe(true);
    expect(posts(h.emu)).toHaveLength(0);
  });

  it('a signal during the creates: those in flight finish and are recorded, the rest are skipped', async () => {
    const h = await harness();
    const controller = new AbortController();
    const { result } = await runSync(h, {
      concurrency: 3,
      onEvent: (event) => {
        if (event.type === 'workflow' && event.status === 'creating') controller.abort();
      },
      signal: controller.signal,
    });
    expect(result.interrupted).toBe(true);
    expect(result.summary.created).toBe(3);
    expect(result.summary.skipped).toBe(h.desired.length - 3);
    expect(h.emu.workflows()).toHaveLength(3);
    const state = await readStateFile(h);
    expect(Object.keys(state.workflows)).toHaveLength(3);
    expect(state.pending).toEqual({});
  });

  it('a key the service rejects: the first create fails, the rest are skipped, status auth', async () => {
    // A Production key can read (its environment is empty) but not create.
    const h = await harness({
      emulator: { productionKeys: [PRODUCTION_KEY] },
      client: { apiKey: PRODUCTION_KEY },
    });
    const { plan, result } = await runSync(h, { concurrency: 1 });
    expect(plan.summary.create).toBe(h.desired.length);
    expect(result.status).toBe('auth');
    expect(result.summary.failed).toBe(1);
    expect(result.summary.skipped).toBe(h.desired.length - 1);
    expect(result.outcomes[0]).toMatchObject({
      outcome: 'failed',
      message: expect.stringContaining('needs a Development-environment key'),
    });
    expect(result.outcomes[1]?.message).toBe('not attempted: the service rejected the API key');
    expect(posts(h.emu)).toHaveLength(1);
    expect((await readStateFile(h)).pending).toEqual({});
  });

  it('the rate limit running out: status rate-limited, no journal left behind', async () => {
    const h = await harness({ client: { retries: { maxAttempts: 2 } } });
    const plan = await planNow(h);
    h.emu.setFaults({ rateLimitBurst: { every: 0, count: 1 }, only: ['POST'] });
    const result = await applyPlan({
      plan,
      desired: h.desired,
      client: h.client,
      store: h.store,
      concurrency: 1,
    });
    expect(result.status).toBe('rate-limited');
    expect(result.summary.failed).toBe(1);
    expect(result.summary.skipped).toBe(h.desired.length - 1);
    expect(h.store.snapshot.pending).toEqual({});
  });

  it('a workflow the service rejects fails with its messages as diagnostics; the others are created', async () => {
    const h = await harness({
      desired: (groupId) => [
        ...loadExamples(groupId),
        simpleDesired(groupId, 'broken step', 'broken-step', { steps: [{ name: 'no template' }] }),
      ],
    });
    const { result } = await runSync(h);
    expect(result.status).toBe('failed');
    expect(result.summary.created).toBe(h.desired.length - 1);
    const broken = result.outcomes.find((o) => o.identifier === 'broken-step');
    expect(broken).toMatchObject({ outcome: 'failed', file: 'workflows/broken-step.yaml' });
    expect(broken?.diagnostics).toEqual([
      {
        code: 'service-rejected',
        severity: 'error',
        message: 'the service rejected this workflow: Unexpected error: message template is missing',
        file: 'workflows/broken-step.yaml',
        pointer: '',
        line: 1,
        column: 1,
        endLine: 1,
        endColumn: 1,
      },
    ]);
    const state = await readStateFile(h);
    expect(state.workflows['broken-step']).toBeUndefined();
    expect(state.pending).toEqual({});
  });

  it('an unknown outcome stays in the journal, and the next run settles it without a second POST', async () => {
    const h = await harness({ client: { retries: { maxAttempts: 2 } } });
    const plan = await planNow(h);
    // Every answer is lost after the service acted: the POST lands, the lookups that would find it fail.
    h.emu.setFaults({ resetAfterRate: 1 });
    const result = await applyPlan({
      plan,
      desired: h.desired,
      client: h.client,
      store: h.store,
      concurrency: 1,
    });
    expect(result.status).toBe('failed');
    const [first] = result.outcomes;
    expect(first).toMatchObject({
      outcome: 'failed',
      message: expect.stringContaining(
        'the outcome is unknown; it stays in the journal and will be reconciled by the next run',
      ),
    });
    const pendingAfter = Object.keys(h.store.snapshot.pending);
    expect(pendingAfter.length).toBeGreaterThan(0);
    const stored = h.emu.workflows().length;

    h.emu.setFaults(undefined);
    const postsBefore = posts(h.emu).length;
    const { reconciled, result: second } = await runSync(h);
    expect(reconciled.recovered.map((r) => r.identifier).sort()).toEqual(
      h.emu
        .workflows()
        .slice(0, stored)
        .map((w) => w.triggers[0]?.identifier)
        .sort(),
    );
    expect(second.status).toBe('ok');
    expect(posts(h.emu).length - postsBefore).toBe(h.desired.length - stored);
    const names = h.emu.workflows().map((w) => w.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toHaveLength(h.desired.length);
  });
});
