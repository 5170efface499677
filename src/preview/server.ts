/**
 * `wfsync preview --serve`: the local page on 127.0.0.1, served with h3 on node:http. Routes: the page and its two
 * assets (bundled with wfsync, nothing from a CDN), the workflow listing, the render endpoint and a Server-Sent
 * Events stream that says which files changed. Every response forbids sniffing, caching and framing; the page's CSP
 * allows its own script and nothing remote (report/preview/csp.ts).
 */
import { createServer, type Server } from 'node:http';
import { H3, toNodeHandler } from 'h3';
import { UsageError } from '../errors.js';
import { buildPreviewCsp } from '../report/preview/csp.js';
import { answerRender, buildListing } from './api.js';
import { PAGE_STYLE } from './page/app-css.js';
import { PAGE_SCRIPT } from './page/app-js.js';
import { PAGE_HTML } from './page/index-html.js';
import { loopbackHosts, refuseRequest } from './security.js';
import type { PreviewStore } from './store.js';

export interface PreviewServerOptions {
  store: PreviewStore;
  /** 0: any free port. */
  port: number;
  allowImages: boolean;
}

export interface PreviewServer {
  url: string;
  port: number;
  /** Tell every open page which files changed (after the store refreshed). */
  notify(files: readonly string[]): void;
  close(): Promise<void>;
}

const MAX_BODY = 4 * 1024 * 1024;
const encoder = new TextEncoder();

export async function startPreviewServer(options: PreviewServerOptions): Promise<PreviewServer> {
  const streams = new Set<ReadableStreamDefaultController<Uint8Array>>();
  let hosts = new Set<string>();
  const app = buildApp(options, streams, () => hosts);
  const server = createServer(toNodeHandler(app));
  const port = await listen(server, options.port);
  hosts = loopbackHosts(port);
  const heartbeat = setInterval(() => send(streams, ': keep-alive\n\n'), 15_000);
  heartbeat.unref();
  return {
    url: `http://127.0.0.1:${port}/`,
    port,
    notify(files) {
      send(streams, `event: change\ndata: ${JSON.stringify({ version: options.store.version, files })}\n\n`);
    },
    async close() {
      clearInterval(heartbeat);
      for (const controller of streams) {
        try {
          controller.close();
        } catch {}
      }
      streams.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * The body as text, or undefined once it is over `max` bytes: a declared Content-Length over it is refused unread,
 * and a chunked body is counted as it arrives (and no longer read past the limit).
 */
async function readBody(request: Request, max: number): Promise<string | undefined> {
  const declared = Number(request.headers.get('content-length') ?? 0);
  if (!(declared <= max)) return undefined;
  if (request.body === null) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function send(streams: Set<ReadableStreamDefaultController<Uint8Array>>, text: string): void {
  const bytes = encoder.encode(text);
  for (const controller of streams) {
    try {
      controller.enqueue(bytes);
    } catch {
      streams.delete(controller);
    }
  }
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE')
        reject(
          new UsageError(
            `port ${port} on 127.0.0.1 is in use; pass another with --port (or --port 0 for any free one)`,
          ),
        );
      else if (error.code === 'EACCES')
        reject(
          new UsageError(
            `port ${port} on 127.0.0.1 cannot be opened (permission denied); pass another with --port`,
          ),
        );
      else reject(error);
    });
    server.listen(port, '127.0.0.1', () => {
      const address = server.address();
      resolve(typeof address === 'object' && address !== null ? address.port : port);
    });
  });
}

const COMMON_HEADERS: Record<string, string> = {
  'x-content-type-options': 'nosniff',
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'cross-origin-resource-policy': 'same-origin',
  'x-frame-options': 'DENY',
};

function respond(
  body: ConstructorParameters<typeof Response>[0],
  status: number,
  type: string,
  extra: Record<string, string> = {},
): Response {
  return new Response(body, { status, headers: { ...COMMON_HEADERS, 'content-type': type, ...extra } });
}

function json(value: unknown, status = 200): Response {
  return respond(JSON.stringify(value), status, 'application/json; charset=utf-8');
}

function buildApp(
  options: PreviewServerOptions,
  streams: Set<ReadableStreamDefaultController<Uint8Array>>,
  hosts: () => ReadonlySet<string>,
): H3 {
  const { store, allowImages } = options;
  const csp = `${buildPreviewCsp({ page: true, allowImages })}; frame-ancestors 'none'`;
  // Silent: h3 would print a failed request's error, stack and all, to the terminal past the output channels; the
  // client gets a bare 500 either way (no message, no stack).
  const app = new H3({ silent: true });
  app.use((event) => {
    const headers = event.req.headers;
    const refusal = refuseRequest(
      {
        method: event.req.method,
        host: headers.get('host'),
        origin: headers.get('origin'),
        fetchSite: headers.get('sec-fetch-site'),
        contentType: headers.get('content-type'),
      },
      hosts(),
    );
    if (refusal) return respond(refusal.message, refusal.status, 'text/plain; charset=utf-8');
    return undefined;
  });
  app.get('/', () => respond(PAGE_HTML, 200, 'text/html; charset=utf-8', { 'content-security-policy': csp }));
  app.get('/app.js', () => respond(PAGE_SCRIPT, 200, 'text/javascript; charset=utf-8'));
  app.get('/app.css', () => respond(PAGE_STYLE, 200, 'text/css; charset=utf-8'));
  app.get('/api/workflows', () => json(buildListing(store, allowImages)));
  app.post('/api/render', async (event) => {
    const text = await readBody(event.req, MAX_BODY);
    if (text === undefined) return json({ error: 'the request is larger than 4 MiB' }, 413);
    const answer = answerRender(store, text);
    return json(answer.body, answer.status);
  });
  app.get('/api/events', (event) => {
    let mine: ReadableStreamDefaultController<Uint8Array> | undefined;
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        mine = controller;
        streams.add(controller);
        controller.enqueue(
          encoder.encode(`retry: 500\nevent: hello\ndata: ${JSON.stringify({ version: store.version })}\n\n`),
        );
      },
      cancel() {
        if (mine) streams.delete(mine);
      },
    });
    event.req.signal?.addEventListener('abort', () => {
      if (mine) streams.delete(mine);
    });
    return respond(stream, 200, 'text/event-stream; charset=utf-8', { connection: 'keep-alive' });
  });
  return app;
}
