import { countPending, listChanges, paged, readPaging, recordWrite } from './changes.js';
import { environmentBody, requireDevelopment } from './environments.js';
import { badRequest, isRecord, notFound } from './http.js';
import { applyChange } from './promote.js';
import { type Doc, type Environment, type FakeState, liveWorkflows } from './state.js';
import { deleteWorkflow, updateStatus, updateWorkflow } from './update.js';
import { createResponse, createWorkflow, findWorkflow, workflowResponse } from './workflow-document.js';

/**
 * The route table: method + path pattern → handler. Each handler gets the key's environment (already
 * authenticated), the path parameters, the query and the parsed body, and returns the status and body to send.
 * `/v1/notification-templates/...` is the deprecated twin of every `/v1/workflows/...` route.
 */

export interface RouteContext {
  state: FakeState;
  environment: Environment;
  params: string[];
  query: URLSearchParams;
  body: Doc;
}

export interface Answer {
  status: number;
  body: unknown;
}

interface Route {
  method: string;
  pattern: RegExp;
  handle(context: RouteContext): Answer;
}

const ok = (body: unknown): Answer => ({ status: 200, body });
const created = (body: unknown): Answer => ({ status: 201, body });

const WORKFLOW_ROUTES: Array<[string, string, Route['handle']]> = [
  [
    'POST',
    '',
    ({ state, environment, body }) => {
      requireDevelopment(environment);
      const workflow = createWorkflow(state, environment, body);
      recordWrite(state, environment, { workflow, templates: stepTemplates(workflow) }, 'create');
      return created({ data: createResponse(environment, workflow) });
    },
  ],
  ['GET', '', ({ environment, query }) => ok(paged(listed(environment), readPaging(query)))],
  [
    'GET',
    '/([^/]+)',
    ({ environment, params: [id] }) => {
      const workflow = findWorkflow(environment, id!);
      if (workflow === undefined) throw notFound(`Template with id ${id} not found`);
      return ok({ data: workflowResponse(environment, workflow) });
    },
  ],
  [
    'PUT',
    '/([^/]+)',
    ({ state, environment, params: [id], body }) => {
      const written = updateWorkflow(state, environment, id!, body);
      recordWrite(state, environment, written, 'update');
      return ok({ data: workflowResponse(environment, written.workflow) });
    },
  ],
  [
    'PUT',
    '/([^/]+)/status',
    ({ state, environment, params: [id], body }) => {
      requireDevelopment(environment);
      const written = updateStatus(state, environment, id!, body);
      recordWrite(state, environment, written, 'update');
      return ok({ data: workflowResponse(environment, written.workflow) });
    },
  ],
  [
    'DELETE',
    '/([^/]+)',
    ({ state, environment, params: [id] }) => {
      requireDevelopment(environment);
      recordWrite(state, environment, deleteWorkflow(state, environment, id!), 'delete');
      return ok({ data: true });
    },
  ],
];

function stepTemplates(workflow: Doc): string[] {
  return ((workflow.steps as Doc[]) ?? []).map((s) => s._templateId as string);
}

/** The list route's items: live workflows, newest first. */
function listed(environment: Environment): Doc[] {
  return liveWorkflows(environment)
    .reverse()
    .map((w) => workflowResponse(environment, w));
}

/** The changes API answers a Production key with 404 on apply. */
function requireApplyable(environment: Environment): void {
  if (environment.name !== 'Development') throw notFound('Not Found');
}

const CHANGE_ROUTES: Route[] = [
  {
    method: 'GET',
    pattern: /^\/v1\/changes$/,
    handle: (c) => ok(listChanges(c.state, c.environment, c.query)),
  },
  {
    method: 'GET',
    pattern: /^\/v1\/changes\/count$/,
    handle: (c) => ok({ data: countPending(c.state, c.environment) }),
  },
  {
    method: 'POST',
    pattern: /^\/v1\/changes\/bulk\/apply$/,
    handle: ({ state, environment, body }) => {
      requireApplyable(environment);
      if (!Array.isArray(body.changeIds)) throw badRequest(['changeIds must be an array']);
      const wanted = new Set(body.changeIds);
      const changes = state.changes
        .filter((c) => c._environmentId === environment._id && c._parentId === undefined && wanted.has(c._id))
        .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
      return created({ data: changes.map((change) => applyChange(state, change)) });
    },
  },
  {
    method: 'POST',
    pattern: /^\/v1\/changes\/([^/]+)\/apply$/,
    handle: ({ state, environment, params: [id] }) => {
      requireApplyable(environment);
      const change = state.changes.find(
        (c) => c._id === id && c._environmentId === environment._id && c._parentId === undefined,
      );
      if (change === undefined) throw notFound(`Change with id ${id} not found`);
      return created({ data: applyChange(state, change) });
    },
  },
];

export const ROUTES: Route[] = [
  {
    method: 'GET',
    pattern: /^\/v1\/environments\/me$/,
    handle: ({ state, environment }) => ok({ data: environmentBody(environment, state.creatorId) }),
  },
  {
    method: 'GET',
    pattern: /^\/v1\/notification-groups$/,
    handle: ({ environment }) => ok({ data: structuredClone(environment.groups) }),
  },
  ...['workflows', 'notification-templates'].flatMap((base) =>
    WORKFLOW_ROUTES.map(([method, rest, handle]) => ({
      method,
      pattern: new RegExp(`^/v1/${base}${rest}$`),
      handle,
    })),
  ),
  ...CHANGE_ROUTES,
];

/** The route for a request, with its decoded path parameters; `undefined` for the service's "Cannot GET". */
export function matchRoute(method: string, pathname: string): { route: Route; params: string[] } | undefined {
  for (const route of ROUTES) {
    if (route.method !== method) continue;
    const match = route.pattern.exec(pathname);
    if (match !== null) return { route, params: match.slice(1).map((p) => decodeURIComponent(p)) };
  }
  return undefined;
}

export const asBody = (value: unknown): Doc => (isRecord(value) ? value : {});
