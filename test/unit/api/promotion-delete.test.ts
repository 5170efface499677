import { describe, expect, it } from 'vitest';
import { readRemovedCopies } from '../../../src/api/promotion-delete.js';
import type { WorkflowResponse } from '../../../src/generated/workflow-response.js';
import type { ServiceChange } from '../../../src/remote/index.js';
import type { StateFile } from '../../../src/state/types.js';
import { stubClient } from '../../helpers/remote.js';
import { aWorkflowNamed } from '../../helpers/workflow.js';
import { desiredOf, storedFor } from '../plan/helpers.js';

/**
 * The reads a promoted target's plan makes for removed files: Production's copy by the recorded id, the Development
 * workflow by the copy's `_parentId`, and Development's pending changes only when that workflow is gone.
 */

const idOf = (n: number) => n.toString(16).padStart(24, '0');
const BODY = desiredOf(
  aWorkflowNamed('alpha', { steps: [{ template: { type: 'in_app', content: 'Hi' } }] }),
).body;

function client(
  name: string,
  workflows: Map<string, WorkflowResponse>,
  asked: string[],
  changes: ServiceChange[] = [],
) {
  return stubClient(name, {
    getWorkflow: async (id) => {
      asked.push(`${name} GET ${id}`);
      return workflows.get(id);
    },
    listPendingChanges: async () => {
      asked.push(`${name} changes`);
      return changes;
    },
  });
}

function stateOf(ids: Record<string, string>): StateFile {
  const workflows = Object.fromEntries(
    Object.entries(ids).map(([identifier, id]) => [
      identifier,
      { id, hash: '', origin: 'created' as const, recordedAt: '' },
    ]),
  );
  return { version: 1, target: 'production', baseUrl: '', workflows, pending: {} };
}

describe('readRemovedCopies', () => {
  it('asks nothing when no file was removed', async () => {
    const asked: string[] = [];
    const read = await readRemovedCopies({
      production: client('production', new Map(), asked),
      source: client('development', new Map(), asked),
      state: stateOf({ alpha: idOf(9) }),
      identifiers: [],
      concurrency: 2,
    });
    expect(read.size).toBe(0);
    expect(asked).toEqual([]);
  });

  it('reads the copy, then its Development parent, and the pending changes only when that parent is gone', async () => {
    const copy = (id: number, parent: number) => ({
      ...storedFor(BODY),
      _id: idOf(id),
      _parentId: idOf(parent),
    });
    const production = new Map([
      [idOf(901), copy(901, 101)],
      [idOf(902), copy(902, 102)],
    ]);
    const development = new Map([[idOf(102), { ...storedFor(BODY), _id: idOf(102) }]]);
    const asked: string[] = [];
    const changes: ServiceChange[] = [
      { _id: idOf(501), _entityId: idOf(101), type: 'NotificationTemplate', enabled: false },
      { _id: idOf(502), _entityId: idOf(101), type: 'Layout', enabled: false },
    ];
    const read = await readRemovedCopies({
      production: client('production', production, asked),
      source: client('development', development, asked, changes),
      state: stateOf({ deleted: idOf(901), kept: idOf(902), gone: idOf(903) }),
      identifiers: ['deleted', 'kept', 'gone'],
      concurrency: 1,
    });
    expect(read.get('deleted')).toMatchObject({
      production: { status: 'found' },
      development: { status: 'not-found' },
      pendingChangeId: idOf(501),
    });
    expect(read.get('kept')).toMatchObject({ development: { status: 'found' } });
    expect(read.get('kept')?.pendingChangeId).toBeUndefined();
    expect(read.get('gone')).toEqual({ production: { status: 'not-found', via: 'id' } });
    expect(asked.filter((a) => a.endsWith('changes'))).toEqual(['development changes']);
    expect(asked).toContain(`development GET ${idOf(101)}`);
    expect(asked).toContain(`production GET ${idOf(903)}`);
  });
});
