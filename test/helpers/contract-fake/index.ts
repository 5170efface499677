import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { recordWrite } from './changes.js';
import { authenticate, buildEnvironments } from './environments.js';
import { errorBody, readJsonBody, ServiceError, sendJson } from './http.js';
import { asBody, matchRoute } from './routes.js';
import {
  type Change,
  type Doc,
  type EnvironmentName,
  environmentOf,
  type FakeState,
  liveWorkflows,
  monotonicClock,
  objectIdSource,
} from './state.js';
import { updateWorkflow } from './update.js';
import { findWorkflow, workflowResponse } from './workflow-document.js';

/**
 * An independent fake of the notification service, written from the service contract (`../shared/service-contract.md`
 * beside the checkout, which the issues cite) and its seed spec only; nothing of src/emulator/ or of wfsync's own
 * derive/ is used. It plays the older server generation (`slugify {lower, strict}` identifiers, a silent suffix on a
 * taken one), without rate limits or idempotency keys (the contract's accounts without those features). Where the
 * contract leaves an answer open, the fake picks one; test/unit/contract-fake/differential.test.ts lists where the
 * emulator picks another. A real HTTP server on 127.0.0.1, in memory, with a Development and a
 * Production environment (one key each; Production's `_parentId` is Development's `_id`), the workflow routes
 * (create, get, list, update, status, delete and their `/v1/notification-templates` twins), the read-only routes
 * (`/v1/environments/me`, `/v1/notification-groups`) and promotion through the changes API.
 *
 *     const fake = await startContractFake();
 *     // point a client at fake.url with `ApiKey ${fake.devKey}` (or fake.prodKey) …
 *     fake.requests; fake.workflows('Production'); fake.pendingChanges();
 *     await fake.close();
 *
 * Test control (not HTTP): `dashboardEdit(id, body)` makes the edit a person makes in the dashboard (a PUT body,
 * with the PUT's semantics, folded into the workflow's pending change); `dropResponse` answers nothing to the Nth
 * matching request after processing it (a lost response).
 */

export type { Change as FakeChange, Doc as FakeDocument, EnvironmentName } from './state.js';

export interface ContractFakeOptions {
  /** Default: generated. */
  devKey?: string;
  prodKey?: string;
  /** Development notification groups besides `General`, by name. */
  groups?: string[];
  /**
   * Process the `nth` (1-based; or each of several) request matching `method` and `path` (the pathname, exactly or
   * by pattern), counted in the order they are answered, then destroy its socket instead of answering: a lost
   * response whose write happened.
   */
  dropResponse?: { method: string; path: string | RegExp; nth: number | number[] };
}

export interface FakeRequest {
  method: string;
  /** Path and query as sent. */
  path: string;
  /** The environment the key opened; absent when the key was refused or none was needed. */
  environment?: EnvironmentName;
  /** 0 when the response was dropped. */
  status: number;
}

export interface ContractFake {
  /** `http://127.0.0.1:PORT` */
  url: string;
  devKey: string;
  prodKey: string;
  /** Development's `General` group: a `notificationGroupId` for creates. */
  groupId: string;
  /** Every request answered so far, oldest first (never the Authorization header). */
  requests: FakeRequest[];
  close(): Promise<void>;
  /** The live workflows of an environment (default Development), oldest first, as GET answers them. */
  workflows(environment?: EnvironmentName): Doc[];
  /** Development's pending top-level changes, oldest first. */
  pendingChanges(): Change[];
  /**
   * A dashboard edit of a Development workflow (by `_id` or trigger identifier): `body` as a PUT body, with its
   * semantics and refusals (thrown); returns the workflow as GET answers it.
   */
  dashboardEdit(idOrIdentifier: string, body: Doc): Doc;
}

export async function startContractFake(options: ContractFakeOptions = {}): Promise<ContractFake> {
  const newId = objectIdSource();
  const now = monotonicClock();
  const organizationId = newId();
  const creatorId = newId();
  const environments = buildEnvironments({ organizationId, creatorId, newId, now, ...options });
  const state: FakeState = { organizationId, creatorId, ...environments, changes: [], newId, now };
  const requests: FakeRequest[] = [];
  let matching = 0;

  const shouldDrop = (method: string, pathname: string): boolean => {
    const drop = options.dropResponse;
    if (drop === undefined || drop.method !== method) return false;
    const hit = typeof drop.path === 'string' ? drop.path === pathname : drop.path.test(pathname);
    if (!hit) return false;
    matching += 1;
    return Array.isArray(drop.nth) ? drop.nth.includes(matching) : matching === drop.nth;
  };

  async function answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const method = request.method ?? 'GET';
    const path = request.url ?? '/';
    const url = new URL(path, 'http://fake');
    const record: FakeRequest = { method, path, status: 0 };
    requests.push(record);
    let status: number;
    let body: unknown;
    try {
      const found = matchRoute(method, url.pathname);
      if (found === undefined) throw new ServiceError(404, `Cannot ${method} ${url.pathname}`);
      const environment = authenticate(state, request.headers.authorization);
      record.environment = environment.name;
      // A GET or DELETE body is read and ignored, as the service ignores it.
      const sent = await readJsonBody(request);
      const parsed = method === 'GET' || method === 'DELETE' ? {} : sent;
      ({ status, body } = found.route.handle({
        state,
        environment,
        params: found.params,
        query: url.searchParams,
        body: asBody(parsed),
      }));
    } catch (error) {
      if (!(error instanceof ServiceError)) throw error;
      status = error.statusCode;
      body = errorBody(error, url.pathname, now());
    }
    if (shouldDrop(method, url.pathname)) {
      request.socket.destroy();
      return;
    }
    record.status = status;
    sendJson(response, status, body);
  }

  const server = createServer((request, response) => {
    answer(request, response).catch((error: unknown) => {
      sendJson(response, 500, { statusCode: 500, message: String(error), errorId: newId() });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    devKey: environments.development.key,
    prodKey: environments.production.key,
    groupId: environments.development.groups[0]!._id,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
    workflows: (name = 'Development') => {
      const environment = environmentOf(state, name);
      return liveWorkflows(environment).map((w) => workflowResponse(environment, w));
    },
    pendingChanges: () =>
      structuredClone(
        state.changes.filter((c) => c._environmentId === state.development._id && !c._parentId && !c.enabled),
      ),
    dashboardEdit(idOrIdentifier, body) {
      const id =
        (findWorkflow(state.development, idOrIdentifier)?._id as string | undefined) ?? idOrIdentifier;
      const written = updateWorkflow(state, state.development, id, body);
      recordWrite(state, state.development, written, 'update');
      return workflowResponse(state.development, written.workflow);
    },
  };
}
