import { setMaxListeners } from 'node:events';
import type { TargetOptions } from '../config/target.js';
import { ExitCode } from '../exit-codes.js';
import type { RunContext } from '../plan/command-line.js';
import type { DesiredWorkflow, Plan } from '../plan/types.js';
import type { ServiceClient } from '../remote/index.js';
import { buildPlanJson } from '../report/plan/json.js';
import { readState } from '../state/read.js';
import type { PlanDocument } from './documents.js';
import { asAbortError, throwIfAborted } from './errors.js';
import { processDefaults, type RunHooks, type TargetApiOptions, targetOptions } from './options.js';
import { planExitCode } from './outcome.js';
import { loadRun, openRun, planRun, stateIdentity } from './pipeline.js';
import { checkBeforeCreating, startPreflightReads } from './preflight.js';

/** `wfsync plan`'s options, camelCase. */
export interface PlanOptions extends TargetApiOptions, RunHooks {
  /** `--base`: compare with the definitions at the merge-base of HEAD and this ref (default: `env.GITHUB_BASE_REF`). */
  base?: string;
}

/** What plan found: the `--format json` document, and what it asks of whom. */
export interface PlanResult {
  document: PlanDocument;
  /** The CLI's exit code: 0 nothing to do, 2 sync will create or record, 6 a person must act, 1 some could not be asked. */
  exitCode: ExitCode;
  /** A workflow needs a person (drifted, changed locally, conflict, missing remotely, orphaned): sync cannot settle it. */
  needsPerson: boolean;
}

/**
 * `wfsync plan` as a function: read-only (no POST, no lock, no state written). Invalid definitions, a rejected key,
 * a service that cannot be reached reject with a WfsyncError (see its `code`); an aborted `signal` with an AbortError.
 */
export async function plan(options: PlanOptions = {}): Promise<PlanResult> {
  const { cwd, env } = processDefaults(options);
  throwIfAborted(options.signal);
  try {
    const { base, signal, onEvent, onClientEvent, onLog, verbose } = options;
    const planning = await runPlanning({
      options: targetOptions(options, cwd),
      base,
      cwd,
      env,
      signal,
      onEvent,
      onClientEvent,
      onLog,
      verbose,
    });
    return planResult(planning.plan);
  } catch (error) {
    throw asAbortError(error, options.signal);
  }
}

export function planResult(planned: Plan): PlanResult {
  const exitCode = planExitCode(planned);
  return {
    document: buildPlanJson(planned),
    exitCode,
    needsPerson: exitCode === ExitCode.NeedsPerson,
  };
}

/** What the CLI's plan and the API's share: the target options (parsed once, passed as they are), the process's parts. */
export type PlanningInput = RunHooks & {
  options: TargetOptions;
  base?: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
};

/** A plan, and the bodies it compared the service with (what `plan --previews` renders). */
export interface Planning {
  plan: Plan;
  desired: DesiredWorkflow[];
  /** What the commands the report suggests must repeat of this run (target, config and state file, base). */
  run: RunContext;
}

/** Load, open, plan (read-only) and ask what sync would be refused for: the plan, every detail added. */
export async function runPlanning(input: PlanningInput): Promise<Planning> {
  // 1. Config, target and definitions, all validated before anything goes out.
  const { cwd, env, base: ref } = input;
  const loaded = await loadRun(input.options, { cwd, env, base: ref, baseFromEnv: true });
  const signal = input.signal && linkedSignal(input.signal);
  // 2. The target (and for `local`, the embedded service) and the bodies that would be sent.
  const { session, desired, base } = await openRun(loaded, {
    env: input.env,
    onClientEvent: input.onClientEvent,
    ...(signal ? { signal } : {}),
  });
  logDetails(input, session.route, base);
  try {
    // 3. State (read-only: plan takes no lock and writes nothing), then what the service holds.
    const state = await readState(loaded.target.statePath, stateIdentity(loaded.target));
    const readOnly = { ...session, client: readOnlyClient(session.client) };
    const early = startPreflightReads(loaded, readOnly, desired, state);
    const planned = await planRun(loaded, {
      session: readOnly,
      desired,
      state,
      base,
      onEvent: input.onEvent,
      ...(signal ? { signal } : {}),
    });
    // 4. What sync would be refused for (the key's environment, missing groups): asked now, read-only.
    const plan = await checkBeforeCreating(loaded, readOnly, planned, input, early);
    return { plan, desired, run: loaded.run };
  } finally {
    await session.close();
  }
}

/** With `verbose`: where the requests go, and the base compared with. */
export function logDetails(
  input: Pick<RunHooks, 'verbose' | 'onLog'>,
  route: string,
  base: { ref: string; commit: string } | undefined,
): void {
  if (!input.verbose || !input.onLog) return;
  input.onLog(route);
  if (base) input.onLog(`base: ${base.ref}, compared at the merge-base ${base.commit}`);
}

/** The client `plan` uses: any attempt to write is a bug, and fails loudly instead of reaching the service. */
export function readOnlyClient(client: ServiceClient): ServiceClient {
  const refuse = () => Promise.reject(new Error('internal error: plan is read-only and must never write'));
  // createClient's operations are the object's own properties: the copy keeps them, bound to their session.
  return {
    ...client,
    createWorkflow: refuse,
    updateWorkflow: refuse,
    setWorkflowStatus: refuse,
    deleteWorkflow: refuse,
  };
}

/**
 * A signal that follows the caller's, for every request in flight to listen to (with a high concurrency Node would
 * warn about a listener leak that is not one, on a signal that is not ours to configure).
 */
export function linkedSignal(signal: AbortSignal): AbortSignal {
  const controller = new AbortController();
  setMaxListeners(0, controller.signal);
  if (signal.aborted) controller.abort(signal.reason);
  else signal.addEventListener('abort', () => controller.abort(signal.reason), { once: true });
  return controller.signal;
}
