import { WfsyncError } from '../errors.js';
import { ExitCode } from '../exit-codes.js';
import { buildPreflight, preflightQuestions } from '../plan/preflight.js';
import type { DesiredWorkflow, Plan, PlanPreflight } from '../plan/types.js';
import { fetchPreflightFacts, type PreflightFacts, type TargetSession } from '../remote/index.js';
import type { StateFile } from '../state/types.js';
import type { LoadedRun } from './pipeline.js';

/**
 * The step plan and sync share after planning and before sync's first POST: ask the service (at most two reads,
 * only when the plan creates something) what sync would be refused for, decide (plan/preflight.ts, pure), and
 * either return the plan with what was checked or stop: a key whose environment may not create is exit 4, workflows
 * whose notification group does not exist are exit 3 with one positioned finding each. Nothing is sent either way.
 * What was checked (with `verbose`), or what could not be, goes to `onLog`, one line each, as raw text: the caller
 * writes it through its channel.
 */
export async function checkBeforeCreating(
  loaded: LoadedRun,
  session: TargetSession,
  plan: Plan,
  log: { verbose?: boolean; onLog?: (line: string) => void },
  early?: EarlyPreflight,
): Promise<Plan> {
  const { target, definitions } = loaded;
  const questions = preflightQuestions(plan, target);
  const asked = early !== undefined && questions.environment && sameQuestions(early.questions, questions);
  const facts = asked ? await early.facts : await fetchPreflightFacts(session.client, questions);
  const { preflight, refusal } = buildPreflight({ plan, definitions, target, facts });
  if (log.onLog) for (const line of logLines(preflight, log.verbose === true)) log.onLog(line);
  if (refusal?.check === 'environment') throw new WfsyncError(refusal.message, { exitCode: ExitCode.Auth });
  if (refusal?.check === 'notificationGroups') {
    throw new WfsyncError(refusal.message, {
      exitCode: ExitCode.Invalid,
      diagnostics: refusal.diagnostics,
      sources: new Map(definitions.map((d) => [d.file, d.text])),
    });
  }
  return { ...plan, preflight };
}

/** With `--verbose`, what was checked; otherwise only what could not be (a refusal is the error's to say). */
function logLines(preflight: PlanPreflight, verbose: boolean): string[] {
  const checks = [preflight.environment, preflight.notificationGroups];
  if (verbose) return checks.filter((c) => c.status !== 'refused').map((c) => `preflight: ${c.message}`);
  return checks.filter((c) => c.status === 'unavailable').map((c) => `note: ${c.message}`);
}

/** The preflight's reads, started beside the plan's own (startPreflightReads). */
export interface EarlyPreflight {
  questions: { environment: boolean; groups: boolean };
  facts: Promise<PreflightFacts>;
}

/**
 * Start the preflight's reads at once, beside the plan's lookups, when the plan is likely to create (a desired
 * workflow its state does not record): they no longer wait a round trip after the last lookup. Their answers are
 * used only when the plan does create (checkBeforeCreating): a plan that creates nothing reports exactly as it would
 * have, whatever they said (at most two reads were made in vain, as for a lost state file).
 */
export function startPreflightReads(
  loaded: LoadedRun,
  session: TargetSession,
  desired: readonly DesiredWorkflow[],
  state: StateFile,
): EarlyPreflight | undefined {
  if (!desired.some((d) => state.workflows[d.identifier] === undefined)) return undefined;
  const questions = { environment: true, groups: loaded.target.kind !== 'local' };
  const facts = fetchPreflightFacts(session.client, questions);
  // Awaited only if the plan creates: a failure of reads whose answer is never needed must not surface on its own.
  facts.catch(() => undefined);
  return { questions, facts };
}

function sameQuestions(a: EarlyPreflight['questions'], b: EarlyPreflight['questions']): boolean {
  return a.environment === b.environment && a.groups === b.groups;
}
