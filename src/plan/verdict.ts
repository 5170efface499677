/**
 * What a plan says of itself: the exit code it ends with, the workflows that need a person and what the code means,
 * all read from the tables (plan/actions.ts, exit-codes.ts). The plan and sync documents carry it, so a CI job relays
 * it instead of keeping its own copy of the rules. Pure.
 */
import { EXIT_MEANINGS, type ExitCode, worstExitCode } from '../exit-codes.js';
import { PLAN_ACTIONS } from './actions.js';
import type { Plan } from './types.js';

export interface Verdict<C extends ExitCode = ExitCode> {
  /** The exit code the command ends with. */
  exitCode: C;
  /** The identifiers of the workflows a person must act on (sync cannot settle them), in the document's order. */
  needsPerson: string[];
  /** What the exit code means, in a few words (exit-codes.ts). */
  meaning: string;
}

/**
 * The worst of the items' exit codes: 1 when the service could not be asked about some; else 6 when a workflow needs
 * a person; else 2 when sync has something to create; else 0 (recording what the service already holds is 0).
 */
export function planExitCode(plan: Pick<Plan, 'items'>): PlanExitCode {
  return worstExitCode(plan.items.map((item) => PLAN_ACTIONS[item.action].exitCode));
}

/** The codes a plan ends with when it was made. */
export type PlanExitCode = (typeof PLAN_ACTIONS)[keyof typeof PLAN_ACTIONS]['exitCode'] | typeof ExitCode.Ok;

export function buildPlanVerdict(plan: Pick<Plan, 'items'>): Verdict<PlanExitCode> {
  return buildVerdict(
    planExitCode(plan),
    plan.items.filter((item) => PLAN_ACTIONS[item.action].needsPerson).map((item) => item.identifier),
  );
}

export function buildVerdict<C extends ExitCode>(exitCode: C, needsPerson: string[]): Verdict<C> {
  return { exitCode, needsPerson, meaning: EXIT_MEANINGS[exitCode] };
}
