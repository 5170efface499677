import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type ContractFake,
  type ContractFakeOptions,
  startContractFake,
} from '../helpers/contract-fake/index.js';
import { useTempProjects } from '../helpers/temp-project.js';
import { contractFakeProject } from './contract-fake-project.js';
import { EXAMPLE_IDENTIFIERS, runCli } from './helpers.js';

/**
 * wfsync's own CLI against the independent fake written from the contract (test/helpers/contract-fake/): what it
 * needs of the service is what the contract states, not what the emulator happens to do.
 */

/** Three of the repository's examples: an email with a loop, a critical email, a digest. */
const EXAMPLES = ['order-shipped', 'password-reset', 'weekly-activity-digest'];

const makeProject = useTempProjects('wfsync-e2e-');
const fakes: ContractFake[] = [];
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((f) => f.close()));
});

async function fakeProject(
  options: ContractFakeOptions = {},
  examples = EXAMPLES,
): Promise<{ fake: ContractFake; cwd: string }> {
  const fake = await startContractFake(options);
  fakes.push(fake);
  const cwd = makeProject(contractFakeProject(fake, examples));
  return { fake, cwd };
}

function run(fake: ContractFake, cwd: string, args: string[]) {
  return runCli([...args, '--target', 'fake'], { cwd, env: { FAKE_KEY: fake.devKey } });
}

describe('the built CLI against the contract fake', () => {
  it('plan, then sync creates 3 workflows, then plan and sync are in sync', async () => {
    const { fake, cwd } = await fakeProject();
    const planned = await run(fake, cwd, ['plan']);
    expect(planned.stdout).toContain('Plan: 3 to create, 0 in sync.');
    expect(planned.status).toBe(2);
    expect(fake.requests.filter((r) => r.method !== 'GET')).toEqual([]);

    const synced = await run(fake, cwd, ['sync']);
    expect(synced.stderr).not.toMatch(/unexpected|error/i);
    expect(synced.stdout).toContain('Sync: 3 created, 0 in sync, 0 drifted, 0 failed, 0 skipped.');
    expect(synced.status).toBe(0);
    const posts = fake.requests.filter((r) => r.method === 'POST');
    expect(posts).toHaveLength(3);
    expect(posts.every((r) => r.environment === 'Development' && r.status === 201)).toBe(true);
    expect(
      fake
        .workflows()
        .map((w) => (w.triggers as Array<{ identifier: string }>)[0]!.identifier)
        .sort(),
    ).toEqual(EXAMPLES);

    const before = fake.requests.length;
    const again = await run(fake, cwd, ['plan']);
    expect(again.stdout).toContain('No changes. 3 workflows in sync.');
    expect(again.status).toBe(0);
    const resync = await run(fake, cwd, ['sync']);
    expect(resync.stdout).toContain('Sync: 0 created, 3 in sync, 0 drifted, 0 failed, 0 skipped.');
    expect(resync.status).toBe(0);
    expect(fake.requests.slice(before).every((r) => r.method === 'GET')).toBe(true);
  });

  it('all nine examples: after one sync the service (trigger variables derived by the fake) equals the files', async () => {
    const { fake, cwd } = await fakeProject({}, EXAMPLE_IDENTIFIERS);
    const synced = await run(fake, cwd, ['sync']);
    expect(synced.stdout).toContain('Sync: 9 created, 0 in sync, 0 drifted, 0 failed, 0 skipped.');
    const again = await run(fake, cwd, ['plan']);
    expect(again.stdout).toContain('No changes. 9 workflows in sync.');
    expect(again.status).toBe(0);
  });

  it('without state, plan finds the workflows by trigger identifier and they are in sync', async () => {
    const { fake, cwd } = await fakeProject();
    expect((await run(fake, cwd, ['sync'])).status).toBe(0);
    rmSync(join(cwd, '.wfsync'), { recursive: true, force: true });
    const planned = await run(fake, cwd, ['plan']);
    expect(planned.stdout).toContain('No changes. 3 workflows in sync.');
    expect(planned.status).toBe(0);
  });

  it('a dashboard edit on the fake is drift: plan exits 6 and sync writes nothing', async () => {
    const { fake, cwd } = await fakeProject();
    expect((await run(fake, cwd, ['sync'])).status).toBe(0);
    const [shipped] = fake.workflows().filter((w) => w.name === 'order shipped');
    fake.dashboardEdit(shipped!._id as string, { description: 'Edited in the dashboard' });
    const planned = await run(fake, cwd, ['plan']);
    expect(planned.stdout).toContain('Edited in the dashboard');
    expect(planned.status).toBe(6);
    const before = fake.requests.length;
    const synced = await run(fake, cwd, ['sync']);
    expect(synced.status).toBe(6);
    expect(fake.requests.slice(before).every((r) => r.method === 'GET')).toBe(true);
  });

  it('a Production key is refused before any write', async () => {
    const { fake, cwd } = await fakeProject();
    const synced = await runCli(['sync', '--target', 'fake'], { cwd, env: { FAKE_KEY: fake.prodKey } });
    expect(synced.status).toBe(4);
    expect(fake.requests.filter((r) => r.method !== 'GET')).toEqual([]);
    expect(synced.stdout + synced.stderr).not.toContain(fake.prodKey);
  });

  it('a create whose response is lost is found by its identifier: no duplicate, and the next plan is in sync', async () => {
    const { fake, cwd } = await fakeProject({
      dropResponse: { method: 'POST', path: '/v1/workflows', nth: 2 },
    });
    const synced = await run(fake, cwd, ['sync']);
    expect(synced.status).toBe(0);
    expect(synced.stdout).toContain('Sync: 3 created, 0 in sync, 0 drifted, 0 failed, 0 skipped.');
    const posts = fake.requests.filter((r) => r.method === 'POST');
    expect(posts.map((r) => r.status).sort()).toEqual([0, 201, 201]);
    expect(fake.workflows()).toHaveLength(3);
    const again = await run(fake, cwd, ['plan']);
    expect(again.stdout).toContain('No changes. 3 workflows in sync.');
  });
});
