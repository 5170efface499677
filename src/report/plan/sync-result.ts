/** The result of `wfsync sync`, as the renderers read it: the types `src/apply/events.ts` defines. */
export type { SyncItemResult, SyncOutcome, SyncResult, SyncStatus } from '../../apply/events.js';
