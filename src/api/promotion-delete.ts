/**
 * The reads a promoted target's plan makes for each workflow of its state whose file was removed: Production's copy
 * by the id state records (Production key), the Development workflow it was promoted from by its `_parentId`
 * (Development key), and, when that one is gone, Development's pending changes (every page), for the change that
 * would promote its delete. Only GETs; plan/promotion-delete.ts decides.
 */
import type { ApplyEvent } from '../apply/events.js';
import { WORKFLOW_CHANGE } from '../apply/promote-plan.js';
import type { RemovedCopy } from '../plan/promotion-delete.js';
import { fetchObservations, type RemoteLookup, type ServiceClient } from '../remote/index.js';
import type { StateFile } from '../state/types.js';

export interface RemovedReadInput {
  /** Production's client (read-only) and Development's. */
  production: ServiceClient;
  source: ServiceClient;
  /** This target's state: the Production copies wfsync promoted. */
  state: StateFile;
  /** The identifiers in state that no definition has any more. */
  identifiers: readonly string[];
  concurrency: number;
  onEvent?: (event: ApplyEvent) => void;
  signal?: AbortSignal;
}

export async function readRemovedCopies(input: RemovedReadInput): Promise<Map<string, RemovedCopy>> {
  const read = new Map<string, RemovedCopy>();
  if (input.identifiers.length === 0) return read;
  const common = {
    concurrency: input.concurrency,
    onEvent: input.onEvent,
    signal: input.signal,
  };
  // 1. Production's copies, by the recorded id (a lookup by identifier after a 404 is not ours: ignored).
  const copies = await fetchObservations({
    ...common,
    client: input.production,
    identifiers: input.identifiers,
    state: input.state,
  });
  const parents: StateFile['workflows'] = {};
  for (const identifier of input.identifiers) {
    const production: RemoteLookup = copies.get(identifier)?.byId ?? {
      status: 'error',
      message: 'Production was not asked for it',
    };
    read.set(identifier, { production });
    const parentId = production.status === 'found' ? production.workflow._parentId : undefined;
    if (typeof parentId === 'string' && parentId !== '')
      parents[identifier] = { id: parentId, hash: '', origin: 'adopted', recordedAt: '' };
  }
  if (Object.keys(parents).length === 0) return read;
  // 2. The Development workflows they were promoted from, by `_id`.
  const sources = await fetchObservations({
    ...common,
    client: input.source,
    identifiers: Object.keys(parents),
    state: { ...input.state, workflows: parents, pending: {} },
  });
  const gone: string[] = [];
  for (const [identifier, observed] of sources) {
    const development: RemoteLookup = observed.byId ?? {
      status: 'error',
      message: 'Development was not asked for it',
    };
    read.set(identifier, { ...read.get(identifier)!, development });
    if (development.status === 'not-found') gone.push(identifier);
  }
  if (gone.length === 0) return read;
  // 3. The pending change of each deleted Development workflow: applying it deletes Production's copy.
  const pending = new Map<string, string>();
  for (const change of await input.source.listPendingChanges()) {
    if (change.type === WORKFLOW_CHANGE && !change.enabled) pending.set(change._entityId, change._id);
  }
  for (const identifier of gone) {
    const changeId = pending.get(parents[identifier]!.id);
    if (changeId !== undefined) read.set(identifier, { ...read.get(identifier)!, pendingChangeId: changeId });
  }
  return read;
}
