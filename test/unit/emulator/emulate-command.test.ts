import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createCommandMark } from '../../../src/cli/command-mark.js';
import { emulateCommand } from '../../../src/cli/commands/emulate.js';
import type { CommandContext } from '../../../src/cli/context.js';

function context(): { ctx: CommandContext; output: () => string } {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let text = '';
  stdout.on('data', (chunk: Buffer) => {
    text += chunk.toString('utf8');
  });
  return {
    ctx: {
      stdout,
      stderr,
      env: {},
      cwd: process.cwd(),
      exitCode: -1,
      commandMark: createCommandMark(() => 'mark:'),
    },
    output: () => text,
  };
}

async function waitFor<T>(probe: () => T | undefined): Promise<T> {
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('wfsync emulate', () => {
  it('prints where it listens and how to use it, logs requests, and stops with exit code 0', async () => {
    const { ctx, output } = context();
    const stop = new AbortController();
    const command = emulateCommand(ctx, { signal: stop.signal }).exitOverride();
    const running = command.parseAsync(['--port', '0', '--seed', '3', '--production-key', 'p1'], {
      from: 'user',
    });
    const [, url, key] = await waitFor(
      () =>
        /listening on (http:\/\/127\.0\.0\.1:\d+) \(API key: (wfs_local_[0-9a-f]{32})\)/.exec(output()) ??
        undefined,
    );
    const group = /notification group id: ([0-9a-f]{24})/.exec(output())![1];
    expect(output()).toContain(
      `WFSYNC_BASE_URL=${url} WFSYNC_API_KEY=${key} WFSYNC_NOTIFICATION_GROUP_ID=${group} wfsync sync --target dev`,
    );

    const created = await fetch(`${url}/v1/workflows`, {
      method: 'POST',
      headers: {
        authorization: `ApiKey ${key}`,
        'content-type': 'application/json',
        'idempotency-key': 'abc',
      },
      body: JSON.stringify({
        name: 'Hello',
        notificationGroupId: group,
        steps: [{ template: { type: 'chat', content: 'x' } }],
      }),
    });
    expect(created.status).toBe(201);
    const refused = await fetch(`${url}/v1/workflows`, {
      method: 'POST',
      headers: { authorization: 'ApiKey p1' },
    });
    expect(refused.status).toBe(401);
    await waitFor(() => (output().includes('POST /v1/workflows → 401') ? true : undefined));
    expect(output()).toMatch(/Z POST \/v1\/workflows → 201 \(Idempotency-Key abc\)\n/);

    stop.abort();
    await running;
    expect(ctx.exitCode).toBe(0);
    expect(output()).toMatch(/wfsync emulator stopped\n$/);
    await expect(fetch(`${url}/v1/workflows/hello`)).rejects.toThrow();
  });

  it('does not echo a key the user chose, and stays quiet with --quiet', async () => {
    const { ctx, output } = context();
    const stop = new AbortController();
    const running = emulateCommand(ctx, { signal: stop.signal })
      .exitOverride()
      .parseAsync(['--port', '0', '--api-key', 'chosen-secret', '--quiet', '--slug-generation', 'v2'], {
        from: 'user',
      });
    const [, url] = await waitFor(() => /listening on (\S+) /.exec(output()) ?? undefined);
    const reply = await fetch(`${url}/v1/workflows/x`, {
      headers: { authorization: 'ApiKey chosen-secret' },
    });
    expect(reply.status).toBe(404);
    stop.abort();
    await running;
    expect(output()).not.toContain('chosen-secret');
    expect(output()).toContain('WFSYNC_API_KEY=<your --api-key>');
    expect(output()).not.toContain('GET /v1/workflows/x');
  });

  it('--group adds notification groups, prints them, and lists them on GET /v1/notification-groups', async () => {
    const { ctx, output } = context();
    const stop = new AbortController();
    const running = emulateCommand(ctx, { signal: stop.signal })
      .exitOverride()
      .parseAsync(
        ['--port', '0', '--quiet', '--group', 'transactional=6650f0c0ffee00000000a001', '--group', 'news'],
        { from: 'user' },
      );
    const [, url, key] = await waitFor(
      () => /listening on (\S+) \(API key: (\S+)\)/.exec(output()) ?? undefined,
    );
    const [, newsId] =
      /other notification groups: transactional 6650f0c0ffee00000000a001, news ([0-9a-f]{24})\n/.exec(
        output(),
      )!;
    const reply = await fetch(`${url}/v1/notification-groups`, {
      headers: { authorization: `ApiKey ${key}` },
    });
    const groups = ((await reply.json()) as { data: Array<{ _id: string; name: string }> }).data;
    expect(groups.map((g) => g.name)).toEqual(['General', 'transactional', 'news']);
    expect(groups[2]!._id).toBe(newsId);
    stop.abort();
    await running;
  });

  it.each([
    [['--group', 'x=not-an-id']],
    [['--group', '=6650f0c0ffee00000000a001']],
    [['--port', 'x']],
    [['--error-rate', '2']],
    [['--rate-limit', '0']],
    [['--slug-generation', 'v3']],
  ])('rejects bad flag values %j', async (args) => {
    const { ctx } = context();
    const command = emulateCommand(ctx)
      .exitOverride()
      .configureOutput({ writeErr: () => undefined });
    await expect(command.parseAsync(args, { from: 'user' })).rejects.toMatchObject({
      code: expect.stringMatching(/^commander\./),
    });
  });

  it('refuses a non-loopback host as a usage error', async () => {
    const { ctx } = context();
    const command = emulateCommand(ctx).exitOverride();
    await expect(command.parseAsync(['--host', '0.0.0.0'], { from: 'user' })).rejects.toMatchObject({
      exitCode: 64,
    });
  });
});
