/**
 * Per-target state: a cache of identity (identifier → workflow _id) plus the hash of the definition each workflow
 * was created from. Never the only truth: plan/sync look identifiers up on the service when an entry is missing.
 */
export interface StateEntry {
  /** The workflow's `_id` on the service. */
  id: string;
  /** `sha256:<hex>` of the create body it was created (or adopted) from. */
  hash: string;
  /** created: by sync; adopted: by pull or because the service already matched; rebuilt: by `wfsync state rebuild`. */
  origin: 'created' | 'adopted' | 'rebuilt';
  /** Definition file when recorded (display path), for humans. */
  file?: string;
  /**
   * The service's version of the workflow when the entry was recorded (`<_id>@<updatedAt>#<__v>`): while the service
   * still shows it, nobody has changed the workflow since wfsync wrote or read it. Absent in entries written before
   * it was recorded, and by `state rebuild`/`pull`.
   */
  remoteVersion?: string;
  /** ISO timestamp of when the entry was written. */
  recordedAt: string;
}

/** Written (atomically) BEFORE each POST, removed after the create is recorded: an interrupted create is reconciled. */
export interface PendingCreate {
  /** Absent: a create (every entry written before updates were journaled is one). */
  kind?: undefined;
  identifier: string;
  /** Every identifier the service might derive (both slug generations): all are looked up when reconciling. */
  lookupIdentifiers: string[];
  name: string;
  hash: string;
  idempotencyKey: string;
  startedAt: string;
}

/**
 * Written (atomically) BEFORE an update's PUT, removed when the update is recorded: the next run's plan compares the
 * service with the file and finishes, records or hands it to a person (plan/build-plan.ts).
 */
export interface PendingUpdate {
  kind: 'update';
  identifier: string;
  /** The workflow's `_id` the PUT is sent to. */
  id: string;
  /** The desired body's hash the update writes. */
  hash: string;
  startedAt: string;
}

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
