/**
 * The frozen exit-code table, shared by every command and documented in docs/reference/exit-codes.md: each code
 * once, with the sentence that says what it means (the `meaning` of the plan and sync documents, which the CI relays
 * repeat).
 */
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

/** What each exit code means, in a few words a CI job can print after `exit N: `. */
export const EXIT_MEANINGS: Readonly<Record<ExitCode, string>> = {
  [ExitCode.Ok]: 'success',
  [ExitCode.Failure]: 'an unexpected failure: the service unreachable or failing, an I/O error, or a bug',
  [ExitCode.Changes]: 'changes that sync applies (workflows to create, update or delete)',
  [ExitCode.Invalid]: 'invalid definitions or config',
  [ExitCode.Auth]: 'the API key was refused, or it is not a Development-environment key',
  [ExitCode.RateLimited]: 'rate limited: the retry budget ran out',
  [ExitCode.NeedsPerson]: 'a workflow needs a person',
  [ExitCode.Usage]: 'a usage error: an unknown command or option, or a bad option value',
};

/**
 * The exit code a plan or sync ends with when its workflows' classes differ: a failure (1) wins over a person's job
 * (6), which wins over changes sync applies (2), which win over nothing to do (0).
 */
const PRECEDENCE: readonly ExitCode[] = [
  ExitCode.Failure,
  ExitCode.NeedsPerson,
  ExitCode.Changes,
  ExitCode.Ok,
];

/** The code that wins among `codes` (see PRECEDENCE); 0 when there is none. */
export function worstExitCode<C extends ExitCode>(codes: Iterable<C>): C | typeof ExitCode.Ok {
  let worst: C | typeof ExitCode.Ok = ExitCode.Ok;
  for (const code of codes) if (PRECEDENCE.indexOf(code) < PRECEDENCE.indexOf(worst)) worst = code;
  return worst;
}
