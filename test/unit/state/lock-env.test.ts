import { readFile, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { nodeLockEnv } from '../../../src/state/lock-env.js';
import { deadPid, tempDir } from './helpers.js';

/** The real effects behind the lock (acquireLock's default): each does what LockEnv promises. */
describe('nodeLockEnv', () => {
  it('reads the machine clock, this host and this process', () => {
    const before = Date.now();
    const now = nodeLockEnv.now();
    expect(now).toBeGreaterThanOrEqual(before);
    expect(now).toBeLessThanOrEqual(Date.now());
    expect(nodeLockEnv.hostname()).toBe(hostname());
    expect(nodeLockEnv.pid).toBe(process.pid);
  });

  it('kill(pid, 0) answers for a live process and throws ESRCH for a gone one', async () => {
    expect(() => nodeLockEnv.kill(process.pid, 0)).not.toThrow();
    const gone = await deadPid();
    expect(() => nodeLockEnv.kill(gone, 0)).toThrow(expect.objectContaining({ code: 'ESRCH' }));
  });

  it('sleeps, and stops sleeping when aborted', async () => {
    await expect(nodeLockEnv.sleep(1, undefined)).resolves.toBeUndefined();
    const controller = new AbortController();
    const long = nodeLockEnv.sleep(3_600_000, controller.signal);
    controller.abort();
    await expect(long).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('ticks until stopped, without keeping the process alive', async () => {
    const timers = (): number => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const before = timers();
    const tick = vi.fn();
    const stop = nodeLockEnv.every(1, tick);
    expect(timers()).toBe(before);
    await vi.waitFor(() => expect(tick.mock.calls.length).toBeGreaterThanOrEqual(2), { interval: 1 });
    stop();
    const ticks = tick.mock.calls.length;
    await nodeLockEnv.sleep(5, undefined);
    expect(tick).toHaveBeenCalledTimes(ticks);
  });

  it('runs a hook at exit until it is unregistered', () => {
    const fn = (): void => undefined;
    const off = nodeLockEnv.onExit(fn);
    expect(process.listeners('exit')).toContain(fn);
    off();
    expect(process.listeners('exit')).not.toContain(fn);
  });

  it('reads files as text, writes text, and removes a file quietly when it is gone already', async () => {
    const { fs } = nodeLockEnv;
    const path = join(await tempDir(), 'prod.json.lock');
    const handle = await fs.open(path, 'wx');
    await handle.writeFile('{"pid": 7, "host": "hôte"}\n');
    await handle.close();
    expect(await readFile(path, 'utf8')).toBe('{"pid": 7, "host": "hôte"}\n');
    expect(await fs.readFile(path)).toBe('{"pid": 7, "host": "hôte"}\n');
    expect(fs.readFileSync(path)).toBe('{"pid": 7, "host": "hôte"}\n');
    await fs.rm(path);
    await expect(fs.rm(path)).resolves.toBeUndefined();
    await expect(fs.open(path, 'wx').then((h) => h.close())).resolves.toBeUndefined();
    await expect(fs.open(path, 'wx')).rejects.toMatchObject({ code: 'EEXIST' });
    await writeFile(path, 'x');
    fs.unlinkSync(path);
    await expect(fs.stat(path)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
