import { remoteVersionOf } from '../plan/remote-version.js';
import {
  endsCommand,
  findCreated,
  guarded,
  RemoteError,
  runForWorkflow,
  type ServiceClient,
} from '../remote/index.js';
import { isPendingUpdate } from '../state/types.js';
import type { ApplyEvent } from './events.js';
import { lookupIdentifiersFor } from './idempotency.js';
import type { ApplyStore } from './store.js';

export interface ReconcileInput {
  client: ServiceClient;
  store: ApplyStore;
  onEvent?: (event: ApplyEvent) => void;
  now?: () => Date;
}

export interface ReconcileReport {
  /** The interrupted POST had landed: recorded in state without sending anything. */
  recovered: Array<{ identifier: string; id: string; foundAs: string }>;
  /** It had not landed (or its identifier is another workflow's): removed from the journal. */
  cleared: Array<{ identifier: string; reason: string }>;
  /** The lookup failed: the entry stays in the journal and apply will not create this workflow in this run. */
  unresolved: Array<{ identifier: string; message: string }>;
}

/**
 * Settle the creates a previous run started but did not record (it crashed, was killed, or lost the response):
 * each journal entry is looked up under every identifier the service may have given it. Run under the lock,
 * before fetching, so the plan sees recovered workflows as known and never creates them a second time.
 */
export async function reconcilePending(input: ReconcileInput): Promise<ReconcileReport> {
  const { client, store } = input;
  const emit = guarded(input.onEvent);
  const now = input.now ?? (() => new Date());
  const { pending } = store.snapshot;
  // In identifier order (each entry's key is its identifier: the state file is refused otherwise). Interrupted
  // updates are not looked for here: the plan compares the service with the file and settles them (build-plan.ts).
  const entries = Object.keys(pending)
    .sort()
    .map((identifier) => pending[identifier]!)
    .filter((entry) => !isPendingUpdate(entry));
  const report: ReconcileReport = { recovered: [], cleared: [], unresolved: [] };
  emit({ type: 'phase', phase: 'reconcile', total: entries.length });
  for (const entry of entries) {
    const { identifier } = entry;
    emit({ type: 'workflow', identifier, status: 'fetching' });
    let search: Awaited<ReturnType<typeof findCreated>>;
    try {
      // The journaled identifiers, then the declared one and those derived from the journaled name: an entry whose
      // list is short (empty, or edited by hand) is still looked up everywhere the service may have put the workflow.
      const candidates = new Set([
        ...entry.lookupIdentifiers,
        ...lookupIdentifiersFor(identifier, entry.name),
      ]);
      search = await runForWorkflow(identifier, () =>
        findCreated([...candidates], entry.name, (candidate) => client.getWorkflow(candidate)),
      );
    } catch (error) {
      if (!(error instanceof RemoteError) || endsCommand(error)) throw error;
      const message = `could not tell whether the interrupted create of ${identifier} reached the service (${error.message}); it stays in the journal and is not created again until a later run can tell`;
      report.unresolved.push({ identifier, message });
      emit({ type: 'workflow', identifier, status: 'done', message });
      continue;
    }
    if (search.found !== undefined) {
      const { workflow, identifier: foundAs } = search.found;
      await store.recordWorkflow(identifier, {
        id: workflow._id,
        hash: entry.hash,
        origin: 'created',
        remoteVersion: remoteVersionOf(workflow),
        recordedAt: now().toISOString(),
      });
      report.recovered.push({ identifier, id: workflow._id, foundAs });
      const message = `recovered an interrupted create: it had been created (id ${workflow._id}); recorded without sending it again`;
      emit({ type: 'workflow', identifier, status: 'done', message });
      continue;
    }
    await store.clearPending(identifier);
    const reason =
      search.others.length === 0
        ? 'the interrupted create had not reached the service'
        : `${search.others.join('; ')}: if the interrupted create reached the service, it made a duplicate with a suffixed identifier (look for a second workflow named ${JSON.stringify(entry.name)} in the dashboard)`;
    report.cleared.push({ identifier, reason });
    emit({ type: 'workflow', identifier, status: 'done', message: reason });
  }
  return report;
}
