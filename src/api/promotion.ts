/**
 * A promoted target (`promoteFrom`, Production), planned: its own path beside plan/sync's, from the loaded run on.
 * Development is read with the Development target's key and state; Production with this target's key, which only
 * ever reads (its client refuses to write). Every check that can refuse the run happens here, before sync's first
 * write: a Development side whose key is not a Development key, a Production key of another environment.
 */
import type { ApplyEvent } from '../apply/events.js';
import type { ResolvedTarget } from '../config/target.js';
import { WfsyncError } from '../errors.js';
import { ExitCode } from '../exit-codes.js';
import { quoteServiceText as quote } from '../plan/preflight.js';
import { buildPromotionPlan } from '../plan/promotion.js';
import type { DesiredWorkflow, Plan } from '../plan/types.js';
import {
  fetchObservations,
  openTargetSession,
  type RemoteLookup,
  type ServiceClient,
  type TargetSession,
} from '../remote/index.js';
import { readState } from '../state/read.js';
import type { StateFile } from '../state/types.js';
import { type LoadedRun, openRun, stateIdentity } from './pipeline.js';
import { readRemovedCopies } from './promotion-delete.js';
import { readOnlyClient } from './read-only-client.js';

/** Both environments open: Production (this target, read-only) and Development (`promoteFrom`). */
export interface PromotionSessions {
  /** This target: Production, its client read-only. */
  session: TargetSession;
  /** The Development target: its key applies changes (sync only; plan's is read-only too). */
  source: TargetSession;
  /** The bodies as Development holds them (its groups): what Production must receive. */
  desired: DesiredWorkflow[];
  close(): Promise<void>;
}

/** The Development target a promoted run promotes from. */
export function sourceOf(loaded: LoadedRun): ResolvedTarget {
  const source = loaded.target.promoteFrom;
  if (source === undefined) throw new Error('internal error: not a promoted target');
  return source;
}

export async function openPromotion(
  loaded: LoadedRun,
  options: Parameters<typeof openTargetSession>[1] & { write: boolean },
): Promise<PromotionSessions> {
  const source = sourceOf(loaded);
  // The definitions are built for Development (its groups): Production receives Development's workflow as it is.
  const opened = await openRun({ ...loaded, target: source }, options);
  let production: TargetSession;
  try {
    production = await openTargetSession(loaded.target, options);
  } catch (error) {
    await opened.session.close();
    throw error;
  }
  const sourceSession = options.write
    ? opened.session
    : { ...opened.session, client: readOnlyClient(opened.session.client) };
  return {
    session: { ...production, client: readOnlyClient(production.client) },
    source: sourceSession,
    desired: opened.desired,
    close: async () => {
      await Promise.all([production.close(), opened.session.close()]);
    },
  };
}

/**
 * The keys' environments, before anything else is asked: the Development side's key must be a Development key (a
 * Production key there would be refused on the first write), and this target's key must be a key of the Production
 * environment derived from it. A service without the route cannot tell: nothing is refused then.
 */
export async function checkPromotionKeys(loaded: LoadedRun, sessions: PromotionSessions): Promise<void> {
  const source = sourceOf(loaded);
  const [development, production] = await Promise.all([
    sessions.source.client.getCurrentEnvironment(),
    sessions.session.client.getCurrentEnvironment(),
  ]);
  const refuse = (message: string) => new WfsyncError(message, { exitCode: ExitCode.Auth });
  if (development?._parentId !== undefined) {
    throw refuse(
      `the key of target "${source.name}" (${source.apiKeyEnv}) belongs to the ${quote(development.name)} environment, ` +
        `which is derived from another: "${loaded.target.name}" promotes from "${source.name}", which needs a Development key; nothing was sent`,
    );
  }
  if (production !== undefined && production._parentId === undefined) {
    throw refuse(
      `the key of target "${loaded.target.name}" (${loaded.target.apiKeyEnv}) belongs to the ${quote(production.name)} environment, ` +
        'which is not derived from another: a promoted target reads Production with a Production key; nothing was sent',
    );
  }
  if (
    development !== undefined &&
    production?._parentId !== undefined &&
    production._parentId !== development._id
  ) {
    throw refuse(
      `the keys of "${loaded.target.name}" and "${source.name}" belong to unrelated environments (${quote(production.name)} is not derived from ${quote(development.name)}); nothing was sent`,
    );
  }
}

export interface PromotionPlanInput {
  sessions: PromotionSessions;
  /** This target's state (Production's recorded copies). */
  state: StateFile;
  onEvent?: (event: ApplyEvent) => void;
  signal?: AbortSignal;
}

/** Read both environments and build the promotion plan (pure, plan/promotion.ts). */
export async function planPromotion(loaded: LoadedRun, input: PromotionPlanInput): Promise<Plan> {
  const { sessions, state } = input;
  const source = sourceOf(loaded);
  const sourceState = await readState(source.statePath, stateIdentity(source));
  const identifiers = sessions.desired.map((d) => d.identifier);
  const development = await fetchObservations({
    client: sessions.source.client,
    identifiers,
    state: sourceState,
    concurrency: source.concurrency,
    onEvent: input.onEvent,
    signal: input.signal,
  });
  const sourceIds = new Map<string, string>();
  for (const [identifier, observed] of development) {
    const found = [observed.byId, observed.byIdentifier].find((l) => l?.status === 'found');
    if (found?.status === 'found') sourceIds.set(identifier, found.workflow._id);
  }
  const production = await readProductionCopies(loaded, sessions.session.client, sourceIds, input);
  const groups = await sessions.session.client.listNotificationGroups();
  const productionGroups = new Map(
    (groups ?? []).flatMap((g) => (g._parentId === undefined ? [] : [[g._parentId, g._id] as const])),
  );
  const wanted = new Set(identifiers);
  const removed = await readRemovedCopies({
    production: sessions.session.client,
    source: sessions.source.client,
    state,
    identifiers: Object.keys(state.workflows).filter((identifier) => !wanted.has(identifier)),
    concurrency: loaded.target.concurrency,
    ...(input.onEvent === undefined ? {} : { onEvent: input.onEvent }),
    ...(input.signal === undefined ? {} : { signal: input.signal }),
  });
  input.onEvent?.({ type: 'phase', phase: 'plan' });
  return buildPromotionPlan({
    target: { name: loaded.target.name, baseUrl: sessions.session.baseUrl },
    source: source.name,
    desired: sessions.desired,
    state,
    sourceState,
    development,
    production,
    productionGroups,
    removed,
    allow: loaded.target.allow,
    run: loaded.run,
  });
}

/**
 * Production's copy of each Development workflow: found in the list (every page) by its `_parentId`, then read by
 * its `_id` with a GET, as any workflow is compared. A workflow Production lacks is `not-found`.
 */
export async function readProductionCopies(
  loaded: LoadedRun,
  client: ServiceClient,
  sourceIds: ReadonlyMap<string, string>,
  input: Pick<PromotionPlanInput, 'onEvent' | 'signal'>,
): Promise<Map<string, RemoteLookup>> {
  const byParent = new Map<string, string>();
  for (const listed of await client.listWorkflows()) {
    if (listed._parentId !== undefined) byParent.set(listed._parentId, listed._id);
  }
  const copies = new Map<string, RemoteLookup>();
  const recorded: StateFile['workflows'] = {};
  for (const [identifier, sourceId] of sourceIds) {
    const copyId = byParent.get(sourceId);
    if (copyId === undefined) copies.set(identifier, { status: 'not-found', via: 'id' });
    else recorded[identifier] = { id: copyId, hash: '', origin: 'adopted', recordedAt: '' };
  }
  const observed = await fetchObservations({
    client,
    identifiers: Object.keys(recorded),
    state: { version: 1, target: loaded.target.name, baseUrl: '', workflows: recorded, pending: {} },
    concurrency: loaded.target.concurrency,
    onEvent: input.onEvent,
    signal: input.signal,
  });
  for (const [identifier, observation] of observed) {
    copies.set(identifier, observation.byId ?? { status: 'error', message: 'Production was not asked' });
  }
  return copies;
}

/** `plan` (and `sync --dry-run`) of a promoted target: read-only, both environments, the keys checked first. */
export async function planPromotedTarget(
  loaded: LoadedRun,
  input: Parameters<typeof openTargetSession>[1] & { onEvent?: (event: ApplyEvent) => void },
): Promise<{ plan: Plan; desired: DesiredWorkflow[] }> {
  const { onEvent, ...options } = input;
  const sessions = await openPromotion(loaded, { ...options, write: false });
  try {
    await checkPromotionKeys(loaded, sessions);
    const state = await readState(loaded.target.statePath, stateIdentity(loaded.target));
    const plan = await planPromotion(loaded, {
      sessions,
      state,
      ...(onEvent === undefined ? {} : { onEvent }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
    return { plan, desired: sessions.desired };
  } finally {
    await sessions.close();
  }
}
