import { randomBytes } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { isIP } from 'node:net';
import { UsageError, WfsyncError } from '../errors.js';
import type { EnvironmentIdentity } from './build-workflow.js';
import { ChangeLog, publicChange } from './changes.js';
import { buildEnvironments } from './environments.js';
import { FaultInjector } from './faults.js';
import { recordWorkflowWrite, type ServiceState, touched } from './handlers.js';
import { sendAnswer } from './http-io.js';
import { IdempotencyRegistry } from './idempotency.js';
import { dataFileWriter, objectIdsIn, readEmulatorData } from './persistence.js';
import { answerRequest, type PipelineDeps } from './pipeline.js';
import { createStreams, mulberry32, objectIdFactory, type Random, randomSeed } from './random.js';
import { RateLimiter } from './rate-limit.js';
import { WorkflowStore } from './store.js';
import type { EmulatorOptions, RequestRecord, RunningEmulator } from './types.js';

/** Start the emulator; resolves once it listens. See EmulatorOptions for every knob. */
export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const host = options.host ?? '127.0.0.1';
  assertLoopback(host);
  const apiKey = options.apiKey ?? `wfs_local_${randomBytes(16).toString('hex')}`;
  if (apiKey.trim() === '') throw new UsageError('the emulator API key must not be empty');
  const seed = options.seed ?? randomSeed();
  const streams = createStreams(seed);
  const clock = options.clock ?? Date.now;
  // Seeded: ids must not depend on when the test ran, so their time part is fixed (late 2023).
  const fixedSeconds = 1_700_000_000 + (seed % 10_000_000);
  const data = options.dataFile === undefined ? undefined : await readEmulatorData(options.dataFile);
  const idTime = options.seed === undefined ? () => clock() / 1000 : () => fixedSeconds;
  const newId = objectIdFactory(streams.ids, idTime, objectIdsIn(data));
  const identity: EnvironmentIdentity = data?.identity ?? {
    environmentId: newId(),
    organizationId: newId(),
    creatorId: newId(),
    notificationGroupId: newId(),
    layoutId: newId(),
  };
  // Groups draw their ids from a stream of their own, so configuring one never shifts the ids of workflows.
  const groupId = objectIdFactory(mulberry32(seed ^ 0x960c), idTime, objectIdsIn(data));
  const productionEnvironmentId = data?.production?.environmentId ?? newId();
  const environments = buildEnvironments({
    identity,
    productionEnvironmentId,
    developmentKeys: [apiKey, ...(options.developmentKeys ?? [])],
    productionKeys: options.productionKeys ?? [],
    groups: (options.notificationGroups ?? []).map((g) => ({ id: g.id ?? groupId(), name: g.name })),
    productionGroupId: groupId(),
    now: clock(),
  });
  const initialProductionGroups = structuredClone(environments.production.groups);
  if (data?.production !== undefined) environments.production.groups = data.production.groups;
  const store = new WorkflowStore(data?.workflows);
  const changes = new ChangeLog(data?.changes);
  const service: ServiceState = {
    identity,
    environments,
    store,
    changes,
    generation: options.slugGeneration ?? 'v1',
    newId,
    suffixes: streams.suffixes,
    clock,
  };
  const idempotency =
    options.idempotency === false ? undefined : new IdempotencyRegistry(data?.idempotency ?? []);
  const rateLimiter = options.rateLimit ? new RateLimiter(options.rateLimit) : undefined;
  const freshFaultStream = (): Random => createStreams(seed).faults;
  const faults = new FaultInjector(freshFaultStream(), options.faults);
  const writer = options.dataFile === undefined ? undefined : dataFileWriter(options.dataFile);
  const persist = async (): Promise<void> => {
    await writer?.write({
      version: 1,
      identity,
      workflows: store.all(),
      idempotency: idempotency?.stored() ?? [],
      changes: changes.all(),
      production: { environmentId: productionEnvironmentId, groups: environments.production.groups },
    });
  };
  const closing = new AbortController();
  // Every request in flight listens on this signal: a few hundred at once is load, not a leak (no warning).
  setMaxListeners(0, closing.signal);
  const deps: PipelineDeps = {
    service,
    environments,
    rateLimiter,
    idempotency,
    persist,
    closing: closing.signal,
  };

  const records: RequestRecord[] = [];
  const inFlight = new Set<Promise<void>>();
  const server = createServer((req, res) => {
    const handling = handle(req, res).catch(() => {
      res.socket?.destroy();
    });
    inFlight.add(handling);
    handling.finally(() => inFlight.delete(handling));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = req.method ?? 'GET';
    const key = req.headers['idempotency-key'];
    const record: RequestRecord = {
      method,
      path: req.url ?? '/',
      status: 0,
      ...(method === 'POST' && typeof key === 'string' && key !== '' ? { idempotencyKey: key } : {}),
      time: new Date(clock()).toISOString(),
    };
    const plan = faults.plan(method);
    if (plan.early === 'reset-before') {
      req.socket.destroy();
      remember({ ...record, fault: 'reset-before' });
      return;
    }
    const answer = await answerRequest(req, plan, deps);
    // Late faults break the service's own answers only, not an injected 500/502/429.
    const late = plan.early === undefined ? plan.late : undefined;
    const fault = plan.early ?? late;
    await sendAnswer(res, answer, late, { ms: plan.slowBodyMs, signal: closing.signal });
    remember({ ...record, status: answer.status, ...(fault === undefined ? {} : { fault }) });
  }

  function remember(record: RequestRecord): void {
    records.push(record);
    options.onRequest?.({ ...record });
  }

  const port = await listen(server, host, options.port ?? 0);
  const urlHost = isIP(host) === 6 ? `[${host}]` : host;
  return {
    url: `http://${urlHost}:${port}`,
    apiKey,
    notificationGroupId: identity.notificationGroupId,
    notificationGroups: environments.development.groups.map((g) => ({ id: g._id, name: g.name })),
    environmentId: identity.environmentId,
    async close() {
      closing.abort();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      // Let requests cut short finish their bookkeeping (and data-file writes) before resolving.
      await Promise.allSettled([...inFlight]);
      await writer?.flush();
    },
    workflows: () => store.list(identity.environmentId),
    productionWorkflows: () => store.list(productionEnvironmentId),
    pendingChanges: () => changes.topLevel(identity.environmentId, false).map(publicChange),
    requests: () => records.map((r) => ({ ...r })),
    setFaults: (next) => faults.set(next),
    editWorkflow(idOrIdentifier, mutate) {
      const edited = store.update(identity.environmentId, idOrIdentifier, (workflow) => {
        const { _id } = workflow;
        mutate(workflow);
        // Identity is the service's, not the edit's: only content changes.
        return touched({ ...workflow, _id, _environmentId: identity.environmentId }, clock());
      });
      if (edited === undefined)
        throw new Error(`editWorkflow: no workflow ${JSON.stringify(idOrIdentifier)}`);
      // A dashboard edit is a write like any other: it leaves (or folds into) the workflow's pending change.
      recordWorkflowWrite(service, identity.environmentId, edited, []);
      persist().catch(() => undefined);
      return edited;
    },
    reset() {
      store.clear();
      changes.clear();
      environments.production.groups = structuredClone(initialProductionGroups);
      idempotency?.clear();
      rateLimiter?.clear();
      records.length = 0;
      faults.reset(freshFaultStream());
      persist().catch(() => undefined);
    },
  };
}

/** The emulator accepts any key it was given: it must never be reachable from another machine. */
function assertLoopback(host: string): void {
  const loopback =
    host === 'localhost' ||
    host === '::1' ||
    /^127(?:\.\d{1,3}){3}$/.test(host) ||
    /^::ffff:127(?:\.\d{1,3}){3}$/.test(host);
  if (!loopback) {
    throw new UsageError(
      `the emulator only listens on a loopback address (127.0.0.1, ::1, localhost), not "${host}"`,
    );
  }
}

function listen(server: Server, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException): void => {
      const reason = error.code === 'EADDRINUSE' ? 'the port is already in use' : error.message;
      reject(new WfsyncError(`the emulator cannot listen on ${host}:${port}: ${reason}`, { cause: error }));
    };
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      const address = server.address();
      resolve(typeof address === 'object' && address !== null ? address.port : port);
    });
  });
}
