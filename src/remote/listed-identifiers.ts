import { isRecord } from '../json.js';
import { type BodyRead, interpretSuccess } from './interpret.js';
import { PAGE_LIMIT } from './paging.js';
import { attempt } from './retry.js';
import type { Session } from './session.js';
import { workflowsPath } from './transport.js';

/**
 * The trigger identifier of every workflow in the key's environment, from one page of `GET /v1/workflows?page=0`:
 * what lets a plan know, in one request, that a workflow is absent instead of asking for each identifier (a 404 of
 * `GET /v1/workflows/{identifier}` says the same thing, one round trip per `concurrency` workflows).
 *
 * `undefined`, and the caller asks identifier by identifier as before, whenever the answer might not prove absence:
 * the page does not hold the whole environment (a second page could shift under concurrent edits), an entry has no
 * trigger identifier (a service whose list is shaped otherwise), or anything went wrong. One attempt, no retry: the
 * per-identifier lookups are the fallback, with their own retries and the errors users already know.
 */
export async function fetchListedIdentifiers(session: Session): Promise<ReadonlySet<string> | undefined> {
  const path = `${workflowsPath(session.endpoint)}?page=0&limit=${PAGE_LIMIT}`;
  try {
    const outcome = await attempt(session, { method: 'GET', path }, 1, (response, context) =>
      interpretSuccess(response, context, {
        statuses: [200],
        effect: 'none',
        quoteParseError: false,
        read: readWholeEnvironment,
      }),
    );
    return outcome.type === 'ok' ? outcome.value : undefined;
  } catch {
    // Cancelled or out of time: the lookups that follow meet the same and say so.
    return undefined;
  }
}

/** `{data: [...], totalCount}` → every trigger identifier, if this one page holds every workflow. */
export function readWholeEnvironment(body: unknown): BodyRead<ReadonlySet<string> | undefined> {
  if (!isRecord(body) || !Array.isArray(body.data)) return { value: undefined };
  const { data, totalCount } = body;
  // A full page may have a next one; without a count, so may any page but a short one.
  const whole = typeof totalCount === 'number' ? data.length === totalCount : data.length < PAGE_LIMIT;
  if (!whole || data.length > PAGE_LIMIT) return { value: undefined };
  const identifiers = new Set<string>();
  for (const entry of data) {
    const triggers = isRecord(entry) ? entry.triggers : undefined;
    if (!Array.isArray(triggers) || triggers.length === 0) return { value: undefined };
    for (const trigger of triggers) {
      if (!isRecord(trigger) || typeof trigger.identifier !== 'string') return { value: undefined };
      identifiers.add(trigger.identifier);
    }
  }
  return { value: identifiers };
}
