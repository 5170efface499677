import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type ContractFake, startContractFake } from '../helpers/contract-fake/index.js';
import { makeProject, ROOT, runCli } from './helpers.js';

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

async function setup() {
  const fake = await startContractFake();
  fakes.push(fake);
  const cwd = makeProject({
    'wfsync.config.yaml': [
      'workflowsDir: workflows',
      'targets:',
      '  development:',
      `    baseUrl: ${fake.url}`,
      '    apiKeyEnv: DEV_KEY',
      `    notificationGroupId: ${fake.groupId}`,
      `    notificationGroups: { transactional: ${fake.groupId} }`,
      '  production:',
      `    baseUrl: ${fake.url}`,
      '    apiKeyEnv: PROD_KEY',
      '    promoteFrom: development',
      '',
    ].join('\n'),
  });
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
  return { fake, run };
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
});
