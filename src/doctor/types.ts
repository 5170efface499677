import type { ExitCode } from '../exit-codes.js';

/**
 * `wfsync doctor`'s checks, in the order they run and print. A later check that needs an earlier one's answer is
 * `skipped` when that one failed, saying which.
 */
export const DOCTOR_CHECKS = [
  { id: 'node', title: 'Node.js' },
  { id: 'config', title: 'config' },
  { id: 'workflows', title: 'workflows' },
  { id: 'api-key', title: 'API key variable' },
  { id: 'reachable', title: 'service reachable' },
  { id: 'key-accepted', title: 'key accepted' },
  { id: 'environment', title: "key's environment" },
  { id: 'notification-groups', title: 'notification groups' },
  { id: 'state', title: 'state file' },
  { id: 'lock', title: 'state lock' },
  { id: 'ci-recipes', title: 'CI recipes' },
] as const;

export type DoctorCheckId = (typeof DOCTOR_CHECKS)[number]['id'];

/** `ok` passed; `warn` works but deserves a look (never changes the exit code); `fail`; `skipped` not run. */
export type CheckStatus = 'ok' | 'warn' | 'fail' | 'skipped';

/** One check's answer: what was found, and what to do about it. */
export interface CheckResult {
  status: CheckStatus;
  message: string;
  /** What to do (a warn or a fail); absent when there is nothing to do. */
  hint?: string;
  /** A failure's class, from the exit-code table: the run exits with the first failing check's. */
  exitCode?: ExitCode;
}

export interface DoctorCheck extends CheckResult {
  id: DoctorCheckId;
  title: string;
}

export interface DoctorReport {
  /** The target checked (undefined when the config could not tell it). */
  target?: string;
  checks: DoctorCheck[];
}
