/**
 * More workflows to look up by identifier than the target's concurrency: plan and sync read the environment's list
 * once and ask only for the identifiers it holds (remote/listed-identifiers.ts), with the same plan, the same
 * creates and the same state as lookups one by one. What was asked is read from the emulator's log.
 */
import { rmSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EXAMPLE_IDENTIFIERS, startTarget, type TargetRun } from './plan-sync-target.js';

const LIST = 'GET /v1/workflows?page=0&limit=100';

/** Each request as `METHOD path`, in the order the emulator answered them. */
const asked = (run: TargetRun) => run.requests.map((r) => `${r.method} ${r.path}`);
const byIdentifier = (run: TargetRun) =>
  asked(run).filter((r) => EXAMPLE_IDENTIFIERS.some((id) => r === `GET /v1/workflows/${id}`));

describe('lookups by identifier, more than go at once', () => {
  it('plan and sync of new workflows: one list read, no lookup by identifier; then by recorded id', async () => {
    const target = await startTarget({ targetConfig: ['concurrency: 2'] });
    const plan = await target.run(['plan', '--format', 'json']);
    expect(plan.status, plan.stderr).toBe(2);
    expect((JSON.parse(plan.stdout) as { summary: { create: number } }).summary.create).toBe(
      EXAMPLE_IDENTIFIERS.length,
    );
    expect(asked(plan).filter((r) => r.startsWith('GET /v1/workflows'))).toEqual([LIST]);

    const sync = await target.run(['sync']);
    expect(sync.status, sync.stderr).toBe(0);
    expect(asked(sync).filter((r) => r === LIST)).toHaveLength(1);
    expect(byIdentifier(sync)).toEqual([]);
    expect(sync.posts).toBe(EXAMPLE_IDENTIFIERS.length);
    expect(target.stored()).toEqual([...EXAMPLE_IDENTIFIERS].sort());

    // Every workflow recorded: looked up by its id, no list needed.
    const again = await target.run(['plan']);
    expect(again.status, again.stderr).toBe(0);
    expect(asked(again)).not.toContain(LIST);
    expect(asked(again)).toHaveLength(EXAMPLE_IDENTIFIERS.length);
  });

  it('a lost state file: the list holds every identifier, so each is looked up and found, as before', async () => {
    const target = await startTarget({ targetConfig: ['concurrency: 2'] });
    expect((await target.run(['sync'])).status).toBe(0);
    rmSync(target.statePath);
    const plan = await target.run(['plan']);
    expect(plan.status, plan.stderr).toBe(0);
    expect(asked(plan)).toContain(LIST);
    expect(byIdentifier(plan).sort()).toEqual(
      EXAMPLE_IDENTIFIERS.map((id) => `GET /v1/workflows/${id}`).sort(),
    );
    expect(plan.stdout).toContain(`${EXAMPLE_IDENTIFIERS.length} workflows in sync`);
  });

  it('as many as go at once: each is looked up by identifier, no list', async () => {
    const target = await startTarget({ targetConfig: [`concurrency: ${EXAMPLE_IDENTIFIERS.length}`] });
    const plan = await target.run(['plan']);
    expect(plan.status, plan.stderr).toBe(2);
    expect(asked(plan)).not.toContain(LIST);
    expect(byIdentifier(plan)).toHaveLength(EXAMPLE_IDENTIFIERS.length);
  });
});
