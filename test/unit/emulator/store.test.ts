import { describe, expect, it } from 'vitest';
import { WorkflowStore } from '../../../src/emulator/store.js';
import type { StoredWorkflow } from '../../../src/emulator/types.js';

/** The workflow store's lookups, without HTTP: soft deletes hidden from all but promotion, copies by parent. */

const DEV = 'd'.repeat(24);
const PROD = 'e'.repeat(24);

function workflow(id: string, identifier: string, fields: Partial<StoredWorkflow> = {}): StoredWorkflow {
  return {
    _id: id,
    id,
    _environmentId: DEV,
    name: identifier,
    steps: [],
    triggers: [{ type: 'event', identifier, variables: [] }],
    createdAt: '2024-01-01T00:00:00.000Z',
    ...fields,
  } as StoredWorkflow;
}

describe('WorkflowStore', () => {
  it('hides a deleted workflow from find, list and the identifier check, but not from promotion', () => {
    const gone = workflow('1'.repeat(24), 'order-shipped', { deleted: true });
    const store = new WorkflowStore([gone, workflow('2'.repeat(24), 'order-shipped')]);
    expect(store.find(DEV, 'order-shipped')?._id).toBe('2'.repeat(24));
    expect(store.find(DEV, gone._id)).toBeUndefined();
    expect(store.list(DEV).map((w) => w._id)).toEqual(['2'.repeat(24)]);
    expect(store.findIncludingDeleted(DEV, gone._id)?.deleted).toBe(true);
    expect(store.all()).toHaveLength(2);
    expect(store.update(DEV, gone._id, (w) => w)).toBeUndefined();
  });

  it('tells an identifier taken by another workflow from one’s own, per environment', () => {
    const store = new WorkflowStore([workflow('1'.repeat(24), 'a'), workflow('2'.repeat(24), 'b')]);
    expect(store.hasIdentifier(DEV, 'a')).toBe(true);
    expect(store.hasIdentifier(DEV, 'a', '1'.repeat(24))).toBe(false);
    expect(store.hasIdentifier(DEV, 'a', '2'.repeat(24))).toBe(true);
    expect(store.hasIdentifier(PROD, 'a')).toBe(false);
  });

  it('finds the live Production copy of a Development workflow by its _parentId', () => {
    const source = workflow('1'.repeat(24), 'a');
    const copy = workflow('3'.repeat(24), 'a', { _environmentId: PROD, _parentId: source._id });
    const store = new WorkflowStore([source, copy]);
    expect(store.findByParent(PROD, source._id)?._id).toBe(copy._id);
    expect(store.findByParent(DEV, source._id)).toBeUndefined();
    store.update(PROD, copy._id, (w) => ({ ...w, deleted: true }));
    expect(store.findByParent(PROD, source._id)).toBeUndefined();
  });

  it('hands out copies: changing what it returned changes nothing stored', () => {
    const store = new WorkflowStore([workflow('1'.repeat(24), 'a')]);
    store.find(DEV, 'a')!.name = 'changed';
    store.list(DEV)[0]!.name = 'changed';
    expect(store.find(DEV, 'a')!.name).toBe('a');
  });
});
