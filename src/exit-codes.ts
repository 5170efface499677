/** The frozen exit-code table, shared by every command and documented in the README. */
export const ExitCode = {
  /** Success: valid, nothing to do, everything in sync. */
  Ok: 0,
  /** Unexpected failure: a bug in wfsync, an I/O error, an unreachable or misbehaving service. */
  Failure: 1,
  /** `plan`/`sync`: only changes `sync` will apply (creates, state records); nothing needs a person. */
  Changes: 2,
  /** Invalid definitions or config (also: `--max-warnings` exceeded). */
  Invalid: 3,
  /** Authentication rejected by the service (missing, unknown or wrong-environment key). */
  Auth: 4,
  /** Rate limited: the retry budget ran out on 429s. */
  RateLimited: 5,
  /**
   * `plan`/`sync`: at least one workflow needs a person (drifted, changed locally, conflict, missing remotely,
   * orphaned): `sync` cannot settle it. An error item (1) still wins.
   */
  NeedsPerson: 6,
  /** Usage error: unknown command or flag, bad flag value. */
  Usage: 64,
} as const;

export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];
