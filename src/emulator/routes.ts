import { badRequest, routeNotFound } from './http-error.js';

/**
 * The two operations and their deprecated twins under `/v1/notification-templates`. Express routing as the service
 * has it: case-insensitive, an optional trailing slash, the query ignored. Anything else, including another method
 * on a known path, is Nest's 404 `Cannot <METHOD> <url>`.
 */
export type Route = { kind: 'create' } | { kind: 'get'; workflowId: string };

const COLLECTION = /^\/v1\/(?:workflows|notification-templates)\/?$/i;
const ITEM = /^\/v1\/(?:workflows|notification-templates)\/([^/]+)\/?$/i;

export function matchRoute(method: string, url: string): Route {
  const path = url.split('?')[0]!;
  if (method === 'POST' && COLLECTION.test(path)) return { kind: 'create' };
  const item = method === 'GET' ? ITEM.exec(path) : null;
  if (item !== null) return { kind: 'get', workflowId: decodeParam(item[1]!) };
  throw routeNotFound(method, url);
}

function decodeParam(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    // Express answers an undecodable parameter with 400.
    throw badRequest(`Failed to decode param '${raw}'`);
  }
}
