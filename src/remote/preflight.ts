import { commandEndingKind, RemoteError } from './errors.js';
import type { CurrentEnvironment, NotificationGroup, ServiceClient } from './types.js';

/**
 * The service's facts a plan checks before merge (plan/preflight.ts decides with them): the key's environment and
 * its notification groups, each asked at most once per run. Read-only.
 */

/** One fact: what the service said, that it was not asked, or why it could not tell. */
export type PreflightFact<T> =
  | { status: 'found'; value: T }
  | { status: 'not-asked' }
  | { status: 'unavailable'; reason: string };

export interface PreflightFacts {
  environment: PreflightFact<CurrentEnvironment>;
  groups: PreflightFact<NotificationGroup[]>;
}

/**
 * Ask what `ask` says to, both at once. A 404 (a service without the route) and any failure that does not end the
 * command are "unavailable" with the reason: the check is advisory, and sync still meets the service's own answer.
 * That includes 401/403 here: the same key just read the workflows, so a refusal is about these routes (a key
 * without the permission), not the key. Cancellation, the deadline and an exhausted rate limit end the command.
 */
export async function fetchPreflightFacts(
  client: ServiceClient,
  ask: { environment: boolean; groups: boolean },
): Promise<PreflightFacts> {
  const [environment, groups] = await Promise.all([
    ask.environment
      ? fetchFact(() => client.getCurrentEnvironment(), 'GET /v1/environments/me')
      : { status: 'not-asked' as const },
    ask.groups
      ? fetchFact(() => client.listNotificationGroups(), 'GET /v1/notification-groups')
      : { status: 'not-asked' as const },
  ]);
  return { environment, groups };
}

async function fetchFact<T>(read: () => Promise<T | undefined>, route: string): Promise<PreflightFact<T>> {
  try {
    const value = await read();
    if (value === undefined) {
      return {
        status: 'unavailable',
        reason: `the service does not answer ${route} (404: an older or different service)`,
      };
    }
    return { status: 'found', value };
  } catch (error) {
    const ending = commandEndingKind(error);
    if (!(error instanceof RemoteError) || (ending !== undefined && ending !== 'auth')) throw error;
    // The message is the client's: the call, what happened, the advice; the key already removed.
    return { status: 'unavailable', reason: error.message };
  }
}
