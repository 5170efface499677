import { mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WfsyncError } from '../../../src/errors.js';
import { useTempProjects } from '../../helpers/temp-project.js';
import { get, post, start, workflowBody } from './helpers.js';

const tempDir = useTempProjects('wfsync-emulator-');

describe('data file', () => {
  it('keeps workflows, idempotency keys and the environment across a restart', async () => {
    const dir = tempDir();
    const dataFile = join(dir, 'nested', 'emulator.json');
    const first = await start({ dataFile, apiKey: 'local-secret' });
    const body = workflowBody(first);
    const created = await post(first, body, { headers: { 'Idempotency-Key': 'once' } });
    expect(created.status).toBe(201);
    await first.close();

    const text = await readFile(dataFile, 'utf8');
    expect(text).not.toContain('local-secret');
    const saved = JSON.parse(text);
    expect(saved.version).toBe(1);
    expect(saved.workflows).toHaveLength(1);
    expect(saved.idempotency).toMatchObject([{ key: 'once', status: 201 }]);
    // Only the data file is left behind: no temp files.
    expect(await readdir(join(dir, 'nested'))).toEqual(['emulator.json']);

    const second = await start({ dataFile });
    expect(second.environmentId).toBe(first.environmentId);
    expect(second.notificationGroupId).toBe(first.notificationGroupId);
    const { notificationGroup, ...stored } = created.body.data;
    expect(second.workflows()).toEqual([stored]);
    expect((await get(second, 'order-shipped')).body.data).toEqual(stored);
    const replay = await post(second, body, { headers: { 'Idempotency-Key': 'once' } });
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotency-replay')).toBe('true');
    expect(replay.body).toEqual(created.body);
    // A name collision still sees the stored workflow.
    const duplicate = await post(second, body);
    expect(duplicate.body.data.triggers[0].identifier).not.toBe('order-shipped');
  });

  it('never reuses an id of the data file when restarted with the same seed', async () => {
    const dataFile = join(tempDir(), 'data.json');
    const first = await start({ seed: 77, dataFile });
    await post(first, workflowBody(first));
    await first.close();
    const saved = await readFile(dataFile, 'utf8');
    const identity = new Set(Object.values(JSON.parse(saved).identity));
    const oldIds = new Set(saved.match(/[0-9a-f]{24}/g));
    const second = await start({ seed: 77, dataFile });
    const created = await post(second, workflowBody(second, { name: 'Another' }));
    // Every id of the new workflow except the environment's own (org, creator, group, layout…) is new.
    const newIds = (JSON.stringify(created.body).match(/[0-9a-f]{24}/g) ?? []).filter(
      (id) => !identity.has(id),
    );
    expect(newIds.length).toBeGreaterThan(5);
    expect(newIds.filter((id) => oldIds.has(id))).toEqual([]);
  });

  it('starts empty when the file does not exist yet, and persists reset()', async () => {
    const dataFile = join(tempDir(), 'data.json');
    const emulator = await start({ dataFile });
    await post(emulator, workflowBody(emulator));
    emulator.reset();
    expect(emulator.workflows()).toEqual([]);
    await emulator.close();
    expect(JSON.parse(await readFile(dataFile, 'utf8')).workflows).toEqual([]);
  });

  it('writes every create of a concurrent burst', async () => {
    const dataFile = join(tempDir(), 'data.json');
    const emulator = await start({ dataFile });
    const names = Array.from({ length: 15 }, (_, i) => `Workflow ${i}`);
    const replies = await Promise.all(names.map((name) => post(emulator, workflowBody(emulator, { name }))));
    expect(replies.every((r) => r.status === 201)).toBe(true);
    await emulator.close();
    const saved = JSON.parse(await readFile(dataFile, 'utf8'));
    expect(saved.workflows.map((w: { name: string }) => w.name).sort()).toEqual([...names].sort());
  });

  it.each([
    ['not JSON', '{"version": 1,', /is not valid JSON/],
    [
      'JSON nested 100,000 deep',
      `{"version":1,"x":${'['.repeat(1e5)}${']'.repeat(1e5)}}`,
      /is nested deeper than 128 levels/,
    ],
    ['another version', '{"version": 2}', /unsupported version 2/],
    ['a broken workflow', null, /workflows\[0\]\._id must be an ObjectId/],
  ])('refuses to start on %s, naming the file', async (_what, content, pattern) => {
    const dataFile = join(tempDir(), 'data.json');
    const identity = Object.fromEntries(
      ['environmentId', 'organizationId', 'creatorId', 'notificationGroupId', 'layoutId'].map((k) => [
        k,
        'a'.repeat(24),
      ]),
    );
    const broken = {
      version: 1,
      identity,
      workflows: [{ _id: 'x', name: 'n', steps: [], triggers: [] }],
      idempotency: [],
    };
    await writeFile(dataFile, content ?? JSON.stringify(broken));
    const attempt = start({ dataFile });
    await expect(attempt).rejects.toBeInstanceOf(WfsyncError);
    await expect(attempt).rejects.toThrow(pattern);
    await expect(attempt).rejects.toThrow(dataFile);
  });

  it('reads a file written before changes and Production were kept, and refuses a broken change', async () => {
    const dataFile = join(tempDir(), 'data.json');
    const first = await start({ dataFile, seed: 61 });
    await post(first, workflowBody(first));
    await first.close();
    const {
      changes: _changes,
      production: _production,
      ...older
    } = JSON.parse(await readFile(dataFile, 'utf8'));
    await writeFile(dataFile, JSON.stringify(older));
    const second = await start({ dataFile });
    expect((await get(second, 'order-shipped')).status).toBe(200);
    expect(second.pendingChanges()).toEqual([]);
    await second.close();
    await writeFile(dataFile, JSON.stringify({ ...older, changes: [{ _id: 'x' }] }));
    await expect(start({ dataFile })).rejects.toThrow(/changes\[0\] must be a change/);
  });

  it('a data file that is a link leading outside its project is refused unread', async () => {
    const secret = join(tempDir({ 'secret.txt': 'CANARY_7f3e{"version":' }), 'secret.txt');
    const project = tempDir();
    await mkdir(join(project, '.git'));
    const dataFile = join(project, 'local-service.json');
    await symlink(secret, dataFile);
    const attempt = start({ dataFile });
    await expect(attempt).rejects.toThrow(
      /the emulator data file .* leads outside .* through a symbolic link; it was not read/,
    );
    await expect(attempt).rejects.not.toThrow(/CANARY/);
  });
});
