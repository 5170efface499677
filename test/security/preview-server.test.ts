/**
 * `wfsync preview --serve` as a hostile client on the machine or a hostile web page in the user's browser sees it:
 * real HTTP over loopback against the real server (src/preview/server.ts).
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readProject } from '../../src/config/project.js';
import { type PreviewServer, startPreviewServer } from '../../src/preview/server.js';
import { PreviewStore } from '../../src/preview/store.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  vi.restoreAllMocks();
});

async function serve(): Promise<PreviewServer> {
  const dir = mkdtempSync(join(tmpdir(), 'wfsync-serve-sec-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(join(dir, 'workflows'));
  const store = new PreviewStore({ cwd: dir, project: readProject({}, dir), paths: [] });
  await store.load();
  const server = await startPreviewServer({ store, port: 0, allowImages: false });
  cleanups.push(() => server.close());
  return server;
}

interface Answer {
  status: number;
  body: string;
}

/** A POST to /api/render; `declared` overrides Content-Length; `body` chunks written one by one. */
function post(
  server: PreviewServer,
  chunks: readonly string[],
  headers: Record<string, string | number> = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: server.port,
        path: '/api/render',
        method: 'POST',
        headers: {
          host: `127.0.0.1:${server.port}`,
          'content-type': 'application/json',
          ...headers,
        },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          body += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    // The server may answer and close before the body is all written.
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE' && error.code !== 'ECONNRESET') reject(error);
    });
    for (const chunk of chunks) req.write(chunk);
    if (headers['content-length'] === undefined) req.end();
  });
}

describe('preview --serve: request bodies', () => {
  it('refuses a body whose declared length is over the limit before reading it', async () => {
    const server = await serve();
    // 1 GiB declared, 2 bytes sent, never ended: the answer must not wait for the rest.
    const answer = await post(server, ['{}'], { 'content-length': 1024 * 1024 * 1024 });
    expect(answer.status).toBe(413);
  });

  it('counts the limit in bytes, not UTF-16 characters, for a chunked body', async () => {
    const server = await serve();
    // 3 Mi characters of `é`: 6 MiB of UTF-8, over the 4 MiB limit, though its .length is under it.
    const padding = 'é'.repeat(64 * 1024);
    const chunks = ['{"file":"workflows/x.yaml","pad":"', ...Array.from({ length: 48 }, () => padding), '"}'];
    const answer = await post(server, chunks);
    expect(answer.status).toBe(413);
    expect(answer.body).toContain('4 MiB');
  });

  it('still answers a small body', async () => {
    const server = await serve();
    const answer = await post(server, ['{"file":"workflows/none.yaml"}']);
    expect(answer.status).toBe(404);
    expect(JSON.parse(answer.body)).toEqual({ error: 'no such workflow file' });
  });
});

describe('preview --serve: the console', () => {
  it('the server prints nothing itself: no error with its stack when a request breaks off', async () => {
    const printed = (['log', 'info', 'warn', 'error', 'debug'] as const).map((method) =>
      vi.spyOn(console, method).mockImplementation(() => undefined),
    );
    const server = await serve();
    // A body that ends before its declared length: reading it fails inside the handler.
    await new Promise<void>((resolve) => {
      const req = request({
        host: '127.0.0.1',
        port: server.port,
        path: '/api/render',
        method: 'POST',
        headers: {
          host: `127.0.0.1:${server.port}`,
          'content-type': 'application/json',
          'content-length': 100,
        },
      });
      req.on('error', () => resolve());
      req.on('response', () => resolve());
      req.write('{"file":', () => setTimeout(() => req.destroy(), 50));
    });
    // The server has seen the broken request once the next one is answered.
    const answer = await post(server, ['{"file":"workflows/none.yaml"}']);
    expect(answer.status).toBe(404);
    for (const spy of printed) expect(spy.mock.calls).toEqual([]);
  });
});
