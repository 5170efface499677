import * as fsp from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { StateStore } from '../../../src/state/store.js';
import { harness, posts, runSync, TARGET } from './harness.js';

/** File operations that fail with ENOSPC once `full` is set, like a disk filling up. */
function fillingDisk() {
  const disk = { full: false };
  const enospc = () => Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
  const fs = {
    mkdir: (path: string, options: { recursive: true }) => fsp.mkdir(path, options),
    open: async (path: string, flags: string, mode?: number) => {
      if (disk.full) throw enospc();
      return fsp.open(path, flags, mode);
    },
    rename: (from: string, to: string) => fsp.rename(from, to),
    rm: (path: string, options: { force: true }) => fsp.rm(path, options),
  };
  return { disk, fs };
}

describe('a state file that cannot be written', () => {
  it('before the first journal entry: nothing is sent, every create is skipped', async () => {
    const { disk, fs } = fillingDisk();
    disk.full = true;
    const h = await harness({ store: { fs } });
    const { result } = await runSync(h, { concurrency: 1 });
    expect(result.status).toBe('failed');
    expect(result.outcomes[0]).toMatchObject({
      outcome: 'failed',
      message: expect.stringContaining('nothing was sent: the journal entry could not be written'),
    });
    expect(result.summary.skipped).toBe(h.desired.length - 1);
    expect(result.outcomes[1]?.message).toBe(
      'not attempted: the state file could not be written, so a create could not be journaled',
    );
    expect(posts(h.emu)).toHaveLength(0);
  });

  it('after a journaled create: reported, and the next run recovers it without a second POST', async () => {
    const { disk, fs } = fillingDisk();
    const h = await harness({ store: { fs } });
    const first = await runSync(h, {
      concurrency: 1,
      onEvent: (event) => {
        // The journal entry is on disk once the POST starts; the write recording its answer fails.
        if (event.type === 'workflow' && event.status === 'creating') disk.full = true;
      },
    });
    const [failed] = first.result.outcomes;
    expect(failed).toMatchObject({
      outcome: 'failed',
      message: expect.stringContaining('but recording it failed'),
    });
    expect(h.emu.workflows()).toHaveLength(1);

    // The next run, with space again, reads what reached the disk: the journal entry.
    const next = { ...h, store: await StateStore.open(h.statePath, { target: TARGET, baseUrl: h.emu.url }) };
    const second = await runSync(next);
    expect(second.reconciled.recovered.map((r) => r.identifier)).toEqual([failed?.identifier]);
    expect(second.result.status).toBe('ok');
    expect(posts(h.emu)).toHaveLength(h.desired.length);
    expect(h.emu.workflows()).toHaveLength(h.desired.length);
  });
});
