import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { type AddressInfo, createServer, type Server, type Socket } from 'node:net';
import { Agent } from 'undici';
import { afterEach } from 'vitest';
import { closedPort as closedLoopbackPort } from '../../helpers/closed-port.js';

// Real servers on 127.0.0.1:0 for what neither the emulator nor MockAgent can do: bodies cut off mid-stream,
// servers that never answer, ports nobody listens on, TLS handshakes that fail. Closed after each test.

const servers: Array<{ close(callback: () => void): void }> = [];
const sockets = new Set<Socket>();
const agents: Agent[] = [];

afterEach(async () => {
  for (const socket of sockets) socket.destroy();
  sockets.clear();
  await Promise.all(servers.splice(0).map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
  await Promise.all(agents.splice(0).map((a) => a.close()));
});

/**
 * A TCP server that hands each request's socket to `onRequest` once its first bytes arrive (requests are
 * numbered from 1 across connections), to answer with raw HTTP or not at all. Returns its base URL.
 */
export async function rawServer(onRequest: (socket: Socket, request: number) => void): Promise<string> {
  let requests = 0;
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.once('data', () => onRequest(socket, ++requests));
  });
  return `http://${await listen(server)}`;
}

/** A request a `httpService` received. */
export interface SeenRequest {
  method: string;
  path: string;
}

/**
 * A service of our own on 127.0.0.1:0 answering each request with `answer` (given the request number, from 1), and
 * the requests it saw, in order. Closed after each test, keep-alive connections included.
 */
export async function httpService(
  answer: (req: IncomingMessage, res: ServerResponse, request: number) => void,
): Promise<{ url: string; seen: SeenRequest[] }> {
  const seen: SeenRequest[] = [];
  const server = createHttpServer((req, res) => {
    req.resume();
    seen.push({ method: req.method ?? '', path: req.url ?? '' });
    answer(req, res, seen.length);
  });
  servers.push({
    close: (callback) => {
      server.closeAllConnections();
      server.close(() => callback());
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

/** A JSON answer; a string body is sent as it is (for bodies that are not JSON). */
export function answerJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
}

/** A raw HTTP/1.1 response head (and a body that may be shorter than its Content-Length). */
export function rawResponse(status: string, headers: Record<string, string>, body = ''): string {
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}`);
  return `HTTP/1.1 ${status}\r\n${lines.join('\r\n')}\r\n\r\n${body}`;
}

/** A base URL on a port nobody listens on. */
export async function closedPort(): Promise<string> {
  return `http://127.0.0.1:${await closedLoopbackPort()}`;
}

/** An https server on 127.0.0.1 with the given certificate; it answers 200 to whoever gets through. */
export async function tlsServer(cert: string, key: string): Promise<string> {
  const server = createHttpsServer({ cert, key }, (_request, response) => response.end('{}'));
  server.on('connection', (socket: Socket) => sockets.add(socket));
  // A client that rejects the certificate leaves a handshake error on the server side: expected, not a failure.
  server.on('tlsClientError', () => {});
  return `https://${await listen(server)}`;
}

/**
 * A dispatcher whose connections fail the way node:net/node:tls report `code`, for failures this machine cannot
 * cause on demand (DNS, routing). Everything above the socket (undici, the client) runs for real.
 */
export function failingConnections(code: string, message: string): Agent {
  const agent = new Agent({
    connect: (_options, callback) => {
      const error = Object.assign(new Error(message), { code });
      process.nextTick(() => callback(error, null));
    },
  });
  agents.push(agent);
  return agent;
}

/** A dispatcher that trusts the test CA (so a certificate's own problems show), closed after the test. */
export function trustingAgent(ca: string, connectMs = 10_000): Agent {
  const agent = new Agent({ connect: { ca, timeout: connectMs } });
  agents.push(agent);
  return agent;
}

/** A dispatcher whose connections never complete: undici's connect timeout ends them. */
export function hangingConnections(connectMs: number): Agent {
  const agent = new Agent({ connect: { timeout: connectMs, lookup: () => {} } });
  agents.push(agent);
  return agent;
}

async function listen(server: Server): Promise<string> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return `127.0.0.1:${address.port}`;
}
