import type { SyncResult } from '../apply/result.js';
import { ExitCode } from '../exit-codes.js';
import type { Plan } from '../plan/types.js';

/**
 * 1 when the service could not be asked about some; else 6 when a workflow needs a person (sync cannot settle it);
 * else 2 when sync has something to do (create, or record in state); else 0.
 */
export function planExitCode(plan: Plan): ExitCode {
  const s = plan.summary;
  if (s.error > 0) return ExitCode.Failure;
  if (s.drifted + s.changedLocally + s.missingRemotely + s.conflict + s.orphaned > 0)
    return ExitCode.NeedsPerson;
  // Recording an identity the service already holds as the file says changes nothing a reviewer must see: 0.
  return s.create > 0 ? ExitCode.Changes : ExitCode.Ok;
}

const SYNC_EXIT_CODES = {
  ok: ExitCode.Ok,
  'action-needed': ExitCode.NeedsPerson,
  failed: ExitCode.Failure,
  auth: ExitCode.Auth,
  'rate-limited': ExitCode.RateLimited,
} as const;

/** The sync's status as an exit code; interrupted with nothing worse wrong is a failure (1). */
export function syncExitCode(result: SyncResult): ExitCode {
  const code = SYNC_EXIT_CODES[result.status];
  // Interrupted with nothing worse wrong still must not look like success, nor like a person's job alone.
  const interrupted = result.interrupted && (code === ExitCode.Ok || code === ExitCode.NeedsPerson);
  return interrupted ? ExitCode.Failure : code;
}
