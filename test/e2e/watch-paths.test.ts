import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type WatchOptions, watchPaths } from '../../src/cli/watch-paths.js';
import { useTempProjects } from '../helpers/temp-project.js';

// Resolved through links (on macOS the temp dir is one, and watchers report the real path); removed after each test,
// once the watchers (stopped first: hooks after a test run last-registered first) are gone.
const tempDir = useTempProjects('wfsync-watch-');

/** watchPaths in this process, on real temp directories: each onChange call's paths, in order. */
interface Session {
  calls: string[][];
  errors: string[];
  done: Promise<void>;
  /** Resolves with the calls once there are at least `n`. */
  calls$(n: number): Promise<string[][]>;
  stop(): Promise<void>;
}

const controllers: AbortController[] = [];
afterEach(() => {
  for (const controller of controllers.splice(0)) controller.abort();
});

function startWatching(
  roots: string[],
  extra: Partial<Pick<WatchOptions, 'onChange' | 'skipDirectory'>> = {},
): Promise<Session> {
  const controller = new AbortController();
  controllers.push(controller);
  const calls: string[][] = [];
  const errors: string[] = [];
  const waiters: Array<() => void> = [];
  return new Promise((ready) => {
    const done = watchPaths({
      roots,
      filter: (file) => /\.ya?ml$/.test(file),
      ...(extra.skipDirectory ? { skipDirectory: extra.skipDirectory } : {}),
      signal: controller.signal,
      onError: (error, dir) => errors.push(`${dir}: ${error.code}`),
      onReady: () => ready(session),
      onChange: async (changed) => {
        calls.push(changed);
        for (const wake of waiters.splice(0)) wake();
        await extra.onChange?.(changed);
      },
    });
    const session: Session = {
      calls,
      errors,
      done,
      calls$: (n) =>
        new Promise((resolve, reject) => {
          const timer = setTimeout(
            () => reject(new Error(`fewer than ${n} calls: ${JSON.stringify(calls)}`)),
            20_000,
          );
          const check = () => {
            if (calls.length >= n) {
              clearTimeout(timer);
              resolve(calls);
            } else waiters.push(check);
          };
          check();
        }),
      stop: () => {
        controller.abort();
        return done;
      },
    };
  });
}

describe('watchPaths', () => {
  it('a burst of writes is one call naming every file, sorted', async () => {
    const root = tempDir();
    const session = await startWatching([root]);
    for (const name of ['c.yaml', 'a.yaml', 'b.yml']) writeFileSync(join(root, name), 'x: 1\n');
    expect(await session.calls$(1)).toEqual([
      [join(root, 'a.yaml'), join(root, 'b.yml'), join(root, 'c.yaml')],
    ]);
    await session.stop();
  });

  it('ignores files the filter rejects and everything under hidden directories and node_modules', async () => {
    const root = tempDir();
    for (const dir of ['.git', 'node_modules/pkg', 'sub']) mkdirSync(join(root, dir), { recursive: true });
    const session = await startWatching([root]);
    writeFileSync(join(root, '.git/HEAD.yaml'), 'x\n');
    writeFileSync(join(root, 'node_modules/pkg/a.yaml'), 'x\n');
    writeFileSync(join(root, 'notes.txt'), 'x\n');
    writeFileSync(join(root, 'order.yaml~'), 'x\n');
    writeFileSync(join(root, 'sub/real.yaml'), 'x\n');
    expect(await session.calls$(1)).toEqual([[join(root, 'sub/real.yaml')]]);
    await session.stop();
  });

  it('skipDirectory (config exclude): nothing under a skipped directory is a change', async () => {
    const root = tempDir();
    for (const dir of ['k8s/deep', 'sub']) mkdirSync(join(root, dir), { recursive: true });
    const session = await startWatching([root], { skipDirectory: (dir) => dir === join(root, 'k8s') });
    writeFileSync(join(root, 'k8s/deploy.yaml'), 'x\n');
    writeFileSync(join(root, 'k8s/deep/service.yaml'), 'x\n');
    writeFileSync(join(root, 'sub/real.yaml'), 'x\n');
    expect(await session.calls$(1)).toEqual([[join(root, 'sub/real.yaml')]]);
    await session.stop();
  });

  it('a file root: its directory is watched, and a save that replaces the file (rename over it) is seen', async () => {
    const root = tempDir();
    const file = join(root, 'one.yaml');
    writeFileSync(file, 'a: 1\n');
    const session = await startWatching([file]);
    writeFileSync(join(root, 'other.yaml'), 'x\n');
    writeFileSync(join(root, '.one.yaml.swp'), 'a: 2\n');
    // Editors that save atomically write a temp file and rename it over the original.
    renameSync(join(root, '.one.yaml.swp'), file);
    expect(await session.calls$(1)).toEqual([[file]]);
    await session.stop();
  });

  it('a root deleted and recreated: both are changes, and files in the new directory are watched', async () => {
    const parent = tempDir();
    const root = join(parent, 'workflows');
    mkdirSync(root);
    const session = await startWatching([root]);
    rmSync(root, { recursive: true });
    expect((await session.calls$(1))[0]).toContain(root);
    mkdirSync(root);
    expect((await session.calls$(2))[1]).toContain(root);
    writeFileSync(join(root, 'new.yaml'), 'x\n');
    expect((await session.calls$(3))[2]).toEqual([join(root, 'new.yaml')]);
    expect(session.errors).toEqual([]);
    await session.stop();
  });

  it('stopping waits for a run in progress; a throwing onChange rejects and stops watching', async () => {
    const root = tempDir();
    let finished = false;
    const slow = await startWatching([root], {
      onChange: async () => {
        await new Promise((resolve) => setTimeout(resolve, 200));
        finished = true;
      },
    });
    writeFileSync(join(root, 'a.yaml'), 'x\n');
    await slow.calls$(1);
    await slow.stop();
    expect(finished).toBe(true);

    const failing = await startWatching([root], {
      onChange: async () => {
        throw new Error('boom');
      },
    });
    writeFileSync(join(root, 'b.yaml'), 'x\n');
    await expect(failing.done).rejects.toThrow('boom');
  });
});
