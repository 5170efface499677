/**
 * Per-target state: a cache of identity (identifier → workflow _id) plus the hash of the definition each workflow
 * was created from. Never the only truth: plan/sync look identifiers up on the service when an entry is missing.
 */
import type {
  PendingCreate as PendingCreateDocument,
  PendingUpdate,
  StateEntry,
} from '../generated/state-output.js';

/**
 * One workflow wfsync knows (`workflows`, by identifier), typed from schemas/state-output.schema.json (`state show
 * --format json` prints the file by it): its `_id`; `hash`, `sha256:<hex>` of the create body it was created (or
 * adopted) from; `origin`, created by sync, adopted by pull or because the service already matched, or rebuilt by
 * `wfsync state rebuild`; the definition `file` when recorded (display path, for humans); the service's
 * `remoteVersion` when recorded; `recordedAt`, an ISO timestamp.
 */
export type { StateEntry };

/**
 * Written (atomically) BEFORE each POST, removed after the create is recorded: an interrupted create is reconciled,
 * looking up every identifier the service might derive (`lookupIdentifiers`: both slug generations). `kind` absent:
 * a create (every entry written before updates were journaled is one).
 */
export type PendingCreate = PendingCreateDocument & { kind?: undefined };

/**
 * Written (atomically) BEFORE an update's PUT, removed when the update is recorded: the next run's plan compares the
 * service with the file and finishes, records or hands it to a person (plan/build-plan.ts).
 */
export type { PendingUpdate };

/** One journal entry: a create or an update that was started and not yet recorded. */
export type PendingWrite = PendingCreate | PendingUpdate;

export function isPendingUpdate(entry: PendingWrite): entry is PendingUpdate {
  return entry.kind === 'update';
}

export interface StateFile {
  version: 1;
  /** Target name and base URL (no credentials) the file belongs to: refuse to mix targets. */
  target: string;
  baseUrl: string;
  workflows: Record<string, StateEntry>;
  pending: Record<string, PendingWrite>;
}
