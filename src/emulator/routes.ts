import { badRequest, notFound } from './http-error.js';

/**
 * The routes the emulator answers, Express routing as the service has it: case-insensitive, an optional trailing
 * slash, the query apart. The workflow routes have deprecated twins under `/v1/notification-templates` (the Node
 * SDK's). Anything else, including another method on a known path, is Nest's 404 `Cannot <METHOD> <url>`.
 */
export type Route =
  | {
      kind: 'create' | 'list' | 'environment' | 'groups' | 'changes' | 'changes-count' | 'changes-bulk-apply';
    }
  | { kind: 'get' | 'update' | 'delete' | 'status'; workflowId: string }
  | { kind: 'change-apply'; changeId: string };

/** Only a Development key may take these (401 for a Production one). */
export const DEVELOPMENT_ONLY: ReadonlySet<Route['kind']> = new Set(['create', 'delete', 'status']);

/** Routes that write: the data file is written after each. */
export const WRITES: ReadonlySet<Route['kind']> = new Set([
  'create',
  'update',
  'delete',
  'status',
  'change-apply',
  'changes-bulk-apply',
]);

const WORKFLOWS = '/v1/(?:workflows|notification-templates)';
const TABLE: Array<[method: string, pattern: RegExp, build: (param: string) => Route]> = [
  ['POST', new RegExp(`^${WORKFLOWS}/?$`, 'i'), () => ({ kind: 'create' })],
  ['GET', new RegExp(`^${WORKFLOWS}/?$`, 'i'), () => ({ kind: 'list' })],
  ['PUT', new RegExp(`^${WORKFLOWS}/([^/]+)/status/?$`, 'i'), (id) => ({ kind: 'status', workflowId: id })],
  ['GET', new RegExp(`^${WORKFLOWS}/([^/]+)/?$`, 'i'), (id) => ({ kind: 'get', workflowId: id })],
  ['PUT', new RegExp(`^${WORKFLOWS}/([^/]+)/?$`, 'i'), (id) => ({ kind: 'update', workflowId: id })],
  ['DELETE', new RegExp(`^${WORKFLOWS}/([^/]+)/?$`, 'i'), (id) => ({ kind: 'delete', workflowId: id })],
  ['GET', /^\/v1\/environments\/me\/?$/i, () => ({ kind: 'environment' })],
  ['GET', /^\/v1\/notification-groups\/?$/i, () => ({ kind: 'groups' })],
  ['GET', /^\/v1\/changes\/?$/i, () => ({ kind: 'changes' })],
  ['GET', /^\/v1\/changes\/count\/?$/i, () => ({ kind: 'changes-count' })],
  ['POST', /^\/v1\/changes\/bulk\/apply\/?$/i, () => ({ kind: 'changes-bulk-apply' })],
  ['POST', /^\/v1\/changes\/([^/]+)\/apply\/?$/i, (id) => ({ kind: 'change-apply', changeId: id })],
];

export function matchRoute(method: string, url: string): { route: Route; query: URLSearchParams } {
  const [path = '', search = ''] = url.split('?', 2);
  for (const [routeMethod, pattern, build] of TABLE) {
    const match = method === routeMethod ? pattern.exec(path) : null;
    if (match !== null) {
      return {
        route: build(match[1] === undefined ? '' : decodeParam(match[1])),
        query: new URLSearchParams(search),
      };
    }
  }
  throw notFound(`Cannot ${method} ${url}`);
}

function decodeParam(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    // Express answers an undecodable parameter with 400.
    throw badRequest(`Failed to decode param '${raw}'`);
  }
}
