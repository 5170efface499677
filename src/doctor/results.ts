import type { Diagnostic } from '../diagnostic.js';
import { WfsyncError } from '../errors.js';
import type { CheckResult } from './types.js';

/** How a check words what it found: passed, worth a look, skipped, or failed by an error. */

export function ok(message: string): CheckResult {
  return { status: 'ok', message };
}

/** Works, but deserves a look: what was found, and what to do about it. */
export function warn(message: string, hint: string): CheckResult {
  return { status: 'warn', message, hint };
}

export function skipped(why: string): CheckResult {
  return { status: 'skipped', message: why };
}

/** A failure's result from a WfsyncError: its message (and first finding, with its position), its exit code. */
export function failedWith(error: unknown, hint?: string): CheckResult {
  if (!(error instanceof WfsyncError)) throw error;
  const [first, ...rest] = error.diagnostics;
  const finding =
    first === undefined ? '' : `: ${at(first)}${rest.length > 0 ? ` (and ${rest.length} more)` : ''}`;
  return { status: 'fail', message: `${error.message}${finding}`, exitCode: error.exitCode, ...hinted(hint) };
}

function hinted(hint: string | undefined): { hint?: string } {
  return hint === undefined ? {} : { hint };
}

export function at(d: Diagnostic): string {
  return `${d.file}:${d.line}:${d.column} ${d.message}`;
}
