import { describe, expect, it } from 'vitest';
import type { ApplyEvent } from '../../../src/apply/events.js';
import { harness, posts, readStateFile, runSync, simpleDesired, withFreshState } from './harness.js';

describe('sync of the example workflows against the emulator', () => {
  it('creates every workflow once, records every id, leaves no journal entry', async () => {
    const h = await harness();
    const { result } = await runSync(h);

    expect(result.status).toBe('ok');
    expect(result.interrupted).toBe(false);
    expect(result.summary).toEqual({
      created: h.desired.length,
      updated: 0,
      deleted: 0,
      promoted: 0,
      'in-sync': 0,
      drifted: 0,
      'changed-locally': 0,
      'missing-remotely': 0,
      conflict: 0,
      orphaned: 0,
      failed: 0,
      skipped: 0,
    });
    const stored = h.emu.workflows();
    expect(stored).toHaveLength(h.desired.length);
    expect(posts(h.emu)).toHaveLength(h.desired.length);

    const state = await readStateFile(h);
    expect(state.pending).toEqual({});
    for (const d of h.desired) {
      const onService = stored.find((w) => w.triggers[0]?.identifier === d.identifier);
      expect(onService, d.identifier).toBeDefined();
      expect(state.workflows[d.identifier]).toMatchObject({
        id: onService?._id,
        hash: d.hash,
        origin: 'created',
      });
      const outcome = result.outcomes.find((o) => o.identifier === d.identifier);
      expect(outcome).toMatchObject({ outcome: 'created', remoteId: onService?._id, file: d.file });
    }
  });

  it('a second run finds everything in sync and sends no POST', async () => {
    const h = await harness();
    await runSync(h);
    const stateAfterFirst = await readStateFile(h);
    const postsBefore = posts(h.emu).length;

    const { plan, result } = await runSync(h);

    expect(plan.items.map((i) => i.action)).toEqual(h.desired.map(() => 'in-sync'));
    expect(result.status).toBe('ok');
    expect(result.summary['in-sync']).toBe(h.desired.length);
    expect(posts(h.emu)).toHaveLength(postsBefore);
    // Nothing to refresh: the state file is byte-for-byte what the first run wrote.
    expect(await readStateFile(h)).toEqual(stateAfterFirst);
  });

  it('emits a create phase with its total and one done event per create, with the outcome', async () => {
    const h = await harness();
    await runSync(h, { concurrency: 2 });
    const phases = h.events.filter((e) => e.type === 'phase');
    expect(phases).toEqual([
      { type: 'phase', phase: 'reconcile', total: 0 },
      { type: 'phase', phase: 'fetch', total: h.desired.length },
      { type: 'phase', phase: 'create', total: h.desired.length },
    ]);
    const done = h.events.filter(
      (e) => e.type === 'workflow' && e.status === 'done' && e.outcome !== undefined,
    );
    expect(done).toHaveLength(h.desired.length);
    expect(new Set(done.map((e) => (e.type === 'workflow' ? e.identifier : '')))).toEqual(
      new Set(h.desired.map((d) => d.identifier)),
    );
    for (const identifier of h.desired.map((d) => d.identifier)) {
      const statuses = h.events.flatMap((e) =>
        e.type === 'workflow' && e.identifier === identifier ? [e.status] : [],
      );
      expect(statuses).toEqual(['fetching', 'done', 'creating', 'verifying', 'done']);
    }
  });

  it('records a workflow the service already matches as adopted, without a POST', async () => {
    const h = await harness();
    await runSync(h);
    const again = await withFreshState(h);
    const postsBefore = posts(h.emu).length;
    const { result } = await runSync(again);
    expect(result.summary['in-sync']).toBe(h.desired.length);
    expect(result.status).toBe('ok');
    expect(posts(h.emu)).toHaveLength(postsBefore);
    const state = again.store.snapshot;
    for (const d of h.desired)
      expect(state.workflows[d.identifier]).toMatchObject({ origin: 'adopted', hash: d.hash });
  });

  it('refreshes the hash of a workflow that already matches a changed file, keeping its origin', async () => {
    const h = await harness();
    await runSync(h);
    const [first] = h.desired;
    if (first === undefined) throw new Error('no examples');
    const entry = h.store.snapshot.workflows[first.identifier];
    if (entry === undefined) throw new Error('not recorded');
    // As if the file had changed and the same change had been made in the dashboard.
    await h.store.recordWorkflow(first.identifier, { ...entry, hash: `sha256:${'0'.repeat(64)}` });

    const { result } = await runSync(h);

    expect(result.outcomes.find((o) => o.identifier === first.identifier)).toMatchObject({
      outcome: 'in-sync',
      message: "matches the service: recorded the file's new hash",
    });
    expect((await readStateFile(h)).workflows[first.identifier]).toMatchObject({
      id: entry.id,
      hash: first.hash,
      origin: 'created',
    });
    expect(result.status).toBe('ok');
  });

  it('records the version the service holds for an entry written before versions were recorded, saying nothing', async () => {
    const h = await harness();
    await runSync(h);
    const [first] = h.desired;
    if (first === undefined) throw new Error('no examples');
    const entry = h.store.snapshot.workflows[first.identifier];
    if (entry?.remoteVersion === undefined) throw new Error('created without its version');
    const { remoteVersion, ...older } = entry;
    await h.store.recordWorkflow(first.identifier, older);

    const { result } = await runSync(h);

    const outcome = result.outcomes.find((o) => o.identifier === first.identifier);
    expect(outcome?.outcome).toBe('in-sync');
    expect(outcome?.message).toBeUndefined();
    expect((await readStateFile(h)).workflows[first.identifier]).toEqual({
      ...older,
      remoteVersion,
      recordedAt: expect.any(String),
    });
  });

  it('a changed file is reported for a person, never sent: action-needed', async () => {
    const h = await harness();
    await runSync(h);
    const [first, ...rest] = h.desired;
    if (first === undefined) throw new Error('no examples');
    const changed = simpleDesired(h.emu.notificationGroupId, first.body.name, first.identifier, {
      description: 'changed in the file',
    });
    const postsBefore = posts(h.emu).length;

    const { result } = await runSync({ ...h, desired: [{ ...changed, file: first.file }, ...rest] });

    const outcome = result.outcomes.find((o) => o.identifier === first.identifier);
    expect(outcome).toMatchObject({ outcome: 'changed-locally', file: first.file });
    expect(outcome?.changes?.length).toBeGreaterThan(0);
    expect(outcome?.diff).toContain('+++ ');
    expect(outcome?.next).toBeTruthy();
    expect(result.status).toBe('action-needed');
    expect(posts(h.emu)).toHaveLength(postsBefore);
  });

  it('an orphaned state entry is reported with a notice, and needs a person (action-needed: exit 6)', async () => {
    const h = await harness();
    await runSync(h);
    const [first, ...rest] = h.desired;
    if (first === undefined) throw new Error('no examples');
    const fewer = { ...h, desired: rest };
    const events: ApplyEvent[] = [];

    const { result } = await runSync(fewer, { onEvent: (event) => events.push(event) });

    expect(result.outcomes.at(-1)).toMatchObject({ identifier: first.identifier, outcome: 'orphaned' });
    expect(result.summary).toMatchObject({ orphaned: 1, 'in-sync': rest.length });
    expect(result.status).toBe('action-needed');
    expect(events).toContainEqual({
      type: 'notice',
      message:
        '1 workflow in state no longer has a definition and is not deleted (see each "next"): delete them in the dashboard, then `wfsync state forget <identifier>`',
    });
  });

  it('many workflows with bounded concurrency: each created once, then all in sync', async () => {
    const names = Array.from({ length: 120 }, (_, i) => `bulk workflow ${i}`);
    const h = await harness({
      desired: (groupId) => names.map((name) => simpleDesired(groupId, name, name.replace(/ /g, '-'))),
    });
    const first = await runSync(h, { concurrency: 8 });
    expect(first.result.summary.created).toBe(names.length);
    expect(posts(h.emu)).toHaveLength(names.length);
    const state = await readStateFile(h);
    expect(Object.keys(state.workflows)).toHaveLength(names.length);
    expect(state.pending).toEqual({});

    const second = await runSync(h, { concurrency: 8 });
    expect(second.result.summary['in-sync']).toBe(names.length);
    expect(posts(h.emu)).toHaveLength(names.length);
  });
});
