import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import {
  type AtomicWriteFs,
  type AtomicWriteHandle,
  nodeAtomicWriteFs,
} from '../../../src/state/atomic-write.js';
import type { PendingCreate, StateEntry, StateFile } from '../../../src/state/types.js';
import { osError } from '../../helpers/lock-fakes.js';

export { osError };

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

/** A fresh directory, removed after the test. */
export async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'wfsync-state-'));
  dirs.push(dir);
  return dir;
}

export const TARGET = { target: 'prod', baseUrl: 'https://api.example.com' };

/** A distinct valid ObjectId / hash per number. */
export function objectId(n: number): string {
  return n.toString(16).padStart(24, '0');
}
export function hash(n: number): string {
  return `sha256:${n.toString(16).padStart(64, '0')}`;
}

export function entry(n: number, overrides: Partial<StateEntry> = {}): StateEntry {
  return {
    id: objectId(n),
    hash: hash(n),
    origin: 'created',
    file: `workflows/w${n}.yaml`,
    recordedAt: '2025-01-02T03:04:05.000Z',
    ...overrides,
  };
}

export function pending(identifier: string, overrides: Partial<PendingCreate> = {}): PendingCreate {
  return {
    identifier,
    lookupIdentifiers: [identifier, `${identifier}-v2`],
    name: `Name of ${identifier}`,
    hash: hash(7),
    idempotencyKey: `key-${identifier}`,
    startedAt: '2025-01-02T03:04:05.000Z',
    ...overrides,
  };
}

export function state(overrides: Partial<StateFile> = {}): StateFile {
  return { version: 1, ...TARGET, workflows: {}, pending: {}, ...overrides };
}

export type Step = 'open' | 'write' | 'sync' | 'rename';

/**
 * Real file operations that fail at one step of writing the temp file (`when` decides which call), and count
 * renames, i.e. completed writes. Directory opens ('r') never fail: they are the best-effort directory fsync.
 */
export function failingFs(
  step: Step | undefined,
  error: NodeJS.ErrnoException,
  when: () => boolean = () => true,
): AtomicWriteFs & { renames: number } {
  const fs = {
    renames: 0,
    rm: nodeAtomicWriteFs.rm,
    async open(path: string, flags: string, mode?: number): Promise<AtomicWriteHandle> {
      if (flags === 'r') return nodeAtomicWriteFs.open(path, flags, mode);
      if (step === 'open' && when()) throw error;
      const handle = await nodeAtomicWriteFs.open(path, flags, mode);
      return {
        writeFile: async (data, encoding) => {
          if (step === 'write' && when()) {
            // A full disk typically accepts part of the data first.
            await handle.writeFile(data.slice(0, Math.floor(data.length / 2)), encoding);
            throw error;
          }
          return handle.writeFile(data, encoding);
        },
        sync: async () => {
          if (step === 'sync' && when()) throw error;
          return handle.sync();
        },
        close: () => handle.close(),
      };
    },
    async rename(from: string, to: string): Promise<void> {
      if (step === 'rename' && when()) throw error;
      await nodeAtomicWriteFs.rename(from, to);
      fs.renames++;
    },
  };
  return fs;
}

/** The pid of a process that has exited (and been reaped): nothing answers to it any more. */
export async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  await new Promise<void>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', () => resolve());
  });
  if (child.pid === undefined) throw new Error('could not spawn a child process');
  return child.pid;
}
