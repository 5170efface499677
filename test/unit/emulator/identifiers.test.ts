import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempProjects } from '../../helpers/temp-project.js';
import { get, post, start, workflowBody } from './helpers.js';

const tempDir = useTempProjects('wfsync-emulator-');
const tempFile = () => join(tempDir(), 'data.json');

describe('trigger identifiers (older server, v1)', () => {
  it.each([
    ['Order Shipped', 'order-shipped'],
    ['orderShipped', 'ordershipped'],
    ['snake_case name', 'snakecase-name'],
    ['  Ünïcode – Straße!  ', 'unicode-strasse'],
  ])('slugs %j as %j', async (name, identifier) => {
    const emulator = await start();
    const reply = await post(emulator, workflowBody(emulator, { name }));
    expect(reply.body.data.triggers[0].identifier).toBe(identifier);
  });

  it('creates a silent duplicate with a -<shortid> suffix when the identifier is taken', async () => {
    const emulator = await start({ seed: 11 });
    const first = await post(emulator, workflowBody(emulator));
    const second = await post(emulator, workflowBody(emulator));
    expect(second.status).toBe(201);
    expect(second.body.data._id).not.toBe(first.body.data._id);
    const identifier: string = second.body.data.triggers[0].identifier;
    expect(identifier).toMatch(/^order-shipped-[0-9A-Za-z_-]{9}$/);
    expect(emulator.workflows()).toHaveLength(2);
    // GET by the shared identifier finds the oldest; the suffixed one is found by its own identifier.
    expect((await get(emulator, 'order-shipped')).body.data._id).toBe(first.body.data._id);
    expect((await get(emulator, identifier)).body.data._id).toBe(second.body.data._id);
  });

  it('draws the same suffixes for the same seed', async () => {
    const suffixes = async (seed: number) => {
      const emulator = await start({ seed });
      const ids: string[] = [];
      for (let i = 0; i < 3; i++)
        ids.push((await post(emulator, workflowBody(emulator))).body.data.triggers[0].identifier);
      return ids;
    };
    const a = await suffixes(5);
    expect(await suffixes(5)).toEqual(a);
    expect(await suffixes(6)).not.toEqual(a);
    expect(new Set(a).size).toBe(3);
  });

  it('stores a name without ASCII letters or digits under the empty identifier, then suffixes it', async () => {
    const emulator = await start({ seed: 2 });
    const first = await post(emulator, workflowBody(emulator, { name: '日本語' }));
    expect(first.status).toBe(201);
    expect(first.body.data.triggers[0].identifier).toBe('');
    const second = await post(emulator, workflowBody(emulator, { name: '!!!' }));
    expect(second.body.data.triggers[0].identifier).toMatch(/^-[0-9A-Za-z_-]{9}$/);
  });

  it('checks only the plain identifier: a suffix that is itself taken makes a second duplicate', async () => {
    const file = tempFile();
    const seeded = await start({ seed: 21, dataFile: file });
    for (let i = 0; i < 2; i++) await post(seeded, workflowBody(seeded));
    const [, taken] = seeded.workflows().map((w) => w.triggers[0]!.identifier);
    await seeded.close();
    // Same seed, same suffix stream: the first suffix drawn is the one already stored.
    const again = await start({ seed: 21, dataFile: file });
    const reply = await post(again, workflowBody(again));
    expect(reply.status).toBe(201);
    expect(reply.body.data.triggers[0].identifier).toBe(taken);
    const twins = again.workflows().filter((w) => w.triggers[0]!.identifier === taken);
    expect(twins).toHaveLength(2);
    // With duplicate identifiers, GET by identifier finds the oldest.
    expect((await get(again, taken!)).body.data._id).toBe(twins[0]!._id);
    expect(twins[0]!._id).not.toBe(reply.body.data._id);
  });
});

describe('trigger identifiers (newer server, v2)', () => {
  it.each([
    ['orderShipped', 'order-shipped'],
    ['snake_case', 'snake-case'],
    ['Order Shipped', 'order-shipped'],
  ])('slugs %j as %j', async (name, identifier) => {
    const emulator = await start({ slugGeneration: 'v2' });
    const reply = await post(emulator, workflowBody(emulator, { name }));
    expect(reply.body.data.triggers[0].identifier).toBe(identifier);
  });

  it('suffixes a taken identifier with a lower-case short id', async () => {
    const emulator = await start({ slugGeneration: 'v2', seed: 4 });
    await post(emulator, workflowBody(emulator));
    const second = await post(emulator, workflowBody(emulator));
    expect(second.status).toBe(201);
    expect(second.body.data.triggers[0].identifier).toMatch(/^order-shipped-[0-9a-z]{6}$/);
  });

  it('answers 400 when the identifier and both suffixed tries are taken', async () => {
    const file = tempFile();
    // Run 1 stores order-shipped, then the first and second suffixes the seed draws.
    const first = await start({ slugGeneration: 'v2', seed: 8, dataFile: file });
    for (let i = 0; i < 3; i++) expect((await post(first, workflowBody(first))).status).toBe(201);
    await first.close();
    // Run 2 draws the same two suffixes for one create: both are taken.
    const second = await start({ slugGeneration: 'v2', seed: 8, dataFile: file });
    const reply = await post(second, workflowBody(second));
    expect(reply.status).toBe(400);
    expect(reply.body.error).toBe('Bad Request');
    expect(reply.body.message).toContain('"order-shipped" is already in use');
    expect(second.workflows()).toHaveLength(3);
  });
});
