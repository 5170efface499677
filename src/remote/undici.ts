/**
 * The parts of undici wfsync uses: Pool, EnvHttpProxyAgent and the `request()` every dispatcher has. Taken from
 * undici's own files rather than its index, which also loads fetch, WebSocket, EventSource, the cache, cookie and
 * mock APIs, and with them node:crypto, node:http2, node:worker_threads and Node's own copy of undici, on every run
 * that talks to a service (CONTRIBUTING.md, Benchmarks). Mixing the request API into Dispatcher is what undici's index.js does.
 */
import type * as Undici from 'undici';
import api from 'undici/lib/api/index.js';
import DispatcherClass from 'undici/lib/dispatcher/dispatcher.js';
import EnvHttpProxyAgentClass from 'undici/lib/dispatcher/env-http-proxy-agent.js';
import PoolClass from 'undici/lib/dispatcher/pool.js';

Object.assign(DispatcherClass.prototype, api);

export const Pool: typeof Undici.Pool = PoolClass;
export const EnvHttpProxyAgent: typeof Undici.EnvHttpProxyAgent = EnvHttpProxyAgentClass;
