import pLimit from 'p-limit';
import type { RemoteLookup, RemoteObservation } from '../plan/types.js';
import { RemoteError, type ServiceClient } from '../remote/index.js';
import type { StateFile } from '../state/types.js';
import { guardedEmitter } from './emit.js';
import type { ApplyEvent } from './events.js';
import { endsCommand } from './remote-failure.js';
import { runForWorkflow } from './workflow-context.js';

export interface FetchObservationsInput {
  client: ServiceClient;
  /** Every identifier to look up: the desired definitions' and the state's (duplicates are ignored). */
  identifiers: readonly string[];
  state: StateFile;
  concurrency: number;
  onEvent?: (event: ApplyEvent) => void;
  /** Stops starting lookups; the function then rejects with the signal's reason. */
  signal?: AbortSignal;
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
  const emit = guardedEmitter(input.onEvent);
  const identifiers = [...new Set(input.identifiers)];
  emit({ type: 'phase', phase: 'fetch', total: identifiers.length });
  const limit = pLimit(Math.max(1, Math.floor(input.concurrency)));
  const found = new Map<string, RemoteObservation>();
  let fatal: RemoteError | undefined;
  await Promise.all(
    identifiers.map((identifier) =>
      limit(async () => {
        if (fatal !== undefined || signal?.aborted) return;
        emit({ type: 'workflow', identifier, status: 'fetching' });
        try {
          const observation = await runForWorkflow(identifier, () =>
            observe(
              client,
              identifier,
              Object.hasOwn(state.workflows, identifier) ? state.workflows[identifier]?.id : undefined,
            ),
          );
          found.set(identifier, observation);
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

async function observe(
  client: ServiceClient,
  identifier: string,
  stateId: string | undefined,
): Promise<RemoteObservation> {
  if (stateId === undefined)
    return { identifier, byIdentifier: await lookUp(client, identifier, 'identifier') };
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
