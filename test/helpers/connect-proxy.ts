import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { connect, createServer as createTcpServer, type Server as NetServer, type Socket } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';

/** One request line and its headers, as the proxy parsed them. */
export interface ProxySighting {
  method: string;
  /** `host:port` for CONNECT, the absolute URL for plain forwarding. */
  target: string;
  headers: IncomingHttpHeaders;
  /** The request line and header lines exactly as they arrived (raw names and values). */
  raw: string;
}

export interface ConnectProxyOptions {
  /** Answer every CONNECT with this status instead of opening the tunnel (407, 403, 502…). */
  refuseWith?: number;
  /** The Proxy-Authorization value required; anything else gets 407. */
  requireAuthorization?: string;
}

export interface ConnectProxy {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  port: number;
  /** Everything the proxy parsed, oldest first: CONNECTs, and any plain request (which it refuses with 502). */
  seen: ProxySighting[];
  /** The bytes that went through its tunnels, client to service. */
  tunnelled(): Buffer;
  close(): Promise<void>;
}

/**
 * A real forward proxy on 127.0.0.1:0, the way corporate egress proxies work: CONNECT opens a TCP tunnel (piped
 * with node:net; `localhost` dialled as 127.0.0.1); a request in plain forwarding form is recorded and refused,
 * so a client that sent one would show it. Records every request line and header it parses.
 */
export async function startConnectProxy(options: ConnectProxyOptions = {}): Promise<ConnectProxy> {
  const seen: ProxySighting[] = [];
  const chunks: Buffer[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((request, response) => {
    seen.push(sighting(request.method ?? '', request.url ?? '', request.headers, request.rawHeaders));
    response.writeHead(502, { connection: 'close' }).end('plain forwarding is not offered here');
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('connect', (request, client: Socket, head: Buffer) => {
    const target = request.url ?? '';
    seen.push(sighting('CONNECT', target, request.headers, request.rawHeaders));
    client.on('error', () => {});
    const status = refusal(options, request.headers['proxy-authorization']);
    if (status !== undefined) {
      const challenge = status === 407 ? 'Proxy-Authenticate: Basic realm="test"\r\n' : '';
      client.end(`HTTP/1.1 ${status} Refused\r\n${challenge}Content-Length: 0\r\n\r\n`);
      return;
    }
    const [host = '', port = ''] = splitHostPort(target);
    const upstream = connect(Number(port), host === 'localhost' ? '127.0.0.1' : host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      client.on('data', (chunk: Buffer) => chunks.push(chunk));
      client.pipe(upstream);
      upstream.pipe(client);
    });
    sockets.add(upstream);
    upstream.on('error', () => client.destroy());
    upstream.on('close', () => sockets.delete(upstream));
  });
  const port = await listen(server);
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    seen,
    tunnelled: () => Buffer.concat(chunks),
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * A TLS front for a plain-http service (the emulator): `https://localhost:<port>` with the given certificate,
 * each connection piped to `127.0.0.1:<targetPort>`.
 */
export async function startTlsFront(
  targetPort: number,
  tls: { cert: string; key: string },
): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createTlsServer(tls, (secure) => {
    const upstream = connect(targetPort, '127.0.0.1');
    for (const s of [secure, upstream]) {
      sockets.add(s);
      s.on('error', () => {});
      s.on('close', () => sockets.delete(s));
    }
    secure.pipe(upstream);
    upstream.pipe(secure);
  });
  server.on('tlsClientError', () => {});
  const port = await listen(server);
  return {
    port,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A loopback port nothing listens on. */
export async function refusedPort(): Promise<number> {
  const server = createTcpServer();
  const port = await listen(server);
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function refusal(options: ConnectProxyOptions, authorization: string | undefined): number | undefined {
  if (options.refuseWith !== undefined) return options.refuseWith;
  if (options.requireAuthorization !== undefined && authorization !== options.requireAuthorization)
    return 407;
  return undefined;
}

function sighting(
  method: string,
  target: string,
  headers: IncomingHttpHeaders,
  rawHeaders: string[],
): ProxySighting {
  const lines = [`${method} ${target}`];
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) lines.push(`${rawHeaders[i]}: ${rawHeaders[i + 1]}`);
  return { method, target, headers, raw: lines.join('\n') };
}

function splitHostPort(target: string): [string, string] {
  const at = target.lastIndexOf(':');
  return [target.slice(0, at).replace(/^\[|\]$/g, ''), target.slice(at + 1)];
}

async function listen(server: NetServer): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}
