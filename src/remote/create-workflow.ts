import { messageOf } from '../errors.js';
import { isRecord } from '../json.js';
import { plural } from '../text.js';
import { RemoteError } from './errors.js';
import { interpretResponse } from './interpret.js';
import { type Attempts, attempt, backoffDelay, fetchWorkflow, pauseBeforeRetry, retries } from './retry.js';
import { type Call, callError, emit, failure, pause, type Session, statusOf } from './session.js';
import { workflowPath, workflowsPath } from './transport.js';
import type { CreateOptions, CreateResult, Problem, WorkflowResponse } from './types.js';

const UNKNOWN_ADVICE = 'run `wfsync plan` (or `wfsync state`) to see whether it exists before syncing again';

/**
 * POST a workflow without ever creating it twice. The service does not reject duplicates (it suffixes the
 * identifier), so a POST is re-sent only when it provably did nothing: it never left this machine, or the
 * service answered 409/429/503+Retry-After. When the outcome is unknown (connection lost, timeout, 5xx, a 2xx
 * whose body was lost), the workflow is looked up by identifier first; only if it is not there is the same
 * request re-sent, with the same Idempotency-Key.
 */
export async function createWorkflow(
  session: Session,
  body: unknown,
  options: CreateOptions,
): Promise<CreateResult> {
  const call: Call = {
    method: 'POST',
    path: workflowsPath(session.endpoint),
    headers: {
      'content-type': 'application/json',
      'idempotency-key': checkIdempotencyKey(options.idempotencyKey),
    },
    body: serialize(body),
  };
  const paths = lookupPaths(session, call, options);
  const name = isRecord(body) && typeof body.name === 'string' ? body.name : undefined;
  // Set while an attempt may have created the workflow and no lookup has ruled that out.
  let pending: Problem | undefined;
  const attempts: Attempts = { sent: 0, failed: 0 };
  try {
    for (;;) {
      attempts.sent++;
      const sent = attempts.sent;
      const outcome = await attempt(session, call, sent, interpretResponse);
      if (outcome.type === 'ok')
        return { workflow: outcome.workflow, reconciled: false, replayed: outcome.replayed, attempts: sent };
      if (outcome.type === 'absent') throw new Error('unreachable: a POST is never "absent"');
      const { problem } = outcome;
      if (problem.effect === 'none') {
        if (!problem.transient) throw failure(session, call, problem);
        // 409: an earlier request with this key is in flight and may yet create the workflow.
        if (problem.status === 409) pending = problem;
        await pauseBeforeRetry(session, call, attempts, problem);
        continue;
      }
      pending = problem;
      if (problem.kind === 'cancelled' || problem.kind === 'deadline') {
        throw outcomeUnknown(session, call, problem, problem.detail);
      }
      attempts.failed++;
      // Give a request the service may still be working on time to land before looking.
      const delayMs = backoffDelay(attempts.failed, session.retry, session.random);
      await pause(session, call, delayMs, {
        type: 'reconcile',
        attempt: sent,
        reason: problem.detail,
        ...statusOf(problem),
      });
      const found = await lookUp(session, paths, name);
      if (found !== undefined) return { workflow: found, reconciled: true, replayed: false, attempts: sent };
      if (problem.effect === 'applied') {
        const detail = `${problem.detail}; the service answered ${problem.status} but no workflow was found afterwards`;
        throw outcomeUnknown(session, call, problem, detail);
      }
      pending = undefined;
      const absent = `a lookup found no workflow ${[...paths.keys()].map((id) => JSON.stringify(id)).join(' or ')}`;
      if (!problem.transient) throw failure(session, call, problem, absent);
      if (attempts.failed >= session.retry.maxAttempts) {
        throw failure(
          session,
          call,
          problem,
          `gave up after ${plural(attempts.failed, 'attempt')}; ${absent}`,
        );
      }
      if (!session.budget.take()) {
        throw failure(
          session,
          call,
          problem,
          `the retry budget of ${retries(session.budget.total)} is used up; ${absent}`,
        );
      }
      emit(session, {
        type: 'retry',
        method: 'POST',
        path: call.path,
        attempt: sent + 1,
        delayMs: 0,
        reason: `${absent}: sending again with the same Idempotency-Key`,
      });
    }
  } catch (error) {
    if (pending !== undefined && !(error instanceof RemoteError && error.kind === 'outcome-unknown')) {
      throw outcomeUnknown(session, call, pending, describeStop(error, pending), error);
    }
    throw error;
  }
}

/** The path of each identifier a lost create is looked up under, in order. */
function lookupPaths(session: Session, call: Call, options: CreateOptions): Map<string, string> {
  const identifiers = [options.identifier, ...(options.alternateIdentifiers ?? [])];
  return new Map(
    identifiers.map((identifier) => {
      const result = workflowPath(session.endpoint, identifier);
      if ('problem' in result) {
        // Checked before the POST: a create we could not reconcile must not be sent at all.
        throw callError(session, call, { kind: 'validation', detail: `cannot create: ${result.problem}` });
      }
      return [identifier, result.path];
    }),
  );
}

async function lookUp(
  session: Session,
  paths: ReadonlyMap<string, string>,
  name: string | undefined,
): Promise<WorkflowResponse | undefined> {
  const { found, others } = await findCreated([...paths.keys()], name, (id) =>
    fetchWorkflow(session, paths.get(id)!),
  );
  if (found === undefined && others.length > 0)
    throw new Error(`the identifier ${others.join('; ')}, so it cannot tell whether this one was created`);
  return found?.workflow;
}

/**
 * Whether a create that may have been lost landed: the first of `identifiers` that exists and carries `name` (any
 * name when undefined). A match with another name is someone else's workflow: `others` says which, in words.
 */
export async function findCreated(
  identifiers: readonly string[],
  name: string | undefined,
  get: (identifier: string) => Promise<WorkflowResponse | undefined>,
): Promise<{ found?: { workflow: WorkflowResponse; identifier: string }; others: string[] }> {
  const others: string[] = [];
  for (const identifier of identifiers) {
    const workflow = await get(identifier);
    if (workflow === undefined) continue;
    if (name === undefined || workflow.name === name) return { found: { workflow, identifier }, others };
    others.push(
      `${JSON.stringify(identifier)} belongs to the workflow named ${JSON.stringify(workflow.name)}`,
    );
  }
  return { others };
}

/** `detail` says what happened; the advice says what the user must do about it. */
function outcomeUnknown(
  session: Session,
  call: Call,
  problem: Problem,
  detail: string,
  cause?: unknown,
): RemoteError {
  return callError(session, call, {
    kind: 'outcome-unknown',
    ...statusOf(problem),
    detail: `${detail}: the workflow may or may not have been created`,
    advice: UNKNOWN_ADVICE,
    cause: cause ?? problem.cause,
  });
}

/** What ended the create while `pending` may have created the workflow. */
function describeStop(error: unknown, pending: Problem): string {
  if (!(error instanceof RemoteError)) return `${pending.detail}; ${messageOf(error)}`;
  if (error.kind === 'cancelled') return `${pending.detail}; then the command was cancelled`;
  if (error.kind === 'deadline') return `${pending.detail}; then the command's deadline passed`;
  // The POST itself gave up (e.g. still 409): its own detail says it all.
  if (error.method === 'POST') return error.detail;
  return `${pending.detail}; looking it up failed (${error.method} ${error.path}: ${error.detail})`;
}

function checkIdempotencyKey(key: string): string {
  // A programming error, not a user one: the apply layer makes the keys.
  if (!/^[\x21-\x7e]{1,255}$/.test(key))
    throw new TypeError('Idempotency-Key must be 1-255 printable ASCII characters');
  return key;
}

function serialize(body: unknown): string {
  const text = JSON.stringify(body);
  if (!isRecord(body) || text === undefined) throw new TypeError('createWorkflow needs a JSON object body');
  return text;
}
