import { describe, expect, it } from 'vitest';
import { type ChangeContext, ChangeLog, publicChange, topLevelDelta } from '../../../src/emulator/changes.js';

/** The changes log's own rules, without HTTP: one pending change per entity, children hidden, diffs from promoted. */

function context(now = 0): ChangeContext {
  let n = 0;
  return {
    environmentId: 'dev',
    organizationId: 'org',
    creatorId: 'me',
    newId: () => `id${++n}`.padStart(24, '0'),
    now,
  };
}

describe('ChangeLog', () => {
  it('folds later writes of an entity into its one pending change, and opens a new one once it is applied', () => {
    const log = new ChangeLog();
    const ctx = context(Date.parse('2024-01-01T00:00:00Z'));
    const first = log.record(ctx, { type: 'NotificationTemplate', entityId: 'w1', item: { name: 'a' } });
    const folded = log.record(
      { ...ctx, now: Date.parse('2024-01-02T00:00:00Z') },
      { type: 'NotificationTemplate', entityId: 'w1', item: { name: 'b' } },
    );
    expect(folded._id).toBe(first._id);
    expect(folded).toMatchObject({
      createdAt: '2024-01-01T00:00:00.000Z',
      updatedAt: '2024-01-02T00:00:00.000Z',
    });
    expect(folded.change).toEqual({ name: ['b'] });
    expect(log.topLevel('dev', false)).toHaveLength(1);
    log.markApplied(first._id);
    const next = log.record(ctx, { type: 'NotificationTemplate', entityId: 'w1', item: { name: 'c' } });
    expect(next._id).not.toBe(first._id);
    // The diff starts from the entity as last promoted.
    expect(next.change).toEqual({ name: ['b', 'c'] });
    expect(log.topLevel('dev', true).map((c) => c._id)).toEqual([first._id]);
    expect(log.topLevel('dev', false).map((c) => c._id)).toEqual([next._id]);
  });

  it('hides children from the top level, lists them by parent, and keeps environments apart', () => {
    const log = new ChangeLog();
    const ctx = context();
    const parentId = log.pendingId('dev', 'NotificationTemplate', 'w1', ctx.newId);
    log.record(ctx, { type: 'MessageTemplate', entityId: 't1', item: {}, parentId });
    log.record(ctx, { type: 'MessageTemplate', entityId: 't2', item: {}, parentId });
    const parent = log.record(ctx, { type: 'NotificationTemplate', entityId: 'w1', item: {} }, parentId);
    expect(parent._id).toBe(parentId);
    expect(log.pendingId('dev', 'NotificationTemplate', 'w1', ctx.newId)).toBe(parentId);
    expect(log.topLevel('dev', false).map((c) => c._id)).toEqual([parentId]);
    expect(log.children(parentId).map((c) => c._entityId)).toEqual(['t1', 't2']);
    log.record({ ...ctx, environmentId: 'prod' }, { type: 'NotificationTemplate', entityId: 'w1', item: {} });
    expect(log.topLevel('dev', false)).toHaveLength(1);
    expect(log.find('prod', parentId)).toBeUndefined();
    expect(publicChange(parent)).not.toHaveProperty('item');
  });

  it('lists newest first and survives a round trip through its stored form', () => {
    const log = new ChangeLog();
    const ctx = context();
    for (const entityId of ['w1', 'w2', 'w3'])
      log.record(ctx, { type: 'NotificationTemplate', entityId, item: {} });
    expect(log.topLevel('dev', false).map((c) => c._entityId)).toEqual(['w3', 'w2', 'w1']);
    expect(new ChangeLog(JSON.parse(JSON.stringify(log.all()))).all()).toEqual(log.all());
  });
});

describe('topLevelDelta', () => {
  it('says what was added, changed and removed, comparing nested values whole', () => {
    expect(topLevelDelta({ a: 1, b: { x: 1 }, c: 3 }, { a: 1, b: { x: 2 }, d: 4 })).toEqual({
      b: [{ x: 1 }, { x: 2 }],
      d: [4],
      c: [3, 0, 0],
    });
    expect(topLevelDelta({ a: [1] }, { a: [1] })).toEqual({});
  });
});
