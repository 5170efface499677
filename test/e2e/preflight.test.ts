import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseJsonOutput } from '../helpers/json-output.js';
import { EXAMPLE_IDENTIFIERS, startTarget, type Target } from './plan-sync-target.js';

/**
 * Checked before merge, read-only: plan and sync ask the service what a create would be refused for (the key's
 * environment, the notification groups) and stop before the first POST; the dashboard's edit (the emulator's PUT)
 * and the drift it causes. The built CLI against the emulator.
 */

const PROD_KEY = 'wfs_production_key_0123456789abcdef';
const MISSING_GROUP = '6650f0c0ffee00000000a0ff';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

function preflightRequests(run: { requests: Array<{ method: string; path: string }> }): string[] {
  return run.requests
    .filter((r) => !r.path.startsWith('/v1/workflows'))
    .map((r) => `${r.method} ${r.path}`)
    .sort();
}

/** Point target `dev`'s group `transactional` at a group the environment does not have. */
function withMissingGroup(target: Target): void {
  const path = join(target.cwd, 'wfsync.config.yaml');
  const config = readFileSync(path, 'utf8').replace(
    /notificationGroups: \{ transactional: [0-9a-f]{24} \}/,
    `notificationGroups: { transactional: ${MISSING_GROUP} }`,
  );
  writeFileSync(path, config);
}

describe('a Production key for a target with something to create', () => {
  it('plan: exit 4 at plan time naming the Development key and the promotion step; no POST', async () => {
    const target = await startTarget({ emulator: { productionKeys: [PROD_KEY] } });
    const planned = await target.run(['plan'], { DEV_KEY: PROD_KEY });
    expect(planned.status).toBe(4);
    expect(planned.stdout).toBe('');
    expect(planned.stderr).toContain(
      `wfsync: the API key in $DEV_KEY belongs to the service's "Production" environment (derived from another one), where workflows are view-only: only a Development-environment key may create them, so sync would be refused (401) for the 9 workflows to create (appointment-reminder, comment-mention, deployment-failed, invoice-overdue, monthly-usage-report and 4 more). Give target "dev" the Development environment's API key and sync there, then, to bring them to this environment, give this key to a target whose promoteFrom is "dev" (it only reads); nothing was sent\n`,
    );
    expect(planned.posts).toBe(0);
    expect(preflightRequests(planned)).toEqual(['GET /v1/environments/me', 'GET /v1/notification-groups']);
  });

  it('sync and sync --dry-run: the same exit 4 before the first POST; nothing created, nothing recorded', async () => {
    const target = await startTarget({ emulator: { productionKeys: [PROD_KEY] } });
    for (const args of [['sync'], ['sync', '--dry-run'], ['sync', '--format', 'json']]) {
      const run = await target.run(args, { DEV_KEY: PROD_KEY });
      expect(run.status, args.join(' ')).toBe(4);
      expect(run.stderr).toContain(
        'give this key to a target whose promoteFrom is "dev" (it only reads); nothing was sent',
      );
      expect(run.posts).toBe(0);
    }
    expect(target.stored()).toEqual([]);
    expect(Object.keys(target.state()?.workflows ?? {})).toEqual([]);
    expect(target.state()?.pending ?? {}).toEqual({});
  });

  it('with state as without: one new definition beside synced ones is refused the same way', async () => {
    const target = await startTarget({ emulator: { productionKeys: [PROD_KEY] } });
    expect((await target.run(['sync'])).status).toBe(0);
    const file = join(target.cwd, 'workflows/order-shipped.yaml');
    const copy = join(target.cwd, 'workflows/order-delivered.yaml');
    copyFileSync(file, copy);
    writeFileSync(
      copy,
      readFileSync(copy, 'utf8')
        .replace('name: order shipped', 'name: order delivered')
        .replace('identifier: order-shipped', 'identifier: order-delivered'),
    );
    const planned = await target.run(['plan', '--only', 'order-delivered'], { DEV_KEY: PROD_KEY });
    expect(planned.status).toBe(4);
    expect(planned.stderr).toContain('for the 1 workflow to create (order-delivered)');
    // The Development key is let through, and the create goes ahead.
    const synced = await target.run(['sync']);
    expect(synced.status).toBe(0);
    expect(synced.posts).toBe(1);
  });

  it('nothing to create: neither route is asked, whatever the key', async () => {
    const target = await startTarget({ emulator: { productionKeys: [PROD_KEY] } });
    expect((await target.run(['sync'])).status).toBe(0);
    const planned = await target.run(['plan', '--verbose']);
    expect(planned.status).toBe(0);
    expect(preflightRequests(planned)).toEqual([]);
    expect(planned.stderr).toContain('wfsync: preflight: not asked: nothing to create\n');
    // A Production key sees none of Development's workflows (missing remotely: a person's job, exit 6), creates nothing.
    const production = await target.run(['plan'], { DEV_KEY: PROD_KEY });
    expect(production.status).toBe(6);
    expect(production.stdout).toContain('Plan: 0 to create');
    expect(preflightRequests(production)).toEqual([]);
  });
});

describe('a notification group the environment does not have', () => {
  it('plan and sync: exit 3 at the definition’s group line, nothing sent; the others are not created either', async () => {
    const target = await startTarget();
    withMissingGroup(target);
    const planned = await target.run(['plan']);
    expect(planned.status).toBe(3);
    expect(planned.stderr).toContain(
      'wfsync: 1 workflow to create uses a notification group that environment "Development" does not have; nothing was sent\n',
    );
    expect(planned.stderr).toContain(
      `workflows/order-shipped.yaml:6:22 error notification group "group:transactional" (${MISSING_GROUP}) does not exist in environment "Development": the service would still create the workflow, under a group it does not have; set targets.dev.notificationGroups.transactional in wfsync.config.yaml to one of its ids ("General" ${target.emulator.notificationGroupId}) [notification-group-missing]`,
    );
    expect(planned.stderr).toContain('> 6 | notificationGroupId: group:transactional');
    const synced = await target.run(['sync']);
    expect(synced.status).toBe(3);
    expect(synced.posts).toBe(0);
    expect(target.stored()).toEqual([]);
  });

  it('once the group exists in the environment, plan passes and says what it checked', async () => {
    const target = await startTarget({
      emulator: { notificationGroups: [{ name: 'transactional', id: MISSING_GROUP }] },
    });
    withMissingGroup(target);
    const planned = await target.run(['plan', '--verbose', '--format', 'json']);
    expect(planned.status).toBe(2);
    expect(planned.stderr).toContain(
      'wfsync: preflight: the API key belongs to environment "Development", which may create workflows\n',
    );
    expect(planned.stderr).toContain(
      'wfsync: preflight: every workflow to create uses one of the 2 notification groups in environment "Development"\n',
    );
    const plan = parseJsonOutput('plan', planned.stdout);
    expect(plan.preflight).toEqual({
      environment: {
        status: 'passed',
        message: 'the API key belongs to environment "Development", which may create workflows',
      },
      notificationGroups: {
        status: 'passed',
        message:
          'every workflow to create uses one of the 2 notification groups in environment "Development"',
      },
    });
    // At most two extra requests per run, whatever the number of workflows.
    expect(preflightRequests(planned)).toEqual(['GET /v1/environments/me', 'GET /v1/notification-groups']);
  });
});

/** A service in front of `target`'s emulator without the read-only routes: the workflow routes pass through. */
async function olderService(target: Target): Promise<string> {
  const proxy = createServer(async (req, res) => {
    if (!req.url?.startsWith('/v1/workflows')) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ statusCode: 404, message: `Cannot GET ${req.url}`, error: 'Not Found' }));
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const answer = await fetch(`${target.emulator.url}${req.url}`, {
      method: req.method,
      headers: {
        authorization: String(req.headers.authorization),
        'content-type': String(req.headers['content-type'] ?? 'application/json'),
      },
      ...(req.method === 'POST' ? { body: Buffer.concat(chunks) } : {}),
    });
    res.writeHead(answer.status, {
      'content-type': answer.headers.get('content-type') ?? 'application/json',
    });
    res.end(await answer.text());
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        proxy.closeAllConnections();
        proxy.close(() => resolve());
      }),
  );
  return `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
}

describe('a service without the read-only routes (older or different)', () => {
  it('plan goes on with a note: it could not check; the JSON says so', async () => {
    const target = await startTarget();
    const url = await olderService(target);
    const planned = await target.run(['plan', '--format', 'json', '--base-url', url]);
    expect(planned.status).toBe(2);
    expect(planned.stderr).toContain(
      "wfsync: note: could not check the API key's environment: the service does not answer GET /v1/environments/me (404: an older or different service)\n",
    );
    const plan = parseJsonOutput('plan', planned.stdout);
    expect(plan.summary.create).toBe(EXAMPLE_IDENTIFIERS.length);
    expect(plan.preflight.environment.status).toBe('unavailable');
    expect(plan.preflight.notificationGroups.status).toBe('unavailable');
  });

  it('a Production key then meets the service’s own 401 at the first POST: still exit 4, nothing created', async () => {
    const target = await startTarget({ emulator: { productionKeys: [PROD_KEY] } });
    const url = await olderService(target);
    const synced = await target.run(['sync', '--base-url', url], { DEV_KEY: PROD_KEY });
    expect(synced.status).toBe(4);
    expect(synced.stdout).toContain('creating workflows needs a Development-environment key');
    expect(synced.stdout).toContain('Stopped: the service refused the API key for this target');
    expect(synced.requests.filter((r) => r.method === 'POST').every((r) => r.status === 401)).toBe(true);
    expect(target.stored()).toEqual([]);
  });
});

describe('the dashboard’s edit through the emulator’s PUT', () => {
  it('a PUT by hand, then plan reports the drift with the field', async () => {
    const target = await startTarget();
    expect((await target.run(['sync'])).status).toBe(0);
    const { _id } = target.emulator.workflows().find((w) => w.triggers[0]!.identifier === 'order-shipped')!;
    const edit = await fetch(`${target.emulator.url}/v1/workflows/${_id}`, {
      method: 'PUT',
      headers: { authorization: `ApiKey ${target.emulator.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ description: 'Edited in the dashboard.' }),
    });
    expect(edit.status).toBe(200);
    const planned = await target.run(['plan']);
    expect(planned.status).toBe(6);
    expect(planned.stdout).toMatch(/^~ drifted {2}order-shipped {2}workflows\/order-shipped\.yaml:3$/m);
    expect(planned.stdout).toContain('description: "Edited in the dashboard." → ');
    // Nothing to create: the preflight asked nothing.
    expect(preflightRequests(planned)).toEqual([]);
  });
});
