import type { Diagnostic } from './diagnostic.js';
import { ExitCode } from './exit-codes.js';

/**
 * An error wfsync expects and explains: it carries the exit code and a message for the user, and is printed
 * without a stack trace (unless `--verbose`). Anything else that reaches the exit point is a bug (exit 1).
 */
export class WfsyncError extends Error {
  readonly exitCode: ExitCode;
  /** Problems the user can fix, reported with positions. */
  readonly diagnostics: readonly Diagnostic[];

  constructor(message: string, options: { exitCode?: ExitCode; diagnostics?: Diagnostic[]; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'WfsyncError';
    this.exitCode = options.exitCode ?? ExitCode.Failure;
    this.diagnostics = options.diagnostics ?? [];
  }
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
  constructor(message: string, diagnostics: Diagnostic[] = []) {
    super(message, { exitCode: ExitCode.Invalid, diagnostics });
    this.name = 'ConfigError';
  }
}
