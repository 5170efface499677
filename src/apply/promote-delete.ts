import pLimit from 'p-limit';
import { messageOf } from '../errors.js';
import type { DeleteItem } from '../plan/types.js';
import type { ServiceClient } from '../remote/index.js';
import { type SyncItemResult, withPlanDetails } from './result.js';
import type { ApplyStore } from './store.js';

/** A promoted target's delete: the deleted Development workflow `sourceId` whose pending change sync applies. */
export type PromotedDelete = DeleteItem & { sourceId: string };

export function isPromotedDelete(item: { action: string; sourceId?: string }): item is PromotedDelete {
  return item.action === 'delete' && item.sourceId !== undefined;
}

/** What applying an item's change came to, before the Production key verifies it. */
export interface DeleteAttempt {
  item: PromotedDelete;
  /** `applied`: the service answered the apply; `refused`: it failed (its answer may have been lost after it
   * applied); `none`: Development listed no pending change for it any more, so nothing was sent. */
  sent: 'applied' | 'refused' | 'none';
  error?: unknown;
}

export interface VerifyDeletesInput {
  /** Production's client (read-only). */
  production: ServiceClient;
  store: ApplyStore;
  concurrency: number;
}

/**
 * After the changes of promoted deletes were applied: read each Production copy again with the Production key, a
 * 404 (and no copy of the Development workflow in Production's list) proving it gone, also when the apply's answer
 * was lost; then drop it from this target's state. A crash anywhere leaves an entry the next plan finds gone from
 * Production, and that plan only drops it.
 */
export async function verifyDeletes(
  input: VerifyDeletesInput,
  attempts: readonly DeleteAttempt[],
): Promise<Map<string, SyncItemResult>> {
  const results = new Map<string, SyncItemResult>();
  const listed = new Set<string>();
  for (const copy of await input.production.listWorkflows())
    if (copy._parentId !== undefined) listed.add(copy._parentId);
  const limit = pLimit(input.concurrency);
  await Promise.all(
    attempts.map(({ item, sent, error }) =>
      limit(async () => {
        const done = (result: Omit<SyncItemResult, 'identifier'>) =>
          results.set(item.identifier, withPlanDetails(item, { identifier: item.identifier, ...result }));
        const id = item.remoteId ?? item.stateId!;
        let present: boolean;
        try {
          present = (await input.production.getWorkflow(id)) !== undefined || listed.has(item.sourceId);
        } catch (readError) {
          const what = sent === 'applied' ? 'its delete was applied' : 'nothing was applied';
          done({
            outcome: 'failed',
            remoteId: id,
            message: `${what}, but reading Production's copy back failed: ${messageOf(readError)}`,
            next: 'run plan again to see what Production holds',
          });
          return;
        }
        if (present) {
          done({ outcome: 'failed', remoteId: id, ...stillPresent(sent, error) });
          return;
        }
        const how =
          sent === 'applied'
            ? 'its delete was promoted'
            : sent === 'refused'
              ? "its delete was promoted (the apply's answer was lost; a read found the copy gone)"
              : 'its delete was promoted already (no pending change was left; a read found the copy gone)';
        const message = `id ${id}; ${how}: Production no longer has it (verified with the Production key)`;
        try {
          await input.store.forget(item.identifier);
        } catch (forgetError) {
          done({
            outcome: 'failed',
            remoteId: id,
            message: `${message}, but dropping it from state failed (${messageOf(forgetError)}); the next run drops it`,
            next: 'run sync again',
          });
          return;
        }
        done({ outcome: 'deleted', remoteId: id, message });
      }),
    ),
  );
  return results;
}

function stillPresent(sent: DeleteAttempt['sent'], error: unknown): { message: string; next: string } {
  if (sent === 'refused')
    return {
      message: `not deleted: applying its pending delete failed: ${messageOf(error)}`,
      next: 'run sync again once the service answers',
    };
  if (sent === 'none')
    return {
      message:
        'not deleted: Development no longer lists a pending change for it, and Production still has its copy; nothing was applied',
      next: 'run plan again: a person decides',
    };
  return {
    message: 'its pending delete was applied, but Production still has its copy',
    next: 'run plan again to see what Production holds',
  };
}
