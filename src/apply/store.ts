import type { PendingWrite, StateEntry, StateFile } from '../state/types.js';

/**
 * What apply needs of the state store (src/state's StateStore satisfies it): the journal written before each
 * POST, the entries written after, and the entries dropped after a DELETE. Each call must be durable when its promise resolves.
 */
export interface ApplyStore {
  /** A deep copy of the current state. */
  readonly snapshot: StateFile;
  recordPending(entry: PendingWrite): Promise<void>;
  /** Also clears `pending[identifier]`. */
  recordWorkflow(identifier: string, entry: StateEntry): Promise<void>;
  clearPending(identifier: string): Promise<void>;
  /** Drop a workflow (a deleted one) from state. */
  forget(identifier: string): Promise<void>;
}
