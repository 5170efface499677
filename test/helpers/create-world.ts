import type { ApplyEvent } from '../../src/apply/events.js';
import type { ApplyStore } from '../../src/apply/store.js';
import type { CreateOptions, CreateResult, ServiceClient, WorkflowResponse } from '../../src/remote/index.js';
import { RemoteError, type RemoteErrorKind } from '../../src/remote/index.js';
import type { PendingCreate, PendingWrite, StateEntry, StateFile } from '../../src/state/types.js';

/** One thing apply did, in the order it did it: a store write, an event, or a client call. */
export type Step =
  | { do: 'recordPending'; entry: PendingWrite }
  | { do: 'recordWorkflow'; identifier: string; entry: StateEntry }
  | { do: 'clearPending'; identifier: string }
  | { do: 'forget'; identifier: string }
  | { do: 'emit'; event: ApplyEvent }
  | { do: 'POST'; body: unknown; options: CreateOptions }
  | { do: 'GET'; key: string }
  | { do: 'PUT'; id: string; body: Record<string, unknown> }
  | { do: 'status'; id: string; active: boolean }
  | { do: 'DELETE'; id: string };

export type StoreCall = 'recordPending' | 'recordWorkflow' | 'clearPending' | 'forget';

export interface WorldScript {
  /** What the POST answers (or throws). Default: fails the test. */
  post?: (body: unknown, options: CreateOptions) => Promise<CreateResult>;
  /** What a GET by id or identifier answers (or throws). Default: 404. */
  get?: (key: string) => Promise<WorkflowResponse | undefined>;
  /** What a PUT of the whole body answers (or throws). Default: fails the test. */
  put?: (id: string, body: Record<string, unknown>) => Promise<WorkflowResponse>;
  /** What the status route answers (or throws). Default: fails the test. */
  status?: (id: string, active: boolean) => Promise<WorkflowResponse>;
  /** What a DELETE answers (or throws). Default: fails the test. */
  del?: (id: string) => Promise<void>;
  /** Store calls that throw (after being logged). */
  failing?: Partial<Record<StoreCall, Error>>;
  pending?: Record<string, PendingWrite>;
  workflows?: Record<string, StateEntry>;
}

/** The promotion calls (changes API, workflow list) a fake client of a create-only test never expects. */
export function unexpectedPromotionCalls(): Pick<
  ServiceClient,
  'listWorkflows' | 'listPendingChanges' | 'countPendingChanges' | 'applyChange' | 'applyChanges'
> {
  const refuse = (what: string) => async () => {
    throw new Error(`no ${what} expected`);
  };
  return {
    listWorkflows: refuse('workflow list'),
    listPendingChanges: refuse('changes list'),
    countPendingChanges: refuse('changes count'),
    applyChange: refuse('change applied'),
    applyChanges: refuse('changes applied'),
  };
}

/**
 * A fake client and store that log every call in one list, so a test asserts what was written, sent and emitted,
 * and in which order; any store write can fail.
 */
export function world(script: WorldScript = {}) {
  const log: Step[] = [];
  const fail = (call: StoreCall) => {
    const error = script.failing?.[call];
    if (error !== undefined) throw error;
  };
  const client: ServiceClient = {
    createWorkflow: async (body, options) => {
      log.push({ do: 'POST', body, options });
      if (script.post === undefined) throw new Error('no POST expected');
      return script.post(body, options);
    },
    getWorkflow: async (key) => {
      log.push({ do: 'GET', key });
      return script.get === undefined ? undefined : script.get(key);
    },
    updateWorkflow: async (id, body) => {
      log.push({ do: 'PUT', id, body });
      if (script.put === undefined) throw new Error('no PUT expected');
      return script.put(id, body);
    },
    setWorkflowStatus: async (id, active) => {
      log.push({ do: 'status', id, active });
      if (script.status === undefined) throw new Error('no status PUT expected');
      return script.status(id, active);
    },
    deleteWorkflow: async (id) => {
      log.push({ do: 'DELETE', id });
      if (script.del === undefined) throw new Error('no DELETE expected');
      return script.del(id);
    },
    // Apply never asks these (the preflight runs before it): a call is a test failure.
    getCurrentEnvironment: async () => {
      throw new Error('no environment lookup expected');
    },
    listNotificationGroups: async () => {
      throw new Error('no notification-group lookup expected');
    },
    ...unexpectedPromotionCalls(),
    close: async () => {},
  };
  const snapshot: StateFile = {
    version: 1,
    target: 'local',
    baseUrl: 'http://127.0.0.1:1',
    workflows: script.workflows ?? {},
    pending: script.pending ?? {},
  };
  const store: ApplyStore = {
    get snapshot() {
      return structuredClone(snapshot);
    },
    recordPending: async (entry) => {
      log.push({ do: 'recordPending', entry });
      fail('recordPending');
    },
    recordWorkflow: async (identifier, entry) => {
      log.push({ do: 'recordWorkflow', identifier, entry });
      fail('recordWorkflow');
    },
    clearPending: async (identifier) => {
      log.push({ do: 'clearPending', identifier });
      fail('clearPending');
    },
    forget: async (identifier) => {
      log.push({ do: 'forget', identifier });
      fail('forget');
    },
  };
  const emit = (event: ApplyEvent) => {
    log.push({ do: 'emit', event });
  };
  return { log, client, store, emit };
}

/** A RemoteError as the client throws it. */
export function remoteError(
  kind: RemoteErrorKind,
  detail = 'something went wrong',
  extra: { method?: 'GET' | 'POST' | 'DELETE'; path?: string; serverMessages?: string[] } = {},
): RemoteError {
  return new RemoteError({
    kind,
    method: extra.method ?? 'GET',
    path: extra.path ?? '/v1/workflows/x',
    detail,
    secrets: [],
    ...(extra.serverMessages === undefined ? {} : { serverMessages: extra.serverMessages }),
  });
}

/** What `wfsync` journals for a create (the fields that are not under test in a case). */
export function pendingEntry(overrides: Partial<PendingCreate> & { identifier: string }): PendingCreate {
  return {
    lookupIdentifiers: [overrides.identifier],
    name: `name of ${overrides.identifier}`,
    hash: `sha256:${'0'.repeat(64)}`,
    idempotencyKey: `wfsync:local:${overrides.identifier}:0000000000000000`,
    startedAt: '2024-09-30T08:00:00.000Z',
    ...overrides,
  };
}
