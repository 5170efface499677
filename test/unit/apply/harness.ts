import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';
import { applyPlan } from '../../../src/apply/apply-plan.js';
import type { ApplyEvent } from '../../../src/apply/events.js';
import { reconcilePending } from '../../../src/apply/reconcile-pending.js';
import { clientEventsForProgress } from '../../../src/apply/workflow-context.js';
import { parseDefinition } from '../../../src/definitions/parse.js';
import { type EmulatorOptions, type RunningEmulator, startEmulator } from '../../../src/emulator/index.js';
import type { WorkflowDefinition } from '../../../src/generated/workflow.js';
import { canonicalJson } from '../../../src/json.js';
import { buildPlan, type PlanInput } from '../../../src/plan/build-plan.js';
import { buildCreateBody } from '../../../src/plan/create-body.js';
import type { DesiredWorkflow } from '../../../src/plan/types.js';
import {
  type ClientEvent,
  type ClientOptions,
  createClient,
  fetchObservations,
  type ServiceClient,
} from '../../../src/remote/index.js';
import { StateStore, type StateStoreOptions } from '../../../src/state/store.js';
import { VirtualClock } from '../../helpers/remote.js';

const cleanups: Array<() => Promise<void>> = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

export const TARGET = 'local';
export const TRANSACTIONAL = '6650f0c0ffee00000000a001';
const EXAMPLES = path.resolve(import.meta.dirname, '../../../workflows');

export interface Harness {
  emu: RunningEmulator;
  client: ServiceClient;
  store: StateStore;
  statePath: string;
  desired: DesiredWorkflow[];
  /** Every ApplyEvent, including those mapped from the client's events. */
  events: ApplyEvent[];
  clientEvents: ClientEvent[];
}

export interface HarnessOptions {
  emulator?: EmulatorOptions;
  client?: Partial<ClientOptions>;
  /** For failing state writes. */
  store?: StateStoreOptions;
  /** Definitions to sync; default: every example in workflows/. */
  desired?: (groupId: string) => DesiredWorkflow[];
}

/** A real emulator on 127.0.0.1:0, the real client (virtual sleeps), a real StateStore in a temp dir. */
export async function harness(options: HarnessOptions = {}): Promise<Harness> {
  const emu = await startEmulator({ seed: 11, ...options.emulator });
  cleanups.push(() => emu.close());
  const statePath = await tempStatePath();
  const events: ApplyEvent[] = [];
  const clientEvents: ClientEvent[] = [];
  const toProgress = clientEventsForProgress((event) => events.push(event));
  const clock = new VirtualClock();
  const client = createClient({
    baseUrl: emu.url,
    apiKey: emu.apiKey,
    now: clock.now,
    sleep: clock.sleep,
    random: () => 0.5,
    ...options.client,
    onEvent: (event) => {
      clientEvents.push(event);
      toProgress(event);
    },
  });
  cleanups.push(() => client.close());
  const store = await StateStore.open(statePath, { target: TARGET, baseUrl: emu.url }, options.store);
  const desired = (options.desired ?? loadExamples)(emu.notificationGroupId);
  return { emu, client, store, statePath, desired, events, clientEvents };
}

async function tempStatePath(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'wfsync-apply-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return path.join(dir, 'state', `${TARGET}.json`);
}

/** The same service and client with an empty state file elsewhere: a fresh clone of the repository. */
export async function withFreshState(h: Harness): Promise<Harness> {
  const statePath = await tempStatePath();
  const store = await StateStore.open(statePath, { target: TARGET, baseUrl: h.emu.url });
  return { ...h, statePath, store };
}

/** One `wfsync sync` as the CLI runs it (after taking the lock): reconcile, fetch, plan, apply. */
export async function runSync(
  h: Harness,
  options: {
    concurrency?: number;
    signal?: AbortSignal;
    onEvent?: (event: ApplyEvent) => void;
    allow?: PlanInput['allow'];
  } = {},
) {
  const onEvent = (event: ApplyEvent) => {
    h.events.push(event);
    options.onEvent?.(event);
  };
  const concurrency = options.concurrency ?? 4;
  const reconciled = await reconcilePending({ client: h.client, store: h.store, onEvent });
  const plan = await planNow(h, {
    concurrency,
    onEvent,
    ...(options.allow === undefined ? {} : { allow: options.allow }),
  });
  const result = await applyPlan({
    plan,
    desired: h.desired,
    client: h.client,
    store: h.store,
    concurrency,
    onEvent,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
  return { reconciled, plan, result };
}

/** fetch + plan against the store's current state. */
export async function planNow(
  h: Harness,
  options: {
    concurrency?: number;
    onEvent?: (event: ApplyEvent) => void;
    allow?: PlanInput['allow'];
  } = {},
) {
  const state = h.store.snapshot;
  const identifiers = [...h.desired.map((d) => d.identifier), ...Object.keys(state.workflows)];
  const observations = await fetchObservations({
    client: h.client,
    identifiers,
    state,
    concurrency: options.concurrency ?? 4,
    ...(options.onEvent === undefined ? {} : { onEvent: options.onEvent }),
  });
  return buildPlan({
    target: { name: TARGET, baseUrl: h.emu.url },
    desired: h.desired,
    state,
    observations,
    ...(options.allow === undefined ? {} : { allow: options.allow }),
  });
}

export function desiredOf(definition: WorkflowDefinition, file: string, groupId: string): DesiredWorkflow {
  // The emulator does not check that a group exists: every named group of the examples maps to a fixed id.
  const built = buildCreateBody(definition, { defaultId: groupId, named: { transactional: TRANSACTIONAL } });
  if ('problem' in built) throw new Error(built.problem);
  const hash = `sha256:${createHash('sha256').update(canonicalJson(built.body)).digest('hex')}`;
  const identifier = definition.triggers?.[0]?.identifier;
  if (identifier === undefined) throw new Error(`${file} declares no identifier`);
  return { identifier, file, definition, body: built.body, hash };
}

/** The example workflows of the repository, as sync would send them. */
export function loadExamples(groupId: string): DesiredWorkflow[] {
  return exampleFiles.map(({ file, text }) => {
    const parsed = parseDefinition(file, new TextEncoder().encode(text));
    if (parsed.definition === undefined) throw new Error(`${file} does not parse`);
    return desiredOf(parsed.definition.value as WorkflowDefinition, file, groupId);
  });
}

const exampleFiles = await Promise.all(
  (await readdir(EXAMPLES))
    .filter((name) => name.endsWith('.yaml'))
    .sort()
    .map(async (name) => ({
      file: `workflows/${name}`,
      text: await readFile(path.join(EXAMPLES, name), 'utf8'),
    })),
);

/** A minimal definition for cases the examples do not cover. */
export function simpleDesired(
  groupId: string,
  name: string,
  identifier: string,
  extra: object = {},
): DesiredWorkflow {
  const definition = {
    name,
    active: true,
    steps: [{ name: 'inbox', template: { type: 'in_app', content: 'Hello {{firstName}}' } }],
    triggers: [{ type: 'event', identifier }],
    ...extra,
  } as unknown as WorkflowDefinition;
  return desiredOf(definition, `workflows/${identifier}.yaml`, groupId);
}

export async function readStateFile(h: Harness): Promise<{
  workflows: Record<string, { id: string; hash: string; origin: string }>;
  pending: Record<string, unknown>;
}> {
  return JSON.parse(await readFile(h.statePath, 'utf8'));
}

export function posts(emu: RunningEmulator) {
  return emu.requests().filter((r) => r.method === 'POST');
}
