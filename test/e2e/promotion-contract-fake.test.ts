import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type ContractFake,
  type ContractFakeOptions,
  startContractFake,
} from '../helpers/contract-fake/index.js';
import { makeProject, ROOT, runCli } from './helpers.js';
import { promotedConfig } from './promotion-harness.js';

/**
 * Promotion to Production (issue 28), the built CLI against the independent fake written from the contract
 * (test/helpers/contract-fake/): what promotion needs of the service (environments, the changes API, Production
 * copies found by `_parentId`) is what the contract states, not what the emulator happens to do.
 */

const EXAMPLES = ['order-shipped', 'password-reset', 'weekly-activity-digest'];

const fakes: ContractFake[] = [];
const projects: string[] = [];
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((f) => f.close()));
  for (const dir of projects.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function setup(options: ContractFakeOptions = {}) {
  const fake = await startContractFake(options);
  fakes.push(fake);
  const cwd = makeProject({ 'wfsync.config.yaml': promotedConfig(fake.url, fake.groupId) });
  projects.push(cwd);
  mkdirSync(join(cwd, 'workflows'));
  for (const name of EXAMPLES)
    copyFileSync(join(ROOT, 'workflows', `${name}.yaml`), join(cwd, 'workflows', `${name}.yaml`));
  const run = async (args: string[]) => {
    const before = fake.requests.length;
    const result = await runCli(args, {
      cwd,
      env: { DEV_KEY: fake.devKey, PROD_KEY: fake.prodKey, NO_COLOR: '1' },
    });
    return { ...result, requests: fake.requests.slice(before) };
  };
  return { fake, cwd, run };
}

const identifiers = (docs: Array<Record<string, unknown>>) =>
  docs.map((d) => d.triggers as Array<{ identifier: string }>).map((t) => t[0]?.identifier);

describe('promotion against the contract fake', () => {
  it('plans 3 promotes (the Production key only reads), applies exactly those, then finds everything in sync', async () => {
    const { fake, run } = await setup();
    expect((await run(['sync', '--target', 'development', '--quiet'])).status).toBe(0);
    expect(fake.workflows('Production')).toEqual([]);
    expect(fake.pendingChanges()).toHaveLength(3);

    const planned = await run(['plan', '--target', 'production']);
    expect(planned.stderr).not.toMatch(/unexpected|internal error/i);
    expect(planned.status).toBe(2);
    for (const identifier of EXAMPLES)
      expect(planned.stdout).toMatch(new RegExp(`↑ promote\\s+${identifier}`));
    expect(planned.requests.filter((r) => r.method !== 'GET')).toEqual([]);

    const synced = await run(['sync', '--target', 'production']);
    expect(synced.stderr).not.toMatch(/unexpected|internal error/i);
    expect(synced.status).toBe(0);
    expect(synced.stdout).toContain('3 promoted');
    // Every write went through the Development key; the Production key only read.
    const writes = synced.requests.filter((r) => r.method !== 'GET');
    expect(writes.length).toBeGreaterThan(0);
    expect(writes.filter((r) => r.environment !== 'Development')).toEqual([]);
    expect(synced.requests.filter((r) => r.environment === 'Production' && r.method !== 'GET')).toEqual([]);
    expect(identifiers(fake.workflows('Production')).sort()).toEqual([...EXAMPLES].sort());
    expect(fake.pendingChanges()).toEqual([]);

    const again = await run(['sync', '--target', 'production']);
    expect(again.status).toBe(0);
    expect(again.stdout).not.toContain('promoted');
    expect(again.requests.filter((r) => r.method !== 'GET')).toEqual([]);
  });

  it('a dashboard edit in Development is not promoted: the plan needs a person (exit 6), sync changes nothing', async () => {
    const { fake, run } = await setup();
    expect((await run(['sync', '--target', 'development', '--quiet'])).status).toBe(0);
    fake.dashboardEdit('password-reset', { description: 'edited in the dashboard, never reviewed' });

    const planned = await run(['plan', '--target', 'production']);
    expect(planned.status).toBe(6);
    expect(planned.stdout).toMatch(/~ drifted\s+password-reset/);
    expect(planned.stdout).toMatch(/↑ promote\s+order-shipped/);

    const synced = await run(['sync', '--target', 'production']);
    expect(synced.status).toBe(6);
    expect(identifiers(fake.workflows('Production')).sort()).toEqual([
      'order-shipped',
      'weekly-activity-digest',
    ]);
    expect(fake.pendingChanges().length).toBe(1);
  });

  it('a removed file: its Development delete is promoted (only that change), Production loses its copy, a re-run does nothing', async () => {
    // The response to the delete's apply (the fourth apply: three promotions first) is lost: the read settles it.
    const { fake, cwd, run } = await setup({
      dropResponse: { method: 'POST', path: /^\/v1\/changes\/[0-9a-f]{24}\/apply$/, nth: 4 },
    });
    expect((await run(['sync', '--target', 'development', '--quiet'])).status).toBe(0);
    expect((await run(['sync', '--target', 'production', '--quiet'])).status).toBe(0);
    const source = fake.workflows().find((w) => identifiers([w])[0] === 'password-reset')!;
    rmSync(join(cwd, 'workflows/password-reset.yaml'));
    expect((await run(['sync', '--target', 'development', '--allow', 'delete', '--quiet'])).status).toBe(0);
    // Another team's workflow, created in Development outside the project: its pending change must stay pending.
    const created = await fetch(`${fake.url}/v1/workflows`, {
      method: 'POST',
      headers: { authorization: `ApiKey ${fake.devKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'another team',
        notificationGroupId: fake.groupId,
        steps: [{ template: { type: 'in_app', content: 'hello' } }],
      }),
    });
    expect(created.status).toBe(201);
    const [theirs] = fake.pendingChanges().filter((c) => c._entityId !== source._id);
    const ours = fake.pendingChanges().find((c) => c._entityId === source._id)!;

    const planned = await run(['plan', '--target', 'production', '--allow', 'delete']);
    expect(planned.stderr).not.toMatch(/unexpected|internal error/i);
    expect(planned.status).toBe(2);
    expect(planned.stdout).toMatch(/- delete\s+password-reset/);
    expect(planned.stdout).toContain('+++ /dev/null');
    expect(planned.requests.filter((r) => r.method !== 'GET')).toEqual([]);

    const synced = await run(['sync', '--target', 'production', '--allow', 'delete']);
    expect(synced.stderr).not.toMatch(/unexpected|internal error/i);
    expect(synced.status).toBe(0);
    expect(synced.stdout).toMatch(/- deleted\s+password-reset/);
    const writes = synced.requests.filter((r) => r.method !== 'GET');
    expect(writes[0]?.status).toBe(0); // its response was dropped; the change had been applied
    expect(new Set(writes.map((r) => `${r.environment} ${r.method} ${r.path}`))).toEqual(
      new Set([`Development POST /v1/changes/${ours._id}/apply`]),
    );
    expect(identifiers(fake.workflows('Production')).sort()).toEqual([
      'order-shipped',
      'weekly-activity-digest',
    ]);
    expect(fake.pendingChanges().map((c) => c._id)).toEqual([theirs!._id]);

    const again = await run(['sync', '--target', 'production', '--allow', 'delete']);
    expect(again.status).toBe(0);
    expect(again.stdout).not.toMatch(/password-reset/);
    expect(again.requests.filter((r) => r.method !== 'GET')).toEqual([]);
  });
});
