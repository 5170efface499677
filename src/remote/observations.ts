import pLimit, { type LimitFunction } from 'p-limit';
import type { StateFile } from '../state/types.js';
import { runForWorkflow } from './client.js';
import { endsCommand, RemoteError } from './errors.js';
import { guarded } from './session.js';
import type { ServiceClient, WorkflowResponse } from './types.js';

/** What one lookup on the service found. `error` when the GET failed (network, 5xx after retries…). */
export type RemoteLookup =
  | { status: 'found'; workflow: WorkflowResponse; via: 'id' | 'identifier' }
  | { status: 'not-found'; via: 'id' | 'identifier' }
  | { status: 'error'; message: string; httpStatus?: number };

/** What the service holds for one identifier, fetched before planning. */
export interface RemoteObservation {
  identifier: string;
  /** GET by the id recorded in state (when state has one). */
  byId?: RemoteLookup;
  /** GET by identifier (when state has no id, or the id was not found). */
  byIdentifier?: RemoteLookup;
}

/** The progress fetchObservations reports (a subset of apply's ApplyEvent). */
export type FetchEvent =
  | { type: 'phase'; phase: 'fetch'; total: number }
  | { type: 'workflow'; identifier: string; status: 'fetching' | 'done'; message?: string };

export interface FetchObservationsInput {
  client: ServiceClient;
  /** Every identifier to look up: the desired definitions' and the state's (duplicates are ignored). */
  identifiers: readonly string[];
  state: StateFile;
  concurrency: number;
  onEvent?: (event: FetchEvent) => void;
  /** Stops starting lookups; the function then rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Each observation as it arrives, while other lookups are still on the network. */
  onObservation?: (observation: RemoteObservation) => void;
}

/**
 * Ask the service what it holds for each identifier: by the id state records (and, when that id is gone, by
 * identifier too, so the plan can tell "deleted" from "recreated under the same identifier"), else by identifier.
 * A failed lookup becomes an `error` observation for the plan to report; auth, rate-limit exhaustion,
 * cancellation and the deadline reject the whole call instead: every later lookup would fail the same way.
 */
export async function fetchObservations(
  input: FetchObservationsInput,
): Promise<Map<string, RemoteObservation>> {
  const { client, state, signal } = input;
  const emit = guarded(input.onEvent);
  const identifiers = [...new Set(input.identifiers)];
  emit({ type: 'phase', phase: 'fetch', total: identifiers.length });
  const limit = pLimit(input.concurrency);
  const stateId = (identifier: string) =>
    Object.hasOwn(state.workflows, identifier) ? state.workflows[identifier]?.id : undefined;
  const listed = listedFirst(client, identifiers.filter((id) => stateId(id) === undefined).length, limit);
  const found = new Map<string, RemoteObservation>();
  let fatal: RemoteError | undefined;
  await Promise.all(
    identifiers.map((identifier) =>
      limit(async () => {
        if (fatal !== undefined || signal?.aborted) return;
        emit({ type: 'workflow', identifier, status: 'fetching' });
        try {
          const observation = await runForWorkflow(identifier, () =>
            observe(client, identifier, stateId(identifier), listed),
          );
          found.set(identifier, observation);
          input.onObservation?.(observation);
          emit({ type: 'workflow', identifier, status: 'done', message: describe(observation) });
        } catch (error) {
          if (!(error instanceof RemoteError)) throw error;
          fatal ??= error;
        }
      }),
    ),
  );
  if (fatal !== undefined) throw fatal;
  signal?.throwIfAborted();
  // Map order follows the input, whatever order the lookups finished in.
  return new Map(identifiers.flatMap((id) => (found.has(id) ? [[id, found.get(id)!] as const] : [])));
}

/**
 * More workflows to look up by identifier than go at once: one read of the environment's list first (queued ahead
 * of every lookup), so that each one it proves absent needs no request of its own (listed-identifiers.ts). Fewer:
 * their lookups take one round trip anyway, and are made as they are.
 */
function listedFirst(
  client: ServiceClient,
  byIdentifier: number,
  limit: LimitFunction,
): Promise<ReadonlySet<string> | undefined> | undefined {
  if (client.listWorkflowIdentifiers === undefined || byIdentifier <= limit.concurrency) return undefined;
  // Never a reason to fail: without an answer, each is looked up.
  return limit(() => client.listWorkflowIdentifiers!()).catch(() => undefined);
}

async function observe(
  client: ServiceClient,
  identifier: string,
  stateId: string | undefined,
  listed?: Promise<ReadonlySet<string> | undefined>,
): Promise<RemoteObservation> {
  if (stateId === undefined) {
    // Awaited only when read: without it, the lookup starts in the same tick as before, in the same order.
    const present = listed === undefined ? undefined : await listed;
    // Not in a list that holds the whole environment: what a 404 by identifier would have said.
    if (present !== undefined && !present.has(identifier))
      return { identifier, byIdentifier: { status: 'not-found', via: 'identifier' } };
    return { identifier, byIdentifier: await lookUp(client, identifier, 'identifier') };
  }
  const byId = await lookUp(client, stateId, 'id');
  if (byId.status !== 'not-found') return { identifier, byId };
  return { identifier, byId, byIdentifier: await lookUp(client, identifier, 'identifier') };
}

async function lookUp(client: ServiceClient, key: string, via: 'id' | 'identifier'): Promise<RemoteLookup> {
  try {
    const workflow = await client.getWorkflow(key);
    return workflow === undefined ? { status: 'not-found', via } : { status: 'found', workflow, via };
  } catch (error) {
    // An unreachable service fails every lookup the same way: one clear error beats N identical ones.
    if (!(error instanceof RemoteError) || endsCommand(error) || error.unreachable) throw error;
    return {
      status: 'error',
      message: error.message,
      ...(error.status === undefined ? {} : { httpStatus: error.status }),
    };
  }
}

function describe(observation: RemoteObservation): string {
  const parts: string[] = [];
  for (const lookup of [observation.byId, observation.byIdentifier]) {
    if (lookup === undefined) continue;
    if (lookup.status === 'found') parts.push(`found by ${lookup.via} (id ${lookup.workflow._id})`);
    else if (lookup.status === 'not-found') parts.push(`not found by ${lookup.via}`);
    else parts.push(`lookup failed: ${lookup.message}`);
  }
  return parts.join('; ');
}
