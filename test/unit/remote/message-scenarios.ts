import { type Dispatcher, MockAgent } from 'undici';
import { afterEach } from 'vitest';
import {
  type ClientOptions,
  type CreateOptions,
  createClient,
  RemoteError,
  type ServiceClient,
} from '../../../src/remote/index.js';
import { API_KEY, envelope, JSON_HEADERS, ORIGIN, VirtualClock } from '../../helpers/remote.js';

/** How to make the client fail one way: the calls it makes and what the service (or the network) does. */

export const GET_PATH = '/v1/workflows/order-shipped';

const agents: MockAgent[] = [];
afterEach(async () => {
  await Promise.all(agents.splice(0).map((a) => a.close()));
});

type Reply = [status: number, body?: string | object, headers?: Record<string, string>];

/** A MockAgent whose answers to `method path` are `replies`, in order; the last one repeats. */
export function answering(replies: Reply[], method: 'GET' | 'POST' = 'GET', path = GET_PATH): MockAgent {
  const agent = new MockAgent();
  agent.disableNetConnect();
  agents.push(agent);
  const pool = agent.get(ORIGIN);
  replies.forEach(([status, body = '', headers = JSON_HEADERS], index) => {
    const intercept = pool.intercept({ path, method }).reply(status, body, { headers });
    if (index === replies.length - 1) intercept.persist();
  });
  return agent;
}

/** A client on virtual time with two attempts per call, to the mock origin unless `baseUrl` says otherwise. */
export function client(options: Partial<ClientOptions> & { dispatcher?: Dispatcher } = {}): ServiceClient {
  const clock = new VirtualClock();
  return createClient({
    baseUrl: ORIGIN,
    apiKey: API_KEY,
    apiKeyEnv: 'NOVU_API_KEY',
    now: clock.now,
    sleep: clock.sleep,
    random: () => 0.5,
    retries: { maxAttempts: 2 },
    ...options,
  });
}

export const CREATE: CreateOptions = { idempotencyKey: 'wfsync-msg-1', identifier: 'order-shipped' };
export const BODY = { name: 'Order Shipped', notificationGroupId: '65a1b2c3d4e5f60718293a00', steps: [] };

/** GET through `options`, expecting a RemoteError. */
export function get(options: Partial<ClientOptions> = {}, id = 'order-shipped'): Promise<RemoteError> {
  return failure(client(options).getWorkflow(id));
}

/** POST through `options`, expecting a RemoteError. */
export function post(options: Partial<ClientOptions> = {}): Promise<RemoteError> {
  return failure(client(options).createWorkflow(BODY, CREATE));
}

/** A POST whose create fails as `replies` say, and whose lookups find nothing. */
export function postThenLookUp(replies: Reply[], extra: Partial<ClientOptions> = {}): Promise<RemoteError> {
  const agent = answering(replies, 'POST', '/v1/workflows');
  const notFound = { statusCode: 404, message: 'Workflow cannot be found' };
  agent.get(ORIGIN).intercept({ path: GET_PATH, method: 'GET' }).reply(404, notFound).persist();
  return post({ dispatcher: agent, ...extra });
}

export const HTML_PAGE = '<!DOCTYPE html><html><body><h1>502 Bad Gateway</h1></body></html>';
export const VALID = envelope();

async function failure(promise: Promise<unknown>): Promise<RemoteError> {
  const error = await promise.then(
    () => {
      throw new Error('expected a RemoteError, but the call succeeded');
    },
    (e: unknown) => e,
  );
  if (!(error instanceof RemoteError)) throw error;
  return error;
}
