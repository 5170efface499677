import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { type ContractFake, startContractFake } from '../../helpers/contract-fake/index.js';
import { orderShipped } from './scenario.js';

/** The fake's test-control API: what other tests build on. */

const fakes: ContractFake[] = [];
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((f) => f.close()));
});

async function started(options: Parameters<typeof startContractFake>[0] = {}): Promise<ContractFake> {
  const fake = await startContractFake(options);
  fakes.push(fake);
  return fake;
}

async function send(
  fake: ContractFake,
  method: string,
  path: string,
  json?: unknown,
  key = fake.devKey,
  // biome-ignore lint/suspicious/noExplicitAny: tests read deep into JSON bodies
): Promise<{ status: number; body: any }> {
  const response = await fetch(`${fake.url}${path}`, {
    method,
    headers: {
      authorization: `ApiKey ${key}`,
      ...(json === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
  const text = await response.text();
  return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
}

describe('the contract fake for tests', () => {
  it('logs each request with its environment and status, never the key', async () => {
    const fake = await started();
    await send(fake, 'POST', '/v1/workflows', orderShipped(fake.groupId));
    await send(fake, 'GET', '/v1/workflows/order-shipped', undefined, fake.prodKey);
    await send(fake, 'GET', '/v1/environments/me', undefined, 'nope');
    expect(fake.requests).toEqual([
      { method: 'POST', path: '/v1/workflows', environment: 'Development', status: 201 },
      { method: 'GET', path: '/v1/workflows/order-shipped', environment: 'Production', status: 404 },
      { method: 'GET', path: '/v1/environments/me', status: 401 },
    ]);
    expect(JSON.stringify(fake.requests)).not.toContain(fake.devKey);
  });

  it('a dashboard edit has the PUT semantics and folds into the pending change', async () => {
    const fake = await started();
    const created = (await send(fake, 'POST', '/v1/workflows', orderShipped(fake.groupId))).body.data;
    expect(fake.pendingChanges()).toHaveLength(1);
    const edited = fake.dashboardEdit(created._id, { description: 'From the dashboard', tags: [] });
    expect(edited).toMatchObject({ description: 'From the dashboard', tags: [] });
    expect(edited.steps).toHaveLength(3);
    expect(fake.pendingChanges()).toHaveLength(1);
    expect(fake.pendingChanges()[0]!._entityId).toBe(created._id);
    expect((await send(fake, 'GET', `/v1/workflows/${created._id}`)).body.data.description).toBe(
      'From the dashboard',
    );
    expect(() => fake.dashboardEdit(created._id, {})).toThrow('No properties found for update');
    expect(fake.dashboardEdit('order-shipped', { tags: ['by identifier'] }).tags).toEqual(['by identifier']);
    expect(() => fake.dashboardEdit('no-such-workflow', { tags: [] })).toThrow('not found');
  });

  it('workflows(environment) shows what promotion put in Production', async () => {
    const fake = await started();
    const created = (await send(fake, 'POST', '/v1/workflows', orderShipped(fake.groupId))).body.data;
    expect(fake.workflows('Production')).toEqual([]);
    const [change] = fake.pendingChanges();
    expect((await send(fake, 'POST', `/v1/changes/${change!._id}/apply`)).status).toBe(201);
    expect(fake.pendingChanges()).toEqual([]);
    const [copy] = fake.workflows('Production');
    expect(copy).toMatchObject({ _parentId: created._id, name: 'Order Shipped' });
    expect(copy!._id).not.toBe(created._id);
    expect(fake.workflows()).toHaveLength(1);
  });

  it('drops the response of the Nth matching request after applying it', async () => {
    const fake = await started({ dropResponse: { method: 'POST', path: '/v1/workflows', nth: 2 } });
    expect((await send(fake, 'POST', '/v1/workflows', orderShipped(fake.groupId))).status).toBe(201);
    await expect(
      send(fake, 'POST', '/v1/workflows', { ...orderShipped(fake.groupId), name: 'Lost' }),
    ).rejects.toThrow();
    expect(fake.workflows().map((w) => w.name)).toEqual(['Order Shipped', 'Lost']);
    expect(fake.requests.at(-1)).toMatchObject({ method: 'POST', status: 0 });
    expect(
      (await send(fake, 'POST', '/v1/workflows', { ...orderShipped(fake.groupId), name: 'Third' })).status,
    ).toBe(201);
  });

  it('drops several responses when given several counts', async () => {
    const fake = await started({ dropResponse: { method: 'GET', path: /^\/v1\/workflows\//, nth: [1, 3] } });
    const created = (await send(fake, 'POST', '/v1/workflows', orderShipped(fake.groupId))).body.data;
    const path = `/v1/workflows/${created._id}`;
    await expect(send(fake, 'GET', path)).rejects.toThrow();
    expect((await send(fake, 'GET', path)).status).toBe(200);
    await expect(send(fake, 'GET', path)).rejects.toThrow();
    expect((await send(fake, 'GET', path)).status).toBe(200);
    expect(fake.requests.map((r) => r.status)).toEqual([201, 0, 200, 0, 200]);
  });

  it('answers an unknown route as the service does, before any key check', async () => {
    const fake = await started();
    const reply = await send(fake, 'GET', '/v1/nothing-here', undefined, 'nope');
    expect(reply).toMatchObject({
      status: 404,
      body: { statusCode: 404, message: 'Cannot GET /v1/nothing-here' },
    });
  });

  it('is independent: it imports nothing of wfsync, only Node and public libraries', () => {
    const dir = fileURLToPath(new URL('../../helpers/contract-fake/', import.meta.url));
    const imports = readdirSync(dir).flatMap((file) =>
      [...readFileSync(`${dir}${file}`, 'utf8').matchAll(/from '([^']+)'/g)].map((m) => m[1]!),
    );
    expect(imports.length).toBeGreaterThan(10);
    expect(imports.filter((from) => !/^(node:|\.\/|handlebars$|slugify$)/.test(from))).toEqual([]);
  });
});
