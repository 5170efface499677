import type { Diagnostic } from './diagnostic.js';
import { ExitCode } from './exit-codes.js';

/**
 * What kind of error, for programs (the API's callers) that branch on it: `invalid` definitions or config (exit 3),
 * `auth` (4), `rate-limited` (5), `usage` (64), `stale-plan` (a reviewed plan no longer holds, 2), `service` (the
 * service failed or could not be reached, 1), `aborted` (the caller's AbortSignal), `failed` (anything else, 1).
 * The codes of the `--format json` error document, but `service` stands for its `service-<kind>` (a RemoteError's
 * `kind` says which).
 */
export type WfsyncErrorCode =
  | 'invalid'
  | 'auth'
  | 'rate-limited'
  | 'usage'
  | 'stale-plan'
  | 'service'
  | 'aborted'
  | 'failed';

const CODE_OF_EXIT: Partial<Record<ExitCode, WfsyncErrorCode>> = {
  [ExitCode.Changes]: 'stale-plan',
  [ExitCode.Invalid]: 'invalid',
  [ExitCode.Auth]: 'auth',
  [ExitCode.RateLimited]: 'rate-limited',
  [ExitCode.Usage]: 'usage',
};

export interface WfsyncErrorOptions {
  exitCode?: ExitCode;
  /** Default: told by the exit code. */
  code?: WfsyncErrorCode;
  diagnostics?: Diagnostic[];
  sources?: ReadonlyMap<string, string>;
  cause?: unknown;
}

/**
 * An error wfsync expects and explains: it carries the exit code and a message for the user, and is printed
 * without a stack trace (unless `--verbose`). Anything else that reaches the exit point is a bug (exit 1).
 */
export class WfsyncError extends Error {
  readonly code: WfsyncErrorCode;
  readonly exitCode: ExitCode;
  /** Problems the user can fix, reported with positions. */
  readonly diagnostics: readonly Diagnostic[];
  /** Texts of the files the diagnostics point into, for code frames. */
  readonly sources: ReadonlyMap<string, string>;

  constructor(message: string, options: WfsyncErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'WfsyncError';
    this.exitCode = options.exitCode ?? ExitCode.Failure;
    this.code = options.code ?? CODE_OF_EXIT[this.exitCode] ?? 'failed';
    this.diagnostics = options.diagnostics ?? [];
    this.sources = options.sources ?? new Map();
  }
}

/** The message of anything thrown. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Bad command line: unknown flag, bad value, conflicting options. Exit 64. */
export class UsageError extends WfsyncError {
  constructor(message: string) {
    super(message, { exitCode: ExitCode.Usage });
    this.name = 'UsageError';
  }
}

/** Invalid config file or config values. Exit 3. */
export class ConfigError extends WfsyncError {
  constructor(message: string, diagnostics: Diagnostic[] = [], sources?: ReadonlyMap<string, string>) {
    super(message, { exitCode: ExitCode.Invalid, diagnostics, ...(sources ? { sources } : {}) });
    this.name = 'ConfigError';
  }
}
