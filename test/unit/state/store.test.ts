import { readFileSync } from 'node:fs';
import { readdir, readFile, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WfsyncError } from '../../../src/errors.js';
import { ExitCode } from '../../../src/exit-codes.js';
import { STRAY_TEMP_AGE_MS } from '../../../src/state/atomic-write.js';
import { serializeState } from '../../../src/state/format.js';
import { readState } from '../../../src/state/read.js';
import { StateStore } from '../../../src/state/store.js';
import type { PendingCreate, StateFile } from '../../../src/state/types.js';
import { entry, failingFs, osError, pending, state, TARGET, tempDir } from './helpers.js';

async function statePath(): Promise<string> {
  return join(await tempDir(), '.wfsync', 'state', 'prod.json');
}

function onDisk(path: string): StateFile {
  return JSON.parse(readFileSync(path, 'utf8')) as StateFile;
}

describe('StateStore', () => {
  it('journals a create, records it, and reads it back after a restart', async () => {
    const path = await statePath();
    const store = await StateStore.open(path, TARGET);
    expect(store.snapshot).toEqual(state());

    await store.recordPending(pending('order-shipped'));
    expect(onDisk(path).pending['order-shipped']).toEqual(pending('order-shipped'));
    await store.recordWorkflow('order-shipped', entry(1));
    expect(onDisk(path)).toEqual(state({ workflows: { 'order-shipped': entry(1) } }));
    expect(readFileSync(path, 'utf8')).toBe(serializeState(store.snapshot));

    const reopened = await StateStore.open(path, TARGET);
    expect(reopened.snapshot).toEqual(store.snapshot);
    expect(await readdir(join(path, '..'))).toEqual(['prod.json']);
  });

  it('has every change on disk when its promise resolves, and coalesces a burst into few writes', async () => {
    const path = await statePath();
    const fs = failingFs(undefined, osError('EIO', 'never'));
    const store = await StateStore.open(path, TARGET, { fs });
    const identifiers = Array.from({ length: 50 }, (_, i) => `workflow-${i}`);
    const seenOnResolve: boolean[] = await Promise.all(
      identifiers.map((identifier, i) =>
        store.recordWorkflow(identifier, entry(i + 1)).then(() => identifier in onDisk(path).workflows),
      ),
    );
    expect(seenOnResolve.every(Boolean)).toBe(true);
    expect(Object.keys(onDisk(path).workflows)).toEqual([...identifiers].sort());
    // One write in flight when the burst starts, every other change joins the single next one.
    expect(fs.renames).toBe(2);
  });

  it('writes nothing more for a flush or a no-op when every change is on disk or being written', async () => {
    const path = await statePath();
    const fs = failingFs(undefined, osError('EIO', 'never'));
    const store = await StateStore.open(path, TARGET, { fs });
    // The flush joins the write already carrying the change.
    await Promise.all([store.recordWorkflow('a', entry(1)), store.flush()]);
    expect(fs.renames).toBe(1);
    await store.flush();
    await store.forget('nothing');
    await store.clearPending('nothing');
    expect(fs.renames).toBe(1);
    await store.recordWorkflow('b', entry(2));
    expect(fs.renames).toBe(2);
    expect(Object.keys(onDisk(path).workflows)).toEqual(['a', 'b']);
  });

  it('interleaves journal entries and records of concurrent creates without losing any', async () => {
    const path = await statePath();
    const store = await StateStore.open(path, TARGET);
    const creates = Array.from({ length: 20 }, async (_, i) => {
      const identifier = `w-${i}`;
      await store.recordPending(pending(identifier));
      expect(onDisk(path).pending[identifier]).toBeDefined();
      await store.recordWorkflow(identifier, entry(i + 1));
    });
    await Promise.all(creates);
    const saved = await readState(path, TARGET);
    expect(Object.keys(saved.workflows)).toHaveLength(20);
    expect(saved.pending).toEqual({});
  });

  it('reports a full disk naming the file, keeps the old file, and writes the change once space is back', async () => {
    const path = await statePath();
    const first = await StateStore.open(path, TARGET);
    await first.recordWorkflow('a', entry(1));
    const before = readFileSync(path, 'utf8');

    let diskFull = true;
    const store = await StateStore.open(path, TARGET, {
      fs: failingFs('write', osError('ENOSPC', 'write'), () => diskFull),
    });
    const results = await Promise.allSettled([
      store.recordPending(pending('b')),
      store.recordWorkflow('c', entry(3)),
      store.recordWorkflow('d', entry(4)),
    ]);
    for (const result of results) {
      expect(result.status).toBe('rejected');
      const error = (result as PromiseRejectedResult).reason;
      expect(error).toBeInstanceOf(WfsyncError);
      expect(error.message).toBe(
        `cannot write the state file ${path}: disk full (ENOSPC: simulated, write); its previous content is intact`,
      );
      expect(error.cause).toMatchObject({ code: 'ENOSPC' });
    }
    expect(readFileSync(path, 'utf8')).toBe(before);
    expect(await readdir(join(path, '..'))).toEqual(['prod.json']);

    diskFull = false;
    await store.flush();
    expect(Object.keys(onDisk(path).workflows)).toEqual(['a', 'c', 'd']);
    expect(Object.keys(onDisk(path).pending)).toEqual(['b']);
  });

  it('ignores the temp file of a write that crashed before its rename, and cleans it once it is old', async () => {
    const path = await statePath();
    const store = await StateStore.open(path, TARGET);
    await store.recordWorkflow('a', entry(1));
    const crashed = `${path}.999999.deadbeef.tmp`;
    const fresh = `${path}.999998.feedf00d.tmp`;
    const half = serializeState(state({ workflows: { a: entry(1), b: entry(2) } })).slice(0, 90);
    await writeFile(crashed, half);
    await writeFile(fresh, half);
    const longAgo = new Date(Date.now() - STRAY_TEMP_AGE_MS - 1_000);
    await utimes(crashed, longAgo, longAgo);

    expect(Object.keys((await readState(path, TARGET)).workflows)).toEqual(['a']);
    const reopened = await StateStore.open(path, TARGET);
    expect(Object.keys(reopened.snapshot.workflows)).toEqual(['a']);
    // The fresh one could belong to a writer that is still running: kept.
    expect((await readdir(join(path, '..'))).sort()).toEqual(['prod.json', 'prod.json.999998.feedf00d.tmp']);
  });

  it('gives out deep copies: a caller cannot change the state behind its back', async () => {
    const store = await StateStore.open(await statePath(), TARGET);
    const journal = pending('a');
    await store.recordPending(journal);
    journal.lookupIdentifiers.push('mutated');
    const snapshot = store.snapshot;
    snapshot.workflows.x = entry(9);
    expect((store.snapshot.pending.a as PendingCreate | undefined)?.lookupIdentifiers).toEqual(['a', 'a-v2']);
    expect(store.snapshot.workflows).toEqual({});
  });

  it('refuses to record an entry that would make the file unreadable', async () => {
    const path = await statePath();
    const store = await StateStore.open(path, TARGET);
    await expect(store.recordWorkflow('a', entry(1, { id: 'not-an-id' }))).rejects.toThrow(
      /refusing to record an invalid state entry: workflows\["a"\]\.id must be/,
    );
    await expect(store.recordPending(pending('b', { hash: 'abc' }))).rejects.toThrow(/pending\["b"\]\.hash/);
    expect(store.snapshot).toEqual(state());
    await expect(readFile(path)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('forgets workflows and journal entries; no-ops write nothing', async () => {
    const path = await statePath();
    const store = await StateStore.open(path, TARGET);
    await store.forget('nothing');
    await store.clearPending('nothing');
    await expect(readFile(path)).rejects.toMatchObject({ code: 'ENOENT' });

    await store.recordWorkflow('a', entry(1));
    await store.recordPending(pending('a'));
    await store.recordPending(pending('b'));
    await store.clearPending('b');
    expect(onDisk(path).pending).toEqual({ a: pending('a') });
    await store.forget('a');
    expect(onDisk(path)).toEqual(state());
  });

  it.each([
    ['a workflow with no journal entry (wfsync state forget)', { workflows: { a: entry(1), b: entry(2) } }],
    ['a journal entry with no workflow', { workflows: { b: entry(2) }, pending: { a: pending('a') } }],
    [
      'a workflow and its journal entry',
      { workflows: { a: entry(1), b: entry(2) }, pending: { a: pending('a') } },
    ],
  ])('forgets %s, durably, keeping the rest', async (_name, before) => {
    const path = await statePath();
    const store = await StateStore.open(path, TARGET);
    await store.replace(state(before));
    await store.forget('a');
    expect(onDisk(path)).toEqual(state({ workflows: { b: entry(2) } }));
    expect(store.snapshot).toEqual(onDisk(path));
    expect((await StateStore.open(path, TARGET)).snapshot).toEqual(state({ workflows: { b: entry(2) } }));
  });

  it('replaces the whole state (rebuild) but only with a valid state of its own target', async () => {
    const path = await statePath();
    const store = await StateStore.open(path, TARGET);
    const rebuilt = state({
      baseUrl: 'https://api.example.com/v1/',
      workflows: { a: entry(1, { origin: 'rebuilt' }) },
    });
    await store.replace(rebuilt);
    expect(onDisk(path)).toEqual({ ...rebuilt, baseUrl: 'https://api.example.com' });

    const foreign = store.replace(state({ target: 'staging' }));
    await expect(foreign).rejects.toBeInstanceOf(WfsyncError);
    await expect(foreign).rejects.toMatchObject({ exitCode: ExitCode.Invalid });
    await expect(store.replace({ ...state(), workflows: { a: entry(1, { hash: 'x' }) } })).rejects.toThrow(
      /invalid state given to StateStore.replace/,
    );
    expect(onDisk(path).workflows.a?.origin).toBe('rebuilt');
  });

  it('keeps an identifier named __proto__ as an ordinary entry', async () => {
    const path = await statePath();
    const store = await StateStore.open(path, TARGET);
    await store.recordWorkflow('__proto__', entry(1));
    expect(Object.keys(store.snapshot.workflows)).toEqual(['__proto__']);
    expect(Object.keys((await readState(path, TARGET)).workflows)).toEqual(['__proto__']);
  });
});
