/**
 * The preflight's two reads start beside the plan's lookups when a create is likely (a definition state does not
 * record), not a round trip after the last of them (api/preflight.ts, startPreflightReads); a plan that turns out to
 * create nothing reports as if they had never been made. Order in the emulator's log, never timings.
 */
import { rmSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { startTarget, type TargetRun } from './plan-sync-target.js';

const PREFLIGHT = ['GET /v1/environments/me', 'GET /v1/notification-groups'];

/** Where in the run's requests (in the order the emulator answered them) each preflight read and the last lookup are. */
function positions(run: TargetRun): { preflight: number[]; lastLookup: number } {
  const requests = run.requests.map((r) => `${r.method} ${r.path}`);
  const lookups = requests.flatMap((r, i) => (r.startsWith('GET /v1/workflows') ? [i] : []));
  return { preflight: PREFLIGHT.map((r) => requests.indexOf(r)), lastLookup: Math.max(...lookups) };
}

describe('the preflight reads, beside the lookups', () => {
  it('plan and sync of new workflows: both reads are answered before the last lookup', async () => {
    const target = await startTarget({ targetConfig: ['concurrency: 2'] });
    for (const args of [['plan'], ['sync']]) {
      const run = await target.run(args);
      expect(run.status, run.stderr).toBe(args[0] === 'plan' ? 2 : 0);
      const { preflight, lastLookup } = positions(run);
      for (const at of preflight) {
        expect(at).toBeGreaterThanOrEqual(0);
        expect(at, args.join(' ')).toBeLessThan(lastLookup);
      }
    }
  });

  it('a lost state file, every workflow on the service: the reads go out, and the plan says nothing was asked', async () => {
    const target = await startTarget();
    expect((await target.run(['sync'])).status).toBe(0);
    rmSync(target.statePath);
    const run = await target.run(['plan', '--format', 'json']);
    expect(run.status, run.stderr).toBe(0);
    const document = JSON.parse(run.stdout) as {
      summary: { create: number };
      preflight: { environment: { status: string }; notificationGroups: { status: string } };
    };
    expect(document.summary.create).toBe(0);
    expect(document.preflight.environment.status).toBe('skipped');
    expect(document.preflight.notificationGroups.status).toBe('skipped');
    // Made in vain: the one cost of starting them early.
    expect(positions(run).preflight.every((at) => at >= 0)).toBe(true);
  });
});
