export {
  type AtomicWriteFs,
  type AtomicWriteOptions,
  describeFsError,
  removeStrayTempFiles,
  writeFileAtomically,
} from './atomic-write.js';
export { checkState, STATE_VERSION } from './check.js';
export { emptyState, normalizeStateBaseUrl, serializeState } from './format.js';
export { acquireLock, type LockOptions, type StateLock } from './lock.js';
export { describeHolder, type LockHolder } from './lock-holder.js';
export { type ExpectedTarget, parseState, readState } from './read.js';
export { StateStore, type StateStoreOptions } from './store.js';
export type { PendingCreate, StateEntry, StateFile } from './types.js';
