import { describe, expect, it } from 'vitest';
import type { FaultOptions } from '../../../src/emulator/index.js';
import { type Harness, harness, readStateFile, runSync } from './harness.js';

/** Every desired workflow is on the service exactly once, under its identifier, and state records that id. */
async function expectEachExactlyOnce(h: Harness) {
  const stored = h.emu.workflows();
  expect(stored.map((w) => w.name).sort()).toEqual(h.desired.map((d) => d.body.name).sort());
  const state = await readStateFile(h);
  expect(state.pending).toEqual({});
  for (const d of h.desired) {
    const onService = stored.filter((w) => w.triggers[0]?.identifier === d.identifier);
    expect(onService, d.identifier).toHaveLength(1);
    expect(state.workflows[d.identifier]?.id, d.identifier).toBe(onService[0]?._id);
  }
}

const FAULTS: Array<[string, FaultOptions]> = [
  ['responses lost after the service stored the workflow', { resetAfterRate: 0.5 }],
  ['connections reset before the service saw the request', { resetBeforeRate: 0.4 }],
  ['500 errors', { errorRate: 0.4 }],
  ['HTML 502 pages from a proxy', { htmlErrorRate: 0.4 }],
  // POST only: a cut-short 404 to a GET is read by the client as "no such endpoint" (reported to the remote owner).
  ['bodies cut short', { truncateBodyRate: 0.4, only: ['POST'] }],
  ['bursts of 429', { rateLimitBurst: { every: 3, count: 2 } }],
  [
    'everything at once',
    { resetAfterRate: 0.2, resetBeforeRate: 0.1, errorRate: 0.1, rateLimitBurst: { every: 7, count: 1 } },
  ],
];

describe('sync through a faulty network', () => {
  it.each(FAULTS)(
    '%s: every workflow exists exactly once, and a second run has nothing to do',
    async (_, faults) => {
      const h = await harness({
        emulator: { faults },
        // Generous retries: the point is that retries never duplicate, not that they run out.
        client: { retries: { maxAttempts: 8, budget: 1000 } },
      });
      const first = await runSync(h);
      expect(first.result.status).toBe('ok');
      expect(first.result.summary.created).toBe(h.desired.length);
      expect(h.emu.requests().some((r) => r.fault !== undefined)).toBe(true);
      await expectEachExactlyOnce(h);

      h.emu.setFaults(undefined);
      const second = await runSync(h);
      expect(second.result.summary['in-sync']).toBe(h.desired.length);
      expect(second.result.status).toBe('ok');
      await expectEachExactlyOnce(h);
    },
  );

  it('retries reach progress as retrying events of the workflow they belong to', async () => {
    const h = await harness({
      emulator: { faults: { errorRate: 1, only: ['POST'] } },
      client: { retries: { maxAttempts: 2, budget: 1000 } },
    });
    const first = await runSync(h, { concurrency: 3 });
    // Every POST answered 500 twice: nothing stored, each create failed after its lookups found nothing.
    expect(first.result.summary.failed).toBe(h.desired.length);
    expect(h.emu.workflows()).toHaveLength(0);
    expect((await readStateFile(h)).pending).toEqual({});
    for (const d of h.desired) {
      const retries = h.events.filter(
        (e) => e.type === 'workflow' && e.identifier === d.identifier && e.status === 'retrying',
      );
      expect(retries.length, d.identifier).toBeGreaterThan(0);
      expect(retries[0]).toMatchObject({
        message: expect.stringContaining('checking whether it was created'),
      });
    }
    h.emu.setFaults(undefined);
    const second = await runSync(h);
    expect(second.result.summary.created).toBe(h.desired.length);
    await expectEachExactlyOnce(h);
  });
});
